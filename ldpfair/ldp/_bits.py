r"""Exact Bernoulli bits and bounded integers from raw 64-bit words.

The dense protocols (unary encodings, THE's sets, subset selection) need many
Bernoulli draws per user. Drawing them as ``rng.random(..) < q`` costs one
float per bit. This module draws raw uniform 64-bit words with the caller's
generator (``rng.integers(0, 2**64, dtype=uint64)``, i.e. the bit generator's
``next_uint64`` copied out, for every bit generator) and turns them into bits
in numba kernels that never draw anything themselves.

Bernoulli(q) as an integer comparison
    ``T = threshold(q) = floor(q 2^64)`` is computed exactly with
    :class:`fractions.Fraction`; for a uniform 64-bit ``u``,
    ``P(u < T) = T / 2^64`` and ``|T / 2^64 - q| < 2^-64`` (finer than
    ``rng.random() < q``, whose resolution is ``2^-53``).

Bit-sliced lazy comparison (64 bits per word)
    ``u < T`` is decided by the first bit, from the top, where ``u`` and ``T``
    differ. The 64 lanes of a result word each compare their own ``u`` with
    ``T``: the ``j``-th raw word supplies bit ``63 - j`` of all 64 ``u`` at
    once, and a lane is settled (to ``T``'s bit) at its first differing bit.
    Drawing stops when every lane is settled, or when the remaining bits of
    ``T`` are all zero (then every unsettled lane has ``u >= T``). Each lane
    therefore sees exactly the law of a full comparison of an independent
    uniform 64-bit ``u`` with ``T``, and the lanes are independent (distinct
    bits of independent words). It costs about 7.35 raw words per 64 bits
    (the expected maximum of 64 Geometric(1/2) variables) instead of 64.

Bounded integers (Lemire's multiply-shift with rejection)
    A uniform integer in ``[0, s)`` from a 32-bit half ``x``: ``m = x s``,
    result ``m >> 32``, rejecting (and redrawing) while ``m mod 2^32 < 2^32 mod s``;
    exactly uniform.

Buffers
    Kernels consume a pre-drawn word buffer from a position and stop, returning
    their position, when the buffer may not hold the next unit of work; the
    Python driver then draws a fresh buffer (left-over words are discarded,
    which does not depend on their values, so the law is unchanged).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numba
import numpy as np

__all__ = [
    "TWO64",
    "member_dtype",
    "threshold",
    "threshold_bits",
    "expected_words",
    "raw_words",
    "bernoulli_bits",
    "BitSampler",
    "fill_bernoulli",
    "set_true_bits",
    "uniform_ints",
]

#: ``2**64``: the number of values of a raw word.
TWO64 = 1 << 64

#: Users handled per block (a multiple of 64 so blocks start on word boundaries).
BLOCK = 1 << 14



def threshold(q: float) -> int:
    """Exact integer threshold ``T = floor(q 2^64)`` of a probability.

    Parameters
    ----------
    q : float
        Probability in ``[0, 1]``.

    Returns
    -------
    int
        ``T`` in ``[0, 2^64]``; ``P(u < T) = T / 2^64`` for a uniform 64-bit ``u``,
        within ``2^-64`` of ``q`` (``T = 2^64`` only for ``q = 1``).
    """
    if isinstance(q, bool) or not isinstance(q, (float, int, np.floating, np.integer)):
        raise TypeError(f"q must be a real number, got {type(q).__name__}")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"q must be a probability in [0, 1], got {q!r}")
    frac = Fraction(float(q)) * TWO64
    return frac.numerator // frac.denominator


def threshold_bits(t: int) -> tuple[np.ndarray, bool]:
    """Bits of ``T`` from the top down to its lowest set bit, and the ``T = 2^64`` flag.

    Parameters
    ----------
    t : int
        Threshold in ``[0, 2^64]`` (see :func:`threshold`).

    Returns
    -------
    bits : numpy.ndarray of uint8
        ``bits[j]`` is bit ``63 - j`` of ``T``; empty for ``T = 0`` or ``2^64``.
    full : bool
        Whether ``T = 2^64`` (probability one).
    """
    if not 0 <= t <= TWO64:
        raise ValueError(f"threshold must be in [0, 2**64], got {t}")
    if t in (0, TWO64):
        return np.zeros(0, dtype=np.uint8), t == TWO64
    low = (t & -t).bit_length() - 1  # index of the lowest set bit
    bits = np.array([(t >> j) & 1 for j in range(63, low - 1, -1)], dtype=np.uint8)
    return bits, False


def expected_words(n_bits: int) -> float:
    """Expected raw words per 64-lane result word for a threshold with ``n_bits`` bits.

    ``sum_{j < n_bits} (1 - (1 - 2^-j)^64)``: the lanes still unsettled after
    ``j`` words are those whose ``j`` bits all matched ``T``.
    """
    return float(sum(1.0 - (1.0 - 2.0**-j) ** 64 for j in range(n_bits)))


def raw_words(rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` independent uniform 64-bit words from ``rng`` (uint64).

    ``integers(0, 2**64)`` copies the bit generator's ``next_uint64`` (also for
    32-bit generators such as MT19937, whose ``random_raw`` is 32-bit).
    """
    return rng.integers(0, TWO64, size=size, dtype=np.uint64)


def _buffer_size(units: int, per_unit: float, sd_per_unit: float, minimum: int) -> int:
    """Words to draw for ``units`` units of work: mean + 6 sd + the per-unit maximum."""
    return int(units * per_unit + 6.0 * sd_per_unit * math.sqrt(units) + 2 * minimum + 64)


# ---------------------------------------------------------------------------
# numba kernels (deterministic: they only consume the words passed in)
# ---------------------------------------------------------------------------

_ALL = ~np.uint64(0)


def _make_lut() -> np.ndarray:
    """``lut[b]``: the 8 bits of byte ``b`` spread to 8 bytes (little-endian)."""
    lut = np.zeros(256, dtype=np.uint64)
    for b in range(256):
        v = 0
        for t in range(8):
            if (b >> t) & 1:
                v |= 1 << (8 * t)
        lut[b] = v
    return lut


_LUT = _make_lut()


@numba.njit(cache=True, nogil=True, inline="always")
def _bernoulli_word(raw, pos, tmask, full):  # pragma: no cover - compiled
    """64 independent Bernoulli(T / 2^64) bits by the bit-sliced lazy comparison.

    ``tmask[j]`` is all ones where bit ``63 - j`` of ``T`` is one. Lanes whose
    bit differs from ``T``'s (``d``) are settled to ``T``'s bit. The first four
    words are always consumed (all lanes settle earlier with probability
    ``< 2^-12``; consuming unused words does not change the law).
    """
    if full:
        return ~np.uint64(0), pos
    need = tmask.shape[0]
    res = np.uint64(0)
    und = ~np.uint64(0)
    j = 0
    lim = min(4, need)
    while j < lim:
        tb = tmask[j]
        d = raw[pos + j] ^ tb
        res |= und & d & tb
        und &= ~d
        j += 1
    while und != 0 and j < need:
        tb = tmask[j]
        d = raw[pos + j] ^ tb
        res |= und & d & tb
        und &= ~d
        j += 1
    return res, pos + j


@numba.njit(cache=True, nogil=True)
def _fill_kernel(out64, g, g_end, raw, pos, tmask, full, lut):  # pragma: no cover - compiled
    """Fill result words ``g .. g_end - 1`` (8 bool bytes per uint64 of ``out64``)."""
    need = tmask.shape[0]
    n_raw = raw.shape[0]
    m8 = np.uint64(255)
    while g < g_end and n_raw - pos >= need:
        w, pos = _bernoulli_word(raw, pos, tmask, full)
        base = g * 8
        for b in range(8):
            out64[base + b] = lut[(w >> np.uint64(8 * b)) & m8]
        g += 1
    return g, pos


@numba.njit(cache=True, nogil=True)
def _true_kernel(flat, values, k, i, i_end, raw, pos, tmask, full):  # pragma: no cover - compiled
    """Set ``flat[u k + values[u]]`` to a Bernoulli bit for users ``i .. i_end - 1`` (64 a word)."""
    need = tmask.shape[0]
    n_raw = raw.shape[0]
    one = np.uint64(1)
    while i < i_end and n_raw - pos >= need:
        w, pos = _bernoulli_word(raw, pos, tmask, full)
        cnt = min(64, i_end - i)
        for t in range(cnt):
            u = i + t
            flat[u * k + values[u]] = ((w >> np.uint64(t)) & one) != 0
        i += 64
    return i, pos


@numba.njit(cache=True, nogil=True, inline="always")
def _lemire(raw, pos, s, bits):  # pragma: no cover - compiled
    """Uniform integer on ``[0, s)`` from ``bits``-bit raw parts; ``-1`` if the buffer ran out.

    ``m = x s``; accept when ``m mod 2^bits >= 2^bits mod s`` (tested only when
    ``m mod 2^bits < s``), result ``m >> bits``. The buffer may be exhausted on
    entry (``pos == n``): a subset user whose earlier draws were rejected reaches
    its last draws past the ``omega + 64 / bits`` parts its kernel checked for.
    """
    n = raw.shape[0]
    if pos >= n:
        return np.int64(-1), pos
    su = np.uint64(s)
    sh = np.uint64(bits)
    mask = (np.uint64(1) << sh) - np.uint64(1)
    m = np.uint64(raw[pos]) * su
    pos += 1
    if (m & mask) < su:
        t = ((mask - su) + np.uint64(1)) % su  # 2^bits mod s
        while (m & mask) < t:
            if pos >= n:
                return np.int64(-1), pos
            m = np.uint64(raw[pos]) * su
            pos += 1
    return np.int64(m >> sh), pos


@numba.njit(cache=True, nogil=True)
def _uniform_kernel(out, i, raw, pos, s, bits):  # pragma: no cover - compiled
    """Fill ``out[i:]`` with uniform integers on ``[0, s)``; stop when the buffer runs out."""
    n = out.shape[0]
    n_raw = raw.shape[0]
    while i < n and pos < n_raw:
        x, pos = _lemire(raw, pos, s, bits)
        if x < 0:
            return i, n_raw
        out[i] = x
        i += 1
    return i, pos


# ---------------------------------------------------------------------------
# Python drivers
# ---------------------------------------------------------------------------


class BitSampler:
    """Bernoulli(q) by the bit-sliced comparison: threshold bits, ``T = 2^64`` flag, costs.

    Parameters
    ----------
    q : float
        Probability of a one, in ``[0, 1]``; the exact law is ``threshold(q) / 2^64``.
    """

    def __init__(self, q: float) -> None:
        self.q = float(q)
        self.t = threshold(q)
        self.tbits, self.full = threshold_bits(self.t)
        self.tmask = np.where(self.tbits == 1, ~np.uint64(0), np.uint64(0)).astype(np.uint64)
        self.need = int(self.tbits.shape[0])
        self.per_word = expected_words(self.need)

    def buffer(self, words: int) -> int:
        """Raw words to draw for ``words`` result words (sd of one result word < 2)."""
        return _buffer_size(words, self.per_word, 2.0, self.need)


def fill_bernoulli(
    flat64: np.ndarray, g: int, g_end: int, sampler: BitSampler, rng: np.random.Generator
) -> None:
    """Fill result words ``g .. g_end - 1`` of the bool-bytes buffer ``flat64`` (uint64 view).

    Result word ``w`` covers bool bytes ``64 w .. 64 w + 63``.
    """
    if sampler.t == 0:
        flat64[8 * g : 8 * g_end] = 0
        return
    raw = np.zeros(0, dtype=np.uint64)
    pos = 0
    while g < g_end:
        if sampler.need and raw.shape[0] - pos < sampler.need:
            raw = raw_words(rng, sampler.buffer(g_end - g))
            pos = 0
        g, pos = _fill_kernel(flat64, g, g_end, raw, pos, sampler.tmask, sampler.full, _LUT)


def set_true_bits(
    flat: np.ndarray,
    values: np.ndarray,
    k: int,
    i: int,
    i_end: int,
    sampler: BitSampler,
    rng: np.random.Generator,
) -> None:
    """Set ``flat[u k + values[u]] ~ Bernoulli(p)`` for users ``i .. i_end - 1`` (``i`` a multiple of 64)."""
    raw = np.zeros(0, dtype=np.uint64)
    pos = 0
    while i < i_end:
        if sampler.need and raw.shape[0] - pos < sampler.need:
            raw = raw_words(rng, sampler.buffer(-(-(i_end - i) // 64)))
            pos = 0
        i, pos = _true_kernel(flat, values, k, i, i_end, raw, pos, sampler.tmask, sampler.full)


def bernoulli_bits(size: int, q: float, rng: np.random.Generator) -> np.ndarray:
    """``size`` i.i.d. Bernoulli(``threshold(q) / 2^64``) bits (bool) by the bit-sliced comparison.

    Parameters
    ----------
    size : int
        Number of bits.
    q : float
        Probability of a one.
    rng : numpy.random.Generator
        Source of the raw words.

    Returns
    -------
    numpy.ndarray of bool, shape (size,)
    """
    n_words = -(-size // 64)
    buf = np.empty(8 * n_words, dtype=np.uint64)
    fill_bernoulli(buf, 0, n_words, BitSampler(q), rng)
    return buf.view(bool)[:size]


def _part_bits(s: int) -> int:
    """Width of the raw parts for ranges up to ``s``: 16 bits if ``s <= 2^12``, else 32."""
    return 16 if s <= 1 << 12 else 32


def _parts(words: np.ndarray, bits: int) -> np.ndarray:
    """View raw 64-bit words as ``bits``-bit parts."""
    return words.view(np.uint16 if bits == 16 else np.uint32)


def uniform_ints(
    s: int, size: int, rng: np.random.Generator, *, bits: int | None = None, buffer_words: int | None = None
) -> np.ndarray:
    """``size`` uniform integers on ``[0, s)`` by Lemire's method on raw parts (int64).

    The sampler :func:`draw_subsets` uses, exposed for testing.

    Parameters
    ----------
    s : int
        Range, in ``[1, 2^bits]``.
    size : int
        Number of draws.
    rng : numpy.random.Generator
        Source of the raw words.
    bits : {16, 32}, optional
        Width of the raw parts (default: 16 for ``s <= 2^12``, else 32).
    buffer_words : int, optional
        Raw words per buffer (default: enough for all draws); small values
        exercise the refill path.

    Returns
    -------
    numpy.ndarray of int64, shape (size,)
    """
    bits = _part_bits(s) if bits is None else bits
    if bits not in (16, 32):
        raise ValueError(f"bits must be 16 or 32, got {bits!r}")
    if not 1 <= s <= 1 << bits:
        raise ValueError(f"s must be in [1, 2**{bits}], got {s}")
    per_word = 64 // bits
    out = np.empty(size, dtype=np.int64)
    i, pos = 0, 0
    raw = _parts(np.zeros(0, dtype=np.uint64), bits)
    while i < size:
        if pos >= raw.shape[0]:
            words = buffer_words or _buffer_size(-(-(size - i) // per_word), 1.0, 0.5, 1)
            raw = _parts(raw_words(rng, words), bits)
            pos = 0
        i, pos = _uniform_kernel(out, i, raw, pos, s, bits)
    return out


def member_dtype(k: int) -> np.dtype:
    """Smallest unsigned integer dtype that holds the codes ``0 .. k - 1``."""
    for dt in (np.uint8, np.uint16, np.uint32):
        if k - 1 <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.int64)
