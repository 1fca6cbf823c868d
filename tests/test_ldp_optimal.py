"""ghoukasian2025's optimal mechanism: Theorem 2, Lemma 1, program (9)/(10), channels."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from ldpfair.ldp import (
    GRR,
    ChannelMechanism,
    channel_epsilon,
    enforce_level,
    optimal_binary,
    optimal_binary_parameters,
    optimal_kary,
    smallest_feasible_zeta,
)
from ldpfair.ldp.optimal import data_unfairness


def objective_13(p, q, p0, p1):
    """Objective of (13) (to be minimised)."""
    return (p * q - (1 - p) * (1 - q)) / ((p0 * (1 - p) + p1 * q) * (p0 * p + p1 * (1 - q)))


def delta_prime(Q, pa, py):
    """Delta' = max_{z,z'} |P(Y=1|Z=z) - P(Y=1|Z=z')| after channel Q."""
    pa = np.asarray(pa, float)
    py = np.asarray(py, float)
    post = ((py * pa) @ Q) / (pa @ Q)
    return float(post.max() - post.min())


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, 2.0, 8.0])
@pytest.mark.parametrize("p0", [0.1, 0.3, 0.45, 0.55, 0.8])
def test_theorem2_closed_form_is_grid_optimum_of_13(eps, p0):
    p1 = 1 - p0
    e = math.exp(eps)
    # Mechanisms with eps*(M) = eps: the boundary p = e^eps (1-q) or q = e^eps (1-p), inside [1/2, 1]^2.
    grid = np.linspace(0.5, 1.0, 20001)
    cand = []
    for p in grid:  # case 1: p = e^eps (1 - q), i.e. q = 1 - p e^-eps
        q = 1 - p / e
        if 0.5 <= q <= 1 and q <= e * (1 - p) + 1e-12:
            cand.append((p, q))
    for q in grid:  # case 2: q = e^eps (1 - p), i.e. p = 1 - q e^-eps
        p = 1 - q / e
        if 0.5 <= p <= 1 and p <= e * (1 - q) + 1e-12:
            cand.append((p, q))
    cand = np.array(cand)
    values = objective_13(cand[:, 0], cand[:, 1], p0, p1)
    ps, qs = optimal_binary_parameters([p0, p1], eps)
    closed = objective_13(ps, qs, p0, p1)
    assert closed <= values.min() + 1e-12
    assert closed == pytest.approx(values.min(), rel=1e-6, abs=1e-12)
    # The mechanism has privacy level exactly eps and the minority keeps its value.
    mech = optimal_binary([p0, p1], eps)
    assert mech.epsilon_star == pytest.approx(eps, rel=1e-12)
    minority = 0 if p0 < p1 else 1
    assert mech.Q[minority, minority] == pytest.approx(1 - math.exp(-eps) / 2)
    assert mech.Q[1 - minority, 1 - minority] == pytest.approx(0.5)


def test_theorem2_beats_rr_on_delta_prime():
    pa, py = np.array([0.3, 0.7]), np.array([0.2, 0.6])
    for eps in (0.5, 1.0, 4.0):
        opt = optimal_binary(pa, eps).Q
        rr = GRR(2, eps).channel
        assert delta_prime(opt, pa, py) <= delta_prime(rr, pa, py) + 1e-12


@settings(max_examples=50, deadline=None)
@given(
    k=st.integers(2, 8),
    eps=st.floats(0.01, 10.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_lemma1_grr_never_increases_delta_prime(k, eps, seed):
    rng = np.random.default_rng(seed)
    pa = rng.dirichlet(np.ones(k))
    pa = np.maximum(pa, 1e-6)
    pa /= pa.sum()
    py = rng.random(k)
    before = float(py.max() - py.min())
    after = delta_prime(GRR(k, eps).channel, pa, py)
    assert after <= before + 1e-12


def _check_program9(Q, pa, eps, zeta, tol=1e-7):
    k = Q.shape[0]
    e = math.exp(eps)
    np.testing.assert_allclose(Q.sum(axis=1), 1.0, atol=1e-12)
    assert Q.min() >= 0
    diag = np.diag(Q)
    for i in range(k):
        for j in range(k):
            assert Q[j, j] - e * Q[i, j] <= tol  # (8)
            assert Q[i, j] <= Q[i, i] + tol  # (5)
            assert Q[i, j] <= Q[j, j] + tol  # (6)
    assert pa @ diag >= 1 - zeta - tol  # (7)
    assert channel_epsilon(Q) <= eps * (1 + 1e-6)


CASES = [
    # Adult race-like (k=5) and race x gender-like (k=10) instances.
    (np.array([0.01, 0.03, 0.09, 0.008, 0.862]), np.array([0.32, 0.55, 0.3, 0.35, 0.54]), 1.0),
    (np.array([0.01, 0.03, 0.09, 0.008, 0.862]), np.array([0.32, 0.55, 0.3, 0.35, 0.54]), 4.0),
    (np.full(10, 0.1) + np.linspace(-0.05, 0.05, 10), np.linspace(0.1, 0.9, 10), 2.0),
]


@pytest.mark.parametrize(("pa", "py", "eps"), CASES)
def test_kary_solution_is_feasible_optimal_and_ldp(pa, py, eps):
    pa = pa / pa.sum()
    zmin = smallest_feasible_zeta(pa, eps)
    k = pa.size
    p_grr = math.exp(eps) / (math.exp(eps) + k - 1)
    assert zmin <= 1 - p_grr + 1e-9  # GRR is feasible
    for zeta in (zmin, zmin + 0.05, 1 - p_grr):
        res = optimal_kary(pa, py, eps, zeta)
        _check_program9(res.Q, pa, eps, res.zeta)
        mech = res.mechanism
        assert mech.epsilon_star <= eps * (1 + 1e-6)
        assert res.delta == pytest.approx(data_unfairness(res.Q, pa, py))
        # Two exact methods agree.
        bis = optimal_kary(pa, py, eps, zeta, method="bisection")
        assert bis.delta == pytest.approx(res.delta, abs=1e-7)
        if zeta >= 1 - p_grr - 1e-12:  # GRR is feasible, so OPT is at least as fair
            assert res.delta <= data_unfairness(GRR(k, eps).channel, pa, py) + 1e-9
    # Random feasible channels (mixtures of GRR and uniform satisfy (3)-(6)) are never better.
    rng = np.random.default_rng(0)
    res = optimal_kary(pa, py, eps, 1.0)
    assert res.delta == pytest.approx(0.0, abs=1e-8)  # zeta = 1 allows the uniform Q
    res = optimal_kary(pa, py, eps, zmin + 0.05)
    for lam in rng.random(20):
        Q = lam * GRR(k, eps).channel + (1 - lam) / k
        if pa @ np.diag(Q) >= 1 - (zmin + 0.05):
            assert res.delta <= data_unfairness(Q, pa, py) + 1e-9


def test_kary_k10_and_zeta_validation():
    rng = np.random.default_rng(1)
    pa = rng.dirichlet(np.ones(10) * 3)
    py = rng.random(10)
    res = optimal_kary(pa, py, 1.0)  # smallest feasible zeta
    _check_program9(res.Q, pa, 1.0, res.zeta)
    assert res.zeta == pytest.approx(res.zeta_min)
    with pytest.raises(ValueError, match="zeta=.* is infeasible"):
        optimal_kary(pa, py, 1.0, res.zeta_min - 0.01)
    with pytest.raises(ValueError, match="p_a must be finite and > 0"):
        optimal_kary([0.5, 0.5, 0.0], [0.1, 0.2, 0.3], 1.0)
    with pytest.raises(ValueError, match="p_y_given_a"):
        optimal_kary([0.5, 0.5], [0.1, 1.2], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        optimal_kary([0.5, 0.5], [0.1, 0.2], 0.0)


@pytest.mark.parametrize("eps", [20.0, 26.46, 30.0, 36.0, 45.0, 100.0, 707.0])
@pytest.mark.parametrize("pa", [[0.3, 0.7], [0.7, 0.3]])
def test_theorem2_channel_level_is_eps_at_large_budgets(eps, pa):
    """The flip probability is stored as e^-eps / 2, not 1 - keep (which lost its precision from eps ~ 25)."""
    mech = optimal_binary(pa, eps)
    assert mech.epsilon_star == pytest.approx(eps, rel=1e-12)
    assert mech.Q.min() == pytest.approx(math.exp(-eps) / 2, rel=1e-12)


def test_large_budgets_get_clear_errors():
    with pytest.raises(ValueError, match=r"too large for a float channel.*valid: epsilon <= 707"):
        optimal_binary([0.3, 0.7], 708.0)
    with pytest.raises(ValueError, match=r"too large for program \(9\).*valid: epsilon <= 700"):
        optimal_kary([0.2, 0.3, 0.5], [0.2, 0.5, 0.7], 800.0)
    # Beyond HiGHS's tolerances: a RuntimeError that says why, not a bare solver status.
    with pytest.raises(RuntimeError, match=r"at epsilon=40.*numerical.*e\^epsilon = 2.35e\+17"):
        optimal_kary([0.2, 0.3, 0.5], [0.2, 0.5, 0.7], 40.0)


def test_channel_mechanism_validation_and_audit():
    with pytest.raises(ValueError, match="row-stochastic"):
        ChannelMechanism([[0.6, 0.5], [0.5, 0.5]])
    with pytest.raises(ValueError, match="non-negative"):
        ChannelMechanism([[1.2, -0.2], [0.5, 0.5]])
    with pytest.raises(ValueError, match="not epsilon-LDP"):
        ChannelMechanism([[0.9, 0.1], [0.1, 0.9]], epsilon=1.0)
    with pytest.raises(ValueError, match="any finite epsilon"):
        ChannelMechanism([[1.0, 0.0], [0.5, 0.5]])
    Q = np.array([[0.5, 0.3, 0.2], [0.2, 0.6, 0.2], [0.25, 0.25, 0.5]])
    mech = ChannelMechanism(Q, epsilon=2.0)
    assert mech.epsilon_star == pytest.approx(math.log(0.5 / 0.2))  # column 0
    rng = np.random.default_rng(3)
    n = 20_000
    for v in range(3):
        z = mech.perturb(np.full(n, v), rng)
        assert stats.chisquare(np.bincount(z, minlength=3), n * Q[v]).pvalue > 1e-4
    # Unbiased inversion estimator.
    truth = np.repeat([0, 1, 2], [5000, 3000, 2000])
    est = mech.estimate(mech.perturb(truth, rng))
    np.testing.assert_allclose(est, [0.5, 0.3, 0.2], atol=0.03)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(2, 6),
    m=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    shrink=st.floats(0.05, 0.95),
)
def test_enforce_level_is_the_smallest_uniform_mixture_at_the_target(k, m, seed, shrink):
    rng = np.random.default_rng(seed)
    Q = rng.dirichlet(np.ones(m), size=k)
    level = channel_epsilon(Q)
    # Already private: returned unchanged with weight 0.
    same, t0 = enforce_level(Q, level * 1.01)
    assert t0 == 0.0 and np.array_equal(same, Q)
    target = level * shrink
    Qt, t = enforce_level(Q, target)
    assert 0.0 < t <= 1.0
    assert np.allclose(Qt, (1 - t) * Q + t / m, rtol=0, atol=1e-15)
    assert np.allclose(Qt.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert channel_epsilon(Qt) <= target
    assert channel_epsilon((1 - (t - 1e-12)) * Q + (t - 1e-12) / m) > target - 1e-9  # minimal


def test_enforce_level_rejects_non_channels():
    with pytest.raises(ValueError, match="row-stochastic"):
        enforce_level([[0.6, 0.5], [0.5, 0.5]], 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        enforce_level([[1.2, -0.2], [0.5, 0.5]], 1.0)
    with pytest.raises(ValueError, match="2-D"):
        enforce_level([0.5, 0.5], 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        enforce_level([[0.9, 0.1], [0.1, 0.9]], 0.0)
    # An infinite level (a zero next to a positive entry) is repaired too.
    Qt, t = enforce_level([[1.0, 0.0], [0.5, 0.5]], 1.0)
    assert t > 0 and channel_epsilon(Qt) <= 1.0


def test_kary_beyond_solver_tolerances_is_repaired_to_its_level():
    """At eps = 18 with a group of 0.03%, HiGHS's answer had level 18.0001 and
    ``.mechanism`` raised 'not epsilon-LDP'; it is now mixed with the uniform channel."""
    pa = np.array([0.55126, 0.06437, 0.01265, 0.0051, 0.36633, 0.00029])
    py = [0.272, 0.995, 0.88, 0.851, 0.109, 0.381]
    res = optimal_kary(pa, py, 18.0)
    assert 0.0 < res.uniform_weight < 1e-9
    assert channel_epsilon(res.Q) <= 18.0
    assert res.mechanism.epsilon_star <= 18.0
    assert res.delta == pytest.approx(data_unfairness(res.Q, pa / pa.sum(), py))
    assert optimal_kary([0.3, 0.7], [0.2, 0.6], 2.0).uniform_weight == 0.0
    # Whatever HiGHS does at large budgets: a clear RuntimeError or an eps-LDP channel.
    rng = np.random.default_rng(1)
    for _ in range(25):
        k = int(rng.integers(2, 9))
        pa_r, py_r = rng.dirichlet(np.ones(k) * 0.3), rng.random(k)
        eps = float(rng.choice([15, 16, 18, 20]))
        try:
            res = optimal_kary(pa_r, py_r, eps)
        except RuntimeError as err:
            assert "numerical" in str(err)
            continue
        assert res.mechanism.epsilon_star <= eps * (1 + 1e-6)
