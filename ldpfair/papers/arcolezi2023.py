"""arcolezi2023: the experiments of Arcolezi, Makhlouf & Palamidessi (DBSec 2023).

"(Local) Differential Privacy has NO Disparate Impact on Fairness". Each
dataset's sensitive attributes are collected under LDP (seven protocols,
uniform or k-based budget split) on the training set only; LightGBM with the
authors' tuned hyperparameters is trained on the privatised, one-hot/indicator
encoded training set and evaluated on the clean test set (80/20 stratified
split, ``random_state = seed`` for the split and the model, as the authors).

:func:`build` declares the grids of a profile; :func:`plot_metrics` draws the
paper's 4 x 2 figure layout (rows: metrics; columns: uniform and k-based split).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..experiments import DatasetSpec, Grid, ModelSpec, PrivSpec, holdout
from ..ldp import PROTOCOLS
from ..models import ARCOLEZI2023_LGBM
from ..reporting import summarise

__all__ = [
    "DATASETS",
    "EPSILONS",
    "FAIRNESS",
    "PROFILES",
    "SENSITIVE",
    "SPLITS",
    "UTILITY",
    "build",
    "plot_metrics",
]

#: Datasets of the main experiment (registry names).
DATASETS: tuple[str, ...] = ("adult26k", "acs_coverage", "lsac")
#: The sensitive attributes collected under LDP (protected attribute first), as the authors.
SENSITIVE: dict[str, tuple[str, ...]] = {
    "adult26k": ("gender", "race", "native-country", "age"),
    "acs_coverage": ("DIS", "AGEP", "SEX", "SCHL"),
    "lsac": ("race1", "fam_inc", "gender", "fulltime"),
}
#: The authors' tuned LightGBM hyperparameters per dataset.
HYPERPARAMETERS: dict[str, dict[str, Any]] = {
    "adult26k": ARCOLEZI2023_LGBM["adult"],
    "acs_coverage": ARCOLEZI2023_LGBM["ACSCoverage"],
    "lsac": ARCOLEZI2023_LGBM["LSAC"],
}
EPSILONS: tuple[float, ...] = (0.25, 0.5, 1, 2, 4, 8, 10, 20, 50)
SPLITS: tuple[str, ...] = ("uniform", "k_based")
FAIRNESS: tuple[str, ...] = ("DI", "SPD", "EOD", "OAD")
UTILITY: tuple[str, ...] = ("acc", "f1", "auc_labels", "recall")

_PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {
    "paper": {"datasets": DATASETS, "protocols": PROTOCOLS, "splits": SPLITS, "epsilons": EPSILONS,
              "seeds": 20},
    "quick": {"datasets": ("lsac",), "protocols": PROTOCOLS, "splits": SPLITS, "epsilons": (1, 8),
              "seeds": 2},
}


def build(
    profile: str = "paper",
    *,
    datasets: Sequence[str] | None = None,
    protocols: Sequence[str] | None = None,
    splits: Sequence[str] | None = None,
    epsilons: Sequence[float] | None = None,
    seeds: int | Sequence[int] | None = None,
) -> dict[str, Grid]:
    """Declare the main experiment (Figs. 2-7): one grid per dataset.

    Parameters
    ----------
    profile : {"paper", "quick"}
        ``paper``: the paper's settings (3 datasets, 7 protocols, 2 splits, 9
        epsilons, 20 seeds); ``quick``: LSAC, 2 epsilons, 2 seeds, every protocol.
    datasets, protocols, splits, epsilons, seeds : optional
        Override the profile's values (``None`` keeps them).

    Returns
    -------
    dict of str to Grid
        Keyed by dataset name; each grid holds the NonDP baseline and every
        (protocol, split, epsilon) cell for every seed.
    """
    if profile not in _PROFILE_DEFAULTS:
        raise ValueError(f"unknown profile {profile!r}; valid: {', '.join(_PROFILE_DEFAULTS)}")
    d = _PROFILE_DEFAULTS[profile]
    datasets = tuple(d["datasets"] if datasets is None else datasets)
    protocols = tuple(d["protocols"] if protocols is None else protocols)
    splits = tuple(d["splits"] if splits is None else splits)
    epsilons = tuple(d["epsilons"] if epsilons is None else epsilons)
    seeds = d["seeds"] if seeds is None else seeds
    unknown = [ds for ds in datasets if ds not in SENSITIVE]
    if unknown:
        raise ValueError(f"unknown dataset(s) {unknown} for arcolezi2023; valid: {', '.join(SENSITIVE)}")
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for ds in datasets:
        privs: list[PrivSpec | None] = [None]
        privs += [PrivSpec(p, sensitive=SENSITIVE[ds], split=s) for p in protocols for s in splits]
        grids[ds] = Grid(
            datasets=DatasetSpec(ds),
            models=ModelSpec("lightgbm", HYPERPARAMETERS[ds]),
            privatizations=privs,
            epsilons=epsilons,
            seeds=seeds,
            evaluation=evaluation,
            name=f"arcolezi2023-{ds}",
        )
    return grids


#: The declared experiments of both profiles (``ldpfair results verify`` reads ``PROFILES["paper"]``).
PROFILES: dict[str, dict[str, Grid]] = {p: build(p) for p in _PROFILE_DEFAULTS}

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

    from .. import style

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
    fig.legend(handles, labels, loc="outside upper center", ncol=min(8, len(labels)))
    return fig


def nonprivate_table(results: Mapping[str, pd.DataFrame], metrics: Sequence[str]) -> pd.DataFrame:
    """Mean of each metric of the NonDP baseline per dataset (the paper's reference values)."""
    rows = []
    for ds, df in results.items():
        base = df[df.mechanism == "NonDP"]
        rows.append({"dataset": ds, "seeds": len(base), **{m: float(np.mean(base[m])) for m in metrics}})
    return pd.DataFrame(rows)
