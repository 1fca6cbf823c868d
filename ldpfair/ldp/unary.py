"""Unary encodings: RAPPOR (symmetric, SUE) and optimal unary encoding (OUE)."""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_rng
from ._kernels import unary_set_true
from .base import CHUNK, FrequencyOracle

__all__ = ["UnaryEncoding", "RAPPOR", "OUE", "draw_unary"]


#: Below this q the other bits are drawn by geometric skipping (fewer draws).
SPARSE_Q = 0.2


def _sparse_bernoulli(out: np.ndarray, q: float, rng: np.random.Generator) -> None:
    """Fill the flat boolean ``out`` with i.i.d. Bernoulli(q) by geometric skipping.

    The gaps between successive ones of an i.i.d. Bernoulli(q) sequence are
    i.i.d. Geometric(q), so the positions ``cumsum(gaps) - 1`` give exactly the
    same law with about ``q * size`` draws instead of ``size``.
    """
    out[:] = False
    size = out.size
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

    Dense draw (one uniform per bit) or, when ``q < 0.2``, geometric skipping over
    the flattened bits (exactly the same law, about ``q k`` draws per user); then one
    uniform per user sets the true bit. Users are processed in blocks so the
    intermediates stay small.

    Returns
    -------
    numpy.ndarray of bool, shape (n, k)
    """
    n = values.shape[0]
    bits = np.empty((n, k), dtype=bool)
    sparse = q < SPARSE_Q
    buf = None if sparse else np.empty((min(n, CHUNK), k))
    for start in range(0, n, CHUNK):
        stop = min(n, start + CHUNK)
        m = stop - start
        if sparse:
            _sparse_bernoulli(bits[start:stop].reshape(-1), q, rng)
        else:
            u = buf[:m]
            rng.random(out=u)
            np.less(u, q, out=bits[start:stop])
        unary_set_true(bits[start:stop], values[start:stop], rng.random(m), p)
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
        reports = np.asarray(reports)
        if reports.ndim != 2 or reports.shape[1] != self.k or reports.dtype != bool:
            raise ValueError(
                f"reports must be a boolean array of shape (n, {self.k}), got {reports.dtype} {reports.shape}"
            )
        return reports

    def support_counts(self, reports: np.ndarray) -> np.ndarray:
        """Column sums of the bit matrix."""
        return self.support(reports).sum(axis=0, dtype=np.int64)


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
        return 1.0 / (1.0 + math.exp(self.epsilon / 2))


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
        return 1.0 / (1.0 + math.exp(self.epsilon))
