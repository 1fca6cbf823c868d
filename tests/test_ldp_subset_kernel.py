"""Subset selection's sampler gives the same subsets as before issue #26, and leaves the generator alike.

``tests/data/ss_golden.json`` holds, for every case below, a digest of the members
and of the generator's state after the call, computed with ``ldpfair/ldp/_subsets.py``
as it was before its Floyd loop moved into a kernel of its own (commit 9ee6104;
regenerate with ``LDPFAIR_WRITE_SS_GOLDEN=1 pytest tests/test_ldp_subset_kernel.py`` only
when a change of the draws is intended, and recompute the committed results with it). The committed
results of arcolezi2023 and makhlouf2024 use subset selection, so for the same
generator state ``SS.perturb`` and ``draw_subsets`` must return exactly the same
members (same dtype, same order) and leave the generator in exactly the same state:
every domain size from 2 to 1000, the edge subset sizes (``omega = 1`` and
``omega = k - 1``), ``p`` in {0, 1}, 32-bit parts, small blocks and chunks (the
refill and redo paths), and the bit generators that take the buffered path.

Since issue #44 ``SS.perturb`` sorts each subset's members (the sampler's order puts
the true value first whenever it is in, which leaked it). The goldens stay those of
the sampler's draws (``draw_subsets``, unchanged); :func:`_perturb_is_sorted_draw`
checks that ``SS.perturb`` returns exactly those members, sorted within each row,
and leaves the generator in the same state, so every support is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from ldpfair.ldp import SS
from ldpfair.ldp._subsets import draw_subsets

GOLDEN_PATH = Path(__file__).parent / "data" / "ss_golden.json"
WRITE = os.environ.get("LDPFAIR_WRITE_SS_GOLDEN") == "1"
GOLDEN: dict[str, str] = (json.loads(GOLDEN_PATH.read_text()) if GOLDEN_PATH.exists() else {}) if WRITE \
    else json.loads(GOLDEN_PATH.read_text())


def _digest(members: np.ndarray, gen: np.random.Generator) -> str:
    """sha256 of the members (dtype, shape, bytes) and of the generator's state."""
    h = hashlib.sha256(f"{members.dtype.str}{members.shape}".encode())
    h.update(np.ascontiguousarray(members).tobytes())

    def feed(x: object) -> None:
        if isinstance(x, dict):
            for key in sorted(x):
                h.update(str(key).encode())
                feed(x[key])
        elif isinstance(x, np.ndarray):
            h.update(f"{x.dtype.str}{x.shape}".encode())
            h.update(np.ascontiguousarray(x).tobytes())
        else:
            h.update(repr(x).encode())

    feed(gen.bit_generator.state)
    return h.hexdigest()[:32]


def _expect(case: str, members: np.ndarray, gen: np.random.Generator) -> None:
    got = _digest(members, gen)
    if WRITE:
        GOLDEN[case] = got
        GOLDEN_PATH.write_text(json.dumps(GOLDEN, indent=0, sort_keys=True) + "\n")
    else:
        assert got == GOLDEN[case], f"{case}: members or generator state differ from the former sampler"


def _pair(seed, bitgen: str = "PCG64", half_word: bool = False) -> tuple[np.random.Generator, ...]:
    """Two generators in the same state (optionally with a buffered 32-bit half)."""
    gens = [np.random.Generator(getattr(np.random, bitgen)(seed)) for _ in range(2)]
    if half_word:
        for g in gens:
            g.integers(0, 2**32, 1, dtype=np.uint32)
    return gens[0], gens[1]


def _gen(seed, bitgen: str = "PCG64", half_word: bool = False) -> np.random.Generator:
    return _pair(seed, bitgen, half_word)[0]


def _same_state(a: np.random.Generator, b: np.random.Generator) -> bool:
    """Equal bit-generator states (the key array of MT19937 and Philox compared elementwise)."""

    def same(x, y) -> bool:
        if isinstance(x, dict):
            return isinstance(y, dict) and x.keys() == y.keys() and all(same(x[key], y[key]) for key in x)
        if isinstance(x, np.ndarray):
            return isinstance(y, np.ndarray) and x.dtype == y.dtype and np.array_equal(x, y)
        return type(x) is type(y) and x == y

    return same(a.bit_generator.state, b.bit_generator.state)


def _check(case, values, k, omega, p, seed, bitgen="PCG64", half_word=False, **kw) -> np.ndarray:
    ours = _gen(seed, bitgen, half_word)
    new = draw_subsets(values, k, omega, p, ours, **kw)
    assert new.shape == (values.shape[0], omega)
    _expect(case, new, ours)
    return new


def _perturb_is_sorted_draw(mech: SS, values: np.ndarray, seed, half_word: bool = False,
                            ) -> tuple[np.ndarray, np.random.Generator]:
    """The sampler's draws (for the golden) after checking ``mech.perturb`` is them sorted per row."""
    drawn_gen, perturb_gen = _pair(seed, half_word=half_word)
    drawn = draw_subsets(values, mech.k, mech.omega, mech.p, drawn_gen)
    reports = mech.perturb(values, perturb_gen)
    assert reports.dtype == drawn.dtype
    assert np.array_equal(reports, np.sort(drawn, axis=1)), "perturb must return the drawn members, sorted"
    assert np.all(np.diff(reports.astype(np.int64), axis=1) > 0)  # strictly increasing: a set
    assert _same_state(drawn_gen, perturb_gen), "sorting must draw nothing"
    return drawn, drawn_gen


def test_every_domain_size_from_2_to_1000():
    eps_cycle = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
    for k in range(2, 1001):
        mech = SS(k, eps_cycle[k % len(eps_cycle)])
        n = 37 + k % 29
        values = np.random.default_rng([k, 1]).integers(0, k, n)
        drawn, gen = _perturb_is_sorted_draw(mech, values, [k, 2], half_word=k % 3 == 0)
        _expect(f"domain-{k}", drawn, gen)


@pytest.mark.parametrize("k", [2, 3, 5, 74, 129, 130, 131, 257, 500, 999, 1000])
@pytest.mark.parametrize("edge", ["one", "all_but_one"])
@pytest.mark.parametrize("eps", [0.25, 1.0, 8.0])
def test_edge_subset_sizes(k, edge, eps):
    omega = 1 if edge == "one" else k - 1
    mech = SS(k, eps, omega=omega)
    values = np.random.default_rng(k).integers(0, k, 3000 if k < 500 else 400)
    drawn, gen = _perturb_is_sorted_draw(mech, values, [k, omega])
    _expect(f"edge-{k}-{edge}-{eps}", drawn, gen)


@pytest.mark.parametrize(("k", "eps", "n", "seed"), [
    (1000, 0.25, 40_000, 0),  # the benchmark's setting, several logical buffers
    (1000, 1.0, 40_000, 1),
    (1000, 8.0, 20_000, 2),
    (300, 0.5, 30_000, 3),
    (150, 0.1, 30_000, 4),
    (74, 0.25, 30_000, 5),
])
def test_many_users(k, eps, n, seed):
    mech = SS(k, eps)
    values = np.random.default_rng(seed).integers(0, k, n)
    _check(f"many-{k}-{eps}-{n}-{seed}", values, k, mech.omega, mech.p, seed, half_word=seed % 2 == 1)


@pytest.mark.parametrize("p", [0.0, 0.3, 1.0])
@pytest.mark.parametrize(("k", "omega", "n", "block", "chunk_words"), [
    (1000, 438, 3000, 700, None),
    (1000, 438, 300, 50, 1),  # a chunk of one word: every user grows it or is redone
    (1000, 438, 300, 50, 120),  # a chunk smaller than one user
    (300, 40, 5000, 333, 31),  # refills in the middle of users
    (130, 129, 500, 1, 5),  # omega = k - 1, one user per buffer
    (3001, 3000, 400, 1, None),  # many rejections: users run out at the end of a logical buffer
    (3001, 3000, 400, 1, 700),
    (5000, 3, 20_000, 1000, 2),  # 32-bit parts
    (200_000, 7000, 40, 7, None),  # 32-bit parts, many rejections
])
def test_blocks_chunks_and_wide_parts(p, k, omega, n, block, chunk_words):
    values = np.random.default_rng([k, n]).integers(0, k, n)
    _check(f"blocks-{p}-{k}-{omega}-{n}-{block}-{chunk_words}", values, k, omega, p, k + n, block=block,
           chunk_words=chunk_words)


@pytest.mark.parametrize("bitgen", ["MT19937", "SFC64", "Philox", "PCG64DXSM"])
@pytest.mark.parametrize(
    ("k", "omega", "block"), [(1000, 438, 1000), (300, 1, 64), (200, 199, 3), (5000, 40, 500)]
)
def test_buffered_bit_generators(bitgen, k, omega, block):
    values = np.random.default_rng(k).integers(0, k, 4000)
    _check(f"bitgen-{bitgen}-{k}-{omega}-{block}", values, k, omega, 0.4, k, bitgen=bitgen, block=block)


def test_no_users_draw_nothing():
    ours, theirs = _pair(7)
    out = draw_subsets(np.zeros(0, dtype=np.int64), 1000, 438, 0.5, ours)
    assert out.shape == (0, 438)
    assert _same_state(ours, theirs)

