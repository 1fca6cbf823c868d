"""Makhlouf et al. (2024): every figure of the chapter, sized to be read at the book's column width.

Every figure here keeps its text at least :data:`MIN_TEXT_PX` pixels high when the
book shows it in a :data:`COLUMN_PX`-pixel content column (:func:`min_text_px`): a
figure ``W`` inches wide that is scaled to the column needs fonts of at least
``0.93 W`` points, so the wide one-row layouts of the paper are redrawn as grids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .aggregate import DISPARITY
from .experiments import EPSILONS

__all__ = [
    "COLUMN_PX",
    "MIN_TEXT_PX",
    "draw_causal_model",
    "draw_framework",
    "fig3_sources",
    "min_text_px",
    "plot_cell_rates",
    "plot_fig3",
    "plot_fig4",
    "plot_thresholds",
]

#: Width of the book's content column in pixels.
COLUMN_PX: int = 700
#: Smallest text height (pixels) a figure may show at the column width.
MIN_TEXT_PX: float = 9.0

_ROWS = ("SP", "EO", "PE", "OA", "PRP")
_MAJ, _MIN = "#D55E00", "#0072B2"  # vermillion (maj, A = 1) / blue (min, A = 0): Okabe-Ito
_TICK = 8.0  # points; every figure below is at most 7.5 inches wide, so 8 pt >= 0.93 W


def min_text_px(fig: Any, column_px: int = COLUMN_PX, dpi: float | None = None) -> float:
    """Height in pixels of the smallest visible text of ``fig`` when the book shows it.

    The notebook renders the figure at ``dpi`` (default ``fig.dpi``) with a tight
    bounding box; an image wider than ``column_px`` is scaled down to the column.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    column_px : int
        Width of the content column in pixels (> 0).
    dpi : float, optional
        Rendering resolution in dots per inch.

    Returns
    -------
    float
        ``min(font size in points) / 72 * dpi * min(1, column_px / image width)``.
    """
    from matplotlib.text import Text

    if column_px <= 0:
        raise ValueError(f"invalid column_px={column_px!r}; valid: a positive number of pixels")
    dpi = float(fig.dpi if dpi is None else dpi)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    width_px = fig.get_tightbbox(renderer).width * dpi
    scale = min(1.0, column_px / width_px)
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_window_extent(renderer).width > 0]
    return min(sizes) / 72.0 * dpi * scale


def _eps() -> tuple[float, ...]:
    return EPSILONS


def _x() -> np.ndarray:
    return np.arange(len(_eps()))


def _series(summ: pd.DataFrame, data: str, setting: str, col: str) -> np.ndarray:
    sel = summ.loc[(summ["data"] == data) & (summ["setting"] == setting)].set_index("epsilon")
    return np.array([sel[col].get(e, np.nan) if col in sel else np.nan for e in _eps()])


def _baseline(summ: pd.DataFrame, data: str, col: str) -> float:
    sel = summ.loc[(summ["data"] == data) & (summ["setting"] == "noLDP"), col]
    return float(sel.iloc[0]) if len(sel) else np.nan


def fig3_sources(family: str, mixed: bool = True) -> dict[str, dict[str, tuple[str, str]]]:
    """Which data feed each panel of Fig. 3: ``{rate: {setting: (points, band)}}``.

    ``mixed=True`` reproduces the authors' plotting notebooks (Synthetic: the sLDP
    column of the EO, PE and PRP rows plots S1_0.52 against an S1_0.44 band; COMPAS:
    the OA row plots compas_3 in both columns against a compas_1 band, the PRP row
    compas_3 with a compas_1 band for sLDP and a compas_3 band for combLDP);
    ``False`` uses τQ1 throughout.
    """
    q1 = {"synthetic": "S1_0.44", "compas": "compas_1", "adult": "adult_10000"}
    if family not in q1:
        raise ValueError(f"invalid family={family!r}; valid: {', '.join(q1)}")
    d = q1[family]
    src = {r: {"sLDP": (d, d), "combLDP": (d, d)} for r in _ROWS}
    if mixed and family == "synthetic":
        for r in ("EO", "PE", "PRP"):
            src[r]["sLDP"] = ("S1_0.52", d)
    if mixed and family == "compas":
        src["OA"] = {"sLDP": ("compas_3", d), "combLDP": ("compas_3", d)}
        src["PRP"] = {"sLDP": ("compas_3", d), "combLDP": ("compas_3", "compas_3")}
    return src


def _xticks(ax: Any, rotate: bool = False) -> None:
    ax.set_xticks(_x())
    ax.set_xticklabels([f"{e:g}" for e in _eps()], fontsize=_TICK, rotation=90 if rotate else 0)
    ax.tick_params(axis="y", labelsize=_TICK)


def plot_fig3(summ: pd.DataFrame, family: str, *, mixed: bool = True,
              authors: pd.DataFrame | None = None) -> Any:
    """Fig. 3 layout: 5 x 2 (rates x {sLDP, combLDP}), maj/min dots joined, grey baseline band.

    Parameters
    ----------
    summ : pandas.DataFrame
        :func:`~ldpfair.papers.makhlouf2024.aggregate.summary` of our runs.
    family : {"synthetic", "compas", "adult"}
    mixed : bool
        The authors' mixed-threshold rows (:func:`fig3_sources`).
    authors : pandas.DataFrame, optional
        Summary of the authors' runs, drawn as open markers.
    """
    import matplotlib.pyplot as plt

    src = fig3_sources(family, mixed)
    fig, axes = plt.subplots(5, 2, figsize=(7, 9), sharex="col", sharey=True)
    x = _x()
    for i, rate in enumerate(_ROWS):
        for j, setting in enumerate(("sLDP", "combLDP")):
            ax = axes[i, j]
            pts, band = src[rate][setting]
            lo, hi = sorted((_baseline(summ, band, f"{rate}_maj"), _baseline(summ, band, f"{rate}_min")))
            ax.axhspan(lo, hi, color="lightgrey", alpha=0.6, lw=0)
            ymaj = _series(summ, pts, setting, f"{rate}_maj")
            ymin = _series(summ, pts, setting, f"{rate}_min")
            ax.vlines(x, np.fmin(ymaj, ymin), np.fmax(ymaj, ymin), color="black", lw=0.8)
            ax.plot(x, ymaj, "o", color=_MAJ, ms=4, label="maj (A=1)")
            ax.plot(x, ymin, "s", color=_MIN, ms=4, alpha=0.7, label="min (A=0)")
            if authors is not None:
                ax.plot(x, _series(authors, pts, setting, f"{rate}_maj"), "o", mfc="none",
                        color=_MAJ, ms=7, mew=0.8, label="authors, maj")
                ax.plot(x, _series(authors, pts, setting, f"{rate}_min"), "s", mfc="none",
                        color=_MIN, ms=7, mew=0.8, label="authors, min")
            if i == 0:
                ax.set_title(setting, fontsize=10)
            if j == 0:
                ax.set_ylabel(f"{rate}\n({DISPARITY[rate]})", fontsize=9)
            if pts != band or pts != src["SP"]["sLDP"][0]:
                ax.text(0.98, 0.04, pts, transform=ax.transAxes, ha="right", fontsize=_TICK)
            _xticks(ax)
    axes[-1, 0].set_xlabel(r"$\varepsilon$")
    axes[-1, 1].set_xlabel(r"$\varepsilon$")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=_TICK, frameon=False)
    return fig


def plot_fig4(summ: pd.DataFrame, data: str, *, authors: pd.DataFrame | None = None) -> Any:
    """Fig. 4: the five disparities of combLDP and indLDP (mean, std error bars) and noLDP.

    The paper's 1 x 5 row is drawn as a 2 x 3 grid (the sixth cell holds the legend)
    so that the text stays readable at the column width.
    """
    import matplotlib.pyplot as plt

    from ... import style

    fig, axes = plt.subplots(2, 3, figsize=(7, 4.8), sharex=True)
    x = _x()
    flat = axes.ravel()
    for ax, rate in zip(flat[:5], _ROWS, strict=True):
        d = DISPARITY[rate]
        ax.axhline(_baseline(summ, data, d), color="black", lw=1, label="noLDP")
        for k, setting in enumerate(("combLDP", "indLDP")):
            c = style.color(setting)
            ax.errorbar(x + (k - 0.5) * 0.15, _series(summ, data, setting, d),
                        yerr=_series(summ, data, setting, f"{d}_std"), color=c,
                        marker=style.marker(setting), ms=3, lw=1, capsize=2, label=setting)
            if authors is not None:
                ax.plot(x, _series(authors, data, setting, d), ls=":", color=c, lw=1.4,
                        label=f"{setting} (authors)")
        ax.set_title(d, fontsize=10)
        _xticks(ax, rotate=True)
    axes[0, 2].tick_params(labelbottom=True)  # no panel below it
    for ax in (axes[1, 0], axes[1, 1], axes[0, 2]):
        ax.set_xlabel(r"$\varepsilon$", fontsize=9)
    axes[0, 0].set_ylabel("maj - min", fontsize=9)
    axes[1, 0].set_ylabel("maj - min", fontsize=9)
    handles, labels = flat[0].get_legend_handles_labels()
    flat[5].axis("off")
    flat[5].legend(handles, labels, loc="center", fontsize=9, frameon=False, title=data,
                   title_fontsize=9)
    return fig


def plot_thresholds(summ: pd.DataFrame, data: Sequence[str], *,
                    authors: pd.DataFrame | None = None,
                    titles: Sequence[str] = ("τQ1 (skewed to 1)", "τQ2 (balanced)", "τQ3 (skewed to 0)"),
                    ) -> Any:
    """Figs. 5-8 layout: 5 x 3 (rates x thresholds); solid maj, dashed min; grey baseline band."""
    import matplotlib.pyplot as plt

    from ... import style

    fig, axes = plt.subplots(5, 3, figsize=(7.5, 11.5), sharex="col")
    x = _x()
    for j, d in enumerate(data):
        for i, rate in enumerate(_ROWS):
            ax = axes[i, j]
            lo, hi = sorted((_baseline(summ, d, f"{rate}_maj"), _baseline(summ, d, f"{rate}_min")))
            ax.axhspan(lo, hi, color="lightgrey", alpha=0.6, lw=0)
            for setting in ("sLDP", "combLDP", "indLDP"):
                c = style.color(setting)
                ax.plot(x, _series(summ, d, setting, f"{rate}_maj"), "-", marker=".", color=c,
                        label=f"{setting} maj (A=1)")
                ax.plot(x, _series(summ, d, setting, f"{rate}_min"), "--", marker=".", color=c,
                        alpha=0.8, label=f"{setting} min (A=0)")
                if authors is not None:
                    for g in ("maj", "min"):
                        ax.plot(x, _series(authors, d, setting, f"{rate}_{g}"), ":", color=c,
                                lw=1.0, alpha=0.7)
            if i == 0:
                ax.set_title(f"{titles[j]}\n{d}", fontsize=9)
            if j == 0:
                ax.set_ylabel(rate, fontsize=9)
            _xticks(ax, rotate=True)
        axes[-1, j].set_xlabel(r"$\varepsilon$", fontsize=9)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if authors is not None:
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], ls=":", color="grey"))
        labels.append("authors' runs (dotted)")
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=_TICK, frameon=False)
    return fig


def plot_cell_rates(cells: pd.DataFrame) -> Any:
    """P(Y=1 | C, A, M) of each of the 12 cells: the authors' files against regenerated draws.

    Parameters
    ----------
    cells : pandas.DataFrame
        :func:`~ldpfair.papers.makhlouf2024.draws.synthetic_cells`: columns ``variant,
        quantile, source, draw, cell, p``.
    """
    import matplotlib.pyplot as plt

    variants = sorted(cells["variant"].unique())
    quantiles = sorted(cells["quantile"].unique())
    fig, axes = plt.subplots(len(variants), len(quantiles), figsize=(7, 2.4 * len(variants) + 0.6),
                             sharey=True, squeeze=False)
    names = sorted(cells["cell"].unique())
    for i, v in enumerate(variants):
        for j, q in enumerate(quantiles):
            ax = axes[i, j]
            sel = cells[(cells["variant"] == v) & (cells["quantile"] == q)]
            ax.axhline(0.5, color="black", lw=0.8)
            gen = sel[sel["source"] == "generate"]
            xs = gen["cell"].map({c: k for k, c in enumerate(names)})
            ax.plot(xs, gen["p"], "_", color="grey", ms=6, alpha=0.5, label="regenerated draws")
            auth = sel[sel["source"] == "authors"]
            if len(auth):
                ax.plot(auth["cell"].map({c: k for k, c in enumerate(names)}), auth["p"], "o",
                        color=_MAJ, ms=4, mfc="none", label="authors' file")
            ax.set_xticks(range(len(names)))
            ax.set_xticklabels(names, rotation=90, fontsize=_TICK)
            ax.tick_params(axis="y", labelsize=_TICK)
            ax.set_title(f"Synthetic {v}, quantile {q:g}", fontsize=9)
            if j == 0:
                ax.set_ylabel("P(Y=1 | cell)", fontsize=9)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=2, fontsize=_TICK, frameon=False)
    return fig


def _box(ax: Any, xy: tuple[float, float], text: str, color: str = "#E8E8E8") -> None:
    ax.text(*xy, text, ha="center", va="center", fontsize=9,
            bbox={"boxstyle": "round,pad=0.4", "fc": color, "ec": "black", "lw": 0.8})


def _arrow(ax: Any, a: tuple[float, float], b: tuple[float, float]) -> None:
    ax.annotate("", xy=b, xytext=a, arrowprops={"arrowstyle": "->", "lw": 1.0})


def draw_framework() -> Any:
    """Fig. 1: users perturb their sensitive attributes with k-RR; the server trains and audits.

    Drawn on two rows (collection, then training and audit) to stay readable at the column width.
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 4.2)
    ax.axis("off")
    _box(ax, (1.3, 3.0), "users\n(A, C, M, ..., Y)")
    _box(ax, (5.6, 3.7), "sLDP: k-RR on A", "#CCE5F4")
    _box(ax, (5.6, 2.95), "combLDP: k-RR on A1 x ... x Ad", "#CCEFE6")
    _box(ax, (5.6, 2.1), "indLDP: k-RR on each Ai,\neps_i = eps k_i / sum k", "#F3DCEB")
    _box(ax, (3.0, 0.6), "server: train Random Forest\n(privatised training folds)")
    _box(ax, (7.6, 0.6), "audit on the original test\nfold: SD, EOD, PED, OAD, PRD")
    for y in (3.7, 2.95, 2.1):
        _arrow(ax, (2.4, 3.0), (3.5, y))
        _arrow(ax, (7.7, y), (8.6, 2.9))
    _arrow(ax, (8.8, 2.6), (4.2, 1.05))
    _arrow(ax, (4.9, 0.6), (5.8, 0.6))
    ax.text(9.0, 2.9, "one\nsetting", ha="left", va="center", fontsize=9)
    return fig


def draw_causal_model() -> Any:
    """Fig. 2: causal graph and structural equations of the synthetic data (authors' code values)."""
    import matplotlib.pyplot as plt

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(7, 3.4), gridspec_kw={"width_ratios": [1, 1.9]})
    pos = {"C": (0.5, 2.5), "A": (0.5, 1.0), "M": (2.0, 0.2), "Y": (2.8, 1.8)}
    ax.set_xlim(0, 3.4)
    ax.set_ylim(-0.3, 3.0)
    ax.axis("off")
    for k, (px, py) in pos.items():
        ax.text(px, py, k, ha="center", va="center", fontsize=11,
                bbox={"boxstyle": "circle,pad=0.3", "fc": "white", "ec": "black"})
    for a, b in (("C", "A"), ("C", "Y"), ("A", "M"), ("A", "Y"), ("M", "Y")):
        (x0, y0), (x1, y1) = pos[a], pos[b]
        ax.annotate("", xy=(x0 + 0.82 * (x1 - x0), y0 + 0.82 * (y1 - y0)),
                    xytext=(x0 + 0.18 * (x1 - x0), y0 + 0.18 * (y1 - y0)),
                    arrowprops={"arrowstyle": "->", "lw": 1.2})
    ax.set_title("(a) causal graph", fontsize=9)
    bx.set_xlim(0, 1)
    bx.axis("off")
    eq = (r"$C \sim \mathcal{B}(0.35)$" "\n"
          r"$A \mid C \sim \mathcal{B}(0.55)$ if $C=0$; $\mathcal{B}(0.75)$ if $C=1$" "\n"
          r"$M \mid A \sim \mathcal{M}(0.5, 0.4, 0.1)$ if $A=0$;" "\n"
          r"$\quad \mathcal{M}(0.35, 0.4, 0.25)$ if $A=1$" "\n"
          r"$\quad$ (the authors' code; the paper swaps them)" "\n"
          r"$Y = 0.75\,A + 0.6\,M + 0.5\,C + U_Y$, $U_Y \sim \mathcal{N}(0,1)$" "\n"
          r"Synthetic 2: $-0.75\,A$ (A = 0 privileged)")
    bx.text(0.0, 0.5, eq, va="center", fontsize=9, linespacing=1.5)
    bx.set_title("(b) structural equations", fontsize=9)
    return fig
