"""Tests of the readings of xu2019 (noiseless limits, noise scales, the Zhang et al. remedy)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg
import scipy.optimize
import scipy.special
from fixtures_functional import xu_data

from ldpfair.functional import (
    PFLR,
    ZHANG_RIDGE_SDS,
    PrivLR,
    TaylorLR,
    fairness_shift,
    lam2_noise_matrix,
    lr_sensitivity,
    minimize_quadratic,
    remedy_regularization,
    shift_sensitivity,
    taylor_coefficients,
)
from ldpfair.functional_fair import FairLR, PFLRStar
from ldpfair.papers.xu2019 import experiments as xu2019


def _data(n: int = 800, d: int = 5, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return xu_data(n, d, seed, base=0.7, shift=0.3)


OPTIONS = [{"remedy": r, "lam2_noise": q} for r in ("trim", "zhang") for q in ("full", "upper")]


@pytest.mark.parametrize("opts", OPTIONS)
def test_noiseless_limits_equal_the_noiseless_models(opts: dict) -> None:
    X, y, s = _data()
    lam1, lam2 = taylor_coefficients(X, y)
    mu = fairness_shift(X, s)
    absshift = X.T @ np.abs(s - s.mean())
    ref = TaylorLR().fit(X, y).coef_
    np.testing.assert_array_equal(PrivLR(np.inf, random_state=0, **opts).fit(X, y).coef_, ref)
    for alpha in (0.5, 1.0):
        signed = minimize_quadratic(lam1 + alpha * mu, lam2).w
        literal = minimize_quadratic(lam1 + alpha * absshift, lam2).w
        fit = PFLR(np.inf, alpha=alpha, random_state=0, **opts).fit(X, y, sensitive_features=s)
        np.testing.assert_allclose(fit.coef_, signed, rtol=1e-12, atol=1e-12)
        fit = PFLR(np.inf, alpha=alpha, rule="abs", random_state=0, **opts).fit(X, y, sensitive_features=s)
        np.testing.assert_allclose(fit.coef_, literal, rtol=1e-12, atol=1e-12)
        for lin in ("f", "g"):
            star = PFLRStar(np.inf, alpha=alpha, linear_noise=lin, random_state=0, **opts)
            np.testing.assert_allclose(star.fit(X, y, sensitive_features=s).coef_, signed, rtol=1e-12,
                                       atol=1e-12)
            assert star.regularization_ == 0.0
    # the signed shift with alpha = 1 is a *different* model from the plain Taylor LR (not a no-op)
    assert np.abs(minimize_quadratic(lam1 + mu, lam2).w - ref).max() > 1e-3


def test_taylor_fairlr_is_the_constrained_taylor_minimiser() -> None:
    X, y, s = _data()
    m = FairLR(objective="taylor").fit(X, y, sensitive_features=s)
    c = fairness_shift(X, s)
    assert abs(c @ m.coef_) < 1e-8 * np.abs(c).sum() * np.abs(m.coef_).sum()
    # KKT: the Taylor gradient lam1 + 2 lam2 w is parallel to the constraint direction
    lam1, lam2 = taylor_coefficients(X, y)
    g = lam1 + 2 * lam2 @ m.coef_
    resid = g - (g @ c) / (c @ c) * c
    assert np.abs(resid).max() < 1e-6 * np.abs(g).max()
    # it is the minimiser over the feasible set: random feasible directions do not decrease it
    B = scipy.linalg.null_space(c[None, :])
    f = lambda w: lam1 @ w + w @ lam2 @ w  # noqa: E731
    rng = np.random.default_rng(0)
    assert all(f(m.coef_ + B @ rng.normal(size=B.shape[1]) * 0.1) >= f(m.coef_) for _ in range(50))
    with pytest.raises(ValueError, match="tau must be 0"):
        FairLR(tau=0.1, objective="taylor").fit(X, y, sensitive_features=s)
    with pytest.raises(ValueError, match="objective"):
        FairLR(objective="cubic").fit(X, y, sensitive_features=s)


def _monomial_coefficients(lam2: np.ndarray) -> np.ndarray:
    """Coefficients of the monomials w_l w_m, l <= m (off-diagonal: 2 Lambda_lm)."""
    iu = np.triu_indices(lam2.shape[0])
    return np.where(iu[0] == iu[1], 1.0, 2.0) * lam2[iu]


@pytest.mark.parametrize("d", [2, 4, 8])
def test_each_reading_has_the_sensitivity_it_claims(d: int) -> None:
    """Max L1 change of the perturbed coefficients over neighbouring datasets in [0,1]^d."""
    rng = np.random.default_rng(d)
    n = 3000
    X = rng.uniform(size=(n, d))
    X[: n // 3] = 1.0
    X[n // 3: 2 * n // 3] = rng.integers(0, 2, size=(n // 3, d))
    y, s = rng.integers(0, 2, n), rng.integers(0, 2, n)
    a, b = rng.integers(0, n, 600), rng.integers(0, n, 600)
    full, upper, lin, shift = [], [], [], []
    for i, j in zip(a, b, strict=True):
        li1, li2 = taylor_coefficients(X[[i]], y[[i]])
        lj1, lj2 = taylor_coefficients(X[[j]], y[[j]])
        full.append(np.abs(li1 - lj1).sum() + np.abs(li2 - lj2).sum())
        upper.append(np.abs(li1 - lj1).sum()
                     + np.abs(_monomial_coefficients(li2) - _monomial_coefficients(lj2)).sum())
        lin.append(np.abs(li1 - lj1).sum())
        shift.append(np.abs((s[i] - 0.5) * X[i] - (s[j] - 0.5) * X[j]).sum())
    # "full" (d^2 ordered pairs) and "upper" (d(d+1)/2 monomials) have the same L1 sensitivity Delta_f
    assert max(full) <= lr_sensitivity(d) + 1e-9 and max(upper) <= lr_sensitivity(d) + 1e-9
    np.testing.assert_allclose(full, upper, rtol=1e-12)  # same L1 change pair by pair
    # the bound is a triangle-inequality bound: x = 1 against x = 0 already attains d/2 + d^2/8 of it
    assert max(full) >= d / 2 + d**2 / 8 - 1e-9
    # PFLR*'s degree-1 coefficients alone: sensitivity d, half of Delta_g = 2d (reading "g")
    assert max(lin) == pytest.approx(d) and max(lin) <= shift_sensitivity(d) / 2 + 1e-9
    assert max(shift) <= shift_sensitivity(d) + 1e-9


def test_noise_scales_of_the_readings() -> None:
    d, b = 6, 2.5
    rng = np.random.default_rng(0)
    draws = np.array([lam2_noise_matrix(rng, b, d, "upper") for _ in range(4000)])
    assert np.allclose(draws, draws.transpose(0, 2, 1))
    mono = np.array([_monomial_coefficients(m) for m in draws])  # one Lap(b) per monomial
    np.testing.assert_allclose(np.abs(mono).mean(axis=0), b, rtol=0.08)
    full = np.array([lam2_noise_matrix(rng, b, d, "full") for _ in range(4000)])
    np.testing.assert_allclose(np.abs(full).mean(axis=0), b, rtol=0.1)
    assert not np.allclose(full, full.transpose(0, 2, 1))
    # PFLR*: the degree-1 noise scale of each reading (eps = 2, eps_f = eps_g = 1, d = 5)
    X, y, s = _data()
    lam1, _ = taylor_coefficients(X, y)
    mu = fairness_shift(X, s)
    dev = {"f": [], "g": []}
    for k in range(3000):
        for lin in ("f", "g"):
            m = PFLRStar(2.0, linear_noise=lin, random_state=k).fit(X, y, sensitive_features=s)
            dev[lin].append(m.mu_ - mu)
    # the shift's own noise: Lap(2d / eps_g) = Lap(10) in both readings
    np.testing.assert_allclose(np.abs(np.array(dev["f"])).mean(), shift_sensitivity(5), rtol=0.05)
    np.testing.assert_allclose(np.abs(np.array(dev["g"])).mean(), shift_sensitivity(5), rtol=0.05)
    with pytest.raises(ValueError, match="linear_noise"):
        PFLRStar(1.0, linear_noise="h", random_state=0).fit(X, y, sensitive_features=s)


def test_zhang_remedy_is_applied_as_stated() -> None:
    X, y, s = _data(d=6)
    scale = lr_sensitivity(6) / 0.5
    assert remedy_regularization("zhang", scale) == pytest.approx(ZHANG_RIDGE_SDS * np.sqrt(2) * scale)
    assert ZHANG_RIDGE_SDS == 4.0
    assert remedy_regularization("trim", scale, 3.0) == 3.0
    assert remedy_regularization("zhang", np.inf) == 0.0
    lam1, lam2 = taylor_coefficients(X, y)
    for k in range(20):
        m = PrivLR(0.5, remedy="zhang", random_state=k).fit(X, y)
        assert m.regularization_ == pytest.approx(4 * np.sqrt(2) * scale)
        # replay the noise: the fitted form is the symmetrised noisy form plus the ridge
        rng = np.random.default_rng(k)
        n1 = rng.laplace(0.0, scale, 6)
        n2 = rng.laplace(0.0, scale, (6, 6))
        M = (lam2 + n2 + (lam2 + n2).T) / 2 + m.regularization_ * np.eye(6)
        ev, Q = np.linalg.eigh(M)
        np.testing.assert_allclose(m.eigenvalues_, ev, rtol=1e-10, atol=1e-8)
        keep = ev > 1e-10 * np.abs(ev).max()
        w = -0.5 * Q[:, keep] @ ((Q[:, keep].T @ (lam1 + n1)) / ev[keep])
        np.testing.assert_allclose(m.coef_, w, rtol=1e-9, atol=1e-12)
        assert m.remedy_triggered_ == bool((ev < -1e-10 * np.abs(ev).max()).any())
    with pytest.raises(ValueError, match="remedy"):
        PrivLR(1.0, remedy="clip", random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="lam2_noise"):
        PrivLR(1.0, lam2_noise="lower", random_state=0).fit(X, y)


def test_readings_are_declared_and_differ_by_one_option() -> None:
    assert set(xu2019.READINGS["paper"]) == set(xu2019.READING_KEYS)
    for name, r in xu2019.READINGS.items():
        if name in ("paper", "v0", "v1"):
            continue
        base = xu2019.READINGS["v0" if name.startswith("v0") else "paper"]
        assert sum(r[k] != base[k] for k in xu2019.READING_KEYS) == 1, name
    # v1, the previous default: the adopted reading without the constraint shift and with the literal rule
    v1, paper = xu2019.READINGS["v1"], xu2019.READINGS["paper"]
    assert {k for k in xu2019.READING_KEYS if v1[k] != paper[k]} == {"shift", "rule"}
    assert (v1["shift"], v1["rule"]) == ("mean", "abs")
    assert (paper["shift"], paper["rule"]) == ("constraint", "penalty")
    with pytest.raises(ValueError, match="reading"):
        xu2019.make_estimator("PrivLR", 1.0, 0.5, np.random.default_rng(0), reading="nope")


def _penalised_minimum(lam1: np.ndarray, lam2: np.ndarray, nu: np.ndarray) -> np.ndarray:
    """Brute-force minimiser of lam1 @ w + w @ lam2 @ w + |nu @ w| (scipy, from several starts)."""
    f = lambda w: lam1 @ w + w @ lam2 @ w + abs(nu @ w)  # noqa: E731
    starts = [np.zeros(lam1.shape[0]), minimize_quadratic(lam1, lam2).w]
    best = min((scipy.optimize.minimize(f, w0, method="Nelder-Mead",
                                        options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 40000,
                                                 "maxfev": 40000}) for w0 in starts),
               key=lambda r: r.fun)
    return best.x


def test_pflr_penalty_rule_minimises_eq12_exactly() -> None:
    X, y, s = _data(d=3)
    lam1, lam2 = taylor_coefficients(X, y)
    mu = fairness_shift(X, s)
    f = lambda w, a: lam1 @ w + w @ lam2 @ w + a * abs(mu @ w)  # noqa: E731
    ref = TaylorLR().fit(X, y).coef_
    fair = FairLR(objective="taylor").fit(X, y, sensitive_features=s).coef_
    # the weight at which the signed shift lands on g_D(w) = 0: above it the kink binds
    a_star = -(mu @ np.linalg.solve(lam2, lam1)) / (mu @ np.linalg.solve(lam2, mu))
    assert a_star > 0
    for alpha in (0.0, 0.5 * a_star, 2.0 * a_star):
        fit = PFLR(np.inf, alpha=alpha, rule="penalty", random_state=0).fit(X, y, sensitive_features=s)
        brute = _penalised_minimum(lam1, lam2, alpha * mu)
        assert f(fit.coef_, alpha) <= f(brute, alpha) + 1e-9 * abs(f(brute, alpha))
        if alpha == 0.0:
            np.testing.assert_allclose(fit.coef_, ref, rtol=1e-10, atol=1e-12)
        elif alpha > a_star:  # the kink: the covariance-constrained Taylor model (FairLR "taylor")
            np.testing.assert_allclose(fit.coef_, fair, rtol=1e-8, atol=1e-10)
            assert abs(mu @ fit.coef_) < 1e-8 * np.abs(mu).sum() * np.abs(fit.coef_).sum()
        else:  # below it: the signed shift
            np.testing.assert_allclose(fit.coef_, minimize_quadratic(lam1 + alpha * mu, lam2).w, rtol=1e-10)
    # noisy fits minimise the released noisy objective the same way (replay the noise)
    m = PFLR(5.0, rule="penalty", random_state=3).fit(X, y, sensitive_features=s)
    rng = np.random.default_rng(3)
    sc = m.sensitivity_ / 5.0
    n1, n2, nmu = rng.laplace(0, sc, 3), rng.laplace(0, sc, (3, 3)), rng.laplace(0, sc, 3)
    L1, L2, nu = lam1 + n1, (lam2 + n2 + (lam2 + n2).T) / 2, mu + nmu
    assert np.linalg.eigvalsh(L2).min() > 0  # convex: the brute force finds the minimum
    brute = _penalised_minimum(L1, L2, nu)
    g = lambda w: L1 @ w + w @ L2 @ w + abs(nu @ w)  # noqa: E731
    assert g(m.coef_) <= g(brute) + 1e-9 * abs(g(brute))


def test_pflr_star_constraint_shift() -> None:
    X, y, s = _data()
    fair = FairLR(objective="taylor").fit(X, y, sensitive_features=s).coef_
    lim = PFLRStar(np.inf, shift="constraint", random_state=0).fit(X, y, sensitive_features=s)
    np.testing.assert_allclose(lim.coef_, fair, rtol=1e-8, atol=1e-10)
    for k in range(5):  # noisy: the model satisfies the constraint of the *noisy* shift, exactly
        m = PFLRStar(1.0, shift="constraint", remedy="zhang", random_state=k).fit(X, y, sensitive_features=s)
        assert abs(m.mu_ @ m.coef_) < 1e-9 * np.abs(m.mu_).sum() * max(np.abs(m.coef_).sum(), 1.0)
        # and it draws the same noise as the mean reading: same mu, same noise scale
        mean = PFLRStar(1.0, shift="mean", remedy="zhang", random_state=k).fit(X, y, sensitive_features=s)
        np.testing.assert_array_equal(m.mu_, mean.mu_)
        assert m.noise_scale_ == mean.noise_scale_
    with pytest.raises(ValueError, match="shift"):
        PFLRStar(1.0, shift="both", random_state=0).fit(X, y, sensitive_features=s)


@pytest.mark.parametrize("d", [2, 5])
def test_penalty_rule_and_attribute_bound_have_the_sensitivity_they_claim(d: int) -> None:
    """Joint L1 change of (lam1, Lam2, alpha mu) over neighbours; one-hot rows sum to the attributes."""
    from ldpfair.functional import pflr_sensitivity, record_coefficient_l1

    rng = np.random.default_rng(d)
    n = 2000
    X = rng.uniform(size=(n, d))
    X[: n // 2] = rng.integers(0, 2, size=(n // 2, d))
    y, s = rng.integers(0, 2, n), rng.integers(0, 2, n)
    for alpha in (0.5, 1.0):
        sb = float(s.mean())
        a, b = rng.integers(0, n, 500), rng.integers(0, n, 500)
        ch = []
        for i, j in zip(a, b, strict=True):
            li1, li2 = taylor_coefficients(X[[i]], y[[i]])
            lj1, lj2 = taylor_coefficients(X[[j]], y[[j]])
            mi, mj = alpha * (s[i] - sb) * X[i], alpha * (s[j] - sb) * X[j]
            ch.append(np.abs(li1 - lj1).sum() + np.abs(li2 - lj2).sum() + np.abs(mi - mj).sum())
        assert max(ch) <= pflr_sensitivity(d, alpha) + 1e-9
        l1 = record_coefficient_l1(X, y, s, alpha=alpha, rule="penalty")
        assert 2 * l1.max() <= pflr_sensitivity(d, alpha) + 1e-9
        # the noise scale of the fitted model is the sensitivity it claims, over epsilon
        m = PFLR(2.0, alpha=alpha, rule="penalty", random_state=0).fit(X, y, sensitive_features=s)
        assert m.noise_scale_ == pytest.approx(pflr_sensitivity(d, alpha) / 2.0)
    # "attributes" bound: a one-hot record of k attributes sums to k, and the bound is enforced
    k = 3
    onehot = np.zeros((n, 3 * k))
    onehot[np.arange(n)[:, None], 3 * np.arange(k) + rng.integers(0, 3, (n, k))] = 1.0
    a, b = rng.integers(0, n, 500), rng.integers(0, n, 500)
    ch = [sum(np.abs(u - v).sum() for u, v in zip(taylor_coefficients(onehot[[i]], y[[i]]),
                                                  taylor_coefficients(onehot[[j]], y[[j]]), strict=True))
          for i, j in zip(a, b, strict=True)]
    assert max(ch) <= lr_sensitivity(k) + 1e-9 < lr_sensitivity(3 * k)
    m = PrivLR(1.0, row_sum_bound=k, random_state=0).fit(onehot, y)
    assert m.sensitivity_ == lr_sensitivity(k) and m.noise_scale_ == lr_sensitivity(k)
    with pytest.raises(ValueError, match="row_sum_bound"):
        PrivLR(1.0, row_sum_bound=k - 1, random_state=0).fit(onehot, y)
