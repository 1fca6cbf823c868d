r"""Subset selection's sampler: Floyd's algorithm on Lemire integers from raw words.

Per user, ``64 / bits`` raw parts make a 64-bit ``u`` (``u < T`` puts the true
value in), then ``omega`` Lemire integers drive Floyd's algorithm over the
``k - 1`` other values (see :func:`_subset_kernel_pcg`). The parts come from
buffers of raw words of a fixed size per block of users (:func:`draw_subsets`);
a buffer's left-over words are discarded.

For ``numpy.random.PCG64`` (``default_rng``) the words are generated inside numba
(:func:`ldpfair.ldp._pcg.fill_raw`: the same words as ``rng.integers(0, 2**64,
dtype=uint64)``, which copies ``next_uint64``), and the generator is left in the
same state: for ``k - 1 > 128`` a buffer is never materialised but generated a
cache-sized chunk at a time (:func:`_draw_pcg`); for smaller domains the
buffers are filled into one reused array instead of a fresh array each.

A user's Floyd draws run in a kernel of their own (:func:`_floyd16`,
:func:`_floyd32`: the part width, shift and mask are constants there, and the
loop has few live values, so it runs in registers; inside the per-user kernel
it spilled to the stack). The draws, and the words consumed, are the same.
"""

from __future__ import annotations

import numba
import numpy as np

from . import _pcg
from ._bits import BLOCK, TWO64, _buffer_size, _lemire, _part_bits, _parts, member_dtype, raw_words, threshold
from ._pcg import fill_raw

__all__ = ["draw_subsets"]


@numba.njit(cache=True, nogil=True, inline="always")
def _lemire_reject(raw, pos, n, su, mm, mask):  # pragma: no cover - compiled
    """Lemire's rejection loop after a first product ``mm`` with ``mm mod 2^bits < s``.

    Returns whether a part was accepted, the accepted product and the position;
    ``False`` when the buffer ran out first.
    """
    t = ((mask - su) + np.uint64(1)) % su  # 2^bits mod s
    while (mm & mask) < t:
        if pos >= n:
            return False, mm, pos
        mm = np.uint64(raw[pos]) * su
        pos += np.uint64(1)
    return True, mm, pos


@numba.njit(cache=True, nogil=True, inline="always")
def _floyd(parts, upos, n_raw, j, mu, stamp, gen, out, i, pp, v, sh, mask):  # pragma: no cover - compiled
    """Floyd's draws ``j .. mu - 1`` of user ``i`` into ``out[i, pp ..]`` (see :func:`_subset_kernel_pcg`).

    Returns whether the user completed and the position after its parts; ``False``
    when the parts ``.. n_raw`` ran out first.
    """
    one = np.uint64(1)
    off = np.uint64(pp) - j  # row index = j + off (mod 2^64)
    while j < mu:
        avail = n_raw - upos
        if avail == 0:
            return False, upos
        end = j + min(mu - j, avail)
        while j < end:
            su = j + one
            mm = np.uint64(parts[upos]) * su
            upos += one
            if (mm & mask) < su:  # Lemire's rejection test, inlined
                t = ((mask - su) + one) % su  # 2^bits mod s
                while (mm & mask) < t:
                    if upos >= n_raw:
                        return False, upos
                    mm = np.uint64(parts[upos]) * su
                    upos += one
                end = min(end, su + (n_raw - upos))
            x = mm >> sh
            x = j if stamp[x] == gen else x
            stamp[x] = gen
            out[i, j + off] = x + (x >= v)
            j = su
    return True, upos


@numba.njit(cache=True, nogil=True)
def _floyd16(parts, upos, n_raw, j, mu, stamp, gen, out, i, pp, v):  # pragma: no cover - compiled
    """:func:`_floyd` on 16-bit parts (constant shift and mask)."""
    return _floyd(parts, upos, n_raw, j, mu, stamp, gen, out, i, pp, v, np.uint64(16), np.uint64(0xFFFF))


@numba.njit(cache=True, nogil=True)
def _floyd32(parts, upos, n_raw, j, mu, stamp, gen, out, i, pp, v):  # pragma: no cover - compiled
    """:func:`_floyd` on 32-bit parts (constant shift and mask)."""
    return _floyd(parts, upos, n_raw, j, mu, stamp, gen, out, i, pp, v, np.uint64(32), np.uint64(0xFFFFFFFF))


#: Slots of the control array of :func:`_subset_kernel_pcg`.
_CBASE, _CLEN, _VEND, _GW, _BW, _CPOS = range(6)

#: Parts kept ahead of a user in the chunk (beyond ``omega + 64 / bits``) for rejections.
_AHEAD = 64


@numba.njit(cache=True, nogil=True)
def _refill(words, ctl, st, lane, keep, per_word):  # pragma: no cover - compiled
    """Keep the chunk's parts from ``keep`` (rounded down to a word) and append fresh words.

    ``words`` is the chunk as uint64 words (the kernel reads it through a
    uint16/uint32 view, so a word's parts come from its low bits up, as in a view
    of a ``raw_words`` draw). Words are appended up to the chunk's capacity or the
    end of the logical buffer (``ctl[_BW]`` words, ``ctl[_GW]`` generated so far).
    Returns how many parts the kept ones moved.
    """
    w0 = keep // per_word
    have = ctl[_CLEN] // per_word - w0
    for q in range(have):
        words[q] = words[w0 + q]
    ctl[_CBASE] += w0 * per_word
    add = min(words.shape[0] - have, ctl[_BW] - ctl[_GW])
    fill_raw(words[have : have + add], st, lane)
    ctl[_GW] += add
    ctl[_CLEN] = (have + add) * per_word
    return w0 * per_word


@numba.njit(cache=True, nogil=True)
def _subset_kernel_pcg(out, values, i, bits, k, omega, t, full, stamp, gen, words, parts, ctl, st, lane):
    r"""Subset selection for users ``i ..`` from one logical buffer of raw parts.

    Per user: ``64 / bits`` parts make a 64-bit ``u``; ``u < T`` puts the true
    value ``v`` in the subset. Then always ``omega`` integers with ranges
    ``m - omega + 1 .. m`` (``m = k - 1`` others): when ``v`` is in, the first is
    drawn and unused, so the parts a user consumes do not depend on its outcome.
    Floyd: for ``j = m - need .. m - 1`` take ``x`` uniform on ``[0, j]``, or ``j``
    if ``x`` is taken (``stamp[x] == gen``, branch-free select); others index
    ``x`` maps to ``x + (x >= v)``. Lemire is inlined: ``x = (part (j + 1)) >>
    bits``, rejection tested only when the low bits are below ``j + 1``. The
    draws go in segments in which each has at least its first part left (no
    bounds test per draw; a rejection shortens the segment), in :func:`_floyd`
    (called through :func:`_floyd16` / :func:`_floyd32`). Indices are unsigned.

    The logical buffer (``ctl[_BW]`` words, as one ``raw_words`` draw) is the
    parts ``ctl[_CBASE] ..`` (``ctl[_CLEN]`` of them) of the chunk ``parts`` (a
    uint16 or uint32 view of ``words``): for PCG64 a cache-sized chunk refilled
    (:func:`_refill`) from the position of the current user when fewer than
    ``omega + 64 / bits + _AHEAD`` parts are left; for a materialised buffer
    (:func:`_subset_kernel`) the whole buffer. A user starts only if
    ``omega + 64 / bits`` parts of the logical buffer are left; one that runs out
    at the end of the chunk but not of the logical buffer is redone after a
    refill (its outcome depends only on its parts); at the end of the logical
    buffer (also on entry to a draw) it is restarted on the next buffer. Returns
    ``(i, gen, status)``: status 0 when the logical buffer is used up (or every
    user done), 1 when one user needs more parts than the chunk holds.
    """  # pragma: no cover - compiled
    n = values.shape[0]
    per_word = 64 // bits
    per_user = omega + per_word
    sh = np.uint64(bits)
    mask = (np.uint64(1) << sh) - np.uint64(1)
    one = np.uint64(1)
    m = k - 1
    mu = np.uint64(m)
    while i < n:
        cpos = ctl[_CPOS]
        vrem = ctl[_VEND] - ctl[_CBASE] - cpos
        if vrem < per_user:
            return i, gen, 0
        if ctl[_CLEN] - cpos < min(per_user + _AHEAD, vrem):
            cpos -= _refill(words, ctl, st, lane, cpos, per_word)
            ctl[_CPOS] = cpos
        gen += 1
        n_raw = np.uint64(ctl[_CLEN])
        upos = np.uint64(cpos)
        v = np.uint64(values[i])
        u = np.uint64(0)
        for q in range(per_word):
            u = (u << sh) | np.uint64(parts[upos + np.uint64(q)])
        upos += np.uint64(per_word)
        ok = True
        p0 = 0
        if full or u < t:
            out[i, 0] = v
            p0 = 1
            su = np.uint64(m - omega + 1)  # the unused draw
            if upos >= n_raw:
                ok = False
            else:
                mm = np.uint64(parts[upos]) * su
                upos += one
                if (mm & mask) < su:
                    ok, mm, upos = _lemire_reject(parts, upos, n_raw, su, mm, mask)
        j = np.uint64(m - omega + p0)
        if ok and j < mu:
            if bits == 16:
                ok, upos = _floyd16(parts, upos, n_raw, j, mu, stamp, gen, out, i, p0, v)
            else:
                ok, upos = _floyd32(parts, upos, n_raw, j, mu, stamp, gen, out, i, p0, v)
        if ok:
            ctl[_CPOS] = np.int64(upos)
            i += 1
        elif ctl[_CBASE] + ctl[_CLEN] >= ctl[_VEND]:  # the logical buffer ran out: next buffer
            ctl[_CPOS] = ctl[_CLEN]
            return i, gen, 0
        else:  # the chunk ran out: keep the user's parts, refill, redo the user
            before = ctl[_CLEN] - cpos
            cpos -= _refill(words, ctl, st, lane, cpos, per_word)
            ctl[_CPOS] = cpos
            if ctl[_CLEN] - cpos <= before:
                return i, gen, 1
    return i, gen, 0


@numba.njit(cache=True, nogil=True)
def _subset_kernel(out, values, i, raw, pos, bits, k, omega, t, full, stamp, gen):  # pragma: no cover
    """:func:`_subset_kernel_pcg` on the materialised buffer of parts ``raw``, from position ``pos``.

    Returns ``(i, pos, gen)``; ``pos = len(raw)`` when the buffer ran out mid-user.
    """
    n_raw = raw.shape[0]
    ctl = np.zeros(6, dtype=np.int64)
    ctl[_CLEN] = n_raw
    ctl[_VEND] = n_raw
    ctl[_CPOS] = pos
    nil = np.zeros(0, dtype=np.uint64)  # no words to generate
    i, gen, _ = _subset_kernel_pcg(out, values, i, bits, k, omega, t, full, stamp, gen, nil, raw, ctl, nil,
                                   nil)
    return i, ctl[_CPOS], gen


@numba.njit(cache=True, nogil=True)
def _subset_kernel_small(out, values, i, raw, pos, bits, k, omega, t, full):  # pragma: no cover
    """:func:`_subset_kernel` for ``k - 1 <= 128``: the taken set lives in two 64-bit registers."""
    n = values.shape[0]
    n_raw = raw.shape[0]
    nparts = 64 // bits
    sh = np.uint64(bits)
    m = k - 1
    one = np.uint64(1)
    z = np.uint64(0)
    while i < n and n_raw - pos >= omega + nparts:
        v = values[i]
        u = np.uint64(0)
        for q in range(nparts):
            u = (u << sh) | np.uint64(raw[pos + q])
        pos += nparts
        inc = full or u < t
        p0 = 0
        if inc:
            out[i, 0] = v
            p0 = 1
            x, pos = _lemire(raw, pos, m - omega + 1, bits)  # unused draw
            if x < 0:
                return i, n_raw
        need = omega - p0
        row = out[i]
        pp = p0
        lo = z
        hi = z
        for j in range(m - need, m):
            x, pos = _lemire(raw, pos, j + 1, bits)
            if x < 0:
                return i, n_raw
            w = lo if x < 64 else hi
            taken = (w >> np.uint64(x & 63)) & one
            x = j if taken else x
            bm = one << np.uint64(x & 63)
            lo |= bm if x < 64 else z
            hi |= z if x < 64 else bm
            row[pp] = x + (x >= v)
            pp += 1
        i += 1
    return i, pos


def draw_subsets(
    values: np.ndarray,
    k: int,
    omega: int,
    p: float,
    rng: np.random.Generator,
    *,
    block: int = BLOCK,
    chunk_words: int | None = None,
) -> np.ndarray:
    r"""Subsets of size ``omega``: ``v`` in with probability ``p``, the rest uniform from ``[k] \ {v}``.

    Parameters
    ----------
    values : numpy.ndarray of int64
        True values in ``[0, k)``.
    k, omega : int
        Domain and subset sizes (``1 <= omega <= k - 1``).
    p : float
        Inclusion probability of the true value (exactly ``threshold(p) / 2^64``).
    rng : numpy.random.Generator
        Source of the raw words.
    block : int
        Users per raw-word buffer.
    chunk_words : int, optional
        Words per chunk of the PCG64 path (default: at least :data:`CHUNK_PARTS`
        parts and four users' worth); small values exercise its refill and
        growth paths. The draws do not depend on it.

    Returns
    -------
    numpy.ndarray of shape (n, omega)
        Members, in :func:`member_dtype` ``(k)`` (the smallest unsigned type holding ``k - 1``).
    """
    if not 1 <= omega <= k - 1 or k - 1 > 1 << 32:
        raise ValueError(f"need 1 <= omega <= k - 1 <= 2**32, got k={k}, omega={omega}")
    if chunk_words is not None and chunk_words < 1:
        raise ValueError(f"chunk_words must be >= 1, got {chunk_words}")
    n = values.shape[0]
    # members are stored in the smallest unsigned type that holds k - 1 (uint8 for k <= 256):
    # the output is omega values per user, and its memory traffic dominates at large omega
    out = np.empty((n, omega), dtype=member_dtype(k))
    t = threshold(p)
    full = t == TWO64
    tu = np.uint64(t % TWO64)
    bits = _part_bits(k - 1)
    per_word = 64 // bits
    stamp = np.full(k - 1, -1, dtype=np.int64)
    parts = omega + per_word  # per user, without rejections
    if n > 0 and k - 1 > 128 and _pcg.is_pcg64(rng):
        _draw_pcg(out, values, k, omega, tu, full, bits, stamp, rng, block, chunk_words)
        return out
    i, pos, gen = 0, 0, 0
    raw = _parts(np.zeros(0, dtype=np.uint64), bits)
    pcg = n > 0 and _pcg.is_pcg64(rng)
    if pcg:  # one reused array for the buffers (the first is the largest), filled in numba
        state, st = _pcg.read_state(rng)
        lane = _pcg.lane_constants(state["state"]["inc"])
        store = np.empty(_buffer_size(min(n, block), parts / per_word, 0.5, parts), dtype=np.uint64)
    while i < n:
        if raw.shape[0] - pos < parts:
            users = min(n - i, block)
            size = _buffer_size(users, parts / per_word, 0.5, parts)
            if pcg:
                words = store[:size]
                _pcg.fill_raw(words, st, lane)
            else:
                words = raw_words(rng, size)
            raw = _parts(words, bits)
            pos = 0
        if k - 1 <= 128:
            i, pos = _subset_kernel_small(out, values, i, raw, pos, bits, k, omega, tu, full)
        else:
            i, pos, gen = _subset_kernel(out, values, i, raw, pos, bits, k, omega, tu, full, stamp, gen)
    if pcg:
        _pcg.write_state(rng, state, st)
    return out


#: Parts per chunk of :func:`_subset_kernel_pcg` (at least; 8 KiB of 16-bit parts).
CHUNK_PARTS = 4096


@numba.njit(cache=True, nogil=True)
def _skip_words(scratch, st, lane, count):  # pragma: no cover - compiled
    """Advance the PCG64 state ``st`` by ``count`` words (generated into ``scratch``, unused)."""
    while count > 0:
        w = scratch[: min(scratch.shape[0], count)]
        fill_raw(w, st, lane)
        count -= w.shape[0]


def _draw_pcg(out, values, k, omega, t, full, bits, stamp, rng, block, chunk_words):
    """:func:`draw_subsets`' loop over logical buffers for a PCG64 ``rng`` and ``k - 1 > 128``.

    Each logical buffer has the size of the ``raw_words`` draw it replaces and
    consumes exactly as many words of the stream (its unused tail is skipped),
    so the generator ends where the buffered draws leave it.
    """
    n = values.shape[0]
    per_word = 64 // bits
    per_user = omega + per_word
    state, st = _pcg.read_state(rng)
    lane = _pcg.lane_constants(state["state"]["inc"])
    if chunk_words is None:
        chunk_words = max(CHUNK_PARTS, 4 * (per_user + _AHEAD)) // per_word + 1
    chunk = np.empty(chunk_words, dtype=np.uint64)
    scratch = np.empty(256, dtype=np.uint64)
    ctl = np.zeros(6, dtype=np.int64)
    i, gen = 0, 0
    while i < n:
        _skip_words(scratch, st, lane, ctl[_BW] - ctl[_GW])  # the previous buffer's unused words
        words = _buffer_size(min(n - i, block), per_user / per_word, 0.5, per_user)
        ctl[:] = (0, 0, words * per_word, 0, words, 0)
        status = 1
        while status == 1:
            parts = _parts(chunk, bits)
            i, gen, status = _subset_kernel_pcg(
                out, values, i, bits, k, omega, t, full, stamp, gen, chunk, parts, ctl, st, lane
            )
            if status == 1:  # one user needs more parts than the chunk holds
                chunk = np.concatenate([chunk, np.empty_like(chunk)])
    _skip_words(scratch, st, lane, ctl[_BW] - ctl[_GW])
    _pcg.write_state(rng, state, st)
