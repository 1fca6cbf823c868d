"""Exponentiated-gradient reduction for equalized odds (Agarwal et al., ICML 2018).

Step 1 of Mozannar, Ohannessian & Srebro's (2020) two-step method trains a
randomised classifier with the reductions approach, constraining equalized odds
with respect to the (privatised) attribute it is given. Mozannar et al. and
ghoukasian2025 use fairlearn's
``ExponentiatedGradient(LogisticRegression(solver="liblinear"), EqualizedOdds(), eps=0.001,
max_iter=50)``. fairlearn is only a test dependency of ldpfair, so this module
re-implements that algorithm (as in fairlearn 0.15) with numpy arrays:

* **Moments.** For every label event ``e = y`` and group ``g`` present in the data,
  ``gamma[+, e, g] = E[h | Y=e, A=g] - E[h | Y=e]`` and ``gamma[-, e, g] = -gamma[+, e, g]``,
  each bounded by ``difference_bound`` (fairlearn's ``EqualizedOdds()`` default 0.01).
  The objective is the error rate.
* **Lagrangian.** ``L(Q, lambda) = err(Q) + lambda . (gamma(Q) - bound)`` with
  ``||lambda||_1 <= B = 1 / eps``; ``lambda`` is first projected (fairlearn's
  weighted-median shift of ``lambda+ - lambda-`` within each event, which lowers its
  L1 norm without changing the Lagrangian's ``h``-dependent part).
* **Best response of the Q-player.** A cost-sensitive classification: the
  signed cost of predicting 1 on sample ``i`` is ``(2 y_i - 1) + (U lambda)_i``; the
  estimator is fitted to the sign (relabelling) with the absolute cost as sample
  weight (reweighting), rescaled to sum to ``n``. A new hypothesis is kept only when
  it improves the Lagrangian by more than ``1e-8``.
* **Lambda-player.** Exponentiated (Hedge) updates ``theta += eta (gamma(h_t) - bound)``,
  ``lambda = B exp(theta) / (1 + sum exp(theta))``, ``eta = eta0 / B`` shrunk by 0.8
  whenever the best duality gap stops improving by 20 % (checked at t >= 5 * 1.6^k).
* **Mixture.** At each iteration the better (smaller duality gap) of the running
  average of the best responses and the saddle point of the LP over their convex
  hull (``scipy.optimize.linprog``, HiGHS dual simplex) is kept; iteration stops once
  the gap is below ``nu`` (after at least 5 iterations); the final ``Q`` is the last
  iterate with the smallest gap.

``predict_proba`` is the mixture's probability of ``Yhat = 1`` (fairlearn's
``_pmf_predict``), ``predict`` draws the randomised classifier from an explicit
:class:`numpy.random.Generator`.

Differences from fairlearn 0.15 (none changes the fitted mixture): the automatic ``nu`` is
stored in ``nu_`` instead of overwriting the ``nu`` parameter (fairlearn reuses the first fit's
``nu`` on a refit); a best response to the same ``lambda`` as the previous oracle call is reused
instead of refitted (the estimator must be deterministic); the default estimator has
``random_state=0``. On synthetic data and on UCI Adult (12,210 rows, RR-privatised sex) the
mixture probabilities agree with fairlearn's to ~1e-14.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.optimize import linprog
from sklearn.base import clone
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression

from .._validation import check_rng
from ..metrics.groups import check_binary

__all__ = ["ExponentiatedGradientEO"]

# fairlearn.reductions._exponentiated_gradient._constants (0.15)
_PRECISION = 1e-8
_ACCURACY_MUL = 0.5
_REGRET_CHECK_START_T = 5
_REGRET_CHECK_INCREASE_T = 1.6
_SHRINK_REGRET = 0.8
_SHRINK_ETA = 0.8
_MIN_ITER = 5
_GAP_MULTIPLIERS = (1.0, 2.0, 5.0, 10.0)


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


class _Lagrangian:
    """Numpy state of fairlearn's ``_Lagrangian`` for ``EqualizedOdds`` / ``ErrorRate``."""

    def __init__(
        self,
        X: object,
        y: np.ndarray,
        group: np.ndarray,
        n_groups: int,
        estimator: object,
        B: float,
        bound: float,
    ) -> None:
        n = y.shape[0]
        self.X, self.y, self.n, self.B, self.estimator = X, y, n, B, estimator
        cell = y * n_groups + group  # event-major, group-minor: fairlearn's index order
        counts = np.bincount(cell, minlength=2 * n_groups)
        present = np.flatnonzero(counts)
        self.cell_event = present // n_groups
        n_cells = present.size
        prob_event = np.bincount(y, minlength=2) / n
        prob_cell = counts[present] / n
        self.group_prob = prob_cell / prob_event[self.cell_event]  # P(A=g | Y=e)
        event_sel = (y[:, None] == self.cell_event[None, :]).astype(np.float64)
        cell_sel = (cell[:, None] == present[None, :]).astype(np.float64)
        u_plus = event_sel / prob_event[self.cell_event] - cell_sel / prob_cell
        u_minus = -event_sel / prob_event[self.cell_event] + cell_sel / prob_cell
        self.U = np.concatenate([u_plus, u_minus], axis=1)  # (n, 2 * n_cells): [+ block, - block]
        self.n_cells = n_cells
        self.n_constraints = 2 * n_cells
        self.bound = np.full(self.n_constraints, float(bound))
        self.obj_weights = 2.0 * y - 1.0  # ErrorRate signed weights (fp = fn = 1)
        self.predictions: list[np.ndarray] = []
        self.predictors: list[object] = []
        self.errors = np.empty(0)
        self.gammas = np.empty((self.n_constraints, 0))
        self.n_oracle_calls = 0
        self._oracle_cache: dict[bytes, tuple[object, np.ndarray]] = {}
        self._last_lp_n = 0
        self._last_lp: tuple[np.ndarray, np.ndarray, _Gap] | None = None

    # ----------------------------------------------------------------- moments
    def error_and_gamma(self, pred: np.ndarray) -> tuple[float, np.ndarray]:
        """Error rate and constraint moments of hard predictions ``pred``."""
        pred = pred.astype(np.float64)
        error = float(np.abs(self.y - pred).sum() / self.n)
        gamma = -(self.U.T @ pred) / self.n
        return error, gamma

    def project_lambda(self, lam: np.ndarray) -> np.ndarray:
        """Project like fairlearn's ``UtilityParity.project_lambda`` (ratio 1): weighted-median shift."""
        signed = lam[: self.n_cells] - lam[self.n_cells :]
        out = signed.copy()
        for e in np.unique(self.cell_event):
            idx = np.flatnonzero(self.cell_event == e)
            prob = self.group_prob[idx]
            normalized = signed[idx] / prob
            order = np.argsort(normalized, kind="stable")
            cumulative = np.cumsum(prob[order])
            median = int(np.searchsorted(cumulative, prob.sum() / 2))
            out[idx] = signed[idx] - prob * normalized[order[median]]
        return np.concatenate([np.clip(out, 0.0, None), np.clip(-out, 0.0, None)])

    # ------------------------------------------------------------------ oracle
    def _call_oracle(self, lam: np.ndarray) -> tuple[object, np.ndarray]:
        key = lam.tobytes()
        if key in self._oracle_cache:  # deterministic estimator: same lambda, same fit
            return self._oracle_cache[key]
        signed = self.obj_weights + self.U @ lam
        red_y = (signed > 0).astype(np.int64)
        red_w = np.abs(signed)
        red_w = self.n * red_w / red_w.sum()
        if red_y.min() == red_y.max():
            est = DummyClassifier(strategy="constant", constant=int(red_y[0]))
        else:
            est = clone(self.estimator)
        est.fit(self.X, red_y, sample_weight=red_w)
        self.n_oracle_calls += 1
        pred = np.asarray(est.predict(self.X)).astype(np.int64).reshape(-1)
        self._oracle_cache = {key: (est, pred)}  # only the most recent lambda can repeat
        return est, pred

    def best_h(self, lam: np.ndarray) -> int:
        """Fit the best response to ``lam``; keep it if it beats every stored hypothesis."""
        est, pred = self._call_oracle(lam)
        h_error, h_gamma = self.error_and_gamma(pred)
        h_value = h_error + h_gamma @ lam
        if self.errors.size:
            values = self.errors + self.gammas.T @ lam
            best_idx = int(np.argmin(values))
            best_value = values[best_idx]
        else:
            best_idx, best_value = -1, np.inf
        if h_value < best_value - _PRECISION:
            self.predictions.append(pred)
            self.predictors.append(est)
            self.errors = np.append(self.errors, h_error)
            self.gammas = np.concatenate([self.gammas, h_gamma[:, None]], axis=1)
            best_idx = self.errors.size - 1
        return best_idx

    # --------------------------------------------------------------- lagrangian
    def evaluate(self, Q: np.ndarray, lam: np.ndarray) -> tuple[float, float, np.ndarray, float]:
        """``(L, L_high, gamma, error)`` of the mixture ``Q`` at ``lam`` (projected)."""
        m = Q.size
        error = float(self.errors[:m] @ Q)
        gamma = self.gammas[:, :m] @ Q
        lam = self.project_lambda(lam)
        L = error + float(np.sum(lam * (gamma - self.bound)))
        max_violation = float(np.max(gamma - self.bound))
        L_high = error + (self.B * max_violation if max_violation > 0 else 0.0)
        return L, L_high, gamma, error

    def eval_gap(self, Q: np.ndarray, lam: np.ndarray, nu: float) -> _Gap:
        """Duality gap of ``(Q, lam)``; may add best responses to ``mul * lam`` (fairlearn)."""
        L, L_high, gamma, error = self.evaluate(Q, lam)
        result = _Gap(L, L, L_high, gamma, error)
        for mul in _GAP_MULTIPLIERS:
            idx = self.best_h(mul * lam)
            L_low_mul = self.evaluate(_unit(idx), lam)[0]
            if L_low_mul < result.L_low:
                result.L_low = L_low_mul
            if result.gap() > nu + _PRECISION:
                break
        return result

    def solve_linprog(self, nu: float) -> tuple[np.ndarray, np.ndarray, _Gap]:
        """Saddle point over the convex hull of the stored hypotheses (primal and dual LP)."""
        n_hs = self.errors.size
        if self._last_lp_n == n_hs and self._last_lp is not None:
            return self._last_lp
        k = self.n_constraints
        c = np.concatenate([self.errors, [self.B]])
        A_ub = np.concatenate([self.gammas - self.bound[:, None], -np.ones((k, 1))], axis=1)
        b_ub = np.zeros(k)
        A_eq = np.concatenate([np.ones((1, n_hs)), np.zeros((1, 1))], axis=1)
        b_eq = np.ones(1)
        primal = linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq, method="highs-ds")
        Q = primal.x[:-1]
        dual_bounds = [(None, None) if i == k else (0, None) for i in range(k + 1)]
        dual = linprog(
            np.concatenate([b_ub, -b_eq]),
            A_ub=np.concatenate([-A_ub.T, A_eq.T], axis=1),
            b_ub=c,
            bounds=dual_bounds,
            method="highs-ds",
        )
        lam = dual.x[:-1]
        self._last_lp_n = n_hs
        self._last_lp = (Q, lam, self.eval_gap(Q, lam, nu))
        return self._last_lp


class _Gap:
    """fairlearn's ``_GapResult``."""

    def __init__(self, L: float, L_low: float, L_high: float, gamma: np.ndarray, error: float) -> None:
        self.L, self.L_low, self.L_high, self.gamma, self.error = L, L_low, L_high, gamma, error

    def gap(self) -> float:
        return max(self.L - self.L_low, self.L_high - self.L)


def _unit(idx: int) -> np.ndarray:
    q = np.zeros(idx + 1)
    q[idx] = 1.0
    return q


def _pad(Q: np.ndarray, size: int) -> np.ndarray:
    return np.concatenate([Q, np.zeros(size - Q.size)])


class ExponentiatedGradientEO:
    """Exponentiated-gradient reduction with equalized-odds constraints (randomised classifier).

    A numpy re-implementation of fairlearn 0.15's
    ``ExponentiatedGradient(estimator, EqualizedOdds(difference_bound), eps=eps, max_iter=max_iter,
    nu=nu, eta0=eta0)`` for binary labels (see the module docstring for the algorithm).

    Parameters
    ----------
    estimator : scikit-learn classifier, optional
        Cost-sensitive learner: must accept ``fit(X, y, sample_weight=...)`` and
        ``predict(X)`` returning 0/1, and be deterministic given its inputs. Cloned at
        every best-response call. Default ``LogisticRegression(solver="liblinear",
        random_state=0)`` (the seed only stops liblinear drawing a seed from numpy's
        global state; the primal L2 solver does not use it, so the fit equals
        ``LogisticRegression(solver="liblinear")``).
    eps : float
        Sets the L1 bound ``B = 1 / eps`` on the Lagrange multipliers (fairlearn's ``eps``;
        default 0.001 as in Mozannar et al.).
    max_iter : int
        Maximum number of iterations (fairlearn's ``max_iter``, formerly ``T``).
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

    def _validated_params(self) -> tuple[float, int, float | None, float, float]:
        eps = _check_positive(self.eps, "eps")
        max_iter = int(_check_positive(self.max_iter, "max_iter", integer=True))
        nu = None if self.nu is None else _check_positive(self.nu, "nu", allow_zero=True)
        eta0 = _check_positive(self.eta0, "eta0")
        bound = _check_positive(self.difference_bound, "difference_bound", allow_zero=True)
        return eps, max_iter, nu, eta0, bound

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
        eps, max_iter, nu, eta0, bound = self._validated_params()
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
        self.groups_, group = np.unique(sf, return_inverse=True)
        estimator = self.estimator
        if estimator is None:
            estimator = LogisticRegression(solver="liblinear", random_state=0)
        B = 1.0 / eps
        lag = _Lagrangian(X, y_arr, group.astype(np.int64), self.groups_.size, estimator, B, bound)

        theta = np.zeros(lag.n_constraints)
        lambda_cumsum = np.zeros(lag.n_constraints)
        q_sum: dict[int, float] = {}
        gaps_eg: list[float] = []
        gaps: list[float] = []
        Qs: list[np.ndarray] = []
        last_regret_checked = _REGRET_CHECK_START_T
        last_gap = np.inf
        eta = eta0 / B
        for t in range(max_iter):
            exp_theta = np.exp(theta)
            lam = B * exp_theta / (1.0 + exp_theta.sum())
            lambda_cumsum += lam
            lambda_eg = lambda_cumsum / (t + 1)
            h_idx = lag.best_h(lam)
            if t == 0 and nu is None:
                residual = np.abs(lag.predictions[h_idx] - y_arr)
                nu = _ACCURACY_MUL * float(np.std(residual, ddof=1)) / np.sqrt(n)
            q_sum[h_idx] = q_sum.get(h_idx, 0.0) + 1.0
            gamma = lag.gammas[:, h_idx].copy()
            total = sum(q_sum.values())
            Q_eg = np.zeros(max(q_sum) + 1)
            for idx, count in q_sum.items():
                Q_eg[idx] = count / total
            result_eg = lag.eval_gap(Q_eg, lambda_eg, nu)
            gap_eg = result_eg.gap()
            gaps_eg.append(gap_eg)
            if t == 0 or not self.run_linprog_step:
                gap_lp = np.inf
            else:
                Q_lp, _, result_lp = lag.solve_linprog(nu)
                gap_lp = result_lp.gap()
            if gap_eg < gap_lp:
                Qs.append(Q_eg)
                gaps.append(gap_eg)
            else:
                Qs.append(Q_lp)
                gaps.append(gap_lp)
            if gaps[t] < nu and t >= _MIN_ITER:
                break
            if t >= last_regret_checked * _REGRET_CHECK_INCREASE_T:
                best_gap = min(gaps_eg)
                if best_gap > last_gap * _SHRINK_REGRET:
                    eta *= _SHRINK_ETA
                last_regret_checked = t
                last_gap = best_gap
            theta += eta * (gamma - lag.bound)

        gaps_arr = np.asarray(gaps)
        self.best_iter_ = int(np.flatnonzero(gaps_arr <= gaps_arr.min() + _PRECISION)[-1])
        self.best_gap_ = float(gaps_arr[self.best_iter_])
        weights = _pad(Qs[self.best_iter_], lag.errors.size)
        self.weights_ = weights
        self.predictors_ = list(lag.predictors)
        self.n_iter_ = len(Qs)
        self.nu_ = float(nu)
        self.n_oracle_calls_ = lag.n_oracle_calls
        self.train_errors_ = lag.errors.copy()
        self.train_gammas_ = lag.gammas.copy()
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


def _n_rows(X: object) -> int:
    shape = getattr(X, "shape", None)
    if shape is None:
        X = np.asarray(X)
        shape = X.shape
    if len(shape) != 2:
        raise ValueError(f"X must be two-dimensional (n_samples, n_features), got shape {tuple(shape)}")
    return int(shape[0])
