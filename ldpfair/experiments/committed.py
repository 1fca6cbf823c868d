"""Committed versions of the results files, from the checkout's git history.

The checksum, row count and content digest of a results file (see
:mod:`.results_files`) catch accidental corruption and inconsistent edits, but
not a deliberate edit with every digest recomputed: they are plain SHA-256
values that anyone can recompute, and the metadata that records them (with its
``trusted`` mark and ``lock`` field) is as editable as the file. What a forger
cannot recompute is the file's committed version. This module compares each
results file and its ``.meta.json`` with the blob of the same path in a commit of
the checkout's git history (``HEAD`` by default, or the commit a change builds
on), and ``ldpfair results verify`` recomputes whole every file that differs,
whatever its metadata says. The comparison is by git blob id (SHA-1 of the
bytes, as ``git hash-object``), computed once per file and process (memoised on
path, size, mtime and inode) against one ``git ls-tree`` per commit.

Files are matched by their path relative to the results folder, so that a
results folder elsewhere (``LDPFAIR_RESULTS_DIR``) is compared with the
checkout's ``results/`` by relative path. Outside a git checkout nothing can be
told (:func:`committed_tree` returns ``None``) and ``verify`` says so.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

__all__ = [
    "DIFFERS",
    "NOT_COMMITTED",
    "blob_id",
    "changed_results",
    "checkout_root",
    "committed_blob",
    "committed_tree",
    "lock_claim_problem",
    "relative_name",
    "resolve_base",
]

#: What ``status`` and ``verify`` say of a file whose bytes differ from its committed version.
DIFFERS = "differs from the committed version"
#: ... and of a file that has no committed version at all.
NOT_COMMITTED = "has no committed version"

#: The folder of the committed results inside the checkout.
RESULTS_PREFIX = "results"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, timeout=60, cwd=root)
    except (OSError, subprocess.SubprocessError):
        return None


@lru_cache(maxsize=1)
def checkout_root() -> Path | None:
    """The git checkout that holds this package (its top folder), or ``None`` outside one."""
    here = Path(__file__).resolve().parents[2]
    out = _git(here, "rev-parse", "--show-toplevel")
    if out is None or out.returncode != 0 or not out.stdout.strip():
        return None
    return Path(out.stdout.strip())


def resolve_base(rev: str) -> str:
    """The full commit id of ``rev`` in the checkout.

    Raises
    ------
    ValueError
        One line: outside a git checkout, or ``rev`` names no commit.
    """
    root = checkout_root()
    if root is None:
        raise ValueError(f"--base {rev}: not in a git checkout (the package is not in one)")
    out = _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if out is None or out.returncode != 0 or not out.stdout.strip():
        raise ValueError(f"--base {rev!r} names no commit of {root} (valid: a commit id, branch or "
                         "tag, e.g. HEAD or HEAD^1)")
    return out.stdout.strip()


@lru_cache(maxsize=8)
def _tree(root: Path, commit: str) -> dict[str, str]:
    out = _git(root, "ls-tree", "-r", "-z", "--full-tree", commit, "--", RESULTS_PREFIX)
    if out is None or out.returncode != 0:
        return {}
    blobs: dict[str, str] = {}
    for entry in out.stdout.split("\0"):
        if not entry:
            continue
        info, _, name = entry.partition("\t")
        parts = info.split()
        if len(parts) == 3 and parts[1] == "blob":
            blobs[name] = parts[2]
    return blobs


def committed_tree(base: str = "HEAD") -> dict[str, str] | None:
    """``{"results/<paper>/<file>": blob id}`` at commit ``base``; ``None`` outside a git checkout.

    Raises
    ------
    ValueError
        If ``base`` names no commit (see :func:`resolve_base`).
    """
    if checkout_root() is None:
        return None
    commit = resolve_base(base)
    root = checkout_root()
    assert root is not None
    return _tree(root, commit)


_BLOBS: dict[tuple[str, int, int, int, int], str] = {}


def blob_id(path: str | os.PathLike[str]) -> str:
    """The git blob id of a file (``git hash-object``), computed once per file version and process.

    Memoised as :func:`~ldpfair.experiments.results_files.hashed_once` memoises every digest
    of a results file (path, size, mtime, ctime, inode).
    """
    from .results_files import hashed_once

    return hashed_once(path, _BLOBS,
                       lambda size: hashlib.sha1(f"blob {size}\0".encode(), usedforsecurity=False))


def relative_name(path: str | os.PathLike[str]) -> str:
    """``results/<paper>/<file>``: ``path`` relative to the results folder, as committed.

    Raises
    ------
    LookupError
        If ``path`` is not under the results folder (``LDPFAIR_RESULTS_DIR`` or the
        checkout's ``results/``): it has no committed counterpart to compare with.
    """
    from .. import config

    p = Path(path).resolve()
    root = config.results_root().resolve()
    try:
        rel = p.relative_to(root)
    except ValueError:
        raise LookupError(f"{path} is not under the results folder {root}: cannot tell whether it "
                          "differs from a committed version") from None
    return f"{RESULTS_PREFIX}/{rel.as_posix()}"


def committed_blob(path: str | os.PathLike[str], base: str = "HEAD") -> str | None:
    """The blob id of ``path``'s committed version at ``base`` (``None``: none committed)."""
    tree = committed_tree(base)
    try:
        return None if tree is None else tree.get(relative_name(path))
    except LookupError:
        return None


def changed_results(csv_path: str | os.PathLike[str], base: str = "HEAD") -> str | None:
    """Why the results file ``csv_path`` must be recomputed whole, or ``None`` when it need not.

    ``DIFFERS`` when the ``.csv.gz`` or its ``.meta.json`` differs from its version
    at ``base``, ``NOT_COMMITTED`` when either has none. Nothing read from the
    metadata decides.

    Raises
    ------
    LookupError
        Outside a git checkout, or for a file outside the results folder (nothing can be told).
    """
    from .results_files import results_paths

    tree = committed_tree(base)
    if tree is None:
        raise LookupError("not in a git checkout: cannot tell which results files differ from their "
                          "committed versions")
    why = None
    for p in results_paths(csv_path):
        want = tree.get(relative_name(p))
        if want is None:
            return NOT_COMMITTED if p.exists() else why
        if not p.exists() or blob_id(p) != want:
            why = DIFFERS
    return why


@lru_cache(maxsize=32)
def _file_sha256_at(root: Path, commit: str, name: str) -> str | None:
    try:
        out = subprocess.run(["git", "show", f"{commit}:{name}"], capture_output=True, timeout=60, cwd=root)
    except (OSError, subprocess.SubprocessError):
        return None
    return hashlib.sha256(out.stdout).hexdigest() if out.returncode == 0 else None


def lock_claim_problem(meta: Mapping[str, Any], where: str, lock_file: str) -> str | None:
    """One line if the metadata's ``lock`` entry is not the lock committed when the file was computed.

    The file was computed at the commit its metadata records (``git_commit``, written by
    the engine); the lock file as committed there must have the recorded sha256. A lock
    entry on a file computed before the lock existed (added by hand) is refused, and so
    is one whose commit is not in the checkout's history. ``None`` when the entry
    matches, when there is no entry, or outside a git checkout (nothing can be told).
    """
    rec = meta.get("lock")
    if rec is None:
        return None
    root = checkout_root()
    if root is None:
        return None
    claimed = rec.get("sha256") if isinstance(rec, Mapping) else None
    commit = str(meta.get("git_commit") or "").removesuffix("-dirty")
    if not claimed or not commit:
        return (f"{where}: its metadata records a lock entry without "
                + ("a sha256" if not claimed else "the commit it was computed at (git_commit)")
                + ": which lock computed it cannot be checked (recompute it)")
    out = _git(root, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    if out is None or out.returncode != 0:
        return (f"{where}: computed at commit {commit[:12]}, which is not in this checkout's history: its "
                "lock entry cannot be checked (recompute it)")
    at_commit = _file_sha256_at(root, out.stdout.strip(), lock_file)
    if at_commit != claimed:
        then = "no lock file" if at_commit is None else f"lock sha256 {at_commit[:8]}"
        return (f"{where}: its metadata records lock sha256 {str(claimed)[:8]}, but commit {commit[:12]} "
                f"it was computed at had {then} ({lock_file}): a lock entry it was not computed under")
    return None
