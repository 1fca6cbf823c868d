"""Verification of committed results by an exact recomputation of their cells."""

from __future__ import annotations

import os
import secrets
import zlib

import numpy as np
import pandas as pd

from .engine import run
from .grid import Grid
from .results_files import _read_meta, metric_columns, results_paths
from .sweep import Sweep

__all__ = ["VerificationError", "new_seed", "verify_results"]


class VerificationError(AssertionError):
    """Recomputed results differ from the committed ones; ``problems`` lists one line each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        self.whole: str | None = None  # why every cell was recomputed, if it was
        super().__init__(f"{len(self.problems)} problem(s): recomputed results differ from the "
                         "committed ones or do not cover the grid:\n" + "\n".join(self.problems))

_METHOD_COLUMNS = ("method", "mechanism", "protocol", "model")


def _sample(frame: pd.DataFrame, n_cells: int, rng: np.random.Generator) -> list[int]:
    """Row positions: every value of each method-like column at least once, ``n_cells`` at least."""
    order = rng.permutation(len(frame)).tolist()
    chosen: list[int] = []
    for col in (c for c in _METHOD_COLUMNS if c in frame.columns):
        values = frame[col].astype(str).to_numpy()
        covered = {values[i] for i in chosen}
        for i in order:
            if values[i] not in covered:
                chosen.append(i)
                covered.add(values[i])
    for i in order:
        if len(chosen) >= n_cells:
            break
        if i not in chosen:
            chosen.append(i)
    return sorted(chosen)


def new_seed() -> int:
    """A fresh sample seed for :func:`verify_results` (print it to reproduce a failure)."""
    return secrets.randbits(32)


def verify_results(
    grid: Grid | Sweep,
    path: str | os.PathLike[str],
    *,
    n_cells: int = 3,
    seed: int | None = None,
    n_jobs: int | None = 1,
    all_cells: bool = False,
    complete: bool = True,
    base: str | None = "HEAD",
) -> pd.DataFrame:
    """Check a committed results file: integrity, coverage, and an exact recomputation.

    The file must match its recorded checksum (:func:`check_results_file`);
    with ``complete`` every task of ``grid`` must be present (exactly once, which
    the checksum check guarantees) and no row may belong to another grid. Then
    a sample of the committed tasks (every task of a file stamped with
    ``trust=True``) is recomputed and must be bit-identical:
    at least ``n_cells`` tasks and at least one for every value of each
    method-like column (``method``, ``mechanism``, ``protocol``, ``model``),
    drawn with a generator seeded by ``SeedSequence([seed, crc32(grid name)])``,
    so a given ``seed`` reproduces the sample and a new seed draws another one.

    Parameters
    ----------
    grid : Grid, Sweep or GridUnion
        The declared experiment.
    path : path
        ``results/<paper>/<name>``.
    n_cells : int
        Minimum number of recomputed tasks (>= 1).
    seed : int, optional
        Sample seed (default: a fresh one; see :func:`new_seed`).
    n_jobs : int or None
        Workers of the recomputation.
    all_cells : bool
        Recompute every committed task instead of a sample.
    base : str or None
        Recompute every task, whatever the metadata says, when the file or its
        metadata differs from its version committed at this commit of the
        checkout's git history (or has none; see
        :func:`ldpfair.experiments.committed.changed_results`). ``None``: no
        comparison. Outside a git checkout nothing can be told and a sample is drawn
        (``attrs["whole"]`` is ``None`` and ``attrs["git"]`` False).
    complete : bool
        Require every task of the grid to be present.

    Returns
    -------
    pandas.DataFrame
        The recomputed rows; ``attrs["whole"]``: why every task was recomputed
        (``"--all"``, ``"trusted"``, or the git comparison's reason), else ``None``.

    Raises
    ------
    ResultsIntegrityError
        If the file does not match its checksum or is unreadable.
    VerificationError
        If cells are missing or unknown, or a recomputed value differs (one line
        per cell and column in ``problems``).
    """
    from .._validation import check_count

    n_cells = check_count(n_cells, "n_cells", minimum=1)
    from .results import load_results

    committed, cov = load_results(grid, path, reuse=False)  # every check, no memo from disk
    csv_path, _ = results_paths(path)
    problems: list[str] = []
    unknown = committed.attrs.get("unknown_keys", [])
    for key in unknown[:20]:
        problems.append(f"{csv_path}: row {key[:12]} is not a task of grid {grid.name!r}")
    if len(unknown) > 20:
        problems.append(f"{csv_path}: ... {len(unknown) - 20} more rows that are not tasks of the grid")
    if cov["present"] == 0:
        problems.append(f"{csv_path}: no committed results of grid {grid.name!r}")
        raise VerificationError(problems)
    if complete and cov["present"] < cov["total"]:
        present = set(committed["key"])
        missing = [t for t in grid.tasks() if t.key not in present]
        problems.append(f"{csv_path}: {len(missing)} of {cov['total']} tasks of the grid are missing, "
                        f"e.g. {missing[0].key[:12]} {missing[0].labels()}")
    meta = _read_meta(results_paths(path)[1], csv_path)
    content = meta.get("content") or {}
    if base is not None:  # which lock computed it: derived from git, not taken from the metadata
        from ..environment import LOCK_FILE
        from .committed import lock_claim_problem

        claim = lock_claim_problem(meta, str(csv_path), LOCK_FILE)
        if claim:
            problems.append(claim)
    whole, in_git = _whole_reason(csv_path, base, all_cells, content)
    if whole:  # every cell is recomputed
        chosen = list(range(len(committed)))
    else:
        seed = new_seed() if seed is None else int(seed)
        rng = np.random.default_rng(np.random.SeedSequence([seed, zlib.crc32(str(grid.name).encode())]))
        chosen = _sample(committed, n_cells, rng)
    keys = committed["key"].tolist()
    wanted = {keys[i] for i in chosen}
    tasks = [t for t in grid.tasks() if t.key in wanted]
    fresh = run(grid, tasks=tasks, n_jobs=n_jobs, cache=None, progress=False)
    old = committed.set_index("key").loc[fresh["key"]]
    label_cols = set(tasks[0].labels()) if tasks else set()
    for col in sorted(set(metric_columns(committed)) - set(fresh.columns) - label_cols):
        problems.append(f"{csv_path}: column {col!r} of the committed results is not computed by "
                        f"grid {grid.name!r}")
    for col in (c for c in metric_columns(fresh) if c not in label_cols):
        if col not in old.columns:
            problems.append(f"{csv_path}: column {col!r} missing from the committed results")
            continue
        a = pd.to_numeric(fresh[col], errors="coerce").to_numpy(dtype=float)
        b = pd.to_numeric(old[col], errors="coerce").to_numpy(dtype=float)
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        for i in np.flatnonzero(~same):
            problems.append(f"{csv_path}: cell {fresh['key'].iloc[i][:12]} column {col}: "
                            f"committed {float(b[i])!r}, recomputed {float(a[i])!r}")
    if problems:
        if whole not in (None, "--all", "trusted") and any(" recomputed " in p for p in problems):
            problems.insert(0, f"{csv_path}: {whole} ({base}): recomputed whole, and it does not reproduce")
        error = VerificationError(problems)
        error.whole = whole
        raise error
    fresh.attrs["whole"], fresh.attrs["git"] = whole, in_git
    return fresh


def _whole_reason(csv_path: os.PathLike[str], base: str | None, all_cells: bool,
                  content: object) -> tuple[str | None, bool]:
    """Why every cell of the file must be recomputed (or None), and whether git could tell.

    Derived from git, never from the metadata alone: a file or metadata that differs from
    its committed version is recomputed whole whatever it records. The ``trusted`` mark
    only adds work (its absence grants nothing).
    """
    from .committed import changed_results

    in_git = False
    why = None
    if base is not None:
        try:
            why = changed_results(csv_path, base)
            in_git = True
        except LookupError:
            in_git = False
    if all_cells:
        return "--all", in_git
    if why:
        return why, in_git
    if isinstance(content, dict) and "trusted" in content:
        return "trusted", in_git
    return None, in_git
