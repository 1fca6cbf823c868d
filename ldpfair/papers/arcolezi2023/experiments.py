"""arcolezi2023's profiles and experiment declarations (cheap to import: no plotting, no results).

Each dataset's sensitive attributes are collected under LDP (seven protocols,
uniform or k-based budget split) on the training set only; LightGBM with the
authors' tuned hyperparameters is trained on the privatised, one-hot/indicator
encoded training set and evaluated on the clean test set (80/20 stratified
split, ``random_state = seed`` for the split and the model, as the authors).

:func:`declare` declares the experiments of a profile: the main grids
(Figs. 2-7, keyed by dataset) and the appendix unions (Figs. 8-13, keyed
``appendix-<dataset>``: 2-6 sensitive attributes drawn per seed,
:func:`appendix_sensitive`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...experiments import DatasetSpec, Grid, ModelSpec, PrivSpec, holdout
from ...experiments.parameters import Param, boolean, choice, epsilons, integer, n_jobs_param, names, real
from ...experiments.parameters import seeds as seeds_param
from ...experiments.union import GridUnion
from ...ldp import PROTOCOLS
from ...models import TUNED_LGBM
from ..contract import Profile

__all__ = [
    "APPENDIX_CANDIDATES",
    "DATASETS",
    "EPSILONS",
    "FAIRNESS",
    "FIGURES",
    "HYPERPARAMETERS",
    "PAPER_NAMES",
    "PARAMETERS",
    "PROFILES",
    "SENSITIVE",
    "SPLITS",
    "UTILITY",
    "ByExperiment",
    "appendix_sensitive",
    "build",
    "build_appendix",
    "declare",
]

#: Datasets of the main experiment (registry names).
DATASETS: tuple[str, ...] = ("adult26k", "acs_coverage", "lsac")
#: Datasets' names as the paper writes them.
PAPER_NAMES: dict[str, str] = {"adult26k": "Adult", "acs_coverage": "ACSCoverage", "lsac": "LSAC"}
#: The sensitive attributes collected under LDP (protected attribute first), as the authors.
SENSITIVE: dict[str, tuple[str, ...]] = {
    "adult26k": ("gender", "race", "native-country", "age"),
    "acs_coverage": ("DIS", "AGEP", "SEX", "SCHL"),
    "lsac": ("race1", "fam_inc", "gender", "fulltime"),
}
#: The authors' tuned LightGBM hyperparameters per dataset.
HYPERPARAMETERS: dict[str, dict[str, Any]] = {
    "adult26k": TUNED_LGBM["adult"],
    "acs_coverage": TUNED_LGBM["ACSCoverage"],
    "lsac": TUNED_LGBM["LSAC"],
}
EPSILONS: tuple[float, ...] = (0.25, 0.5, 1, 2, 4, 8, 10, 20, 50)
SPLITS: tuple[str, ...] = ("uniform", "k_based")
FAIRNESS: tuple[str, ...] = ("DI", "SPD", "EOD", "OAD")
UTILITY: tuple[str, ...] = ("acc", "f1", "auc_labels", "recall")
#: Candidate extra sensitive attributes of the appendix experiment, in the authors' order.
APPENDIX_CANDIDATES: dict[str, tuple[str, ...]] = {
    "adult26k": ("race", "native-country", "age", "hours-per-week", "education"),
    "acs_coverage": ("AGEP", "SEX", "SCHL", "RAC1P", "NATIVITY"),
    "lsac": ("fam_inc", "gender", "fulltime", "lsat", "ugpa"),
}
#: The paper's Figs. 2-13: number -> (experiment, dataset, metrics). Figs. 2-4 fairness and 5-7
#: utility of the main experiment (one per dataset), Figs. 8-13 the same for the appendix.
FIGURES: dict[int, tuple[str, str, tuple[str, ...]]] = {
    first + offset + i: (exp, ds, metrics)
    for exp, first in (("main", 2), ("appendix", 8))
    for metrics, offset in ((FAIRNESS, 0), (UTILITY, 3))
    for i, ds in enumerate(DATASETS)
}


@dataclass(frozen=True)
class ByExperiment:
    """A profile default that differs between the main and the appendix experiment.

    An override (a plain value) replaces it for both experiments.
    """

    main: Any
    appendix: Any

    def of(self, experiment: str) -> Any:
        """The value of ``experiment`` (``"main"`` or ``"appendix"``)."""
        return self.main if experiment == "main" else self.appendix


#: The profiles. ``paper``: 3 datasets, 7 protocols, 2 splits, 9 epsilons, 20 seeds for both
#: experiments. ``quick``: LSAC; main: every protocol, epsilon 1 and 8, seed 0; appendix: GRR and
#: SS, epsilon 2, seed 0 (34 LightGBM fits, about 1.4 CPU s each: under a minute on 2 cores with
#: ``n_jobs=2``). ``appendix``: whether the appendix experiment is declared.
PROFILES: dict[str, Profile] = {
    "paper": Profile("paper", {"datasets": DATASETS, "protocols": PROTOCOLS, "splits": SPLITS,
                               "epsilons": EPSILONS, "seeds": 20, "appendix": True}),
    "quick": Profile("quick", {"datasets": ("lsac",), "protocols": ByExperiment(PROTOCOLS, ("GRR", "SS")),
                               "splits": SPLITS, "epsilons": ByExperiment((1, 8), (2,)),
                               "seeds": ByExperiment(1, 1), "appendix": True}),
}


def _values(profile: Profile, experiment: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...],
                                                          tuple[float, ...], int | Sequence[int]]:
    """The datasets, protocols, splits, epsilons and seeds of one experiment of ``profile``."""
    def get(key: str) -> Any:
        v = profile[key]
        return v.of(experiment) if isinstance(v, ByExperiment) else v

    datasets = tuple(get("datasets"))
    unknown = [ds for ds in datasets if ds not in SENSITIVE]
    if unknown:
        raise ValueError(f"unknown dataset(s) {unknown} for arcolezi2023; valid: {', '.join(SENSITIVE)}")
    return datasets, tuple(get("protocols")), tuple(get("splits")), tuple(get("epsilons")), get("seeds")


def _main(profile: Profile) -> dict[str, Grid]:
    """The main experiment (Figs. 2-7): one grid per dataset (NonDP and every protocol, split, epsilon)."""
    datasets, protocols, splits, eps, seeds = _values(profile, "main")
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for ds in datasets:
        privs: list[PrivSpec | None] = [None]
        privs += [PrivSpec(p, sensitive=SENSITIVE[ds], split=s) for p in protocols for s in splits]
        grids[ds] = Grid(
            datasets=DatasetSpec(ds),
            models=ModelSpec("lightgbm", HYPERPARAMETERS[ds]),
            privatizations=privs,
            epsilons=eps,
            seeds=seeds,
            evaluation=evaluation,
            name=f"arcolezi2023-{ds}",
        )
    return grids


def appendix_sensitive(dataset: str, seed: int) -> tuple[str, ...]:
    """The sensitive attributes of seed ``seed`` in the appendix experiment, as the authors drew them.

    The authors' code (``4_Appendix_Experiments.ipynb``) calls ``np.random.seed(seed)``,
    then ``d = np.random.randint(1, 6)`` and
    ``np.random.choice(candidates, d, replace=False)``, and prepends the protected
    attribute. The subsets are therefore data of the experiment; they are
    reproduced here with a *local* legacy :class:`numpy.random.RandomState` seeded
    with ``seed`` (the same stream as the seeded global legacy generator), never the
    global state. Across seeds 0-19 the sizes ``d_s = d + 1`` are
    ``{2: 2, 3: 4, 4: 6, 5: 5, 6: 3}``.

    Parameters
    ----------
    dataset : {"adult26k", "acs_coverage", "lsac"}
        Dataset name.
    seed : int
        Non-negative seed of the run.

    Returns
    -------
    tuple of str
        The protected attribute followed by the ``d`` drawn candidates, in drawing order.
    """
    if dataset not in APPENDIX_CANDIDATES:
        raise ValueError(f"invalid dataset={dataset!r}; valid: {', '.join(APPENDIX_CANDIDATES)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    rs = np.random.RandomState(int(seed))  # legacy stream on purpose: reproduces the authors' subsets
    d = int(rs.randint(1, 6))
    extra = rs.choice(list(APPENDIX_CANDIDATES[dataset]), d, replace=False)
    return (SENSITIVE[dataset][0], *(str(a) for a in extra))


def _appendix(profile: Profile) -> dict[str, GridUnion]:
    """The appendix experiment (Figs. 8-13): one :class:`GridUnion` per dataset, keyed ``appendix-<dataset>``.

    Each seed is one grid with that seed's sensitive attributes
    (:func:`appendix_sensitive`) for every protocol, split and epsilon, plus the
    NonDP baseline of that seed (the same task, hence the same result, as in the
    main grid).
    """
    datasets, protocols, splits, eps, seeds = _values(profile, "appendix")
    seed_list = list(range(seeds)) if isinstance(seeds, (int, np.integer)) else list(seeds)
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    out = {}
    for ds in datasets:
        parts = []
        for seed in seed_list:
            sens = appendix_sensitive(ds, seed)
            privs: list[PrivSpec | None] = [None]
            privs += [PrivSpec(p, sensitive=sens, split=s) for p in protocols for s in splits]
            parts.append(Grid(
                datasets=DatasetSpec(ds),
                models=ModelSpec("lightgbm", HYPERPARAMETERS[ds]),
                privatizations=privs,
                epsilons=eps,
                seeds=[seed],
                evaluation=evaluation,
                name=f"arcolezi2023-appendix-{ds}-seed{seed}",
            ))
        out[f"appendix-{ds}"] = GridUnion(tuple(parts), name=f"arcolezi2023-appendix-{ds}")
    return out


def declare(profile: Profile) -> dict[str, Grid | GridUnion]:
    """The experiments of ``profile``: main grids, then (if ``profile["appendix"]``) the appendix unions.

    The main grids (Figs. 2-7) are keyed by dataset, the appendix unions
    (Figs. 8-13) ``appendix-<dataset>``.

    Parameters
    ----------
    profile : Profile
        One of :data:`PROFILES`, possibly with overrides of ``datasets, protocols,
        splits, epsilons, seeds`` (for both experiments) and ``appendix``.

    Returns
    -------
    dict of str to Grid or GridUnion
    """
    out: dict[str, Grid | GridUnion] = dict(_main(profile))
    if profile["appendix"]:
        out.update(_appendix(profile))
    return out


def _profile(name: str) -> Profile:
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; valid: {', '.join(PROFILES)}")
    return PROFILES[name]


def build(profile: str = "paper", **overrides: Any) -> dict[str, Grid]:
    """The main experiment's grids (Figs. 2-7) of ``profile`` with ``overrides``, keyed by dataset.

    ``overrides``: ``datasets, protocols, splits, epsilons, seeds`` (``None`` keeps
    the profile's value).
    """
    return _main(_profile(profile).with_overrides(**overrides))


def build_appendix(profile: str = "paper", **overrides: Any) -> dict[str, GridUnion]:
    """The appendix experiment's unions (Figs. 8-13) of ``profile`` with ``overrides``.

    ``overrides`` as :func:`build`; keyed ``"appendix-<dataset>"``.
    """
    return _appendix(_profile(profile).with_overrides(**overrides))


#: The notebook's parameters (checked by ``ldpfair run`` before a kernel starts).
PARAMETERS: Mapping[str, Param] = {
    "profile": choice("'paper': render the committed full results; 'quick': compute a small grid",
                      ("paper", "quick")),
    "datasets": names("datasets of the main and appendix experiments", DATASETS,
                      none="the profile's datasets"),
    "protocols": names("LDP protocols", PROTOCOLS, none="all seven"),
    "splits": names("budget splits over the sensitive attributes", SPLITS, none="both"),
    "epsilons": epsilons("privacy budgets", "the profile's budgets, paper: 0.25 ... 50"),
    "seeds": seeds_param("seeds (repetitions)", "the profile's number, paper: 20"),
    "appendix": boolean("also the appendix experiment (2-6 sensitive attributes per seed)"),
    "overlay_authors": boolean("draw the authors' per-seed means on the figures"),
    "fig1_value": integer("Fig. 1: race code of the example Adult user", 0, 4),
    "fig1_epsilon": real("Fig. 1: budget of that attribute", 0.0, low_open=True),
    "run_tuning": boolean("run the hyperparameter search (needs optuna; minutes to hours)"),
    "tuning_selection": choice("rows that select the hyperparameters", ("validation", "test")),
    "tuning_evals": integer("trials of the hyperparameter search", 1),
    "n_jobs": n_jobs_param(),
}
