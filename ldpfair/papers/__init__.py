"""The experiment declarations of each paper chapter.

A chapter's computation lives here, not in its notebook: module
``ldpfair.papers.<paper>`` declares the paper's experiments and the notebook
imports them. A paper module exposes

``PROFILES``
    ``{"quick": {...}, "paper": {...}}``: for each profile, a mapping of result
    name to a :class:`~ldpfair.experiments.Grid` or
    :class:`~ldpfair.experiments.Sweep`. The ``paper`` entries are the ones whose
    results are committed under ``results/<paper>/<name>.csv.gz``.

This package finds those declarations so that CI can check that the committed
results are reproduced exactly by a fresh recomputation of a few cells
(``ldpfair results verify``), and report their coverage (``ldpfair results status``).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

__all__ = ["PAPERS", "module", "declared", "results", "status", "verify"]

#: The five papers of the book, in the order of the book.
PAPERS: tuple[str, ...] = ("arcolezi2023", "makhlouf2024", "ghoukasian2025", "hamman2023", "xu2019", "synthesis")  # noqa: E501


def module(paper: str) -> ModuleType | None:
    """Return ``ldpfair.papers.<paper>``, or ``None`` if that paper has no declarations yet."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; valid: {', '.join(PAPERS)}")
    name = f"{__name__}.{paper}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def declared(profile: str = "paper", paper: str | None = None) -> Iterator[tuple[str, str, Any, Path]]:
    """Yield ``(paper, name, grid, results_path)`` for every declared experiment of ``profile``."""
    from ..experiments.notebooks import results_dir

    for p in PAPERS if paper is None else (paper,):
        mod = module(p)
        if mod is None:
            continue
        profiles: Mapping[str, Mapping[str, Any]] = mod.PROFILES
        for name, grid in profiles.get(profile, {}).items():
            yield p, name, grid, results_dir(p) / name


def results(
    paper: str,
    grids: Mapping[str, Any],
    profile: str,
    *,
    n_jobs: int | None = 1,
    progress: bool = False,
    compute: bool | None = None,
    cache: str | os.PathLike[str] | None = None,
) -> dict[str, pd.DataFrame]:
    """Tidy results of a chapter's experiments for one profile.

    The ``paper`` profile is read from the committed files
    ``results/<paper>/<name>.csv.gz`` and never computed during a book build
    (each frame's ``attrs["coverage"]`` says how many cells are present); set
    ``LDPFAIR_COMPUTE=1`` (or ``compute=True``) to compute it and write those
    files. Any other profile is computed. Computations use a per-task cache
    (``cache``, default ``$LDPFAIR_CACHE`` or ``.ldpfair_cache`` in the repository),
    so an interrupted run resumes.

    Parameters
    ----------
    paper : str
        One of :data:`PAPERS`.
    grids : mapping of str to Grid or Sweep
        The chapter's experiments for ``profile`` (e.g. ``module.build(profile)``).
    profile : {"quick", "paper"}
        Which profile.
    n_jobs, progress, compute, cache
        As in :func:`ldpfair.experiments.run_profile`.
    """
    from ..experiments import run_profile
    from ..experiments.notebooks import results_dir

    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; valid: {', '.join(PAPERS)}")
    if cache is None:
        cache = os.environ.get("LDPFAIR_CACHE") or Path(__file__).resolve().parents[2] / ".ldpfair_cache"
    out = {}
    for name, grid in grids.items():
        out[name] = run_profile(
            {profile: grid},
            profile,
            results=results_dir(paper) / name if profile == "paper" else None,
            cache=cache,
            n_jobs=n_jobs,
            progress=progress,
            compute=compute,
        )
    return out


def status(paper: str | None = None) -> pd.DataFrame:
    """Coverage of the committed paper-profile results: one row per declared experiment."""
    from ..experiments import load_results

    rows = []
    for p, name, grid, path in declared("paper", paper):
        _, cov = load_results(grid, path)
        rows.append({"paper": p, "results": name, "present": cov["present"], "total": cov["total"],
                     "file": str(path) + ".csv.gz"})
    return pd.DataFrame(rows, columns=["paper", "results", "present", "total", "file"])


def verify(paper: str | None = None, *, n_cells: int = 2, n_jobs: int | None = 1) -> pd.DataFrame:
    """Recompute ``n_cells`` committed cells of every declared paper experiment; require equality.

    Experiments with no committed results are skipped (and listed with ``checked = 0``).

    Raises
    ------
    AssertionError
        If any recomputed value differs from the committed one.
    """
    from ..experiments import load_results, verify_results

    rows = []
    for p, name, grid, path in declared("paper", paper):
        _, cov = load_results(grid, path)
        checked = 0
        if cov["present"]:
            fresh = verify_results(grid, path, n_cells=n_cells, n_jobs=n_jobs)
            checked = len(fresh)
        rows.append({"paper": p, "results": name, "present": cov["present"], "checked": checked})
    return pd.DataFrame(rows, columns=["paper", "results", "present", "checked"])
