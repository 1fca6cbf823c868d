"""Tests of the Makhlouf et al. (2024) datasets: synthetic, COMPAS and Adult."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from fixtures_data import compas_raw_text
from scipy import stats

from ldpfair import datasets
from ldpfair.datasets.makhlouf import SYNTHETIC_FILES, build_compas, generate_synthetic


@pytest.fixture(scope="module")
def synth():
    return {
        (v, q): datasets.load("synthetic_makhlouf", quantile=q, variant=v, seed=2024)
        for v in (1, 2)
        for q in (0.25, 0.5, 0.75)
    }


@pytest.mark.parametrize("q", [0.25, 0.5, 0.75])
def test_synthetic_base_rate_exact(synth, q):
    for v in (1, 2):
        ds = synth[(v, q)]
        assert ds.n == 100_000
        assert int(ds.y.sum()) == round(100_000 * (1 - q))


def test_synthetic_conditionals_match_model(synth):
    f = synth[(1, 0.5)].frame
    c, a, m = f["C"].to_numpy(), f["A"].to_numpy(), f["M"].to_numpy()
    assert stats.binomtest(int(c.sum()), len(c), 0.35).pvalue > 1e-3
    for cv, p in ((0, 0.55), (1, 0.75)):
        sel = a[c == cv]
        assert stats.binomtest(int(sel.sum()), len(sel), p).pvalue > 1e-3
    for av, probs in ((0, (0.5, 0.4, 0.1)), (1, (0.35, 0.4, 0.25))):
        obs = np.bincount(m[a == av], minlength=3)
        exp = np.asarray(probs) * obs.sum()
        assert stats.chisquare(obs, exp).pvalue > 1e-3
    # M depends on C only through A: within A, M is independent of C
    for av in (0, 1):
        sel = a == av
        table = pd.crosstab(c[sel], m[sel]).to_numpy()
        assert stats.chi2_contingency(table).pvalue > 1e-3


def test_synthetic_variant2_swaps_privileged_group(synth):
    for q in (0.25, 0.5, 0.75):
        f1, f2 = synth[(1, q)].frame, synth[(2, q)].frame
        r1 = f1.groupby("A")["Y"].mean()
        r2 = f2.groupby("A")["Y"].mean()
        assert r1[1] > r1[0] + 0.1  # variant 1: A = 1 privileged
        assert r2[0] > r2[1] + 0.1  # variant 2: A = 0 privileged
        # same seed: C, A, M identical, only Y differs
        pd.testing.assert_frame_equal(f1[["C", "A", "M"]], f2[["C", "A", "M"]])


def test_synthetic_seeding_and_validation():
    a, _ = generate_synthetic(1000, 0.5, np.random.default_rng(5))
    b, _ = generate_synthetic(1000, 0.5, np.random.default_rng(5))
    c, _ = generate_synthetic(1000, 0.5, np.random.default_rng(6))
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(c)
    d1 = datasets.load("synthetic_makhlouf", n=1000, seed=5)
    pd.testing.assert_frame_equal(d1.frame, a)
    with pytest.raises(ValueError, match="n must be an integer >= 2"):
        datasets.load("synthetic_makhlouf", n=1)
    with pytest.raises(ValueError, match="variant=1 with n=100000"):
        datasets.load("synthetic_makhlouf", source="authors", variant=2)
    with pytest.raises(ValueError, match="0.25, 0.5, 0.75"):
        datasets.load("synthetic_makhlouf", quantile=0.3)
    with pytest.raises(TypeError):
        datasets.load("synthetic_makhlouf", seed=None)


def _compas_rows():
    base = dict(sex="Male", race="African-American", age_cat="25 - 45", priors_count=0)
    rows = [
        {**base, "days": None, "v_decile_score": 9},  # dropped by both filters
        {**base, "days": 0, "v_decile_score": 1},
        {**base, "days": 40, "v_decile_score": 2, "sex": "Female"},  # kept only by "authors"
        {**base, "days": -40, "v_decile_score": 4, "race": "Caucasian"},  # idem
        {**base, "days": 5, "v_decile_score": 6, "race": "Hispanic"},  # race filter
        {**base, "days": -1, "v_decile_score": 10, "race": "Caucasian", "priors_count": 3},
        {**base, "days": 30, "v_decile_score": 3, "age_cat": "Less than 25", "priors_count": 2},
        {**base, "days": -30, "v_decile_score": 5, "age_cat": "Greater than 45"},
    ]
    return pd.read_csv(io.StringIO(compas_raw_text(rows)), low_memory=False)


def test_build_compas_filters_and_codes():
    raw = _compas_rows()
    frame, cats = build_compas(raw, threshold=3, date_filter="authors")
    assert len(frame) == 6
    assert cats["race"] == {0: "African-American", 1: "Caucasian"}
    assert cats["sex"] == {0: "Female", 1: "Male"}
    assert cats["age_cat"] == {0: "25 - 45", 1: "Greater than 45", 2: "Less than 25"}
    np.testing.assert_array_equal(frame["v_decile_score"], [0, 0, 1, 1, 0, 1])
    np.testing.assert_array_equal(frame["race"], [0, 0, 1, 1, 0, 0])
    np.testing.assert_array_equal(frame["priors_count"], [0, 0, 0, 1, 0, 0])
    corr, _ = build_compas(raw, threshold=3, date_filter="corrected")
    assert len(corr) == 4
    th1, _ = build_compas(raw, threshold=1, date_filter="corrected")
    np.testing.assert_array_equal(th1["v_decile_score"], [0, 1, 1, 1])
    with pytest.raises(ValueError, match="'authors', 'corrected'"):
        build_compas(raw, date_filter="and")


@pytest.mark.data
@pytest.mark.parametrize("th", [1, 3, 5])
def test_compas_raw_equals_authors_extract(th):
    from ldpfair.datasets import fetch

    ds = datasets.load("compas_makhlouf", threshold=th)
    ext = pd.read_csv(fetch(f"makhlouf2024/compas_{th}.csv"))
    assert ds.n == 5_915
    pd.testing.assert_frame_equal(ds.frame, ext, check_dtype=False)
    assert ds.domains == {"sex": 2, "race": 2, "age_cat": 3, "priors_count": 2, "v_decile_score": 2}


@pytest.mark.data
def test_compas_corrected_filter():
    ds = datasets.load("compas_makhlouf", date_filter="corrected")
    assert ds.n == 5_278


@pytest.mark.data
def test_adult_makhlouf_real():
    rates = {10000: 0.813, 27260: 0.500, 50000: 0.247}
    for th, r in rates.items():
        ds = datasets.load("adult_makhlouf", threshold=th)
        assert ds.n == 45_849
        assert all(k == 2 for k in ds.domains.values())
        assert abs(ds.y.mean() - r) < 5e-4
        assert list(ds.sensitive) == ["gender", "age", "race", "maritalstatus", "nativecountry"]


@pytest.mark.data
@pytest.mark.parametrize("q", [0.25, 0.5, 0.75])
def test_synthetic_agrees_with_authors_files(synth, q):
    auth = datasets.load("synthetic_makhlouf", source="authors", quantile=q)
    assert auth.files == [SYNTHETIC_FILES[q]]
    assert auth.n == 100_000 and int(auth.y.sum()) == round(100_000 * (1 - q))
    gen = synth[(1, q)]
    # joint distribution of (C, A, M, Y): generated vs the authors' sample
    key_g = gen.frame.to_numpy() @ np.array([12, 6, 2, 1])
    key_a = auth.frame.to_numpy() @ np.array([12, 6, 2, 1])
    table = np.vstack([np.bincount(key_g, minlength=24), np.bincount(key_a, minlength=24)])
    table = table[:, table.sum(axis=0) > 0]
    assert stats.chi2_contingency(table).pvalue > 1e-3
