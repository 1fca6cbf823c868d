"""Per-task result cache: one small JSON file per task, written atomically.

Layout: ``<root>/<key[:2]>/<key>.json`` holding ``{"schema", "key", "config",
"row", "row_sha256", "created"}``. A file is written to a temporary name in the
same folder and moved into place with :func:`os.replace`, so a reader never sees
a half-written result; a file that does not parse, whose key or schema version
differs, or whose row does not match its own checksum (``row_sha256``, the
sha256 of the row's canonical JSON: a hand-edited row) is ignored and
recomputed. Floats round-trip exactly through JSON (``repr``), including NaN.
The checksum catches corruption and casual edits, not forgery: anyone can
recompute it, so the cache is never evidence for committed results. Those are
checked against the content digest in their ``.meta.json`` (see
:mod:`ldpfair.experiments.results`): ``stamp`` decides on that digest alone,
and a cached row that disagrees with the committed row of its task is
recomputed before a results file is written (recompute on doubt).

Concurrent runs on one cache share the work: before computing a task a process
claims it with :meth:`Cache.claim`, an atomically created
``<root>/<key[:2]>/<key>.claim`` holding the owner's host, pid and start time;
other processes skip a claimed task and wait for its result. A claim whose
owner died (same host: its pid is gone; any host: older than
``stale_after`` seconds) is stale and is taken over.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import socket
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .._validation import check_creatable
from .grid import RESULTS_SCHEMA_VERSION

__all__ = ["Cache", "DEFAULT_CACHE", "atomic_write_text"]

#: Default cache folder (relative to the working directory; git-ignored).
DEFAULT_CACHE = ".ldpfair_cache"


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically (temporary file + :func:`os.replace`)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # mkstemp creates 0600; results are meant to be shared
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def row_checksum(row: Mapping[str, Any]) -> str:
    """sha256 of a result row's canonical JSON (sorted keys, exact floats)."""
    text = json.dumps(dict(row), sort_keys=True, allow_nan=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's live process
        return True
    except OSError:  # pragma: no cover
        return False
    return True


class Cache:
    """A folder of per-task results.

    Parameters
    ----------
    root : str or path-like
        Folder of the cache (created on first write; it must not be a regular file).
    stale_after : float
        Seconds after which a claim of another host counts as abandoned.

    Raises
    ------
    ValueError
        If ``root`` is an existing file, or a folder that cannot be created or written.
    """

    def __init__(self, root: str | os.PathLike[str], *, stale_after: float = 6 * 3600.0) -> None:
        self.root = Path(root)
        self.stale_after = float(stale_after)
        if self.root.exists() and not self.root.is_dir():
            raise ValueError(f"cache must be a folder, but {str(self.root)!r} is a file")
        check_creatable(self.root, "cache")

    def __repr__(self) -> str:
        return f"Cache({str(self.root)!r})"

    def path(self, key: str) -> Path:
        """File of task ``key``."""
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached result row of ``key``, or ``None`` if absent or unreadable."""
        path = self.path(key)
        try:
            with open(path, encoding="utf-8") as fh:
                record = json.load(fh)
        except (OSError, ValueError):
            return None
        if (
            not isinstance(record, dict)
            or record.get("key") != key
            or record.get("schema") != RESULTS_SCHEMA_VERSION
            or not isinstance(record.get("row"), dict)
            or record.get("row_sha256") != row_checksum(record["row"])
        ):
            return None
        return record["row"]

    def put(self, key: str, config: Mapping[str, Any], row: Mapping[str, Any]) -> None:
        """Store the result ``row`` of task ``key`` (atomically)."""
        record = {
            "schema": RESULTS_SCHEMA_VERSION,
            "key": key,
            "config": config,
            "row": dict(row),
            "row_sha256": row_checksum(row),
            "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        }
        atomic_write_text(self.path(key), json.dumps(record, allow_nan=True))

    def get_many(self, keys: Iterable[str]) -> dict[str, dict[str, Any]]:
        """Cached rows of every key present."""
        out = {}
        for key in keys:
            row = self.get(key)
            if row is not None:
                out[key] = row
        return out

    # -- claims: concurrent runs compute each task once ----------------------------
    def claim_path(self, key: str) -> Path:
        """Claim file of task ``key``."""
        return self.root / key[:2] / f"{key}.claim"

    def _claim_owner(self, key: str) -> dict[str, Any] | None:
        try:
            with open(self.claim_path(key), encoding="utf-8") as fh:
                owner = json.load(fh)
            return owner if isinstance(owner, dict) else {}
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return {}  # being written, or garbage: judged by its age

    def claim_is_stale(self, key: str) -> bool:
        """Whether ``key``'s claim was abandoned (owner gone, or too old); False without a claim."""
        owner = self._claim_owner(key)
        if owner is None:
            return False
        try:
            age = time.time() - self.claim_path(key).stat().st_mtime
        except FileNotFoundError:
            return False
        if owner.get("host") == socket.gethostname() and isinstance(owner.get("pid"), int):
            return not _pid_alive(owner["pid"])
        if not owner:
            return age > 60.0
        return age > self.stale_after

    def claim(self, key: str) -> bool:
        """Atomically claim task ``key`` for this process; False if a live owner holds it.

        A stale claim (see :meth:`claim_is_stale`) is removed and taken over.
        """
        path = self.claim_path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"host": socket.gethostname(), "pid": os.getpid(), "time": time.time()})
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if not self.claim_is_stale(key):
                    return False
                try:
                    os.unlink(path)  # a racing taker-over may win the O_EXCL below; fine
                except FileNotFoundError:
                    pass
                continue
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            return True
        return False

    def release(self, key: str) -> None:
        """Remove this process's claim of ``key`` (if it still holds it)."""
        owner = self._claim_owner(key)
        if owner and owner.get("pid") == os.getpid() and owner.get("host") == socket.gethostname():
            try:
                os.unlink(self.claim_path(key))
            except FileNotFoundError:
                pass
