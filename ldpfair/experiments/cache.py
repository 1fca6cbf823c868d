"""Per-task result cache: one small JSON file per task, written atomically.

Layout: ``<root>/<key[:2]>/<key>.json`` holding ``{"schema", "key", "config",
"row", "created"}``. A file is written to a temporary name in the same folder
and moved into place with :func:`os.replace`, so a reader never sees a
half-written result; a file that does not parse, or whose key or schema
version differs, is ignored (and recomputed). Floats round-trip exactly
through JSON (``repr``), including NaN.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

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


class Cache:
    """A folder of per-task results.

    Parameters
    ----------
    root : str or path-like
        Folder of the cache (created on first write).
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

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
