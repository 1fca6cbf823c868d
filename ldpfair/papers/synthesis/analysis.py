"""The synthesis chapter's analysis of the results: paired deltas, means, leaderboard, measured cost."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .experiments import FAIRNESS, UTILITY, dataset_label

__all__ = ["combine", "cost", "deltas", "leaderboard", "means"]


def combine(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One tidy frame of every dataset's results (empty datasets are left out)."""
    parts = [f for f in frames.values() if f is not None and len(f)]
    if not parts:
        return pd.DataFrame(columns=["dataset", "mechanism", "epsilon", "seed"])
    return pd.concat(parts, ignore_index=True)


def _check_frame(frame: pd.DataFrame) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame of tidy results, got {type(frame).__name__}")
    need = {"dataset", "mechanism", "epsilon", "seed", "acc", *FAIRNESS}
    missing = sorted(need - set(frame.columns))
    if missing:
        raise ValueError(f"frame lacks the columns {missing}; pass tidy results of the chapter's grids "
                         "(SPEC.results)")


def deltas(frame: pd.DataFrame) -> pd.DataFrame:
    """Pair every private run with the non-private run of the same dataset and seed.

    Returns one row per (dataset, mechanism, epsilon, seed) with, for every metric
    ``m`` of :data:`FAIRNESS` and :data:`UTILITY`, ``d_m`` = private - NonDP, and the
    fairness gains ``gain_SPD``, ``gain_EOD``, ``gain_OAD`` = ``|m(NonDP)| - |m(private)|``
    and ``gain_DI`` = ``|1 - DI(NonDP)| - |1 - DI(private)|`` (positive: fairer than
    NonDP), their mean over SPD, EOD and OAD (``fairness_gain``) and the accuracy
    loss ``utility_loss`` = acc(NonDP) - acc(private). Seeds without a NonDP run are
    dropped.
    """
    _check_frame(frame)
    metrics = [m for m in (*FAIRNESS, *UTILITY) if m in frame.columns]
    base = frame[frame["mechanism"] == "NonDP"].set_index(["dataset", "seed"])[metrics]
    priv = frame[frame["mechanism"] != "NonDP"]
    keys = ["dataset", "mechanism", "epsilon", "seed"]
    b = base.reindex(pd.MultiIndex.from_frame(priv[["dataset", "seed"]])).to_numpy(dtype=float)
    p = priv[metrics].to_numpy(dtype=float)
    out = priv[keys].reset_index(drop=True).copy()
    for j, m in enumerate(metrics):
        out[f"d_{m}"] = p[:, j] - b[:, j]
    for j, m in enumerate(metrics):
        if m in ("SPD", "EOD", "OAD"):
            out[f"gain_{m}"] = np.abs(b[:, j]) - np.abs(p[:, j])
        elif m == "DI":
            out["gain_DI"] = np.abs(1 - b[:, j]) - np.abs(1 - p[:, j])
    out["fairness_gain"] = out[["gain_SPD", "gain_EOD", "gain_OAD"]].mean(axis=1)
    out["utility_loss"] = -out["d_acc"]
    return out[~np.isnan(b).all(axis=1)].reset_index(drop=True)


def means(frame: pd.DataFrame, metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Means over seeds per (dataset, mechanism, epsilon); NonDP has epsilon NaN."""
    _check_frame(frame)
    cols = [c for c in (metrics or (*FAIRNESS, *UTILITY, "Delta_SP", "Delta_EO")) if c in frame.columns]
    return frame.groupby(["dataset", "mechanism", "epsilon"], dropna=False)[cols].mean().reset_index()



# --------------------------------------------------------------------------- leaderboard
def _t_quantile(level: float, df: int) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.5 + level / 2, df)) if df > 0 else np.nan


def leaderboard(frame: pd.DataFrame, *, max_loss: float = 0.005, level: float = 0.95) -> pd.DataFrame:
    """Rank the mechanisms by fairness gain at matched utility loss.

    On each dataset, each mechanism is taken at its *most private* epsilon whose mean
    accuracy loss against NonDP (over seeds) is at most ``max_loss`` (the largest
    epsilon of the grid if none is); its fairness gain there (:func:`deltas`'s
    ``fairness_gain``, mean over |SPD|, |EOD|, |OAD|, in points) is averaged over
    the datasets. The confidence interval is over seeds: each seed's gain averaged
    over datasets, then a t interval on those per-seed averages.

    Parameters
    ----------
    frame : pandas.DataFrame
        Tidy results (:func:`combine`).
    max_loss : float
        Matched utility loss (accuracy, as a fraction; default half a point).
    level : float
        Confidence level of the interval, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        One row per mechanism, best first: ``mechanism, gain, ci_low, ci_high,
        mean_rank`` (mean over datasets of the rank by gain), ``wins`` (datasets where it
        ranks first), ``epsilon_median`` (median matched epsilon), ``datasets``.
    """
    if not (isinstance(max_loss, (int, float)) and np.isfinite(max_loss) and max_loss >= 0):
        raise ValueError(f"max_loss must be a finite number >= 0, got {max_loss!r}")
    if not (isinstance(level, float) and 0 < level < 1):
        raise ValueError(f"level must be a float in (0, 1), got {level!r}")
    d = deltas(frame)
    cols = ["mechanism", "gain", "ci_low", "ci_high", "mean_rank", "wins", "epsilon_median", "datasets"]
    if d.empty:
        return pd.DataFrame(columns=cols)
    cell = (d.groupby(["dataset", "mechanism", "epsilon"])[["utility_loss", "fairness_gain"]]
            .mean().reset_index())
    chosen = []
    for (ds, mech), g in cell.groupby(["dataset", "mechanism"]):
        g = g.sort_values("epsilon")
        ok = g[g["utility_loss"] <= max_loss]
        eps = float(ok["epsilon"].iloc[0]) if len(ok) else float(g["epsilon"].iloc[-1])
        chosen.append({"dataset": ds, "mechanism": mech, "epsilon": eps})
    ch = pd.DataFrame(chosen)
    sel = d.merge(ch, on=["dataset", "mechanism", "epsilon"])
    frame.attrs["leaderboard_selected"] = sel  # the matched cells, for ranks.rank_uncertainty
    per_ds = sel.groupby(["dataset", "mechanism"])["fairness_gain"].mean().unstack("mechanism")
    ranks = per_ds.rank(axis=1, ascending=False)
    per_seed = sel.groupby(["mechanism", "seed"])["fairness_gain"].mean().unstack("seed")
    rows = []
    for mech in per_ds.columns:
        s = per_seed.loc[mech].dropna().to_numpy()
        mean = float(per_ds[mech].mean())
        half = (_t_quantile(level, s.size - 1) * float(s.std(ddof=1)) / np.sqrt(s.size)
                if s.size > 1 else np.nan)
        rows.append({"mechanism": mech, "gain": mean, "ci_low": mean - half, "ci_high": mean + half,
                     "mean_rank": float(ranks[mech].mean()), "wins": int((ranks[mech] == 1).sum()),
                     "epsilon_median": float(ch.loc[ch["mechanism"] == mech, "epsilon"].median()),
                     "datasets": int(per_ds[mech].notna().sum())})
    return pd.DataFrame(rows, columns=cols).sort_values("gain", ascending=False).reset_index(drop=True)


# --------------------------------------------------------------------------- cost
def cost(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Measured compute cost per dataset: cells, core-seconds (sum of per-task times) and core-hours."""
    rows = []
    for key, f in frames.items():
        n = 0 if f is None else len(f)
        sec = float(f["t_total"].sum()) if n and "t_total" in f.columns else 0.0
        cov = getattr(f, "attrs", {}).get("coverage", {}) if f is not None else {}
        rows.append({"dataset": dataset_label(key), "cells": n, "declared": cov.get("total", n),
                     "core_seconds": sec, "seconds_per_cell": sec / n if n else np.nan})
    out = pd.DataFrame(rows, columns=["dataset", "cells", "declared", "core_seconds", "seconds_per_cell"])
    out["core_hours"] = out["core_seconds"] / 3600
    return out
