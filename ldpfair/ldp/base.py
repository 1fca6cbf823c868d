r"""The common interface of the frequency oracles: :class:`FrequencyOracle`.

Every protocol of Wang et al. (USENIX Security 2017) is a *pure* protocol: the
server maps a report ``z`` to its support ``S(z)``, a subset of the domain, and

- ``p = P(v in S(z) | v)`` (the true value is supported),
- ``q = P(u in S(z) | v)`` for every ``u != v`` (any other value is supported).

The unbiased frequency estimate of value ``u`` from ``n`` reports is
``(C(u) / n - q) / (p - q)`` with ``C(u)`` the number of supports holding ``u``,
and its variance is

.. math:: \mathrm{Var} = \frac{q(1-q)}{n(p-q)^2} + \frac{f_u (1 - p - q)}{n (p - q)}.

``support(reports)`` is the paper's (arcolezi2023) "homogeneous encoding": the
``n x k`` boolean indicator matrix of the supports (one-hot for GRR, the
indicator vector for set-valued outputs, the bit vector for unary encodings).
"""

from __future__ import annotations

import abc
import functools
import math
from typing import Any

import numpy as np

from .._validation import check_domain_size, check_epsilon, check_real_array, check_values

__all__ = [
    "FrequencyOracle",
    "project_simplex",
    "project_estimate",
    "EXP_ARG_MAX",
    "logistic_tail",
    "ratio_or_inf",
    "PROJECTIONS",
]

#: Valid values of the ``projection`` argument of :meth:`FrequencyOracle.estimate`.
PROJECTIONS: tuple[str | None, ...] = (None, "simplex", "clip")

#: Users handled per block when a dense (n, k) intermediate is needed.
CHUNK = 1 << 16


#: Largest argument for which the protocols compute ``math.exp`` directly
#: (``e^x`` overflows a float from ``x = 709.8``); above it they use ``e^-x`` forms.
EXP_ARG_MAX = 700.0


def logistic_tail(x: float) -> float:
    """``1 / (1 + e^x)``; from :data:`EXP_ARG_MAX` on as ``e^-x / (1 + e^-x)`` (``e^x`` would overflow)."""
    if x < EXP_ARG_MAX:
        return 1.0 / (1.0 + math.exp(x))
    t = math.exp(-x)
    return t / (1.0 + t)


def ratio_or_inf(numerator: float, denominator: float) -> float:
    """``numerator / denominator`` as a float; ``inf`` where the denominator is 0.

    A likelihood ratio whose denominator probability underflowed (or whose
    complement rounded to 0) belongs to a report the float mechanism never
    produces from that input: its privacy loss is unbounded.
    """
    if denominator == 0:
        return math.inf
    return float(numerator / denominator)


def project_simplex(x: np.ndarray) -> np.ndarray:
    """Euclidean projection of ``x`` (last axis) onto the probability simplex.

    Uses the sort-based algorithm of Wang & Carreira-Perpinan (2013).

    Parameters
    ----------
    x : numpy.ndarray
        Vector(s) to project; the last axis is the domain.

    Returns
    -------
    numpy.ndarray
        Non-negative vectors summing to one, closest to ``x`` in L2.
    """
    x = check_real_array(x, "x", allow_nan=True)
    k = x.shape[-1]
    u = -np.sort(-x, axis=-1)
    css = np.cumsum(u, axis=-1) - 1.0
    ind = np.arange(1, k + 1)
    cond = u - css / ind > 0
    rho = k - 1 - np.argmax(cond[..., ::-1], axis=-1)
    theta = np.take_along_axis(css, rho[..., None], axis=-1) / (rho[..., None] + 1.0)
    return np.maximum(x - theta, 0.0)


def project_estimate(est: np.ndarray, projection: str | None) -> np.ndarray:
    """Apply an explicit post-processing ``projection`` to frequency estimates.

    Parameters
    ----------
    est : numpy.ndarray
        Unbiased estimates (last axis = domain).
    projection : {None, "simplex", "clip"}
        ``None`` returns ``est`` unchanged (unbiased); ``"simplex"`` is the
        Euclidean projection onto the probability simplex; ``"clip"`` sets negative
        entries to zero and renormalises (multi-freq-ldpy's ``MI``), falling back
        to uniform when every entry is clipped.

    Returns
    -------
    numpy.ndarray
    """
    if projection not in PROJECTIONS:
        raise ValueError(f"unknown projection {projection!r}; valid: None, 'simplex', 'clip'")
    if projection is None:
        return est
    if projection == "simplex":
        return project_simplex(est)
    clipped = np.maximum(est, 0.0)
    total = clipped.sum(axis=-1, keepdims=True)
    k = est.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(total > 0, clipped / np.where(total > 0, total, 1.0), 1.0 / k)
    return out


class FrequencyOracle(abc.ABC):
    """Base class of the pure LDP frequency oracles.

    Parameters
    ----------
    k : int
        Domain size (values are coded ``0 .. k-1``), ``k >= 2``.
    epsilon : float
        Privacy budget, a finite real ``> 0``.

    Attributes
    ----------
    name : str
        Protocol name as used by :func:`ldpfair.ldp.make_protocol`.
    reports_are_values : bool
        True when a report is itself a value of the domain (GRR), so
        ``output="values"`` of :func:`ldpfair.ldp.privatize` is meaningful.
    """

    name: str = "FO"
    reports_are_values: bool = False

    def __init__(self, k: int, epsilon: float) -> None:
        self.k = check_domain_size(k, "k")
        self.epsilon = check_epsilon(epsilon, "epsilon")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap each subclass ``__init__`` so the finished object checks ``p > q`` once."""
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def checked_init(self: FrequencyOracle, *args: Any, **kw: Any) -> None:
            init(self, *args, **kw)
            if type(self).__init__ is checked_init:  # only the outermost constructor checks
                self._check_separable()

        cls.__init__ = checked_init  # type: ignore[method-assign]

    def _check_separable(self) -> None:
        """Refuse a budget at which ``p`` and ``q`` are equal in floating point (estimates divide by 0)."""
        p, q = self.p, self.q
        if not p > q:
            raise ValueError(
                f"epsilon = {self.epsilon!r} is too small for {self.name} with k = {self.k}: its "
                f"probabilities p = {p!r} and q = {q!r} are equal in floating point, so the "
                "estimator would divide by zero; use a larger epsilon")

    # -- exact probabilities -------------------------------------------------
    @property
    @abc.abstractmethod
    def p(self) -> float:
        """Probability that the true value is in the support of the report."""

    @property
    @abc.abstractmethod
    def q(self) -> float:
        """Probability that a given other value is in the support of the report."""

    def _params(self) -> dict[str, Any]:
        return {}

    def __repr__(self) -> str:
        extra = "".join(f", {key}={val!r}" for key, val in self._params().items())
        return f"{type(self).__name__}(k={self.k}, epsilon={self.epsilon!r}{extra})"

    # -- client side ---------------------------------------------------------
    @abc.abstractmethod
    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> Any:
        """Perturb every user's value at once.

        Parameters
        ----------
        values : array-like of int, shape (n,)
            One value per user in ``[0, k)``.
        rng : numpy.random.Generator
            The only source of randomness.

        Returns
        -------
        reports
            Protocol-specific compact reports (see the subclass).
        """

    # -- server side ---------------------------------------------------------
    @abc.abstractmethod
    def support(self, reports: Any) -> np.ndarray:
        """Return the ``n x k`` boolean indicator matrix of the reports' supports."""

    def n_reports(self, reports: Any) -> int:
        """Return the number of users in ``reports``."""
        return len(reports)

    def support_counts(self, reports: Any) -> np.ndarray:
        """Return ``C(u)``, the number of supports that hold ``u``, for every ``u``."""
        n = self.n_reports(reports)
        counts = np.zeros(self.k, dtype=np.int64)
        for start in range(0, n, CHUNK):
            block = self._slice(reports, start, min(n, start + CHUNK))
            counts += self.support(block).sum(axis=0, dtype=np.int64)
        return counts

    def _slice(self, reports: Any, start: int, stop: int) -> Any:
        return reports[start:stop]

    def estimate(self, reports: Any, projection: str | None = None) -> np.ndarray:
        """Estimate the frequency of every value from the reports.

        Parameters
        ----------
        reports
            Output of :meth:`perturb`.
        projection : {None, "simplex", "clip"}
            ``None`` (default) gives Wang et al.'s unbiased estimator, which may be
            negative and need not sum to one. ``"simplex"`` / ``"clip"`` apply the
            explicit post-processing of :func:`project_estimate` (biased).

        Returns
        -------
        numpy.ndarray of shape (k,)
        """
        if projection not in PROJECTIONS:
            raise ValueError(f"unknown projection {projection!r}; valid: None, 'simplex', 'clip'")
        n = self.n_reports(reports)
        if n == 0:
            raise ValueError("reports must hold at least one user to estimate frequencies")
        counts = self.support_counts(reports)
        est = (counts / n - self.q) / (self.p - self.q)
        return project_estimate(est, projection)

    def variance(self, n: int, f: np.ndarray | float | None = None) -> np.ndarray | float:
        """Analytic variance of the unbiased estimate (Wang et al. 2017, Eq. 2).

        Parameters
        ----------
        n : int
            Number of users, ``>= 1``.
        f : float or array-like, optional
            True frequency of the value(s), real numbers in ``[0, 1]`` (NaN,
            strings and booleans are refused). ``None`` gives the approximate
            variance with ``f = 0`` (the paper's ``Var*``).

        Returns
        -------
        float or numpy.ndarray
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be an integer >= 1, got {n!r}")
        p, q = self.p, self.q
        f_arr = 0.0 if f is None else check_real_array(f, "f", low=0.0, high=1.0)
        var = q * (1 - q) / (n * (p - q) ** 2) + f_arr * (1 - p - q) / (n * (p - q))
        return float(var) if np.ndim(var) == 0 else var

    def worst_case_ratio(self) -> float:
        """Return ``max_z max_{v, v'} P(z | v) / P(z | v')`` from the exact probabilities.

        For a report that is a set of independently included values, the ratio is
        ``p (1 - q) / (q (1 - p))`` (unary encodings, thresholded HE); subclasses
        whose outputs are not independent bits override it.

        Where a probability rounds to 0 or 1 in double precision (large budgets:
        from ``eps`` of about 37 to 745, depending on the protocol) the report
        the ratio needs has probability 0 under the float mechanism, which is
        then deterministic, and the ratio is ``inf``.
        """
        p, q = self.p, self.q
        return ratio_or_inf(p * (1 - q), q * (1 - p))

    # -- helpers -------------------------------------------------------------
    def _check_values(self, values: object) -> np.ndarray:
        return np.ascontiguousarray(check_values(values, self.k, "values"))
