"""Exponentiated-gradient reduction for equalized odds (Agarwal et al., ICML 2018).

Step 1 of Mozannar, Ohannessian & Srebro's (2020) two-step method trains a randomised
classifier with the reductions approach, constraining equalized odds with respect to the
(privatised) attribute it is given. Mozannar et al. and ghoukasian2025 use fairlearn's
``ExponentiatedGradient(LogisticRegression(solver="liblinear"), EqualizedOdds(), eps=0.001,
max_iter=50)``; :class:`ExponentiatedGradientEO` is a thin adapter over exactly that.

Nothing beyond fairlearn is needed: the privatised attribute ``Z`` simply takes the place of
the sensitive feature, so fairlearn's own ``EqualizedOdds`` moment enforces
``|E[h | Y=y, Z=z] - E[h | Y=y]| <= difference_bound`` for every label ``y`` and group ``z``
(Mozannar et al.'s step 1). The adapter adds:

* validation with one clear error per bad input (fairlearn's own errors are less direct);
* a fresh fairlearn estimator per :meth:`~ExponentiatedGradientEO.fit` (fairlearn overwrites
  its ``nu`` parameter with the automatic value of the first fit, which a refit would reuse);
  the value used is reported as ``nu_``;
* numpy results (``weights_`` aligned with ``predictors_``) and a randomised ``predict``
  driven by an explicit :class:`numpy.random.Generator` instead of fairlearn's
  ``RandomState``;
* the default estimator has ``random_state=0`` (the primal L2 liblinear solver does not use
  it; it only stops liblinear drawing a seed from numpy's global state).

fairlearn 0.15 under pandas 3 emits deprecation warnings (``Series.at`` with a new key);
they are silenced inside ``fit`` only.
"""

from __future__ import annotations

import numbers
import warnings
from typing import TYPE_CHECKING

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.linear_model import LogisticRegression

from .._validation import check_rng
from ..metrics.groups import check_binary

if TYPE_CHECKING:  # fairlearn is imported lazily at run time
    from fairlearn.reductions import ExponentiatedGradient

__all__ = ["ExponentiatedGradientEO"]

# fairlearn 0.15 under pandas 3 (its ``Series.at`` enlargement and a bool-into-float setitem)
_PANDAS_DEPRECATIONS = (
    "Setting a value on a Series via .at",
    "Setting an item of incompatible dtype",
)


def _check_positive(value: object, name: str, *, integer: bool = False, allow_zero: bool = False) -> float:
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {what}, got {value!r} ({type(value).__name__})")
    v = float(value)
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        valid = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be finite and {valid}, got {value!r}")
    return v


def _n_rows(X: object) -> int:
    shape = getattr(X, "shape", None)
    if shape is None:
        shape = np.asarray(X).shape
    if len(shape) != 2:
        raise ValueError(f"X must be two-dimensional (n_samples, n_features), got shape {tuple(shape)}")
    return int(shape[0])


class ExponentiatedGradientEO(BaseEstimator):
    """Exponentiated-gradient reduction with equalized-odds constraints (randomised classifier).

    Fits fairlearn's ``ExponentiatedGradient(estimator, EqualizedOdds(difference_bound=...),
    eps=eps, max_iter=max_iter, nu=nu, eta0=eta0, run_linprog_step=...)`` for binary labels
    (see the module docstring for what the adapter adds).

    Parameters
    ----------
    estimator : scikit-learn classifier, optional
        Cost-sensitive learner: must accept ``fit(X, y, sample_weight=...)`` and
        ``predict(X)`` returning 0/1. Cloned at every best-response call. Default
        ``LogisticRegression(solver="liblinear", random_state=0)``.
    eps : float
        Sets the L1 bound ``B = 1 / eps`` on the Lagrange multipliers (fairlearn's ``eps``;
        default 0.001 as in Mozannar et al.).
    max_iter : int
        Maximum number of iterations.
    nu : float, optional
        Duality-gap threshold for convergence. Default (``None``): fairlearn's automatic
        ``0.5 * std(|h_0(X) - y|) / sqrt(n)`` from the first best response.
    eta0 : float
        Initial learning rate multiplier; ``eta = eta0 / B``.
    difference_bound : float
        Allowed gap ``|E[h | Y=y, A=a] - E[h | Y=y]|`` of each constraint (fairlearn's
        ``EqualizedOdds()`` default 0.01).
    run_linprog_step : bool
        Whether each iteration also solves the LP over the convex hull of the hypotheses.

    Attributes
    ----------
    weights_ : ndarray of shape (n_predictors,)
        Mixture weights ``Q`` over ``predictors_`` (non-negative, sum 1).
    predictors_ : list of fitted estimators
        The best-response classifiers found (some may have weight 0).
    n_iter_ : int
        Number of iterations run.
    best_iter_ : int
        Iteration whose mixture was kept.
    best_gap_ : float
        Duality gap of the kept mixture.
    nu_ : float
        The convergence threshold used.
    n_oracle_calls_ : int
        Number of estimator fits.
    groups_ : ndarray
        Sorted distinct values of ``sensitive_features``.
    mitigator_ : fairlearn.reductions.ExponentiatedGradient
        The fitted fairlearn estimator.
    """

    def __init__(
        self,
        estimator: object | None = None,
        eps: float = 0.001,
        max_iter: int = 50,
        nu: float | None = None,
        eta0: float = 2.0,
        *,
        difference_bound: float = 0.01,
        run_linprog_step: bool = True,
    ) -> None:
        self.estimator = estimator
        self.eps = eps
        self.max_iter = max_iter
        self.nu = nu
        self.eta0 = eta0
        self.difference_bound = difference_bound
        self.run_linprog_step = run_linprog_step

    def _mitigator(self) -> ExponentiatedGradient:
        """A fresh, validated ``fairlearn.reductions.ExponentiatedGradient``."""
        from fairlearn.reductions import EqualizedOdds, ExponentiatedGradient

        eps = _check_positive(self.eps, "eps")
        max_iter = int(_check_positive(self.max_iter, "max_iter", integer=True))
        nu = None if self.nu is None else _check_positive(self.nu, "nu", allow_zero=True)
        eta0 = _check_positive(self.eta0, "eta0")
        bound = _check_positive(self.difference_bound, "difference_bound", allow_zero=True)
        if not isinstance(self.run_linprog_step, bool):
            raise TypeError(f"run_linprog_step must be a bool, got {self.run_linprog_step!r}")
        estimator = self.estimator
        if estimator is None:
            estimator = LogisticRegression(solver="liblinear", random_state=0)
        return ExponentiatedGradient(
            estimator,
            EqualizedOdds(difference_bound=bound),
            eps=eps,
            max_iter=max_iter,
            nu=nu,
            eta0=eta0,
            run_linprog_step=self.run_linprog_step,
        )

    def fit(self, X: object, y: object, *, sensitive_features: object) -> ExponentiatedGradientEO:
        """Run the reduction on ``(X, y)`` with groups ``sensitive_features``.

        Parameters
        ----------
        X : array-like of shape (n, d)
            Features (passed unchanged to the estimator).
        y : array-like of shape (n,)
            Binary labels 0/1.
        sensitive_features : array-like of shape (n,)
            Group of each sample (any discrete values, e.g. a privatised attribute ``Z``).

        Returns
        -------
        ExponentiatedGradientEO
            ``self``.
        """
        mitigator = self._mitigator()
        y_arr = check_binary(y, "y")
        n = y_arr.shape[0]
        n_rows = _n_rows(X)
        sf = np.asarray(sensitive_features)
        if sf.ndim != 1:
            raise ValueError(f"sensitive_features must be one-dimensional, got shape {sf.shape}")
        if n_rows != n or sf.shape[0] != n:
            raise ValueError(
                f"X, y and sensitive_features must have the same length, got {n_rows}, {n} and {sf.shape[0]}"
            )
        if n < 2:
            raise ValueError(f"need at least 2 samples, got {n}")
        with warnings.catch_warnings():
            for message in _PANDAS_DEPRECATIONS:
                warnings.filterwarnings("ignore", message=message)
            mitigator.fit(X, y_arr, sensitive_features=sf)
        n_h = len(mitigator.predictors_)
        self.groups_ = np.unique(sf)
        self.predictors_ = [mitigator.predictors_[i] for i in range(n_h)]
        self.weights_ = mitigator.weights_.reindex(range(n_h)).to_numpy(dtype=np.float64)
        self.n_iter_ = int(mitigator.last_iter_) + 1
        self.best_iter_ = int(mitigator.best_iter_)
        self.best_gap_ = float(mitigator.best_gap_)
        self.nu_ = float(mitigator.nu)
        self.n_oracle_calls_ = int(mitigator.n_oracle_calls_)
        self.mitigator_ = mitigator
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "weights_"):
            raise ValueError("this ExponentiatedGradientEO is not fitted yet; call fit(X, y, ...) first")

    def predict_proba(self, X: object) -> np.ndarray:
        """Probabilities ``(P(Yhat=0), P(Yhat=1))`` of the randomised mixture at each row.

        ``P(Yhat=1 | x) = sum_h weights_[h] * h(x)`` (fairlearn's ``_pmf_predict``).

        Parameters
        ----------
        X : array-like of shape (n, d)

        Returns
        -------
        ndarray of shape (n, 2)
        """
        self._check_fitted()
        positive = np.zeros(_n_rows(X))
        for w, est in zip(self.weights_, self.predictors_, strict=True):
            if w > 0:
                positive += w * np.asarray(est.predict(X), dtype=np.float64).reshape(-1)
        positive = np.clip(positive, 0.0, 1.0)
        return np.column_stack([1.0 - positive, positive])

    def predict(self, X: object, *, rng: np.random.Generator) -> np.ndarray:
        """Randomised hard predictions: ``Yhat_i = 1`` with probability ``P(Yhat=1 | x_i)``.

        Parameters
        ----------
        X : array-like of shape (n, d)
        rng : numpy.random.Generator
            Source of the uniforms (one per row).

        Returns
        -------
        ndarray of int64, shape (n,)
        """
        rng = check_rng(rng)
        positive = self.predict_proba(X)[:, 1]
        return (rng.random(positive.shape[0]) < positive).astype(np.int64)
