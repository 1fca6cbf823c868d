"""Unary encodings: RAPPOR (symmetric, SUE) and optimal unary encoding (OUE)."""

from __future__ import annotations

import math

import numpy as np

from .._validation import as_array, check_allocation, check_rng
from ._bits import BLOCK, BitSampler, fill_bernoulli, set_true_bits
from ._kernels import column_counts
from .base import FrequencyOracle, logistic_tail

__all__ = ["UnaryEncoding", "RAPPOR", "OUE", "draw_unary", "bit_counts"]


def bit_counts(bits: np.ndarray) -> np.ndarray:
    """Column sums (int64) of a boolean ``n x k`` matrix, counted in uint8 blocks of rows.

    The same numbers as ``bits.sum(axis=0, dtype=np.int64)`` at a fraction of the
    cost (see :func:`ldpfair.ldp._kernels.column_counts`).
    """
    counts = np.zeros(bits.shape[1], dtype=np.int64)
    return column_counts(bits.view(np.uint8), counts)


#: Below this q the other bits are drawn by geometric skipping (fewer draws than
#: the bit-sliced comparison's ~0.115 raw words per bit; measured crossover).
SPARSE_Q = 0.035

#: Below this ``q`` the sparse sampler draws a Binomial count and uniform positions
#: instead of geometric gaps (which would exceed ``2**63``).
TINY_Q = 1e-16


def _sparse_bernoulli(out: np.ndarray, q: float, rng: np.random.Generator) -> None:
    """Fill the flat boolean ``out`` with i.i.d. Bernoulli(q) by geometric skipping.

    The gaps between successive ones of an i.i.d. Bernoulli(q) sequence are
    i.i.d. Geometric(q), so the positions ``cumsum(gaps) - 1`` give exactly the
    same law with about ``q * size`` draws instead of ``size``.
    """
    out[:] = False
    size = out.size
    if q < TINY_Q:
        # Gaps of ~1/q overflow int64 in numpy's geometric sampler (OUE at eps > ~41):
        # draw the number of ones, then their positions uniformly (the same exact law).
        out[rng.choice(size, rng.binomial(size, q), replace=False)] = True
        return
    pos = -1
    while True:
        need = size - 1 - pos
        m = int(need * q + 6 * math.sqrt(need * q + 1) + 16)
        idx = pos + np.cumsum(rng.geometric(q, size=m))
        hit = idx[idx < size]
        out[hit] = True
        if hit.size < idx.size:
            return
        pos = int(idx[-1])


def draw_unary(values: np.ndarray, k: int, p: float, q: float, rng: np.random.Generator) -> np.ndarray:
    """Draw independent bits: ``P(bit_v = 1) = p`` at the true value, ``q`` elsewhere.

    The ``n k`` bits are drawn in blocks of :data:`~ldpfair.ldp._bits.BLOCK` users,
    row-major. Other bits: when ``q >= SPARSE_Q``, the bit-sliced comparison of
    :mod:`ldpfair.ldp._bits` (64 bits from ~7.35 raw words, exact probability
    ``floor(q 2^64) / 2^64``); below, geometric skipping (exact law, about ``q k``
    draws per user). Then the true bits are overwritten with Bernoulli(``p``)
    bits, 64 users per word, by the same comparison.

    Parameters
    ----------
    values : numpy.ndarray of int64
        True values in ``[0, k)``.
    k : int
        Domain size.
    p, q : float
        Probabilities of a one at the true value and elsewhere.
    rng : numpy.random.Generator
        The only source of randomness.

    Returns
    -------
    numpy.ndarray of bool, shape (n, k)
    """
    n = values.shape[0]
    total = n * k
    n_words = -(-total // 64)
    check_allocation(8 * n_words, f"the {n} x {k} bit matrix of unary-encoded reports")
    buf = np.empty(8 * n_words, dtype=np.uint64)
    flat = buf.view(bool)
    bits = flat[:total].reshape(n, k)
    sparse = 0.0 < q < SPARSE_Q
    qs = BitSampler(q)
    ps = BitSampler(p)
    for start in range(0, n, BLOCK):
        stop = min(n, start + BLOCK)
        if sparse:
            _sparse_bernoulli(flat[start * k : stop * k], q, rng)
        else:
            fill_bernoulli(buf, start * k // 64, -(-stop * k // 64), qs, rng)
        set_true_bits(flat, values, k, start, stop, ps, rng)
    return bits


class UnaryEncoding(FrequencyOracle):
    """Unary encoding with bit probabilities ``p`` (true bit) and ``q`` (other bits).

    Each user one-hot encodes ``v`` and flips every bit independently: the bit
    at ``v`` is 1 with probability ``p``, every other bit with probability ``q``.
    Reports are boolean ``n x k`` matrices (the support is the bit vector).
    """

    name = "UE"

    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon)

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return the perturbed bit vectors, a boolean array of shape (n, k)."""
        values = self._check_values(values)
        rng = check_rng(rng)
        return draw_unary(values, self.k, self.p, self.q, rng)

    def support(self, reports: np.ndarray) -> np.ndarray:
        """The reported bit vectors themselves (boolean, n x k)."""
        reports = as_array(reports, "reports")
        if reports.ndim != 2 or reports.shape[1] != self.k or reports.dtype != bool:
            raise ValueError(
                f"reports must be a boolean array of shape (n, {self.k}), got {reports.dtype} {reports.shape}"
            )
        return reports

    def support_counts(self, reports: np.ndarray) -> np.ndarray:
        """Column sums of the bit matrix."""
        return bit_counts(self.support(reports))


class RAPPOR(UnaryEncoding):
    """Basic one-time RAPPOR, i.e. symmetric unary encoding (SUE).

    ``p = e^(eps/2) / (e^(eps/2) + 1)`` and ``q = 1 - p``: each bit is randomised
    with budget ``eps / 2`` (two bits differ between neighbouring inputs).
    """

    name = "RAPPOR"

    @property
    def p(self) -> float:
        """``e^(eps/2) / (e^(eps/2) + 1)``."""
        return 1.0 / (1.0 + math.exp(-self.epsilon / 2))

    @property
    def q(self) -> float:
        """``1 / (e^(eps/2) + 1)``."""
        return logistic_tail(self.epsilon / 2)


class OUE(UnaryEncoding):
    """Optimal unary encoding (Wang et al. 2017): ``p = 1/2``, ``q = 1 / (e^eps + 1)``."""

    name = "OUE"

    @property
    def p(self) -> float:
        """``1 / 2``."""
        return 0.5

    @property
    def q(self) -> float:
        """``1 / (e^eps + 1)``."""
        return logistic_tail(self.epsilon)
