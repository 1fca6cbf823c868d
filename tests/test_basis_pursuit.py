"""Certified basis pursuit (ldpfair.attacks.certified_bp) against LARS and HiGHS."""

from __future__ import annotations

import numpy as np
import pytest

from ldpfair import attacks
from ldpfair.attacks import certified_bp as bp
from ldpfair.attacks import reveal
from ldpfair.datasets.others import hamman_attributes


def _noisy_problem(n: int, n0: int, m: int, epsilon: float, seed: int):
    # the benchmark's problem (benchmarks/bench_basis_pursuit.py) at a small size
    rng = np.random.default_rng(seed)
    a = hamman_attributes(n, n0, rng)
    H = attacks.random_binary_models(m, n, rng)  # noqa: N806
    n1, k0 = attacks.group_sizes(a)
    answers = attacks.answer_queries(attacks.sp_queries(H, a), n1, k0, epsilon, "conceal", rng)
    return a, H, answers, n1, k0


@pytest.mark.parametrize(("epsilon", "seed"), [(100.0, 0), (10.0, 1), (100.0, 2), (1000.0, 3)])
def test_certified_gives_the_highs_minimiser_and_recovery(epsilon, seed):
    a, H, answers, n1, n0 = _noisy_problem(600, 20, 120, epsilon, seed)  # noqa: N806
    res = {meth: attacks.reveal_compressed(H, answers, n1, n0, method=meth)
           for meth in ("certified", "highs")}
    assert res["certified"].solver == "certified" and res["highs"].solver == "highs"
    eta = H.sum(axis=1) / n1 - answers
    s = res["certified"].estimate
    assert np.count_nonzero(s) == H.shape[0]  # noisy answers: a vertex with m non-zeros
    np.testing.assert_allclose(H @ s, eta, atol=1e-9 * max(1.0, np.abs(eta).max()))
    assert np.abs(s).sum() == pytest.approx(np.abs(res["highs"].estimate).sum(), rel=1e-9)
    np.testing.assert_array_equal(res["certified"].a_hat, res["highs"].a_hat)
    assert attacks.reveal_compressed(H, answers, n1, n0).solver == "certified"  # the default


def test_certified_recovers_a_sparse_solution_from_exact_answers():
    a, H, _, n1, n0 = _noisy_problem(800, 15, 150, 100.0, 4)  # noqa: N806
    eta = H.sum(axis=1) / n1 - attacks.sp_queries(H, a)
    x, ranking = bp.ipm_basis_pursuit(H, eta)
    assert x is not None and ranking.shape == (800,)
    assert np.count_nonzero(x) == 15  # fewer non-zeros than queries: the certificate's dual is not unique
    np.testing.assert_allclose(x[a == 0], 1.0 / n1 + 1.0 / n0, rtol=1e-9)
    np.testing.assert_array_equal(np.flatnonzero(x), np.flatnonzero(a == 0))
    np.testing.assert_allclose(x, attacks.basis_pursuit(H, eta, method="lars"), atol=1e-9)


def test_certificate_accepts_the_optimal_support_and_rejects_a_wrong_one():
    _, H, answers, n1, _ = _noisy_problem(400, 10, 80, 100.0, 4)  # noqa: N806
    eta = H.sum(axis=1) / n1 - answers
    x = attacks.basis_pursuit(H, eta, method="highs")
    support = np.argsort(-np.abs(x), kind="stable")[:80]
    certified = bp.certify_support(H, eta, support)
    assert certified is not None
    np.testing.assert_allclose(certified, x, atol=1e-7 * np.abs(x).max())
    wrong = support.copy()
    outside = np.setdiff1d(np.arange(400), support)
    wrong[np.argmin(np.abs(x[support]))] = outside[0]  # swap the smallest entry for a column off the support
    assert bp.certify_support(H, eta, wrong) is None
    assert bp.certify_support(H, eta, support[:-1]) is None  # m - 1 columns cannot interpolate eta
    assert bp.certify_support(H, eta, np.r_[support[:-1], support[0]]) is None  # a repeated column
    assert bp.certify_support(H, eta, np.r_[support, outside[0]]) is None  # more than m columns


def test_certificate_of_a_sparse_support_needs_a_feasible_dual():
    from scipy.optimize import linprog

    a, H, _, n1, n0 = _noisy_problem(300, 5, 60, 100.0, 7)  # noqa: N806
    eta = H.sum(axis=1) / n1 - attacks.sp_queries(H, a)
    support = np.flatnonzero(a == 0)
    lp = linprog(np.ones(600), A_eq=np.hstack([H, -H]), b_eq=eta, bounds=(0, None), method="highs")
    y = lp.eqlin.marginals  # a dual optimum: |H^T y| <= 1
    assert np.abs(H.T @ y).max() <= 1 + 1e-7
    x = bp.certify_support(H, eta, support, y)
    assert x is not None
    np.testing.assert_allclose(x[support], 1.0 / n1 + 1.0 / n0, rtol=1e-9)
    # H_S^T y = sign(x_S) has many solutions when |S| < m; a far-off start is corrected onto that set
    # but not into |H^T y| <= 1: the certificate refuses rather than guess
    far = y + 10.0 * np.random.default_rng(0).normal(size=60)
    assert bp.certify_support(H, eta, support, far) is None
    wrong = np.r_[support[1:], np.setdiff1d(np.arange(300), support)[0]]
    assert bp.certify_support(H, eta, wrong, y) is None  # does not interpolate eta
    with pytest.raises(ValueError, match="y0 must have shape"):
        bp.certify_support(H, eta, support, y[:-1])


def test_simplex_repairs_a_poor_start_and_reports_failure_at_the_pivot_cap():
    _, H, answers, n1, _ = _noisy_problem(400, 10, 80, 10.0, 5)  # noqa: N806
    eta = H.sum(axis=1) / n1 - answers
    x_h = attacks.basis_pursuit(H, eta, method="highs")
    start = np.arange(80)  # an arbitrary basis
    x = bp.simplex_basis_pursuit(H, eta, start)
    assert x is not None
    assert np.abs(x).sum() == pytest.approx(np.abs(x_h).sum(), rel=1e-8)
    assert bp.simplex_basis_pursuit(H, eta, start, max_pivots=1) is None


def test_crossover_and_fallbacks_when_nothing_is_certified(monkeypatch):
    _, H, answers, n1, _ = _noisy_problem(400, 10, 80, 100.0, 6)  # noqa: N806
    eta = H.sum(axis=1) / n1 - answers
    x_c, solver = attacks.solve_basis_pursuit(H, eta)
    assert solver == "certified"
    # the interior point certifies nothing within 2 iterations: the simplex crossover from its ranking does
    monkeypatch.setattr(reveal, "ipm_basis_pursuit", lambda h, e: bp.ipm_basis_pursuit(h, e, max_iter=2))
    x_x, solver = attacks.solve_basis_pursuit(H, eta)
    assert solver == "certified"
    np.testing.assert_allclose(x_x, x_c, atol=1e-9 * np.abs(x_c).max())
    # nothing certified at all: the LARS path, then HiGHS
    monkeypatch.setattr(reveal, "simplex_basis_pursuit", lambda *args, **kw: None)
    x_l, solver = attacks.solve_basis_pursuit(H, eta)
    assert solver == "lars"
    np.testing.assert_array_equal(x_l, attacks.basis_pursuit(H, eta, method="lars"))
    monkeypatch.setattr(reveal, "_bp_lars", lambda *args: None)
    x_h, solver = attacks.solve_basis_pursuit(H, eta)
    assert solver == "highs"
    assert np.abs(x_h).sum() == pytest.approx(np.abs(x_c).sum(), rel=1e-8)


def test_rank_deficient_H_has_no_interior_point_start():
    _, H, _, _, _ = _noisy_problem(400, 10, 80, 100.0, 6)  # noqa: N806
    H2 = np.vstack([H[:-1], H[:1]])  # noqa: N806  (two equal rows)
    x, ranking = bp.ipm_basis_pursuit(H2, H2 @ np.r_[1.0, np.zeros(399)])
    assert x is None and ranking.shape == (400,)
    s, solver = attacks.solve_basis_pursuit(H2, H2 @ np.r_[1.0, np.zeros(399)])
    assert solver in ("lars", "highs") and s[0] == pytest.approx(1.0)


def test_m_at_least_n_is_the_linear_system():
    H = attacks.random_binary_models(30, 20, np.random.default_rng(0))  # noqa: N806
    x = np.random.default_rng(1).normal(size=20)
    s, solver = attacks.solve_basis_pursuit(H, H @ x)
    assert solver == "lstsq"
    np.testing.assert_allclose(s, x, atol=1e-10)


def test_equality_solvers_refuse_a_tolerance_and_unknown_methods_are_named():
    H = attacks.random_binary_models(5, 20, np.random.default_rng(0))  # noqa: N806
    for method in ("certified", "lars"):
        with pytest.raises(ValueError, match=f"method='{method}' solves the equality-constrained problem"):
            attacks.basis_pursuit(H, np.ones(5), method=method, tolerance=0.1)
    with pytest.raises(ValueError, match="simplex"):
        attacks.basis_pursuit(H, np.ones(5), method="simplex")
    s, solver = attacks.solve_basis_pursuit(H, np.ones(5), tolerance=0.1)
    assert solver == "highs" and np.abs(H @ s - 1.0).max() <= 0.1 + 1e-9
