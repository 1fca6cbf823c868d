"""Tests of the acs_coverage loader (extract and folktables sources)."""

from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest
from fixtures_data import pums_rows, write_pums

from ldpfair import datasets
from ldpfair.datasets.acs import ACS_COLUMNS, ACS_DOMAINS


@pytest.fixture
def pums(tmp_path):
    rows = pums_rows(400, np.random.default_rng(11))
    write_pums(tmp_path, rows)
    return tmp_path, rows


def test_folktables_source_on_fixture(pums):
    root, rows = pums
    random.seed(123)
    expected_next = random.random()
    random.seed(123)
    ds = datasets.load("acs_coverage", source="folktables", root_dir=root)
    assert random.random() == expected_next  # folktables' random.seed() did not leak

    kept = rows[(rows["AGEP"] < 65) & (rows["PINCP"] <= 30000)].reset_index(drop=True)
    assert ds.n == len(kept) > 0
    assert list(ds.frame.columns) == list(ACS_COLUMNS)
    for gone in ("DEAR", "DEYE", "DREM", "PINCP"):
        assert gone not in ds.frame
    # binarised columns
    np.testing.assert_array_equal(ds.frame["SEX"], (kept["SEX"] == 1).astype(int))
    np.testing.assert_array_equal(ds.frame["DIS"], (kept["DIS"] == 1).astype(int))
    np.testing.assert_array_equal(ds.frame["RAC1P"], (kept["RAC1P"] == 2).astype(int))
    np.testing.assert_array_equal(ds.frame["PUBCOV"], (kept["PUBCOV"] == 1).astype(int))
    # LabelEncoder of raw values with NaN -> 0
    for c in ("AGEP", "SCHL", "ESP", "MIL", "ESR", "FER", "ANC"):
        raw = kept[c].fillna(0).to_numpy()
        classes = np.unique(raw)
        np.testing.assert_array_equal(ds.frame[c], np.searchsorted(classes, raw))
        assert [ds.categories[c][i] for i in range(len(classes))] == [str(int(v)) for v in classes]
    assert ds.domains["ST"] == 1 and ds.categories["ST"] == {0: "48"}
    assert ds.categories["SEX"] == {0: "female", 1: "male"}
    assert ds.protected == "DIS" and list(ds.sensitive) == ["DIS", "AGEP", "SEX", "SCHL"]
    assert "sha256" in ds.description


def test_folktables_source_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"psam_p06\.csv.*download=True"):
        datasets.load("acs_coverage", source="folktables", state="CA", root_dir=tmp_path)
    assert not (tmp_path / "2018").exists()  # nothing created in a possibly read-only folder


def test_options_validated():
    with pytest.raises(ValueError, match="Texas 2018 only"):
        datasets.load("acs_coverage", state="CA")
    with pytest.raises(ValueError, match="year"):
        datasets.load("acs_coverage", source="folktables", year=2010)
    with pytest.raises(ValueError, match="valid: 'extract', 'folktables'"):
        datasets.load("acs_coverage", source="census")
    with pytest.raises(ValueError, match="invalid state"):
        datasets.load("acs_coverage", state="XX")


@pytest.mark.data
def test_acs_extract_real():
    ds = datasets.load("acs_coverage")
    assert ds.n == 98_739
    assert ds.domains == ACS_DOMAINS
    assert sum(ds.sensitive.values()) == 78
    assert int(ds.y.sum()) == 18_322 and int(ds.a.sum()) == 13_839
    assert int(ds.frame["SEX"].sum()) == 42_039 and int(ds.frame["RAC1P"].sum()) == 11_181
    assert ds.categories["AGEP"][0] == "15" and ds.categories["AGEP"][49] == "64"
    assert isinstance(ds.frame, pd.DataFrame) and (ds.frame.dtypes == np.int64).all()
