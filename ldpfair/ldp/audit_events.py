r"""What the empirical audit looks at: whole reports, mixed input batches, and the sampler's declarations.

The server receives *reports*, every field of them, not the supports a
mechanism computes from them. This module turns a batch of reports into the
views the audit's events are built on:

* :func:`report_codes`: each report's bytes (every field, every column) hashed
  to a 64-bit code with fixed multipliers, independent of the data, then put in
  one of ``buckets`` buckets; a set of buckets is a set of whole reports, so an
  event on it is an event on what the server receives;
* :func:`pair_cells`: for the supports (checked to be a function of the report
  by :func:`check_support`), the joint counts of the two bits ``(v, w)`` of
  every ordered pair of inputs, the events that are likelihood-ratio optimal
  for GRR, the unary encodings, subset selection and local hashing, cheap at
  ``k = 128``.

:func:`mixed_batch` draws the inputs the audit perturbs: a shuffled batch that
mixes every input (and optionally a real column of data), so a sampler cannot
tell the audit from real use. :func:`consistency` compares the sampler's
outputs with its declared channel (or declared ``p``, ``q``) on that batch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import stats

from ._kernels import pair_counts

__all__ = ["Cells", "byte_columns", "byte_view", "check_support", "consistency", "empty_cells", "mixed_batch",
           "pair_cells", "report_codes", "report_fields"]

_MULT_SEED = 0x5EED_A0D17
#: Relative (rates) or total-variation (channels) gap from the declaration below which a
#: significant difference is not refused (rounding of declared probabilities, hash families).
TOLERANCE = 0.05
#: Users per block when supports or report bytes are materialised.
BLOCK = 1 << 15


def mixed_batch(k: int, n: int, rng: np.random.Generator, real: np.ndarray | None = None) -> np.ndarray:
    """``n`` copies of every input ``0..k-1`` (and the ``real`` values, if given), shuffled."""
    parts = [np.repeat(np.arange(k, dtype=np.int64), n)]
    if real is not None:
        parts.append(np.asarray(real, dtype=np.int64).ravel())
    values = np.concatenate(parts)
    return values[rng.permutation(values.size)]


def report_fields(reports: Any, n: int) -> list[np.ndarray]:
    """The fields of a batch of ``n`` reports as arrays whose first axis is the user.

    Accepts an array ``(n, ...)``, a tuple or named tuple of such arrays, an object
    whose attributes are such arrays, or a list of ``n`` Python objects (each
    pickled). Raises ``ValueError`` (one line) for anything else.
    """
    if isinstance(reports, np.ndarray) and reports.ndim >= 1 and reports.shape[0] == n \
            and reports.dtype != object:
        return [reports]
    if isinstance(reports, tuple) and reports and all(
        isinstance(f, np.ndarray) and f.ndim >= 1 and f.shape[0] == n for f in reports
    ):
        return [np.asarray(f) for f in reports]
    attrs = getattr(reports, "__dict__", None)
    if isinstance(attrs, dict):
        arrays = [v for v in attrs.values() if isinstance(v, np.ndarray) and v.ndim >= 1 and v.shape[0] == n]
        if arrays:
            return arrays
    if isinstance(reports, (list, np.ndarray)) and len(reports) == n:
        import pickle

        blobs = [pickle.dumps(r, protocol=4) for r in reports]
        width = max((len(b) for b in blobs), default=0)
        out = np.zeros((n, width + 4), dtype=np.uint8)
        for i, b in enumerate(blobs):
            out[i, : len(b)] = np.frombuffer(b, dtype=np.uint8)
            out[i, width:] = np.frombuffer(np.uint32(len(b)).tobytes(), dtype=np.uint8)
        return [out]
    raise ValueError(
        f"perturb returned {type(reports).__name__}, which the audit cannot read as {n} reports "
        "(valid: an array with one row per user, a tuple of such arrays, or a list of one object per user)"
    )


def _row_bytes(field: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(field.reshape(field.shape[0], -1))
    if a.dtype == bool:
        a = a.astype(np.uint8)
    return a.view(np.uint8).reshape(a.shape[0], -1)


def report_codes(reports: Any, n: int) -> np.ndarray:
    """A 64-bit code of each report's bytes (every field), from fixed multipliers (data-independent)."""
    fields = report_fields(reports, n)
    code = np.zeros(n, dtype=np.uint64)
    mix = np.random.default_rng(_MULT_SEED)
    for f in fields:
        b = _row_bytes(f)
        mult = mix.integers(1, 2**63, size=b.shape[1], dtype=np.uint64) | np.uint64(1)
        for s in range(0, n, BLOCK):
            part = b[s : s + BLOCK].astype(np.uint64)
            with np.errstate(over="ignore"):
                h = (part * mult).sum(axis=1, dtype=np.uint64)
                code[s : s + BLOCK] = code[s : s + BLOCK] * np.uint64(0x9E3779B97F4A7C15) + h
    with np.errstate(over="ignore"):  # a final avalanche (splitmix64) so buckets spread evenly
        code ^= code >> np.uint64(30)
        code *= np.uint64(0xBF58476D1CE4E5B9)
        code ^= code >> np.uint64(27)
        code *= np.uint64(0x94D049BB133111EB)
        code ^= code >> np.uint64(31)
    return code


#: Largest ``k (k - 1) x byte columns x 256`` of the report-byte view (its selection's array size).
BYTE_VIEW_CELLS = 4_000_000


def byte_columns(reports: Any, n: int) -> np.ndarray:
    """The reports' bytes as an ``(n, C)`` uint8 matrix (every field, every column, in order)."""
    return np.concatenate([_row_bytes(f) for f in report_fields(reports, n)], axis=1)


def byte_view(reports: Any, truth: np.ndarray, k: int, columns: np.ndarray | None = None,
              ) -> tuple[np.ndarray, np.ndarray] | None:
    """Counts ``c[x, j, b]``: reports from input ``x`` whose byte column ``columns[j]`` holds ``b``.

    The view on which a leak through one coordinate of the report (the position
    of a member, a flag, one field) is a likelihood-ratio event even when the
    whole report has too many values for the buckets of :func:`report_codes` (a
    subset in draw order: the true value first). With ``columns=None`` (the first
    half) the columns are those that vary across the batch; ``None`` is returned
    when fewer than two vary (the whole-report view already is that column) or
    when the view is larger than :data:`BYTE_VIEW_CELLS` allows.
    """
    n = truth.size
    data = byte_columns(reports, n)
    if columns is None:
        varying = np.flatnonzero((data != data[:1]).any(axis=0)) if n else np.zeros(0, dtype=np.int64)
        if varying.size < 2 or k * (k - 1) * varying.size * 256 > BYTE_VIEW_CELLS:
            return None
        columns = varying
    c = columns.size
    counts = np.zeros(k * c * 256, dtype=np.int64)
    offs = (np.arange(c, dtype=np.int64) * 256)[None, :]
    for s in range(0, n, BLOCK):
        part = data[s : s + BLOCK][:, columns].astype(np.int64)
        idx = truth[s : s + BLOCK, None] * (c * 256) + offs + part
        counts += np.bincount(idx.ravel(), minlength=k * c * 256)
    return counts.reshape(k, c, 256), columns


def check_support(mech: Any, reports: Any, codes: np.ndarray, k: int) -> None:
    """Check ``support`` is an ``(n, k)`` boolean function of the report; one line otherwise.

    The audit never trusts ``support`` to hide anything (its events are on whole
    reports); this check makes sure events on supports are events on reports too.
    """
    m = min(codes.size, 4096)
    sup = np.asarray(mech.support(_head(reports, codes.size, m)))
    if sup.ndim != 2 or sup.shape[0] != m or sup.shape[1] != k:
        raise ValueError(f"support() of {m} reports has shape {sup.shape}, not ({m}, {k}) "
                         "(one row per report)")
    sup_codes = report_codes(sup.astype(bool), m)
    pairs = np.unique(np.stack([codes[:m], sup_codes], axis=1), axis=0)
    if np.unique(pairs[:, 0]).size != pairs.shape[0]:
        raise ValueError("support() gives different supports to identical reports (it must be a function "
                         "of the report alone)")


def _head(reports: Any, n: int, m: int) -> Any:
    if m == n:
        return reports
    try:
        return reports[:m]
    except Exception:  # noqa: BLE001 - a report type without slicing: the whole batch
        return reports


#: The audit's per-pair counts: ``(n_x, m, r)`` (see :func:`pair_cells`).
Cells = tuple[np.ndarray, np.ndarray, np.ndarray]


def empty_cells(k: int) -> Cells:
    """Cells with no reports (a channel's audit, which reads whole reports only)."""
    zero = np.zeros((k, k), dtype=np.int64)
    return np.zeros(k, dtype=np.int64), zero, zero.copy()


def pair_cells(mech: Any, reports: Any, truth: np.ndarray, k: int) -> Cells:
    """Counts for the two-bit events of every pair: ``(n_x, m, r)``.

    ``n_x[x]`` reports came from input ``x``; ``m[x, u]`` of them support ``u``;
    ``r[x, u]`` support both ``x`` and ``u``. Supports are computed in blocks.
    """
    n = truth.size
    n_x = np.bincount(truth, minlength=k).astype(np.int64)
    m = np.zeros((k, k), dtype=np.int64)
    r = np.zeros((k, k), dtype=np.int64)
    for s in range(0, n, BLOCK):
        part = _slice(reports, s, min(n, s + BLOCK), n)
        sup = np.ascontiguousarray(np.asarray(mech.support(part), dtype=bool))
        t = np.ascontiguousarray(truth[s : s + BLOCK], dtype=np.int64)
        pair_counts(sup.view(np.uint8), t, m, r)
    return n_x, m, r


def _slice(reports: Any, start: int, stop: int, n: int) -> Any:
    if start == 0 and stop == n:
        return reports
    if hasattr(reports, "_fields") and isinstance(reports, tuple):  # a named tuple of arrays
        return type(reports)(*(f[start:stop] for f in reports))
    if isinstance(reports, tuple):
        return tuple(f[start:stop] for f in reports)
    return reports[start:stop]


def _binomial_pvalues(x: np.ndarray, n: int, prob: float) -> np.ndarray:
    """Exact two-sided binomial p-values (twice the smaller tail, at most 1) of counts ``x`` out of ``n``."""
    x = np.asarray(x, dtype=float)
    lower = stats.binom.cdf(x, n, prob)
    upper = stats.binom.sf(x - 1, n, prob)
    return np.minimum(1.0, 2 * np.minimum(lower, upper))


def consistency(
    mech: Any, reports: Any, truth: np.ndarray, k: int, alpha: float, channel: np.ndarray | None,
    cells: Cells | None = None,
) -> str | None:
    """Why the sampler's outputs disagree with its declaration on this batch, or ``None``.

    With a channel (square or not) and integer reports: a chi-square test of each
    input's report histogram against ``Q[v]``. Otherwise, with declared ``p`` and
    ``q``: exact binomial tests of ``P(v in S | v) = p`` and of ``P(u in S | v) = q``
    for each ``u != v`` separately (one membership per report each, so each count
    is exactly binomial; Bonferroni over the ``k - 1`` values ``u``). The ``k - 1``
    memberships of one report are not pooled: they need not be independent (for
    local hashing on consecutive inputs they are positively correlated, and a
    pooled binomial test refused the correct OLH at ``k = 128``, ``epsilon = 4``,
    at p = 4e-11). Bonferroni over the inputs and the two tests; a disagreement
    counts when it is significant and the rate is more than :data:`TOLERANCE`
    (relative) from the declared one.
    """
    a = alpha / (2 * k)
    if channel is not None and isinstance(reports, np.ndarray) and reports.ndim == 1 \
            and np.issubdtype(reports.dtype, np.integer):
        Q = np.asarray(channel, dtype=float)
        if reports.size and (reports.min() < 0 or reports.max() >= Q.shape[1]):
            return f"reports fall outside the channel's {Q.shape[1]} outputs"
        for v in range(k):
            got = np.bincount(reports[truth == v], minlength=Q.shape[1]).astype(float)
            nv = got.sum()
            exp = nv * Q[v]
            if np.any((exp == 0) & (got > 0)):
                z = int(np.flatnonzero((exp == 0) & (got > 0))[0])
                return f"input {v} gave output {z}, which its declared channel gives probability 0"
            keep = exp > 0
            stat = float(((got[keep] - exp[keep]) ** 2 / exp[keep]).sum())
            pval = float(stats.chi2.sf(stat, max(int(keep.sum()) - 1, 1)))
            gap = float(np.abs(got / max(nv, 1) - Q[v]).sum()) / 2
            if pval < a and gap > TOLERANCE:
                return (f"input {v}'s reports do not follow its declared channel row "
                        f"(chi-square p = {pval:.2g}, total variation {gap:.3g})")
        return None
    try:
        p, q = float(mech.p), float(mech.q)
    except Exception:  # noqa: BLE001 - no declared probabilities: nothing to compare
        return None
    if not (math.isfinite(p) and math.isfinite(q)):
        return None
    n_x, m, _ = cells if cells is not None else pair_cells(mech, reports, truth, k)
    for v in range(k):
        nv = int(n_x[v])
        if nv == 0:
            continue
        own = int(m[v, v])
        pval = float(stats.binomtest(own, nv, min(max(p, 0.0), 1.0)).pvalue)
        if pval < a and abs(own / nv - p) > TOLERANCE * max(p, 1e-12):
            return (f"input {v}'s supports hold it at rate {own / nv:.4g}, not the declared p = {p:.4g} "
                    f"(binomial p = {pval:.2g})")
        others = np.delete(m[v], v)
        pvals = _binomial_pvalues(others, nv, min(max(q, 0.0), 1.0)) * (k - 1)
        rates = others / nv
        bad = (pvals < a) & (np.abs(rates - q) > TOLERANCE * max(q, 1e-12))
        if np.any(bad):
            j = int(np.argmin(np.where(bad, pvals, np.inf)))
            u = j + (j >= v)
            return (f"input {v}'s supports hold value {u} at rate {rates[j]:.4g}, not the declared "
                    f"q = {q:.4g} (binomial p = {min(float(pvals[j]), 1.0):.2g}, Bonferroni over the "
                    f"{k - 1} other values)")
    return None
