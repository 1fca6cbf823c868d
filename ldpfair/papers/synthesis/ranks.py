"""Ranks with their uncertainty: bootstrap intervals over seeds and datasets, and groups by an exact test.

The leaderboard (:func:`~ldpfair.papers.synthesis.analysis.leaderboard`) ranks
mechanisms by their mean fairness gain at matched utility loss. This module
resamples the datasets and, within each, the seeds (with replacement), recomputes
every mechanism's mean gain and rank, and reports percentile intervals of both.

Groups come from an exact test, not from the bootstrap: the percentile bootstrap
over two data sets and a few seeds has only a handful of distinct resamples and
separated five implementations of one channel in a run of the quick profile.
Mechanisms are taken from the best gain down; each is compared with its group's
leader by an exact paired sign-flip test on the per-(dataset, seed) gains
(all 2^m sign patterns for m <= 16 blocks, else 2^14 random ones), at level
``(1 - level) / (n - 1)`` (Bonferroni over the n - 1 comparisons, so that the
same channel from n implementations is one group with probability at least
``level``). A mechanism the test does not separate from the leader joins its
group; one it separates leads the next group. Ranks within a group are not
significant at the stated level; with few blocks nothing can be (m = 6 blocks
give a smallest p-value of 2/64).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["rank_note", "rank_uncertainty", "sign_flip_p"]


def sign_flip_p(diff: np.ndarray, rng: np.random.Generator, *, draws: int = 2**14) -> float:
    """Two-sided p-value of the exact paired sign-flip test that ``diff`` is centred on 0.

    All ``2**m`` sign patterns when there are ``m <= 16`` differences, else ``draws``
    random patterns (p = (1 + hits) / (1 + draws)). NaN differences are dropped; no
    difference left gives 1.
    """
    d = np.asarray(diff, dtype=float)
    d = d[np.isfinite(d)]
    m = d.size
    if m == 0:
        return 1.0
    observed = abs(d.mean())
    tol = 1e-12 * max(1.0, float(np.abs(d).max()))
    if m <= 16:
        signs = 1 - 2 * ((np.arange(2**m)[:, None] >> np.arange(m)) & 1)
        return float(np.mean(np.abs(signs @ d) / m >= observed - tol))
    signs = rng.choice(np.array([-1.0, 1.0]), size=(draws, m))
    hits = int(np.sum(np.abs(signs @ d) / m >= observed - tol))
    return (1 + hits) / (1 + draws)


def rank_uncertainty(
    selected: pd.DataFrame, *, n_boot: int = 2000, level: float = 0.95, seed: int = 44
) -> pd.DataFrame:
    """Bootstrap intervals of gain and rank, and groups: one row per mechanism, best first.

    Parameters
    ----------
    selected : pandas.DataFrame
        The leaderboard's matched cells (``dataset, mechanism, seed, fairness_gain``).
    n_boot : int
        Bootstrap replicates.
    level : float
        Level of the percentile intervals, in (0, 1).
    seed : int
        Seed of the resampling.

    Returns
    -------
    pandas.DataFrame
        ``mechanism, gain, gain_low, gain_high, rank, rank_low, rank_high, group``.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    g = selected.groupby(["dataset", "seed", "mechanism"])["fairness_gain"].mean().unstack("mechanism")
    mechs = list(g.columns)
    datasets = list(g.index.get_level_values("dataset").unique())
    blocks = [g.xs(ds, level="dataset").to_numpy(dtype=float) for ds in datasets]
    rng = np.random.default_rng(np.random.SeedSequence([seed, len(mechs)]))
    boot = np.empty((n_boot, len(mechs)))
    for b in range(n_boot):
        picks = rng.integers(0, len(blocks), len(blocks))
        means = [np.nanmean(blocks[i][rng.integers(0, blocks[i].shape[0], blocks[i].shape[0])], axis=0)
                 for i in picks]
        boot[b] = np.nanmean(np.stack(means), axis=0)
    ranks = (-boot).argsort(axis=1).argsort(axis=1) + 1
    point = np.nanmean(np.stack([np.nanmean(x, axis=0) for x in blocks]), axis=0)
    lo, hi = (1 - level) / 2 * 100, (1 + level) / 2 * 100
    out = pd.DataFrame({
        "mechanism": mechs, "gain": point,
        "gain_low": np.percentile(boot, lo, axis=0), "gain_high": np.percentile(boot, hi, axis=0),
        "rank_low": np.percentile(ranks, lo, axis=0).round().astype(int),
        "rank_high": np.percentile(ranks, hi, axis=0).round().astype(int),
    }).sort_values("gain", ascending=False).reset_index(drop=True)
    out.insert(4, "rank", np.arange(1, len(out) + 1))
    paired = np.concatenate(blocks)  # one row per (dataset, seed), one column per mechanism
    column = {m: i for i, m in enumerate(mechs)}
    alpha = (1 - level) / max(1, len(mechs) - 1)
    group: list[int] = []
    leader, gid = None, 0
    for m in out["mechanism"]:
        if leader is None or sign_flip_p(paired[:, column[leader]] - paired[:, column[m]], rng) <= alpha:
            leader, gid = m, gid + 1
        group.append(gid)
    out["group"] = group
    return out


def rank_note(board: pd.DataFrame, level: float = 0.95) -> str | None:
    """One line when some ranks are not significant (a group of several mechanisms), else ``None``."""
    groups = [list(x["mechanism"]) for _, x in board.groupby("group", sort=True)]
    tied = [gr for gr in groups if len(gr) > 1]
    if not tied:
        return None
    parts = "; ".join(f"group {i + 1}: {', '.join(gr)}" for i, gr in enumerate(groups))
    return (f"ranks are not significant within a group (exact paired sign-flip test over seeds and datasets "
            f"against each group's best, {level:.0%} for the whole board; the run cannot tell these apart): "
            f"{parts}")
