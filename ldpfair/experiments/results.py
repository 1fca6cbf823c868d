"""Committed paper-profile results: save, load with coverage, verify by recomputation.

The paper profile of each notebook is computed once by the engine and
committed under ``results/<paper>/<name>.csv.gz`` with ``<name>.meta.json``
(code version and git commit, date, wall time, machine, library versions,
grid description, the sha256 and row count of the ``.csv.gz``, and its
``content``: the file name, the columns, the row count and a digest over
every row's task key and values, taken when the engine wrote the file). The
book renders figures from these files only (:func:`load_results`, which
reports how many of the grid's cells are present). Every load checks, with
one line naming the file when a check fails: the checksum and row count; no
repeated key; that the meta names this file and this experiment (grid name
and function version); the recorded columns; no row that is not a task of
the experiment the file was written for; and the content digest, so rows
dropped, added or edited and then restamped are refused. CI recomputes a
sample of cells (:func:`verify_results`) and requires exact equality and
complete coverage. These checks catch corruption and inconsistent edits, not
an edit with every digest recomputed (a plain SHA-256): every cell of a file
that differs from its committed version in git is recomputed
(:mod:`.committed`), whatever its metadata says.

:func:`stamp_results` (``ldpfair results stamp``) re-records the checksum
and row count of a file whose rows still match the recorded digest (the
bytes changed, not the content), and records the content of a file written
before digests existed when its sha256 still matches. It refuses a file
whose rows no longer match the digest. The per-task cache is not a witness:
its entries are protected by a checksum anyone can recompute, so a cache
entry edited together with its checksum could "confirm" an edited row;
``stamp`` reports how the rows compare with their cache entries but decides
on the digest alone. ``trust=True`` (``--trust``) stamps anyway and marks
the content as trusted: :func:`verify_results` then recomputes every cell of
that file, so a value edited and trust-stamped still fails CI. When the
engine writes a file over a committed one (:func:`save_results` with a
grid), a row that differs from the committed, digest-checked row of the same
task (a cache entry edited with its checksum, say) is recomputed without the
cache and the recomputed row is written (recompute on doubt).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import subprocess
import tempfile
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import loaded_memo
from .engine import INFO_COLUMNS, LABEL_COLUMNS, TIMING_COLUMNS, run
from .grid import RESULTS_SCHEMA_VERSION, Grid
from .results_files import (  # noqa: F401 - re-exported (they lived here)
    _PARSED,
    ResultsIntegrityError,
    _check_results_file,
    _parse_csv,
    _read_meta,
    _same_values,
    check_results_file,
    content_record,
    file_sha256,
    metric_columns,
    results_paths,
    rows_digest,
    stamp_results,
    write_meta,
)
from .sweep import Sweep

__all__ = [
    "ResultsIntegrityError",
    "save_results",
    "stamp_results",
    "check_results_file",
    "load_results",
    "coverage_note",
    "metric_columns",
    "recomputed_cells",
    "results_paths",
    "rows_digest",
    "content_record",
    "file_sha256",
    "write_meta",
    "results_meta",
]


def _git_commit() -> str | None:
    """HEAD's commit, with ``-dirty`` when tracked files of the package differ from it.

    As ``git describe --dirty``, untracked files do not count.
    """
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, cwd=here,
        )
        if out.returncode != 0 or not out.stdout.strip():
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", str(here.parent)],
            capture_output=True, text=True, timeout=10, cwd=here,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def blas_kernels() -> list[str]:
    """The BLAS libraries loaded and the CPU kernels they dispatched to (e.g. ``openblas:Haswell``).

    Linear algebra in floating point is not bit-identical across kernel sets (AVX2 vs
    AVX-512): a computation sensitive to the last bit, such as the LARS path of
    noisy basis pursuit, gives other numbers on another architecture. Recorded so
    that a failing verification on another machine can be traced.
    """
    from ..environment import blas_kernels as loaded

    return loaded()


def _versions() -> dict[str, str]:
    import joblib
    import sklearn

    import ldpfair

    out = {"ldpfair": ldpfair.__version__, "numpy": np.__version__, "pandas": pd.__version__,
           "scikit-learn": sklearn.__version__, "joblib": joblib.__version__,
           "python": platform.python_version()}
    from importlib.metadata import PackageNotFoundError, version

    for lib in ("lightgbm", "scipy", "fairlearn", "numba"):  # libraries behind committed numbers
        try:
            out[lib] = version(lib)
        except PackageNotFoundError:  # pragma: no cover
            pass
    return out


def save_results(
    frame: pd.DataFrame,
    path: str | os.PathLike[str],
    *,
    grid: Grid | Sweep | None = None,
    wall_time: float | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> tuple[Path, Path]:
    """Write ``frame`` to ``<path>.csv.gz`` and its metadata to ``<path>.meta.json``.

    Both files are written atomically; the gzip header carries no timestamp, so
    identical results give identical bytes. The metadata records the file's
    sha256, row count and content digest (see :func:`rows_digest`), computed
    from the bytes written.

    When ``grid`` is given and a committed file already exists at ``path`` and
    passes its checks, every row of ``frame`` whose task is in that file must
    carry the same values (same key: same computation). A row that differs (a
    cache entry edited together with its checksum, say) is in doubt: it is
    recomputed without the cache and the recomputed row is written.

    Parameters
    ----------
    frame : pandas.DataFrame
        Tidy results of :func:`~ldpfair.experiments.run`.
    path : str or path-like
        ``results/<paper>/<name>`` (a ``.csv.gz`` suffix is accepted).
    grid : Grid, optional
        The grid, described in the metadata.
    wall_time : float, optional
        Wall-clock seconds of the run (default: the sum of ``t_total``).
    metadata : mapping, optional
        Extra entries of the metadata file.
    """
    if "key" not in frame.columns:
        raise ValueError("frame has no 'key' column; pass the output of ldpfair.experiments.run")
    csv_path, meta_path = results_paths(path)
    if grid is not None:
        frame = _recompute_doubtful(frame, grid, csv_path)
    csv_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{csv_path.name}.", suffix=".tmp", dir=csv_path.parent)
    os.close(fd)
    try:
        frame.to_csv(tmp, index=False, compression={"method": "gzip", "mtime": 0})
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; committed results are shared files
        written = _parse_csv(Path(tmp))  # the digest is taken over what a reader will parse
        os.replace(tmp, csv_path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    total = float(frame["t_total"].sum()) if "t_total" in frame.columns else None
    meta = results_meta(
        csv_path, written, grid=grid, wall_time=wall_time if wall_time is not None else total,
        cpu_time=total, metadata=metadata)
    write_meta(meta_path, meta)
    return csv_path, meta_path


def results_meta(
    csv_path: Path,
    written: pd.DataFrame,
    *,
    grid: Grid | Sweep | None,
    wall_time: float | None,
    cpu_time: float | None,
    metadata: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``.meta.json`` of a results file the engine has just written (``written``: it, parsed).

    The one place that decides what a new results file's metadata records: run,
    machine, libraries, the lock in force, grid, and the checksum and content of the file.
    """
    from ..environment import lock_record

    meta: dict[str, Any] = {
        "schema": RESULTS_SCHEMA_VERSION,
        "code_version": _versions()["ldpfair"],
        "git_commit": _git_commit(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "wall_time_s": wall_time,
        "cpu_time_cells_s": cpu_time,
        "machine": {"platform": platform.platform(), "processor": platform.processor(),
                    "machine": platform.machine(), "cpu_count": os.cpu_count(), "blas": blas_kernels()},
        "libraries": _versions(),
        "lock": lock_record(),  # the lock file in force (sha256) and any package installed otherwise
        "grid": grid.describe() if grid is not None else None,
        **dict(metadata or {}),
    }
    meta.update({"sha256": file_sha256(csv_path), "n_rows": len(written),
                 "content": content_record(csv_path, written)})
    return meta

def _recompute_doubtful(frame: pd.DataFrame, grid: Grid | Sweep, csv_path: Path) -> pd.DataFrame:
    """``frame`` with every row that disagrees with the committed file at ``csv_path`` recomputed.

    Only rows whose task is in the committed file count; a committed file that
    fails its own checks is replaced as it is (nothing to compare with).
    """
    if not csv_path.exists():
        return frame
    try:
        old, _ = _check_results_file(csv_path, True)
    except ResultsIntegrityError:
        return frame
    old = old.set_index("key")
    common = [k for k in frame["key"].tolist() if k in old.index]
    if not common:
        return frame
    skip = {*LABEL_COLUMNS, *TIMING_COLUMNS, *INFO_COLUMNS, "key"}
    cols = [c for c in frame.columns if c not in skip and c in old.columns]
    new = frame.set_index("key").loc[common, cols]
    ref = old.loc[common, cols]
    doubt: set[str] = set()
    for col in cols:
        differ = ~_same_values(new[col], ref[col])
        doubt.update(k for k, d in zip(common, differ, strict=True) if d)
    if not doubt:
        return frame
    tasks = [t for t in grid.tasks() if t.key in doubt]
    fresh = run(grid, tasks=tasks, n_jobs=1, cache=None, progress=False).set_index("key")
    out = frame.copy()
    rows = out["key"].isin(doubt).to_numpy()
    for col in out.columns:
        if col != "key" and col in fresh.columns:
            out.loc[rows, col] = fresh.loc[out.loc[rows, "key"], col].to_numpy()
    return out

def load_results(
    grid: Grid | Sweep, path: str | os.PathLike[str], *, reuse: bool = True
) -> tuple[pd.DataFrame, dict[str, int]]:
    """Committed results of ``grid``'s tasks, in grid order, and their coverage.

    Rows are matched by task key; label columns are re-derived from the grid.
    A missing file gives an empty frame (a caller that requires the file, such
    as :func:`ldpfair.papers.verify`, checks that it exists). Nothing is
    computed. The file is checked first (:func:`check_results_file`: checksum,
    keys, columns, content digest), then its metadata must describe an
    experiment of the same name and function version as ``grid``; when it
    describes ``grid`` exactly (the declared experiment), no row may be foreign
    to it. Rows of a grid that differs (parameters outside the committed
    grid) are listed in ``attrs["unknown_keys"]``. The same grid object read
    again from unchanged bytes gets a copy of the first answer (the scoreboard
    page reads each file twice). With ``reuse`` (the default) a checked answer
    is also kept on disk for other processes, keyed on the file's bytes, its
    metadata, the grid and the code (:mod:`.loaded_memo`); ``reuse=False``
    (verification) neither reads nor writes that memo.

    Returns
    -------
    frame : pandas.DataFrame
        The present rows (``attrs["coverage"]`` set as well).
    coverage : dict
        ``{"present": ..., "total": ...}`` (tasks of the grid).

    Raises
    ------
    ResultsIntegrityError
        One line naming the file, if any check fails.
    """
    csv_path, meta_path = results_paths(path)
    stored, memo_key, disk_key = None, None, None
    if csv_path.exists():
        meta = _read_meta(meta_path, csv_path)
        meta_digest = hashlib.sha256(json.dumps(meta, sort_keys=True, default=str).encode()).hexdigest()
        memo_key = (str(csv_path.resolve()), file_sha256(csv_path), meta_digest, id(grid))
        hit = _LOADED.get(memo_key)
        if hit is not None and hit[0] is grid:  # the entry holds the grid: its id is not reused
            _LOADED.move_to_end(memo_key)
            return _loaded_copy(hit[1])
        disk_key = loaded_memo.memo_key(memo_key[1], meta, grid) if reuse else None
        on_disk = loaded_memo.read(disk_key) if disk_key else None
        if on_disk is not None:  # these bytes, metadata, grid and code passed every check before
            frame, cov, unknown = on_disk
            frame.attrs = {"coverage": cov, "unknown_keys": unknown}
            _LOADED[memo_key] = (grid, frame)
            return _loaded_copy(frame)
        stored, digest = _check_results_file(csv_path, True, meta)
        memo_key = (*memo_key[:1], digest, *memo_key[2:])
        exact = _check_experiment(csv_path, meta_path, meta, grid)
    tasks = grid.tasks()
    frame = None
    present = 0
    if stored is not None and "key" in stored.columns:
        by_key = {k: i for i, k in enumerate(stored["key"].tolist())}
        hits = [(task, by_key[task.key]) for task in tasks if task.key in by_key]
        present = len(hits)
        if hits:
            frame = _rows(stored, hits)
    if frame is None:
        frame = pd.DataFrame(columns=[*LABEL_COLUMNS, "key"])
    cov = {"present": present, "total": len(tasks)}
    frame.attrs["coverage"] = cov
    if stored is None or memo_key is None:
        return frame, cov
    known = {t.key for t in tasks}
    unknown = [k for k in stored["key"].tolist() if k not in known]
    if unknown and exact:
        raise ResultsIntegrityError(
            f"{csv_path}: {len(unknown)} row(s) are not tasks of grid {grid.name!r}, the experiment "
            f"its metadata describes, e.g. {unknown[0][:12]}")
    frame.attrs["unknown_keys"] = unknown
    _LOADED[memo_key] = (grid, frame)
    if disk_key:
        loaded_memo.write(disk_key, frame, cov, unknown)
    while len(_LOADED) > _LOADED_MAX:
        _LOADED.popitem(last=False)
    return _loaded_copy(frame)


def _identity(desc: Any) -> Any:
    """The parts of a grid description that name the experiment: name, kind, function, draws."""
    if not isinstance(desc, dict):
        return desc
    out = {k: desc[k] for k in ("name", "kind", "func", "draws") if k in desc}
    if "parts" in desc:
        out["parts"] = [_identity(p) for p in desc["parts"]] if isinstance(desc["parts"], list) else None
    return out


def _check_experiment(csv_path: Path, meta_path: Path, meta: Mapping[str, Any], grid: Any) -> bool:
    """Refuse a file whose metadata names another experiment; True if it describes ``grid`` exactly."""
    recorded = meta.get("grid")
    if not isinstance(recorded, dict):
        raise ResultsIntegrityError(f"{csv_path}: {meta_path.name} records no grid: it was not written "
                                    f"for grid {grid.name!r}")
    described = json.loads(json.dumps(grid.describe(), default=str))
    mine, theirs = _identity(described), _identity(recorded)
    if mine != theirs:
        diff = ", ".join(
            "a part's name or function" if k == "parts" else f"{k} {theirs.get(k)!r} instead of {mine[k]!r}"
            for k in mine if theirs.get(k) != mine[k])
        raise ResultsIntegrityError(
            f"{csv_path}: {meta_path.name} names another experiment than {grid.name!r} ({diff})")
    return bool(recorded == described)


#: load_results' frames by (file, its sha256, its metadata's digest, grid object), least recently
#: read dropped first (the grid checks are made once per file, metadata and grid). More than the
#: declared experiments (71): a pass over all of them in order, twice, hits every time (with 64
#: the least recently read, the one about to be read again, was always the one dropped).
_LOADED: OrderedDict[tuple[str, str, str, int], tuple[Any, pd.DataFrame]] = OrderedDict()
_LOADED_MAX = 96


def _loaded_copy(frame: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, int]]:
    """A copy of a memoised answer that the caller may change (its coverage and key list too)."""
    out = frame.copy(deep=False)
    cov = dict(frame.attrs["coverage"])
    out.attrs = {"coverage": cov, "unknown_keys": list(frame.attrs["unknown_keys"])}
    return out, cov


def _rows(stored: pd.DataFrame, hits: list[tuple[Any, int]]) -> pd.DataFrame:
    """The stored rows of ``hits`` (task, row position) with the grid's labels, in task order.

    Labels come from the grid, never from the CSV: each row is ``{**labels, "key",
    **stored values not among the labels}``. When every task has the same label
    names (any one grid) the columns are taken whole; a union of grids with other
    label names is assembled row by row, which gives the same frame.
    """
    metric_cols = [c for c in stored.columns if c not in LABEL_COLUMNS and c != "key"]
    labels = [task.labels() for task, _ in hits]
    names = list(labels[0])
    if any(list(lab) != names for lab in labels):
        values = stored[metric_cols]
        records = []
        for (task, i), lab in zip(hits, labels, strict=True):
            stored_row = {c: v for c, v in values.iloc[i].to_dict().items() if c not in lab}
            records.append({**lab, "key": task.key, **stored_row})
        return pd.DataFrame.from_records(records)
    label_frame = pd.DataFrame.from_records(labels, columns=names)
    keys = pd.DataFrame({"key": [task.key for task, _ in hits]})
    # a row read alone has the common dtype of the stored columns (float64 when all are
    # numeric: integer counts become floats); keep that, as reading row by row did
    row_dtype = stored[metric_cols].iloc[0].dtype
    values = stored[[c for c in metric_cols if c not in set(names)]]
    values = values.iloc[[i for _, i in hits]].reset_index(drop=True)
    if row_dtype != np.dtype(object):
        values = values.astype(row_dtype)
    return pd.concat([label_frame, keys, values], axis=1)


def recomputed_cells(folder: str | os.PathLike[str]) -> pd.DataFrame:
    """Cells of committed files that were recomputed after the file was written, and why.

    Reads every ``*.meta.json`` of ``folder`` (a paper's results folder) that records
    ``recomputed_cells`` (the keys) and ``recomputed_why`` (the reason).

    Returns
    -------
    pandas.DataFrame
        One row per such file, in name order: ``file`` (the results name), ``rows``
        (the file's cells), ``recomputed`` (how many of them) and ``why``; empty if none.

    Raises
    ------
    FileNotFoundError
        If ``folder`` is not a folder.
    ResultsIntegrityError
        If a metadata file is not a JSON object, or records keys without a reason.
    """
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a folder of results")
    rows = []
    for path in sorted(root.glob("*.meta.json")):
        csv_path, meta_path = results_paths(path)
        meta = _read_meta(meta_path, csv_path)
        keys = meta.get("recomputed_cells")
        if keys is None:
            continue
        why = meta.get("recomputed_why")
        if not isinstance(keys, list) or not isinstance(why, str) or not why:
            raise ResultsIntegrityError(f"{meta_path}: recomputed_cells must be a list of keys "
                                        "with a recomputed_why text")
        rows.append({"file": csv_path.name[: -len(".csv.gz")], "rows": int(meta.get("n_rows", 0)),
                     "recomputed": len(keys), "why": why})
    return pd.DataFrame(rows, columns=["file", "rows", "recomputed", "why"])


def coverage_note(coverage: Mapping[str, int], what: str = "cells") -> str:
    """One line for a book page: how many of the grid's cells the figure shows."""
    present, total = int(coverage["present"]), int(coverage["total"])
    if coverage.get("computed_now") is not None:
        return (f"{int(coverage['committed'])} of {total} {what} from the committed results, "
                f"{int(coverage['computed_now'])} computed now (parameters outside the committed grid).")
    if coverage.get("computed"):
        return f"{present} of {total} {what} computed now (the {coverage['computed']} profile)."
    if present == total:
        return f"All {total} {what} of the paper profile are present in the committed results."
    return (f"{present} of {total} {what} of the paper profile are present in the committed "
            f"results; {total - present} are missing (compute them with `ldpfair run`).")

