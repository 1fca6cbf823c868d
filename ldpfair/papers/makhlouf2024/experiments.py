"""Makhlouf et al. (2024), "On the impact of multi-dimensional LDP on fairness": experiments.

Grids (one result file per dataset and outcome threshold, named as the authors'
files): Random Forest (:class:`ldpfair.forest.DistinctRowForest`, scikit-learn's
defaults) on the integer codes of every attribute, stratified 10-fold
cross-validation, 20 runs; the settings

* ``noLDP``: original training folds;
* ``sLDP``: k-RR (GRR) on the protected attribute only;
* ``combLDP``: k-RR on the Cartesian product of the sensitive attributes (full epsilon);
* ``indLDP``: k-RR on each sensitive attribute with the k-based budget split;

LDP is drawn afresh on each training fold only; the test fold and its groups stay original.

The profiles (:data:`PROFILES`, :class:`~ldpfair.papers.contract.Profile`) hold the
overridable parameters; :func:`declare` turns one into the grids. Cheap to import:
no plotting and no reading of results (the per-run aggregation is
:mod:`~ldpfair.papers.makhlouf2024.aggregate`, the checks
:mod:`~ldpfair.papers.makhlouf2024.checks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...experiments import Grid, PrivSpec, kfold
from ...experiments.grid import DatasetSpec
from ...experiments.parameters import (
    Param,
    boolean,
    choice,
    integer,
    n_jobs_param,
    profile_param,
)
from ...forest import make_forest
from ...models import ModelSpec
from ..contract import Profile

__all__ = [
    "EPSILONS",
    "FOLDS",
    "SETTINGS",
    "DATA",
    "SYNTHETIC_DRAWS",
    "RUNS",
    "MODEL",
    "PROFILES",
    "PARAMETERS",
    "build",
    "dataset_spec",
    "declare",
    "privatizations",
]

#: The authors' epsilon grid (the paper's text omits 4; its figures and code include it).
EPSILONS: tuple[float, ...] = (16.0, 8.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.5, 0.1)
#: Setting labels, in the paper's order.
SETTINGS: tuple[str, ...] = ("noLDP", "sLDP", "combLDP", "indLDP")

#: result name -> (ldpfair dataset, options, protected, sensitive set, threshold label)
DATA: dict[str, tuple[str, dict[str, Any], str, tuple[str, ...], str]] = {
    "S1_0.44": ("synthetic_makhlouf", {"quantile": 0.25, "variant": 1}, "A", ("A", "C", "M"), "Q1"),
    "S1_0.52": ("synthetic_makhlouf", {"quantile": 0.5, "variant": 1}, "A", ("A", "C", "M"), "Q2"),
    "S1_0.6": ("synthetic_makhlouf", {"quantile": 0.75, "variant": 1}, "A", ("A", "C", "M"), "Q3"),
    "S2_Q1": ("synthetic_makhlouf", {"quantile": 0.25, "variant": 2}, "A", ("A", "C", "M"), "Q1"),
    "S2_Q2": ("synthetic_makhlouf", {"quantile": 0.5, "variant": 2}, "A", ("A", "C", "M"), "Q2"),
    "S2_Q3": ("synthetic_makhlouf", {"quantile": 0.75, "variant": 2}, "A", ("A", "C", "M"), "Q3"),
    "compas_1": ("compas_makhlouf", {"threshold": 1}, "race", ("race", "age_cat", "sex"), "Q1"),
    "compas_3": ("compas_makhlouf", {"threshold": 3}, "race", ("race", "age_cat", "sex"), "Q2"),
    "compas_5": ("compas_makhlouf", {"threshold": 5}, "race", ("race", "age_cat", "sex"), "Q3"),
    "compas_corrected_1": ("compas_makhlouf", {"threshold": 1, "date_filter": "corrected"}, "race",
                           ("race", "age_cat", "sex"), "Q1"),
    "compas_corrected_3": ("compas_makhlouf", {"threshold": 3, "date_filter": "corrected"}, "race",
                           ("race", "age_cat", "sex"), "Q2"),
    "compas_corrected_5": ("compas_makhlouf", {"threshold": 5, "date_filter": "corrected"}, "race",
                           ("race", "age_cat", "sex"), "Q3"),
    "adult_10000": ("adult_makhlouf", {"threshold": 10000}, "gender",
                    ("gender", "age", "race", "maritalstatus", "nativecountry"), "Q1"),
    "adult_27260": ("adult_makhlouf", {"threshold": 27260}, "gender",
                    ("gender", "age", "race", "maritalstatus", "nativecountry"), "Q2"),
    "adult_50000": ("adult_makhlouf", {"threshold": 50000}, "gender",
                    ("gender", "age", "race", "maritalstatus", "nativecountry"), "Q3"),
}

#: Regenerated draws of Synthetic dataset 1 (variants of the authors' ``S1_*.csv`` files, which are
#: the default): result name -> (result it varies, generator seed, runs). Draw 0 (seed 0, the paper's
#: 20 runs) is the data of the chapter's earlier grids; draws 1-3 have 3 runs each (the Observations
#: are checked on means, and the run-to-run spread is known from draw 0).
SYNTHETIC_DRAWS: dict[str, tuple[str, int, int]] = {
    f"{base}_draw{seed}": (base, seed, 20 if seed == 0 else 3)
    for seed in range(4) for base in ("S1_0.44", "S1_0.52", "S1_0.6")
}
for _draw, (_base, _seed, _runs) in SYNTHETIC_DRAWS.items():
    _ds, _opts, _prot, _sens, _q = DATA[_base]
    DATA[_draw] = (_ds, {**_opts, "source": "generate", "seed": _seed}, _prot, _sens, _q)

#: Runs per result in the paper profile (20, as the authors; the extra regenerated draws 3).
RUNS: dict[str, int] = {name: SYNTHETIC_DRAWS[name][2] if name in SYNTHETIC_DRAWS else 20 for name in DATA}


def dataset_spec(name: str, synthetic_seed: int = 0, synthetic_source: str = "authors") -> DatasetSpec:
    """The :class:`DatasetSpec` of result ``name`` (integer-code features, as the authors).

    Parameters
    ----------
    name : str
        A key of :data:`DATA`.
    synthetic_seed : int
        Seed of generated synthetic data (100,000 rows); the regenerated draws of
        :data:`SYNTHETIC_DRAWS` carry their own.
    synthetic_source : {"authors", "generate"}
        Synthetic dataset 1 read from the authors' ``S1_*.csv`` files (default: what produced
        the published numbers) or generated by ldpfair. Synthetic dataset 2 is always
        generated (the authors published no file of it).
    """
    if name not in DATA:
        raise ValueError(f"invalid name={name!r}; valid: {', '.join(DATA)}")
    if synthetic_source not in ("authors", "generate"):
        raise ValueError(f"invalid synthetic_source={synthetic_source!r}; valid: 'authors', 'generate'")
    ds, options, protected, _, _ = DATA[name]
    options = dict(options)
    if ds == "synthetic_makhlouf":
        source = options.pop("source", synthetic_source if options["variant"] == 1 else "generate")
        seed = options.pop("seed", synthetic_seed)
        options.update({"n": 100_000, "seed": int(seed), "source": source})
    return DatasetSpec(ds, options=options, protected=protected, label=name, encoding="codes")


def privatizations(name: str) -> list[PrivSpec]:
    """noLDP, sLDP, combLDP and indLDP of result ``name`` (GRR, perturbed codes)."""
    _, _, protected, sensitive, _ = DATA[name]
    return [
        PrivSpec(None, label="noLDP"),
        PrivSpec("GRR", sensitive=(protected,), output="values", label="sLDP"),
        PrivSpec("GRR", sensitive=sensitive, mode="combined", output="values", label="combLDP"),
        PrivSpec("GRR", sensitive=sensitive, mode="independent", split="k_based", output="values",
                 label="indLDP"),
    ]


MODEL = ModelSpec(make_forest, label="random_forest")


#: The overridable parameters of each profile (see :func:`declare`): ``data`` (result names,
#: keys of :data:`DATA`), ``epsilons``, ``seeds`` (runs: an int for every result, or a mapping
#: result name -> runs), ``synthetic_seed`` and ``synthetic_source`` (as in :func:`dataset_spec`).
#: "paper": every result, the 9 epsilons, :data:`RUNS` runs (20, as the authors; the extra
#: regenerated synthetic draws 3); "quick": without the extra draws, 1 run, epsilons 8, 1, 0.1,
#: and 2 cross-validation folds instead of 10 (:data:`FOLDS`; the same code paths).
PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", {
        "data": tuple(n for n in DATA if SYNTHETIC_DRAWS.get(n, ("", 0))[1] == 0),
        "epsilons": (8.0, 1.0, 0.1), "seeds": 1, "synthetic_seed": 0, "synthetic_source": "authors"}),
    "paper": Profile("paper", {
        "data": tuple(DATA), "epsilons": EPSILONS, "seeds": MappingProxyType(RUNS), "synthetic_seed": 0,
        "synthetic_source": "authors"}),
}


#: Cross-validation folds per profile (the authors' 10; "quick": 2, a fifth of the model fits).
FOLDS: dict[str, int] = {"paper": 10, "quick": 2}


def declare(profile: Profile) -> dict[str, Grid]:
    """The chapter's grids for ``profile``: one :class:`Grid` per result name.

    Parameters
    ----------
    profile : Profile
        One of :data:`PROFILES`, possibly with overrides (``Profile.with_overrides``).

    Raises
    ------
    ValueError
        If ``data`` names an unknown result, or ``seeds`` is a mapping without one of them.
    """
    names = list(profile["data"])
    unknown = [n for n in names if n not in DATA]
    if unknown:
        raise ValueError(f"invalid data {unknown}; valid: {', '.join(DATA)}")
    seeds = profile["seeds"]
    if isinstance(seeds, Mapping):
        lacking = [n for n in names if n not in seeds]
        if lacking:
            raise ValueError(f"seeds gives no number of runs for {lacking}; give an int or a mapping "
                             "with every result name")
    eps = tuple(profile["epsilons"])
    grids = {}
    for name in names:
        s: Any = seeds[name] if isinstance(seeds, Mapping) else seeds
        grids[name] = Grid(
            datasets=dataset_spec(name, profile["synthetic_seed"], profile["synthetic_source"]),
            models=MODEL,
            privatizations=privatizations(name),
            epsilons=eps,
            seeds=s,
            evaluation=kfold(FOLDS.get(profile.name, 10), split_random_state="derived",
                             model_random_state="derived"),
            name=f"makhlouf2024_{name}",
        )
    return grids


def build(profile: str = "paper", **overrides: Any) -> dict[str, Grid]:
    """:func:`declare` of the profile ``profile`` with ``overrides`` (``None`` keeps a value).

    Raises
    ------
    ValueError
        If ``profile`` is not one of :data:`PROFILES` or an override is not one of its parameters.
    """
    if profile not in PROFILES:
        raise ValueError(f"invalid profile={profile!r}; valid: {', '.join(map(repr, PROFILES))}")
    return declare(PROFILES[profile].with_overrides(**overrides))


#: The notebook's parameters, checked by ``ldpfair run`` before a kernel starts.
PARAMETERS: dict[str, Param] = {
    "profile": profile_param(),
    "faithful": boolean("True: the authors' fold aggregation (EO/PE from the last fold); "
                        "False: corrected"),
    "mixed_fig3": boolean("Fig. 3 rows fed by the files the authors' plotting code used"),
    "overlay_authors": boolean("draw the authors' per-run means on the figures"),
    "synthetic_source": choice("Synthetic 1: the authors' S1_*.csv files or data generated by ldpfair",
                               ("authors", "generate")),
    "synthetic_seed": integer("seed of the synthetic data set", 0, 2**32 - 1),
    "n_jobs": n_jobs_param(),
}
