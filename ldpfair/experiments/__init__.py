"""The deterministic, parallel, cached experiment engine.

>>> from ldpfair import experiments as ex
>>> grid = ex.Grid(datasets="adult26k", models=ex.ModelSpec("lightgbm"),
...                privatizations=[None, ex.PrivSpec("GRR", split="uniform")],
...                epsilons=[1, 8], seeds=3)  # doctest: +SKIP
>>> df = ex.run(grid, n_jobs=2, cache=".ldpfair_cache")  # doctest: +SKIP

See :mod:`~ldpfair.experiments.grid` (declarations),
:mod:`~ldpfair.experiments.engine` (:func:`run`),
:mod:`~ldpfair.experiments.cache`, :mod:`~ldpfair.experiments.results`
(committed paper-profile results) and :mod:`~ldpfair.experiments.profiles`.
"""

from __future__ import annotations

from ..models import ModelSpec
from .cache import DEFAULT_CACHE, Cache
from .engine import INFO_COLUMNS, LABEL_COLUMNS, TIMING_COLUMNS, coverage, run, run_task
from .grid import (
    RESULTS_SCHEMA_VERSION,
    DatasetSpec,
    Evaluation,
    Grid,
    PrivSpec,
    Task,
    holdout,
    kfold,
)
from .profiles import PROFILES, run_profile, select_profile
from .results import (
    ResultsIntegrityError,
    VerificationError,
    check_results_file,
    coverage_note,
    load_results,
    metric_columns,
    save_results,
    stamp_results,
    verify_results,
)
from .sweep import Sweep, SweepTask
from .union import GridUnion

__all__ = [
    "DEFAULT_CACHE",
    "INFO_COLUMNS",
    "LABEL_COLUMNS",
    "PROFILES",
    "RESULTS_SCHEMA_VERSION",
    "TIMING_COLUMNS",
    "Cache",
    "DatasetSpec",
    "Evaluation",
    "Grid",
    "GridUnion",
    "ModelSpec",
    "ResultsIntegrityError",
    "VerificationError",
    "PrivSpec",
    "Sweep",
    "SweepTask",
    "Task",
    "check_results_file",
    "coverage",
    "coverage_note",
    "holdout",
    "kfold",
    "load_results",
    "metric_columns",
    "run",
    "run_profile",
    "run_task",
    "save_results",
    "select_profile",
    "stamp_results",
    "verify_results",
]
