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
complete coverage.

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
import gzip
import hashlib
import json
import os
import platform
import secrets
import subprocess
import tempfile
import zlib
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .cache import atomic_write_text
from .engine import INFO_COLUMNS, LABEL_COLUMNS, TIMING_COLUMNS, run
from .grid import RESULTS_SCHEMA_VERSION, Grid
from .sweep import Sweep

__all__ = [
    "ResultsIntegrityError",
    "VerificationError",
    "save_results",
    "stamp_results",
    "check_results_file",
    "load_results",
    "verify_results",
    "coverage_note",
    "metric_columns",
    "recomputed_cells",
    "results_paths",
    "rows_digest",
]


class ResultsIntegrityError(ValueError):
    """A committed results file that cannot be trusted (checksum, rows, keys, format); one line."""


class VerificationError(AssertionError):
    """Recomputed results differ from the committed ones; ``problems`` lists one line each."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{len(self.problems)} problem(s): recomputed results differ from the "
                         "committed ones or do not cover the grid:\n" + "\n".join(self.problems))


def results_paths(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """``(<path>.csv.gz, <path>.meta.json)`` for ``path`` given with or without suffix."""
    p = Path(path)
    name = p.name
    for suffix in (".csv.gz", ".meta.json", ".csv"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return p.with_name(f"{name}.csv.gz"), p.with_name(f"{name}.meta.json")


def metric_columns(frame: pd.DataFrame) -> list[str]:
    """Columns of ``frame`` that hold computed values (not labels, key, timings or warnings)."""
    skip = {*LABEL_COLUMNS, *TIMING_COLUMNS, *INFO_COLUMNS}
    return [c for c in frame.columns if c not in skip]


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


def write_meta(meta_path: Path, meta: Mapping[str, Any]) -> None:
    """Write a ``.meta.json`` atomically (sorted keys, two-space indent)."""
    atomic_write_text(meta_path, json.dumps(dict(meta), indent=2, sort_keys=True, default=str) + "\n")


def content_record(csv_path: Path, frame: pd.DataFrame) -> dict[str, Any]:
    """``meta["content"]`` of a results file: its name, columns, row count and :func:`rows_digest`."""
    return {"file": csv_path.name, "columns": [str(c) for c in frame.columns], "n_rows": len(frame),
            "digest": rows_digest(frame)}


def rows_digest(frame: pd.DataFrame) -> str:
    """sha256 over the rows of a parsed results file: each task key with its values.

    Independent of row order (rows are taken in key order; a frame without a
    ``key`` column in its own order) and of column order (columns by name), and
    exact: numbers are hashed as float64 bytes (integers beyond 2**53 as int64),
    text as UTF-8, a missing value as such. Column names are part of the digest.
    """
    h = hashlib.sha256(b"ldpfair-rows-v1\n")
    if "key" in frame.columns:
        order = np.argsort(frame["key"].astype(str).to_numpy(), kind="stable")
    else:
        order = np.arange(len(frame))
    h.update(json.dumps(sorted(str(c) for c in frame.columns)).encode() + b"\n")
    for col in sorted(frame.columns, key=str):
        s = frame[col]
        h.update(b"\x00" + str(col).encode() + b"\x00")
        if pd.api.types.is_integer_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype) \
                and len(s) and not s.isna().any() and int(s.abs().max()) >= 2**53:
            h.update(b"i" + s.to_numpy(dtype=np.int64)[order].tobytes())
        elif pd.api.types.is_numeric_dtype(s.dtype):
            arr = s.to_numpy(dtype=np.float64, na_value=np.nan)[order]
            arr[np.isnan(arr)] = np.nan  # one NaN pattern
            h.update(b"f" + arr.tobytes())
        else:
            vals = [None if (v is None or (isinstance(v, float) and v != v) or v is pd.NA) else str(v)
                    for v in s.to_numpy(dtype=object)[order].tolist()]
            h.update(b"s" + json.dumps(vals, ensure_ascii=False).encode())
    return h.hexdigest()


def _same_values(a: pd.Series, b: pd.Series) -> np.ndarray:
    """Elementwise exact equality of two aligned columns (numbers as float64, NaN equals NaN)."""
    x = pd.to_numeric(a, errors="coerce").to_numpy(dtype=float)
    y = pd.to_numeric(b, errors="coerce").to_numpy(dtype=float)
    both_nan = np.isnan(x) & np.isnan(y)  # missing, or text: compare as text
    text = a.astype(str).to_numpy() == b.astype(str).to_numpy()
    text |= a.isna().to_numpy() & b.isna().to_numpy()
    return np.where(both_nan, text, x == y)


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


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _parse_csv(csv_path: Path, require_key: bool = True) -> pd.DataFrame:
    """Parse a results ``.csv.gz`` exactly; an unreadable file is a one-line ResultsIntegrityError."""
    try:
        if int(pd.__version__.split(".")[0]) >= 3:
            frame = pd.read_csv(csv_path, compression="gzip")  # pandas 3: floats exact by default
        else:  # pragma: no cover - pandas 2
            frame = pd.read_csv(csv_path, compression="gzip", float_precision="round_trip")
    except (EOFError, gzip.BadGzipFile, zlib.error, UnicodeDecodeError, pd.errors.ParserError,
            pd.errors.EmptyDataError, OSError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ResultsIntegrityError(
            f"{csv_path}: not a readable gzip-compressed CSV ({type(exc).__name__}: {msg})"
        ) from None
    if require_key and "key" not in frame.columns:
        raise ResultsIntegrityError(f"{csv_path}: no 'key' column (not a results file)")
    return frame


def _read_meta(meta_path: Path, csv_path: Path) -> dict[str, Any]:
    if not meta_path.is_file():
        raise ResultsIntegrityError(f"{csv_path}: its metadata file {meta_path.name} is missing")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsIntegrityError(f"{meta_path}: not readable JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise ResultsIntegrityError(f"{meta_path}: not a JSON object")
    return meta


def check_results_file(path: str | os.PathLike[str], *, require_key: bool = True) -> pd.DataFrame:
    """Read a committed results file after checking it against its ``.meta.json``.

    The file's sha256 and row count must equal those recorded by
    :func:`save_results` (or :func:`stamp_results`), every task key must
    appear once, and the recorded ``content`` must name this file, list its
    columns and match its rows' digest (:func:`rows_digest`).
    ``require_key=False`` reads a committed summary that is not one row per
    task (e.g. a chapter's derived table).

    Raises
    ------
    ResultsIntegrityError
        One line naming the file and the fault: missing or unstamped metadata,
        checksum mismatch, unreadable file, wrong row count, duplicate keys,
        another file's metadata, other columns, rows that no longer match the
        recorded digest.
    """
    return _check_results_file(path, require_key)[0]


def _check_results_file(path: str | os.PathLike[str], require_key: bool,
                        meta: dict[str, Any] | None = None) -> tuple[pd.DataFrame, str]:
    """:func:`check_results_file`, and the sha256 of the bytes it read."""
    csv_path, meta_path = results_paths(path)
    if not csv_path.is_file():
        raise ResultsIntegrityError(f"{csv_path}: no such results file")
    meta = _read_meta(meta_path, csv_path) if meta is None else meta
    recorded = meta.get("sha256")
    if not isinstance(recorded, str):
        raise ResultsIntegrityError(
            f"{csv_path}: {meta_path.name} records no sha256 checksum (a file written before "
            "checksums existed: stamp it with `ldpfair results stamp`)")
    content = meta.get("content")
    if not isinstance(content, dict) or not isinstance(content.get("digest"), str):
        raise ResultsIntegrityError(
            f"{csv_path}: {meta_path.name} records no content digest (a file written before digests "
            "existed: `ldpfair results stamp` records it while the sha256 still matches)")
    if content.get("file") != csv_path.name:
        raise ResultsIntegrityError(
            f"{csv_path}: {meta_path.name} describes {content.get('file')!r}, not this file "
            "(files or metadata swapped?)")
    actual = file_sha256(csv_path)
    if actual != recorded:
        raise ResultsIntegrityError(
            f"{csv_path}: sha256 {actual[:16]}... differs from {recorded[:16]}... recorded in "
            f"{meta_path.name}: the file was changed after it was written (recompute it)")
    cache_key = (str(csv_path.resolve()), actual, require_key)
    parsed = _PARSED.get(cache_key)
    if parsed is not None:  # the same bytes (checksum just computed) were parsed and checked before
        _PARSED.move_to_end(cache_key)
        frame, digest = parsed
    else:
        frame = _parse_csv(csv_path, require_key)
        digest = rows_digest(frame)
    if meta.get("n_rows") != len(frame):
        raise ResultsIntegrityError(
            f"{csv_path}: {len(frame)} rows, but {meta_path.name} records {meta.get('n_rows')!r}")
    dup = frame["key"].duplicated() if "key" in frame.columns else pd.Series(False, index=frame.index)
    if dup.any():
        raise ResultsIntegrityError(
            f"{csv_path}: {int(dup.sum())} duplicate task key(s), e.g. {frame['key'][dup].iloc[0][:12]}")
    columns = [str(c) for c in frame.columns]
    if content.get("columns") != columns:
        rec: list[Any] = content["columns"] if isinstance(content.get("columns"), list) else []
        gone = [c for c in rec if c not in columns]
        extra = [c for c in columns if c not in rec]
        raise ResultsIntegrityError(
            f"{csv_path}: its columns differ from those recorded when it was written (missing "
            f"{gone}, not recorded {extra})")
    if digest != content["digest"]:
        n_then = content.get("n_rows")
        how = (f"{len(frame)} rows now, {n_then} when it was written" if n_then != len(frame)
               else "values or keys edited")
        raise ResultsIntegrityError(
            f"{csv_path}: its rows no longer match the content digest recorded when it was written "
            f"({how}; restamped after an edit?): recompute it")
    if parsed is None:
        _PARSED[cache_key] = (frame, digest)
        while len(_PARSED) > _PARSED_MAX:
            _PARSED.popitem(last=False)
    return frame.copy(deep=False), actual


#: Parsed results files and their digests by (path, sha256, require_key): the checksum is
#: recomputed on every read, so a changed file is parsed (and checked) again; unchanged bytes are
#: parsed once (the metadata is checked on every read). At most _PARSED_MAX files, least recently
#: read dropped first: more than the committed files (73, about 140 MB parsed), since the
#: scoreboard page reads its 56 files twice in the same order (a smaller memo dropped each one just
#: before it was read again).
_PARSED: OrderedDict[tuple[str, str, bool], tuple[pd.DataFrame, str]] = OrderedDict()
_PARSED_MAX = 96


def stamp_results(path: str | os.PathLike[str], *, trust: bool = False,
                  cache: Any = None) -> dict[str, Any]:
    """Re-record the sha256 and row count of a results file in its ``.meta.json``; return them.

    The rows are checked first against the content digest recorded when the
    file was written (:func:`rows_digest`):

    - they match: only the bytes changed (recompressed, rows reordered); the
      sha256 and row count are recorded again;
    - the metadata records no digest yet (a file written before digests
      existed) and the file still matches its recorded sha256: the content is
      recorded (the sha256 vouches for the rows);
    - otherwise the file was edited after it was written and is refused, with
      a line saying how many of its rows differ from their entries in the
      per-task ``cache`` (default ``$LDPFAIR_CACHE``), if it has them. Cache
      entries never decide: one can be edited together with its checksum.

    With ``trust=True`` the file is stamped as it is and its content marked
    ``trusted`` (date and the previous digest): :func:`verify_results` then
    recomputes every cell of it. A chapter's own summaries (files without task
    keys, written and stamped by code) are stamped with ``trust=True`` by the
    code that writes them.

    Raises
    ------
    ResultsIntegrityError
        If the file or its metadata is missing or unreadable, keys repeat, or
        the rows no longer match their digest (without ``trust``).
    """
    csv_path, meta_path = results_paths(path)
    if not csv_path.is_file():
        raise ResultsIntegrityError(f"{csv_path}: no such results file")
    meta = _read_meta(meta_path, csv_path)
    frame = _parse_csv(csv_path, require_key=False)
    if "key" in frame.columns and frame["key"].duplicated().any():
        dup = frame["key"].duplicated()
        raise ResultsIntegrityError(f"{csv_path}: {int(dup.sum())} duplicate task key(s); not stamped")
    sha = file_sha256(csv_path)
    stamp = {"sha256": sha, "n_rows": len(frame)}
    content = content_record(csv_path, frame)
    old: dict[str, Any] = meta["content"] if isinstance(meta.get("content"), dict) else {}
    matches = old.get("digest") == content["digest"] and old.get("file") == csv_path.name
    first = not old.get("digest") and meta.get("sha256") == sha
    if not (matches or first or trust):
        why = ("its metadata records no content digest and the file no longer matches its sha256"
               if not old.get("digest") else
               f"{meta_path.name} describes {old.get('file')!r}" if old.get("file") != csv_path.name
               else "its rows no longer match the content digest recorded when it was written")
        raise ResultsIntegrityError(
            f"{csv_path}: {why}{_cache_comparison(frame, cache)}; not stamped (recompute it, or "
            "stamp with --trust to accept it as it is: verify then recomputes all its cells)")
    new = dict(meta)
    new.update(stamp)
    if trust and not (matches or first) and (old.get("digest") or meta.get("sha256")):
        content["trusted"] = {"date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                              "previous_digest": old.get("digest")}
    elif matches and "trusted" in old:
        content["trusted"] = old["trusted"]
    new["content"] = content
    if new != meta:
        write_meta(meta_path, new)
    return {**stamp, "digest": content["digest"], "trusted": "trusted" in content}


def _cache_comparison(frame: pd.DataFrame, cache: Any) -> str:
    """``"; N of M rows differ from their cache entries, K have none"`` (empty without a cache)."""
    if "key" not in frame.columns:
        return ""
    from .. import config
    from .cache import Cache

    root = Path(cache) if cache is not None else Path(config.task_cache_dir())
    if not root.is_dir():
        return ""
    store = Cache(root)
    keys = frame["key"].astype(str).tolist()
    cached = store.get_many(keys)
    if not cached:
        return f"; none of its {len(keys)} rows has a cache entry in {root}"
    differ = 0
    skip = {*LABEL_COLUMNS, *TIMING_COLUMNS, *INFO_COLUMNS, "key"}
    by_key = frame.set_index("key")
    for key, row in cached.items():
        cols = [c for c in row if c not in skip and c in by_key.columns]
        a = pd.Series([row[c] for c in cols], dtype=object)
        b = pd.Series([by_key.at[key, c] for c in cols], dtype=object)
        differ += int(not _same_values(a, b).all())
    return (f"; {differ} of its {len(keys)} rows differ from their cache entries, "
            f"{len(keys) - len(cached)} have none (cache entries are no evidence: one can be edited "
            "with its checksum)")


def load_results(
    grid: Grid | Sweep, path: str | os.PathLike[str]
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
    page reads each file twice).

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
    tasks = grid.tasks()
    csv_path, meta_path = results_paths(path)
    stored, memo_key = None, None
    if csv_path.exists():
        meta = _read_meta(meta_path, csv_path)
        stored, digest = _check_results_file(csv_path, True, meta)
        meta_digest = hashlib.sha256(json.dumps(meta, sort_keys=True, default=str).encode()).hexdigest()
        memo_key = (str(csv_path.resolve()), digest, meta_digest, id(grid))
        hit = _LOADED.get(memo_key)
        if hit is not None and hit[0] is grid:  # the entry holds the grid: its id is not reused
            _LOADED.move_to_end(memo_key)
            return _loaded_copy(hit[1])
        exact = _check_experiment(csv_path, meta_path, meta, grid)
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
#: read dropped first (the grid checks are made once per file, metadata and grid).
_LOADED: OrderedDict[tuple[str, str, str, int], tuple[Any, pd.DataFrame]] = OrderedDict()
_LOADED_MAX = 64


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
    complete : bool
        Require every task of the grid to be present.

    Returns
    -------
    pandas.DataFrame
        The recomputed rows.

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
    committed, cov = load_results(grid, path)
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
    content = _read_meta(results_paths(path)[1], csv_path).get("content") or {}
    if all_cells or "trusted" in content:  # a trust-stamped file: every cell is recomputed
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
        raise VerificationError(problems)
    return fresh
