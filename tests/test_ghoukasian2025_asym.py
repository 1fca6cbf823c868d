"""ghoukasian2025 Fig. 6: the readings of the authors' OPT post-processor (``asym``)."""

from __future__ import annotations

import numpy as np
import pytest

from ldpfair.interventions.private_postprocessing import PrivateEqualizedOdds, equalized_odds_from_proba
from ldpfair.ldp import optimal_binary_parameters
from ldpfair.papers.ghoukasian2025.asym import (
    ASYM_UNKNOWNS,
    AsymReading,
    asym_readings,
    fit_asym,
    judge_readings,
)
from ldpfair.papers.ghoukasian2025.baselines import _rr

ALPHA = 1e-4


def sample(n: int, p: float, q: float, seed: int) -> tuple[np.ndarray, ...]:
    """(yhat, a, z, y): A shifts Y and the step-1 predictor's rates; Z from A through (p, q)."""
    rng = np.random.default_rng(seed)
    a = (rng.random(n) < 0.35).astype(np.int64)
    y = (rng.random(n) < np.where(a == 1, 0.35, 0.15)).astype(np.int64)
    rate = np.array([[0.05, 0.12], [0.55, 0.75]])[y, a]  # P(Yhat=1 | y, a): unequal odds
    yhat = (rng.random(n) < rate).astype(np.int64)
    z = np.where(rng.random(n) < np.where(a == 0, p, q), a, 1 - a).astype(np.int64)
    return yhat, a, z, y


OPT = optimal_binary_parameters([0.65, 0.35], 2.0)


@pytest.mark.parametrize("reading", asym_readings("oat"), ids=lambda r: r.label)
def test_lp_solution_satisfies_its_constraints(reading):
    yhat, a, z, y = sample(20_000, *OPT, seed=1)
    fit = fit_asym(yhat, z, y, *OPT, prior_a1=float(a.mean()), reading=reading, alpha=ALPHA)
    assert not fit.fallback_used
    assert np.all((fit.t >= 0) & (fit.t <= 1))
    gaps = np.abs(fit.gamma_lp[:, 1] - fit.gamma_lp[:, 0])
    assert np.all(gaps <= ALPHA + 1e-9)
    np.testing.assert_allclose(fit.rule, fit.posterior @ fit.t)
    np.testing.assert_allclose(fit.posterior.sum(axis=1), 1.0)
    if reading.gaps == "raw_z":  # the constraint is the empirical gap across Z of the deployed rule
        emp = equalized_odds_from_proba(fit.predict_proba(yhat, z), y, z)
        assert emp["Delta_EOd"] <= ALPHA + 1e-9
    else:  # the constrained rates are gamma built from the clipped de-biased beta
        assert np.all(np.abs(np.diff(fit.gamma_lp, axis=1)) <= ALPHA + 1e-9)


def test_lp_binds_where_the_step1_predictor_is_unfair():
    yhat, a, z, y = sample(20_000, 1.0, 1.0, seed=2)
    base = equalized_odds_from_proba(yhat.astype(float), y, a)["Delta_EOd"]
    fit = fit_asym(yhat, z, y, 1.0, 1.0, prior_a1=float(a.mean()), reading=AsymReading())
    after = equalized_odds_from_proba(fit.predict_proba_true(yhat, a), y, a)["Delta_EOd"]
    assert base > 0.1 and after < 0.01


@pytest.mark.parametrize("beta_clip", ASYM_UNKNOWNS["beta_clip"])
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_identity_mechanism_and_error_objective_is_the_non_private_post_processing(beta_clip, seed):
    p, q = _rr(60.0)  # RR as epsilon -> infinity: no privatisation
    assert (p, q) == (1.0, 1.0)
    yhat, a, z, y = sample(5_000, p, q, seed)
    assert np.array_equal(z, a)
    fit = fit_asym(yhat, z, y, p, q, prior_a1=0.3, reading=AsymReading(beta_clip=beta_clip))
    ref = PrivateEqualizedOdds(p, q, alpha=ALPHA).fit(yhat, z, y)
    np.testing.assert_allclose(fit.t, ref.g_, atol=1e-9)
    m = equalized_odds_from_proba(fit.predict_proba(yhat, z), y, a)
    m_ref = equalized_odds_from_proba(ref.predict_proba(yhat, a), y, a)
    assert m["acc"] == pytest.approx(m_ref["acc"], abs=1e-12)
    assert m["Delta_EOd"] == pytest.approx(m_ref["Delta_EOd"], abs=1e-12)


@pytest.mark.parametrize("prior", ASYM_UNKNOWNS["prior"])
def test_mixing_is_the_true_attribute_prediction_without_noise(prior):
    yhat, a, z, y = sample(3_000, 1.0, 1.0, seed=6)
    fit = fit_asym(yhat, z, y, 1.0, 1.0, prior_a1=0.3, reading=AsymReading(prior=prior, gaps="raw_z"))
    np.testing.assert_array_equal(fit.posterior, np.eye(2))
    np.testing.assert_array_equal(fit.predict_proba(yhat, a), fit.predict_proba_true(yhat, a))


def test_mixing_shrinks_towards_the_other_group_under_noise():
    p, q = _rr(1.0)
    yhat, a, z, y = sample(20_000, p, q, seed=7)
    fit = fit_asym(yhat, z, y, p, q, prior_a1=0.5, reading=AsymReading(prior="uniform"))
    np.testing.assert_allclose(fit.posterior, [[p, 1 - p], [1 - q, q]])
    lo, hi = np.minimum(fit.t[0], fit.t[1]), np.maximum(fit.t[0], fit.t[1])
    assert np.all((fit.rule >= lo - 1e-12) & (fit.rule <= hi + 1e-12))


@pytest.mark.parametrize("fallback, expected", [("base_rate", None), ("identity", [[0, 1], [0, 1]]),
                                                ("majority", [[0, 0], [0, 0]])])
def test_corner_solution_when_beta_is_not_identifiable(fallback, expected):
    p = q = 0.8
    yhat, a, _, y = sample(2_000, p, q, seed=8)
    z = np.zeros_like(a)  # every report is 0: the de-biased P(A=1, Y=y) is negative
    fit = fit_asym(yhat, z, y, p, q, prior_a1=0.35, reading=AsymReading(fallback=fallback))
    assert fit.fallback_used
    want = np.full((2, 2), y.mean()) if expected is None else np.array(expected, dtype=float)
    np.testing.assert_allclose(fit.t, want)
    # the same data with the gaps across Z needs no beta across A: the LP decides
    fit_z = fit_asym(yhat, np.where(np.arange(a.size) % 2 == 0, 0, 1), y, p, q, prior_a1=0.35,
                     reading=AsymReading(fallback=fallback, gaps="raw_z"))
    assert not fit_z.fallback_used


def test_readings_grid_and_one_at_a_time():
    grid = asym_readings("grid")
    assert len(grid) == np.prod([len(v) for v in ASYM_UNKNOWNS.values()]) == len(set(grid))
    oat = asym_readings("oat")
    assert oat[0] == AsymReading()
    assert len(oat) == 1 + sum(len(v) - 1 for v in ASYM_UNKNOWNS.values())
    assert all(sum(getattr(r, k) != getattr(oat[0], k) for k in ASYM_UNKNOWNS) == 1 for r in oat[1:])


def test_judge_readings_applies_the_two_step_checks():
    import pandas as pd

    rows = []
    for ds in ("adult", "lsac"):
        for eps in (0.5, 1.0, 4.0, 8.0):
            for seed in (0, 1):
                rows.append({"dataset": ds, "mechanism": "RR", "epsilon": eps, "seed": seed,
                             "acc": 0.80, "Delta_EOd": 0.05})
    rr = pd.DataFrame(rows)
    explored = rr.assign(mechanism="OPT", reading="r", fallback_used=0.0,
                         **{k: v[0] for k, v in ASYM_UNKNOWNS.items()})
    explored["acc"] = np.where(explored["dataset"] == "adult", 0.82, 0.80)
    explored["Delta_EOd"] = np.where(explored["dataset"] == "adult", 0.04, 0.06)
    out = judge_readings(explored, rr).iloc[0]
    assert out["adult_held"] == "2/2" and out["lsac_held"] == "1/2" and not out["all_held"]
    assert out["d_acc@0.5_adult"] == pytest.approx(0.02)
    assert out["d_eod@8_lsac"] == pytest.approx(0.01)


def test_invalid_reading_and_prior_raise():
    with pytest.raises(ValueError, match="objective"):
        AsymReading(objective="loss")
    yhat, a, z, y = sample(500, 0.9, 0.9, seed=9)
    with pytest.raises(ValueError, match="prior_a1"):
        fit_asym(yhat, z, y, 0.9, 0.9, prior_a1=1.0, reading=AsymReading())


def test_judge_readings_reads_the_named_columns():
    import pandas as pd

    rr = pd.DataFrame([{"dataset": "adult", "mechanism": "RR", "epsilon": e, "seed": 0, "acc": 0.8,
                        "Delta_EOd": 0.05, "acc_private_test": 0.7, "Delta_EOd_private_test": 0.1}
                       for e in (1.0, 4.0)])
    explored = rr.drop(columns=["acc_private_test", "Delta_EOd_private_test"]).assign(
        mechanism="OPT", reading="r", fallback_used=0.0, acc_true_a=0.75, Delta_EOd_true_a=0.08,
        **{k: v[0] for k, v in ASYM_UNKNOWNS.items()})
    out = judge_readings(explored, rr, opt_columns=("acc_true_a", "Delta_EOd_true_a"),
                         rr_columns=("acc_private_test", "Delta_EOd_private_test")).iloc[0]
    assert out["d_acc@1_adult"] == pytest.approx(0.05)
    assert out["d_eod@4_adult"] == pytest.approx(-0.02)
    assert out["adult_held"] == "2/2"


def _summary(adult8: tuple[float, float, float, float]) -> dict:
    base = {e: (0.8, 0.03, 0.81, 0.04) for e in (0.5, 1.0, 2.0, 4.0, 10.0)}
    return {"readings": 72, "distinct": 16, "fallback_share": 0.0, "held": {"adult": "1/2", "lsac": "1/2"},
            "failed": ["Adult: OPT Delta_EOd < RR at every eps >= 4"],
            "eps_lower": {"adult": {"10": 40, "none": 32}, "lsac": {"2, 10": 72}},
            "same_other_comparisons": True,
            "base": {"adult": {**base, 8.0: adult8}, "lsac": base}}


def test_asym_finding_names_every_reading_and_follows_the_summary():
    from ldpfair.papers.ghoukasian2025.asym import asym_finding

    text = asym_finding(_summary((0.8, 0.03, 0.81, 0.04)))
    assert all(v in text for values in ASYM_UNKNOWNS.values() for v in values)
    assert "72 combinations" in text and "{10} in 40" in text and "never fired" in text
    other = asym_finding(_summary((0.5, 0.123, 0.6, 0.456)))
    assert "0.123" in other and "0.456" in other and "0.123" not in text


@pytest.mark.data
def test_explore_asym_rebuilds_the_committed_opt_splits():
    from ldpfair.datasets import data_available
    from ldpfair.papers import committed
    from ldpfair.papers.ghoukasian2025.asym import explore_asym

    if not data_available():
        pytest.skip("data files not reachable (set LDPFAIR_DATA_DIR)")
    fig6 = committed("ghoukasian2025", "fig6")
    if fig6.empty:
        pytest.skip("no committed fig6 results")
    readings = asym_readings("oat")
    ex = explore_asym(readings, datasets=("lsac",), epsilons=(2.0,), seeds=1)
    assert len(ex) == len(readings) and set(ex["reading"]) == {r.label for r in readings}
    ref = fig6.set_index(["dataset", "mechanism", "epsilon", "seed"]).loc[("lsac", "OPT", 2.0, 0), "acc"]
    assert (ex["acc_mozannar"] == ref).all()  # same split, step 1 and step 2 as the committed run
    assert ex["acc"].between(0, 1).all() and ex["Delta_EOd"].between(0, 1).all()


@pytest.mark.data
def test_committed_readings_summary_matches_the_committed_runs():
    from ldpfair.datasets import data_available
    from ldpfair.papers import committed
    from ldpfair.papers.ghoukasian2025.asym import asym_exploration, explore_asym

    if not data_available():
        pytest.skip("data files not reachable (set LDPFAIR_DATA_DIR)")
    fig6, cells = committed("ghoukasian2025", "fig6"), committed("ghoukasian2025", "fig6_asym")
    if fig6.empty or cells.empty:
        pytest.skip("no committed fig6 / fig6_asym results")
    s = asym_exploration(cells, fig6)
    assert s["readings"] == len(asym_readings("grid")) and 1 <= s["distinct"] <= s["readings"]
    assert sum(s["eps_lower"]["adult"].values()) == s["readings"]
    # a committed cell equals the same cell computed now (same split, same readings)
    row = cells[(cells["dataset"] == "lsac") & (cells["epsilon"] == 8.0) & (cells["fig6_seed"] == 1)]
    now = explore_asym(asym_readings("grid")[:3], datasets=("lsac",), epsilons=(8.0,), seeds=2)
    now = now[now["seed"] == 1]
    assert list(now["acc"]) == [row[f"acc_{i}"].iloc[0] for i in range(3)]
