"""Figures of the synthesis chapter: heatmaps, fairness-utility scatter, leaderboard.

Every figure is drawn at the book's content width with fonts of at least 10 pt,
so that its text stays above 9 px when a 10-inch figure is shown in a 700 px
column.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ... import style
from .analysis import deltas
from .experiments import MECHANISMS, dataset_label, dataset_order

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = ["HEATMAP_PANELS", "heatmap", "heatmap_values", "leaderboard_plot", "mechanism_look", "scatter"]

#: Heatmap panels: (column of :func:`~ldpfair.papers.synthesis.analysis.deltas`, title, sign).
#: Fairness panels show the change of the gap's size (private - NonDP; below 0 = fairer);
#: utility panels the change of the metric (below 0 = utility lost). All in points (x 100).
HEATMAP_PANELS: tuple[tuple[str, str, float], ...] = (
    ("gain_SPD", "Δ|SPD|", -1.0),
    ("gain_EOD", "Δ|EOD|", -1.0),
    ("gain_OAD", "Δ|OAD|", -1.0),
    ("gain_DI", "Δ|1 − DI|", -1.0),
    ("d_acc", "Δ accuracy", 1.0),
    ("d_auc_scores", "Δ AUC", 1.0),
)
_FONT: dict[RcKeyType, Any] = {"font.size": 10, "axes.titlesize": 10.5, "axes.labelsize": 10,
                               "xtick.labelsize": 10, "ytick.labelsize": 10, "legend.fontsize": 10}
# OPT shares RAPPOR's look in the book palette; here both appear, so OPT gets its own.
_LOOK = {"OPT": ("#882255", "P")}


def mechanism_look(name: str) -> tuple[str, str]:
    """Colour and marker of a mechanism in this chapter's figures."""
    return _LOOK.get(name, (style.color(name), style.marker(name)))


def _order(frame: pd.DataFrame) -> tuple[list[str], list[str]]:
    ds = [d for d in dataset_order() if d in set(frame["dataset"])]
    mech = [m for m in MECHANISMS if m in set(frame["mechanism"])]
    mech += sorted(set(frame["mechanism"]) - set(MECHANISMS) - {"NonDP"})  # user mechanisms last
    return ds, mech


def heatmap_values(frame: pd.DataFrame, epsilon: float, column: str, sign: float = 1.0) -> pd.DataFrame:
    """Mean over seeds of ``sign * column`` of :func:`deltas`, in points: datasets x mechanisms."""
    d = deltas(frame)
    d = d[np.isclose(d["epsilon"].astype(float), float(epsilon))]
    if column not in d.columns:
        raise ValueError(f"column must be one of the deltas' columns, got {column!r}")
    ds, mech = _order(d) if len(d) else ([], [])
    table = (sign * 100 * d.groupby(["dataset", "mechanism"])[column].mean()).unstack("mechanism")
    return table.reindex(index=ds, columns=mech)


def heatmap(frame: pd.DataFrame, epsilon: float) -> plt.Figure:
    """Dataset x mechanism heatmaps of the change against NonDP at one epsilon (six panels)."""
    with mpl.rc_context({**style.rc(), **_FONT}):
        fig, axes = plt.subplots(2, 3, figsize=(10, 7.2), sharey=True)
        for ax, (col, title, sign) in zip(axes.flat, HEATMAP_PANELS, strict=True):
            t = heatmap_values(frame, epsilon, col, sign)
            v = t.to_numpy(dtype=float)
            lim = float(np.nanmax(np.abs(v))) if np.isfinite(v).any() else 1.0
            lim = lim if lim > 0 else 1.0
            # fairness: blue = gap smaller (fairer); utility: blue = more accurate, red = utility lost
            im = ax.imshow(v, cmap="RdBu_r" if sign < 0 else "RdBu", vmin=-lim, vmax=lim, aspect="auto")
            ax.set_title(f"{title} (points)")
            ax.set_xticks(range(t.shape[1]), list(t.columns), rotation=60, ha="right")
            ax.set_yticks(range(t.shape[0]), [dataset_label(d) for d in t.index])
            ax.grid(False)
            fig.colorbar(im, ax=ax, shrink=0.85)
        fig.suptitle(f"Change against NonDP at ε = {epsilon:g} (mean over seeds; blue: fairer or "
                     "more accurate)")
    return fig


def scatter(frame: pd.DataFrame) -> plt.Figure:
    """Fairness gain against accuracy change, one panel per dataset, one point per (mechanism, epsilon).

    Fairness gain: mean over |SPD|, |EOD|, |OAD| of the reduction against NonDP (points);
    marker size grows with epsilon.
    """
    d = deltas(frame)
    cell = d.groupby(["dataset", "mechanism", "epsilon"])[["fairness_gain", "d_acc"]].mean().reset_index()
    ds, mech = _order(cell) if len(cell) else ([], [])
    eps = sorted(cell["epsilon"].unique()) if len(cell) else []
    sizes = {e: 18 + 22 * i for i, e in enumerate(eps)}
    with mpl.rc_context({**style.rc(), **_FONT}):
        ncol = 4
        nrow = max(1, int(np.ceil(len(ds) / ncol)))
        fig, axes = plt.subplots(nrow, ncol, figsize=(10, 2.9 * nrow + 0.9), squeeze=False)
        for ax, key in zip(axes.flat, ds, strict=False):
            c = cell[cell["dataset"] == key]
            for m in mech:
                cm = c[c["mechanism"] == m]
                colour, mark = mechanism_look(m)
                ax.scatter(100 * cm["d_acc"], 100 * cm["fairness_gain"], s=[sizes[e] for e in cm["epsilon"]],
                           color=colour, marker=mark, alpha=0.85, linewidths=0)
            ax.axhline(0, color="0.4", lw=0.8)
            ax.axvline(0, color="0.4", lw=0.8)
            ax.set_title(dataset_label(key))
        for ax in axes.flat[len(ds):]:
            ax.set_visible(False)
        for ax in axes[:, 0]:
            ax.set_ylabel("fairness gain (pt)")
        for ax in axes[-1, :]:
            ax.set_xlabel("Δ accuracy (pt)")
        handles = [plt.Line2D([], [], color=mechanism_look(m)[0], marker=mechanism_look(m)[1], ls="",
                              label=m) for m in mech]
        handles += [plt.Line2D([], [], color="0.3", marker="o", ls="", markersize=np.sqrt(sizes[e]),
                               label=f"ε = {e:g}") for e in eps]
        fig.legend(handles=handles, loc="outside lower center", ncol=min(7, len(handles)))
    return fig


def leaderboard_plot(board: pd.DataFrame, *, ax: Any = None) -> plt.Figure:
    """Mean fairness gain at matched utility loss per mechanism, with its seed-level interval."""
    with mpl.rc_context({**style.rc(), **_FONT}):
        if ax is None:
            fig, ax = plt.subplots(figsize=(7, 3.6))
        else:
            fig = ax.figure
        b = board.iloc[::-1]
        y = np.arange(len(b))
        for yi, r in zip(y, b.itertuples(index=False), strict=True):
            colour, mark = mechanism_look(r.mechanism)
            ax.errorbar(100 * r.gain, yi, xerr=[[100 * (r.gain - r.ci_low)], [100 * (r.ci_high - r.gain)]],
                        color=colour, marker=mark, capsize=3, ls="")
        ax.set_yticks(y, list(b["mechanism"]))
        ax.set_xlabel("fairness gain at matched accuracy loss (points; 95% interval over seeds)")
        ax.axvline(0, color="0.4", lw=0.8)
    return fig
