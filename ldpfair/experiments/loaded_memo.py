"""A memo on disk of :func:`~ldpfair.experiments.results.load_results`' checked answers.

Reading a committed results file costs its parse, its content digest
(:func:`~ldpfair.experiments.results_files.rows_digest`) and the grid's task
keys; every page of the book and every scoreboard process paid them again for
the same bytes. The checks are a function of the file's bytes, its metadata,
the grid and the code that reads them, so their answer is stored once under
``<cache>/loaded/<key>.pkl``, where the key is the sha256 of the file's bytes
(hashed in this process, :func:`~ldpfair.experiments.results_files.file_sha256`),
the metadata, the grid's description, the source of :mod:`ldpfair.experiments`
and the pandas and numpy versions. Any change to one of them misses the memo,
and the file is checked whole again. Only an answer whose checks all passed is
stored.

What it does not protect against: the memo is as trusted as the cache folder
(``$LDPFAIR_CACHE``), like the per-task cache; a pickle written there by
someone else is read back. :func:`ldpfair.experiments.verify_results` (CI's
check of the committed results) never reads it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["memo_key", "read", "write"]

#: Bump when the stored tuple changes shape.
_VERSION = "loaded-v1"


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """sha256 of the source of :mod:`ldpfair.experiments` (what checks and builds the frames)."""
    h = hashlib.sha256(_VERSION.encode())
    for f in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def grid_identity(grid: Any) -> Any:
    """Everything the tasks' keys and labels of ``grid`` derive from, without building its tasks.

    None for a kind of grid it does not know (no memo then).
    """
    from .grid import Grid
    from .sweep import Sweep
    from .union import GridUnion

    if isinstance(grid, GridUnion):
        parts = [grid_identity(p) for p in grid.parts]
        return None if any(p is None for p in parts) else {"union": grid.name, "parts": parts}
    if isinstance(grid, Sweep):
        from .grid import canonical_json

        desc = grid.describe()
        desc["param_sets"] = hashlib.sha256(canonical_json(grid.param_sets).encode()).hexdigest()
        return desc
    if isinstance(grid, Grid):
        return {"name": grid.name,
                "datasets": [[d.config(), d.label, d.name] for d in grid.datasets],
                "models": [[m.config(), m.name] for m in grid.models],
                "privatizations": [[p.config(), p.name, p.split, p.mode, p.private]
                                   for p in grid.privatizations],
                "epsilons": list(grid.epsilons), "seeds": list(grid.seeds),
                "evaluation": [grid.evaluation.config(), list(grid.evaluation.folds)]}
    return None


def memo_key(csv_sha256: str, meta: dict[str, Any], grid: Any) -> str | None:
    """The memo's key: file bytes, metadata, grid identity, code and library versions (None: no memo)."""
    identity = grid_identity(grid)
    if identity is None:
        return None
    payload = json.dumps([csv_sha256, meta, identity, _code_digest(), pd.__version__,
                          np.__version__], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def _path(key: str) -> Path:
    from .. import config

    return config.task_cache_dir() / "loaded" / f"{key[:40]}.pkl"


def read(key: str) -> tuple[pd.DataFrame, dict[str, int], list[str]] | None:
    """The stored ``(frame, coverage, unknown_keys)`` of ``key``, or None (missing or damaged)."""
    path = _path(key)
    try:
        with path.open("rb") as fh:
            stored = pickle.load(fh)
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError, ImportError):
        return None
    if not (isinstance(stored, tuple) and len(stored) == 4 and stored[0] == key
            and isinstance(stored[1], pd.DataFrame)):
        return None
    return stored[1], dict(stored[2]), list(stored[3])


def write(key: str, frame: pd.DataFrame, coverage: dict[str, int], unknown: list[str]) -> None:
    """Store a checked answer (atomically; a read-only cache folder stores nothing)."""
    path = _path(key)
    plain = frame.copy(deep=False)
    plain.attrs = {}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((key, plain, dict(coverage), list(unknown)), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError:
        pass
