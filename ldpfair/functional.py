"""The functional mechanism for logistic regression, and the private fair models of Xu et al. (2019).

The functional mechanism (Zhang et al. 2012) makes an optimisation-based model
differentially private by perturbing the *coefficients* of a polynomial form of
its objective. For logistic regression without intercept, on records
``x in [0, 1]^d`` and ``y in {0, 1}``, the second-order Taylor expansion at 0 of
``sum_i log(1 + exp(x_i^T w)) - y_i x_i^T w`` is

``n log 2 + lambda_1^T w + w^T Lambda_2 w``, with
``lambda_1 = sum_i (1/2 - y_i) x_i`` (degree-1 coefficients, xu2019 Eq. 6) and
``Lambda_2 = (1/8) sum_i x_i x_i^T`` (the ``d^2`` degree-2 coefficients of the
monomials ``w_l w_m``, ordered pairs as in Eq. 7).

The estimators (scikit-learn style: ``fit``, ``predict``, ``predict_proba``,
``decision_function``, ``get_params``; ``sensitive_features`` passed to ``fit``):

- :class:`TaylorLR`: the minimiser of the (noise-free) Taylor objective;
- :class:`PrivLR`: functional mechanism, Laplace noise of scale
  ``Delta_f / epsilon`` with ``Delta_f = d^2/4 + d`` (Eq. 8);
- :class:`~ldpfair.functional_fair.FairLR` (in :mod:`ldpfair.functional_fair`): exact
  logistic regression under the decision-boundary covariance constraint of Zafar et al.
  (2017) (Eq. 10-11, ``tau = 0`` by default);
- :class:`PFLR`: the fairness term ``alpha * sum_i (s_i - s_bar) x_i^T w`` put into
  the Taylor objective before perturbation, ``Delta = d^2/4 + (1 + 2 alpha) d``
  (Eq. 13-14, Algorithm 1);
- :class:`~ldpfair.functional_fair.PFLRStar` (in :mod:`ldpfair.functional_fair`): the
  shift ``mu = sum_i (s_i - s_bar) x_i`` (computed with
  ``epsilon_g``, ``Delta_g = 2d``) used as the *mean* of the Laplace noise of the
  degree-1 coefficients, the rest of the budget ``epsilon_f`` for the objective
  (Algorithm 2).

**Unbounded perturbed objectives.** A noisy ``Lambda_2`` need not be positive
(semi-)definite, and then the quadratic objective has no minimum. We apply the
remedies of Zhang et al. (2012, Sec. 5): an optional data-independent
regularisation ``regularization * I`` added to the symmetrised quadratic form,
then *spectral trimming*: eigen-decompose ``M = Q diag(e) Q^T`` and minimise only
in the span of the eigenvectors with ``e > rtol * max|e|`` (directions of zero or
negative curvature are removed, the weight along them is 0). Both steps are
post-processing of the private coefficients, so privacy is unaffected. Every
fitted model records ``n_negative_`` (eigenvalues < 0 that were trimmed: the
objective was unbounded below) and ``remedy_triggered_``; a model with no
direction left raises :class:`UnboundedObjectiveError` instead of returning
``w = 0``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.special
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import NotFittedError
from sklearn.utils import Tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import validate_data

from ._validation import check_choice, check_epsilon, check_probability, check_rng

__all__ = [
    "UnboundedObjectiveError",
    "QuadraticSolution",
    "taylor_coefficients",
    "fairness_shift",
    "record_coefficient_l1",
    "lr_sensitivity",
    "pflr_sensitivity",
    "shift_sensitivity",
    "minimize_quadratic",
    "TaylorLR",
    "PrivLR",
    "PFLR",
    "REMEDIES",
    "LAM2_NOISE",
    "ZHANG_RIDGE_SDS",
    "STAR_LINEAR_NOISE",
    "FAIRLR_OBJECTIVES",
    "remedy_regularization",
    "lam2_noise_matrix",
]

#: Readings of the PFLR degree-1 coefficient rule (Algorithm 1, line 3).
PFLR_RULES = ("signed", "abs", "penalty")
#: Remedies for an indefinite noisy quadratic form: ``"trim"`` (spectral trimming of the eigenvalues
#: ``<= rtol * max|e|``, plus the given ``regularization``) and ``"zhang"`` (Zhang et al. 2012, Sec. 5:
#: ridge of four standard deviations of the Laplace noise, then trimming of what stays non-positive).
REMEDIES = ("trim", "zhang")
#: Readings of the degree-2 noise: ``"full"`` draws one Laplace variable per ordered pair ``(l, m)``
#: (``d^2`` variables, as Eq. 7 counts them); ``"upper"`` one per monomial ``w_l w_m`` with ``l <= m``
#: (``d (d + 1) / 2`` variables, the functional mechanism's own count), split evenly over the two
#: symmetric entries.
LAM2_NOISE = ("full", "upper")
#: Readings of the noise on PFLR*'s degree-1 coefficients (Algorithm 2, line 5): ``"f"`` draws it
#: with scale ``Delta_f / epsilon_f`` (the algorithm's line 5, the theorem's proof); ``"g"`` with scale
#: ``Delta_g / epsilon_g`` (the text of Sec. 3.2: "we introduce Laplace noise Lap(mu, Delta_g /
#: epsilon_g) to the polynomial coefficients").
STAR_LINEAR_NOISE = ("f", "g")
#: Objectives of :class:`~ldpfair.functional_fair.FairLR`: the exact logistic loss or its
#: second-order Taylor form (Eq. 5).
FAIRLR_OBJECTIVES = ("exact", "taylor")
#: Multiple of the noise's standard deviation used as ridge by the ``"zhang"`` remedy.
ZHANG_RIDGE_SDS = 4.0


class UnboundedObjectiveError(RuntimeError):
    """The perturbed quadratic objective has no direction of positive curvature left."""


# --------------------------------------------------------------------------- validation
def _check_X(X: object, name: str = "X") -> np.ndarray:
    """``X`` as a 2-D float64 array in [0, 1] (the domain the sensitivities assume)."""
    arr = np.asarray(X)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"{name} must be a numeric array, got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array (n_samples, n_features), "
                         f"got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} has non-finite values")
    lo, hi = float(arr.min()), float(arr.max())
    if lo < 0.0 or hi > 1.0:
        raise ValueError(
            f"{name} must lie in [0, 1] (the domain of the functional mechanism's sensitivity), "
            f"got values in [{lo}, {hi}]; scale the features first"
        )
    return arr


def _check_binary(v: object, n: int, name: str) -> np.ndarray:
    arr = np.asarray(v)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{name} must be a 1-D array of length {n}, got shape {arr.shape}")
    if not np.isin(arr, (0, 1)).all():
        bad = np.unique(arr[~np.isin(arr, (0, 1))])[:5]
        raise ValueError(f"{name} must hold only 0 and 1, got e.g. {bad.tolist()}")
    return arr.astype(np.float64)


def _check_nonneg(value: object, name: str) -> float:
    if (isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(float(value))
            or value < 0):
        raise ValueError(f"{name} must be a finite real number >= 0, got {value!r}")
    return float(value)


# --------------------------------------------------------------------------- coefficients
def taylor_coefficients(X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    """Degree-1 and degree-2 coefficients of the Taylor-approximated LR objective (xu2019 Eq. 5-7).

    Parameters
    ----------
    X : array-like of shape (n, d)
        Features in [0, 1].
    y : array-like of shape (n,)
        Labels in {0, 1}.

    Returns
    -------
    lam1 : ndarray of shape (d,)
        ``sum_i (f1'(0) - y_i) x_i`` with ``f1'(0) = 1/2``.
    lam2 : ndarray of shape (d, d)
        ``sum_i f1''(0)/2! x_i x_i^T`` with ``f1''(0) = 1/4``: the coefficient of
        ``w_l w_m`` for each ordered pair ``(l, m)``. The objective is
        ``n log 2 + lam1 @ w + w @ lam2 @ w``.
    """
    X = _check_X(X)
    y = _check_binary(y, X.shape[0], "y")
    return X.T @ (0.5 - y), (X.T @ X) / 8.0


def fairness_shift(X: object, s: object) -> np.ndarray:
    """``sum_i (s_i - s_bar) x_i``: the decision-boundary covariance direction (xu2019 Sec. 3.2).

    It equals ``(n_0 n_1 / n) (c_1 - c_0)`` where ``c_g`` is the centroid of group
    ``s = g``: the signed distance between the centroids of the two groups.
    """
    X = _check_X(X)
    s = _check_binary(s, X.shape[0], "s")
    return X.T @ (s - s.mean())


def record_coefficient_l1(
    X: object, y: object, s: object | None = None, *, s_bar: float | None = None,
    alpha: float = 1.0, rule: str = "signed",
) -> np.ndarray:
    """Per-record L1 norm of the polynomial coefficients, ``sum_j sum_phi |lambda_phi,t|``.

    Without ``s``: the coefficients of the LR objective (Eq. 6-7); with ``s``: those
    of the PFLR objective, ``(1/2 - y + alpha * r) x`` with ``r = s - s_bar``
    (``rule="signed"``) or ``|s - s_bar|`` (``rule="abs"``); with ``rule="penalty"`` the
    LR coefficients and, separately, the penalty's ``alpha * r * x``. Twice the maximum
    over all records of the domain is the global sensitivity (Eq. 8 and 14).

    Returns
    -------
    ndarray of shape (n,)
    """
    X = _check_X(X)
    y = _check_binary(y, X.shape[0], "y")
    shift = np.zeros_like(y)
    if s is not None:
        s = _check_binary(s, X.shape[0], "s")
        sb = float(s.mean()) if s_bar is None else check_probability(s_bar, "s_bar")
        check_choice(rule, PFLR_RULES, "rule")
        shift = alpha * ((s - sb) if rule == "signed" else np.abs(s - sb))
    rows = X.sum(axis=1)
    if rule == "penalty":
        return (np.abs(0.5 - y) + np.abs(shift)) * rows + rows**2 / 8.0
    return np.abs(0.5 - y + shift) * rows + rows**2 / 8.0


def lr_sensitivity(d: float) -> float:
    """``Delta_f = d^2/4 + d`` (xu2019 Eq. 8) for ``d`` features in [0, 1] (or a row-sum bound ``d``)."""
    return d**2 / 4.0 + d


def pflr_sensitivity(d: float, alpha: float = 1.0) -> float:
    """``d^2/4 + (1 + 2 alpha) d``; ``d^2/4 + 3d`` for ``alpha = 1`` (xu2019 Eq. 14)."""
    return d**2 / 4.0 + (1.0 + 2.0 * alpha) * d


def shift_sensitivity(d: int) -> float:
    """``Delta_g = 2d``, the sensitivity of the fairness shift ``mu`` (xu2019 Eq. 16)."""
    return 2.0 * d


# --------------------------------------------------------------------------- solver
@dataclass(frozen=True)
class QuadraticSolution:
    """Minimiser of ``lam1 @ w + w @ M @ w`` after the Zhang et al. remedies.

    Attributes
    ----------
    w : ndarray
        The minimiser within the kept eigen-space.
    eigenvalues : ndarray
        Eigenvalues of the (regularised) symmetrised quadratic form.
    n_trimmed : int
        Eigen-directions removed (eigenvalue <= threshold), zero ones included.
    n_negative : int
        Removed directions of strictly negative curvature: the objective was
        unbounded below along each of them.
    """

    w: np.ndarray
    eigenvalues: np.ndarray
    n_trimmed: int
    n_negative: int

    @property
    def remedy_triggered(self) -> bool:
        """Whether the objective was unbounded below (some curvature < 0) and had to be trimmed."""
        return self.n_negative > 0


def minimize_quadratic(
    lam1: object, lam2: object, *, regularization: float = 0.0, rtol: float = 1e-10
) -> QuadraticSolution:
    """Minimise ``lam1 @ w + w @ lam2 @ w`` with regularisation and spectral trimming.

    ``lam2`` is symmetrised (the form depends only on its symmetric part),
    ``regularization * I`` is added, and only eigen-directions with eigenvalue
    ``> rtol * max|eigenvalue|`` are kept (Zhang et al. 2012, Sec. 5). On a
    positive semi-definite form this is the minimum-norm exact minimiser
    ``-1/2 M^+ lam1``.

    Raises
    ------
    UnboundedObjectiveError
        If no eigen-direction of positive curvature is left.
    """
    lam1 = np.asarray(lam1, dtype=np.float64)
    lam2 = np.asarray(lam2, dtype=np.float64)
    d = lam1.shape[0]
    if lam1.ndim != 1 or lam2.shape != (d, d):
        raise ValueError(f"lam1 must be (d,) and lam2 (d, d); got {lam1.shape} and {lam2.shape}")
    regularization = _check_nonneg(regularization, "regularization")
    M = (lam2 + lam2.T) / 2.0 + regularization * np.eye(d)
    evals, evecs = np.linalg.eigh(M)
    thresh = rtol * max(float(np.abs(evals).max()), np.finfo(float).tiny)
    keep = evals > thresh
    if not keep.any():
        raise UnboundedObjectiveError(
            "the perturbed quadratic objective has no direction of positive curvature: every "
            "eigenvalue is <= 0, so spectral trimming leaves no model (increase epsilon or "
            "regularization)"
        )
    q = evecs[:, keep]
    w = -0.5 * q @ ((q.T @ lam1) / evals[keep])
    return QuadraticSolution(w=w, eigenvalues=evals, n_trimmed=int((~keep).sum()),
                             n_negative=int((evals < -thresh).sum()))


def remedy_regularization(remedy: str, scale: float, regularization: float = 0.0) -> float:
    """Ridge added to the noisy quadratic form by a remedy (:data:`REMEDIES`).

    ``"trim"``: the given ``regularization``. ``"zhang"``: ``regularization`` plus
    :data:`ZHANG_RIDGE_SDS` standard deviations of the Laplace noise of scale
    ``scale`` (``sqrt(2) * scale`` each), as Zhang et al. (2012, Sec. 5) set their
    regularisation constant; 0 without noise, so the noiseless limit is unchanged.
    """
    check_choice(remedy, REMEDIES, "remedy")
    reg = _check_nonneg(regularization, "regularization")
    if remedy == "zhang" and np.isfinite(scale):
        reg += ZHANG_RIDGE_SDS * np.sqrt(2.0) * scale
    return reg


def lam2_noise_matrix(rng: np.random.Generator, scale: float, d: int, reading: str = "full") -> np.ndarray:
    """Laplace noise for the ``d x d`` degree-2 coefficient matrix under a reading (:data:`LAM2_NOISE`).

    ``"full"``: ``d^2`` independent ``Lap(scale)`` entries. ``"upper"``: one
    ``Lap(scale)`` per monomial ``w_l w_m`` (``l <= m``); the coefficient of an
    off-diagonal monomial is ``2 Lambda_2[l, m]``, so half of its noise goes to each
    of the two symmetric entries and the matrix stays symmetric.
    """
    check_choice(reading, LAM2_NOISE, "lam2_noise")
    if np.isinf(scale) or scale == 0.0:
        return np.zeros((d, d))
    if reading == "full":
        return rng.laplace(0.0, scale, size=(d, d))
    iu = np.triu_indices(d)
    noise = np.zeros((d, d))
    noise[iu] = rng.laplace(0.0, scale, size=iu[0].size)
    off = noise - np.diag(np.diag(noise))
    return np.diag(np.diag(noise)) + (off + off.T) / 2.0


# --------------------------------------------------------------------------- estimators
class _LinearModel(ClassifierMixin, BaseEstimator):
    """Shared plumbing: scikit-learn's parameters and accuracy score, prediction from ``coef_``.

    ``get_params``/``set_params``/``clone`` come from :class:`~sklearn.base.BaseEstimator`
    (the constructor's keyword arguments), ``score`` (accuracy) from
    :class:`~sklearn.base.ClassifierMixin`; the noise comes from ``random_state``
    given to the constructor.
    """

    def __sklearn_tags__(self) -> Tags:
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary logistic regression
        return tags

    def _validate(self, X: object, y: object) -> tuple[np.ndarray, np.ndarray]:
        """scikit-learn's validation of ``(X, y)``, then the mechanism's domain.

        Sets ``n_features_in_`` and ``classes_`` (any two labels; the second is the
        positive class) and returns ``X`` as float64 in [0, 1] and ``y`` as 0/1 floats.
        """
        X_checked, y_checked = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y_checked)
        classes, y01 = np.unique(y_checked, return_inverse=True)
        if classes.size != 2:
            raise ValueError(f"Only binary classification is supported: {type(self).__name__} needs "
                             f"samples of exactly 2 classes in y, got {classes.size} class(es): "
                             f"{classes[:5].tolist()}")
        self.classes_ = classes
        return _check_X(X_checked), y01.astype(np.float64)

    def _check_fitted(self) -> np.ndarray:
        coef = getattr(self, "coef_", None)
        if coef is None:
            raise NotFittedError(f"this {type(self).__name__} is not fitted yet; call fit(X, y) first")
        return coef

    def decision_function(self, X: object) -> np.ndarray:
        """Signed score ``X @ coef_`` (no intercept: one-hot groups carry it)."""
        coef = self._check_fitted()
        X = _check_X(validate_data(self, X, dtype=np.float64, reset=False))
        return X @ coef

    def predict_proba(self, X: object) -> np.ndarray:
        """Class probabilities, shape (n, 2): ``[1 - sigma(x^T w), sigma(x^T w)]`` (Eq. 3)."""
        p = scipy.special.expit(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    def predict(self, X: object) -> np.ndarray:
        """Predicted labels: the positive class (``classes_[1]``) where ``x^T w > 0``."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(np.int64)]

    def _set_solution(self, sol: QuadraticSolution) -> None:
        self.coef_ = sol.w
        self.eigenvalues_ = sol.eigenvalues
        self.n_trimmed_ = sol.n_trimmed
        self.n_negative_ = sol.n_negative
        self.remedy_triggered_ = sol.remedy_triggered


def _null_space(v: np.ndarray) -> np.ndarray:
    """Orthonormal basis of the complement of ``v`` (all directions where ``v`` is 0)."""
    if not np.any(v):
        return np.eye(v.shape[0])
    q, _ = np.linalg.qr(np.column_stack([v, np.eye(v.shape[0])]))
    return q[:, 1:]


def _rng_of(random_state: object) -> np.random.Generator:
    if random_state is None:
        raise ValueError("random_state must be given (an int seed, SeedSequence or Generator): "
                         "ldpfair never draws noise from unseeded global state")
    return check_rng(random_state, "random_state")


def _laplace(rng: np.random.Generator, scale: float, size: Any) -> np.ndarray:
    if np.isinf(scale) or scale == 0.0:
        return np.zeros(size)
    return rng.laplace(0.0, scale, size=size)


class TaylorLR(_LinearModel):
    """Logistic regression by minimising its second-order Taylor expansion (no noise, no privacy).

    Parameters
    ----------
    regularization : float
        Added to the diagonal of the quadratic form (Zhang et al.'s remedy); 0 by default.
    """

    def __init__(self, regularization: float = 0.0) -> None:
        self.regularization = regularization

    def fit(self, X: object, y: object, *, sensitive_features: object | None = None) -> TaylorLR:
        """Fit on features ``X`` in [0, 1] and labels ``y``; ``sensitive_features`` is ignored."""
        X, y = self._validate(X, y)
        lam1, lam2 = taylor_coefficients(X, y)
        self._set_solution(minimize_quadratic(lam1, lam2, regularization=self.regularization))
        return self


class PrivLR(_LinearModel):
    """epsilon-DP logistic regression by the functional mechanism (Zhang et al. 2012; xu2019 Sec. 2.1).

    Laplace noise of scale ``Delta_f / epsilon`` is added to each of the ``d``
    degree-1 and ``d^2`` degree-2 coefficients, ``Delta_f = B^2/4 + B`` with ``B``
    the bound on a record's feature sum (``d`` in the paper).

    Parameters
    ----------
    epsilon : float
        Privacy budget (> 0; ``inf`` = no noise, i.e. :class:`TaylorLR`).
    row_sum_bound : float, optional
        Public bound ``B`` on ``sum_l x_l``; default the number of features ``d`` (the paper).
    regularization : float
        Ridge added to the noisy quadratic form before spectral trimming.
    remedy : {"trim", "zhang"}
        Remedy for an indefinite noisy form (:data:`REMEDIES`); ``"zhang"`` adds a ridge
        of four noise standard deviations on top of ``regularization``.
    lam2_noise : {"full", "upper"}
        Reading of the degree-2 noise (:data:`LAM2_NOISE`).
    random_state : int, SeedSequence or Generator
        Source of the Laplace noise (required).
    """

    def __init__(self, epsilon: float = 1.0, *, row_sum_bound: float | None = None,
                 regularization: float = 0.0, remedy: str = "trim", lam2_noise: str = "full",
                 random_state: object = None) -> None:
        self.epsilon = epsilon
        self.row_sum_bound = row_sum_bound
        self.regularization = regularization
        self.remedy = remedy
        self.lam2_noise = lam2_noise
        self.random_state = random_state

    def _bound(self, X: np.ndarray) -> float:
        check_choice(self.remedy, REMEDIES, "remedy")
        check_choice(self.lam2_noise, LAM2_NOISE, "lam2_noise")
        _check_nonneg(self.regularization, "regularization")
        if self.row_sum_bound is None:
            return float(X.shape[1])
        b = _check_nonneg(self.row_sum_bound, "row_sum_bound")
        worst = float(X.sum(axis=1).max())
        if worst > b + 1e-9:
            raise ValueError(f"row_sum_bound={b} is violated: a record has feature sum {worst}; "
                             "the sensitivity (and the privacy guarantee) would be wrong")
        return b

    def _noisy_fit(self, lam1: np.ndarray, lam2: np.ndarray, scale: float,
                   rng: np.random.Generator, mean1: np.ndarray | None = None,
                   scale1: float | None = None, basis: np.ndarray | None = None,
                   penalty: np.ndarray | None = None) -> None:
        d = lam1.shape[0]
        noise1 = _laplace(rng, scale if scale1 is None else scale1, d)
        lam1 = lam1 + noise1 + (0.0 if mean1 is None else mean1)
        lam2 = lam2 + lam2_noise_matrix(rng, scale, d, self.lam2_noise)
        self.noise_scale_ = scale
        self.regularization_ = reg = remedy_regularization(self.remedy, scale, self.regularization)
        if penalty is not None:  # minimise the form plus |penalty @ w| exactly (convex after the remedy)
            nu = penalty + _laplace(rng, scale, d)
            for sign in (1.0, -1.0):
                sol = minimize_quadratic(lam1 + sign * nu, lam2, regularization=reg)
                if sign * (nu @ sol.w) >= 0:
                    self._set_solution(sol)
                    return
            basis = _null_space(nu)
        if basis is not None:  # minimise in the span of ``basis`` (orthonormal columns)
            lam1, lam2 = basis.T @ lam1, basis.T @ lam2 @ basis
        self._set_solution(minimize_quadratic(lam1, lam2, regularization=reg))
        if basis is not None:
            self.coef_ = basis @ self.coef_

    def fit(self, X: object, y: object, *, sensitive_features: object | None = None) -> PrivLR:
        """Fit with the functional mechanism; ``sensitive_features`` is ignored."""
        eps = check_epsilon(self.epsilon, "epsilon", allow_inf=True)
        rng = _rng_of(self.random_state)
        X, y = self._validate(X, y)
        lam1, lam2 = taylor_coefficients(X, y)
        self.sensitivity_ = lr_sensitivity(self._bound(X))
        self._noisy_fit(lam1, lam2, self.sensitivity_ / eps, rng)
        return self


class PFLR(PrivLR):
    """Private and fair LR, the simple approach (xu2019 Algorithm 1).

    The fairness penalty ``alpha * g_D(w)``, ``g_D(w) = sum_i (s_i - s_bar) x_i^T w``,
    shifts the degree-1 coefficients; the functional mechanism is then applied
    with sensitivity ``B^2/4 + (1 + 2 alpha) B`` (Eq. 14 for ``alpha = 1``).

    Parameters
    ----------
    epsilon : float
        Privacy budget (``inf`` = no noise).
    alpha : float
        Weight of the fairness term (the paper uses 1).
    rule : {"signed", "abs", "penalty"}
        Reading of line 3 of Algorithm 1. ``"signed"`` (default): each record adds
        ``alpha (s_i - s_bar) x_i``, so the coefficients shift by the covariance
        direction ``g_D`` (Sec. 3.2 and PFLR*). ``"abs"``: the literal
        ``alpha |(s_i - s_bar) x_i|``, a shift that is positive for every record.
        ``"penalty"``: Eq. 12 as written, ``f_D(w) + alpha |g_D(w)|`` minimised exactly;
        the LR coefficients and the penalty's ``alpha mu`` are released with the same
        noise ``Lap(Delta / epsilon)``, ``Delta = B^2/4 + (1 + 2 alpha) B`` bounding their
        joint L1 sensitivity, so the mechanism is epsilon-DP; the minimiser of
        ``noisy form + |alpha mu~ @ w|`` is that of one of the two shifted forms or, at
        the kink, the form's minimiser under ``mu~ @ w = 0``.
    row_sum_bound, regularization, remedy, lam2_noise, random_state
        As in :class:`PrivLR`.
    """

    def __init__(self, epsilon: float = 1.0, *, alpha: float = 1.0, rule: str = "signed",
                 row_sum_bound: float | None = None, regularization: float = 0.0, remedy: str = "trim",
                 lam2_noise: str = "full", random_state: object = None) -> None:
        super().__init__(epsilon, row_sum_bound=row_sum_bound, regularization=regularization,
                         remedy=remedy, lam2_noise=lam2_noise, random_state=random_state)
        self.alpha = alpha
        self.rule = rule

    def fit(self, X: object, y: object, *, sensitive_features: object | None = None) -> PFLR:
        """Fit on ``X``, ``y`` with the protected attribute ``sensitive_features`` (0/1)."""
        eps = check_epsilon(self.epsilon, "epsilon", allow_inf=True)
        alpha = _check_nonneg(self.alpha, "alpha")
        check_choice(self.rule, PFLR_RULES, "rule")
        rng = _rng_of(self.random_state)
        X, y = self._validate(X, y)
        if sensitive_features is None:
            raise ValueError(f"{type(self).__name__}.fit needs sensitive_features "
                             "(the 0/1 protected attribute)")
        s = _check_binary(sensitive_features, X.shape[0], "sensitive_features")
        lam1, lam2 = taylor_coefficients(X, y)
        r = s - s.mean()
        shift = X.T @ (np.abs(r) if self.rule == "abs" else r)
        self.sensitivity_ = pflr_sensitivity(self._bound(X), alpha)
        if self.rule == "penalty":
            self._noisy_fit(lam1, lam2, self.sensitivity_ / eps, rng, penalty=alpha * shift)
        else:
            self._noisy_fit(lam1 + alpha * shift, lam2, self.sensitivity_ / eps, rng)
        return self
