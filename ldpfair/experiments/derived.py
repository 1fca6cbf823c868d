"""Derived results: a chapter's committed tables that are not grids of tasks.

A chapter declares them with :class:`ldpfair.papers.contract.Derived` (``names``,
the function computing them from the committed results and the paper's numbers,
its parameters). The engine writes them (:func:`save_derived`: gzip CSV with a
fixed header time, metadata with the producer, its parameters, the code version,
the sha256 and the content digest) and verifies them (:func:`verify_derived`):
every file present and matching its checksum and digest, and, when one of the
group's files differs from its committed version in git (or with ``--all``), the
group recomputed whole and required byte for byte (the CSV text).
"""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from ..papers.contract import Derived

__all__ = ["save_derived", "compute_derived", "verify_derived", "missing_derived"]


def _csv_text(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False)


def save_derived(derived: Derived, frames: Mapping[str, pd.DataFrame], folder: str | os.PathLike[str], *,
                 wall_time: float | None = None) -> list[Path]:
    """Write each frame to ``folder/<name>.csv.gz`` with its ``.meta.json`` (atomically); return the paths."""
    from .. import __version__
    from .results import _git_commit
    from .results_files import _parse_csv, content_record, file_sha256, results_paths, write_meta

    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for name in derived.names:
        csv, meta_path = results_paths(root / name)
        tmp = csv.with_name(f".{csv.name}.tmp")
        frames[name].to_csv(tmp, index=False, compression={"method": "gzip", "mtime": 0})
        os.replace(tmp, csv)
        meta = {"name": name, "producer": derived.producer, **dict(derived.parameters),
                "code_version": __version__, "git_commit": _git_commit(),
                "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                "n_rows": len(frames[name]), "sha256": file_sha256(csv),
                "content": content_record(csv, _parse_csv(csv, require_key=False))}
        if wall_time is not None:
            meta["wall_time_s"] = round(float(wall_time), 1)
        write_meta(meta_path, meta)
        written.append(csv)
    return written


def missing_derived(derived: Derived, folder: str | os.PathLike[str]) -> list[str]:
    """The names of the group whose ``.csv.gz`` or ``.meta.json`` is missing."""
    from .results_files import results_paths

    return [n for n in derived.names if not all(p.is_file() for p in results_paths(Path(folder) / n))]


def compute_derived(derived: Derived, folder: str | os.PathLike[str], *, force: bool = False,
                    write: bool = True) -> dict[str, Any]:
    """Compute the group when a file is missing (or ``force``) and write it; return what was done.

    Returns
    -------
    dict
        ``computed`` (bool), ``wall s`` and ``written`` (bool).
    """
    if not force and not missing_derived(derived, folder):
        return {"computed": False, "wall s": 0.0, "written": False}
    start = time.perf_counter()
    frames = derived.compute()
    wall = time.perf_counter() - start
    if write:
        save_derived(derived, frames, folder, wall_time=wall)
    return {"computed": True, "wall s": wall, "written": write}


def _first_difference(old: str, new: str) -> str:
    a, b = old.splitlines(), new.splitlines()
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"line {i + 1}: committed {x[:80]!r}, recomputed {y[:80]!r}"
    return f"{len(a)} committed lines, {len(b)} recomputed"


def verify_derived(derived: Derived, folder: str | os.PathLike[str], *, base: str | None = "HEAD",
                   whole: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """Check a derived group's files; recompute it whole when a file changed since ``base`` (or ``whole``).

    Returns
    -------
    rows : list of dict
        One per file: ``results, present, total, checked, whole, problems`` (as
        :func:`ldpfair.papers.verify`'s rows; ``present``/``total`` count rows).
    problems : list of str
        One line per problem (missing file, checksum or digest mismatch, a
        recomputation that differs from the file).
    """
    from .committed import changed_results
    from .results_files import ResultsIntegrityError, check_results_file, results_paths

    root = Path(folder)
    rows: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    reasons: dict[str, str] = {}
    for name in derived.names:
        csv = results_paths(root / name)[0]
        row: dict[str, Any] = {"results": name, "present": 0, "total": 0, "checked": 0, "whole": "",
                               "problems": 0}
        rows[name] = row
        if name in missing_derived(derived, root):
            problems.append(f"{csv}: missing (a derived table of {derived.producer}): run ldpfair results "
                            "compute")
            row["problems"] = 1
            continue
        try:
            frame = check_results_file(csv, require_key=False)
            row["present"] = row["total"] = len(frame)
        except ResultsIntegrityError as exc:
            problems.append(str(exc))
            row["problems"] = 1
        if base is not None:
            try:
                why = changed_results(csv, base)
            except LookupError:
                why = None
            if why:
                reasons[name] = why
    if not (whole or reasons) or missing_derived(derived, root):  # a missing file: nothing to compare
        return list(rows.values()), problems
    fresh = derived.compute()
    for name, row in rows.items():
        csv = results_paths(root / name)[0]
        row["whole"] = reasons.get(name) or ("--all" if whole else "with the group's changed files")
        row["checked"] = len(fresh[name])
        old = gzip.decompress(csv.read_bytes()).decode("utf-8")
        if old != _csv_text(fresh[name]):
            problems.append(f"{csv}: recomputed whole ({row['whole']}) by {derived.producer}, it does not "
                            f"reproduce ({_first_difference(old, _csv_text(fresh[name]))})")
            row["problems"] += 1
    return list(rows.values()), problems
