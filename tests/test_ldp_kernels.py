"""The blocked GRR draw and the uint8 column counts give the same numbers as before.

The committed results must not move: ``GRR.perturb`` now draws its uniforms in
blocks of ``GRR_BLOCK`` users (as raw words for the 64-bit bit generators), and the
unary encodings count their bits in uint8 blocks of rows. They are checked against
the former implementations (one ``rng.random(n)`` draw; ``sum(axis=0, dtype=int64)``)
and against digests of reports, estimates and the generator's next draw computed
with the code before the change (subset selection included: its reports must not
move either).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from ldpfair.ldp import GRR, OUE, RAPPOR, SS, THE, _bits, make_protocol
from ldpfair.ldp import _subsets as sub
from ldpfair.ldp._kernels import COUNT_ROWS
from ldpfair.ldp.grr import GRR_BLOCK
from ldpfair.ldp.unary import bit_counts


def _grr_single_draw(values: np.ndarray, k: int, p: float, rng: np.random.Generator) -> np.ndarray:
    """The former ``GRR.perturb``: one draw of ``n`` uniforms, then keep or move (numpy)."""
    u = rng.random(values.shape[0])
    scale = (k - 1) / (1.0 - p) if p < 1.0 else 0.0
    other = np.clip(((u - p) * scale).astype(np.int64), 0, k - 2)
    other += other >= values
    return np.where(u < p, values, other)


@pytest.mark.parametrize("n", [0, 1, 63, GRR_BLOCK - 1, GRR_BLOCK, GRR_BLOCK + 1, 3 * GRR_BLOCK + 517])
@pytest.mark.parametrize(("k", "eps"), [(2, 0.25), (2, 8.0), (74, 1.0), (1000, 0.5), (5, 50.0)])
def test_blocked_grr_consumes_the_stream_as_one_draw(n, k, eps):
    values = np.random.default_rng([n, k]).integers(0, k, n)
    mech = GRR(k, eps)
    rng_new, rng_old = np.random.default_rng(11), np.random.default_rng(11)
    new = mech.perturb(values, rng_new)
    old = _grr_single_draw(values, k, mech.p, rng_old)
    assert new.dtype == np.int64 and new.shape == (n,)
    np.testing.assert_array_equal(new, old)
    # the generator is left at the same point of its stream
    assert rng_new.random() == rng_old.random()


def test_blocked_grr_other_bit_generators():
    values = np.random.default_rng(3).integers(0, 9, 2 * GRR_BLOCK + 5)
    for bitgen in (np.random.MT19937, np.random.SFC64, np.random.Philox, np.random.PCG64DXSM):
        new = GRR(9, 1.5).perturb(values, np.random.Generator(bitgen(4)))
        old = _grr_single_draw(values, 9, GRR(9, 1.5).p, np.random.Generator(bitgen(4)))
        np.testing.assert_array_equal(new, old)


@pytest.mark.parametrize(
    ("n", "k"),
    [(0, 3), (1, 2), (COUNT_ROWS, 7), (COUNT_ROWS + 1, 74), (3 * COUNT_ROWS + 11, 1000), (4000, 1)],
)
@pytest.mark.parametrize("density", [0.0, 0.3, 1.0])
def test_bit_counts_equal_int64_sums(n, k, density):
    bits = np.random.default_rng([n, k]).random((n, k)) < density
    counts = bit_counts(bits)
    assert counts.dtype == np.int64
    np.testing.assert_array_equal(counts, bits.sum(axis=0, dtype=np.int64))
    if density == 1.0:  # every count > 255 would have wrapped in a plain uint8 sum
        assert (counts == n).all()


def test_bit_counts_of_views():
    bits = np.random.default_rng(5).random((2000, 90)) < 0.4
    for view in (bits[::3], bits[:, 5:61], bits[:, ::-2], np.asfortranarray(bits)):
        np.testing.assert_array_equal(bit_counts(view), view.sum(axis=0, dtype=np.int64))


@pytest.mark.parametrize("cls", [OUE, RAPPOR, THE])
def test_unary_estimates_unchanged(cls):
    k, n = 74, 3 * COUNT_ROWS + 7
    mech = cls(k, 1.0)
    reports = mech.perturb(np.random.default_rng(1).integers(0, k, n), np.random.default_rng(2))
    counts = reports.sum(axis=0, dtype=np.int64)
    np.testing.assert_array_equal(mech.support_counts(reports), counts)
    np.testing.assert_array_equal(mech.estimate(reports), (counts / n - mech.q) / (mech.p - mech.q))


def _digest(a: np.ndarray) -> str:
    a = np.ascontiguousarray(a)
    return hashlib.sha256(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes()).hexdigest()[:16]


#: Reports, estimates and the next uniform of the generator, computed with the code
#: before the blocked GRR draw and the uint8 counts (commit fabae88).
GOLDEN = {
    ("GRR", 2, 0.5, 40_000): ("dfded33383c8051a", "e1c72f9332f28101", 0.8268385766624609),
    ("GRR", 74, 1.0, 50_001): ("6089f03bb77aa5f5", "43272be33074b87a", 0.458449862180657),
    ("GRR", 1000, 4.0, 16_385): ("b418358a8bd7b999", "159c2da381ca87f7", 0.2768268471590569),
    ("OUE", 74, 1.0, 3001): ("7193fadb12333775", "ff52a8437102d547", 0.959341584814068),
    ("RAPPOR", 1000, 2.0, 700): ("59a5ddfc81e4f6c0", "d351ea5a6f21caee", 0.9102442898559822),
    ("THE", 74, 0.5, 1000): ("1a75d6b18647ccd1", "25dc8452ae3d40bb", 0.7801675238395169),
    ("SS", 1000, 1.0, 2000): ("f6aca53cdd875732", "ff4f431aec515cdb", 0.25770815254604607),
}


@pytest.mark.parametrize("key", list(GOLDEN))
def test_reports_and_estimates_match_the_former_code(key):
    name, k, eps, n = key
    mech = make_protocol(name, k, eps)
    rng = np.random.default_rng([n, k])
    reports = mech.perturb(rng.integers(0, k, n), rng)
    digest = _digest(_drawn_order(mech, reports, [n, k]))
    assert (digest, _digest(mech.estimate(reports)), float(rng.random())) == GOLDEN[key]


def _drawn_order(mech, reports, seed, bitgen: str = "PCG64"):
    """SS reports in the sampler's order (the goldens' order) after checking they are those draws sorted.

    Since issue #44 ``SS.perturb`` sorts each subset (the draw order put the true value first);
    the sampler's draws and the generator's state are unchanged, which the goldens check.
    """
    if not isinstance(mech, SS):
        return reports
    rng = np.random.Generator(getattr(np.random, bitgen)(seed))
    values = rng.integers(0, mech.k, reports.shape[0])
    drawn = sub.draw_subsets(values, mech.k, mech.omega, mech.p, rng)
    assert np.array_equal(np.sort(drawn, axis=1), reports)
    return drawn


#: Subset reports (members) and the generator's next uniform of the code before the change
#: (commit fabae88): both subset kernels, 16- and 32-bit parts, several bit generators,
#: many users per logical buffer and one (block = 1).
GOLDEN_SUBSETS = {
    ("SS", 74, 0.25, 40000, "PCG64"): ("f0e097cf745d4d31", 0.5800979360708312),
    ("SS", 1000, 0.25, 20000, "PCG64"): ("218ff4d9df917a88", 0.06894884729996353),
    ("SS", 5000, 2.0, 20000, "PCG64"): ("f881642320ca6009", 0.6597047679485623),
    ("SS", 1000, 1.0, 17000, "MT19937"): ("ee354b2b52bb9589", 0.3288971320180033),
    ("SS", 130, 0.5, 33000, "SFC64"): ("2bf1354c08fd9361", 0.3882780747143907),
    ("draw_subsets", 6, 3, 1): ("c5e6002afd64d830", 0.3984390112904641),
    ("draw_subsets", 300, 40, 7): ("5624a254c13db4b6", 0.27717186078186473),
    ("draw_subsets", 40, 39, 3): ("e3a6a65dc0119e86", 0.9008799813313492),
}


def _subsets(key):
    if key[0] == "SS":
        _, k, eps, n, bitgen = key
        rng = np.random.Generator(getattr(np.random, bitgen)(k))
        mech = make_protocol("SS", k, eps)
        return _drawn_order(mech, mech.perturb(rng.integers(0, k, n), rng), k, bitgen), rng
    _, k, omega, block = key
    rng = np.random.default_rng(block)
    return sub.draw_subsets(rng.integers(0, k, 5000), k, omega, 0.4, rng, block=block), rng


@pytest.mark.parametrize("key", list(GOLDEN_SUBSETS))
def test_subsets_match_the_former_code(key):
    reports, rng = _subsets(key)
    assert (_digest(reports), float(rng.random())) == GOLDEN_SUBSETS[key]


# ---------------------------------------------------------------------------
# Lemire at the end of a buffer: a subset user whose first draw is rejected needs
# omega + 64 / bits + 1 parts; the kernels check for omega + 64 / bits only, so its
# last draw starts at pos == len(raw). It must report "buffer ran out" (the user is
# restarted on a fresh buffer), never read the part after the buffer.
# ---------------------------------------------------------------------------

SENTINEL = 0xC000  # a part that Lemire would accept (x = 3 for s = 4)


def _buffer_with_sentinel(parts: list[int]) -> np.ndarray:
    """The 16-bit parts ``parts`` as a view whose next element in memory is :data:`SENTINEL`."""
    base = np.array([*parts, SENTINEL, SENTINEL], dtype=np.uint16)
    return base[: len(parts)]


def test_lemire_reports_an_exhausted_buffer_on_entry():
    raw = _buffer_with_sentinel([1, 2, 3])
    assert _bits._lemire(raw, 3, 4, 16) == (-1, 3)
    assert _bits._lemire(raw, 2, 4, 16) == (0, 3)  # 3 * 4 >> 16


@pytest.mark.parametrize("small", [True, False])
def test_subset_kernel_never_reads_past_its_buffer(small):
    # k = 5 (m = 4 others), omega = 2, T = 0 (true value never in): 4 parts for u,
    # then Floyd draws on [0, 3) and [0, 4). The part 0 is rejected for s = 3
    # (0 < 2^16 mod 3 = 1), 1 is accepted; the buffer then holds omega + 4 parts
    # exactly (the kernels' check passes), and the draw on [0, 4) has no part left.
    k, omega = 5, 2
    raw = _buffer_with_sentinel([7, 7, 7, 7, 0, 1])
    values = np.array([2, 0], dtype=np.int64)
    out = np.full((2, omega), 99, dtype=np.uint8)
    if small:
        i, pos = sub._subset_kernel_small(out, values, 0, raw, 0, 16, k, omega, np.uint64(0), False)
    else:
        stamp = np.full(k - 1, -1, dtype=np.int64)
        i, pos, _ = sub._subset_kernel(out, values, 0, raw, 0, 16, k, omega, np.uint64(0), False, stamp, 0)
    # the user is not completed from the sentinel; the driver restarts it on a fresh buffer
    assert (i, pos) == (0, raw.shape[0])


@pytest.mark.parametrize("small", [True, False])
def test_subset_kernel_completes_a_user_that_fits(small):
    # the same user with one more part: completed, and the sentinel is not used
    k, omega = 5, 2
    raw = _buffer_with_sentinel([7, 7, 7, 7, 0, 1, 0x4000])
    values = np.array([2], dtype=np.int64)
    out = np.zeros((1, omega), dtype=np.uint8)
    if small:
        i, pos = sub._subset_kernel_small(out, values, 0, raw, 0, 16, k, omega, np.uint64(0), False)
    else:
        stamp = np.full(k - 1, -1, dtype=np.int64)
        i, pos, _ = sub._subset_kernel(out, values, 0, raw, 0, 16, k, omega, np.uint64(0), False, stamp, 0)
    assert (i, pos) == (1, 7)
    # Floyd: x = 0 on [0, 3) -> other 0; x = 1 (0x4000 * 4 >> 16) on [0, 4) -> other 1
    assert out.tolist() == [[0, 1]]
