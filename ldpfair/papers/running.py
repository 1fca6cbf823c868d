"""Running a chapter's experiments for one profile: the committed results, or computed through the cache.

Below both the registry (:mod:`ldpfair.papers`, which checks the paper is a registered
chapter first) and the contract (:class:`ldpfair.papers.contract.PaperSpec.results`),
so neither imports the other.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = ["run_experiments", "missing_file"]


def run_experiments(
    paper: str,
    grids: Mapping[str, Any],
    profile: str,
    *,
    n_jobs: int | None = 1,
    progress: bool = False,
    compute: bool | None = None,
    cache: str | os.PathLike[str] | None = None,
) -> dict[str, pd.DataFrame]:
    """Tidy results of ``paper``'s experiments ``grids`` for ``profile`` (see :func:`ldpfair.papers.results`).

    The ``paper`` profile reads ``results/<paper>/<name>.csv.gz`` (a missing file or
    metadata is a :class:`~ldpfair.experiments.ResultsIntegrityError` naming it, unless
    the missing cells may be computed); any other profile is computed, through the task
    cache ``cache`` (default ``$LDPFAIR_CACHE``).
    """
    from .. import config
    from ..experiments import run_profile

    if profile == "paper" and not (compute or (compute is None and config.compute())):
        from ..experiments.results import ResultsIntegrityError

        for name in grids:  # reading: every declared file must be there
            missing = missing_file(paper, name, config.results_dir(paper) / name)
            if missing:
                raise ResultsIntegrityError(missing)
    if cache is None:
        cache = config.task_cache_dir()
    out = {}
    for name, grid in grids.items():
        out[name] = run_profile(
            {profile: grid},
            profile,
            results=config.results_dir(paper) / name if profile == "paper" else None,
            cache=cache,
            n_jobs=n_jobs,
            progress=progress,
            compute=compute,
        )
    return out


def missing_file(paper: str, name: str, path: Path) -> str | None:
    """One line if the results file or the metadata of a declared experiment is missing."""
    from ..experiments.results import results_paths

    csv_path, meta_path = results_paths(path)
    for f in (csv_path, meta_path):
        if not f.is_file():
            return (f"{f}: missing (the committed results of the declared experiment {paper}/{name}; "
                    "restore it from git or compute it with `ldpfair results compute`)")
    return None
