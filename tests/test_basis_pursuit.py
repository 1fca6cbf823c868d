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


@pytest.mark.parametrize(("epsilon", "seed"), [(100.0, 0), (10.0, 1), (100.0, 2)])
def test_simplex_gives_the_lars_and_highs_solution_and_recovery(epsilon, seed):
    a, H, answers, n1, n0 = _noisy_problem(600, 20, 120, epsilon, seed)  # noqa: N806
    res = {meth: attacks.reveal_compressed(H, answers, n1, n0, method=meth)
           for meth in ("simplex", "lars", "highs")}
    eta = H.sum(axis=1) / n1 - answers
    s = res["simplex"].estimate
    assert np.count_nonzero(s) == H.shape[0]  # noisy answers: a vertex with m non-zeros
    np.testing.assert_allclose(H @ s, eta, atol=1e-9 * max(1.0, np.abs(eta).max()))
    for other in ("lars", "highs"):
        assert np.abs(s).sum() == pytest.approx(np.abs(res[other].estimate).sum(), rel=1e-8)
        np.testing.assert_array_equal(res["simplex"].a_hat, res[other].a_hat)


def test_certified_switches_to_the_simplex_only_when_the_short_path_fails(monkeypatch):
    calls = []
    original = reveal._bp_simplex
    monkeypatch.setattr(reveal, "_bp_simplex", lambda *args: calls.append(1) or original(*args))
    a, H, answers, n1, n0 = _noisy_problem(600, 20, 120, 100.0, 3)  # noqa: N806
    exact = attacks.reveal_compressed(H, attacks.sp_queries(H, a), n1, n0, method="certified")
    assert calls == [] and attacks.leakage(a, exact.a_hat) == 100.0  # sparse: LARS within m steps
    noisy = attacks.reveal_compressed(H, answers, n1, n0, method="certified")
    assert calls == [1]
    attacks.reveal_compressed(H, answers, n1, n0)  # the default keeps the full LARS path
    assert calls == [1]
    lars = attacks.reveal_compressed(H, answers, n1, n0, method="lars")
    np.testing.assert_array_equal(noisy.a_hat, lars.a_hat)


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
    assert bp.certify_support(H, eta, support[:-1]) is None  # not m columns
    assert bp.certify_support(H, eta, np.r_[support[:-1], support[0]]) is None  # a repeated column


def test_simplex_repairs_a_poor_start_and_reports_failure_at_the_pivot_cap():
    _, H, answers, n1, _ = _noisy_problem(400, 10, 80, 10.0, 5)  # noqa: N806
    eta = H.sum(axis=1) / n1 - answers
    x_h = attacks.basis_pursuit(H, eta, method="highs")
    start = np.arange(80)  # an arbitrary basis
    x = bp.simplex_basis_pursuit(H, eta, start)
    assert x is not None
    assert np.abs(x).sum() == pytest.approx(np.abs(x_h).sum(), rel=1e-8)
    assert bp.simplex_basis_pursuit(H, eta, start, max_pivots=1) is None


def test_fallback_to_lars_when_the_certified_solver_fails(monkeypatch):
    _, H, answers, n1, _ = _noisy_problem(400, 10, 80, 100.0, 6)  # noqa: N806
    eta = H.sum(axis=1) / n1 - answers
    monkeypatch.setattr(reveal, "simplex_basis_pursuit", lambda *args, **kw: None)
    x = attacks.basis_pursuit(H, eta, method="simplex")
    x_l = attacks.basis_pursuit(H, eta, method="lars")
    np.testing.assert_array_equal(x, x_l)
    # a rank-deficient H (two equal rows) has no basis of m columns: the simplex path declines
    H2 = np.vstack([H[:-1], H[:1]])  # noqa: N806
    assert reveal._bp_simplex(H2, H2 @ np.r_[1.0, np.zeros(399)]) is None


def test_simplex_refuses_a_tolerance():
    H = attacks.random_binary_models(5, 20, np.random.default_rng(0))  # noqa: N806
    with pytest.raises(ValueError, match="simplex"):
        attacks.basis_pursuit(H, np.ones(5), method="simplex", tolerance=0.1)
