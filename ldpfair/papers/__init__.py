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
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from .contract import PaperSpec, Profile
from .running import missing_file, run_experiments

__all__ = ["PAPERS", "TEMPLATE", "ENTRY_POINT_GROUP", "with_results", "PaperSpec", "Profile", "spec",
           "module", "declared", "derived", "committed", "results", "status", "verify", "stamp"]

#: The entry-point group a chapter registers in (``[project.entry-points."ldpfair.papers"]`` of its
#: package's ``pyproject.toml``): ``name = "package.module"``, so a chapter may live in another package.
ENTRY_POINT_GROUP = "ldpfair.papers"


def _toc_order() -> list[str]:
    """Chapter names in the order of the book's ``_toc.yml`` (``notebooks/<name>`` entries), if present."""
    toc = Path(__file__).resolve().parents[2] / "_toc.yml"
    if not toc.is_file():
        return []
    found = re.findall(r"file:\s*notebooks/([A-Za-z0-9_]+)", toc.read_text(encoding="utf-8"))
    return list(dict.fromkeys(found))


def _discover() -> dict[str, str]:
    """Map each chapter to its module: the entry points of :data:`ENTRY_POINT_GROUP`, then a package scan.

    The scan of this package's subpackages (those not starting with ``_`` that
    export ``SPEC``) keeps an editable checkout working when its installed
    metadata predates a new chapter. Order: the book's ``_toc.yml``, then by name.
    """
    from importlib.metadata import entry_points

    found: dict[str, str] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value.split(":")[0])
    here = Path(__file__).resolve().parent
    for init in sorted(here.glob("*/__init__.py")):
        name = init.parent.name
        if name.startswith("_") or name in found:
            continue
        if "SPEC" in init.read_text(encoding="utf-8"):
            found[name] = f"{__name__}.{name}"
    order = {name: i for i, name in enumerate(_toc_order())}
    ranked = sorted(found, key=lambda n: (order.get(n, len(order)), n))
    return {n: found[n] for n in ranked}


_MODULES: dict[str, str] = _discover()

#: The skeleton of a new chapter (``ldpfair/papers/_template``, ``notebooks/_template.md``): not a
#: chapter of the book, but its notebook checks its parameters like one (:func:`spec` accepts it).
TEMPLATE = "_template"

#: The chapters of the book, in its order (``_toc.yml``): discovered, never listed by hand.
PAPERS: tuple[str, ...] = tuple(_MODULES)


def with_results() -> tuple[str, ...]:
    """Every name with committed paper-profile results: the chapters, then the template.

    The template commits its (small) results like a chapter, so that ``ldpfair results``
    computes, stamps and verifies them with the others and a copy starts from a chapter
    whose every command works.
    """
    return (*PAPERS, TEMPLATE)


def _check_paper(paper: str) -> None:
    from .._validation import did_you_mean

    if paper not in PAPERS and paper != TEMPLATE:
        raise ValueError(f"unknown paper {paper!r}{did_you_mean(paper, PAPERS)}; valid: {', '.join(PAPERS)}")


def module(paper: str) -> ModuleType | None:
    """Return ``ldpfair.papers.<paper>``, or ``None`` if that paper has no declarations yet."""
    _check_paper(paper)
    name = _MODULES.get(paper, f"{__name__}.{paper}")
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
        where = _MODULES.get(paper, f"{__name__}.{paper}")
        raise TypeError(f"{where} must export SPEC = PaperSpec(name={paper!r}, ...), "
                        f"got {found!r}")
    return found


def _experiments(paper: str, profile: str) -> Mapping[str, Any]:
    """The experiments of a registered chapter's declared ``profile`` (memoised by its SPEC)."""
    if module(paper) is None:
        return {}
    s = spec(paper)
    return s.experiments(profile) if profile in s.profiles else {}


def declared(profile: str = "paper", paper: str | None = None) -> Iterator[tuple[str, str, Any, Path]]:
    """Yield ``(paper, name, grid, results_path)`` for every declared experiment of ``profile``.

    ``paper=None``: every chapter's and the template's (:func:`with_results`).
    """
    from ..config import results_dir

    for p in with_results() if paper is None else (paper,):
        for name, grid in _experiments(p, profile).items():
            yield p, name, grid, results_dir(p) / name


def derived(paper: str | None = None) -> Iterator[tuple[str, Any, Path]]:
    """Yield ``(paper, group, results_folder)`` for every derived group (``PaperSpec.derived``)."""
    from ..config import results_dir

    for p in with_results() if paper is None else (paper,):
        if module(p) is not None:
            for group in spec(p).derived:
                yield p, group, results_dir(p)


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
    files; read, a missing results file (or metadata) of an experiment is a
    :class:`~ldpfair.experiments.ResultsIntegrityError` naming it, so a book
    build fails on it. Any other profile is computed. Computations use a per-task cache
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
    if profile == "paper":  # a registered chapter: its committed results
        _check_paper(paper)
    return run_experiments(paper, grids, profile, n_jobs=n_jobs, progress=progress, compute=compute,
                           cache=cache)


def status(paper: str | None = None) -> pd.DataFrame:
    """Coverage of the committed paper-profile results: one row per declared experiment.

    ``attrs["problems"]`` holds one line per declared experiment whose results
    file (or its ``.meta.json``) is missing; every file present is checked as
    it is loaded (:func:`ldpfair.experiments.load_results`).
    """
    from ..environment import derived_lock_state, lock_sha256
    from ..experiments import load_results
    from ..experiments.committed import changed_results
    from ..experiments.results import results_paths

    rows, problems, lock = [], [], lock_sha256()
    for p, name, grid, path in declared("paper", paper):
        missing = missing_file(p, name, path)
        if missing:
            problems.append(missing)
            cov = {"present": 0, "total": len(grid.tasks())}
        else:
            _, cov = load_results(grid, path)
        meta = results_paths(path)[1]
        try:  # derived from git, never from the metadata's own fields
            committed_state = changed_results(path) or "as committed"
        except LookupError:
            committed_state = "cannot tell (no git checkout)"
        rows.append({"paper": p, "results": name, "present": cov["present"], "total": cov["total"],
                     "committed": committed_state,
                     "lock": derived_lock_state(meta, lock) if meta.is_file() else "",
                     "file": str(results_paths(path)[0])})
    table = pd.DataFrame(rows, columns=["paper", "results", "present", "total", "committed", "lock",
                                        "file"])
    table.attrs["problems"] = problems
    return table


def verify(
    paper: str | None = None,
    *,
    n_cells: int = 2,
    n_jobs: int | None = 1,
    seed: int | None = None,
    all_cells: bool = False,
    base: str | None = "HEAD",
) -> pd.DataFrame:
    """Check every declared paper experiment's committed results; recompute a sample of cells.

    Each declared experiment must have its results file and metadata (a
    missing one is a problem, so is an empty results folder), match its
    recorded checksum and content digest, cover its grid exactly (every task
    once, no foreign rows), and reproduce bit for bit on the recomputed cells:
    at least ``n_cells`` per experiment and one per method (see
    :func:`ldpfair.experiments.verify_results`), drawn with ``seed`` (default:
    a fresh one), or every cell with ``all_cells`` (and of every file stamped
    with ``--trust``), and every cell of each file whose ``.csv.gz`` or
    ``.meta.json`` differs from its version committed at ``base`` (git; see
    :func:`ldpfair.experiments.verify_results`). Every experiment is checked even
    after a failure. The chapters' derived tables (``PaperSpec.derived``) are checked
    after the experiments, and recomputed whole (and required byte for byte) when one
    of a group's files differs from its committed version, or with ``all_cells``
    (:func:`ldpfair.experiments.derived.verify_derived`).

    Returns
    -------
    pandas.DataFrame
        ``paper, results, present, total, checked, whole, problems`` (``whole``: why
        every cell was recomputed, empty for a sample); ``attrs["problems"]`` holds one
        line per problem, ``attrs["seed"]`` the sample seed and ``attrs["git"]`` whether
        the files could be compared with their committed versions.
    """
    from .._validation import check_count, check_n_jobs
    from ..environment import drift_line
    from ..experiments.results import ResultsIntegrityError, load_results
    from ..experiments.verification import VerificationError, new_seed, verify_results

    n_cells = check_count(n_cells, "n_cells", minimum=1)
    n_jobs = check_n_jobs(n_jobs)
    seed = new_seed() if seed is None else check_count(seed, "seed", minimum=0)
    if base is not None:
        from ..experiments.committed import checkout_root, resolve_base

        if checkout_root() is not None:
            resolve_base(base)  # a base that names no commit is a usage error, before any work
    rows, problems, in_git = [], [], base is not None
    for p, name, grid, path in declared("paper", paper):
        row = {"paper": p, "results": name, "present": 0, "total": len(grid.tasks()), "checked": 0,
               "whole": "", "problems": 0}
        missing = missing_file(p, name, path)
        if missing:
            problems.append(missing)
            row["problems"] = 1
        else:
            try:
                _, cov = load_results(grid, path)
                row["present"] = cov["present"]
                fresh = verify_results(grid, path, n_cells=n_cells, seed=seed, n_jobs=n_jobs,
                                       all_cells=all_cells, base=base)
                row["checked"] = len(fresh)
                row["whole"] = fresh.attrs.get("whole") or ""
                in_git = in_git and bool(fresh.attrs.get("git"))
            except ResultsIntegrityError as exc:
                problems.append(str(exc))
                row["problems"] = 1
            except VerificationError as exc:
                row["whole"] = exc.whole or ""
                problems.extend(exc.problems)
                row["problems"] = len(exc.problems)
                problems.extend(drift_line(path, exc.problems))  # names the package that changed
        rows.append(row)
    from ..experiments.derived import verify_derived

    verified = [p for p in dict.fromkeys(r["paper"] for r in rows) if p in with_results()]
    for p, group, folder in (d for name in verified for d in derived(name)):  # after their experiments
        found, trouble = verify_derived(group, folder, base=base, whole=all_cells)
        rows += [{"paper": p, **r} for r in found]
        problems += trouble
    table = pd.DataFrame(rows, columns=["paper", "results", "present", "total", "checked", "whole",
                                        "problems"])
    table.attrs["problems"] = problems
    table.attrs["seed"] = seed
    from ..experiments.committed import checkout_root

    table.attrs["git"] = in_git and checkout_root() is not None
    return table


def stamp(paper: str | None = None, *, trust: bool = False) -> pd.DataFrame:
    """Re-record the sha256 and row count of every committed results file in its ``.meta.json``.

    Maintenance for files whose bytes changed but not their rows, and for files
    written before content digests existed (recorded while their sha256 still
    matches). A file whose rows no longer match the digest recorded when it was
    written is refused unless ``trust`` (see
    :func:`ldpfair.experiments.stamp_results`). Stamps every
    ``results/<paper>/*.csv.gz``; every file is tried, then the first refusal raised.

    Returns
    -------
    pandas.DataFrame
        ``paper, file, n_rows, sha256, trusted`` of each stamped file.

    Raises
    ------
    ResultsIntegrityError
        The refusals, one line each (after every other file was stamped).
    """
    from ..config import results_dir
    from ..experiments.results import ResultsIntegrityError, stamp_results

    rows, refused = [], []
    for p in with_results() if paper is None else (paper,):
        _check_paper(p)
        for csv in sorted(results_dir(p).glob("*.csv.gz")):
            try:
                st = stamp_results(csv, trust=trust)
            except ResultsIntegrityError as exc:
                refused.append(str(exc))
                continue
            rows.append({"paper": p, "file": str(csv), "n_rows": st["n_rows"], "sha256": st["sha256"],
                         "trusted": st["trusted"]})
    if refused:
        more = f" (and {len(refused) - 1} more refused)" if len(refused) > 1 else ""
        raise ResultsIntegrityError(refused[0] + more)
    return pd.DataFrame(rows, columns=["paper", "file", "n_rows", "sha256", "trusted"])
