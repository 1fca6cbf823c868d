"""The exact samplers of ldpfair.ldp._bits: thresholds, bit-sliced Bernoulli bits, Lemire integers.

Power: with N draws at probability ~q, the binomial tests use alpha = 1e-4
(Bonferroni-corrected where several are run); at the sample sizes below a shift
of 0.01 in a probability is at least 7 standard deviations (``_power_ok``), so it
would fail.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from ldpfair.ldp import OUE, RAPPOR, SS, THE
from ldpfair.ldp._bits import (
    TWO64,
    bernoulli_bits,
    member_dtype,
    threshold,
    threshold_bits,
    uniform_ints,
)
from ldpfair.ldp._subsets import draw_subsets
from ldpfair.ldp.unary import draw_unary

ALPHA = 1e-4


def _binom_ok(successes: int, trials: int, prob: float, alpha: float = ALPHA) -> bool:
    return stats.binomtest(int(successes), int(trials), prob).pvalue > alpha


def _power_ok(trials: int, prob: float, shift: float = 0.01, z: float = 4.0) -> bool:
    """A shift of ``shift`` is more than ``z`` + 3 sd away (so the test has power)."""
    return shift > (z + 3.0) * math.sqrt(prob * (1 - prob) / trials)


# ---------------------------------------------------------------------------
# threshold
# ---------------------------------------------------------------------------

PROBS = [
    0.0,
    1.0,
    0.5,
    0.25,
    1 / 3,
    0.1,
    5e-324,  # smallest subnormal
    2.0**-70,
    1 - 2.0**-53,
    math.nextafter(0.5, 0),
    RAPPOR(74, 0.25).q,
    OUE(74, 1.0).q,
    THE(74, 8.0).q,
    SS(74, 0.25).p,
]


@pytest.mark.parametrize("q", PROBS)
def test_threshold_is_exact(q):
    t = threshold(q)
    assert isinstance(t, int) and 0 <= t <= TWO64
    assert abs(Fraction(t, TWO64) - Fraction(q)) <= Fraction(1, TWO64)
    assert Fraction(t, TWO64) <= Fraction(q)  # floor
    bits, full = threshold_bits(t)
    assert full == (q == 1.0)
    # The bits (top down to the lowest set bit) rebuild T.
    rebuilt = sum(int(b) << (63 - j) for j, b in enumerate(bits))
    assert rebuilt == (0 if full else t)


def test_threshold_rejects_bad_input():
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="q must be"):
            threshold(bad)
    with pytest.raises(TypeError, match="q must be"):
        threshold("0.5")


# ---------------------------------------------------------------------------
# bit-sliced Bernoulli bits
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("q", [0.4687906266, 0.5, 0.0137, 1 / 3])
def test_bernoulli_bits_frequency(q):
    size = 1 << 20
    bits = bernoulli_bits(size, q, np.random.default_rng(11))
    assert bits.dtype == bool and bits.shape == (size,)
    assert _power_ok(size, q)
    assert _binom_ok(bits.sum(), size, q)
    # Every lane of the 64-bit words has the same law (Bonferroni over 64 lanes).
    lanes = bits.reshape(-1, 64)
    per_lane = lanes.sum(axis=0)
    assert all(_binom_ok(c, lanes.shape[0], q, ALPHA / 64) for c in per_lane)


def test_bernoulli_bits_edge_probabilities_and_determinism():
    rng = np.random.default_rng(0)
    assert not bernoulli_bits(1000, 0.0, rng).any()
    assert bernoulli_bits(1000, 1.0, rng).all()
    a = bernoulli_bits(5000, 0.3, np.random.default_rng(5))
    b = bernoulli_bits(5000, 0.3, np.random.default_rng(5))
    c = bernoulli_bits(5000, 0.3, np.random.default_rng(6))
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_bernoulli_bits_pairwise_independent():
    q = 0.45
    bits = bernoulli_bits(200_000 * 128, q, np.random.default_rng(3)).reshape(-1, 128)
    # Same word (0,1), (0,63); adjacent words (63,64); same lane of two words (5,69).
    pairs = [(0, 1), (0, 63), (63, 64), (5, 69), (31, 100)]
    for a, b in pairs:
        table = np.array(
            [
                [np.sum(~bits[:, a] & ~bits[:, b]), np.sum(~bits[:, a] & bits[:, b])],
                [np.sum(bits[:, a] & ~bits[:, b]), np.sum(bits[:, a] & bits[:, b])],
            ]
        )
        assert stats.chi2_contingency(table, correction=False).pvalue > ALPHA / len(pairs)
        # P(both) = q^2 with power against a 0.01 shift.
        assert _binom_ok(table[1, 1], bits.shape[0], q * q, ALPHA / len(pairs))


def test_draw_unary_true_and_other_bits():
    k, n, p, q = 74, 150_000, 0.62, 0.38
    rng = np.random.default_rng(8)
    values = rng.integers(0, k, n)
    bits = draw_unary(values, k, p, q, rng)
    assert bits.shape == (n, k) and bits.dtype == bool
    true = bits[np.arange(n), values]
    assert _power_ok(n, p) and _binom_ok(true.sum(), n, p)
    others = bits.sum() - true.sum()
    assert _binom_ok(others, n * (k - 1), q)
    # Per position, among users whose value is elsewhere (Bonferroni over k).
    counts = bits.sum(axis=0) - np.bincount(values[true], minlength=k)
    trials = n - np.bincount(values, minlength=k)
    assert all(_binom_ok(c, t, q, ALPHA / k) for c, t in zip(counts, trials, strict=True))


@pytest.mark.parametrize("q", [0.2, 0.01])  # the bit-sliced and the geometric-skipping paths
def test_draw_unary_other_bits_pairwise_independent(q):
    k, n = 9, 200_000
    rng = np.random.default_rng(9)
    bits = draw_unary(np.zeros(n, dtype=np.int64), k, 0.5, q, rng)
    for a, b in [(1, 2), (1, 8), (4, 5)]:
        both = np.sum(bits[:, a] & bits[:, b])
        assert _binom_ok(both, n, q * q, ALPHA / 3)
        table = np.histogram2d(bits[:, a], bits[:, b], bins=2)[0]
        assert stats.chi2_contingency(table, correction=False).pvalue > ALPHA / 3


def test_sparse_bernoulli_tiny_q_path(monkeypatch):
    """Below TINY_Q (OUE at eps > ~37) a Binomial count and uniform positions replace the
    geometric gaps, which overflow int64; the law is checked at q = 0.01 by raising the cut."""
    from ldpfair.ldp import unary

    out = np.empty(400_000, dtype=bool)
    # Really tiny q (OUE's q at eps = 45, ~2.9e-20): no overflow, and (overwhelmingly) no ones.
    unary._sparse_bernoulli(out, OUE(5, 45.0).q, np.random.default_rng(4))
    assert not out.any()
    monkeypatch.setattr(unary, "TINY_Q", 1.0)
    q = 0.01
    assert _power_ok(out.size, q)
    unary._sparse_bernoulli(out, q, np.random.default_rng(3))
    assert _binom_ok(out.sum(), out.size, q)
    counts = out.reshape(20, -1).sum(axis=1)  # positions uniform over the array
    assert stats.chisquare(counts).pvalue > ALPHA


# ---------------------------------------------------------------------------
# Lemire uniform integers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("s", "bits"),
    [(7, 16), (73, 16), (3 * 2**14, 16), (1, 16), (73, 32), (3 * 2**30, 32)],
)
def test_uniform_ints_chi_square(s, bits):
    size = 300_000
    x = uniform_ints(s, size, np.random.default_rng(s + bits), bits=bits, buffer_words=997)
    assert x.dtype == np.int64 and x.min() >= 0 and x.max() < s
    if s == 1:
        assert not x.any()
        return
    n_bins = min(s, 64)
    # 3 * 2^14 and 3 * 2^30 (a quarter of the parts rejected): equal-width bins.
    counts = np.bincount(x * n_bins // s, minlength=n_bins)
    edges = np.array([-(-b * s // n_bins) for b in range(n_bins + 1)])  # ceil(b s / n_bins)
    expected = np.diff(edges)
    assert stats.chisquare(counts, expected * size / s).pvalue > ALPHA


def test_uniform_ints_deterministic_and_validated():
    a = uniform_ints(73, 1000, np.random.default_rng(1))
    assert np.array_equal(a, uniform_ints(73, 1000, np.random.default_rng(1)))
    assert not np.array_equal(a, uniform_ints(73, 1000, np.random.default_rng(2)))
    with pytest.raises(ValueError, match="s must be"):
        uniform_ints(2**16 + 1, 10, np.random.default_rng(0), bits=16)
    with pytest.raises(ValueError, match="bits must be"):
        uniform_ints(5, 10, np.random.default_rng(0), bits=8)


def test_draw_subsets_small_buffers_and_law():
    # One user per buffer exercises the refill path; the law must not change.
    k, omega, p, n = 6, 3, 0.6, 40_000
    values = np.full(n, 2)
    rep = draw_subsets(values, k, omega, p, np.random.default_rng(4), block=1)
    assert rep.shape == (n, omega) and rep.dtype == member_dtype(k)
    assert np.all(np.diff(np.sort(rep, axis=1), axis=1) > 0)
    inc = (rep == 2).any(axis=1)
    assert _binom_ok(inc.sum(), n, p)
    # Every subset with (without) v equally likely: chi-square over the subsets.
    for has in (True, False):
        keys = np.sort(rep[inc == has], axis=1) @ (k ** np.arange(omega))
        _, counts = np.unique(keys, return_counts=True)
        n_sets = math.comb(k - 1, omega - 1 if has else omega)
        assert counts.size == n_sets
        assert stats.chisquare(counts).pvalue > ALPHA
    again = draw_subsets(values, k, omega, p, np.random.default_rng(4), block=1)
    assert np.array_equal(rep, again)


def test_subset_kernels_agree():
    # The register-bitset kernel (k - 1 <= 128) and the stamp kernel consume the same words.
    from ldpfair.ldp._bits import raw_words
    from ldpfair.ldp._subsets import _subset_kernel, _subset_kernel_small

    k, omega, n = 74, 32, 3000
    values = np.random.default_rng(0).integers(0, k, n)
    raw = raw_words(np.random.default_rng(1), n * 10).view(np.uint16)
    t = np.uint64(threshold(0.45))
    a = np.empty((n, omega), dtype=np.int64)
    b = np.empty((n, omega), dtype=np.int64)
    ia, pa = _subset_kernel_small(a, values, 0, raw, 0, 16, k, omega, t, False)
    ib, pb, _ = _subset_kernel(b, values, 0, raw, 0, 16, k, omega, t, False, np.full(k - 1, -1), 0)
    assert (ia, pa) == (ib, pb) == (n, pa) and np.array_equal(a, b)


@pytest.mark.parametrize(("k", "omega"), [(300, 40), (5000, 3)])  # stamp kernel; 16- and 32-bit parts
def test_draw_subsets_large_domains(k, omega):
    n, p, v = 30_000, 0.3, 7
    rep = draw_subsets(np.full(n, v), k, omega, p, np.random.default_rng(k))
    assert np.all(np.diff(np.sort(rep, axis=1), axis=1) > 0) and rep.min() >= 0 and rep.max() < k
    inc = (rep == v).any(axis=1)
    assert _binom_ok(inc.sum(), n, p)
    others = np.delete(np.bincount(rep[~inc].ravel(), minlength=k), v)
    assert stats.chisquare(others).pvalue > ALPHA
