"""Generalised randomised response (GRR, also called k-RR or direct encoding)."""

from __future__ import annotations

import math

import numpy as np

from .._validation import as_array, check_rng
from ..encoding import one_hot as _one_hot
from . import _pcg
from ._kernels import codes_in_range, grr_fill, grr_fill_pcg64, grr_fill_raw
from .base import FrequencyOracle, ratio_or_inf
from .symmetric_channel import SymmetricChannel

__all__ = ["GRR", "one_hot", "keep_threshold", "GRR_BLOCK", "PCG64_MIN_USERS"]

#: Users per block of :meth:`GRR.perturb`: their uniforms (128 KiB) stay in the cache
#: and the buffer is reused, instead of an n-sized float array of fresh pages.
GRR_BLOCK = 1 << 14

#: Bit generators whose ``random()`` is ``(next_uint64 >> 11) 2^-53``: for them GRR reads
#: the raw words (``random_raw``) and converts them itself, the same doubles for less work.
RAW_DOUBLE_BITGENS = (np.random.PCG64, np.random.PCG64DXSM, np.random.SFC64, np.random.Philox)

#: From this many users on, a ``PCG64`` stream is generated inside the kernel
#: (:mod:`ldpfair.ldp._pcg`: the same words, no buffer of fresh pages); below it the
#: fixed cost of reading and writing the generator's state is not worth it.
PCG64_MIN_USERS = 256

#: Words per pass of the in-kernel PCG64 (a 16 KiB buffer that stays in L1).
PCG64_WORDS = 2048


def keep_threshold(p: float) -> int:
    """``ceil(p 2^53)``: for a 53-bit integer ``w``, ``w 2^-53 < p`` exactly when ``w < ceil(p 2^53)``.

    ``p 2^53`` is exact in floating point (a power-of-two scaling of ``p`` in
    ``[0, 1]``), so the integer test is the float test of ``Generator.random() < p``.
    """
    return math.ceil(p * 2.0**53)


def one_hot(values: np.ndarray, k: int) -> np.ndarray:
    """Return the ``n x k`` boolean one-hot matrix of integer codes ``values``.

    The server-side encoding of value-reporting mechanisms; the boolean form of
    :func:`ldpfair.encoding.one_hot`.
    """
    return _one_hot(values, k, dtype=bool, name="values")


class GRR(FrequencyOracle):
    """Generalised randomised response (Kairouz et al. 2016; Wang et al. 2017).

    A user with value ``v`` reports ``v`` with probability
    ``p = e^eps / (e^eps + k - 1)`` and every other value with probability
    ``q = 1 / (e^eps + k - 1)``. Reports are integer codes in ``[0, k)``.

    ``k`` may be very large (the combined collection uses the product domain):
    nothing of size ``k`` is allocated except by :attr:`channel` and
    :meth:`support`.

    Parameters
    ----------
    k : int
        Domain size, ``2 <= k <= 2**53`` (floating-point exact sampling).
    epsilon : float
        Privacy budget, finite and ``> 0``.
    """

    name = "GRR"
    reports_are_values = True

    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon)
        if self.k > 2**53:
            raise ValueError(f"k must be <= 2**53 for GRR sampling, got {self.k}")
        # e^eps / (e^eps + k - 1) computed stably for large eps.
        self._p = 1.0 / (1.0 + (self.k - 1) * math.exp(-self.epsilon))
        self._q = math.exp(-self.epsilon) * self._p

    @property
    def p(self) -> float:
        """``e^eps / (e^eps + k - 1)``."""
        return self._p

    @property
    def q(self) -> float:
        """``1 / (e^eps + k - 1)``."""
        return self._q

    @property
    def channel(self) -> np.ndarray:
        """The exact ``k x k`` channel ``Q[v, z] = P(Z = z | V = v)``."""
        if self.k > 4096:
            raise ValueError(f"channel is a dense k x k matrix; refusing k={self.k} > 4096 "
                             "(symmetric_channel() is its compressed form)")
        mat = np.full((self.k, self.k), self.q)
        np.fill_diagonal(mat, self.p)
        return mat

    def symmetric_channel(self) -> SymmetricChannel:
        """The channel in compressed form (any ``k``): ``p`` on the diagonal, ``q`` elsewhere."""
        return SymmetricChannel(self.k, self.p, self.q)

    def worst_case_ratio(self) -> float:
        """``p / q = e^eps`` (tight)."""
        return ratio_or_inf(self.p, self.q)

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return the perturbed codes (int64, shape (n,)); one uniform per user.

        The uniforms are drawn in blocks of :data:`GRR_BLOCK` users (cache-sized,
        instead of an n-sized float array of fresh pages); ``Generator.random``
        fills an array element by element from the stream, so the blocks consume
        it exactly as one draw of ``n`` uniforms. For ``PCG64`` (``default_rng``)
        and at least :data:`PCG64_MIN_USERS` users the words are generated in the
        kernel itself (:mod:`ldpfair.ldp._pcg`, bit-identical to ``random_raw``,
        the generator left in the same state). For the other bit generators of
        :data:`RAW_DOUBLE_BITGENS` the block is drawn as raw words and converted
        in the kernel exactly as ``random`` does; others (MT19937) fill one reused
        float buffer with ``random(out=...)``.
        """
        arr = as_array(values, "values")
        fast = arr.ndim == 1 and arr.dtype == np.int64 and arr.flags.c_contiguous
        n = arr.shape[0] if fast else 0
        if n >= PCG64_MIN_USERS and isinstance(rng, np.random.Generator) and _pcg.is_pcg64(rng):
            # the codes are range-checked in the kernel's pass; the state is stored only if they are valid
            out = np.empty(n, dtype=np.int64)
            state, words = _pcg.read_state(rng)
            lane = _pcg.lane_constants(state["state"]["inc"])
            word_buf = np.empty(min(n, PCG64_WORDS), dtype=np.uint64)
            if grr_fill_pcg64(arr, out, self.p, keep_threshold(self.p), self.k, words, lane, word_buf):
                _pcg.write_state(rng, state, words)
                return out
            self._check_values(values)  # raises: a code is outside [0, k)
            raise AssertionError("unreachable: the kernel found a code outside [0, k)")  # pragma: no cover
        # one fused pass for the common case; anything else is checked (and any error
        # raised) by the common validation
        values = arr if fast and codes_in_range(arr, self.k) else self._check_values(values)
        rng = check_rng(rng)
        n = values.shape[0]
        out = np.empty(n, dtype=np.int64)
        raw = type(rng.bit_generator) in RAW_DOUBLE_BITGENS
        buf: np.ndarray | None = None if raw else np.empty(min(n, GRR_BLOCK))
        for start in range(0, n, GRR_BLOCK):
            m = min(n - start, GRR_BLOCK)
            if raw:
                grr_fill_raw(values, rng.bit_generator.random_raw(m), self.p, self.k, out, start)
            else:
                assert buf is not None  # for mypy: allocated above unless raw
                u = buf[:m]
                rng.random(out=u)
                grr_fill(values, u, self.p, self.k, out, start)
        return out

    def support(self, reports: np.ndarray) -> np.ndarray:
        """One-hot encoding of the reported codes."""
        reports = self._check_values_reports(reports)
        return one_hot(reports, self.k)

    def support_counts(self, reports: np.ndarray) -> np.ndarray:
        """Histogram of the reports (``C(u)``)."""
        reports = self._check_values_reports(reports)
        return np.bincount(reports, minlength=self.k)

    def _check_values_reports(self, reports: np.ndarray) -> np.ndarray:
        from .._validation import check_values

        return check_values(reports, self.k, "reports")
