"""Profiles: each paper notebook declares a ``quick`` grid (CI) and a ``paper`` grid.

The book renders the ``paper`` profile from committed results only (never
computing during the build): :func:`run_profile` loads them and reports the
coverage. The ``quick`` profile is computed (minutes). Setting
``LDPFAIR_COMPUTE=1`` (or ``compute=True``) computes the paper profile too and,
given ``results``, writes the committed files.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from .._validation import check_choice
from .engine import run
from .grid import Grid
from .results import load_results, save_results

__all__ = ["PROFILES", "select_profile", "run_profile"]

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
    if compute is None:
        compute = not (profile == "paper" and results is not None) or os.environ.get(
            "LDPFAIR_COMPUTE", ""
        ) == "1"
    if not compute:
        frame, _ = load_results(grid, results)  # type: ignore[arg-type]
        return frame
    start = time.perf_counter()
    frame = run(grid, n_jobs=n_jobs, cache=cache, progress=progress)
    frame.attrs["coverage"] = {**frame.attrs["coverage"], "computed": profile}
    if profile == "paper" and results is not None:
        save_results(frame, Path(results), grid=grid, wall_time=time.perf_counter() - start,
                     metadata={"profile": profile, "n_jobs": n_jobs})
    return frame
