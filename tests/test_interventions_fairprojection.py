"""FairProjection: KKT conditions, strong duality, agreement with a direct primal solve, fairness effect."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import rel_entr

from ldpfair.interventions.fairprojection import FairProjection, _cross_entropy_prox
from ldpfair.metrics import max_gap_mean_equalized_odds, max_gap_statistical_parity

SMOOTH = 1e-4
CASES = [(c, d) for c in ("meo", "sp") for d in ("kl", "cross-entropy")]


def biased_data(n: int, m: int = 2, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores of a calibrated-ish base model whose positive rate depends strongly on the group."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, m, n)
    x = rng.normal(size=n)
    effect = np.linspace(-1.0, 1.0, m)
    logit = 1.5 * x + effect[s] - 0.8
    y = (rng.random(n) < 1.0 / (1.0 + np.exp(-logit))).astype(np.int64)
    scores = 1.0 / (1.0 + np.exp(-(logit + 0.3 * effect[s] + rng.normal(0, 0.3, n))))
    return scores, s, y


def smoothed(scores: np.ndarray) -> np.ndarray:
    return np.column_stack([1 - scores + SMOOTH, scores + SMOOTH]) / (1 + 2 * SMOOTH)


def constraint_terms(constraint: str, alpha: float, h: np.ndarray, s: np.ndarray, y: np.ndarray) -> list:
    """Independent restatement of the constraints: a list of (lhs(g), rhs(g)) that must obey lhs <= rhs.

    MEO: soft P(Yhat=y | Y=y, S=s) within (1 +- alpha) soft P(Yhat=y | Y=y), with h_y standing in for Y.
    SP: P(Yhat=y | S=s) within (1 +- alpha) P(Yhat=y).
    """
    m = int(s.max()) + 1
    p_ys = np.array([[np.mean((y == yv) & (s == sv)) for sv in range(m)] for yv in (0, 1)])
    rows = []
    for yv in (0, 1):
        uppers, lowers = [], []
        for sv in range(m):
            ind = (s == sv).astype(float)
            if constraint == "meo":
                def grp(g, yv=yv, ind=ind, sv=sv):
                    return np.mean(g[:, yv] * h[:, yv] * ind) / p_ys[yv, sv]

                def tot(g, yv=yv):
                    return np.mean(g[:, yv] * h[:, yv]) / p_ys[yv].sum()
            else:
                def grp(g, yv=yv, ind=ind, sv=sv):
                    return np.mean(g[:, yv] * ind) / p_ys[:, sv].sum()

                def tot(g, yv=yv):
                    return np.mean(g[:, yv])
            uppers.append((grp, lambda g, tot=tot: (1 + alpha) * tot(g)))
            lowers.append((lambda g, tot=tot: (1 - alpha) * tot(g), grp))
        rows += uppers + lowers  # the authors' order: all upper rows of class y, then its lower rows
    return rows


def primal(div: str, g: np.ndarray, h: np.ndarray) -> float:
    return float(np.mean(rel_entr(g, h).sum(axis=1) if div == "kl" else rel_entr(h, g).sum(axis=1)))


@pytest.fixture(scope="module")
def data():
    return biased_data(3000, m=3, seed=1)


# ----------------------------------------------------------------------------- (a) KKT, (c) duality
@pytest.mark.parametrize(("constraint", "div"), CASES)
@pytest.mark.parametrize("alpha", [0.0, 0.05])
def test_kkt_and_strong_duality(data, constraint, div, alpha):
    scores, s, y = data
    fp = FairProjection(constraint, alpha, div).fit(scores, s, y)
    assert fp.converged_
    assert fp.lambda_.shape == (4 * 3,) and np.all(fp.lambda_ >= 0)
    h = smoothed(scores)
    g = fp.predict_proba(scores, s)
    rows = constraint_terms(constraint, alpha, h, s, y)
    slack = np.array([rhs(g) - lhs(g) for lhs, rhs in rows])
    scale = np.array([max(abs(rhs(g)), abs(lhs(g))) for lhs, rhs in rows])
    # primal feasibility on the training sample, 1e-6 relative
    assert np.all(slack >= -1e-6 * scale), slack.min()
    # the row order/signs match the fitted constraint values (which are lhs - rhs scaled per row)
    assert np.array_equal(fp.constraint_values_ > 1e-9, slack < -1e-9 * scale)
    # complementary slackness: a positive multiplier means an active constraint
    active = fp.lambda_ > 1e-8
    assert active.any()
    assert np.all(np.abs(slack[active]) <= 1e-6 * scale[active])
    # strong duality: dual value == primal value, both recomputed here
    pv = primal(div, g, h)
    assert fp.primal_value_ == pytest.approx(pv, rel=1e-9, abs=1e-15)
    assert fp.dual_value_ == pytest.approx(pv, rel=1e-6, abs=1e-12)
    assert pv > 0


def test_tighter_tolerance_costs_more_divergence(data):
    scores, s, y = data
    values = [FairProjection("meo", a).fit(scores, s, y).primal_value_ for a in (0.0, 0.02, 0.1, 0.3)]
    assert all(v1 >= v2 - 1e-12 for v1, v2 in zip(values, values[1:], strict=False))
    assert values[0] > values[-1]


# ----------------------------------------------------------------------------- (b) non-binding
@pytest.mark.parametrize(("constraint", "div"), CASES)
def test_non_binding_tolerance_returns_smoothed_scores(data, constraint, div):
    scores, s, y = data
    fp = FairProjection(constraint, 1e6, div).fit(scores, s, y)
    assert np.all(fp.lambda_ == 0) and fp.converged_
    np.testing.assert_allclose(fp.predict_proba(scores, s), smoothed(scores), rtol=0, atol=1e-14)
    assert abs(fp.dual_value_) < 1e-14 and abs(fp.primal_value_) < 1e-14
    np.testing.assert_array_equal(fp.predict(scores, s), (smoothed(scores)[:, 1] > 0.5).astype(int))


# ----------------------------------------------------------------------------- (d) primal cross-check
@pytest.mark.parametrize(("constraint", "div"), CASES)
def test_agrees_with_direct_primal_solve(constraint, div):
    scores, s, y = biased_data(40, m=2, seed=3)
    alpha = 0.05
    fp = FairProjection(constraint, alpha, div).fit(scores, s, y)
    h = smoothed(scores)
    rows = constraint_terms(constraint, alpha, h, s, y)

    def as_g(z):
        return np.column_stack([1 - z, z])

    # the constraints are affine in z = g_1: recover slack(z) = c + A z from the restatement above
    eye = np.eye(40)
    c = np.array([rhs(as_g(np.zeros(40))) - lhs(as_g(np.zeros(40))) for lhs, rhs in rows])
    a_mat = np.array([[rhs(as_g(e)) - lhs(as_g(e)) for e in eye] for lhs, rhs in rows]) - c[:, None]

    def objective(z):
        g = as_g(z)
        if div == "kl":
            grad = np.log(g[:, 1] / h[:, 1]) - np.log(g[:, 0] / h[:, 0])
        else:
            grad = h[:, 0] / g[:, 0] - h[:, 1] / g[:, 1]
        return 1e3 * primal(div, g, h), 1e3 * grad / 40

    cons = [{"type": "ineq", "fun": lambda z: 1e3 * (c + a_mat @ z), "jac": lambda z: 1e3 * a_mat}]
    res = minimize(objective, h[:, 1], jac=True, method="SLSQP", bounds=[(1e-9, 1 - 1e-9)] * 40,
                   constraints=cons, options={"ftol": 1e-13, "maxiter": 1000})
    # SLSQP may end with status 8 (line search at the precision limit); judge its point, not its flag
    assert res.status in (0, 8), res.message
    assert np.all(c + a_mat @ res.x >= -1e-9)
    assert fp.primal_value_ > 1e-4  # the constraints bind
    assert fp.primal_value_ == pytest.approx(res.fun / 1e3, rel=1e-5)
    np.testing.assert_allclose(fp.predict_proba(scores, s)[:, 1], res.x, atol=2e-4)


# ----------------------------------------------------------------------------- (e) fairness effect
def test_projection_shrinks_the_targeted_gap():
    scores, s, y = biased_data(4000, m=2, seed=5)
    base = (scores > 0.5).astype(int)
    meo_before = max_gap_mean_equalized_odds(y, base, sensitive_features=s)
    sp_before = max_gap_statistical_parity(base, sensitive_features=s)
    assert meo_before > 0.1 and sp_before > 0.2
    for div in ("kl", "cross-entropy"):
        meo_pred = FairProjection("meo", 0.0, div).fit(scores, s, y).predict(scores, s)
        sp_pred = FairProjection("sp", 0.0, div).fit(scores, s, y).predict(scores, s)
        assert max_gap_mean_equalized_odds(y, meo_pred, sensitive_features=s) < 0.5 * meo_before
        assert max_gap_statistical_parity(sp_pred, sensitive_features=s) < 0.2 * sp_before


def test_predict_is_strict_threshold_and_proba_is_a_distribution(data):
    scores, s, y = data
    fp = FairProjection("sp", 0.01, "cross-entropy").fit(scores, s, y)
    rng = np.random.default_rng(0)
    new_scores, new_s = rng.random(500), rng.integers(0, 3, 500)
    p = fp.predict_proba(new_scores, new_s)
    assert p.shape == (500, 2) and np.all(p >= 0) and np.all(p <= 1)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_array_equal(fp.predict(new_scores, new_s), (p[:, 1] > 0.5).astype(np.int64))
    np.testing.assert_allclose(fp.constraint_values(scores, s), fp.constraint_values_, atol=1e-14)
    assert len(fp.constraint_labels_) == 12 and fp.constraint_labels_[0] == "sp y=0 s=0 upper"
    np.testing.assert_allclose(fp.p_ys_.sum(), 1.0)


def test_cross_entropy_prox_is_the_exact_minimiser():
    rng = np.random.default_rng(0)
    p1 = np.r_[rng.random(200), 1e-6, 1 - 1e-6, 0.5, 0.5]
    h = np.column_stack([1 - p1, p1])
    v = np.r_["0,2", rng.normal(0, 3, (200, 2)), [[1e6, 0], [-1e6, 0], [0, 1e8], [1e-12, 0]]]
    g, value = _cross_entropy_prox(h, v)
    assert np.all(g > 0)
    np.testing.assert_allclose(g.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # stationarity: h_c / g_c - v_c is the same for both classes (the multiplier nu)
    nu = h / g - v
    bound = 1e-9 * (1 + np.abs(v).max(axis=1) + np.abs(nu).max(axis=1))
    assert np.all(np.abs(nu[:, 0] - nu[:, 1]) <= bound)
    # the extreme rows: a huge penalty on a class sends its probability to (almost) zero
    assert g[200, 0] < 1e-6 and g[201, 1] < 1e-6 and g[202, 1] < 1e-7
    # value against a fine grid search of the scalar problem on the ordinary rows
    grid = np.linspace(1e-6, 1 - 1e-6, 200_001)
    for i in range(0, 200, 40):
        f = h[i, 0] * np.log(h[i, 0] / (1 - grid)) + h[i, 1] * np.log(h[i, 1] / grid) \
            + v[i, 0] * (1 - grid) + v[i, 1] * grid
        assert value[i] == pytest.approx(f.min(), abs=1e-8)
        assert g[i, 1] == pytest.approx(grid[f.argmin()], abs=1e-5)


# ----------------------------------------------------------------------------- (f) invalid inputs
def test_invalid_parameters_raise(data):
    scores, s, y = data
    with pytest.raises(ValueError, match="'meo'.*'sp'"):
        FairProjection("eo").fit(scores, s, y)
    with pytest.raises(ValueError, match="'kl'.*'cross-entropy'"):
        FairProjection(divergence="hellinger").fit(scores, s, y)
    with pytest.raises(ValueError, match="tolerance"):
        FairProjection(tolerance=-0.1).fit(scores, s, y)
    with pytest.raises(ValueError, match="tolerance"):
        FairProjection(tolerance=float("inf")).fit(scores, s, y)
    with pytest.raises(ValueError, match="smoothing"):
        FairProjection(smoothing=-1e-4).fit(scores, s, y)
    with pytest.raises(ValueError, match="smoothing=0"):
        FairProjection(smoothing=0.0).fit(np.r_[0.0, scores[1:]], s, y)


def test_invalid_data_raise(data):
    scores, s, y = data
    fp = FairProjection()
    with pytest.raises(ValueError, match="not fitted"):
        fp.predict_proba(scores, s)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        fp.fit(scores * 2, s, y)
    with pytest.raises(ValueError, match="entries"):
        fp.fit(scores, s[:-1], y)
    with pytest.raises(ValueError, match="entries"):
        fp.fit(scores, s, y[:-1])
    with pytest.raises(ValueError, match="integer"):
        fp.fit(scores, s.astype(float), y)
    with pytest.raises(ValueError, match="non-negative"):
        fp.fit(scores, s - 1, y)
    with pytest.raises(ValueError, match="missing code"):
        fp.fit(scores, np.where(s == 1, 2, s), y)
    with pytest.raises(ValueError, match="binary"):
        fp.fit(scores, s, y + 1)
    with pytest.raises(ValueError, match="P\\(Y=1, S=0\\)"):
        fp.fit(scores, s, np.where(s == 0, 0, y))
    fp.fit(scores, s, y)
    with pytest.raises(ValueError, match=r"\[0, 3\)"):
        fp.predict(scores, np.full_like(s, 3))


def test_unreachable_gradient_tolerance_warns(data):
    from sklearn.exceptions import ConvergenceWarning

    scores, s, y = data
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        fp = FairProjection("meo", 0.0, gtol=1e-300).fit(scores, s, y)
    assert not fp.converged_
    # the returned multipliers are still the (numerically) optimal ones
    ref = FairProjection("meo", 0.0).fit(scores, s, y)
    np.testing.assert_allclose(fp.predict_proba(scores, s), ref.predict_proba(scores, s), atol=1e-8)
