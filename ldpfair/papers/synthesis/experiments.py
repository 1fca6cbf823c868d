"""The synthesis chapter's profiles and benchmark declarations (cheap to import: no plotting, no results).

A new experiment, not a reproduction. Every dataset of the book with a binary
protected attribute (eight) x every local mechanism of the book (GRR, BLH, OLH,
RAPPOR, OUE, SS, THE) plus ghoukasian2025's optimal mechanism (OPT, closed form
for k = 2) x epsilon in {0.5, 1, 2, 4, 8} x 10 seeds, plus the non-private
baseline. Only the protected attribute of the training set is collected under
LDP; the test set is clean. One model for every dataset: LightGBM with fixed
hyperparameters (:data:`LGBM_PARAMS`, chosen for cost, not tuned). One
stratified 80/20 split per seed (``random_state = seed`` for the split and the
model, as arcolezi2023).

:func:`declare` declares the grids of a profile, one per dataset, so that each
dataset's results are committed on their own (``results/synthesis/<dataset>``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...experiments import DatasetSpec, Grid, ModelSpec, PrivSpec, holdout
from ...experiments.parameters import Param, choice, epsilons, integer, n_jobs_param, real, seeds
from ...ldp import PROTOCOLS, opt_factory
from ..contract import Profile
from . import open as _open

__all__ = [
    "DATASETS",
    "DATASET_LABELS",
    "CARD_DATASETS",
    "CARD_LABELS",
    "dataset_entry",
    "dataset_label",
    "dataset_order",
    "EPSILONS",
    "FAIRNESS",
    "LGBM_PARAMS",
    "MECHANISMS",
    "PARAMETERS",
    "PROFILES",
    "UTILITY",
    "build",
    "declare",
]

#: result name -> (registry name, loader options, protected attribute, where the choice comes from)
DATASETS: dict[str, tuple[str, dict[str, Any], str, str]] = {
    "adult": ("adult26k", {"protected": "gender"}, "gender", "arcolezi2023, ghoukasian2025"),
    "acs_coverage": ("acs_coverage", {}, "DIS", "arcolezi2023"),
    "lsac": ("lsac", {"protected": "race1"}, "race1", "arcolezi2023"),
    "compas": ("compas_makhlouf", {"threshold": 3}, "race", "makhlouf2024"),
    "german": ("german", {"variant": "fairbalance"}, "age", "ghoukasian2025 (FairBalance)"),
    "bank": ("bank", {}, "age", "ghoukasian2025 (FairBalance)"),
    "student_math": ("student_math", {}, "sex", "ghoukasian2025 (FairBalance)"),
    "dutch": ("dutch", {}, "sex", "xu2019"),
}
#: Human labels of the datasets.
DATASET_LABELS: dict[str, str] = {
    "adult": "Adult", "acs_coverage": "ACSCoverage", "lsac": "LSAC", "compas": "COMPAS",
    "german": "German", "bank": "Bank", "student_math": "Student Math", "dutch": "Dutch",
}
#: Datasets read from dataset cards in this session (:func:`declare` adds them), apart from the
#: built-in :data:`DATASETS`, which never change; looked up with :func:`dataset_entry`.
CARD_DATASETS: dict[str, tuple[str, dict[str, Any], str, str]] = {}
#: Labels of :data:`CARD_DATASETS` (a card's name).
CARD_LABELS: dict[str, str] = {}


def dataset_entry(key: str) -> tuple[str, dict[str, Any], str, str]:
    """``(registry name, options, protected attribute, source)`` of a built-in or card dataset."""
    return DATASETS[key] if key in DATASETS else CARD_DATASETS[key]


def dataset_label(key: str) -> str:
    """The human label of a dataset (a card's name for a card; the key when unknown)."""
    return DATASET_LABELS.get(key) or CARD_LABELS.get(key, key)


def dataset_order() -> list[str]:
    """The built-in datasets in the chapter's order, then the cards read in this session."""
    return [*DATASETS, *CARD_DATASETS]


#: The private mechanisms, in the order of the tables (OPT last).
MECHANISMS: tuple[str, ...] = (*PROTOCOLS, "OPT")
EPSILONS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
#: One LightGBM for every dataset, chosen for cost (not tuned): 50 trees of at most 15 leaves.
LGBM_PARAMS: dict[str, Any] = {"n_estimators": 50, "num_leaves": 15, "learning_rate": 0.1}
#: Fairness metrics (signed gaps and ratio) and utility metrics of the chapter.
FAIRNESS: tuple[str, ...] = ("SPD", "EOD", "OAD", "DI")
UTILITY: tuple[str, ...] = ("acc", "auc_scores")

#: The profiles. ``paper``: 8 datasets x 8 mechanisms x 5 epsilons x 10 seeds (+ NonDP);
#: ``quick``: COMPAS and German, GRR, SS and OPT, epsilon in {1, 4}, 2 seeds.
#: ``model_params``: the LightGBM hyperparameters (:data:`LGBM_PARAMS`).
PROFILES: dict[str, Profile] = {
    "paper": Profile("paper", {"datasets": tuple(DATASETS), "mechanisms": MECHANISMS, "epsilons": EPSILONS,
                               "seeds": 10, "model_params": LGBM_PARAMS}),
    "quick": Profile("quick", {"datasets": ("compas", "german"), "mechanisms": ("GRR", "SS", "OPT"),
                               "epsilons": (1.0, 4.0), "seeds": 2, "model_params": LGBM_PARAMS}),
}


def _priv(mechanism: str, protected: str) -> PrivSpec:
    if mechanism == "OPT":
        return PrivSpec(opt_factory, sensitive=(protected,), needs_y=True, label="OPT")
    if mechanism in PROTOCOLS:
        return PrivSpec(mechanism, sensitive=(protected,), label=mechanism)
    if _open.plugins.is_user_spec(mechanism):  # resolved and audited by declare
        return _open.priv(mechanism, protected)
    raise ValueError(f"unknown mechanism {mechanism!r}; valid: {', '.join(MECHANISMS)}")



def declare(profile: Profile) -> dict[str, Grid]:
    """The benchmark of ``profile``: one engine grid per dataset (NonDP and every mechanism).

    Parameters
    ----------
    profile : Profile
        One of :data:`PROFILES`, possibly with overrides of ``datasets`` (keys of
        :data:`DATASETS`), ``mechanisms`` (subset of :data:`MECHANISMS`; NonDP is
        always included), ``epsilons``, ``seeds`` (a number or a list) and
        ``model_params`` (LightGBM hyperparameters replacing :data:`LGBM_PARAMS`).

    Returns
    -------
    dict of str to Grid
        Keyed by dataset.
    """
    # a dataset card is read, validated and added to the session's CARD_DATASETS
    datasets = tuple(_open.add_card(d, CARD_DATASETS, CARD_LABELS, builtin=DATASETS)
                     if _open.is_card(d) else d for d in profile["datasets"])
    mechanisms = tuple(profile["mechanisms"])
    unknown = [ds for ds in datasets if ds not in DATASETS and ds not in CARD_DATASETS]
    if unknown:
        raise ValueError(f"unknown dataset(s) {unknown}; valid: {', '.join(DATASETS)}")
    user = _open.user_specs(mechanisms, MECHANISMS)
    # resolved and audited before any cell runs, on mixed batches and once on the run's protected column
    real = _open.real_column([dataset_entry(d)[:3] for d in datasets]) if user else None
    _open.admit_all(user, tuple(profile["epsilons"]), real=real)
    params = dict(profile["model_params"])
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for key in datasets:
        name, options, protected, _ = dataset_entry(key)
        privs: list[PrivSpec | None] = [None]
        privs += [_priv(m, protected) for m in mechanisms]
        grids[key] = Grid(
            datasets=DatasetSpec(name, options=options, protected=protected, label=key),
            models=ModelSpec("lightgbm", params),
            privatizations=privs,
            epsilons=tuple(profile["epsilons"]),
            seeds=profile["seeds"],
            evaluation=evaluation,
            name=f"synthesis-{key}",
        )
    return grids


def build(profile: str = "paper", **overrides: Any) -> dict[str, Grid]:
    """:func:`declare` of the profile named ``profile`` with ``overrides`` (``None`` keeps a value)."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; valid: {', '.join(PROFILES)}")
    return declare(PROFILES[profile].with_overrides(**overrides))


#: The notebook's parameters (checked by ``ldpfair run`` before a kernel starts).
PARAMETERS: Mapping[str, Param] = {
    "profile": choice("'paper': render the committed full results; 'quick': compute a small grid",
                      ("paper", "quick")),
    "datasets": _open.datasets_param(tuple(DATASETS)),
    "mechanisms": _open.mechanisms_param(MECHANISMS),
    "epsilons": epsilons("privacy budgets", "the profile's budgets, paper: 0.5 ... 8"),
    "seeds": seeds("seeds (repetitions)", "the profile's number, paper: 10"),
    "heatmap_epsilons": epsilons("budgets of the heatmaps", "none"),
    "max_loss": real("matched accuracy loss of the leaderboard, as a fraction", 0.0, 1.0),
    "card_epsilons": epsilons("budgets of the mechanism cards", "none"),
    "card_reps": integer("simulated collections per mechanism card", 2),
    "n_jobs": n_jobs_param(),
}
