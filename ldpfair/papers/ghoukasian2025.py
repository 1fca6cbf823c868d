"""ghoukasian2025: the experiments of Ghoukasian & Asoodeh, "Optimal Fairness under LDP".

Figs. 1-5 (Section V-A) are engine grids: the sensitive attribute of the
*training* rows is collected with OPT (Theorem 2 for k = 2, program (9)/(10)
at the smallest feasible zeta for k > 2), GRR (RR for k = 2) or SS, LightGBM
with arcolezi2023's tuned hyperparameters is trained on every column one-hot
encoded (the sensitive attribute is a feature, as in the authors' code) and
evaluated on the clean test rows (80/20 stratified split, ``random_state =
seed``). Fig. 6 and Tables I-II are sweeps over :mod:`ldpfair.interventions`.

:func:`build_lgbm` declares Figs. 1-5; :func:`plot_lgbm` draws one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..experiments import DatasetSpec, Grid, ModelSpec, PrivSpec, holdout
from ..ldp import opt_factory
from ..models import ARCOLEZI2023_LGBM
from ..reporting import summarise

__all__ = [
    "LGBM_FIGURES",
    "LGBM_MECHANISMS",
    "build_lgbm",
    "plot_lgbm",
    "PROFILES",
]

#: Figs. 1-5: (dataset, protected attribute, k, the authors' epsilon grid) per figure.
LGBM_FIGURES: dict[str, dict[str, Any]] = {
    "fig1": {"dataset": "adult26k", "protected": "gender", "k": 2,
             "epsilons": (0.05, 0.25, 0.5, 1, 2, 8, 10)},
    "fig2": {"dataset": "lsac", "protected": "gender", "k": 2,
             "epsilons": (0.05, 0.25, 0.5, 1, 2, 4, 8)},
    "fig3": {"dataset": "adult26k", "protected": "race", "k": 5,
             "epsilons": (0.05, 0.25, 0.5, 1, 2, 8, 10)},
    "fig4": {"dataset": "lsac", "protected": "fam_inc", "k": 5,
             "epsilons": (0.25, 0.5, 1, 2, 4, 8, 10)},
    "fig5": {"dataset": "adult26k", "protected": "race_gender", "k": 10,
             "epsilons": (0.05, 0.25, 0.5, 1, 2, 8)},
}
#: The LDP mechanisms of Figs. 1-5 (plus the non-private baseline).
LGBM_MECHANISMS: tuple[str, ...] = ("OPT", "GRR", "SS")
_HYPER = {"adult26k": ARCOLEZI2023_LGBM["adult"], "lsac": ARCOLEZI2023_LGBM["LSAC"]}
#: For race x gender the two source columns are dropped from the features (else the
#: privatised attribute is recoverable from them; the paper does not say).
_EXCLUDE = {"race_gender": ("race", "gender")}


def _priv(mechanism: str, protected: str, zeta: float | None, zeta_slack: float) -> PrivSpec:
    if mechanism == "OPT":
        options: dict[str, Any] = {"zeta_slack": float(zeta_slack)}
        if zeta is not None:
            options["zeta"] = float(zeta)
        return PrivSpec(opt_factory, sensitive=(protected,), needs_y=True, options=options,
                        label="OPT")
    if mechanism in ("GRR", "SS"):
        return PrivSpec(mechanism, sensitive=(protected,), label=mechanism)
    raise ValueError(f"unknown mechanism {mechanism!r}; valid: {', '.join(LGBM_MECHANISMS)}")


_LGBM_PROFILES: dict[str, dict[str, Any]] = {
    "paper": {"figures": tuple(LGBM_FIGURES), "epsilons": None, "seeds": 20},
    "quick": {"figures": ("fig2", "fig4"), "epsilons": (1, 8), "seeds": 2},
}


def build_lgbm(
    profile: str = "paper",
    *,
    figures: Sequence[str] | None = None,
    mechanisms: Sequence[str] = LGBM_MECHANISMS,
    epsilons: Sequence[float] | None = None,
    seeds: int | Sequence[int] | None = None,
    zeta: float | None = None,
    zeta_slack: float = 0.0,
) -> dict[str, Grid]:
    """Declare Figs. 1-5: one engine grid per figure.

    Parameters
    ----------
    profile : {"paper", "quick"}
        ``paper``: every figure with the authors' epsilon grid and 20 seeds;
        ``quick``: Figs. 2 and 4 (LSAC, k = 2 and k = 5), epsilon in {1, 8}, 2 seeds.
    figures : sequence of str, optional
        Subset of :data:`LGBM_FIGURES`.
    mechanisms : sequence of str
        Subset of :data:`LGBM_MECHANISMS` (the non-private baseline is always included).
    epsilons : sequence of float, optional
        Replace every figure's epsilon grid.
    seeds : int or sequence of int, optional
    zeta : float, optional
        OPT's utility bound for k > 2 (default: the smallest feasible zeta, as the paper).
    zeta_slack : float
        Added to the smallest feasible zeta when ``zeta`` is None.

    Returns
    -------
    dict of str to Grid
    """
    if profile not in _LGBM_PROFILES:
        raise ValueError(f"unknown profile {profile!r}; valid: {', '.join(_LGBM_PROFILES)}")
    d = _LGBM_PROFILES[profile]
    figures = tuple(d["figures"] if figures is None else figures)
    unknown = [f for f in figures if f not in LGBM_FIGURES]
    if unknown:
        raise ValueError(f"unknown figure(s) {unknown}; valid: {', '.join(LGBM_FIGURES)}")
    eps_override = d["epsilons"] if epsilons is None else epsilons
    seeds = d["seeds"] if seeds is None else seeds
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for fig in figures:
        spec = LGBM_FIGURES[fig]
        ds, prot = spec["dataset"], spec["protected"]
        privs: list[PrivSpec | None] = [None]
        privs += [_priv(m, prot, zeta, zeta_slack) for m in mechanisms]
        grids[fig] = Grid(
            datasets=DatasetSpec(ds, options={"protected": prot}, exclude=_EXCLUDE.get(prot, ())),
            models=ModelSpec("lightgbm", _HYPER[ds]),
            privatizations=privs,
            epsilons=tuple(spec["epsilons"] if eps_override is None else eps_override),
            seeds=seeds,
            evaluation=evaluation,
            name=f"ghoukasian2025-{fig}",
        )
    return grids


def plot_lgbm(results: pd.DataFrame, figure: str, *, ax: Any = None) -> Any:
    """Draw one of Figs. 1-5: accuracy (left) and the two fairness gaps (right) vs epsilon.

    Parameters
    ----------
    results : DataFrame
        The figure's tidy results (``mechanism, epsilon, seed, acc, Delta_SP, Delta_EO``).
    figure : str
        Key of :data:`LGBM_FIGURES` (used in the title).
    ax : sequence of two Axes, optional

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    from .. import style

    style.use()
    spec = LGBM_FIGURES[figure]
    if ax is None:
        fig, ax = plt.subplots(1, 2, figsize=(9.0, 3.4), constrained_layout=True)
    else:
        fig = ax[0].figure
    s = summarise(results, ["mechanism", "epsilon"], ["acc", "Delta_SP", "Delta_EO"])
    nondp = summarise(results[results["mechanism"] == "NonDP"], ["mechanism"],
                      ["acc", "Delta_SP", "Delta_EO"])
    panels = [(ax[0], ("acc",), "accuracy"), (ax[1], ("Delta_SP", "Delta_EO"), "fairness gap")]
    for a, metrics, ylabel in panels:
        for metric in metrics:
            for mech in [m for m in ("OPT", "GRR", "SS") if m in set(s["mechanism"])]:
                part = s[s["mechanism"] == mech].sort_values("epsilon")
                label = mech if len(metrics) == 1 else f"{mech} {_METRIC_LABEL[metric]}"
                ls = "-" if metric != "Delta_EO" else "--"
                a.errorbar(part["epsilon"], part[f"{metric}_mean"], yerr=part[f"{metric}_ci"],
                           color=style.color(mech), marker=style.marker(mech), ls=ls, capsize=2,
                           label=label, ms=4)
            if len(nondp):
                v = float(nondp[f"{metric}_mean"].iloc[0])
                ls = ":" if metric != "Delta_EO" else "-."
                name = "NonDP" if len(metrics) == 1 else f"NonDP {_METRIC_LABEL[metric]}"
                a.axhline(v, color=style.color("NonDP"), ls=ls, lw=1.2, label=name)
        a.set_xscale("log")
        a.set_xlabel(r"$\varepsilon$")
        a.set_ylabel(ylabel)
    ax[1].legend(fontsize=7, ncol=2, loc="best")
    ax[0].legend(fontsize=7, loc="best")
    fig.suptitle(f"{_DATASET_LABEL[spec['dataset']]}, {spec['protected']} (k = {spec['k']})",
                 fontsize=10)
    return fig


_METRIC_LABEL = {"Delta_SP": r"$\Delta_{SP}$", "Delta_EO": r"$\Delta_{EO}$", "acc": "accuracy"}
_DATASET_LABEL = {"adult26k": "Adult", "lsac": "LSAC"}


def _profiles() -> dict[str, dict[str, Any]]:
    return {p: dict(build_lgbm(p)) for p in _LGBM_PROFILES}


#: The declared experiments of both profiles (``ldpfair results verify`` reads ``PROFILES["paper"]``).
PROFILES: dict[str, dict[str, Any]] = _profiles()


def _summary_ci(values: np.ndarray) -> tuple[float, float]:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if len(v) < 2:
        return float(v.mean()) if len(v) else float("nan"), float("nan")
    return float(v.mean()), float(1.96 * v.std(ddof=1) / np.sqrt(len(v)))
