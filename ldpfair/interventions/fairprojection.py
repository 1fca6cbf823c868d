r"""FairProjection (Alghamdi, Hsu, Kurt, Wang, Calmon & Kairouz, 2022), binary label, any number of groups.

FairProjection post-processes the scores ``h(x) = P(Y=1 | x)`` of a trained base model. It looks for the
classifier ``g`` closest to ``h`` (in an f-divergence, averaged over the training rows) that satisfies
linear group-fairness constraints. This is an *information projection*:

.. math::

    \min_{g} \; \mathbb{E}\,[D(g(X) \,\|\, h(X))]
    \quad \text{s.t.} \quad \mathbb{E}\,[G(X)^\top g(X)] \le 0 ,

where ``g(x)`` and ``h(x)`` are points of the probability simplex over the two classes and ``G(x)`` is a
``2 x k`` matrix with one column per constraint. Expectations are means over the training rows.

Divergences (``divergence=``)
    ``"kl"``: ``D(g||h) = KL(g||h)``; the projection is ``g = softmax(log h - G(x) lambda)``.
    ``"cross-entropy"``: ``D(g||h) = KL(h||g)``; the projection is ``g_c = h_c / (v_c + nu)``
    with ``v = G(x) lambda`` and ``nu`` the scalar that makes ``g`` sum to one. With two classes ``nu``
    is the larger root of a quadratic; it is computed in closed form, for all rows at once, with the
    cancellation-free form of the quadratic formula (no per-row Newton iteration is needed).

Constraints (``constraint=``), the authors' ``GroupFair.buildG`` with the relative tolerance
``alpha = tolerance``; ``P(Y, S)`` is the training crosstab and ``P(S | x)`` the one-hot of the
observed group (the authors pass ``s``, so their S-classifiers are never used):
    ``"meo"`` (mean equalized odds), for each class ``y``, group ``s`` and sign:
    ``(1 - alpha) P(Yhat=y | Y=y) <= P(Yhat=y | Y=y, S=s) <= (1 + alpha) P(Yhat=y | Y=y)``.
    The unknown ``Y`` is replaced by the base model, so the coefficient of ``g_y(x)`` in the upper row is
    ``h_y(x) (1{s(x)=s} / P(y, s) - (1 + alpha) / P(y))`` and in the lower row
    ``h_y(x) (-1{s(x)=s} / P(y, s) + (1 - alpha) / P(y))``.
    ``"sp"`` (statistical parity): ``(1 - alpha) <= P(Yhat=y | S=s) / P(Yhat=y) <= (1 + alpha)``; the
    coefficients of ``g_y(x)`` are ``1{s(x)=s} / P(s) - (1 + alpha)`` and
    ``-1{s(x)=s} / P(s) + (1 - alpha)``.
    Each constraint column involves a single class, so there are ``k = 2 classes x 2 signs x m groups``
    rows (``k = 8`` for a binary attribute), in the authors' order: for ``y = 0, 1``, the ``m`` upper rows,
    then the ``m`` lower rows.

Solver
    The authors run 500 ADMM iterations (TensorFlow + cvxpy). Here the concave dual

    .. math::

        d(\lambda) = \mathbb{E}\,\big[\min_{g \in \Delta} D(g \| h(X))
        + \lambda^\top G(X)^\top g\big]

    is maximised over ``lambda >= 0`` with scipy's L-BFGS-B and the analytic gradient
    ``E[G(X)^T g_lambda(X)]`` (Danskin), vectorised over rows. The dual is often ill-conditioned (and
    singular when rows are linearly dependent, e.g. ``tolerance=0``), so L-BFGS-B tends to stop on its
    relative-reduction test with constraint violations up to ~1e-3; the result is then polished with a few
    projected Newton steps using the exact ``k x k`` Hessian ``E[w(X) u(X) u(X)^T]`` (``u`` the difference
    of the two rows of ``G(X)``, ``w = dg_1 / d(v_0 - v_1)``). At the optimum the training rows satisfy the
    constraints up to ``gtol`` and ``dual_value_ == primal_value_`` (strong duality).

Deviations from the authors' code
    * The smoothing ``h <- (h + smoothing) / (1 + 2 smoothing)`` is kept (``smoothing=1e-4`` is theirs); it
      is applied both to the projected ``h`` and to the ``h_y`` inside the MEO coefficients, as they do.
    * Their ``N(0, 1e-5^2)`` noise added to ``G`` (at fit *and* at every prediction) is **not** added: the
      projection is deterministic.
    * The dual is solved to convergence instead of a fixed 500 ADMM iterations.

Prediction uses ``predict_proba(...)[:, 1] > 0.5`` (strict, as the authors' ``evaluation``).
"""

from __future__ import annotations

import numbers
import warnings
from typing import Literal

import numpy as np
from scipy.optimize import minimize
from scipy.special import logsumexp, softmax
from sklearn.exceptions import ConvergenceWarning

from .._validation import check_choice
from ..metrics.groups import check_binary

__all__ = ["FairProjection"]

CONSTRAINTS = ("meo", "sp")
DIVERGENCES = ("kl", "cross-entropy")


def _check_scores(scores: object, name: str = "scores") -> np.ndarray:
    arr = np.asarray(scores)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (P(Y=1|x) per row), got shape {arr.shape}")
    if arr.dtype.kind not in "iuf" or arr.dtype.kind == "b":
        raise ValueError(f"{name} must hold probabilities in [0, 1], got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    bad = ~((arr >= 0.0) & (arr <= 1.0))
    if bad.any():
        raise ValueError(
            f"{name} must lie in [0, 1] (probabilities P(Y=1|x)); found {int(bad.sum())} value(s) "
            f"outside or NaN, e.g. {arr[bad][0]!r}"
        )
    return arr


def _check_groups(groups: object, n: int, name: str = "groups") -> np.ndarray:
    arr = np.asarray(groups)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (one group code per row), got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold non-negative integer group codes, got dtype {arr.dtype}")
    if arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} entries but scores has {n}")
    if arr.size and int(arr.min()) < 0:
        raise ValueError(f"{name} must hold non-negative integer group codes, found {int(arr.min())}")
    return arr.astype(np.int64, copy=False)


def _check_labels(y: object, n: int) -> np.ndarray:
    arr = check_binary(y, "y")
    if arr.shape[0] != n:
        raise ValueError(f"y has {arr.shape[0]} entries but scores has {n}")
    return arr


def _check_nonneg(value: object, name: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    v = float(value)
    if not np.isfinite(v) or v < 0 or (positive and v == 0):
        valid = "(0, inf)" if positive else "[0, inf)"
        raise ValueError(f"{name} must be a finite number in {valid}, got {value!r}")
    return v


def _cross_entropy_prox(h: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``argmin_{g in simplex} KL(h||g) + v.g`` and its value, for all rows (two classes).

    ``g_c = h_c / a_c`` with ``a_c = v_c + nu > 0`` and ``sum_c g_c = 1``. With ``d = v_0 - v_1``,
    ``a_1`` is the larger root of ``b^2 + (d - 1) b - h_1 d = 0`` and ``a_0`` the larger root of
    ``a^2 - (d + 1) a + h_0 d = 0``; both share the discriminant ``(d - delta)^2 + 4 h_0 h_1`` with
    ``delta = h_0 - h_1``. Each root is taken in the form free of cancellation.
    """
    h0, h1 = h[:, 0], h[:, 1]
    d = v[:, 0] - v[:, 1]
    sq = np.sqrt((d - (h0 - h1)) ** 2 + 4.0 * h0 * h1)
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(d <= 1.0, 0.5 * (1.0 - d + sq), 2.0 * h1 * d / (d - 1.0 + sq))
        a = np.where(d >= -1.0, 0.5 * (d + 1.0 + sq), 2.0 * h0 * d / (d + 1.0 - sq))
    acc = np.column_stack([a, b])
    g = h / acc
    value = (h * np.log(acc)).sum(axis=1) + (v * g).sum(axis=1)
    return g, value


def _projected_newton(fun, lam: np.ndarray, gtol: float, max_iter: int = 100) -> tuple[np.ndarray, int]:
    """Polish a bound-constrained (``lam >= 0``) convex minimum with projected Newton steps.

    ``fun(lam, hess=True)`` returns ``(f, grad, hessian)``. The free variables are those off the bound or
    with a negative gradient; the Newton system on them is solved in the least-squares sense (the
    Hessian is singular when constraint rows are linearly dependent, e.g. ``tolerance=0``). Stops when
    the projected gradient is below ``gtol`` or no step decreases ``f``. Returns ``(lam, iterations)``.
    """
    f, grad, hess = fun(lam, hess=True)
    for it in range(max_iter):
        pg = np.where(lam > 0, grad, np.minimum(grad, 0.0))
        if np.abs(pg).max() <= gtol:
            return lam, it
        free = (lam > 0) | (grad < 0)
        step = np.zeros_like(lam)
        hf = hess[np.ix_(free, free)]
        ridge = 1e-14 * max(np.trace(hf), 1e-300)
        step[free] = -np.linalg.lstsq(hf + ridge * np.eye(hf.shape[0]), grad[free], rcond=None)[0]
        t, accepted = 1.0, False
        while t > 1e-10:
            new = np.maximum(lam + t * step, 0.0)
            f_new, grad_new, hess_new = fun(new, hess=True)
            pg_new = np.where(new > 0, grad_new, np.minimum(grad_new, 0.0))
            armijo = f_new <= f + 1e-4 * float(grad @ (new - lam))
            noise = abs(f_new - f) <= 1e-13 * max(1.0, abs(f))
            if armijo or (noise and np.abs(pg_new).max() < np.abs(pg).max()):
                accepted = True
                break
            t *= 0.5
        if not accepted:
            return lam, it
        lam, f, grad, hess = new, f_new, grad_new, hess_new
    return lam, max_iter


class FairProjection:
    """FairProjection post-processing of a binary classifier's scores (Alghamdi et al. 2022).

    Parameters
    ----------
    constraint : {"meo", "sp"}
        Mean equalized odds or statistical parity (see the module docstring for the exact rows).
    tolerance : float
        The authors' relative tolerance ``alpha >= 0``; ``0`` asks for exact parity of the ratios, a large
        value (e.g. ``1e6``) makes every constraint non-binding and returns the (smoothed) base scores.
    divergence : {"kl", "cross-entropy"}
        ``KL(g||h)`` or ``KL(h||g)``.
    smoothing : float
        ``h <- (h + smoothing) / (1 + 2 smoothing)`` before projecting (authors: ``1e-4``). ``0`` is allowed
        only for scores strictly inside ``(0, 1)``.
    max_iter : int
        Iteration limit of L-BFGS-B.
    gtol : float
        Projected-gradient tolerance of L-BFGS-B: the training constraints hold up to ``gtol`` and active
        rows are satisfied with equality up to ``gtol``.

    Attributes
    ----------
    lambda_ : numpy.ndarray
        Dual variables (``k`` values ``>= 0``), one per constraint row.
    n_iter_ : int
        L-BFGS-B iterations plus projected Newton polishing steps.
    converged_ : bool
        Whether the projected gradient of the dual is below ``10 * gtol`` at the returned ``lambda_``.
    dual_value_ : float
        ``d(lambda_)``, the dual objective on the training rows.
    primal_value_ : float
        ``mean_i D(g_i || h_i)`` on the training rows at ``lambda_``.
    constraint_values_ : numpy.ndarray
        ``mean_i G_i^T g_i`` on the training rows (``<= 0`` when satisfied).
    constraint_labels_ : list of str
        A name for every constraint row, e.g. ``"meo y=1 s=0 upper"``.
    n_groups_ : int
        Number of groups ``m`` (codes ``0 .. m-1``).
    p_ys_ : numpy.ndarray
        Training ``P(Y=y, S=s)``, shape ``(2, m)``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> s = rng.integers(0, 2, 500)
    >>> y = (rng.random(500) < 0.3 + 0.3 * s).astype(int)
    >>> scores = np.clip(0.3 + 0.3 * s + rng.normal(0, 0.1, 500), 0, 1)
    >>> fp = FairProjection("sp", tolerance=0.05).fit(scores, s, y)
    >>> bool(fp.converged_), fp.predict_proba(scores, s).shape
    (True, (500, 2))
    """

    def __init__(
        self,
        constraint: Literal["meo", "sp"] = "meo",
        tolerance: float = 0.0,
        divergence: Literal["kl", "cross-entropy"] = "kl",
        smoothing: float = 1e-4,
        *,
        max_iter: int = 5000,
        gtol: float = 1e-10,
    ) -> None:
        self.constraint = constraint
        self.tolerance = tolerance
        self.divergence = divergence
        self.smoothing = smoothing
        self.max_iter = max_iter
        self.gtol = gtol

    # ------------------------------------------------------------------ helpers
    def _check_params(self) -> None:
        check_choice(self.constraint, CONSTRAINTS, "constraint")
        check_choice(self.divergence, DIVERGENCES, "divergence")
        _check_nonneg(self.tolerance, "tolerance")
        _check_nonneg(self.smoothing, "smoothing")
        _check_nonneg(self.gtol, "gtol", positive=True)
        if isinstance(self.max_iter, bool) or not isinstance(self.max_iter, numbers.Integral) \
                or self.max_iter < 1:
            raise ValueError(f"max_iter must be an integer >= 1, got {self.max_iter!r}")

    def _smoothed(self, scores: np.ndarray) -> np.ndarray:
        """Two-column ``h = (P(Y=0|x), P(Y=1|x))`` after the authors' smoothing."""
        e = float(self.smoothing)
        if e == 0.0 and np.any((scores == 0.0) | (scores == 1.0)):
            raise ValueError("smoothing=0 needs scores strictly inside (0, 1); use smoothing > 0 "
                             "(the authors' value is 1e-4)")
        return np.column_stack([1.0 - scores + e, scores + e]) / (1.0 + 2.0 * e)

    def _coefficients(self, h: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """``(n, k)`` constraint coefficients; column ``j`` multiplies ``g_{class_j}(x)``."""
        m = self.n_groups_
        alpha = float(self.tolerance)
        onehot = (groups[:, None] == np.arange(m)[None, :]).astype(np.float64)
        cols = []
        for y in (0, 1):
            if self.constraint == "meo":
                p_y = self.p_ys_[y].sum()
                ratio = onehot / self.p_ys_[y][None, :]
                upper = h[:, [y]] * (ratio - (1.0 + alpha) / p_y)
                lower = h[:, [y]] * (-ratio + (1.0 - alpha) / p_y)
            else:
                ratio = onehot / self.p_s_[None, :]
                upper = ratio - (1.0 + alpha)
                lower = -ratio + (1.0 - alpha)
            cols.extend([upper, lower])
        return np.concatenate(cols, axis=1)

    def _project(self, h: np.ndarray, coef: np.ndarray, lam: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Projected ``g`` for every row and the per-row value of the inner minimisation."""
        v = np.column_stack([coef[:, self._cls == c] @ lam[self._cls == c] for c in (0, 1)])
        if self.divergence == "kl":
            with np.errstate(divide="ignore"):
                z = np.log(h) - v
            lse = logsumexp(z, axis=1)
            return softmax(z, axis=1), -lse
        return _cross_entropy_prox(h, v)

    def _divergence(self, g: np.ndarray, h: np.ndarray) -> np.ndarray:
        p, q = (g, h) if self.divergence == "kl" else (h, g)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(p > 0, p * np.log(p / q), 0.0)
        return terms.sum(axis=1)

    def _validate_rows(self, scores: object, groups: object) -> tuple[np.ndarray, np.ndarray]:
        s = _check_scores(scores)
        a = _check_groups(groups, s.shape[0])
        return s, a

    # ------------------------------------------------------------------ public API
    def fit(self, scores: object, groups: object, y: object) -> FairProjection:
        """Solve the projection on the training rows.

        Parameters
        ----------
        scores : array-like of shape (n,)
            Base model ``P(Y=1 | x)`` on the training rows, in ``[0, 1]``.
        groups : array-like of int, shape (n,)
            Observed group codes ``0 .. m-1`` (every code must occur).
        y : array-like of {0, 1}, shape (n,)
            Training labels; only the crosstab ``P(Y, S)`` is taken from them.

        Returns
        -------
        FairProjection
            ``self``, fitted.
        """
        self._check_params()
        s, a = self._validate_rows(scores, groups)
        if s.shape[0] == 0:
            raise ValueError("scores is empty; FairProjection needs training rows")
        yy = _check_labels(y, s.shape[0])
        m = int(a.max()) + 1
        counts = np.bincount(a, minlength=m)
        if np.any(counts == 0):
            raise ValueError(f"groups must use every code 0 .. {m - 1}; missing code(s) "
                             f"{np.flatnonzero(counts == 0).tolist()}")
        if m < 2:
            raise ValueError("groups holds a single group; fairness constraints need at least two")
        p_ys = np.zeros((2, m))
        np.add.at(p_ys, (yy, a), 1.0)
        p_ys /= s.shape[0]
        if self.constraint == "meo" and np.any(p_ys == 0):
            yi, si = np.argwhere(p_ys == 0)[0]
            raise ValueError(f"the MEO constraints divide by P(Y={yi}, S={si}), which is 0 on the training "
                             "rows; every (label, group) cell needs at least one row")
        self.n_groups_ = m
        self.p_ys_ = p_ys
        self.p_s_ = p_ys.sum(axis=0)
        self._cls = np.repeat([0, 1], 2 * m)
        self.constraint_labels_ = [
            f"{self.constraint} y={yv} s={sv} {side}"
            for yv in (0, 1) for side in ("upper", "lower") for sv in range(m)
        ]

        h = self._smoothed(s)
        coef = self._coefficients(h, a)
        n = s.shape[0]
        cls = self._cls
        sign = np.where(cls == 0, 1.0, -1.0)

        def neg_dual(lam: np.ndarray, hess: bool = False) -> tuple:
            g, val = self._project(h, coef, lam)
            grad = -(coef * g[:, cls]).sum(axis=0) / n
            f = -float(val.sum() / n)
            if not hess:
                return f, grad
            # d g_1 / d(v_0 - v_1): g0 g1 (KL) or 1 / (h0/g0^2 + h1/g1^2) (cross-entropy)
            if self.divergence == "kl":
                w = g[:, 0] * g[:, 1]
            else:
                w = 1.0 / (h[:, 0] / g[:, 0] ** 2 + h[:, 1] / g[:, 1] ** 2)
            u = coef * sign
            return f, grad, (u * w[:, None]).T @ u / n

        k = coef.shape[1]
        res = minimize(neg_dual, np.zeros(k), jac=True, method="L-BFGS-B", bounds=[(0.0, None)] * k,
                       options={"maxiter": int(self.max_iter), "gtol": float(self.gtol), "ftol": 1e-15,
                                "maxcor": 20})
        lam, n_newton = _projected_newton(neg_dual, np.maximum(res.x, 0.0), float(self.gtol))
        g, val = self._project(h, coef, lam)
        cons = (coef * g[:, cls]).sum(axis=0) / n
        # projected gradient of the minimised negative dual (gradient = -cons), zero at a KKT point
        pg = np.where(lam > 0, cons, np.maximum(cons, 0.0))
        self.lambda_ = lam
        self.n_iter_ = int(res.nit) + n_newton
        self.dual_value_ = float(val.sum() / n)
        self.primal_value_ = float(self._divergence(g, h).sum() / n)
        self.constraint_values_ = cons
        self.converged_ = bool(np.all(np.isfinite(lam)) and np.abs(pg).max() <= 10.0 * float(self.gtol))
        if not self.converged_:
            warnings.warn(
                f"FairProjection did not converge (L-BFGS-B: {res.message}); largest constraint "
                f"violation {cons.max():.3g}. The constraints may be infeasible on these scores "
                f"(tolerance={self.tolerance!r}); a larger tolerance or max_iter may help.",
                ConvergenceWarning, stacklevel=2,
            )
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "lambda_"):
            raise ValueError("this FairProjection is not fitted yet; call fit(scores, groups, y) first")

    def predict_proba(self, scores: object, groups: object) -> np.ndarray:
        """Projected class probabilities ``g(x)``.

        Parameters
        ----------
        scores : array-like of shape (n,)
            Base model ``P(Y=1 | x)`` in ``[0, 1]``.
        groups : array-like of int, shape (n,)
            Group codes in ``0 .. n_groups_-1`` (the authors use the true test attribute).

        Returns
        -------
        numpy.ndarray of shape (n, 2)
            Columns ``P(Yhat=0 | x)`` and ``P(Yhat=1 | x)``.
        """
        self._check_fitted()
        s, a = self._validate_rows(scores, groups)
        if a.size and int(a.max()) >= self.n_groups_:
            raise ValueError(f"groups must lie in [0, {self.n_groups_}) (the groups seen at fit), "
                             f"found {int(a.max())}")
        h = self._smoothed(s)
        g, _ = self._project(h, self._coefficients(h, a), self.lambda_)
        return g

    def predict(self, scores: object, groups: object) -> np.ndarray:
        """Hard predictions ``1{g_1(x) > 0.5}`` (strict, as the authors' evaluation), dtype int64."""
        return (self.predict_proba(scores, groups)[:, 1] > 0.5).astype(np.int64)

    def constraint_values(self, scores: object, groups: object) -> np.ndarray:
        """Mean of ``G(x)^T g(x)`` over the given rows, one value per constraint row (``<= 0``: satisfied).

        Uses the training ``P(Y, S)`` and the fitted ``lambda_``; on the training rows it equals
        ``constraint_values_``.
        """
        self._check_fitted()
        s, a = self._validate_rows(scores, groups)
        if a.size and int(a.max()) >= self.n_groups_:
            raise ValueError(f"groups must lie in [0, {self.n_groups_}), found {int(a.max())}")
        h = self._smoothed(s)
        coef = self._coefficients(h, a)
        g, _ = self._project(h, coef, self.lambda_)
        return (coef * g[:, self._cls]).mean(axis=0)
