"""Running a chapter's experiments for one profile: the committed results, or computed through the cache.

Below both the registry (:mod:`ldpfair.papers`, which checks the paper is a registered
chapter first) and the contract (:class:`ldpfair.papers.contract.PaperSpec.results`),
so neither imports the other.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import pandas as pd

__all__ = ["run_experiments"]


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

    The ``paper`` profile reads ``results/<paper>/<name>.csv.gz``; any other profile
    is computed, through the task cache ``cache`` (default ``$LDPFAIR_CACHE``).
    """
    from .. import config
    from ..experiments import run_profile

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
