r"""numpy's PCG64 stream generated inside numba kernels (bit-identical, no buffer).

``numpy.random.PCG64`` (the bit generator of ``numpy.random.default_rng``) is
the 128-bit LCG ``S_{t+1} = M S_t + c (mod 2^128)`` with the XSL-RR output
``rotr64(hi(S) ^ lo(S), hi(S) >> 58)``; its ``next_uint64`` steps first, then
outputs, and ``next_double`` is ``(next_uint64 >> 11) 2^-53``. The kernels here
read the state of the caller's generator, produce exactly the words that
``random_raw`` would, and write the state back (``has_uint32`` and
``uinteger`` untouched), so a draw through them leaves the generator where the
numpy draw would.

Speed: ``L`` interleaved lanes (lane ``j`` holds ``S_{t+j}`` and advances ``L``
steps at once by the affine map ``S -> A_L S + C_L``) break the latency chain of
the 128-bit multiply; the words are produced in registers, with no n-sized (or
block-sized) buffer of fresh pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic, overload

__all__ = ["MULT", "LANES", "is_pcg64", "read_state", "write_state", "affine_power", "lane_constants"]

#: PCG's default 128-bit multiplier (``PCG_DEFAULT_MULTIPLIER_128``).
MULT = (2549297995355413924 << 64) + 4865540595714422341
_MASK64 = (1 << 64) - 1
_MASK128 = (1 << 128) - 1
_MULT_HI = np.uint64(MULT >> 64)
_MULT_LO = np.uint64(MULT & _MASK64)

#: Interleaved lanes of :func:`fill_raw` (written out four times in its loop).
LANES = 4


def is_pcg64(rng: np.random.Generator) -> bool:
    """Whether ``rng`` draws from exactly ``numpy.random.PCG64`` (not a subclass, not DXSM)."""
    return type(rng.bit_generator) is np.random.PCG64


def read_state(rng: np.random.Generator) -> tuple[Mapping[str, Any], np.ndarray]:
    """The generator's state dict and ``[hi(S), lo(S), hi(c), lo(c)]`` as uint64."""
    st = rng.bit_generator.state
    s, c = st["state"]["state"], st["state"]["inc"]
    return st, np.array([s >> 64, s & _MASK64, c >> 64, c & _MASK64], dtype=np.uint64)


def write_state(rng: np.random.Generator, st: Mapping[str, Any], words: np.ndarray) -> None:
    """Store the LCG state ``words[:2]`` back into ``rng`` (the rest of ``st`` unchanged)."""
    st["state"]["state"] = (int(words[0]) << 64) | int(words[1])
    rng.bit_generator.state = st


def affine_power(inc: int, steps: int) -> tuple[int, int]:
    """``(A, C)`` with ``S_{t + steps} = A S_t + C (mod 2^128)`` for increment ``inc``."""
    a, c = 1, 0
    for _ in range(steps):
        a, c = (a * MULT) & _MASK128, (c * MULT + inc) & _MASK128
    return a, c


def lane_constants(inc: int) -> np.ndarray:
    """``[hi(A), lo(A), hi(C), lo(C)]`` of :func:`affine_power` ``(inc, LANES)`` (uint64)."""
    a, c = affine_power(inc, LANES)
    return np.array([a >> 64, a & _MASK64, c >> 64, c & _MASK64], dtype=np.uint64)


def mulhi(a: np.uint64, b: np.uint64) -> np.uint64:
    """High 64 bits of the 128-bit product of two uint64 (one ``mul`` instruction when compiled)."""
    return np.uint64((int(a) * int(b)) >> 64)


@intrinsic
def _mulhi_llvm(typingctx, a, b):  # pragma: no cover - compiled
    """:func:`mulhi` in LLVM IR: zero-extend to i128, multiply, take the high half."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        prod = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        return builder.trunc(builder.lshr(prod, ir.Constant(i128, 64)), ir.IntType(64))

    return sig, codegen


#: :func:`_mulhi_llvm` as jitted code calls it: ``(a, b)``. Typed for mypy only (the same
#: object), since ``@intrinsic`` types the decorated function as ``(typingctx, a, b)``.
_mulhi_jit = cast(Callable[[np.uint64, np.uint64], np.uint64], _mulhi_llvm)


@overload(mulhi)
def _mulhi_overload(a, b):  # pragma: no cover - compiled
    return lambda a, b: _mulhi_jit(a, b)


@numba.njit(cache=True, nogil=True, inline="always")
def affine_step(hi, lo, ahi, alo, chi, clo):  # pragma: no cover - compiled
    """``A S + C (mod 2^128)`` on (hi, lo) halves."""
    nlo = lo * alo + clo
    carry = np.uint64(nlo < clo)
    nhi = mulhi(lo, alo) + lo * ahi + hi * alo + chi + carry
    return nhi, nlo


@numba.njit(cache=True, nogil=True, inline="always")
def output(hi, lo):  # pragma: no cover - compiled
    """PCG's XSL-RR output of a state: ``rotr64(hi ^ lo, hi >> 58)``."""
    x = hi ^ lo
    r = hi >> np.uint64(58)
    return (x >> r) | (x << ((np.uint64(64) - r) & np.uint64(63)))


@numba.njit(cache=True, nogil=True)
def fill_raw(out, st, lane):  # pragma: no cover - compiled
    """Fill ``out`` (uint64) with the next ``len(out)`` words; ``st`` is updated in place.

    The words equal ``PCG64.random_raw(len(out))`` from the state ``st``
    (``[hi(S), lo(S), hi(c), lo(c)]``); ``lane`` holds the :func:`lane_constants`.
    """
    n = out.shape[0]
    chi, clo = st[2], st[3]
    hi, lo = st[0], st[1]
    mhi, mlo = _MULT_HI, _MULT_LO
    # four lanes: S_{t+1} .. S_{t+4}
    h0, l0 = affine_step(hi, lo, mhi, mlo, chi, clo)
    h1, l1 = affine_step(h0, l0, mhi, mlo, chi, clo)
    h2, l2 = affine_step(h1, l1, mhi, mlo, chi, clo)
    h3, l3 = affine_step(h2, l2, mhi, mlo, chi, clo)
    ahi, alo, bhi, blo = lane[0], lane[1], lane[2], lane[3]
    t = 0
    while t + 4 <= n:
        out[t] = output(h0, l0)
        out[t + 1] = output(h1, l1)
        out[t + 2] = output(h2, l2)
        out[t + 3] = output(h3, l3)
        hi, lo = h3, l3
        h0, l0 = affine_step(h0, l0, ahi, alo, bhi, blo)
        h1, l1 = affine_step(h1, l1, ahi, alo, bhi, blo)
        h2, l2 = affine_step(h2, l2, ahi, alo, bhi, blo)
        h3, l3 = affine_step(h3, l3, ahi, alo, bhi, blo)
        t += 4
    r = n - t
    if r > 0:
        out[t] = output(h0, l0)
        hi, lo = h0, l0
    if r > 1:
        out[t + 1] = output(h1, l1)
        hi, lo = h1, l1
    if r > 2:
        out[t + 2] = output(h2, l2)
        hi, lo = h2, l2
    st[0], st[1] = hi, lo
