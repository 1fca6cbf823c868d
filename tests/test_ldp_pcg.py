"""numpy's PCG64 generated inside numba (``ldpfair.ldp._pcg``) and the GRR kernel on it.

The in-kernel stream must be the very words of ``PCG64.random_raw`` and leave the
generator in the very state numpy's draw would (``has_uint32`` included), so that
the committed results, drawn with numpy's stream, do not move.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ldpfair.ldp import GRR, _pcg
from ldpfair.ldp._bits import BLOCK
from ldpfair.ldp._subsets import draw_subsets
from ldpfair.ldp.grr import PCG64_MIN_USERS, PCG64_WORDS, keep_threshold


def _pair(seed):
    """Two generators in the same state, with a half-used 32-bit word (``has_uint32 = 1``)."""
    a, b = np.random.default_rng(seed), np.random.default_rng(seed)
    for g in (a, b):
        g.integers(0, 2**32, 3, dtype=np.uint32)
    assert a.bit_generator.state["has_uint32"] == 1
    return a, b


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 2047, 2048, 2049, 100_003])
@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5])
def test_fill_raw_is_random_raw(n, seed):
    ours, ref = _pair(seed)
    state, words = _pcg.read_state(ours)
    out = np.empty(n, dtype=np.uint64)
    _pcg.fill_raw(out, words, _pcg.lane_constants(state["state"]["inc"]))
    _pcg.write_state(ours, state, words)
    np.testing.assert_array_equal(out, ref.bit_generator.random_raw(n))
    assert ours.bit_generator.state == ref.bit_generator.state
    # the buffered 32-bit half is still served first, as after numpy's own draw
    nxt = [g.integers(0, 2**32, 5, dtype=np.uint32).tolist() for g in (ours, ref)]
    assert nxt[0] == nxt[1]


def test_affine_power_composes_single_steps():
    inc = np.random.default_rng(3).bit_generator.state["state"]["inc"]
    a1, c1 = _pcg.affine_power(inc, 1)
    assert (a1, c1) == (_pcg.MULT, inc)
    a4, c4 = _pcg.affine_power(inc, 4)
    s = 12345678901234567890123456789
    t = s
    for _ in range(4):
        t = (a1 * t + c1) % 2**128
    assert (a4 * s + c4) % 2**128 == t


def test_is_pcg64_only_for_pcg64():
    assert _pcg.is_pcg64(np.random.default_rng(0))
    for bitgen in (np.random.PCG64DXSM, np.random.MT19937, np.random.SFC64, np.random.Philox):
        assert not _pcg.is_pcg64(np.random.Generator(bitgen(0)))


@pytest.mark.parametrize(
    "p", [0.0, 2.0**-60, 0.1, 1 / 3, 0.5, 0.7310585786300049, 1 - 2.0**-53, 1 - 2.0**-40, 1.0]
)
def test_keep_threshold_is_the_float_test(p):
    tp = keep_threshold(p)
    for w in {max(tp - 2, 0), max(tp - 1, 0), tp, min(tp + 1, 2**53 - 1)}:
        assert (w * 2.0**-53 < p) == (w < tp), (p, w)


def _grr_numpy(values, k, p, rng):
    """GRR from ``rng.random(n)`` in plain numpy (the formula of the former code)."""
    u = rng.random(values.shape[0])
    scale = (k - 1) / (1.0 - p) if p < 1.0 else 0.0
    other = np.clip(((u - p) * scale).astype(np.int64), 0, k - 2)
    other += other >= values
    return np.where(u < p, values, other)


@pytest.mark.parametrize(
    "n", [PCG64_MIN_USERS - 1, PCG64_MIN_USERS, PCG64_WORDS - 1, PCG64_WORDS + 1, 3 * PCG64_WORDS + 3, 70_001]
)
@pytest.mark.parametrize(("k", "eps"), [(2, 0.25), (2, 8.0), (2, 40.0), (3, 1.0), (74, 8.0), (2**40, 2.0)])
def test_grr_on_the_in_kernel_stream(n, k, eps):
    values = np.random.default_rng([n, 7]).integers(0, k, n)
    mech = GRR(k, eps)
    ours, ref = _pair(n)
    new = mech.perturb(values, ours)
    np.testing.assert_array_equal(new, _grr_numpy(values, k, mech.p, ref))
    assert new.dtype == np.int64
    assert ours.bit_generator.state == ref.bit_generator.state


def test_grr_k2_uses_the_other_value():
    # k = 2: the report is v or 1 - v, and both occur at p near 1/2
    values = np.arange(4000) % 2
    rep = GRR(2, 0.1).perturb(values, np.random.default_rng(0))
    assert set(np.unique(rep)) == {0, 1}
    flipped = rep != values
    assert 0.4 < flipped.mean() < 0.6
    assert math.isclose(GRR(2, 0.1).p, 1 / (1 + math.exp(-0.1)))


class _OtherPCG64(np.random.PCG64):
    """The same stream, but not ``PCG64`` itself: the samplers take their buffered numpy path."""


def _same_state(a: np.random.Generator, b: np.random.Generator) -> bool:
    """Equal PCG64 states (the LCG state, increment and buffered 32-bit half), whatever the class name."""
    sa, sb = a.bit_generator.state, b.bit_generator.state
    return all(sa[key] == sb[key] for key in ("state", "has_uint32", "uinteger"))


def _buffered_pair(seed):
    ours = np.random.default_rng(seed)
    ref = np.random.Generator(_OtherPCG64(seed))
    for g in (ours, ref):
        g.integers(0, 2**32, 1, dtype=np.uint32)  # has_uint32 = 1
    assert not _pcg.is_pcg64(ref) and _same_state(ours, ref)
    return ours, ref


@pytest.mark.parametrize(
    ("k", "omega", "n", "block", "chunk_words"),
    [
        (1000, 438, 3000, BLOCK, None),  # the benchmark's setting, several logical buffers below
        (1000, 438, 3000, 700, None),
        (1000, 438, 300, 50, 1),  # a chunk of one word: every user grows it or is redone
        (1000, 438, 300, 50, 120),  # a chunk smaller than one user: grown once
        (300, 40, 5000, 333, 31),  # refills in the middle of users
        (5000, 3, 20_000, 1000, 2),  # 32-bit parts
        (200_000, 7000, 40, 7, None),  # 32-bit parts, many rejections
        (130, 129, 500, 1, 5),  # omega = k - 1, one user per buffer
        # many rejections: users run out at the end of a logical buffer (about one in 30),
        # also on entry to a draw (the former out-of-buffer read)
        (3001, 3000, 400, 1, None),
        (3001, 3000, 400, 1, 700),
    ],
)
@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
def test_chunked_subsets_are_the_buffered_draws(k, omega, n, block, chunk_words, p):
    values = np.random.default_rng([k, n]).integers(0, k, n)
    ours, ref = _buffered_pair(k + n)
    new = draw_subsets(values, k, omega, p, ours, block=block, chunk_words=chunk_words)
    old = draw_subsets(values, k, omega, p, ref, block=block)
    np.testing.assert_array_equal(new, old)
    assert _same_state(ours, ref)


@pytest.mark.parametrize(("k", "omega"), [(6, 3), (74, 32), (129, 60)])  # the register kernel (k - 1 <= 128)
def test_small_domain_subsets_from_the_reused_buffer(k, omega):
    values = np.random.default_rng(k).integers(0, k, 9000)
    ours, ref = _buffered_pair(k)
    new = draw_subsets(values, k, omega, 0.4, ours, block=1000)
    np.testing.assert_array_equal(new, draw_subsets(values, k, omega, 0.4, ref, block=1000))
    assert _same_state(ours, ref)


def test_chunk_words_is_checked():
    with pytest.raises(ValueError, match="chunk_words"):
        draw_subsets(np.zeros(3, dtype=np.int64), 300, 4, 0.5, np.random.default_rng(0), chunk_words=0)


@pytest.mark.parametrize("k", [2, 74])
@pytest.mark.parametrize("bad", [-1, "k"])
def test_grr_rejects_bad_codes_and_leaves_the_generator(k, bad):
    # the in-kernel path checks the codes in its pass; a bad one raises and draws nothing
    values = np.random.default_rng(0).integers(0, k, 5 * PCG64_MIN_USERS)
    values[3 * PCG64_MIN_USERS + 1] = k if bad == "k" else bad
    rng = np.random.default_rng(1)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match="values"):
        GRR(k, 1.0).perturb(values, rng)
    assert rng.bit_generator.state == before
