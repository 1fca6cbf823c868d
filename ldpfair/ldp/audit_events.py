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

__all__ = ["Cells", "check_support", "consistency", "empty_cells", "mixed_batch", "pair_cells",
           "report_codes", "report_fields"]

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


#: The audit's per-pair counts: ``(n_x, m, r, y2)`` (see :func:`pair_cells`).
Cells = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def empty_cells(k: int) -> Cells:
    """Cells with no reports (a channel's audit, which reads whole reports only)."""
    zero = np.zeros((k, k), dtype=np.int64)
    return np.zeros(k, dtype=np.int64), zero, zero.copy(), np.zeros(k, dtype=np.int64)


def pair_cells(mech: Any, reports: Any, truth: np.ndarray, k: int) -> Cells:
    """Counts for the two-bit events of every pair: ``(n_x, m, r, y2)``.

    ``n_x[x]`` reports came from input ``x``; ``m[x, u]`` of them support ``u``;
    ``r[x, u]`` support both ``x`` and ``u``; ``y2[x]`` is the sum over those
    reports of the squared number of *other* values they support (the second
    moment that :func:`consistency` needs: a report's memberships are not
    independent). Supports are computed in blocks.
    """
    n = truth.size
    n_x = np.bincount(truth, minlength=k).astype(np.int64)
    m = np.zeros((k, k), dtype=np.int64)
    r = np.zeros((k, k), dtype=np.int64)
    y2 = np.zeros(k, dtype=np.int64)
    for s in range(0, n, BLOCK):
        part = _slice(reports, s, min(n, s + BLOCK), n)
        sup = np.asarray(mech.support(part), dtype=bool)
        t = truth[s : s + BLOCK]
        onehot = np.zeros((t.size, k), dtype=np.float32)
        onehot[np.arange(t.size), t] = 1.0
        supf = sup.astype(np.float32)
        m += np.rint(onehot.T @ supf).astype(np.int64)
        own = sup[np.arange(t.size), t]
        r += np.rint((onehot * own[:, None].astype(np.float32)).T @ supf).astype(np.int64)
        others = sup.sum(axis=1, dtype=np.int64) - own
        y2 += np.bincount(t, weights=(others * others).astype(np.float64), minlength=k).astype(np.int64)
    return n_x, m, r, y2


def _slice(reports: Any, start: int, stop: int, n: int) -> Any:
    if start == 0 and stop == n:
        return reports
    if hasattr(reports, "_fields") and isinstance(reports, tuple):  # a named tuple of arrays
        return type(reports)(*(f[start:stop] for f in reports))
    if isinstance(reports, tuple):
        return tuple(f[start:stop] for f in reports)
    return reports[start:stop]


def _other_rate_pvalue(total: float, y2: float, n: int, k: int, q: float) -> float:
    """Two-sided p-value of ``E[Y] = (k - 1) q`` from ``n`` reports' other-value counts ``Y``.

    ``total`` and ``y2`` are the sum and the sum of squares of ``Y``. The test is a
    z-test on the mean with the sample variance: the reports are independent,
    their ``k - 1`` memberships are not. (A binomial test over ``n (k - 1)``
    memberships assumes they are: for local hashing on consecutive inputs they are
    positively correlated, a variance 2-5 times the binomial one at ``k = 128``,
    ``epsilon = 4``, and it refused the correct OLH at p = 4e-11.)
    """
    mean = total / n
    var = max(y2 / n - mean * mean, 0.0) * n / max(n - 1, 1)
    diff = mean - (k - 1) * q
    if var == 0.0:
        return 1.0 if abs(diff) <= 1e-9 * max(1.0, abs(mean)) else 0.0
    return float(2 * stats.norm.sf(abs(diff) / math.sqrt(var / n)))


def consistency(
    mech: Any, reports: Any, truth: np.ndarray, k: int, alpha: float, channel: np.ndarray | None,
    cells: Cells | None = None,
) -> str | None:
    """Why the sampler's outputs disagree with its declaration on this batch, or ``None``.

    With a channel (square or not) and integer reports: a chi-square test of each
    input's report histogram against ``Q[v]``. Otherwise, with declared ``p`` and
    ``q``: a binomial test of ``P(v in S | v) = p`` (one membership per report)
    and a z-test, with the sample variance, of the mean number of other values a
    report supports, ``(k - 1) q`` (:func:`_other_rate_pvalue`). Bonferroni over
    the inputs and the two tests; a disagreement counts when it is significant and
    the rate is more than :data:`TOLERANCE` (relative) from the declared one.
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
    n_x, m, _, y2 = cells if cells is not None else pair_cells(mech, reports, truth, k)
    own = np.diag(m).astype(float)
    other = (m.sum(axis=1) - np.diag(m)).astype(float)
    for v in range(k):
        for got, trials, prob, what in ((own[v], n_x[v], p, "p"), (other[v], n_x[v] * (k - 1), q, "q")):
            if trials == 0:
                continue
            if what == "p":
                pval = float(stats.binomtest(int(got), int(trials), min(max(prob, 0.0), 1.0)).pvalue)
                test = "binomial"
            else:
                pval = _other_rate_pvalue(got, float(y2[v]), int(n_x[v]), k, prob)
                test = "z-test on the reports' counts"
            if pval < a and abs(got / trials - prob) > TOLERANCE * max(prob, 1e-12):
                return (f"input {v}'s supports hold {'it' if what == 'p' else 'other values'} at rate "
                        f"{got / trials:.4g}, not the declared {what} = {prob:.4g} ({test} p = {pval:.2g})")
    return None
