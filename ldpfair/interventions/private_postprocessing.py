"""Mozannar, Ohannessian & Srebro's (ICML 2020) equalized-odds post-processing with a private attribute.

Step 2 of their two-step method, for any 2 x 2 LDP mechanism ``(p, q)`` with
``p = P(Z=0 | A=0)`` and ``q = P(Z=1 | A=1)`` (randomized response: ``p = q = e^eps / (1 + e^eps)``;
ghoukasian2025's OPT: :func:`ldpfair.ldp.optimal_binary_parameters`). Write
``M[z, a] = P(Z=z | A=a) = [[p, 1-q], [1-p, q]]``; the method assumes ``Z`` is independent of
``(X, Y, Yhat)`` given ``A``.

1. On the step-2 sample, estimate ``P(Z, Y)`` and ``P(Yhat, Z, Y)`` empirically.
2. **De-bias**: ``P(., Z=z, .) = sum_a M[z, a] P(., A=a, .)``, so
   ``P(., A, .) = M^{-1} P(., Z, .)`` (``det M = p + q - 1``, which must be > 0). The de-biased
   joints are unbiased (they can leave ``[0, 1]`` by sampling noise).
3. ``beta[y, a] = P(Yhat=1 | Y=y, A=a)`` from the de-biased joints (this equals the authors'
   2 x 2 posterior-weighted system).
4. **LP** in ``t[z, yhat] = P(Ytilde=1 | Z=z, Yhat=yhat)`` in ``[0, 1]``: with
   ``g[a, yhat] = sum_z M[z, a] t[z, yhat]`` (= ``P(Ytilde=1 | A=a, Yhat=yhat)``) and
   ``gamma[y, a] = (1 - beta[y, a]) g[a, 0] + beta[y, a] g[a, 1]`` (= ``P(Ytilde=1 | Y=y, A=a)``),
   minimise the error ``sum_{a, yhat} [P(yhat, a, Y=0) - P(yhat, a, Y=1)] g[a, yhat] + P(Y=1)``
   subject to ``|gamma[y, 1] - gamma[y, 0]| <= alpha`` for ``y = 0, 1``. A constant ``t`` is
   always feasible. Solved with :func:`scipy.optimize.linprog` (HiGHS).

**Clipping rule** (the authors' notebook does not clip; ghoukasian2025's asymmetric variant
clips ``beta``). The de-biased cells ``P(yhat, a, y)`` are clipped into ``[0, 1]`` before they
enter the LP (objective and ``beta``); ``beta[y, a]`` is the ratio of the clipped cells
``P(1, a, y) / (P(0, a, y) + P(1, a, y))``, which lies in ``[0, 1]``. If both cells of ``(a, y)``
are clipped to 0 (the group-label cell is not identifiable through the noise), ``beta[y, a]``
falls back to the pooled rate ``P(Yhat=1 | Y=y)`` of the step-2 sample, i.e. the value it has
when ``A`` carries no information. When no cell leaves ``[0, 1]`` (always for ``p = q = 1``,
and for large samples) the rule changes nothing. The unclipped estimates are kept in
``joint_raw_`` and ``p_ay_raw_``.

At test time the derived predictor is the randomised 2 x 2 lookup ``g[A, Yhat]`` on the true
attribute (the authors' ``predict_batch``, which marginalises ``Z`` analytically), or ``t[Z, Yhat]``
on a privatised attribute. ghoukasian2025's RR branch passed the privatised ``Z_test`` to
``predict_batch``, i.e. used ``g[Z, Yhat]``: call :meth:`PrivateEqualizedOdds.predict_proba`
with ``z`` for that variant.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.optimize import linprog

from .._validation import check_probability, check_rng
from ..metrics.groups import check_binary, check_scores
from .reductions import ExponentiatedGradientEO

__all__ = [
    "PrivateEqualizedOdds",
    "equalized_odds_from_proba",
    "lp_matrices",
    "mechanism_matrix",
    "two_step_fit",
    "two_step_predict_proba",
]


def mechanism_matrix(p: float, q: float) -> np.ndarray:
    """``M[z, a] = P(Z=z | A=a)`` of the binary mechanism ``(p, q)``, checked invertible.

    Parameters
    ----------
    p : float
        ``P(Z=0 | A=0)`` in ``[0, 1]``.
    q : float
        ``P(Z=1 | A=1)`` in ``[0, 1]``.

    Returns
    -------
    ndarray of shape (2, 2)
        ``[[p, 1 - q], [1 - p, q]]`` (columns sum to 1).

    Raises
    ------
    ValueError
        If ``p`` or ``q`` is outside ``[0, 1]`` or ``det M = p + q - 1 <= 0``.
    """
    p = check_probability(p, "p")
    q = check_probability(q, "q")
    det = p + q - 1.0
    if det <= 0:
        raise ValueError(
            f"the mechanism (p={p}, q={q}) must have det M = p + q - 1 > 0, got {det:.6g}: "
            "with p + q = 1 the report Z is independent of A (nothing to de-bias), and with "
            "p + q < 1 Z is more often flipped than kept; relabel Z as 1 - Z, i.e. use "
            f"(p, q) = ({1 - p:.6g}, {1 - q:.6g}), in that case"
        )
    return np.array([[p, 1.0 - q], [1.0 - p, q]])


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"alpha must be a real number >= 0, got {alpha!r} ({type(alpha).__name__})")
    value = float(alpha)
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"alpha (the equalized-odds slack) must be finite and >= 0, got {alpha!r}")
    return value


def _same_length(**arrays: np.ndarray) -> int:
    lengths = {name: arr.shape[0] for name, arr in arrays.items()}
    if len(set(lengths.values())) != 1:
        shown = ", ".join(f"{k}={v}" for k, v in lengths.items())
        raise ValueError(f"arrays must have the same length, got {shown}")
    n = next(iter(lengths.values()))
    if n == 0:
        raise ValueError(f"arrays must not be empty ({', '.join(lengths)})")
    return n


class PrivateEqualizedOdds:
    """Equalized-odds post-processing of a binary predictor from a privatised attribute.

    Mozannar et al. (2020), step 2, for a general binary mechanism ``(p, q)`` (see the
    module docstring for the estimator, the LP and the clipping rule).

    Parameters
    ----------
    p : float
        ``P(Z=0 | A=0)`` of the mechanism that privatised the attribute.
    q : float
        ``P(Z=1 | A=1)``. ``p + q - 1`` must be > 0 (``p = q = 1``: no privatisation).
    alpha : float
        Slack ``alpha_n >= 0`` of the equalized-odds constraints (authors: 1e-4).

    Attributes
    ----------
    M_ : ndarray (2, 2)
        ``M[z, a] = P(Z=z | A=a)``.
    p_zy_ : ndarray (2, 2)
        Empirical ``P(Z=z, Y=y)`` (indexed ``[z, y]``).
    joint_private_ : ndarray (2, 2, 2)
        Empirical ``P(Yhat, Z, Y)`` (indexed ``[yhat, z, y]``).
    p_ay_raw_ : ndarray (2, 2)
        De-biased (unbiased, unclipped) ``P(A=a, Y=y)``.
    joint_raw_ : ndarray (2, 2, 2)
        De-biased (unbiased, unclipped) ``P(Yhat, A, Y)`` (indexed ``[yhat, a, y]``).
    joint_ : ndarray (2, 2, 2)
        ``joint_raw_`` clipped into ``[0, 1]``: the estimate the LP uses.
    n_clipped_ : int
        Number of cells of ``joint_raw_`` outside ``[0, 1]``.
    beta_ : ndarray (2, 2)
        ``beta[y, a] = P(Yhat=1 | Y=y, A=a)``.
    t_ : ndarray (2, 2)
        LP solution ``t[z, yhat] = P(Ytilde=1 | Z=z, Yhat=yhat)``.
    g_ : ndarray (2, 2)
        ``g[a, yhat] = P(Ytilde=1 | A=a, Yhat=yhat)``.
    gamma_ : ndarray (2, 2)
        ``gamma[y, a] = P(Ytilde=1 | Y=y, A=a)`` implied by the estimates.
    error_ : float
        Estimated error ``P(Ytilde != Y)`` of the derived predictor.
    """

    def __init__(self, p: float, q: float, alpha: float = 1e-4) -> None:
        self.M_ = mechanism_matrix(p, q)
        self.p = float(p)
        self.q = float(q)
        self.alpha = _check_alpha(alpha)

    def fit(self, y_hat: object, z: object, y: object) -> PrivateEqualizedOdds:
        """Estimate the de-biased joints on the step-2 sample and solve the LP.

        Parameters
        ----------
        y_hat : array-like of 0/1, shape (n,)
            Binary predictions of the step-1 classifier.
        z : array-like of 0/1, shape (n,)
            Privatised attribute.
        y : array-like of 0/1, shape (n,)
            Labels (both classes must occur).

        Returns
        -------
        PrivateEqualizedOdds
            ``self``.
        """
        y_hat = check_binary(y_hat, "y_hat")
        z = check_binary(z, "z")
        y = check_binary(y, "y")
        n = _same_length(y_hat=y_hat, z=z, y=y)
        n_pos = int(y.sum())
        if n_pos in (0, n):
            raise ValueError(f"y must contain both labels 0 and 1, got only {int(y[0])}")
        M = self.M_
        M_inv = np.linalg.inv(M)
        p_zy = np.bincount(2 * z + y, minlength=4).reshape(2, 2) / n
        joint_private = np.bincount(4 * y_hat + 2 * z + y, minlength=8).reshape(2, 2, 2) / n
        joint_raw = np.einsum("az,hzy->hay", M_inv, joint_private)
        joint = np.clip(joint_raw, 0.0, 1.0)

        cell = joint.sum(axis=0)  # [a, y]
        pooled = np.array([y_hat[y == label].mean() for label in (0, 1)])  # P(Yhat=1 | Y=y)
        with np.errstate(invalid="ignore", divide="ignore"):
            beta = np.where(cell > 0, joint[1] / cell, pooled[None, :]).T.copy()  # [y, a]

        t = _solve_lp(M, joint, beta, self.alpha)
        g = M.T @ t  # g[a, yhat] = sum_z M[z, a] t[z, yhat]
        coef = joint[:, :, 0] - joint[:, :, 1]  # [yhat, a]
        # every attribute is set only once the fit has succeeded
        self.p_zy_ = p_zy
        self.joint_private_ = joint_private
        self.p_ay_raw_ = M_inv @ p_zy
        self.joint_raw_ = joint_raw
        self.joint_ = joint
        self.n_clipped_ = int(np.count_nonzero(joint != joint_raw))
        self.beta_ = beta
        self.t_ = t
        self.g_ = g
        self.gamma_ = (1.0 - beta) * g[:, 0][None, :] + beta * g[:, 1][None, :]
        self.error_ = float(joint[:, :, 1].sum() + np.sum(coef.T * g))
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "t_"):
            raise ValueError("this PrivateEqualizedOdds is not fitted yet; call fit(y_hat, z, y) first")

    def _lookup(self, table: str, y_hat: object, group: object, name: str) -> np.ndarray:
        self._check_fitted()
        y_hat = check_binary(y_hat, "y_hat")
        group = check_binary(group, name)
        _same_length(y_hat=y_hat, **{name: group})
        return getattr(self, table)[group, y_hat]

    def predict_proba(self, y_hat: object, a: object) -> np.ndarray:
        """``P(Ytilde=1) = g[a, yhat]`` given the true attribute ``a`` (authors' ``predict_batch``).

        Parameters
        ----------
        y_hat : array-like of 0/1, shape (n,)
        a : array-like of 0/1, shape (n,)

        Returns
        -------
        ndarray of float, shape (n,)
        """
        return self._lookup("g_", y_hat, a, "a")

    def predict_proba_private(self, y_hat: object, z: object) -> np.ndarray:
        """``P(Ytilde=1) = t[z, yhat]`` given a privatised attribute ``z`` at test time.

        Parameters
        ----------
        y_hat : array-like of 0/1, shape (n,)
        z : array-like of 0/1, shape (n,)

        Returns
        -------
        ndarray of float, shape (n,)
        """
        return self._lookup("t_", y_hat, z, "z")

    def predict(self, y_hat: object, a: object, *, rng: np.random.Generator) -> np.ndarray:
        """Randomised predictions ``Ytilde ~ Bernoulli(g[a, yhat])`` (true attribute).

        Parameters
        ----------
        y_hat : array-like of 0/1, shape (n,)
        a : array-like of 0/1, shape (n,)
        rng : numpy.random.Generator

        Returns
        -------
        ndarray of int64, shape (n,)
        """
        return _bernoulli(self.predict_proba(y_hat, a), rng)

    def predict_private(self, y_hat: object, z: object, *, rng: np.random.Generator) -> np.ndarray:
        """Randomised predictions ``Ytilde ~ Bernoulli(t[z, yhat])`` (privatised attribute).

        Parameters
        ----------
        y_hat : array-like of 0/1, shape (n,)
        z : array-like of 0/1, shape (n,)
        rng : numpy.random.Generator

        Returns
        -------
        ndarray of int64, shape (n,)
        """
        return _bernoulli(self.predict_proba_private(y_hat, z), rng)


def _bernoulli(prob: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Independent draws ``Bernoulli(prob)`` with an explicit generator (vectorised)."""
    rng = check_rng(rng)
    return (rng.random(prob.shape[0]) < prob).astype(np.int64)


def lp_matrices(M: np.ndarray, joint: np.ndarray, beta: np.ndarray, alpha: float) -> tuple[np.ndarray, ...]:
    """Objective ``c``, ``A_ub`` and ``b_ub`` of the step-2 LP in ``x = t.ravel()`` (``t[z, yhat]``).

    Parameters
    ----------
    M : ndarray (2, 2)
        ``M[z, a]``.
    joint : ndarray (2, 2, 2)
        ``P(Yhat, A, Y)`` indexed ``[yhat, a, y]``.
    beta : ndarray (2, 2)
        ``beta[y, a]``.
    alpha : float
        Constraint slack.

    Returns
    -------
    c, A_ub, b_ub : ndarrays
        ``x`` minimises ``c @ x`` (the error minus ``P(Y=1)``) s.t. ``A_ub @ x <= b_ub``.
    """
    # G[(a, yhat), (z, yhat')] = M[z, a] * [yhat == yhat']: g.ravel() = G @ t.ravel()
    G = np.einsum("za,hk->ahzk", M, np.eye(2)).reshape(4, 4)
    coef = (joint[:, :, 0] - joint[:, :, 1]).T  # [a, yhat]
    c = coef.reshape(-1) @ G
    G3 = G.reshape(2, 2, 4)  # [a, yhat, x]
    # gamma[y, a] as a row over x: (1 - beta[y, a]) g[a, 0] + beta[y, a] g[a, 1]
    gamma_rows = (1.0 - beta)[:, :, None] * G3[None, :, 0, :] + beta[:, :, None] * G3[None, :, 1, :]
    diff = gamma_rows[:, 1, :] - gamma_rows[:, 0, :]  # [y, x]
    A_ub = np.concatenate([diff, -diff], axis=0)
    b_ub = np.full(4, alpha)
    return c, A_ub, b_ub


def _solve_lp(M: np.ndarray, joint: np.ndarray, beta: np.ndarray, alpha: float) -> np.ndarray:
    c, A_ub, b_ub = lp_matrices(M, joint, beta, alpha)
    res = linprog(c, A_ub=A_ub, b_ub=b_ub, bounds=(0.0, 1.0), method="highs")
    if res.status != 0:  # cannot happen: a constant t is feasible and the box is bounded
        raise RuntimeError(f"step-2 LP failed (status {res.status}): {res.message}")
    return np.clip(res.x, 0.0, 1.0).reshape(2, 2)


def equalized_odds_from_proba(prob: object, y: object, a: object) -> dict[str, float]:
    """Expected accuracy and ``Delta_EOd`` of a randomised binary predictor.

    Parameters
    ----------
    prob : array-like of float in [0, 1], shape (n,)
        ``P(Ytilde_i = 1)`` for each individual.
    y : array-like of 0/1, shape (n,)
        Labels.
    a : array-like of 0/1, shape (n,)
        Attribute the gap is measured on (the true one in the papers).

    Returns
    -------
    dict
        ``acc`` = mean of ``prob * y + (1 - prob) * (1 - y)``; ``Delta_EOd`` =
        ``max_y |P(Ytilde=1 | Y=y, A=1) - P(Ytilde=1 | Y=y, A=0)|`` (expected rates, no
        sampling of ``Ytilde``).

    Raises
    ------
    ValueError
        On non-binary ``y``/``a``, probabilities outside [0, 1], length mismatch, or an
        empty ``(y, a)`` cell.
    """
    prob = check_scores(prob, "prob")
    y = check_binary(y, "y")
    a = check_binary(a, "a")
    _same_length(prob=prob, y=y, a=a)
    cell = 2 * y + a
    counts = np.bincount(cell, minlength=4)
    if np.any(counts == 0):
        empty = [f"(y={c // 2}, a={c % 2})" for c in np.flatnonzero(counts == 0)]
        raise ValueError(f"every (y, a) cell needs at least one individual; empty: {', '.join(empty)}")
    rate = (np.bincount(cell, weights=prob, minlength=4) / counts).reshape(2, 2)  # [y, a]
    acc = float(np.mean(np.where(y == 1, prob, 1.0 - prob)))
    return {"acc": acc, "Delta_EOd": float(np.max(np.abs(rate[:, 1] - rate[:, 0])))}


def two_step_fit(
    X1: object,
    y1: object,
    z1: object,
    X2: object,
    y2: object,
    z2: object,
    *,
    p: float,
    q: float,
    rng: np.random.Generator,
    eps: float = 0.001,
    max_iter: int = 50,
    alpha: float = 1e-4,
    estimator: object | None = None,
) -> tuple[ExponentiatedGradientEO, PrivateEqualizedOdds]:
    """Mozannar et al.'s two-step method with a privatised attribute.

    Step 1 fits :class:`ExponentiatedGradientEO` on ``(X1, y1)`` with groups ``z1``; its
    randomised binary predictions on ``X2`` (drawn with ``rng``) feed step 2,
    :class:`PrivateEqualizedOdds` fitted on ``(yhat2, z2, y2)``.

    Parameters
    ----------
    X1, y1, z1 : array-like
        Step-1 sample: features, labels 0/1, privatised attribute.
    X2, y2, z2 : array-like
        Step-2 sample.
    p, q : float
        Mechanism ``P(Z=0 | A=0)``, ``P(Z=1 | A=1)`` that produced ``z1`` and ``z2``.
    rng : numpy.random.Generator
        Draws step 1's randomised predictions on ``X2``.
    eps, max_iter : float, int
        Step-1 reduction parameters (authors: 0.001, 50).
    alpha : float
        Step-2 constraint slack (authors: 1e-4).
    estimator : classifier, optional
        Step-1 cost-sensitive learner (default liblinear logistic regression).

    Returns
    -------
    (ExponentiatedGradientEO, PrivateEqualizedOdds)
    """
    rng = check_rng(rng)
    step2 = PrivateEqualizedOdds(p, q, alpha=alpha)  # validates (p, q, alpha) before the costly step 1
    step1 = ExponentiatedGradientEO(estimator, eps=eps, max_iter=max_iter)
    step1.fit(X1, y1, sensitive_features=check_binary(z1, "z1"))
    y_hat2 = step1.predict(X2, rng=rng)
    step2.fit(y_hat2, z2, y2)
    return step1, step2


def two_step_predict_proba(
    step1: ExponentiatedGradientEO,
    step2: PrivateEqualizedOdds,
    X: object,
    a: object,
    *,
    private: bool = False,
) -> np.ndarray:
    """``P(Ytilde=1 | x, a)`` of the two-step predictor, with step 1's randomness marginalised.

    ``(1 - pi(x)) * g[a, 0] + pi(x) * g[a, 1]`` with ``pi(x) = P(Yhat=1 | x)`` of step 1.

    Parameters
    ----------
    step1 : ExponentiatedGradientEO
    step2 : PrivateEqualizedOdds
    X : array-like (n, d)
    a : array-like of 0/1, shape (n,)
        True attribute (or a privatised one when ``private=True``).
    private : bool
        Use ``t[z, yhat]`` (attribute privatised at test time) instead of ``g[a, yhat]``.

    Returns
    -------
    ndarray of float, shape (n,)
    """
    pi = step1.predict_proba(X)[:, 1]
    a = check_binary(a, "a")
    _same_length(X=pi, a=a)
    step2._check_fitted()
    table = step2.t_ if private else step2.g_
    return (1.0 - pi) * table[a, 0] + pi * table[a, 1]
