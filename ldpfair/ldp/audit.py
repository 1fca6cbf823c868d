r"""Privacy audits of local mechanisms: exact (from a channel) and empirical (from samples).

Exact audit (:func:`exact_audit`). With a finite output space and
``Q[v, z] = P(z | v)`` the exact pure level is
``eps*(Q) = max_z ln(max_v Q[v, z] / min_v Q[v, z])`` (:func:`~ldpfair.ldp.channel_epsilon`).
A mechanism claiming ``epsilon`` passes when ``eps*(Q) <= epsilon`` (relative
slack ``1e-6`` for solver output); otherwise the worst pair of inputs and the
output attaining it are named.

Empirical audit (:func:`empirical_audit`), the hypothesis-test reading of the
LDP definition (in the manner of Arcolezi & Gambs's LDP-Auditor, PoPETs 2024):
for every ordered pair of inputs ``(v, v')`` and every output event ``S``,
``P[M(v) in S] <= e^eps P[M(v') in S]``. The audit draws ``n`` reports from each
input, reduces each report to its support (the server's indicator row, a
post-processing of the report, so any event on it is an event on the output),
and codes the support as an integer pattern. On the first half of the samples it
chooses, for each pair, the event ``S`` among the likelihood-ratio upper sets
(patterns sorted by their estimated ratio, the Neyman-Pearson family) that
maximises the Clopper-Pearson lower bound of the ratio; on the second half,
independent of that choice, it computes the one-sided Clopper-Pearson lower
bound of ``P[M(v) in S]`` and upper bound of ``P[M(v') in S]``. Their log ratio is
a lower bound on the mechanism's true level that holds, jointly over all pairs,
with probability at least ``1 - alpha`` (Bonferroni over pairs and the two bounds).
A mechanism is refused when that lower bound exceeds its claimed ``epsilon``.

A low lower bound proves nothing beyond the events tested; a lower bound above
``epsilon`` proves, at the stated confidence, that the sampler leaks more than it
claims (a bug such as pure-LDP's unary-encoding sampler, issue #11).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._validation import check_epsilon
from .channel import check_channel_matrix, within_level

__all__ = ["AuditResult", "PrivacyAuditError", "audit", "clopper_pearson", "empirical_audit", "exact_audit"]

#: Reports drawn per input by default (the order LDP-Auditor uses).
DEFAULT_SAMPLES = 10**6
#: Joint failure probability of the empirical audit's bounds.
DEFAULT_ALPHA = 0.01
#: Largest domain an empirical audit enumerates (supports are coded as ``k``-bit patterns).
MAX_AUDIT_K = 16


class PrivacyAuditError(ValueError):
    """A mechanism failed its privacy audit (the message is one line)."""


@dataclass(frozen=True)
class AuditResult:
    """The outcome of one audit of one mechanism at one ``(k, epsilon)``.

    Attributes
    ----------
    name : str
        The mechanism's name.
    k, epsilon :
        Domain size and claimed budget.
    method : {"exact", "empirical"}
    level : float
        Exact level ``eps*(Q)`` (exact audits), ``nan`` otherwise.
    lower_bound : float
        The empirical audit's lower bound on the level (``nan`` for exact-only audits).
    samples : int
        Reports drawn per input (0 for an exact audit).
    passed : bool
    worst : tuple of int
        ``(v, v', z)``: inputs and output (exact) or inputs and event size (empirical)
        attaining the level or the bound.
    """

    name: str
    k: int
    epsilon: float
    method: str
    level: float
    lower_bound: float
    samples: int
    passed: bool
    worst: tuple[int, int, int]

    def message(self) -> str:
        """One line: what was audited and the verdict."""
        v, w, z = self.worst
        if self.method == "exact":
            what = (
                f"exact level eps*(Q) = {self.level:.6g} at inputs ({v}, {w}) and output {z} "
                f"(P(z|{v}) / P(z|{w}) = e^{self.level:.6g})"
            )
        else:
            what = (
                f"empirical audit ({self.samples:,} reports per input) gives a level of at least "
                f"{self.lower_bound:.4g} at inputs ({v}, {w}) on an event of {z} support pattern(s)"
            )
        verdict = "within" if self.passed else "exceeds"
        where = f"{self.name} (k={self.k}, epsilon={self.epsilon:g})"
        return f"{where}: {what}, which {verdict} epsilon = {self.epsilon:g}"


def clopper_pearson(successes: np.ndarray, n: int, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """One-sided Clopper-Pearson bounds at level ``alpha`` each: ``(lower, upper)``.

    ``lower`` holds with probability ``>= 1 - alpha`` (``P >= lower``) and so does
    ``upper`` on its own; ``lower = 0`` at 0 successes and ``upper = 1`` at ``n``.
    """
    x = np.asarray(successes, dtype=float)
    with np.errstate(invalid="ignore"):
        lo = np.where(x > 0, stats.beta.ppf(alpha, x, n - x + 1), 0.0)
        hi = np.where(x < n, stats.beta.ppf(1 - alpha, x + 1, n - x), 1.0)
    return np.nan_to_num(lo, nan=0.0), np.nan_to_num(hi, nan=1.0)


def exact_audit(Q: Any, epsilon: float, *, name: str = "mechanism") -> AuditResult:
    """Audit a channel ``Q[v, z] = P(z | v)`` against ``epsilon`` exactly.

    Returns
    -------
    AuditResult
        ``passed`` when ``eps*(Q) <= epsilon`` (slack of :func:`~ldpfair.ldp.channel.within_level`).
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    Q = check_channel_matrix(Q)
    hi, lo = Q.max(axis=0), Q.min(axis=0)
    used = hi > 0
    with np.errstate(divide="ignore"):
        col = np.where(used, np.log(hi / np.where(lo > 0, lo, 0.0)), -np.inf)
    z = int(np.argmax(col))
    level = float(col[z]) if np.any(used) else 0.0
    worst = (int(np.argmax(Q[:, z])), int(np.argmin(Q[:, z])), z)
    return AuditResult(
        name, int(Q.shape[0]), epsilon, "exact", level, math.nan, 0, bool(within_level(level, epsilon)), worst
    )


def _patterns(mech: Any, reports: Any) -> np.ndarray:
    """Each report's support coded as an integer (bit ``u`` set when ``u`` is supported)."""
    sup = np.asarray(mech.support(reports), dtype=bool)
    if sup.ndim != 2 or sup.shape[1] > 62:
        raise ValueError(f"the empirical audit codes supports of at most 62 values as integers; "
                         f"this mechanism's support has shape {sup.shape}")
    weights = np.left_shift(np.int64(1), np.arange(sup.shape[1], dtype=np.int64))
    return sup.astype(np.int64) @ weights


def _bound(num_x: np.ndarray, den_x: np.ndarray, n: int, alpha: float) -> np.ndarray:
    lo, _ = clopper_pearson(num_x, n, alpha)
    _, hi = clopper_pearson(den_x, n, alpha)
    with np.errstate(divide="ignore"):
        return np.where(lo > 0, np.log(np.maximum(lo, 1e-300) / hi), -np.inf)


def empirical_audit(
    mech: Any,
    epsilon: float,
    *,
    samples: int = DEFAULT_SAMPLES,
    alpha: float = DEFAULT_ALPHA,
    rng: np.random.Generator | None = None,
    name: str | None = None,
) -> AuditResult:
    """Audit ``mech.perturb`` against ``epsilon`` by sampling (see the module docstring).

    Parameters
    ----------
    mech : object
        A mechanism with ``k``, ``perturb(values, rng)`` and ``support(reports)``.
    epsilon : float
        The budget it claims.
    samples : int
        Reports drawn per input (split in two halves: event choice, then bounds).
    alpha : float
        Joint failure probability of every bound of the audit.
    rng : numpy.random.Generator
        Source of the draws (required: audits are reproducible).

    Returns
    -------
    AuditResult
        ``lower_bound`` is the largest lower bound over the ordered pairs of inputs.
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator (audits are seeded explicitly)")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 100:
        raise ValueError(f"samples must be an int >= 100, got {samples!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    k = int(mech.k)
    if k > MAX_AUDIT_K:
        raise ValueError(f"the empirical audit enumerates supports of k <= {MAX_AUDIT_K} values, got k={k}")
    half = samples // 2
    n_b = samples - half
    codes_a, codes_b = [], []
    for v in range(k):
        pat = _patterns(mech, mech.perturb(np.full(samples, v, dtype=np.int64), rng))
        codes_a.append(pat[:half])
        codes_b.append(pat[half:])
    universe = np.unique(np.concatenate(codes_a + codes_b))
    hist_a = np.stack([np.bincount(np.searchsorted(universe, c), minlength=universe.size) for c in codes_a])
    hist_b = np.stack([np.bincount(np.searchsorted(universe, c), minlength=universe.size) for c in codes_b])
    pairs = [(v, w) for v in range(k) for w in range(k) if v != w]
    a = alpha / (2 * len(pairs))  # Bonferroni: every pair, two bounds each
    best, worst = -math.inf, (0, 1, 1)
    for v, w in pairs:
        order = np.argsort(-((hist_a[v] + 0.5) / (hist_a[w] + 0.5)), kind="stable")
        cum_v, cum_w = np.cumsum(hist_a[v][order]), np.cumsum(hist_a[w][order])
        size = int(np.argmax(_bound(cum_v, cum_w, half, a))) + 1  # chosen on half A only
        event = order[:size]
        bound = float(_bound(hist_b[v][event].sum(), hist_b[w][event].sum(), n_b, a))
        if bound > best:
            best, worst = bound, (v, w, size)
    best = max(best, 0.0)
    label = str(name or getattr(mech, "name", type(mech).__name__))
    return AuditResult(label, k, epsilon, "empirical", math.nan, best, samples, best <= epsilon, worst)


def audit(
    mech: Any,
    epsilon: float,
    *,
    samples: int = DEFAULT_SAMPLES,
    alpha: float = DEFAULT_ALPHA,
    rng: np.random.Generator | None = None,
    name: str | None = None,
    channel: Any = None,
) -> AuditResult:
    """Audit a mechanism: exactly from its channel if it has one, and empirically from its sampler.

    The exact audit uses ``channel`` or the mechanism's ``channel`` attribute
    (a ``k x m`` matrix); a mechanism that fails it is refused without sampling.
    The empirical audit runs when ``samples > 0`` (always when there is no channel).
    The result carries both the exact level and the empirical lower bound.

    Raises
    ------
    PrivacyAuditError
        One line naming the worst pair of inputs and the output (or event).
    """
    label = str(name or getattr(mech, "name", type(mech).__name__))
    Q = channel if channel is not None else getattr(mech, "channel", None)
    level = math.nan
    if Q is not None:
        ex = exact_audit(Q, epsilon, name=label)
        if not ex.passed:
            raise PrivacyAuditError(f"privacy audit refused {ex.message()}")
        level = ex.level
        if samples == 0:
            return ex
    ratio = getattr(mech, "worst_case_ratio", None)
    if Q is None and callable(ratio):
        declared = math.log(ratio()) if ratio() > 0 else math.inf
        if not within_level(declared, epsilon):
            raise PrivacyAuditError(
                f"privacy audit refused {label} (k={mech.k}, epsilon={epsilon:g}): "
                "its declared probabilities "
                f"give a level of {declared:.6g} (worst_case_ratio), which exceeds epsilon = {epsilon:g}"
            )
        level = declared
    emp = empirical_audit(mech, epsilon, samples=samples, alpha=alpha, rng=rng, name=label)
    if not emp.passed:
        raise PrivacyAuditError(f"privacy audit refused {emp.message()}")
    method = "exact+empirical" if Q is not None else "empirical"
    return AuditResult(label, emp.k, emp.epsilon, method, level, emp.lower_bound, samples, True, emp.worst)
