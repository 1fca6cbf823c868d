"""Profiles: each paper notebook declares a ``quick`` grid (CI) and a ``paper`` grid.

The book renders the ``paper`` profile from committed results only (never
computing during the build): :func:`run_profile` loads them and reports the
coverage. The ``quick`` profile is computed (minutes). Setting
``LDPFAIR_COMPUTE=1`` (or ``compute=True``) computes the paper profile too and,
given ``results``, writes the committed files.

``ldpfair run`` sets ``LDPFAIR_RUN_LEDGER`` to a file: the paper profile is then
completed, the cells that the committed results lack (parameters outside the
committed grid) computed and the others read, and every experiment appends one
line ``{"experiment", "committed", "cached", "computed"}`` to that file, from
which the command prints where the cells came from (:func:`provenance_summary`):
read from the committed results, read from the per-task cache, or computed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from .. import config
from .._validation import check_choice
from .engine import run
from .grid import Grid
from .results import load_results, save_results

__all__ = ["PROFILES", "RUN_LEDGER_ENV", "select_profile", "run_profile", "provenance_summary"]

#: Environment variable naming the provenance ledger of an ``ldpfair run``.
RUN_LEDGER_ENV = config.RUN_LEDGER

#: Profile names every paper notebook declares.
PROFILES = ("quick", "paper")


def select_profile(profile: str, grids: Mapping[str, Any]) -> Any:
    """Return ``grids[profile]`` after checking the name."""
    check_choice(profile, list(grids), "profile")
    return grids[profile]


def run_profile(
    grids: Mapping[str, Grid],
    profile: str,
    *,
    results: str | os.PathLike[str] | None = None,
    cache: Any = None,
    n_jobs: int | None = 1,
    progress: bool = True,
    compute: bool | None = None,
) -> pd.DataFrame:
    """Results of ``grids[profile]``: loaded (paper profile) or computed (quick).

    Parameters
    ----------
    grids : mapping
        ``{"quick": Grid, "paper": Grid}``.
    profile : str
        Which grid.
    results : path, optional
        Committed results ``results/<paper>/<name>`` of the paper profile.
    cache : path, optional
        Per-task cache used when computing.
    n_jobs : int or None
        Workers when computing.
    progress : bool
        Progress bar when computing.
    compute : bool, optional
        Compute the grid. Default: ``True`` for every profile except ``"paper"``
        with ``results`` given, unless the environment sets ``LDPFAIR_COMPUTE=1``.
        When the paper profile is computed and ``results`` is given, the results
        are written there.

    Returns
    -------
    pandas.DataFrame
        Tidy results; ``attrs["coverage"]`` = ``{"present", "total"}`` (plus
        ``"computed": profile`` when the results were computed rather than read).
    """
    grid = select_profile(profile, grids)
    ledger = config.run_ledger()
    name = Path(results).name if results is not None else f"{grid.name} ({profile})"
    if compute is None:
        compute = not (profile == "paper" and results is not None) or config.compute()
    if not compute:
        frame, cov = load_results(grid, results)  # type: ignore[arg-type]
        if ledger is None or cov["present"] == cov["total"]:
            _record(ledger, name, cov["present"], 0)
            return frame
        have = set(frame["key"]) if "key" in frame.columns else set()
        cached = _cached(cache, [t for t in grid.tasks() if t.key not in have]) if ledger else 0
        frame = _complete(grid, frame, cache=cache, n_jobs=n_jobs, progress=progress)
        _record(ledger, name, cov["present"], cov["total"] - cov["present"] - cached, cached)
        return frame
    start = time.perf_counter()
    cached = _cached(cache, list(grid.tasks())) if ledger else 0
    frame = run(grid, n_jobs=n_jobs, cache=cache, progress=progress)
    frame.attrs["coverage"] = {**frame.attrs["coverage"], "computed": profile}
    _record(ledger, name, 0, len(frame) - cached, cached)
    if profile == "paper" and results is not None:
        save_results(frame, Path(results), grid=grid, wall_time=time.perf_counter() - start,
                     metadata={"profile": profile, "n_jobs": n_jobs})
    return frame


def _complete(grid: Any, committed: pd.DataFrame, *, cache: Any, n_jobs: int | None,
              progress: bool) -> pd.DataFrame:
    """``committed`` completed with the grid's other cells, computed now; in grid order.

    ``attrs["coverage"]`` becomes ``{"present", "total", "committed", "computed_now"}``.
    """
    tasks = grid.tasks()
    have = set(committed["key"]) if "key" in committed.columns else set()
    missing = [t for t in tasks if t.key not in have]
    fresh = run(grid, tasks=missing, n_jobs=n_jobs, cache=cache, progress=progress)
    order = {t.key: i for i, t in enumerate(tasks)}
    parts = [f for f in (committed, fresh) if len(f)]
    frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0].copy()
    frame = frame.iloc[frame["key"].map(order).argsort(kind="stable")].reset_index(drop=True)
    frame.attrs["coverage"] = {"present": len(frame), "total": len(tasks),
                               "committed": len(committed), "computed_now": len(fresh)}
    return frame


def _cached(cache: Any, tasks: list[Any]) -> int:
    """How many of ``tasks`` the per-task cache holds already (read, not computed, by the run)."""
    from .engine import _as_cache

    store = _as_cache(cache)
    if store is None:
        return 0
    return sum(store.path(t.key).is_file() for t in tasks)


def _record(ledger: Path | None, experiment: str, committed: int, computed: int, cached: int = 0) -> None:
    """Append one experiment's provenance to the ``ldpfair run`` ledger (when there is one)."""
    if ledger is None:
        return
    line = json.dumps({"experiment": experiment, "committed": int(committed), "cached": int(cached),
                       "computed": int(computed)})
    with open(ledger, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")


def provenance_summary(paper: str, ledger: str | os.PathLike[str]) -> list[str]:
    """Lines saying where an ``ldpfair run``'s cells came from, read from its ledger.

    The first line totals the run, e.g. ``"arcolezi2023: 1,234 cells from committed
    results, 12 from the cache, 56 computed"`` (cells from the per-task cache were
    computed by an earlier run); one line follows per experiment that read the
    cache or computed cells. A run whose notebook recorded nothing says so.
    """
    path = Path(ledger)
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()] \
        if path.is_file() else []
    if not rows:
        return [f"{paper}: no experiment results were read or computed"]
    def counts(committed: int, cached: int, computed: int) -> str:
        return f"{committed:,} from committed results, {cached:,} from the cache, {computed:,} computed"

    total = [sum(r.get(k, 0) for r in rows) for k in ("committed", "cached", "computed")]
    lines = [f"{paper}: {counts(*total).replace(' from committed', ' cells from committed', 1)}"]
    lines += [f"  {r['experiment']}: {counts(r['committed'], r.get('cached', 0), r['computed'])}"
              for r in rows if r["computed"] or r.get("cached", 0)]
    return lines
