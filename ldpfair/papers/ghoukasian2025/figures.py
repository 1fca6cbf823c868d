"""ghoukasian2025: every figure of the chapter, as functions of the results.

Each function returns the matplotlib Figure (the notebook saves and shows it):

- :func:`plot_theorem2`: Theorem 2's closed form against the brute-force search;
- :func:`plot_zeta_tradeoff`: program (9)/(10)'s Delta against the utility bound zeta;
- :func:`plot_lgbm`: one of Figs. 1-5 (accuracy, Delta_SP, Delta_EO against epsilon);
- :func:`plot_two_step`: Fig. 6 (Mozannar et al.'s two-step method with RR and OPT);
- :func:`plot_table1_tradeoff`: FairProjection's accuracy-fairness trade-off over its
  tolerance grid, with OPT and the unconstrained model (Table I).

:func:`book_figure` and :func:`lgbm_figures` save and glue them for the chapter's
``{glue:figure}`` directives (:func:`ldpfair.style.figure`), with a sentence in its place where
the profile has no results, so that every directive finds its key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pandas as pd

from ... import style
from ...reporting import summarise
from .experiments import LGBM_FIGURES

__all__ = ["plot_lgbm", "plot_two_step", "plot_zeta_tradeoff", "plot_theorem2", "plot_table1_tradeoff",
           "FOLDER", "book_figure", "lgbm_figures"]

#: Where the chapter's figures are saved.
FOLDER = "figures/ghoukasian2025"


def plot_lgbm(results: pd.DataFrame, figure: str, *, ax: Any = None) -> Any:
    """Draw one of Figs. 1-5: accuracy, Delta_SP and Delta_EO against epsilon.

    The paper's layout puts accuracy on the left and both gaps in one right
    panel; we give each gap its own panel (same data, easier to read) and one
    legend below.

    Parameters
    ----------
    results : DataFrame
        The figure's tidy results (``mechanism, epsilon, seed, acc, Delta_SP, Delta_EO``).
    figure : str
        Key of :data:`LGBM_FIGURES` (used in the title).
    ax : sequence of three Axes, optional

    Returns
    -------
    matplotlib Figure
    """
    style.use()
    spec = LGBM_FIGURES[figure]
    if ax is None:
        fig, ax = plt.subplots(1, 3, figsize=(10.0, 3.4), constrained_layout=True)
    else:
        fig = ax[0].figure
    metrics = ("acc", "Delta_SP", "Delta_EO")
    s = summarise(results, ["mechanism", "epsilon"], list(metrics))
    nondp = summarise(results[results["mechanism"] == "NonDP"], ["mechanism"], list(metrics))
    for a, metric in zip(ax, metrics, strict=True):
        for mech in [m for m in ("OPT", "GRR", "SS") if m in set(s["mechanism"])]:
            part = s[s["mechanism"] == mech].sort_values("epsilon")
            a.errorbar(part["epsilon"], part[f"{metric}_mean"], yerr=part[f"{metric}_ci"],
                       color=style.color(mech), marker=style.marker(mech), capsize=2,
                       label="RR" if mech == "GRR" and spec["k"] == 2 else mech, ms=4)
        if len(nondp):
            a.axhline(float(nondp[f"{metric}_mean"].iloc[0]), color=style.color("NonDP"), ls="--",
                      lw=1.2, label="NonDP")
        a.set_xscale("log")
        a.set_xlabel(r"$\varepsilon$")
        a.set_ylabel(_METRIC_LABEL[metric])
    handles, labels = ax[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.suptitle(f"{_DATASET_LABEL[spec['dataset']]}, {spec['protected']} (k = {spec['k']})",
                 fontsize=10)
    return fig


_METRIC_LABEL = {"Delta_SP": r"$\Delta_{SP}$", "Delta_EO": r"$\Delta_{EO}$", "acc": "accuracy"}
_DATASET_LABEL = {"adult26k": "Adult", "lsac": "LSAC"}


def plot_two_step(results: pd.DataFrame, *, test_attribute: str = "true") -> Any:
    """Fig. 6: accuracy and Delta_EOd of the two-step method with RR and OPT, per dataset.

    ``test_attribute="private"`` plots the variant where the derived predictor is
    applied with the privatised test attribute (the authors' RR branch).
    """
    style.use()
    suffix = "" if test_attribute == "true" else "_private_test"
    datasets = [d for d in ("adult", "lsac") if d in set(results["dataset"])]
    fig, ax = plt.subplots(len(datasets), 2, figsize=(9.0, 3.0 * len(datasets)), squeeze=False,
                           constrained_layout=True)
    metrics = [f"acc{suffix}", f"Delta_EOd{suffix}"]
    s = summarise(results, ["dataset", "mechanism", "epsilon"], metrics)
    for i, ds in enumerate(datasets):
        for j, (metric, ylabel) in enumerate(zip(metrics, ("accuracy", r"$\Delta_{EOd}$"), strict=True)):
            a = ax[i, j]
            for mech, look in (("RR", "GRR"), ("OPT", "OPT")):
                part = s[(s["dataset"] == ds) & (s["mechanism"] == mech)].sort_values("epsilon")
                a.errorbar(part["epsilon"], part[f"{metric}_mean"], yerr=part[f"{metric}_ci"],
                           color=style.color(look), marker=style.marker(look), capsize=2, ms=4, label=mech)
            a.set_xscale("log")
            a.set_xlabel(r"$\varepsilon$")
            a.set_ylabel(ylabel)
            a.set_title(_DATASET_LABEL.get(ds, ds.upper() if ds == "lsac" else ds.title()), fontsize=9)
        ax[i, 0].legend(fontsize=7)
    return fig


def plot_zeta_tradeoff(frames: dict[str, pd.DataFrame]) -> Any:
    """Program (9)/(10): OPT's Delta against zeta, with GRR's point, one panel per case."""
    style.use()
    fig, ax = plt.subplots(1, len(frames), figsize=(3.2 * len(frames), 3.0), squeeze=False,
                           constrained_layout=True)
    for a, (title, df) in zip(ax[0], frames.items(), strict=True):
        for eps, part in df.groupby("epsilon"):
            (line,) = a.plot(part["zeta"], part["delta_opt"], marker="o", ms=3,
                             label=rf"OPT, $\varepsilon$={eps:g}")
            a.plot(part["zeta_grr"].iloc[0], part["delta_grr"].iloc[0], marker=style.marker("GRR"),
                   color=line.get_color(), ms=8, ls="none", mfc="none")
            a.axvline(part["zeta_min"].iloc[0], color=line.get_color(), lw=0.8, ls=":")
        a.set_xlabel(r"utility bound $\zeta$")
        a.set_ylabel(r"$\Delta(D_M)$")
        a.set_title(title, fontsize=9)
        a.legend(fontsize=7)
    return fig


def plot_theorem2(check: pd.DataFrame) -> Any:
    """Theorem 2 check: brute-force vs closed-form ratio, and RR's ratio against OPT's."""
    style.use()
    fig, ax = plt.subplots(1, 2, figsize=(8.0, 3.2), constrained_layout=True)
    ax[0].plot(check["ratio_brute"], check["ratio_closed"], "o", ms=3, color=style.color("OPT"))
    ax[0].plot([0, 1], [0, 1], color="0.5", lw=0.8)
    ax[0].set_xlabel(r"brute force $\min \Delta'(D_M)/\Delta'(D)$")
    ax[0].set_ylabel("Theorem 2 closed form")
    ax[1].plot(check["epsilon"], check["ratio_rr"] / check["ratio_closed"], "o", ms=3,
               color=style.color("GRR"))
    ax[1].axhline(1, color="0.5", lw=0.8)
    ax[1].set_xscale("log")
    ax[1].set_yscale("log")
    ax[1].set_xlabel(r"$\varepsilon$")
    ax[1].set_ylabel("RR ratio / OPT ratio")
    return fig


def plot_table1_tradeoff(long: pd.DataFrame) -> Any:
    """FairProjection's trade-off: mean accuracy against the gap each constraint targets.

    One row of panels per dataset (SP constraint left, MEO right): FairProjection
    over the tolerance grid, OPT at epsilon = 1 and the unconstrained model.

    Parameters
    ----------
    long : DataFrame
        :func:`~ldpfair.papers.ghoukasian2025.baselines.long_fairprojection` of the
        Table I results (not empty).

    Returns
    -------
    matplotlib Figure
    """
    style.use()
    m = long.groupby(["dataset", "method"])[["acc", "Delta_SP", "Delta_MEO"]].mean().reset_index()
    dsets = sorted(m["dataset"].unique())
    fig, ax = plt.subplots(len(dsets), 2, figsize=(8.0, 3.0 * len(dsets)), squeeze=False,
                           constrained_layout=True)
    for i, ds in enumerate(dsets):
        part = m[m["dataset"] == ds]
        for j, (constraint, metric) in enumerate((("sp", "Delta_SP"), ("meo", "Delta_MEO"))):
            fp = part[part["method"].str.startswith(f"FP-{constraint}-")]
            ax[i, j].plot(fp[metric], fp["acc"], "o-", ms=3, color=style.color("GRR"), label="FairProjection")
            for meth, look in (("OPT", "OPT"), ("base", "NonDP")):
                r = part[part["method"] == meth]
                ax[i, j].plot(r[metric], r["acc"], marker=style.marker(look) or "x", ms=8, ls="none",
                              color=style.color(look), label=meth if meth == "OPT" else "unconstrained")
            ax[i, j].set_xlabel(metric.replace("Delta_", "Δ_"))
            ax[i, j].set_ylabel("accuracy")
            ax[i, j].set_title(f"{ds}, {constraint.upper()} constraint", fontsize=9)
        ax[i, 0].legend(fontsize=7)
    return fig


def book_figure(name: str, draw: Callable[..., Any], results: pd.DataFrame | Mapping[str, Any] | None,
                *args: Any, folder: str | Path = FOLDER) -> None:
    """Draw ``draw(results, *args)``, save it as ``name`` and glue it under ``name`` for the chapter.

    The figure is saved and glued by :func:`ldpfair.style.figure`. Nothing is returned,
    so the notebook cell shows only the glued figure.

    Parameters
    ----------
    name : str
        File stem under ``folder`` and glue key of the chapter's ``{glue:figure}`` directive.
    draw : callable
        One of this module's ``plot_*`` functions.
    results : DataFrame, mapping or None
        What it draws; ``None`` or empty when the profile has no results for it. Then the
        sentence ``"<name>: no results in this profile"`` is glued under ``name`` (so the
        directive still finds its key) and nothing is saved.
    *args
        Further arguments of ``draw``.
    folder : str or Path
        Where the figure is saved.
    """
    fig = draw(results, *args) if results is not None and len(results) else None
    style.figure(fig, name, folder, missing=f"{name}: no results in this profile")


def lgbm_figures(lgbm: Mapping[str, pd.DataFrame], folder: str | Path = FOLDER) -> None:
    """Save and glue each of Figs. 1-5 (:func:`plot_lgbm`) under its name, ``fig1`` to ``fig5``.

    A figure the profile has no results for is glued as a placeholder saying so
    (:func:`book_figure`).
    """
    for name in LGBM_FIGURES:
        book_figure(name, plot_lgbm, lgbm.get(name), name, folder=folder)
