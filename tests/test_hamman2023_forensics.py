"""hamman2023 forensics: readings of the noise scale, the regression and the implied scales."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ldpfair import attacks
from ldpfair.papers.hamman2023 import forensics as fx


def _pair_loss(b: float, bp: float, d: float) -> float:
    """Numerical sup over z of |log f_b(z) - log f_b'(z - d)| for Cauchy densities."""
    z = np.linspace(-60, 60, 240001) * max(b, bp) + d / 2

    def logf(x: np.ndarray, s: float) -> np.ndarray:
        return -np.log(np.pi * s) - np.log1p((x / s) ** 2)

    return float(np.max(np.abs(logf(z, b) - logf(z - d, bp))))


# --------------------------------------------------------------------------- readings
def test_theorem5_reading_is_algorithm3_scale():
    for n1, n0, m, eps in [(90, 10, 25, 5.0), (990, 10, 500, 100.0), (5, 3, 2, 0.5)]:
        b, fam = attacks.noise_scale(n1, n0, m, eps)
        assert fam == "cauchy"
        assert b == pytest.approx(6 * attacks.smooth_sensitivity_sp(n1, n0, m, eps / (6 * m)) / eps)
    # answer_queries under the default reading draws what attribute_conceal draws
    sp = np.linspace(-0.2, 0.2, 7)
    a = attacks.answer_queries(sp, 20, 5, 3.0, "conceal", np.random.default_rng(4))
    b = attacks.answer_queries(sp, 20, 5, 3.0, "conceal", np.random.default_rng(4), noise_reading="theorem5")
    c = attacks.attribute_conceal(sp, 20, 5, 3.0, np.random.default_rng(4))
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, c)


def test_reading_scales_relate_as_stated():
    n1, n0, m, eps = 900, 100, 300, 10.0
    t5 = attacks.noise_scale(n1, n0, m, eps, "conceal", "theorem5")[0]
    assert attacks.noise_scale(n1, n0, m, eps, "conceal", "no_factor6")[0] == pytest.approx(t5 / 6)
    pq = attacks.noise_scale(n1, n0, m, eps, "conceal", "per_query")[0]
    assert pq == pytest.approx(6 * attacks.smooth_sensitivity_sp(n1, n0, 1, eps / 6) / eps)
    assert attacks.noise_scale(n1, n0, m, eps, "conceal", "per_query_no_factor6")[0] == pytest.approx(pq / 6)
    assert attacks.noise_scale(n1, n0, m, eps, "laplace", "theorem5")[0] == pytest.approx(
        attacks.global_sensitivity_sp(n1 + n0, m) / eps)
    assert attacks.noise_scale(n1, n0, m, eps, "laplace", "per_query")[0] == pytest.approx(
        attacks.global_sensitivity_sp(n1 + n0, 1) / eps)
    assert attacks.noise_scale(n1, n0, m, eps, "conceal", "smooth_laplace")[1] == "laplace"
    # a non-default reading changes the noise of answer_queries by exactly its scale
    sp = np.zeros(5)
    out = attacks.answer_queries(sp, n1, n0, eps, "conceal", np.random.default_rng(1),
                                 noise_reading="per_query")
    np.testing.assert_allclose(out, pq * np.random.default_rng(1).standard_cauchy(5))


def test_reading_errors():
    with pytest.raises(ValueError, match="noise_reading"):
        attacks.noise_scale(90, 10, 5, 1.0, "conceal", "typo")
    with pytest.raises(ValueError, match="noise_reading"):
        attacks.answer_queries(np.zeros(3), 9, 1, 1.0, "conceal", 0, noise_reading="typo")
    with pytest.raises(ValueError, match="mechanism"):
        attacks.noise_scale(90, 10, 5, 1.0, "none")


def test_readings_privacy_on_tiny_neighbouring_pairs():
    """Theorem 5's scale keeps the loss of an explicit neighbouring pair within eps on every tiny
    test set; the per-query reading keeps each answer within eps but not m = 10 answers together."""
    worst_t5, worst_pq_one, worst_pq_all = 0.0, 0.0, 0.0
    for n in (6, 8, 10):
        for n0 in range(2, n // 2 + 1):
            n1 = n - n0
            d = 1.0 / (n1 + 1) + 1.0 / n0  # a model accepting only the person who changes group
            for eps in (0.5, 1.0, 3.0):
                for m in (1, 3, 10):
                    b = attacks.noise_scale(n1, n0, m, eps, "conceal", "theorem5")[0]
                    bp = attacks.noise_scale(n1 + 1, n0 - 1, m, eps, "conceal", "theorem5")[0]
                    worst_t5 = max(worst_t5, m * _pair_loss(b, bp, d) / eps)
                b = attacks.noise_scale(n1, n0, 10, eps, "conceal", "per_query")[0]
                bp = attacks.noise_scale(n1 + 1, n0 - 1, 10, eps, "conceal", "per_query")[0]
                one = _pair_loss(b, bp, d)
                worst_pq_one = max(worst_pq_one, one / eps)
                worst_pq_all = max(worst_pq_all, 10 * one / eps)
    assert worst_t5 <= 1.0
    assert worst_pq_one <= 1.0
    assert worst_pq_all > 1.0


def test_cauchy_shift_loss_closed_form():
    for d, b in [(0.1, 0.01), (1.0, 3.0), (0.5, 0.5)]:
        assert fx.cauchy_shift_loss(d, b) == pytest.approx(_pair_loss(b, b, d), rel=1e-4)
    with pytest.raises(ValueError, match="scale"):
        fx.cauchy_shift_loss(1.0, 0.0)


# --------------------------------------------------------------------------- regression
def test_ratio_regression_recovers_a_constant_factor():
    rng = np.random.default_rng(0)
    cov = pd.DataFrame({"n": rng.choice([100, 1000, 10000], 40), "m": rng.integers(20, 1000, 40),
                        "epsilon": rng.choice([5.0, 10.0, 100.0, 500.0], 40)})
    ours = rng.lognormal(0, 2, 40)
    paper = 1e-3 * ours * np.exp(rng.normal(0, 0.01, 40))
    reg = fx.ratio_regression(paper, ours, cov)
    assert reg.loc[reg["term"] == "factor", "coef"].item() == pytest.approx(1e-3, rel=0.05)
    assert np.all(np.abs(reg.loc[reg["term"] != "factor", "coef"]) < 0.02)
    assert reg.attrs["cells"] == 40


def test_ratio_regression_finds_a_per_query_budget():
    rng = np.random.default_rng(1)
    cov = pd.DataFrame({"m": rng.integers(20, 1000, 30), "epsilon": rng.choice([5.0, 50.0], 30)})
    ours = rng.lognormal(0, 1, 30)
    reg = fx.ratio_regression(ours / cov["m"].to_numpy() * 6, ours, cov)
    assert reg.loc[reg["term"] == "log m", "coef"].item() == pytest.approx(-1.0, abs=1e-9)
    assert reg.loc[reg["term"] == "factor", "coef"].item() == pytest.approx(6.0, rel=1e-9)
    with pytest.raises(ValueError, match="one entry per cell"):
        fx.ratio_regression([1.0], [1.0, 2.0], cov.iloc[:2])


# --------------------------------------------------------------------------- readings table
def _cells(published: np.ndarray | None = None) -> pd.DataFrame:
    specs = [(990, 10, 500, 100.0), (900, 100, 300, 10.0), (9000, 1000, 1000, 50.0), (950, 50, 200, 500.0)]
    rows = []
    for i, (n1, n0, m, eps) in enumerate(specs):
        rows.append({"table": "T", "n": n1 + n0, "m": m, "n0": n0, "epsilon": eps, "mechanism": "conceal",
                     "paper_err": np.nan if published is None else float(published[i]), "decimals": 9,
                     "groups": [(n1, n0)] * 5})
    return pd.DataFrame(rows)


def test_readings_table_finds_the_reading_that_made_the_numbers():
    cells = _cells()
    truth = []
    for i, c in enumerate(cells.to_dict("records")):
        sims = fx.simulate_cell(c["groups"], c["m"], c["epsilon"], "conceal", ["per_query"],
                                np.random.default_rng(100 + i), reps=51)
        truth.append(float(np.median(sims["per_query"]["median"])))  # a typical value of that computation
    table = fx.readings_table(_cells(np.array(truth)), readings=["theorem5", "per_query"], reps=100)
    top = table.set_index(["reading", "statistic"])
    assert top.loc[("per_query", "median"), "total"] == 4
    assert top.loc[("theorem5", "median"), "total"] == 0
    assert fx.best_reading(table)[:2] in {("per_query", "median"), ("per_query", "mean_run_median")}


def test_error_statistics_on_known_values():
    err = np.array([[[1.0, 2.0, 3.0, 100.0]], [[2.0, 2.0, 2.0, 2.0]]])  # (reps=2, runs=1, m=4)
    st = fx.error_statistics(err)
    np.testing.assert_allclose(st["mean"], [26.5, 2.0])
    np.testing.assert_allclose(st["median"], [2.5, 2.0])
    np.testing.assert_allclose(st["rms"], [math.sqrt((1 + 4 + 9 + 1e4) / 4), 2.0])
    with pytest.raises(ValueError, match="runs, m"):
        fx.error_statistics(np.ones(3))


def test_committed_summaries_and_ledger():
    from ldpfair import verdicts
    from ldpfair.papers import hamman2023 as hm

    tab = fx.load("forensics_readings")
    assert set(tab["reading"]) == set(attacks.NOISE_READINGS)
    assert set(tab["statistic"]) == set(fx.STATISTICS)
    assert (tab["cells"] == 64).all()
    imp = fx.load("forensics_implied")
    # the implied scale is the published number (median of |Z| = 1 for Cauchy)
    con = imp[imp["mechanism"] == "conceal"]
    np.testing.assert_allclose(con["implied_scale"], con["paper_err"])
    board = hm.SPEC.scoreboard()
    verdicts.check_ledger(board)
    assert set(board["item"]) == {"Figure 1", "Figure 2", "Figure 3", "Figure 4",
                                  "Table 1", "Table 2", "Table 3", "Table 4"}
