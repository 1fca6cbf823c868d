"""numba kernels shared by the protocols.

Every kernel is deterministic: random numbers are drawn outside with the
caller's :class:`numpy.random.Generator` and passed in, so numba's own global
RNG (which numpy seeding does not control) is never used. The raw-word
samplers of the unary encodings and subset selection are in :mod:`._bits`.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = [
    "grr_fill",
    "grr_fill_raw",
    "codes_in_range",
    "grr_from_uniforms",
    "channel_from_uniforms",
    "column_counts",
    "lh_support",
]


#: ``2**-53``: a 53-bit integer times this is a double in [0, 1), as numpy's ``next_double``.
TWO_M53 = 1.0 / 9007199254740992.0


@numba.njit(cache=True, nogil=True, inline="always")
def _grr_one(v, ui, p, scale, top):  # pragma: no cover - compiled
    """Keep ``v`` if ``ui < p``, else the other value ``floor((ui - p) scale)`` shifted past ``v``.

    Both outcomes are computed and one is selected without a branch: when p is
    near 1/2 (k = 2, small epsilon) a branch would be mispredicted half the time.
    """
    o = min(max(np.int64((ui - p) * scale), 0), top)
    o += o >= v
    return v if ui < p else o


@numba.njit(cache=True, nogil=True)
def grr_fill(values, u, p, k, out, start):  # pragma: no cover - compiled
    """GRR for users ``start .. start + len(u) - 1`` from one uniform each, into ``out``.

    Keep if ``u < p``, else a uniform other value: given ``u >= p``,
    ``(u - p) / (1 - p)`` is uniform on [0, 1), so a second draw is not needed;
    the other value is ``floor(.. * (k - 1))`` shifted past the true value.
    """
    scale = (k - 1) / (1.0 - p) if p < 1.0 else 0.0
    for t in range(u.shape[0]):
        out[start + t] = _grr_one(values[start + t], u[t], p, scale, k - 2)


@numba.njit(cache=True, nogil=True)
def grr_fill_raw(values, raw, p, k, out, start):  # pragma: no cover - compiled
    """:func:`grr_fill` from raw 64-bit words: the uniform is ``(word >> 11) 2^-53``.

    That is numpy's ``next_double`` of the 64-bit bit generators (PCG64,
    PCG64DXSM, SFC64, Philox), so the reports equal those of ``rng.random``.
    """
    scale = (k - 1) / (1.0 - p) if p < 1.0 else 0.0
    sh = np.uint64(11)
    for t in range(raw.shape[0]):
        ui = np.float64(raw[t] >> sh) * TWO_M53
        out[start + t] = _grr_one(values[start + t], ui, p, scale, k - 2)


@numba.njit(cache=True, nogil=True)
def codes_in_range(values, k):  # pragma: no cover - compiled
    """Whether every entry of the integer array ``values`` lies in ``[0, k)`` (one pass)."""
    ok = True
    for i in range(values.shape[0]):
        v = values[i]
        ok &= (v >= 0) & (v < k)
    return ok


@numba.njit(cache=True, nogil=True)
def grr_from_uniforms(values, u, p, k):  # pragma: no cover - compiled
    """GRR of every user from one uniform each (:func:`grr_fill` on a fresh int64 array)."""
    out = np.empty(values.shape[0], dtype=np.int64)
    grr_fill(values, u, p, k, out, 0)
    return out


#: Rows summed in a uint8 accumulator before it is flushed to the int64 counts.
COUNT_ROWS = 255


@numba.njit(cache=True, nogil=True)
def column_counts(bits, counts):  # pragma: no cover - compiled
    """Add the column sums of the 0/1 byte matrix ``bits`` (n x k, uint8 view of bool) to ``counts``.

    Rows are summed :data:`COUNT_ROWS` at a time in a uint8 accumulator (which
    cannot overflow: ``255`` rows of 0/1), a loop over bytes that the compiler
    vectorises, then added to the int64 ``counts``.
    """
    n, k = bits.shape
    acc = np.zeros(k, dtype=np.uint8)
    i = 0
    while i < n:
        stop = min(n, i + COUNT_ROWS)
        for r in range(i, stop):
            for j in range(k):
                acc[j] += bits[r, j]
        for j in range(k):
            counts[j] += acc[j]
            acc[j] = 0
        i = stop
    return counts


@numba.njit(cache=True, nogil=True)
def channel_from_uniforms(values, u, cdf):  # pragma: no cover - compiled
    """Inverse-CDF sampling of ``Z | A = values[i]`` from the row CDFs ``cdf``."""
    n = values.shape[0]
    m = cdf.shape[1]
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        row = values[i]
        ui = u[i]
        z = m - 1
        for j in range(m):
            if ui < cdf[row, j]:
                z = j
                break
        out[i] = z
    return out


@numba.njit(cache=True, nogil=True)
def lh_support(a, b, z, k, prime, g):  # pragma: no cover - compiled
    """Indicator matrix ``S[i, x] = (H_i(x) == z_i)`` for every ``x`` in ``[k]``."""
    n = a.shape[0]
    out = np.zeros((n, k), dtype=np.bool_)
    for i in range(n):
        ai = a[i]
        bi = b[i]
        zi = z[i]
        for x in range(k):
            if ((ai * x + bi) % prime) % g == zi:
                out[i, x] = True
    return out

