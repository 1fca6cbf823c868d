"""Tests of the functional mechanism and the xu2019 estimators (ldpfair.functional)."""

from __future__ import annotations

import numpy as np
import pytest
from fixtures_functional import xu_data
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from ldpfair.functional import (
    PFLR,
    PrivLR,
    TaylorLR,
    UnboundedObjectiveError,
    fairness_shift,
    lr_sensitivity,
    minimize_quadratic,
    pflr_sensitivity,
    record_coefficient_l1,
    shift_sensitivity,
    taylor_coefficients,
)
from ldpfair.functional_fair import FairLR, PFLRStar


def _data(n: int = 600, d: int = 6, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return xu_data(n, d, seed, base=0.8, shift=0.2)


def _logloss(X: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    z = X @ w
    return float(np.sum(np.logaddexp(0.0, z) - y * z))


def test_coefficients_equal_independent_taylor_expansion() -> None:
    X, y, _ = _data()
    lam1, lam2 = taylor_coefficients(X, y)
    n, d = X.shape
    # gradient and Hessian of the exact loss at w = 0 by central finite differences
    h = 1e-4
    eye = np.eye(d)
    grad = np.array([(_logloss(X, y, h * e) - _logloss(X, y, -h * e)) / (2 * h) for e in eye])
    hess = np.array([[(_logloss(X, y, h * (a + b)) - _logloss(X, y, h * (a - b))
                       - _logloss(X, y, h * (b - a)) + _logloss(X, y, -h * (a + b))) / (4 * h * h)
                      for b in eye] for a in eye])
    np.testing.assert_allclose(lam1, grad, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(2 * lam2, hess, rtol=1e-4, atol=1e-4)
    # the polynomial equals the per-record Taylor series written out term by term
    w = np.random.default_rng(1).normal(size=d) * 0.3
    z = X @ w
    series = np.sum(np.log(2) + z / 2 + z**2 / 8 - y * z)
    assert n * np.log(2) + lam1 @ w + w @ lam2 @ w == pytest.approx(series, rel=1e-12)
    # and approximates the exact loss to third order near 0
    assert abs(series - _logloss(X, y, w)) < 0.02 * abs(_logloss(X, y, w))


@pytest.mark.parametrize("d", [1, 3, 10])
def test_sensitivity_bounds_hold_on_random_records(d: int) -> None:
    rng = np.random.default_rng(d)
    n = 4000
    X = rng.uniform(size=(n, d))
    X[: n // 4] = 1.0  # the extreme records of the domain
    X[n // 4: n // 2] = rng.integers(0, 2, size=(n // 4, d))
    y, s = rng.integers(0, 2, n), rng.integers(0, 2, n)
    l1 = record_coefficient_l1(X, y)
    assert 2 * l1.max() <= lr_sensitivity(d) + 1e-9
    assert 2 * l1.max() == pytest.approx(lr_sensitivity(d))  # tight at x = 1
    for rule in ("signed", "abs"):
        for s_bar in (0.0, 0.3, 1.0):
            l1f = record_coefficient_l1(X, y, s, s_bar=s_bar, rule=rule)
            assert 2 * l1f.max() <= pflr_sensitivity(d) + 1e-9
    # neighbouring datasets: L1 change of the summed coefficients <= Delta
    i, j = rng.integers(0, n, 200), rng.integers(0, n, 200)
    for a, b in zip(i, j, strict=True):
        la1, la2 = taylor_coefficients(X[[a]], y[[a]])
        lb1, lb2 = taylor_coefficients(X[[b]], y[[b]])
        assert np.abs(la1 - lb1).sum() + np.abs(la2 - lb2).sum() <= lr_sensitivity(d) + 1e-9
        mu_change = np.abs((s[a] - 0.5) * X[a] - (s[b] - 0.5) * X[b]).sum()
        assert mu_change <= shift_sensitivity(d)


def test_fairness_shift_is_centroid_difference() -> None:
    X, _, s = _data(n=501, d=5)
    n1, n0 = s.sum(), (1 - s).sum()
    expected = n1 * n0 / len(s) * (X[s == 1].mean(axis=0) - X[s == 0].mean(axis=0))
    np.testing.assert_allclose(fairness_shift(X, s), expected, rtol=1e-12, atol=1e-10)


def test_privlr_tends_to_taylor_lr_as_epsilon_grows() -> None:
    X, y, _ = _data()
    ref = TaylorLR().fit(X, y).coef_
    np.testing.assert_array_equal(PrivLR(np.inf, random_state=0).fit(X, y).coef_, ref)
    errs = []
    for eps in (1e2, 1e4, 1e6, 1e8):
        fits = [PrivLR(eps, random_state=k).fit(X, y) for k in range(3)]
        errs.append(max(np.linalg.norm(f.coef_ - ref) for f in fits))
    assert errs == sorted(errs, reverse=True) and errs[-1] < 1e-6 * np.linalg.norm(ref)


def test_taylor_lr_close_to_exact_lr_predictions() -> None:
    X, y, _ = _data(n=2000)
    from sklearn.linear_model import LogisticRegression

    ref = LogisticRegression(fit_intercept=False, C=1e6, max_iter=5000).fit(X, y).predict(X)
    assert np.mean(TaylorLR().fit(X, y).predict(X) == ref) > 0.9


def test_noise_has_the_papers_scale() -> None:
    X, y, s = _data(n=5000, d=3)
    lam1, lam2 = taylor_coefficients(X, y)
    eps = 2.0
    m = PrivLR(eps, random_state=7).fit(X, y)
    assert m.sensitivity_ == lr_sensitivity(3) == 3**2 / 4 + 3
    assert m.noise_scale_ == lr_sensitivity(3) / eps
    # reproduce the fit's noise: same generator, same draw order (d degree-1 then d^2 degree-2)
    rng = np.random.default_rng(7)
    n1 = rng.laplace(0, m.noise_scale_, 3)
    n2 = rng.laplace(0, m.noise_scale_, (3, 3))
    np.testing.assert_allclose(m.coef_, minimize_quadratic(lam1 + n1, lam2 + n2).w)
    pf = PFLR(eps, random_state=7).fit(X, y, sensitive_features=s)
    assert pf.sensitivity_ == pflr_sensitivity(3) == 3**2 / 4 + 9
    assert pf.noise_scale_ == pf.sensitivity_ / eps


def test_pflr_signed_noiseless_equals_pflr_star_noiseless() -> None:
    X, y, s = _data()
    a = PFLR(np.inf, random_state=0).fit(X, y, sensitive_features=s).coef_
    b = PFLRStar(np.inf, random_state=0).fit(X, y, sensitive_features=s).coef_
    np.testing.assert_allclose(a, b)
    lam1, lam2 = taylor_coefficients(X, y)
    direct = minimize_quadratic(lam1 + fairness_shift(X, s), lam2).w
    np.testing.assert_allclose(a, direct)
    r = s - s.mean()
    absolute = minimize_quadratic(lam1 + X.T @ np.abs(r), lam2).w
    np.testing.assert_allclose(PFLR(np.inf, rule="abs", random_state=0).fit(
        X, y, sensitive_features=s).coef_, absolute)


def test_pflr_star_shift_noise_and_mean() -> None:
    X, y, s = _data(n=300, d=4)
    eps, q = 4.0, 0.25
    mus = np.array([PFLRStar(eps, eps_f_ratio=q, random_state=k).fit(X, y, sensitive_features=s).mu_
                    for k in range(3000)])
    shift = fairness_shift(X, s)
    b = shift_sensitivity(4) / ((1 - q) * eps)
    np.testing.assert_allclose(mus.mean(axis=0), shift, atol=5 * b * np.sqrt(2 / 3000))
    np.testing.assert_allclose(mus.var(axis=0), 2 * b**2, rtol=0.15)


def test_spectral_trimming_bounds_an_indefinite_objective() -> None:
    lam2 = np.diag([2.0, -1.0, 0.5])
    lam1 = np.array([4.0, 3.0, -1.0])
    sol = minimize_quadratic(lam1, lam2)
    assert sol.remedy_triggered and sol.n_negative == 1 and sol.n_trimmed == 1
    np.testing.assert_allclose(sol.w, [-1.0, 0.0, 1.0])
    # regularisation making the form definite: no trimming, exact minimiser
    sol2 = minimize_quadratic(lam1, lam2, regularization=2.0)
    assert not sol2.remedy_triggered
    np.testing.assert_allclose(sol2.w, -0.5 * np.linalg.solve(lam2 + 2 * np.eye(3), lam1))
    with pytest.raises(UnboundedObjectiveError, match="no direction of positive curvature"):
        minimize_quadratic(lam1, -np.eye(3))


def test_noisy_fit_records_the_remedy() -> None:
    X, y, _ = _data(n=200, d=8)
    m = PrivLR(0.01, random_state=3).fit(X, y)
    assert m.remedy_triggered_ and m.n_negative_ >= 1
    assert m.n_negative_ == int((m.eigenvalues_ < 0).sum())
    assert not TaylorLR().fit(X, y).remedy_triggered_


def test_fairlr_zeroes_the_covariance_and_reduces_rd() -> None:
    X, y, s = _data(n=3000, d=5, seed=2)
    f = FairLR().fit(X, y, sensitive_features=s)
    assert abs(f.covariance_) < 1e-8
    t = FairLR(tau=0.01).fit(X, y, sensitive_features=s)
    assert abs(t.covariance_) <= 0.01 + 1e-6
    from sklearn.linear_model import LogisticRegression

    base = LogisticRegression(fit_intercept=False).fit(X, y).predict(X)
    pred = f.predict(X)

    def rd(p: np.ndarray) -> float:
        return abs(p[s == 1].mean() - p[s == 0].mean())

    assert rd(pred) < rd(base)
    proba = f.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(pred, (proba[:, 1] > 0.5).astype(int))


def test_validation_errors() -> None:
    X, y, s = _data(n=50, d=3)
    with pytest.raises(ValueError, match="random_state must be given"):
        PrivLR(1.0).fit(X, y)
    with pytest.raises(ValueError, match="epsilon"):
        PrivLR(-1.0, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\]"):
        PrivLR(1.0, random_state=0).fit(X * 2, y)
    # any two labels (scikit-learn's convention: classes_ sorted, the second positive)
    relabelled = TaylorLR().fit(X, np.where(y == 1, "yes", "no"))
    np.testing.assert_array_equal(relabelled.coef_, TaylorLR().fit(X, y).coef_)
    assert set(relabelled.predict(X)) <= {"no", "yes"} and list(relabelled.classes_) == ["no", "yes"]
    with pytest.raises(ValueError, match="needs samples of exactly 2 classes in y, got 3"):
        TaylorLR().fit(X, np.arange(50) % 3)
    with pytest.raises(ValueError, match="Unknown label type"):
        TaylorLR().fit(X, np.linspace(0, 1, 50))
    with pytest.raises(ValueError, match="needs sensitive_features"):
        PFLR(1.0, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="unknown rule"):
        PFLR(1.0, rule="other", random_state=0).fit(X, y, sensitive_features=s)
    with pytest.raises(ValueError, match="eps_f_ratio"):
        PFLRStar(1.0, eps_f_ratio=1.0, random_state=0).fit(X, y, sensitive_features=s)
    with pytest.raises(ValueError, match="row_sum_bound"):
        PrivLR(1.0, row_sum_bound=0.5, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match="not fitted"):
        TaylorLR().predict(X)
    with pytest.raises(ValueError, match="Invalid parameter .eps. for estimator PrivLR"):
        PrivLR().set_params(eps=1)
    assert PFLRStar(2.0, eps_f_ratio=0.3).get_params()["eps_f_ratio"] == 0.3


def test_row_sum_bound_reduces_noise_scale() -> None:
    X, y, _ = _data(n=100, d=6)
    m = PrivLR(1.0, row_sum_bound=6.0, random_state=0).fit(X, y)
    assert m.sensitivity_ == lr_sensitivity(6)
    # bound 6 = d: identical to the paper's default
    np.testing.assert_array_equal(m.coef_, PrivLR(1.0, random_state=0).fit(X, y).coef_)


# -- scikit-learn's estimator checks, where they apply ----------------------------------------------
# The functional-mechanism models need features in [0, 1] (the domain of their sensitivity), so
# the checks run on a pipeline that scales into it. FairLR, PFLR and PFLR* need the protected
# attribute in fit, which the generic checks cannot give: they are tested above instead.
_PIPELINE = {  # Pipeline fits its steps in place, which these two checks flag on any Pipeline
    "check_estimators_overwrite_params": "Pipeline fits its steps in place",
    "check_dont_overwrite_parameters": "Pipeline fits its steps in place",
}
_NOISY = {
    **_PIPELINE,
    "check_classifiers_train": "at epsilon = 1 the Laplace noise keeps accuracy below the check's 0.83",
    "check_fit2d_1feature": "one feature at epsilon = 1: the noise leaves no positive curvature (raised)",
}


def _expected_failures(estimator):
    return _NOISY if np.isfinite(estimator[-1].get_params().get("epsilon", np.inf)) else _PIPELINE


@parametrize_with_checks(
    [make_pipeline(MinMaxScaler(clip=True), TaylorLR()),
     make_pipeline(MinMaxScaler(clip=True), PrivLR(epsilon=np.inf, random_state=0)),
     make_pipeline(MinMaxScaler(clip=True), PrivLR(epsilon=1.0, random_state=0))],
    expected_failed_checks=_expected_failures,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
