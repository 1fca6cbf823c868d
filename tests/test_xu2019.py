"""Tests of the xu2019 paper declarations (ldpfair.papers.xu2019)."""

from __future__ import annotations

import numpy as np
import pytest

from ldpfair.papers import xu2019


def test_profiles_declare_every_target() -> None:
    paper = xu2019.PROFILES["paper"]
    assert set(paper) == {"table1", "table2", "fig1"}
    assert len(paper["table1"]) == 2 * 2 * len(xu2019.METHODS) * 10
    assert len(paper["table2"]) == 2 * 2 * len(xu2019.PRIVATE_METHODS) * 4 * 10
    ratios = sorted({p["eps_f_ratio"] for p in paper["fig1"].param_sets})
    np.testing.assert_allclose(ratios, np.arange(1, 20) * 0.05)
    quick = xu2019.PROFILES["quick"]
    assert {p["method"] for p in quick["table1"].param_sets} == set(xu2019.METHODS)
    with pytest.raises(ValueError, match="profile"):
        xu2019.build("slow")


def test_published_tables() -> None:
    assert len(xu2019.PAPER_TABLE1) == 10 and len(xu2019.PAPER_TABLE2) == 24
    t1 = xu2019.PAPER_TABLE1.set_index(["dataset", "method"])
    t2 = xu2019.PAPER_TABLE2.set_index(["dataset", "method", "epsilon"])
    # Table 2 at epsilon = 1 repeats Table 1 (accuracy)
    for ds in ("adult", "dutch"):
        for m in ("PrivLR", "PFLR", "PFLR*"):
            assert t1.loc[(ds, m), "accuracy"] == t2.loc[(ds, m, 1.0), "accuracy"]
    # the paper's "11.42%" and "17.52%" losses are differences of Table 1 accuracies (points)
    loss = t1["accuracy"].xs("LR", level="method") - t1["accuracy"].xs("PrivLR", level="method")
    np.testing.assert_allclose(loss[["adult", "dutch"]], [0.1142, 0.1752], atol=1e-9)


def test_noise_variance_pflr_star_needs_large_eps_f() -> None:
    # eps_f = eps/2 doubles the objective's noise scale: PFLR* adds MORE noise than PFLR for d >= 4
    for d in (4, 40, 102):
        assert xu2019.noise_variance("PFLR*", d, 1.0, 0.5) > xu2019.noise_variance("PFLR", d, 1.0)
    # with eps_f / eps large enough (paper: eps_f >= Delta_f / Delta_f~ * eps) it adds less
    d = 40
    q = 0.9
    assert q > xu2019.lr_sensitivity(d) / xu2019.pflr_sensitivity(d)
    assert xu2019.noise_variance("PFLR*", d, 1.0, q) < xu2019.noise_variance("PFLR", d, 1.0)
    # ... but not too large: the noise of mu (budget eps_g) counts too, which the paper omits
    assert xu2019.noise_variance("PFLR*", d, 1.0, 0.95) > xu2019.noise_variance("PFLR", d, 1.0)


@pytest.mark.data
def test_features_and_cell() -> None:
    for ds, feats, d in (("adult", "onehot", 102), ("adult", "compact", 40),
                         ("dutch", "onehot", 59), ("dutch", "compact", 37)):
        X, y, s, cols = xu2019.load_xy(ds, feats)
        assert X.shape[1] == d == len(cols) and X.min() >= 0 and X.max() <= 1
        assert set(np.unique(y)) == {0, 1} and set(np.unique(s)) == {0, 1}
    X, y, s, _ = xu2019.load_xy("adult", "onehot")
    assert len(y) == 45222
    row = xu2019.fit_evaluate("adult", "compact", "PFLR*", 10.0, 0.5, 0, rng=np.random.default_rng(0))
    again = xu2019.fit_evaluate("adult", "compact", "PFLR*", 10.0, 0.5, 0, rng=np.random.default_rng(0))
    assert row == again and 0.5 < row["accuracy"] < 0.9 and row["d"] == 40
    assert row["rd"] == pytest.approx(abs(row["pos_rate_s1"] - row["pos_rate_s0"]))
    with pytest.raises(ValueError, match="needs an epsilon"):
        xu2019.fit_evaluate("dutch", "onehot", "PrivLR", None, 0.5, 0, rng=np.random.default_rng(0))
