"""ghoukasian2025: the profiles and experiment declarations of Ghoukasian & Asoodeh (2025).

Figs. 1-5 (Section V-A) are engine grids: the sensitive attribute of the
*training* rows is collected with OPT (Theorem 2 for k = 2, program (9)/(10)
at the smallest feasible zeta for k > 2), GRR (RR for k = 2) or SS, LightGBM
with arcolezi2023's tuned hyperparameters is trained on every column one-hot
encoded (the sensitive attribute is a feature, as in the authors' code) and
evaluated on the clean test rows (80/20 stratified split, ``random_state =
seed``). Fig. 6 and Tables I-II are sweeps over the cell functions of
:mod:`ldpfair.papers.ghoukasian2025.baselines`. The k-ary variants re-run OPT of
Figs. 3-5 at other zetas (:data:`KARY_ZETA_VARIANTS`).

:data:`PROFILES` holds the overridable parameters of each profile and
:func:`declare` turns a profile into the experiments; :data:`PARAMETERS` declares
the notebook's parameters. Cheap to import: no plotting, no reading of results.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...experiments import DatasetSpec, Grid, ModelSpec, PrivSpec, Sweep, holdout
from ...experiments.parameters import Param, choice, epsilons, integer, n_jobs_param, names, real, seeds
from ...identity import versioned
from ...ldp import opt_factory
from ...models import TUNED_LGBM
from ..contract import Profile
from .asym import asym_cell
from .baselines import FB_DATASETS, TWO_STEP_EPSILONS, fairbalance_cell, fairprojection_cell, two_step_cell

__all__ = [
    "LGBM_FIGURES",
    "LGBM_MECHANISMS",
    "KARY_ZETA_VARIANTS",
    "PROFILES",
    "PARAMETERS",
    "declare",
    "build_lgbm",
    "build_baselines",
    "build_kary_variants",
    "opt_factory_grr_utility",
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
_HYPER = {"adult26k": TUNED_LGBM["adult"], "lsac": TUNED_LGBM["LSAC"]}
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


#: The overridable parameters of each profile (``None``: the default the docstring of
#: :func:`declare` names). ``seeds`` replaces every repetition count of Figs. 1-6 and every
#: trial count of Tables I-II; the k-ary variants keep their own.
PROFILES: dict[str, Profile] = {
    "paper": Profile("paper", {"figures": tuple(LGBM_FIGURES), "mechanisms": LGBM_MECHANISMS,
                               "epsilons": None, "seeds": None, "zeta": None, "zeta_slack": 0.0}),
    "quick": Profile("quick", {"figures": ("fig2", "fig4"), "mechanisms": LGBM_MECHANISMS,
                               "epsilons": (1, 8), "seeds": None, "zeta": None, "zeta_slack": 0.0}),
}
#: The fixed layout of each profile (not overridable): repetitions of Figs. 1-5, the
#: experiments of Fig. 6 and Tables I-II, and the k-ary variants.
_LAYOUT: dict[str, dict[str, Any]] = {
    "paper": {"lgbm_seeds": 20,
              "fig6_datasets": ("adult", "lsac"), "fig6_eps": TWO_STEP_EPSILONS, "fig6_seeds": 20,
              "t1_datasets": ("adult", "compas"), "t1_seeds": 30,
              "t2_datasets": FB_DATASETS, "t2_seeds": 30,
              "variant_figures": ("fig3", "fig4", "fig5"), "variant_seeds": 20},
    "quick": {"lgbm_seeds": 1,  # quick: one repetition of Figs. 2 and 4 and of the k-ary variant
              "fig6_datasets": ("lsac",), "fig6_eps": (1, 8), "fig6_seeds": 2,
              "t1_datasets": ("compas",), "t1_seeds": 2,
              "t2_datasets": ("math", "german"), "t2_seeds": 3,
              "variant_figures": ("fig4",), "variant_seeds": 1},
}


def _layout(profile: Profile) -> dict[str, Any]:
    if profile.name not in _LAYOUT:
        raise ValueError(f"unknown profile {profile.name!r} of ghoukasian2025; valid: {', '.join(_LAYOUT)}")
    return _LAYOUT[profile.name]


def _count(profile: Profile, experiment: str) -> Any:
    """Repetitions of one experiment: the profile's ``seeds`` if set, else the layout's own count."""
    return _layout(profile)[f"{experiment}_seeds"] if profile["seeds"] is None else profile["seeds"]


def _lgbm(profile: Profile) -> dict[str, Grid]:
    """Figs. 1-5: one engine grid per figure of ``profile["figures"]``."""
    figures = tuple(profile["figures"])
    unknown = [f for f in figures if f not in LGBM_FIGURES]
    if unknown:
        raise ValueError(f"unknown figure(s) {unknown}; valid: {', '.join(LGBM_FIGURES)}")
    eps_override = profile["epsilons"]
    zeta, zeta_slack = profile["zeta"], profile["zeta_slack"]
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for fig in figures:
        spec = LGBM_FIGURES[fig]
        ds, prot = spec["dataset"], spec["protected"]
        privs: list[PrivSpec | None] = [None]
        privs += [_priv(m, prot, zeta, zeta_slack) for m in profile["mechanisms"]]
        grids[fig] = Grid(
            datasets=DatasetSpec(ds, options={"protected": prot}, exclude=_EXCLUDE.get(prot, ())),
            models=ModelSpec("lightgbm", _HYPER[ds]),
            privatizations=privs,
            epsilons=tuple(spec["epsilons"] if eps_override is None else eps_override),
            seeds=_count(profile, "lgbm"),
            evaluation=evaluation,
            name=f"ghoukasian2025-{fig}",
        )
    return grids


def _baselines(profile: Profile) -> dict[str, Sweep]:
    """Fig. 6 and Tables I-II as sweeps (``profile["seeds"]`` replaces every repetition count)."""
    d = _layout(profile)
    fig6 = Sweep(two_step_cell, {"dataset": list(d["fig6_datasets"]), "mechanism": ["RR", "OPT"],
                                 "epsilon": [float(e) for e in d["fig6_eps"]]},
                 seeds=_count(profile, "fig6"), name="ghoukasian2025-fig6")
    t1 = Sweep(fairprojection_cell, [{"dataset": ds, "trial": t} for ds in d["t1_datasets"]
                                     for t in range(_count(profile, "t1"))],
               seeds=[0], name="ghoukasian2025-table1")
    t2_params = [{"dataset": ds, "groups": "authors"} for ds in d["t2_datasets"]]
    if "german" in d["t2_datasets"]:
        t2_params.append({"dataset": "german", "groups": "paper"})
    t2 = Sweep(fairbalance_cell, t2_params, seeds=_count(profile, "t2"), name="ghoukasian2025-table2")
    asym = Sweep(asym_cell, [{"dataset": ds, "epsilon": float(e), "fig6_seed": s}
                             for ds in d["fig6_datasets"] for e in d["fig6_eps"]
                             for s in range(_count(profile, "fig6"))],
                 seeds=[0], name="ghoukasian2025-fig6-asym")
    return {"fig6": fig6, "fig6_asym": asym, "table1": t1, "table2": t2}


@versioned("764b75ebce76", name="ldpfair.papers.ghoukasian2025.opt_factory_grr_utility")
def opt_factory_grr_utility(y: np.ndarray) -> Any:
    """OPT for k > 2 at GRR's own utility: ``zeta = (k - 1) / (e^epsilon + k - 1)``.

    GRR keeps the true value with probability ``e^eps / (e^eps + k - 1)`` whatever the
    group sizes, so this zeta is exactly GRR's error probability: GRR is feasible in
    program (9) and OPT's Delta is at most GRR's at the same attribute accuracy.
    For ``k = 2`` Theorem 2's mechanism, as :func:`ldpfair.ldp.opt_factory`.
    """
    def factory(k: int, epsilon: float, values: np.ndarray) -> Any:
        zeta = (k - 1) / (float(np.exp(epsilon)) + k - 1)
        return opt_factory(y, zeta=zeta)(k, epsilon, values)

    return factory


#: Program (9)/(10) at other zetas than the paper's "smallest feasible" one, for Figs. 3-5:
#: ``zeta_grr``: GRR's utility (:func:`opt_factory_grr_utility`); ``zeta_1``: zeta = 1 (the
#: value in the authors' committed notebook).
KARY_ZETA_VARIANTS: tuple[str, ...] = ("zeta_grr", "zeta_1")


def _kary_variants(profile: Profile) -> dict[str, Grid]:
    """OPT of Figs. 3-5 at the zetas of :data:`KARY_ZETA_VARIANTS`, at epsilon >= 1 (the paper's trend).

    Same data, split, model and seeds as Figs. 1-5 (seeds 0-19, the paper's 20, in
    the paper profile), so each run pairs with the committed GRR run of the same
    seed. Keys ``<figure>_<variant>``.
    """
    d = _layout(profile)
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for fig in d["variant_figures"]:
        spec = LGBM_FIGURES[fig]
        ds, prot = spec["dataset"], spec["protected"]
        for variant in KARY_ZETA_VARIANTS:
            if variant == "zeta_grr":
                priv = PrivSpec(opt_factory_grr_utility, sensitive=(prot,), needs_y=True, label="OPT")
            else:
                priv = _priv("OPT", prot, 1.0, 0.0)
            grids[f"{fig}_{variant}"] = Grid(
                datasets=DatasetSpec(ds, options={"protected": prot}, exclude=_EXCLUDE.get(prot, ())),
                models=ModelSpec("lightgbm", _HYPER[ds]),
                privatizations=[priv],
                epsilons=tuple(e for e in spec["epsilons"] if e >= 1),
                seeds=d["variant_seeds"],
                evaluation=evaluation,
                name=f"ghoukasian2025-{fig}-{variant}",
            )
    return grids


def declare(profile: Profile) -> dict[str, Grid | Sweep]:
    """The experiments of a profile: Figs. 1-5, Fig. 6, Tables I-II and the k-ary variants.

    Parameters
    ----------
    profile : Profile
        One of :data:`PROFILES`, possibly with overrides (:meth:`Profile.with_overrides`):

        ``figures``
            Subset of :data:`LGBM_FIGURES` (paper: all five; quick: Figs. 2 and 4).
        ``mechanisms``
            Subset of :data:`LGBM_MECHANISMS` (the non-private baseline is always included).
        ``epsilons``
            Replace every figure's epsilon grid (paper: ``None``, each figure's own; quick: 1, 8).
        ``seeds``
            ``None``: the profile's counts (paper: 20 seeds for Figs. 1-6, 30 trials for
            Tables I-II; quick: 2, and 3 for Table II); a number replaces all of them.
        ``zeta``
            OPT's utility bound for k > 2 (``None``: the smallest feasible zeta, as the paper).
        ``zeta_slack``
            Added to the smallest feasible zeta when ``zeta`` is None.

    Returns
    -------
    dict of str to Grid or Sweep
        ``fig1`` ... ``fig5``, ``fig6``, ``table1``, ``table2`` and ``<figure>_<variant>``.
    """
    return {**_lgbm(profile), **_baselines(profile), **_kary_variants(profile)}


def build_lgbm(profile: str = "paper", **overrides: Any) -> dict[str, Grid]:
    """Figs. 1-5 of ``profile`` with ``overrides`` (the parameters of :func:`declare`)."""
    return _lgbm(_profile(profile).with_overrides(**overrides))


def build_baselines(profile: str = "paper", *, seeds: int | None = None) -> dict[str, Sweep]:
    """Fig. 6 and Tables I-II of ``profile`` (``seeds`` overrides every repetition count)."""
    return _baselines(_profile(profile).with_overrides(seeds=seeds))


def build_kary_variants(profile: str = "paper") -> dict[str, Grid]:
    """The k-ary variants of ``profile`` (:data:`KARY_ZETA_VARIANTS`; no overridable parameter)."""
    return _kary_variants(_profile(profile))


def _profile(name: str) -> Profile:
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; valid: {', '.join(PROFILES)}")
    return PROFILES[name]


#: The notebook's parameters (checked by ``ldpfair run`` before a kernel starts).
PARAMETERS: dict[str, Param] = {
    "profile": choice("'paper': render the committed full results; 'quick': compute a small grid",
                      ("paper", "quick")),
    "figures": names("LightGBM figures computed", tuple(LGBM_FIGURES), none="the profile's figures"),
    "mechanisms": names("LDP mechanisms of Figs. 1-5 (NonDP always included)", LGBM_MECHANISMS),
    "epsilons": epsilons("privacy budgets of Figs. 1-5", "each figure's budgets"),
    "seeds": seeds("seeds of Figs. 1-6 and trials of Tables I-II", "the profile's", lists=False),
    "zeta": real("OPT's utility bound for k > 2", 0.0, 1.0, low_open=True,
                 optional="the smallest feasible zeta, as the paper"),
    "zeta_slack": real("added to the smallest feasible zeta when zeta is None", 0.0, 1.0),
    "theory_instances": integer("random instances of the Theorem 2 check", 1, 100_000),
    "n_jobs": n_jobs_param(),
}
