"""hamman2023: Figs. 1-4 of the chapter, as functions of the results.

Each function takes the tidy results of one experiment (and, where the figure
shows one illustrative run, the output of :func:`.experiments.example`) and returns
the :class:`matplotlib.figure.Figure`; the notebook saves it (:func:`ldpfair.style.savefig`)
and shows it. Colours and markers are those of :mod:`ldpfair.style`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ... import style
from ...reporting import summarise

__all__ = ["plot_fig1", "plot_fig2", "plot_fig3", "plot_fig4"]


def _plot_s(ax: Axes, ex: Mapping[str, np.ndarray], ms: float, rows: slice = slice(None),
            labels: tuple[str, str] = ("from exact answers", "from concealed answers")) -> None:
    """True ``s`` and its reconstructions from exact and from concealed answers."""
    j = np.arange(ex["s_true"][rows].shape[0])
    ax.plot(j, ex["s_true"][rows], "o", ms=3, color=style.color("none"), label="true s")
    ax.plot(j, ex["s_clean"][rows], ".", ms=ms, color=style.color("laplace"), label=labels[0])
    ax.plot(j, ex["s_private"][rows], "x", ms=ms, color=style.color("conceal"), label=labels[1])


def _plot_sp(ax: Axes, ex: Mapping[str, np.ndarray], rows: slice = slice(None)) -> None:
    """True and answered SP queries."""
    i = np.arange(ex["sp"][rows].shape[0])
    ax.plot(i, ex["sp"][rows], "o", ms=3, color=style.color("none"), label="true SP")
    ax.plot(i, ex["sp_answered"][rows], "x", ms=3, color=style.color("conceal"), label="answered")


def plot_fig1(fig1: pd.DataFrame, ex: Mapping[str, np.ndarray]) -> Figure:
    """Fig. 1 (Adult, n = 100): leakage against m, one run's SP answers and its reconstructed ``s``.

    Parameters
    ----------
    fig1 : pandas.DataFrame
        Tidy results of the ``fig1`` sweep (one row per run).
    ex : mapping
        :func:`.experiments.example` ``("adult")``.
    """
    f1 = summarise(fig1, ["m", "epsilon"], ["leakage"])
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.2))
    for eps, lab in [(math.inf, "noiseless"), (100.0, "Attribute-Conceal, eps = 100")]:
        d = f1[f1["epsilon"] == eps]
        key = "none" if math.isinf(eps) else "conceal"
        axes[0].errorbar(d["m"], d["leakage_mean"], yerr=d["leakage_ci"], marker=style.marker(key),
                         color=style.color(key), label=lab, capsize=2)
    axes[0].axhline(50, color="grey", lw=0.8, ls=":")
    axes[0].set_xlabel("number of queries m")
    axes[0].set_ylabel("leakage (%)")
    axes[0].legend(fontsize=7)
    axes[0].set_title("(a)")
    _plot_sp(axes[1], ex)
    axes[1].set_xlabel("query")
    axes[1].set_ylabel("SP")
    axes[1].legend(fontsize=7)
    axes[1].set_title("(b)")
    _plot_s(axes[2], ex, ms=3)
    axes[2].set_xlabel("individual")
    axes[2].set_ylabel("s")
    axes[2].legend(fontsize=7)
    axes[2].set_title("(c)")
    return fig


def plot_fig2(fig2: pd.DataFrame) -> Figure:
    """Fig. 2 (synthetic): Avg. SP error (log) against leakage, one panel per n, one line per N0.

    Parameters
    ----------
    fig2 : pandas.DataFrame
        Tidy results of the ``fig2`` sweep; each panel's title gives its runs per point.
    """
    f2 = summarise(fig2, ["n", "n0", "m", "epsilon"], ["avg_sp_err", "median_sp_err", "leakage"])
    ns = sorted(f2["n"].unique())
    fig, axes = plt.subplots(1, len(ns), figsize=(3.7 * len(ns), 3.2), squeeze=False)
    palette = ["conceal", "laplace", "none", "smooth_laplace"]
    for ax, n in zip(axes[0], ns, strict=True):
        d = f2[f2["n"] == n]
        for k, (n0, g) in enumerate(d.groupby("n0")):
            ax.plot(g["leakage_mean"], g["avg_sp_err_mean"], marker=style.marker(palette[k % 4]),
                    color=style.color(palette[k % 4]), label=f"N0 = {n0}, m = {g['m'].iloc[0]}")
        ax.set_yscale("log")
        ax.set_xlabel("leakage (%)")
        ax.set_ylabel("Avg. SP err")
        runs = int(d["avg_sp_err_n"].min())
        ax.set_title(f"n = {n} ({runs} runs per point)")
        ax.legend(fontsize=7)
    return fig


def plot_fig3(ex: Mapping[str, np.ndarray]) -> Figure:
    """Fig. 3 (synthetic, n = 1000, N0 = 10, m = 60): reconstructed ``s`` (left), SP answers (right).

    Parameters
    ----------
    ex : mapping
        :func:`.experiments.example` ``("synthetic")``.
    """
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    _plot_s(axes[0], ex, ms=2)
    axes[0].set_xlabel("individual")
    axes[0].set_ylabel("s")
    axes[0].legend(fontsize=7)
    _plot_sp(axes[1], ex)
    axes[1].set_xlabel("query")
    axes[1].set_ylabel("SP")
    axes[1].legend(fontsize=7)
    return fig


def plot_fig4(fig4: pd.DataFrame, ex: Mapping[str, np.ndarray]) -> Figure:
    """Fig. 4 (German credit): recovered attributes against m, SP answers and reconstructed ``s``.

    Parameters
    ----------
    fig4 : pandas.DataFrame
        Tidy results of the ``fig4`` sweep.
    ex : mapping
        :func:`.experiments.example` ``("german")``; panels (b)-(d) show its first 100
        queries and individuals.
    """
    f4 = summarise(fig4, ["m", "epsilon"], ["recovered"])
    fig, axes = plt.subplots(1, 4, figsize=(14, 3.2))
    for eps, lab in [(math.inf, "noiseless"), (1000.0, "Attribute-Conceal, eps = 1000")]:
        d = f4[f4["epsilon"] == eps]
        key = "none" if math.isinf(eps) else "conceal"
        axes[0].plot(d["m"], d["recovered_mean"], marker=style.marker(key), color=style.color(key), label=lab)
    axes[0].set_xlabel("number of models m")
    axes[0].set_ylabel("recovered attributes")
    axes[0].legend(fontsize=7)
    axes[0].set_title("(a)")
    first = slice(0, 100)
    _plot_sp(axes[1], ex, first)
    axes[1].set_xlabel("query")
    axes[1].legend(fontsize=7)
    axes[1].set_title("(b)")
    i = np.arange(100)
    panels = [(axes[2], "s_clean", "(c) exact answers"), (axes[3], "s_private", "(d) concealed")]
    for ax, key, title in panels:
        ax.plot(i, ex["s_true"][first], "o", ms=3, color=style.color("none"), label="true s")
        ax.plot(i, ex[key][first], "x", ms=3, color=style.color("conceal"), label="reconstructed")
        ax.set_xlabel("individual")
        ax.set_title(title)
        ax.legend(fontsize=7)
    return fig
