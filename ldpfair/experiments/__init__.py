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

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below are imported on first use (PEP 562): `ldpfair run` starts fast
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
        check_results_file,
        coverage_note,
        load_results,
        metric_columns,
        recomputed_cells,
        save_results,
        stamp_results,
    )
    from .sweep import Sweep, SweepTask
    from .union import GridUnion
    from .verification import VerificationError, verify_results

_LAZY: dict[str, str] = {
    "ModelSpec": "ldpfair.models",
    "DEFAULT_CACHE": "ldpfair.experiments.cache",
    "Cache": "ldpfair.experiments.cache",
    "INFO_COLUMNS": "ldpfair.experiments.engine",
    "LABEL_COLUMNS": "ldpfair.experiments.engine",
    "TIMING_COLUMNS": "ldpfair.experiments.engine",
    "coverage": "ldpfair.experiments.engine",
    "run": "ldpfair.experiments.engine",
    "run_task": "ldpfair.experiments.engine",
    "RESULTS_SCHEMA_VERSION": "ldpfair.experiments.grid",
    "DatasetSpec": "ldpfair.experiments.grid",
    "Evaluation": "ldpfair.experiments.grid",
    "Grid": "ldpfair.experiments.grid",
    "PrivSpec": "ldpfair.experiments.grid",
    "Task": "ldpfair.experiments.grid",
    "holdout": "ldpfair.experiments.grid",
    "kfold": "ldpfair.experiments.grid",
    "PROFILES": "ldpfair.experiments.profiles",
    "run_profile": "ldpfair.experiments.profiles",
    "select_profile": "ldpfair.experiments.profiles",
    "ResultsIntegrityError": "ldpfair.experiments.results",
    "VerificationError": "ldpfair.experiments.verification",
    "check_results_file": "ldpfair.experiments.results",
    "coverage_note": "ldpfair.experiments.results",
    "load_results": "ldpfair.experiments.results",
    "metric_columns": "ldpfair.experiments.results",
    "recomputed_cells": "ldpfair.experiments.results",
    "save_results": "ldpfair.experiments.results",
    "stamp_results": "ldpfair.experiments.results",
    "verify_results": "ldpfair.experiments.verification",
    "Sweep": "ldpfair.experiments.sweep",
    "SweepTask": "ldpfair.experiments.sweep",
    "GridUnion": "ldpfair.experiments.union",
}


def __getattr__(name: str) -> Any:
    """Import a public name (or a submodule) of the package on first use."""
    target = _LAZY.get(name)
    if target is None:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(target), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
    "recomputed_cells",
    "run",
    "run_profile",
    "run_task",
    "save_results",
    "select_profile",
    "stamp_results",
    "verify_results",
]
