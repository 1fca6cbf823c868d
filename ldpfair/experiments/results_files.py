"""One committed results file and its ``.meta.json``: checksum, content digest, checks and stamping.

A results file ``results/<paper>/<name>.csv.gz`` is described by ``<name>.meta.json``,
which records its sha256, row count and ``content`` (file name, columns, row count and
:func:`rows_digest`). :func:`check_results_file` refuses, with one line naming the file,
a file that no longer matches them; :func:`stamp_results` re-records them when only the
bytes changed. These checks catch accidental corruption and inconsistent edits; a
deliberate edit with every digest recomputed passes them (the digest is a plain
SHA-256 anyone can recompute): that is caught by recomputing the file whole
(:mod:`ldpfair.experiments.committed`, ``ldpfair results verify``).
"""

from __future__ import annotations

import datetime as _dt
import gzip
import hashlib
import json
import os
import zlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .cache import atomic_write_text
from .engine import INFO_COLUMNS, LABEL_COLUMNS, TIMING_COLUMNS

__all__ = [
    "ResultsIntegrityError",
    "check_results_file",
    "content_record",
    "file_sha256",
    "metric_columns",
    "results_paths",
    "rows_digest",
    "stamp_results",
    "write_meta",
]


class ResultsIntegrityError(ValueError):
    """A committed results file that cannot be trusted (checksum, rows, keys, format); one line."""

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

def hashed_once(path: str | os.PathLike[str], memo: dict[tuple[str, int, int, int, int], str],
                new_hash: Callable[[int], Any]) -> str:
    """Hex digest of a file's bytes by ``new_hash(size)``, computed once per version of the file and process.

    Memoised in ``memo`` on (resolved path, size, mtime in ns, ctime in ns, inode): bytes
    written in place change the mtime and ctime (the ctime cannot be set back by hand), a
    file replaced atomically gets another inode, so a changed file is always hashed again.
    """
    p = Path(path)
    st = p.stat()
    key = (str(p.resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    hit = memo.get(key)
    if hit is not None:
        return hit
    h = new_hash(st.st_size)
    with open(p, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    if len(memo) >= 4096:
        memo.clear()
    memo[key] = h.hexdigest()
    return memo[key]


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Hex sha256 of a file's bytes, once per version of the file and process (:func:`hashed_once`)."""
    return hashed_once(path, _SHA256, lambda size: hashlib.sha256())


#: file_sha256's memo: (path, size, mtime_ns, ctime_ns, inode) -> sha256.
_SHA256: dict[tuple[str, int, int, int, int], str] = {}


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
    # the same bytes had no duplicate key when they were parsed (a parse memo hit): not searched again
    dup = frame["key"].duplicated() if "key" in frame.columns and parsed is None \
        else pd.Series(False, index=frame.index)
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
    recomputes every cell of it. A chapter's derived tables (files without task
    keys) are written with their checksum and digest by the engine
    (:mod:`ldpfair.experiments.derived`), which verifies them by recomputing them.

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
