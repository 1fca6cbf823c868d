"""Recompute the book's committed results: one paper, one experiment, or everything.

:func:`plan` lists every declared paper-profile experiment with its cells, how many
are committed and the estimated cost (from the committed per-cell timings);
:func:`recompute` computes the missing cells (or all of them) through the engine's
per-task cache, so an interrupted run resumes, and writes each results file
atomically with its metadata. It scales out through joblib's backends: processes
on one machine (``n_jobs``), or a dask cluster, either an existing one
(``scheduler="tcp://..."``) or a ``LocalCluster`` it starts (``local_cluster=N``).
The rows are identical whatever the backend or number of workers: every random
stream of a cell is a function of the cell's configuration only.

A script that starts a ``LocalCluster`` itself must do it under
``if __name__ == "__main__":`` (the workers are new processes that import the
script); ``ldpfair results compute`` does that for you.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .. import config
from .._validation import check_count, check_n_jobs

__all__ = ["plan", "recompute", "backend"]


def _experiments(papers: Sequence[str] | None, experiment: str | None) -> list[tuple[str, str, Any, Path]]:
    from ..papers import declared, with_results

    valid = with_results()  # the chapters and the template
    papers = list(papers or valid)
    unknown = [p for p in papers if p not in valid]
    if unknown:
        raise ValueError(f"unknown paper(s) {unknown}; valid: {', '.join(valid)}")
    found = [e for p in papers for e in declared("paper", p)]
    if experiment is not None:
        names = sorted({name for _, name, _, _ in found}
                       | {n for _, group, _ in _derived(papers) for n in group.names})
        found = [e for e in found if e[1] == experiment]
        if not found and experiment not in names:
            raise ValueError(f"no declared experiment {experiment!r} in {', '.join(papers)}; valid: "
                             f"{', '.join(names)}")
    return found


def _derived(papers: Sequence[str] | None, experiment: str | None = None,
             found: Sequence[tuple[str, str, Any, Path]] | None = None) -> list[tuple[str, Any, Path]]:
    """The derived groups (``PaperSpec.derived``) to plan or compute after the experiments ``found``.

    Those of the papers of ``found`` (default: ``papers``, or every one), or, when
    ``experiment`` is named, the groups of ``papers`` that write it.
    """
    from ..papers import derived, with_results

    if experiment is None and found is not None:
        papers = list(dict.fromkeys(p for p, *_ in found))
    known = with_results()
    groups = [d for p in (papers or known) if p in known for d in derived(p)]
    return [d for d in groups if experiment is None or experiment in d[1].names]


def _per_cell_seconds(path: Path) -> float:
    meta = path.with_name(path.name + ".meta.json")
    try:
        d = json.loads(meta.read_text())
        cpu, rows = d.get("cpu_time_cells_s"), d.get("n_rows")
        if cpu and rows:
            return float(cpu) / float(rows)
    except (OSError, ValueError):
        pass
    return math.nan


def _derived_seconds(path: Path) -> float:
    meta = path.with_name(path.name + ".meta.json")
    try:
        wall = json.loads(meta.read_text()).get("wall_time_s")
        return float(wall) if wall else math.nan
    except (OSError, ValueError):
        return math.nan


def plan(papers: Sequence[str] | None = None, experiment: str | None = None, *,
         force: bool = False) -> pd.DataFrame:
    """Every declared paper-profile experiment, what is committed, and what computing it costs.

    Parameters
    ----------
    papers : sequence of str, optional
        Papers to include (default: all).
    experiment : str, optional
        Only this declared experiment (e.g. ``"table1"``).
    force : bool
        Count every cell as to be computed (not only the missing ones).

    Returns
    -------
    pandas.DataFrame
        One row per experiment: ``paper, experiment, cells, committed, to compute,
        s per cell`` (committed CPU seconds per cell; NaN when nothing is committed)
        and ``core-hours`` (estimated for the cells to compute).
    """
    from . import load_results

    rows = []
    found = _experiments(papers, experiment)
    for p, name, grid, path in found:
        _, cov = load_results(grid, path)
        todo = cov["total"] if force else cov["total"] - cov["present"]
        sec = _per_cell_seconds(path)
        rows.append({"paper": p, "experiment": name, "cells": cov["total"], "committed": cov["present"],
                     "to compute": todo, "s per cell": sec, "core-hours": todo * sec / 3600.0})
    from .derived import missing_derived

    for p, group, folder in _derived(papers, experiment, found):  # one "cell" per derived table
        missing = set(missing_derived(group, folder))
        for i, name in enumerate(group.names):
            todo = 1 if force or missing else 0  # a group is computed whole, its time on its first file
            sec = _derived_seconds(folder / name) if i == 0 else 0.0
            rows.append({"paper": p, "experiment": name, "cells": 1, "committed": int(name not in missing),
                         "to compute": todo, "s per cell": sec, "core-hours": todo * sec / 3600.0})
    return pd.DataFrame(rows, columns=["paper", "experiment", "cells", "committed", "to compute",
                                       "s per cell", "core-hours"])


@contextlib.contextmanager
def backend(*, scheduler: str | None = None, local_cluster: int | None = None) -> Iterator[str]:
    """Context in which the engine's joblib calls run on dask (or the default loky processes).

    Parameters
    ----------
    scheduler : str, optional
        Address of a running dask scheduler (``"tcp://host:8786"``).
    local_cluster : int, optional
        Start a ``dask.distributed.LocalCluster`` with this many single-threaded
        worker processes for the duration of the context.

    Yields
    ------
    str
        A description of the backend.
    """
    if scheduler is not None and local_cluster is not None:
        raise ValueError("give either scheduler or local_cluster, not both")
    if scheduler is None and local_cluster is None:
        yield "joblib processes (loky)"
        return
    if local_cluster is not None:
        check_count(local_cluster, "local_cluster")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - dask is a dev dependency
        raise ValueError("the dask backend needs dask[distributed]: pip install 'dask[distributed]'") from exc
    from joblib import parallel_config

    cluster = None
    try:
        if local_cluster is not None:
            cluster = LocalCluster(n_workers=local_cluster, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
            what = f"dask LocalCluster ({local_cluster} workers)"
        else:
            client = Client(scheduler, timeout="20s")
            what = f"dask scheduler {scheduler}"
        try:
            with parallel_config(backend="dask"):
                yield what
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


def recompute(papers: Sequence[str] | None = None, experiment: str | None = None, *,
              n_jobs: int | None = 1, scheduler: str | None = None, local_cluster: int | None = None,
              force: bool = False, cache: str | os.PathLike[str] | None = None,
              progress: bool = True, write: bool = True) -> pd.DataFrame:
    """Compute the paper-profile cells that are missing (or, with ``force``, all) and write the results.

    Parameters
    ----------
    papers, experiment
        As in :func:`plan`.
    n_jobs : int or None
        Workers (with a dask backend: the number of tasks in flight; ``-1`` all).
    scheduler, local_cluster
        The dask backend (:func:`backend`); default: joblib's processes.
    force : bool
        Recompute every cell, ignoring the committed results (cells already in
        ``cache`` are still read from it: point ``cache`` at an empty folder for a
        recomputation from scratch).
    cache : path, optional
        The per-task cache (default ``$LDPFAIR_CACHE`` or ``.ldpfair_cache``).
    progress : bool
        A tqdm progress bar per experiment.
    write : bool
        Write ``results/<paper>/<name>.csv.gz`` and its metadata (atomically).

    Returns
    -------
    pandas.DataFrame
        One row per experiment: ``paper, experiment, cells, computed, wall s`` and
        ``written`` (whether the results file was written).
    """
    from . import load_results, run, save_results

    check_n_jobs(n_jobs)
    if cache is None:
        cache = config.task_cache_dir()
    rows = []
    todo = _experiments(papers, experiment)
    with backend(scheduler=scheduler, local_cluster=local_cluster):
        for p, name, grid, path in todo:
            tasks = grid.tasks()
            committed, cov = (load_results(grid, path) if not force
                              else (pd.DataFrame(), {"present": 0, "total": len(tasks)}))
            have = set(committed["key"]) if len(committed) else set()
            missing = [t for t in tasks if t.key not in have]
            start = time.perf_counter()
            fresh = run(grid, n_jobs=n_jobs, cache=cache, progress=progress, tasks=missing) if missing \
                else pd.DataFrame()
            wall = time.perf_counter() - start
            written = False
            if write and missing:
                frame = pd.concat([f for f in (committed, fresh) if len(f)], ignore_index=True)
                order = {t.key: i for i, t in enumerate(tasks)}
                frame = frame.iloc[frame["key"].map(order).argsort(kind="stable")].reset_index(drop=True)
                save_results(frame, path, grid=grid, wall_time=wall,
                             metadata={"profile": "paper", "n_jobs": n_jobs,
                                       "backend": "dask" if (scheduler or local_cluster) else "loky"})
                written = True
            rows.append({"paper": p, "experiment": name, "cells": len(tasks), "computed": len(missing),
                         "wall s": wall, "written": written})
        from .derived import compute_derived

        for p, group, folder in _derived(papers, experiment, todo):  # from the results just written
            done = compute_derived(group, folder, force=force, write=write)
            for name in group.names:
                rows.append({"paper": p, "experiment": name, "cells": 1, "computed": int(done["computed"]),
                             "wall s": done["wall s"], "written": done["written"]})
    return pd.DataFrame(rows, columns=["paper", "experiment", "cells", "computed", "wall s", "written"])
