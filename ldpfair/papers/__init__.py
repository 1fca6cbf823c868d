"""The registry of the book's chapters.

A chapter's computation lives here, not in its notebook: the package
``ldpfair.papers.<paper>`` declares the paper's experiments, figures and checks
and exports ``SPEC``, a :class:`~ldpfair.papers.contract.PaperSpec` (the written
contract every chapter satisfies; see :mod:`ldpfair.papers.contract`). The
``paper`` profile's experiments are the ones whose results are committed under
``results/<paper>/<name>.csv.gz``.

This package finds those declarations so that CI can check that the committed
results are reproduced exactly by a fresh recomputation of a few cells
(``ldpfair results verify``), report their coverage (``ldpfair results status``),
and record the checksum of results files written before checksums existed
(``ldpfair results stamp``).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from .contract import PaperSpec, Profile

__all__ = ["PAPERS", "PaperSpec", "Profile", "spec", "module", "declared", "committed", "results", "status",
           "verify", "stamp"]

#: The chapters of the book, in its order: the five papers, then the synthesis (a new result).
PAPERS: tuple[str, ...] = (
    "arcolezi2023", "makhlouf2024", "ghoukasian2025", "hamman2023", "xu2019", "synthesis",
)


def _check_paper(paper: str) -> None:
    from .._validation import did_you_mean

    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}{did_you_mean(paper, PAPERS)}; valid: {', '.join(PAPERS)}")


def module(paper: str) -> ModuleType | None:
    """Return ``ldpfair.papers.<paper>``, or ``None`` if that paper has no declarations yet."""
    _check_paper(paper)
    name = f"{__name__}.{paper}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise


def spec(paper: str) -> PaperSpec:
    """The :class:`~ldpfair.papers.contract.PaperSpec` of a registered chapter.

    Raises
    ------
    ValueError
        If ``paper`` is not registered (the message lists the chapters).
    TypeError
        If its package does not export a ``SPEC`` satisfying the contract.
    """
    mod = module(paper)
    found = getattr(mod, "SPEC", None)
    if not isinstance(found, PaperSpec) or found.name != paper:
        raise TypeError(f"ldpfair.papers.{paper} must export SPEC = PaperSpec(name={paper!r}, ...), "
                        f"got {found!r}")
    return found


def _experiments(paper: str, profile: str) -> Mapping[str, Any]:
    """The experiments of a registered chapter's declared ``profile`` (memoised by its SPEC)."""
    if module(paper) is None:
        return {}
    s = spec(paper)
    return s.experiments(profile) if profile in s.profiles else {}


def declared(profile: str = "paper", paper: str | None = None) -> Iterator[tuple[str, str, Any, Path]]:
    """Yield ``(paper, name, grid, results_path)`` for every declared experiment of ``profile``."""
    from ..experiments.notebooks import results_dir

    for p in PAPERS if paper is None else (paper,):
        for name, grid in _experiments(p, profile).items():
            yield p, name, grid, results_dir(p) / name


def committed(paper: str, name: str) -> pd.DataFrame:
    """Committed paper-profile results ``results/<paper>/<name>`` of a declared experiment.

    Never computes: missing cells are simply absent (``attrs["coverage"]`` says how
    many are present; an empty frame when nothing is committed).

    Raises
    ------
    ValueError
        If ``paper`` declares no paper-profile experiment ``name`` (the message lists them).
    """
    from ..experiments import load_results

    names = []
    for _, n, grid, path in declared("paper", paper):
        if n == name:
            frame, cov = load_results(grid, path)
            frame.attrs["coverage"] = cov
            return frame
        names.append(n)
    raise ValueError(f"{paper} declares no paper-profile experiment {name!r}; valid: {', '.join(names)}")


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

    if profile == "paper":  # a registered chapter: its committed results
        _check_paper(paper)
    if cache is None:
        from .. import config

        cache = config.task_cache_dir()
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
    from ..environment import lock_sha256, lock_state, read_meta
    from ..experiments import load_results

    rows, lock = [], lock_sha256()
    for p, name, grid, path in declared("paper", paper):
        _, cov = load_results(grid, path)
        meta = Path(str(path) + ".meta.json")
        rows.append({"paper": p, "results": name, "present": cov["present"], "total": cov["total"],
                     "lock": lock_state(read_meta(meta), lock) if meta.is_file() else "",
                     "file": str(path) + ".csv.gz"})
    return pd.DataFrame(rows, columns=["paper", "results", "present", "total", "lock", "file"])


def verify(
    paper: str | None = None,
    *,
    n_cells: int = 2,
    n_jobs: int | None = 1,
    seed: int | None = None,
    all_cells: bool = False,
) -> pd.DataFrame:
    """Check every declared paper experiment's committed results; recompute a sample of cells.

    Each results file must match its recorded checksum, cover its grid exactly
    (every task once, no foreign rows), and reproduce bit for bit on the
    recomputed cells: at least ``n_cells`` per experiment and one per method
    (see :func:`ldpfair.experiments.verify_results`), drawn with ``seed``
    (default: a fresh one), or every cell with ``all_cells``. Experiments with
    no committed file are listed with ``checked = 0`` and are not a failure.
    Every experiment is checked even after a failure.

    Returns
    -------
    pandas.DataFrame
        ``paper, results, present, total, checked, problems``; ``attrs["problems"]``
        holds one line per problem and ``attrs["seed"]`` the sample seed.
    """
    from .._validation import check_count, check_n_jobs
    from ..environment import drift_line
    from ..experiments.results import (
        ResultsIntegrityError,
        VerificationError,
        load_results,
        new_seed,
        results_paths,
        verify_results,
    )

    n_cells = check_count(n_cells, "n_cells", minimum=1)
    n_jobs = check_n_jobs(n_jobs)
    seed = new_seed() if seed is None else check_count(seed, "seed", minimum=0)
    rows, problems = [], []
    for p, name, grid, path in declared("paper", paper):
        row = {"paper": p, "results": name, "present": 0, "total": len(grid.tasks()), "checked": 0,
               "problems": 0}
        if results_paths(path)[0].exists():
            try:
                _, cov = load_results(grid, path)
                row["present"] = cov["present"]
                fresh = verify_results(grid, path, n_cells=n_cells, seed=seed, n_jobs=n_jobs,
                                       all_cells=all_cells)
                row["checked"] = len(fresh)
            except ResultsIntegrityError as exc:
                problems.append(str(exc))
                row["problems"] = 1
            except VerificationError as exc:
                problems.extend(exc.problems)
                row["problems"] = len(exc.problems)
                problems.extend(drift_line(path, exc.problems))  # names the package that changed
        rows.append(row)
    table = pd.DataFrame(rows, columns=["paper", "results", "present", "total", "checked", "problems"])
    table.attrs["problems"] = problems
    table.attrs["seed"] = seed
    return table


def stamp(paper: str | None = None) -> pd.DataFrame:
    """Record the sha256 and row count of every committed results file in its ``.meta.json``.

    Maintenance for files written by the engine before checksums existed, or
    merged from another branch (the stamp trusts the file as it is: never run
    it after editing a results file). Stamps every ``results/<paper>/*.csv.gz``.

    Returns
    -------
    pandas.DataFrame
        ``paper, file, n_rows, sha256`` of each stamped file.
    """
    from ..experiments.notebooks import results_dir
    from ..experiments.results import stamp_results

    rows = []
    for p in PAPERS if paper is None else (paper,):
        _check_paper(p)
        for csv in sorted(results_dir(p).glob("*.csv.gz")):
            st = stamp_results(csv)
            rows.append({"paper": p, "file": str(csv), "n_rows": st["n_rows"], "sha256": st["sha256"]})
    return pd.DataFrame(rows, columns=["paper", "file", "n_rows", "sha256"])
