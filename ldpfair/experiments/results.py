"""Committed paper-profile results: save, load with coverage, verify by recomputation.

The paper profile of each notebook is computed once by the engine and
committed under ``results/<paper>/<name>.csv.gz`` with ``<name>.meta.json``
(code version and git commit, date, wall time, machine, library versions,
grid description). The book renders figures from these files only
(:func:`load_results`, which reports how many of the grid's cells are present);
CI recomputes a few cells (:func:`verify_results`) and requires exact equality.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .cache import atomic_write_text
from .engine import INFO_COLUMNS, LABEL_COLUMNS, TIMING_COLUMNS, run
from .grid import RESULTS_SCHEMA_VERSION, Grid
from .sweep import Sweep

__all__ = [
    "save_results",
    "load_results",
    "verify_results",
    "coverage_note",
    "metric_columns",
    "results_paths",
]


def results_paths(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """``(<path>.csv.gz, <path>.meta.json)`` for ``path`` given with or without suffix."""
    p = Path(path)
    name = p.name
    for suffix in (".csv.gz", ".meta.json", ".csv"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return p.with_name(f"{name}.csv.gz"), p.with_name(f"{name}.meta.json")


def metric_columns(frame: pd.DataFrame) -> list[str]:
    """Columns of ``frame`` that hold computed values (not labels, key, timings or warnings)."""
    skip = {*LABEL_COLUMNS, *TIMING_COLUMNS, *INFO_COLUMNS}
    return [c for c in frame.columns if c not in skip]


def _git_commit() -> str | None:
    """HEAD's commit, with ``-dirty`` when tracked files of the package differ from it.

    As ``git describe --dirty``, untracked files do not count.
    """
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, cwd=here,
        )
        if out.returncode != 0 or not out.stdout.strip():
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", str(here.parent)],
            capture_output=True, text=True, timeout=10, cwd=here,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def _versions() -> dict[str, str]:
    import joblib
    import sklearn

    import ldpfair

    out = {"ldpfair": ldpfair.__version__, "numpy": np.__version__, "pandas": pd.__version__,
           "scikit-learn": sklearn.__version__, "joblib": joblib.__version__,
           "python": platform.python_version()}
    try:
        import lightgbm

        out["lightgbm"] = lightgbm.__version__
    except ImportError:  # pragma: no cover
        pass
    return out


def save_results(
    frame: pd.DataFrame,
    path: str | os.PathLike[str],
    *,
    grid: Grid | Sweep | None = None,
    wall_time: float | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Write ``frame`` to ``<path>.csv.gz`` and its metadata to ``<path>.meta.json``.

    Both files are written atomically; the gzip header carries no timestamp, so
    identical results give identical bytes.

    Parameters
    ----------
    frame : pandas.DataFrame
        Tidy results of :func:`~ldpfair.experiments.run`.
    path : str or path-like
        ``results/<paper>/<name>`` (a ``.csv.gz`` suffix is accepted).
    grid : Grid, optional
        The grid, described in the metadata.
    wall_time : float, optional
        Wall-clock seconds of the run (default: the sum of ``t_total``).
    metadata : mapping, optional
        Extra entries of the metadata file.
    """
    if "key" not in frame.columns:
        raise ValueError("frame has no 'key' column; pass the output of ldpfair.experiments.run")
    csv_path, meta_path = results_paths(path)
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{csv_path.name}.", suffix=".tmp", dir=csv_path.parent)
    os.close(fd)
    try:
        frame.to_csv(tmp, index=False, compression={"method": "gzip", "mtime": 0})
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; committed results are shared files
        os.replace(tmp, csv_path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    total = float(frame["t_total"].sum()) if "t_total" in frame.columns else None
    meta = {
        "schema": RESULTS_SCHEMA_VERSION,
        "code_version": _versions()["ldpfair"],
        "git_commit": _git_commit(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "wall_time_s": wall_time if wall_time is not None else total,
        "cpu_time_cells_s": total,
        "n_rows": len(frame),
        "machine": {"platform": platform.platform(), "processor": platform.processor(),
                    "machine": platform.machine(), "cpu_count": os.cpu_count()},
        "libraries": _versions(),
        "grid": grid.describe() if grid is not None else None,
        **dict(metadata or {}),
    }
    atomic_write_text(meta_path, json.dumps(meta, indent=2, sort_keys=True, default=str) + "\n")
    return csv_path, meta_path


def _read(path: str | os.PathLike[str]) -> pd.DataFrame | None:
    csv_path, _ = results_paths(path)
    if not csv_path.exists():
        return None
    if int(pd.__version__.split(".")[0]) >= 3:
        return pd.read_csv(csv_path)  # pandas 3 parses floats exactly (round trip) by default
    return pd.read_csv(csv_path, float_precision="round_trip")


def load_results(
    grid: Grid | Sweep, path: str | os.PathLike[str]
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Committed results of ``grid``'s tasks, in grid order, and their coverage.

    Rows are matched by task key; label columns are re-derived from the grid.
    A missing file gives an empty frame. Nothing is computed.

    Returns
    -------
    frame : pandas.DataFrame
        The present rows (``attrs["coverage"]`` set as well).
    coverage : dict
        ``{"present": ..., "total": ...}`` (tasks of the grid).
    """
    tasks = grid.tasks()
    stored = _read(path)
    records = []
    if stored is not None and "key" in stored.columns:
        by_key = {k: i for i, k in enumerate(stored["key"].tolist())}
        metric_cols = [c for c in stored.columns if c not in LABEL_COLUMNS and c != "key"]
        values = stored[metric_cols]
        for task in tasks:
            i = by_key.get(task.key)
            if i is not None:
                labels = task.labels()  # labels come from the grid, never from the CSV
                stored_row = {c: v for c, v in values.iloc[i].to_dict().items() if c not in labels}
                records.append({**labels, "key": task.key, **stored_row})
    frame = pd.DataFrame.from_records(records) if records else pd.DataFrame(
        columns=[*LABEL_COLUMNS, "key"])
    cov = {"present": len(records), "total": len(tasks)}
    frame.attrs["coverage"] = cov
    return frame, cov


def coverage_note(coverage: Mapping[str, int], what: str = "cells") -> str:
    """One line for a book page: how many of the grid's cells the figure shows."""
    present, total = int(coverage["present"]), int(coverage["total"])
    if coverage.get("computed"):
        return f"{present} of {total} {what} computed now (the {coverage['computed']} profile)."
    if present == total:
        return f"All {total} {what} of the paper profile are present in the committed results."
    return (f"{present} of {total} {what} of the paper profile are present in the committed "
            f"results; {total - present} are missing (compute them with `ldpfair run`).")


def verify_results(
    grid: Grid | Sweep,
    path: str | os.PathLike[str],
    *,
    n_cells: int = 3,
    seed: int = 0,
    n_jobs: int | None = 1,
) -> pd.DataFrame:
    """Recompute ``n_cells`` committed tasks and require bit-identical metrics.

    The tasks are drawn with ``numpy.random.default_rng(seed)`` among the
    committed ones, so CI always checks the same subset.

    Returns
    -------
    pandas.DataFrame
        The recomputed rows.

    Raises
    ------
    AssertionError
        If a recomputed metric differs from the committed value (the message
        lists every difference), or no committed task is present.
    """
    committed, cov = load_results(grid, path)
    if cov["present"] == 0:
        raise AssertionError(f"no committed results of grid {grid.name!r} at {path}")
    rng = np.random.default_rng(seed)
    keys = committed["key"].tolist()
    chosen = sorted(rng.choice(len(keys), size=min(n_cells, len(keys)), replace=False).tolist())
    wanted = {keys[i] for i in chosen}
    tasks = [t for t in grid.tasks() if t.key in wanted]
    fresh = run(grid, tasks=tasks, n_jobs=n_jobs, cache=None, progress=False)
    old = committed.set_index("key").loc[fresh["key"]]
    problems = []
    label_cols = set(tasks[0].labels()) if tasks else set()
    for col in (c for c in metric_columns(fresh) if c not in label_cols):
        if col not in old.columns:
            problems.append(f"column {col!r} missing from the committed results")
            continue
        a = pd.to_numeric(fresh[col], errors="coerce").to_numpy(dtype=float)
        b = pd.to_numeric(old[col], errors="coerce").to_numpy(dtype=float)
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        for i in np.flatnonzero(~same):
            problems.append(f"{fresh['key'].iloc[i][:12]} {col}: committed {b[i]!r}, "
                            f"recomputed {a[i]!r}")
    if problems:
        raise AssertionError("recomputed results differ from the committed ones:\n"
                             + "\n".join(problems[:50]))
    return fresh
