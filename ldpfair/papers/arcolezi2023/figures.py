"""arcolezi2023's figures: Figs. 2-13 in the paper's layout (one row per metric, uniform and k-based split).

:func:`figure` draws the paper's figure ``number`` from our results and the
authors' per-seed results (:func:`~ldpfair.papers.arcolezi2023.authors.authors_results`);
:func:`plot_dataset` and :func:`plot_metrics` are the layout it uses, and
:func:`glue_figures` saves and glues figures for the chapter's ``{glue:figure}``
directives. Fig. 1 is a
table (:func:`ldpfair.papers.arcolezi2023.example.worked_example`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from ...ldp import PROTOCOLS
from ...reporting import summarise
from .experiments import FAIRNESS, FIGURES, PAPER_NAMES, SPLITS

__all__ = ["figure", "glue_figures", "plot_dataset", "plot_metrics"]

_LABELS = {"auc_labels": "AUC (hard labels)", "acc": "accuracy", "f1": "F1", "recall": "recall"}


def plot_metrics(
    results: pd.DataFrame,
    metrics: Iterable[str] = FAIRNESS,
    *,
    title: str | None = None,
    reference: pd.DataFrame | None = None,
) -> Any:
    """Draw the paper's layout: one row per metric, columns uniform and k-based split.

    Each protocol's mean over seeds is a line against epsilon (categorical x axis,
    as in the paper); the NonDP mean is a dashed black line. With ``reference``
    (the authors' per-seed results in the same tidy shape), their means are drawn
    as hollow markers of the same colour, so the two reproductions can be compared
    point by point.

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy results of one dataset's grid.
    metrics : iterable of str
        Metric columns, one row of panels each.
    title : str, optional
        Prefix of the column titles (e.g. the dataset name).
    reference : pandas.DataFrame, optional
        The authors' results (columns ``mechanism, split, epsilon`` and the metrics).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from ... import style

    metrics = list(metrics)
    private = results[results.mechanism != "NonDP"]
    base = results[results.mechanism == "NonDP"]
    eps = sorted(private.epsilon.dropna().unique())
    xpos = {e: i for i, e in enumerate(eps)}
    summary = summarise(private, ["mechanism", "split", "epsilon"], metrics) if len(private) else None
    ref_summary = (
        summarise(reference, ["mechanism", "split", "epsilon"], metrics)
        if reference is not None and len(reference)
        else None
    )
    fig, axes = plt.subplots(len(metrics), 2, figsize=(7.2, 1.9 * len(metrics) + 0.8), sharey="row",
                             squeeze=False, sharex=True)
    for col, split in enumerate(SPLITS):
        label = "uniform split" if split == "uniform" else "k-based split"
        axes[0, col].set_title(f"{title}: {label}" if title else label)
        for row, m in enumerate(metrics):
            ax = axes[row, col]
            if len(base):
                ax.axhline(base[m].mean(), color="black", ls="--", lw=1.2, label="NonDP")
            if summary is not None:
                for proto in [p for p in PROTOCOLS if p in set(summary.mechanism)]:
                    s = summary[(summary.mechanism == proto) & (summary.split == split)]
                    if s.empty:
                        continue
                    ax.plot([xpos[e] for e in s.epsilon], s[f"{m}_mean"], marker=style.marker(proto),
                            color=style.color(proto), label=proto, markerfacecolor="none")
            if ref_summary is not None:
                for proto in [p for p in PROTOCOLS if p in set(ref_summary.mechanism)]:
                    r = ref_summary[(ref_summary.mechanism == proto) & (ref_summary.split == split)
                                    & ref_summary.epsilon.isin(xpos)]
                    ax.plot([xpos[e] for e in r.epsilon], r[f"{m}_mean"], ls="none", marker="_",
                            ms=9, mew=1.6, color=style.color(proto))
            if col == 0:
                ax.set_ylabel(_LABELS.get(m, m))
    for ax in axes[-1]:
        ax.set_xticks(range(len(eps)), [f"{e:g}" for e in eps])
        ax.set_xlabel(r"$\varepsilon$")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if ref_summary is not None:
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], ls="none", marker="_", ms=9, mew=1.6, color="0.4"))
        labels.append("authors' mean")
    fig.legend(handles, labels, loc="outside upper center", ncol=min(5, len(labels)))
    return fig


def plot_dataset(
    ours: pd.DataFrame,
    authors: pd.DataFrame | None,
    metrics: Iterable[str],
    title: str,
    *,
    overlay: bool = True,
) -> Any:
    """One paper figure: our results with the authors' means overlaid, or theirs alone.

    When ``ours`` is empty (results not computed or committed yet) the authors'
    per-seed results are drawn as the curves and the title says so; when ours hold
    fewer seeds than theirs (a computation still in progress) the title gives the
    number of seeds.
    """
    if ours is not None and len(ours):
        n_ours = ours["seed"].nunique()
        n_theirs = authors["seed"].nunique() if authors is not None and len(authors) else 0
        if n_ours < n_theirs:
            title = f"{title} ({n_ours} of {n_theirs} seeds)"
        return plot_metrics(ours, metrics, title=title, reference=authors if overlay else None)
    if authors is None or authors.empty:
        raise ValueError(f"no results to draw for {title!r}")
    return plot_metrics(authors, metrics, title=f"{title}, authors' runs")


def figure(number: int, ours: pd.DataFrame, authors: pd.DataFrame | None, *, overlay: bool = True) -> Any:
    """The paper's Figure ``number`` (2-13): our results of its dataset, the authors' means overlaid.

    Parameters
    ----------
    number : int
        2-4 fairness and 5-7 utility of the main experiment (Adult, ACSCoverage,
        LSAC), 8-13 the same for the appendix experiment
        (:data:`~ldpfair.papers.arcolezi2023.experiments.FIGURES`).
    ours : pandas.DataFrame
        Our tidy results of the figure's experiment (every dataset, or none).
    authors : pandas.DataFrame or None
        The authors' per-seed results of that experiment.
    overlay : bool
        Draw the authors' means over ours (see :func:`plot_dataset`).

    Returns
    -------
    matplotlib.figure.Figure
    """
    if number not in FIGURES:
        raise ValueError(f"arcolezi2023 has no Figure {number!r} drawn from results; valid: "
                         f"{min(FIGURES)}-{max(FIGURES)}")
    _, ds, metrics = FIGURES[number]
    mine = ours[ours["dataset"] == ds] if len(ours) else ours
    theirs = authors[authors["dataset"] == ds] if authors is not None and len(authors) else authors
    return plot_dataset(mine, theirs, metrics, PAPER_NAMES[ds], overlay=overlay)


def glue_figures(
    numbers: Iterable[int],
    main: pd.DataFrame,
    app: pd.DataFrame,
    authors_main: pd.DataFrame | None,
    authors_app: pd.DataFrame | None,
    *,
    overlay: bool = True,
    folder: str | Path = "figures/arcolezi2023",
    n_jobs: int | None = 1,
) -> None:
    """Draw the paper's Figures ``numbers``, save each and glue it for the chapter.

    Each figure is drawn by :func:`figure` from the results of its experiment (main
    or appendix, :data:`~ldpfair.papers.arcolezi2023.experiments.FIGURES`), saved as
    ``arcolezi2023_fig<number>`` under ``folder`` and glued under that name
    (:func:`ldpfair.style.figure`), which the chapter's ``{glue:figure}`` directive names.

    Parameters
    ----------
    numbers : iterable of int
        Figure numbers, 2-13.
    main, app : pandas.DataFrame
        Our tidy results of the main and the appendix experiment.
    authors_main, authors_app : pandas.DataFrame or None
        The authors' per-seed results of the same experiments.
    overlay : bool
        Draw the authors' means over ours (see :func:`plot_dataset`).
    folder : str or Path
        Where the PNG and PDF files go.
    n_jobs : int or None, default 1
        Figures drawn at a time (joblib, :func:`ldpfair.style.figures`).
    """
    from functools import partial

    from ... import style

    makers = {}
    for number in numbers:
        if number not in FIGURES:
            raise ValueError(f"arcolezi2023 has no Figure {number!r} drawn from results; valid: "
                             f"{min(FIGURES)}-{max(FIGURES)}")
        ours, theirs = (main, authors_main) if FIGURES[number][0] == "main" else (app, authors_app)
        makers[f"arcolezi2023_fig{number}"] = partial(figure, number, ours, theirs, overlay=overlay)
    style.figures(makers, folder, n_jobs=n_jobs)
