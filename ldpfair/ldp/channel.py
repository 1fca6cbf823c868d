"""Generic channel mechanisms: perturb with any row-stochastic matrix ``Q``."""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_epsilon, check_rng, check_values
from ._kernels import channel_from_uniforms
from .grr import one_hot
from .symmetric_channel import ROW_TOL, SymmetricChannel

__all__ = ["ChannelMechanism", "SymmetricChannel", "channel_epsilon", "check_channel_matrix", "within_level"]

#: Relative slack on the epsilon check (LP solutions are exact only to the solver's
#: feasibility tolerance); the row-sum tolerance ``ROW_TOL`` is shared with :class:`SymmetricChannel`.
EPS_RTOL = 1e-6


def check_channel_matrix(Q: np.ndarray) -> np.ndarray:
    """Return ``Q`` as a float array after checking it is a channel.

    A 2-D matrix of real numbers (not strings or booleans: ``TypeError``) with at
    least 2 rows and columns, finite entries ``>= 0`` and rows summing to one
    within :data:`ROW_TOL`; ``ValueError`` otherwise.
    """
    kind = np.asarray(Q).dtype.kind
    if kind not in "iuf":  # strings would be parsed and booleans counted as 0/1 by dtype=float
        what = "booleans" if kind == "b" else f"dtype {np.asarray(Q).dtype}"
        raise TypeError(f"Q must be a matrix of probabilities (real numbers), got {what}")
    Q = np.array(Q, dtype=float)
    if Q.ndim != 2 or Q.shape[0] < 2 or Q.shape[1] < 2:
        raise ValueError(f"Q must be a 2-D matrix with at least 2 rows and columns, got shape {Q.shape}")
    if not np.all(np.isfinite(Q)):
        raise ValueError("Q must hold finite probabilities (found nan or inf)")
    if np.any(Q < 0):
        raise ValueError(f"Q must be non-negative, found min {Q.min():.3g}")
    sums = Q.sum(axis=1)
    if np.any(np.abs(sums - 1) > ROW_TOL):
        bad = int(np.argmax(np.abs(sums - 1)))
        raise ValueError(f"Q must be row-stochastic: row {bad} sums to {sums[bad]!r}, not 1")
    return Q


def within_level(epsilon_star: float, epsilon: float) -> bool:
    """Whether a channel of level ``epsilon_star`` counts as ``epsilon``-LDP (slack :data:`EPS_RTOL`)."""
    return epsilon_star <= epsilon * (1 + EPS_RTOL) + 1e-12


def channel_epsilon(Q: np.ndarray) -> float:
    """Smallest ``eps`` for which the channel ``Q[v, z] = P(z | v)`` is ``eps``-LDP.

    ``max_z log(max_v Q[v, z] / min_v Q[v, z])``; ``inf`` if a column mixes zero
    and non-zero entries (all-zero columns are ignored: that output never occurs).
    """
    Q = np.asarray(Q, dtype=float)
    hi = Q.max(axis=0)
    lo = Q.min(axis=0)
    used = hi > 0
    if np.any(lo[used] <= 0):
        return math.inf
    if not np.any(used):
        return 0.0
    return float(np.max(np.log(hi[used] / lo[used])))


class ChannelMechanism:
    """Perturb values with the rows of a row-stochastic matrix ``Q``.

    Parameters
    ----------
    Q : array-like, shape (k, m)
        ``Q[v, z] = P(Z = z | V = v)``; entries ``>= 0``, rows summing to one
        (within ``1e-9``; rows are renormalised exactly after the check).
    epsilon : float, optional
        The budget it must satisfy. The channel's own level
        :func:`channel_epsilon` must not exceed it (relative slack ``1e-6``).
        ``None`` adopts the channel's own level (which must be finite).

    Attributes
    ----------
    epsilon_star : float
        The channel's exact privacy level ``eps*(Q)``.
    reports_are_values : bool
        True when ``Q`` is square (the output space is the input domain).
    """

    name = "Channel"

    def __init__(self, Q: np.ndarray, epsilon: float | None = None) -> None:
        Q = check_channel_matrix(Q)
        self.Q = Q / Q.sum(axis=1)[:, None]
        self.k, self.m = self.Q.shape
        self.epsilon_star = channel_epsilon(self.Q)
        if epsilon is None:
            if not math.isfinite(self.epsilon_star):
                raise ValueError("Q is not epsilon-LDP for any finite epsilon (a column mixes 0 and > 0)")
            self.epsilon = self.epsilon_star
        else:
            self.epsilon = check_epsilon(epsilon, "epsilon")
            if not within_level(self.epsilon_star, self.epsilon):
                raise ValueError(
                    f"Q is not epsilon-LDP for epsilon={self.epsilon}: its level is "
                    f"eps*(Q)={self.epsilon_star:.6g} (valid: eps*(Q) <= epsilon)"
                )
        self.reports_are_values = self.k == self.m
        self._cdf = np.cumsum(self.Q, axis=1)
        self._cdf[:, -1] = np.inf

    def __repr__(self) -> str:
        return (
            f"ChannelMechanism(k={self.k}, epsilon={self.epsilon:.6g}, epsilon_star={self.epsilon_star:.6g})"
        )

    @property
    def channel(self) -> np.ndarray:
        """The matrix ``Q`` (a copy)."""
        return self.Q.copy()

    def worst_case_ratio(self) -> float:
        """``exp(eps*(Q))``."""
        return math.exp(self.epsilon_star)

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Draw ``Z ~ Q[v, :]`` for every user (inverse CDF, one uniform each)."""
        values = np.ascontiguousarray(check_values(values, self.k, "values"))
        rng = check_rng(rng)
        return channel_from_uniforms(values, rng.random(values.shape[0]), self._cdf)

    def support(self, reports: np.ndarray) -> np.ndarray:
        """One-hot encoding of the reports (n x m boolean)."""
        return one_hot(check_values(reports, self.m, "reports"), self.m)

    def estimate(self, reports: np.ndarray, projection: str | None = None) -> np.ndarray:
        """Unbiased frequency estimate ``f`` solving ``Q^T f = histogram / n`` (square Q)."""
        from .base import project_estimate

        if self.k != self.m:
            raise ValueError("estimate needs a square channel")
        reports = check_values(reports, self.m, "reports")
        if reports.size == 0:
            raise ValueError("reports must hold at least one user")
        hist = np.bincount(reports, minlength=self.m) / reports.size
        return project_estimate(np.linalg.solve(self.Q.T, hist), projection)
