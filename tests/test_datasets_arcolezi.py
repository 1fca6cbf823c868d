"""Tests of the adult26k and lsac loaders (Arcolezi et al. 2023 preprocessing)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from fixtures_data import lsac_raw_rows
from sklearn.preprocessing import LabelEncoder

from ldpfair import datasets
from ldpfair.datasets.arcolezi import (
    ADULT26K_COLUMNS,
    LSAC_COLUMNS,
    build_lsac,
    label_encode,
    make_adult26k,
    read_codes_csv,
)


def test_label_encode_matches_sklearn():
    rng = np.random.default_rng(1)
    for values in (
        rng.choice(["b", "a", "10th", "9th", "Z"], 50),
        rng.choice([3.5, 1.0, 2.0, 11.0], 50),
    ):
        codes, classes = label_encode(values)
        le = LabelEncoder().fit(values)
        np.testing.assert_array_equal(codes, le.transform(values))
        np.testing.assert_array_equal(classes, le.classes_)


def _lsac_reference(raw: pd.DataFrame) -> pd.DataFrame:
    """Independent, row-by-row version of the authors' recipe (Python round, LabelEncoder)."""
    df = raw.dropna(how="any").copy()
    df["gender"] = df["gender"].astype(str)
    df["race1"] = [int(v != "black") for v in df["race1"]]
    df["ugpa"] = [round(2 * v) / 2 for v in df["ugpa"]]
    df["lsat"] = np.rint(df["lsat"])
    df = df[list(LSAC_COLUMNS)].reset_index(drop=True)
    return pd.DataFrame({c: LabelEncoder().fit_transform(df[c].to_numpy()) for c in df})


def test_build_lsac_follows_recipe_on_fixture():
    raw = lsac_raw_rows(300, np.random.default_rng(7))
    frame, cats = build_lsac(raw)
    expected = _lsac_reference(raw)
    assert len(frame) == raw.dropna(how="any").shape[0] < len(raw)
    pd.testing.assert_frame_equal(frame, expected, check_dtype=False)
    # half-to-even rounding: 1.75 -> 2.0, 2.25 -> 2.0, 3.25 -> 3.0, 3.75 -> 4.0
    assert set(cats["ugpa"].values()) <= {"1.5", "2", "2.5", "3", "3.5", "4"}
    assert "2.5" not in cats["ugpa"].values()  # no raw value rounds to 2.5 in this fixture
    # rint: 12.5 -> 12, 13.5 -> 14, 30.5 -> 30, 31.5 -> 32
    assert set(cats["lsat"].values()) <= {"11", "12", "14", "20", "30", "32", "47"}
    assert cats["race1"] == {0: "black", 1: "non-black"}
    kept = raw.dropna(how="any").reset_index(drop=True)
    np.testing.assert_array_equal(frame["race1"], (kept["race1"] != "black").astype(int))


def test_build_lsac_missing_column():
    raw = lsac_raw_rows(10, np.random.default_rng(0)).drop(columns=["ugpa"])
    with pytest.raises(ValueError, match="ugpa"):
        build_lsac(raw)


def test_read_codes_csv_validates(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("a,b\n0,1\n1,0\n")
    assert read_codes_csv(p, ["a", "b"], {"a": 2, "b": 2}).shape == (2, 2)
    with pytest.raises(ValueError, match="unexpected columns"):
        read_codes_csv(p, ["a", "c"])
    with pytest.raises(ValueError, match="outside"):
        read_codes_csv(p, ["a", "b"], {"a": 1})
    p.write_text("a,b\n0,\n1,0\n")
    with pytest.raises(ValueError, match="missing"):
        read_codes_csv(p, ["a", "b"])
    p.write_text("a,b\n0,x\n1,0\n")
    with pytest.raises(ValueError, match="not integer"):
        read_codes_csv(p, ["a", "b"])


def _adult_fixture() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    ks = {"age": 74, "workclass": 7, "education": 16, "marital-status": 7, "occupation": 14}
    ks |= {"native-country": 41, "relationship": 6, "hours-per-week": 96, "gender": 2}
    ks |= {"race": 5, "income": 2}
    return pd.DataFrame({c: rng.integers(0, ks[c], 200) for c in ADULT26K_COLUMNS})


def test_make_adult26k_protected_options():
    frame = _adult_fixture()
    g = make_adult26k(frame, "gender")
    assert "race_gender" not in g.frame
    assert list(g.sensitive) == ["gender", "race", "native-country", "age"]
    assert g.categories["gender"] == {0: "Female", 1: "Male"}
    assert g.categories["native-country"][38] == "United-States"
    assert g.categories["education"][15] == "Some-college"
    r = make_adult26k(frame, "race")
    assert list(r.sensitive)[0] == "race" and "race_gender" not in r.frame
    rg = make_adult26k(frame, "race_gender")
    np.testing.assert_array_equal(rg.a, frame["race"] * 2 + frame["gender"])
    assert rg.sensitive["race_gender"] == 10 and rg.domains["race_gender"] == 10
    assert rg.categories["race_gender"][9] == "White/Male"
    assert rg.frame.columns[-1] == "income"
    with pytest.raises(ValueError, match="race_gender"):
        make_adult26k(frame, "sex")


def test_unknown_dataset_and_option_list_valid():
    with pytest.raises(ValueError, match="valid:.*adult26k.*lsac"):
        datasets.load("no_such_dataset")
    with pytest.raises(ValueError, match="valid options: source='raw', protected='race1'"):
        datasets.load("lsac", colour="red")
    with pytest.raises(ValueError, match="'race1', 'gender', 'fam_inc'"):
        datasets.load("lsac", protected="age")


@pytest.mark.data
def test_adult26k_real():
    ds = datasets.load("adult26k")
    assert ds.n == 45_849
    assert ds.domains == {
        "age": 74, "workclass": 7, "education": 16, "marital-status": 7, "occupation": 14,
        "native-country": 41, "relationship": 6, "hours-per-week": 96, "gender": 2, "race": 5,
        "income": 2,
    }  # fmt: skip
    assert int(ds.y.sum()) == 23_738 and int(ds.a.sum()) == 31_004
    assert sum(ds.sensitive.values()) == 122
    rg = datasets.load("adult26k", protected="race_gender")
    assert rg.frame["race_gender"].nunique() == 10


@pytest.mark.data
def test_lsac_raw_equals_extract():
    raw = datasets.load("lsac", source="raw")
    ext = datasets.load("lsac", source="extract")
    assert raw.n == 20_427
    pd.testing.assert_frame_equal(raw.frame, ext.frame)
    assert raw.categories == ext.categories
    assert raw.domains == {
        "fam_inc": 5, "gender": 2, "fulltime": 2, "race1": 2, "lsat": 37, "ugpa": 6, "pass_bar": 2
    }  # fmt: skip
    assert int(raw.y.sum()) == 19_389 and int(raw.a.sum()) == 19_229
    assert sum(raw.sensitive.values()) == 11
    g = datasets.load("lsac", protected="fam_inc")
    assert g.protected == "fam_inc" and list(g.sensitive)[0] == "fam_inc"
