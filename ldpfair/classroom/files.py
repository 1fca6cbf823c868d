"""Files the classroom kit writes: all of a command's files in place at once, or none."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["write_atomic"]


def _umask_mode() -> int:
    """Mode of a new file under the process umask (0644 under the usual 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(pairs: Sequence[tuple[Any, Path]]) -> None:
    """Write notebooks (or bytes/str) to temp files first, then move them all into place.

    Files get the mode of an ordinary new file under the umask (``mkstemp`` alone gives 0600).
    """
    import nbformat

    temps: list[tuple[str, Path]] = []
    try:
        for nb, path in pairs:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            os.fchmod(fd, _umask_mode())
            if isinstance(nb, bytes):
                with os.fdopen(fd, "wb") as fb:
                    fb.write(nb)
            else:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    if isinstance(nb, str):
                        fh.write(nb)
                    else:
                        nbformat.write(nb, fh)
            temps.append((tmp, path))
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)
