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

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._validation import check_epsilon
from .channel import check_channel_matrix, within_level
from .symmetric_channel import SymmetricChannel

__all__ = ["AuditResult", "PrivacyAuditError", "audit", "clopper_pearson", "empirical_audit", "exact_audit"]

#: Reports drawn per input by default (the order LDP-Auditor uses).
DEFAULT_SAMPLES = 10**6
#: Joint failure probability of the empirical audit's bounds.
DEFAULT_ALPHA = 0.01
#: Largest domain the empirical audit handles.
MAX_AUDIT_K = 128
#: Events chosen on the first half and tested on the second (Bonferroni over these only).
TESTED_EVENTS = 8
#: Excess over epsilon the door's audit (GRR-like sampler, k = 2, 10^6 reports per input,
#: alpha = 0.01) refuses with probability at least 0.8, by budget: measured by
#: ``benchmarks/bench_audit_power.py --seeds 10`` (refused 9/10, 10/10, 10/10 seeds; under load).
DETECTABLE_EXCESS: dict[float, float] = {0.5: 0.01, 1.0: 0.01, 4.0: 0.05}


def power_line(epsilon: float, alpha: float = DEFAULT_ALPHA) -> str:
    """The audit's stated power at ``epsilon``: alpha and the excess caught with probability 0.8."""
    near = min(DETECTABLE_EXCESS, key=lambda e: abs(math.log(e) - math.log(max(epsilon, 1e-9))))
    return (f"alpha = {alpha:g}; an excess of {DETECTABLE_EXCESS[near]:g} over epsilon is caught with "
            f"probability 0.8 (measured at epsilon = {near:g}, k = 2, 10^6 reports per input)")


#: What an event of each view of the empirical audit is a set of (for its one line).
_VIEW_WORDS = {"report": "whole-report bucket(s)", "support bits": "support-bit cell(s)",
               "report byte": "value(s) of one byte of the report"}


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
    alpha: float = DEFAULT_ALPHA
    view: str = "report"

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
                f"{self.lower_bound:.4g} at inputs ({v}, {w}) on an event of {z} {_VIEW_WORDS[self.view]}"
            )
        verdict = "within" if self.passed else "exceeds"
        where = f"{self.name} (k={self.k}, epsilon={self.epsilon:g})"
        power = power_line(self.epsilon, self.alpha)
        return f"{where}: {what}, which {verdict} epsilon = {self.epsilon:g} ({power})"


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

    ``Q`` is a matrix or a :class:`~ldpfair.ldp.symmetric_channel.SymmetricChannel`
    (the compressed form of a channel too large to build, e.g. OLH's at ``epsilon = 10``).

    Returns
    -------
    AuditResult
        ``passed`` when ``eps*(Q) <= epsilon`` (slack of :func:`~ldpfair.ldp.channel.within_level`).
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    if isinstance(Q, SymmetricChannel):  # compressed: two probabilities, any size
        level, worst = Q.level()
        return AuditResult(name, Q.size, epsilon, "exact", level, math.nan, 0,
                           bool(within_level(level, epsilon)), worst)
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


def _bound(num_x: Any, den_x: Any, n_num: Any, n_den: Any, alpha: float) -> np.ndarray:
    """Log of (Clopper-Pearson lower bound of the numerator / upper bound of the denominator)."""
    x, y = np.asarray(num_x, dtype=float), np.asarray(den_x, dtype=float)
    nn, nd = np.broadcast_to(np.asarray(n_num, dtype=float), x.shape), np.broadcast_to(
        np.asarray(n_den, dtype=float), y.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        lo = np.where(x > 0, stats.beta.ppf(alpha, x, nn - x + 1), 0.0)
        hi = np.where(y < nd, stats.beta.ppf(1 - alpha, y + 1, nd - y), 1.0)
        lo, hi = np.nan_to_num(lo, nan=0.0), np.nan_to_num(hi, nan=1.0)
        return np.where(lo > 0, np.log(np.maximum(lo, 1e-300) / np.maximum(hi, 1e-300)), -np.inf)


def buckets_for(k: int) -> int:
    """Buckets of whole-report codes at domain size ``k`` (so that ``k^2 x buckets`` stays near 2e7)."""
    return int(min(4096, max(64, 20_000_000 // (k * k))))


def _wilson(x: np.ndarray, n: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score bounds (closed form; used only to choose events on the first half)."""
    n = np.maximum(n, 1.0)
    ph = x / n
    c = ph + z * z / (2 * n)
    r = z * np.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    d = 1 + z * z / n
    return np.maximum((c - r) / d, 0.0), np.minimum((c + r) / d, 1.0)


def _prefix(
    num: np.ndarray, den: np.ndarray, n_num: Any, n_den: Any, a: float
) -> tuple[np.ndarray, np.ndarray]:
    """Likelihood-ratio prefixes along the last axis: (selection score, the order) per leading index.

    Outputs are ordered by their empirical ratio; the score of each prefix is the
    log ratio of Wilson bounds at level ``a`` (a cheap stand-in for Clopper-Pearson,
    used only for the choice; the tested bound is Clopper-Pearson on the other half).
    """
    order = np.argsort(-((num + 0.5) / (den + 0.5)), axis=-1, kind="stable")
    cn = np.cumsum(np.take_along_axis(num, order, -1), axis=-1).astype(float)
    cd = np.cumsum(np.take_along_axis(den, order, -1), axis=-1).astype(float)
    z = float(stats.norm.isf(a))
    lo, _ = _wilson(cn, np.asarray(n_num, dtype=float)[..., None], z)
    _, hi = _wilson(cd, np.asarray(n_den, dtype=float)[..., None], z)
    with np.errstate(divide="ignore"):
        return np.where(lo > 0, np.log(np.maximum(lo, 1e-300) / np.maximum(hi, 1e-300)), -np.inf), order


def _pair_view(cells: tuple[np.ndarray, ...]) -> np.ndarray:
    """Counts ``c[v, w, x, cell]`` of the two-bit cells (bit v, bit w) under input x in {v (0), w (1)}."""
    n_x, m, r = cells[:3]
    k = n_x.size
    dv = np.diag(m)
    out = np.zeros((k, k, 2, 4), dtype=np.int64)
    # under input v: bits (v, w)
    out[:, :, 0, 0] = r
    out[:, :, 0, 1] = dv[:, None] - r
    out[:, :, 0, 2] = m - r
    out[:, :, 0, 3] = n_x[:, None] - dv[:, None] - m + r
    # under input w: bits (v, w) = (m[w, v], m[w, w]); both = r[w, v]
    rt, mt = r.T, m.T
    out[:, :, 1, 0] = rt
    out[:, :, 1, 1] = mt - rt
    out[:, :, 1, 2] = dv[None, :] - rt
    out[:, :, 1, 3] = n_x[None, :] - mt - dv[None, :] + rt
    return out


def empirical_audit(
    mech: Any,
    epsilon: float,
    *,
    samples: int = DEFAULT_SAMPLES,
    alpha: float = DEFAULT_ALPHA,
    rng: np.random.Generator | None = None,
    name: str | None = None,
    real: Any = None,
    channel: Any = None,
) -> AuditResult:
    """Audit ``mech.perturb`` against ``epsilon`` by sampling (see the module docstring).

    Parameters
    ----------
    mech : object
        A mechanism with ``k``, ``perturb(values, rng)`` and ``support(reports)``.
    epsilon : float
        The budget it claims.
    samples : int
        Reports drawn per input (two independent halves: event choice, then bounds).
    alpha : float
        Joint failure probability of every bound of the audit.
    rng : numpy.random.Generator
        Source of the draws (required: audits are reproducible).
    real : array of int, optional
        A real column of the run's data (values in ``0..k-1``), mixed into the first batch.
    channel : array, optional
        The declared channel, for the consistency test (else the declared ``p``, ``q``).

    Returns
    -------
    AuditResult
        ``lower_bound`` is the largest lower bound over the tested pairs and events.

    Raises
    ------
    PrivacyAuditError
        When the sampler's outputs disagree with its declaration (one line).
    """
    from .audit_events import (
        byte_view,
        check_support,
        consistency,
        empty_cells,
        mixed_batch,
        pair_cells,
        report_codes,
    )

    epsilon = check_epsilon(epsilon, "epsilon")
    if not isinstance(rng, np.random.Generator):
        raise TypeError("rng must be a numpy.random.Generator (audits are seeded explicitly)")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 100:
        raise ValueError(f"samples must be an int >= 100, got {samples!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    k = int(mech.k)
    if k > MAX_AUDIT_K:
        raise ValueError(f"the empirical audit handles k <= {MAX_AUDIT_K} values, got k={k}")
    if real is not None:
        real = np.asarray(real).ravel()
        if real.size and (real.dtype.kind not in "iu" or int(real.min()) < 0 or int(real.max()) >= k):
            raise ValueError(f"real must hold integer codes in [0, {k}) (the domain audited), got "
                             f"{real.dtype} values from {real.min()!r} to {real.max()!r}")
    label = str(name or getattr(mech, "name", type(mech).__name__))
    where = f"{label} (k={k}, epsilon={epsilon:g})"
    half = samples // 2
    nb = buckets_for(k)
    from .channel import ChannelMechanism

    # a channel's reports are its outputs (the whole-report view is exact); others are also read by support
    use_support = not isinstance(mech, ChannelMechanism)
    empty = empty_cells(k)
    views: list[dict[str, Any]] = []
    for h, count in enumerate((half, samples - half)):
        truth = mixed_batch(k, count, rng, real if h == 0 else None)
        reports = mech.perturb(truth, rng)
        codes = report_codes(reports, truth.size)
        cells = pair_cells(mech, reports, truth, k) if use_support else empty
        if h == 0 and use_support:
            try:
                check_support(mech, reports, codes, k)
            except ValueError as exc:
                raise PrivacyAuditError(f"privacy audit refused {where}: {exc}") from None
        if h == 0:
            why = consistency(mech, reports, truth, k, alpha, channel, cells)
            if why is not None:
                raise PrivacyAuditError(
                    f"privacy audit refused {where}: on a shuffled batch mixing every input, {why} "
                    f"(alpha = {alpha:g})"
                )
        bucket = (codes % np.uint64(nb)).astype(np.int64)
        whole = np.bincount(truth * nb + bucket, minlength=k * nb).reshape(k, nb)
        if h == 0:
            bv = byte_view(reports, truth, k)
        else:
            bv = None if views[0]["bytes"] is None else byte_view(reports, truth, k, views[0]["bytes"][1])
        views.append({"n": np.bincount(truth, minlength=k), "whole": whole,
                      "pairs": _pair_view(cells), "bytes": bv})
    A, B = views
    n_a, n_b = A["n"], B["n"]
    # half A: each pair's best likelihood-ratio prefix, on whole reports and on the two support bits
    a_sel = alpha / (2 * k * (k - 1))
    cand: list[tuple[float, str, int, int, np.ndarray]] = []
    for v in range(k):
        others = np.array([w for w in range(k) if w != v])
        num = np.broadcast_to(A["whole"][v], (others.size, nb))
        den = A["whole"][others]
        b, order = _prefix(num, den, n_a[v], n_a[others], a_sel)
        for i, w in enumerate(others):
            j = int(np.argmax(b[i]))
            cand.append((float(b[i, j]), "report", v, int(w), order[i, : j + 1]))
    pv = A["pairs"]
    iv, iw = np.nonzero(~np.eye(k, dtype=bool))
    b, order = _prefix(pv[iv, iw, 0], pv[iv, iw, 1], n_a[iv], n_a[iw], a_sel)
    for i in range(iv.size):
        j = int(np.argmax(b[i]))
        cand.append((float(b[i, j]), "support bits", int(iv[i]), int(iw[i]), order[i, : j + 1]))
    if A["bytes"] is not None:  # one byte column of the report: a likelihood-ratio prefix of its values
        cols = A["bytes"][0]
        b, order = _prefix(cols[iv], cols[iw], n_a[iv][:, None], n_a[iw][:, None], a_sel)
        width = b.shape[2]
        for i in range(iv.size):
            flat = int(np.argmax(b[i]))
            col, j = divmod(flat, width)
            cand.append((float(b[i, col, j]), "report byte", int(iv[i]), int(iw[i]),
                         col * width + order[i, col, : j + 1]))
    # the best events of each view (an overfitted view cannot crowd out the other); the support
    # bits and the report's bytes (two structured views) share half of the events
    chosen = []
    for kinds in (("report",), ("support bits", "report byte")):
        mine = sorted((c for c in cand if c[1] in kinds), key=lambda c: -c[0])
        chosen += mine[: TESTED_EVENTS // 2]
    a = alpha / (2 * len(chosen))  # Bonferroni over the events tested on half B, two bounds each
    best, worst, view = -math.inf, (0, 1, 1), "report"
    for _, kind, v, w, event in chosen:
        if kind == "report":
            x, y = B["whole"][v][event].sum(), B["whole"][w][event].sum()
        elif kind == "report byte":
            x, y = B["bytes"][0][v].ravel()[event].sum(), B["bytes"][0][w].ravel()[event].sum()
        else:
            x, y = B["pairs"][v, w, 0][event].sum(), B["pairs"][v, w, 1][event].sum()
        bound = float(_bound(x, y, n_b[v], n_b[w], a))
        if bound > best:
            best, worst, view = bound, (v, w, int(event.size)), kind
    best = max(best, 0.0)
    return AuditResult(label, k, epsilon, "empirical", math.nan, best, samples, best <= epsilon, worst,
                       alpha=alpha, view=view)


def _declared_ratio(mech: Any) -> Any:
    """The mechanism's own ``worst_case_ratio`` when its class overrides the default, else ``None``.

    The default of :class:`~ldpfair.ldp.FrequencyOracle` assumes a report that is
    a set of independently included values (the unary encodings); it is not a
    declaration by a subclass, whose level is then measured by the empirical audit
    (the documented contract, ``book/adding_a_mechanism.md``).
    """
    from .base import FrequencyOracle

    ratio = getattr(mech, "worst_case_ratio", None)
    if not callable(ratio):
        return None
    own = getattr(type(mech), "worst_case_ratio", None)
    if isinstance(mech, FrequencyOracle) and own is FrequencyOracle.worst_case_ratio \
            and type(mech).__module__.split(".")[0] != "ldpfair":
        return None
    return ratio


def _channel_of(mech: Any) -> Any:
    """The mechanism's channel: its dense ``channel``, else its compressed ``symmetric_channel()``.

    A built-in GRR or local hashing whose dense channel is too large to build
    (``channel`` raises ``ValueError``) gives its compressed form, so its exact
    level is still known (OLH at ``epsilon = 10``: ``g = 22027``).
    """
    try:
        return getattr(mech, "channel", None)
    except ValueError:
        compact = getattr(mech, "symmetric_channel", None)
        if callable(compact):
            return compact()
        raise


def audit(
    mech: Any,
    epsilon: float,
    *,
    samples: int = DEFAULT_SAMPLES,
    alpha: float = DEFAULT_ALPHA,
    rng: np.random.Generator | None = None,
    name: str | None = None,
    channel: Any = None,
    real: Any = None,
) -> AuditResult:
    """Audit a mechanism: exactly from its channel if it has one, and empirically from its sampler.

    The exact audit uses ``channel`` or the mechanism's ``channel`` attribute
    (a ``k x m`` matrix); a mechanism that fails it is refused without sampling.
    Without a channel, a level the class declares (its own ``worst_case_ratio``)
    is checked. The empirical audit runs when ``samples > 0`` (always when there
    is no channel), on shuffled batches mixing every input (and ``real``).

    Raises
    ------
    PrivacyAuditError
        One line naming the worst pair of inputs and the output (or event).
    """
    label = str(name or getattr(mech, "name", type(mech).__name__))
    Q = channel if channel is not None else _channel_of(mech)
    level = math.nan
    if Q is not None:
        ex = exact_audit(Q, epsilon, name=label)
        if mech is not None and getattr(mech, "k", None) is not None:  # a hashed channel is g x g
            ex = dataclasses.replace(ex, k=int(mech.k))
        if not ex.passed:
            raise PrivacyAuditError(f"privacy audit refused {ex.message()}")
        level = ex.level
        if samples == 0:
            return ex
    ratio = _declared_ratio(mech)
    if Q is None and ratio is not None:
        r = float(ratio())
        declared = math.log(r) if r > 0 else math.inf
        if not within_level(declared, epsilon):
            raise PrivacyAuditError(
                f"privacy audit refused {label} (k={mech.k}, epsilon={epsilon:g}): "
                "its declared probabilities "
                f"give a level of {declared:.6g} (worst_case_ratio), which exceeds epsilon = {epsilon:g}"
            )
        level = declared
    emp = empirical_audit(mech, epsilon, samples=samples, alpha=alpha, rng=rng, name=label, real=real,
                          channel=None if isinstance(Q, SymmetricChannel) else Q)
    if not emp.passed:
        raise PrivacyAuditError(f"privacy audit refused {emp.message()}")
    method = "exact+empirical" if Q is not None else "empirical"
    return AuditResult(label, emp.k, emp.epsilon, method, level, emp.lower_bound, samples, True, emp.worst,
                       alpha=alpha, view=emp.view)
