"""Ranks with their uncertainty: bootstrap over seeds and datasets, and groups the run cannot tell apart.

The leaderboard (:func:`~ldpfair.papers.synthesis.analysis.leaderboard`) ranks
mechanisms by their mean fairness gain at matched utility loss. This module
resamples the datasets and, within each, the seeds (with replacement), recomputes
every mechanism's mean gain and rank, and reports percentile intervals of both.
Mechanisms are grouped greedily from the best: a mechanism joins the current
group when its rank interval reaches the group leader's. Ranks within a group
are not significant at the stated level.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["rank_note", "rank_uncertainty"]


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
    group, leader_hi, gid = [], -1, 0
    for r in out.itertuples():
        if r.rank_low > leader_hi:
            gid, leader_hi = gid + 1, r.rank_high
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
    return (f"ranks are not significant within a group ({level:.0%} bootstrap over seeds and datasets; "
            f"the run cannot tell these apart): {parts}")
