"""Registry of every raw file the project reads, with pinned URLs and sha256.

Two collections of files are known:

``"data"``
    The raw dataset files (``registry_data.json``, mirrored from the
    project's ``shared/data/registry.json``).
``"reference"``
    The per-run result tables published by the authors of two of the papers
    (``registry_reference.json``).

Where a file is read from
-------------------------
* If the collection's environment variable is set (``LDPFAIR_DATA_DIR`` for
  data, ``LDPFAIR_REFERENCE_DIR`` for reference results), the file is read from
  ``<dir>/<relname>`` and nothing is downloaded: a missing file raises
  :class:`FileNotFoundError` and a file whose sha256 differs from the registry
  raises :class:`ChecksumError`. For the reference collection,
  ``<LDPFAIR_DATA_DIR>/../reference`` is used when ``LDPFAIR_REFERENCE_DIR`` is
  unset and that folder exists.
* Otherwise :mod:`pooch` downloads the file from its pinned URL into the user
  cache (``pooch.os_cache("ldpfair")/<collection>``, overridable with
  ``LDPFAIR_CACHE_DIR``). pooch re-downloads a cached copy whose hash does not
  match, and refuses a download whose hash does not match.

A file is never returned unless its sha256 matches the registry. Hashes are
cached in-process per ``(path, mtime, size)``, so repeated loads are cheap. The
limit of that cache, accepted and documented: a file edited in place *within one
process* with its size and modification time restored (``os.utime``) is not
hashed again, so the edit goes unnoticed until the next process (whose cache
starts empty) or :func:`clear_hash_cache`.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pooch

from .. import config

__all__ = [
    "COLLECTIONS",
    "ChecksumError",
    "clear_hash_cache",
    "FileEntry",
    "FileRegistry",
    "FileStatus",
    "data_available",
    "fetch",
    "fetch_all",
    "files",
    "get_registry",
    "verify",
    "where",
]

#: The known collections and the environment variable naming their offline folder.
COLLECTIONS: dict[str, str] = {"data": config.DATA_DIR, "reference": config.REFERENCE_DIR}

_HINT_FETCH = "run `ldpfair data fetch` on a machine with network access"


class ChecksumError(ValueError):
    """A file's sha256 differs from the registry."""


@dataclass(frozen=True)
class FileEntry:
    """One registered file.

    Attributes
    ----------
    name : str
        Relative name, e.g. ``"uci-adult/adult.data"``.
    url : str
        Pinned download URL.
    sha256 : str
        Expected sha256 (hex).
    size : int or None
        Expected size in bytes, when known.
    note : str
        What the file is.
    """

    name: str
    url: str
    sha256: str
    size: int | None = None
    note: str = ""


@dataclass(frozen=True)
class FileStatus:
    """Result of verifying one file (see :func:`verify`).

    Attributes
    ----------
    collection, name : str
        The collection and relative name of the file.
    status : str
        ``"ok"``, ``"missing"`` or ``"mismatch"``.
    path : pathlib.Path
        Where the file was looked for.
    expected, actual : str
        Expected sha256 and the one found (empty when missing).
    """

    collection: str
    name: str
    status: str
    path: Path
    expected: str
    actual: str = ""


# ---------------------------------------------------------------------------
# hashing with an in-process cache


_HASH_CACHE: dict[tuple[str, int, int], str] = {}


def file_sha256(path: str | os.PathLike[str]) -> str:
    """Return the sha256 (hex) of ``path``, cached per ``(path, mtime, size)``.

    The cache is per process: a file rewritten in place with the same size and
    its modification time restored keeps its cached digest within the process
    (a new process, or :func:`clear_hash_cache`, hashes it again).

    Parameters
    ----------
    path : path-like
        An existing file.

    Returns
    -------
    str
        Hex digest.
    """
    p = Path(path)
    st = p.stat()
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    digest = _HASH_CACHE.get(key)
    if digest is None:
        h = hashlib.sha256()
        with open(p, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        digest = h.hexdigest()
        _HASH_CACHE[key] = digest
    return digest


def clear_hash_cache() -> None:
    """Forget every cached digest, so the next :func:`file_sha256` of each file reads it again."""
    _HASH_CACHE.clear()


# ---------------------------------------------------------------------------
# the registry


class FileRegistry:
    """A collection of checksummed files, read offline or fetched with pooch.

    Parameters
    ----------
    collection : str
        Name used in messages and as the cache sub-folder.
    entries : iterable of FileEntry
        The registered files.
    env : str
        Environment variable naming an offline folder holding the files.
    fallback_dirs : callable, optional
        Returns extra offline folders to use when ``env`` is unset (first one
        that exists wins).
    cache_dir : path-like, optional
        Download cache; defaults to ``$LDPFAIR_CACHE_DIR/<collection>`` or
        ``pooch.os_cache("ldpfair")/<collection>``.
    downloader : callable, optional
        A pooch downloader (``downloader(url, output_file, pooch)``); the
        default picks one from the URL.
    retries : int
        How many times pooch retries a failed download.
    """

    def __init__(
        self,
        collection: str,
        entries: Iterable[FileEntry],
        *,
        env: str,
        fallback_dirs: Callable[[], list[Path]] | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
        downloader: Callable[..., Any] | None = None,
        retries: int = 2,
    ) -> None:
        self.collection = collection
        self.entries: dict[str, FileEntry] = {e.name: e for e in entries}
        self.env = env
        self._fallback_dirs = fallback_dirs
        self._cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.downloader = downloader
        self.retries = retries

    # -- folders ---------------------------------------------------------
    def local_dir(self) -> Path | None:
        """Return the offline folder in use, or None when files are downloaded."""
        value = config.path_from_env(self.env)
        if value is not None:
            return value
        if self._fallback_dirs is not None:
            for d in self._fallback_dirs():
                if d.is_dir():
                    return d
        return None

    def cache_dir(self) -> Path:
        """Return the pooch download cache of this collection."""
        if self._cache_dir is not None:
            return self._cache_dir
        root = config.download_cache_dir() or Path(pooch.os_cache("ldpfair"))
        return root / self.collection

    def _pooch(self) -> pooch.Pooch:
        return pooch.create(
            path=self.cache_dir(),
            base_url="",
            registry={n: f"sha256:{e.sha256}" for n, e in self.entries.items()},
            urls={n: e.url for n, e in self.entries.items()},
            retry_if_failed=self.retries,
        )

    # -- lookup ----------------------------------------------------------
    def entry(self, name: str) -> FileEntry:
        """Return the entry of ``name``; ValueError naming close matches if unknown."""
        if not isinstance(name, str):
            raise TypeError(f"file name must be a str, got {type(name).__name__}")
        try:
            return self.entries[name]
        except KeyError:
            base = name.rsplit("/", 1)[-1]
            close = [n for n in self.entries if n.rsplit("/", 1)[-1] == base][:5]
            folders = sorted({n.split("/", 1)[0] for n in self.entries})
            hint = f"; did you mean {close}?" if close else f"; known folders: {', '.join(folders)}"
            raise ValueError(
                f"unknown {self.collection} file {name!r} (not in the ldpfair registry){hint}"
            ) from None

    def path(self, name: str) -> Path:
        """Return where ``name`` is (or would be) stored locally, without checking it."""
        self.entry(name)
        d = self.local_dir()
        return (d if d is not None else self.cache_dir()) / name

    def _check_hash(self, path: Path, entry: FileEntry) -> None:
        actual = file_sha256(path)
        if actual != entry.sha256:
            raise ChecksumError(
                f"checksum mismatch for {self.collection} file {entry.name!r} at {path}: "
                f"expected sha256 {entry.sha256}, got {actual}. The file is corrupt or a "
                f"different version; replace it with the file from {entry.url}"
            )

    # -- fetch -----------------------------------------------------------
    def fetch(self, name: str) -> Path:
        """Return a local, sha256-verified path of registered file ``name``.

        Raises
        ------
        ValueError
            If ``name`` is not registered.
        FileNotFoundError
            If the file is missing in the offline folder, or cannot be downloaded.
        ChecksumError
            If the offline copy's sha256 differs from the registry.
        """
        entry = self.entry(name)
        local = self.local_dir()
        if local is not None:
            path = local / name
            if not path.is_file():
                raise FileNotFoundError(
                    f"{self.collection} file {name!r} not found: looked in {path} "
                    f"(folder {local}, from ${self.env}"
                    f"{'' if config.path_from_env(self.env) else ' default'}). "
                    f"Download it from {entry.url} into that folder, point {self.env} "
                    f"at a folder holding it, or unset {self.env} and {_HINT_FETCH}."
                )
            self._check_hash(path, entry)
            return path
        cached = self.cache_dir() / name
        if cached.is_file() and file_sha256(cached) == entry.sha256:
            return cached
        try:
            out = self._pooch().fetch(name, downloader=self.downloader)
        except ValueError as exc:  # pooch: the downloaded file's hash does not match
            raise ChecksumError(
                f"download of {self.collection} file {name!r} from {entry.url} refused: {exc}"
            ) from exc
        except Exception as exc:  # network errors of every kind
            raise FileNotFoundError(
                f"{self.collection} file {name!r} is not in the cache {self.cache_dir()} and "
                f"could not be downloaded from {entry.url} ({type(exc).__name__}: {exc}). "
                f"Offline, set {self.env} to a folder holding {name}; otherwise {_HINT_FETCH}."
            ) from exc
        path = Path(out)
        self._check_hash(path, entry)  # never trust, always verify
        return path

    def fetch_all(self, names: Iterable[str] | None = None) -> list[Path]:
        """Fetch (or verify offline) every file, or only ``names``."""
        return [self.fetch(n) for n in (self.entries if names is None else names)]

    # -- status ----------------------------------------------------------
    def available(self) -> bool:
        """Whether every file exists locally with its registered size (cheap; no hashing)."""
        for name, entry in self.entries.items():
            p = self.path(name)
            try:
                size = p.stat().st_size
            except OSError:
                return False
            if entry.size is not None and size != entry.size:
                return False
        return True

    def verify(self, names: Iterable[str] | None = None) -> list[FileStatus]:
        """Hash every local file (or ``names``) and report its status; downloads nothing."""
        out = []
        for name in self.entries if names is None else names:
            entry = self.entry(name)
            p = self.path(name)
            if not p.is_file():
                out.append(FileStatus(self.collection, name, "missing", p, entry.sha256))
                continue
            actual = file_sha256(p)
            status = "ok" if actual == entry.sha256 else "mismatch"
            out.append(FileStatus(self.collection, name, status, p, entry.sha256, actual))
        return out

    def where(self) -> dict[str, Any]:
        """Describe the folders in use."""
        local = self.local_dir()
        return {
            "mode": "offline folder" if local is not None else "download cache",
            "folder": str(local if local is not None else self.cache_dir()),
            "env": self.env,
            "env_value": str(config.path_from_env(self.env) or ""),
            "cache": str(self.cache_dir()),
            "files": len(self.entries),
        }


# ---------------------------------------------------------------------------
# the two package registries


def _read_json(fname: str) -> Any:
    return json.loads(resources.files("ldpfair.datasets").joinpath(fname).read_text("utf-8"))


@cache
def _data_entries() -> tuple[FileEntry, ...]:
    raw = _read_json("registry_data.json")
    return tuple(
        FileEntry(n, v["url"], v["sha256"], v.get("size"), v.get("note", "")) for n, v in raw.items()
    )


@cache
def _reference_entries() -> tuple[FileEntry, ...]:
    raw = _read_json("registry_reference.json")
    return tuple(FileEntry(n, v[0], v[1], v[2] if len(v) > 2 else None) for n, v in raw.items())


def _reference_fallback() -> list[Path]:
    data = config.data_dir()
    return [data.parent / "reference"] if data is not None else []


_REGISTRIES: dict[str, FileRegistry] = {}


def get_registry(collection: str = "data") -> FileRegistry:
    """Return the package :class:`FileRegistry` of ``collection`` ("data" or "reference")."""
    if collection not in COLLECTIONS:
        raise ValueError(f"unknown collection {collection!r}; valid: {', '.join(COLLECTIONS)}")
    reg = _REGISTRIES.get(collection)
    if reg is None:
        if collection == "data":
            reg = FileRegistry("data", _data_entries(), env=COLLECTIONS["data"])
        else:
            reg = FileRegistry(
                "reference",
                _reference_entries(),
                env=COLLECTIONS["reference"],
                fallback_dirs=_reference_fallback,
            )
        _REGISTRIES[collection] = reg
    return reg


def fetch(relname: str, *, collection: str = "data") -> Path:
    """Return a local, sha256-verified path of a registered file.

    Parameters
    ----------
    relname : str
        Relative name in the registry, e.g. ``"uci-adult/adult.data"``.
    collection : {"data", "reference"}
        Which registry.

    Returns
    -------
    pathlib.Path
        Path of a file whose sha256 matches the registry.

    Raises
    ------
    ValueError
        Unknown collection or file name.
    FileNotFoundError
        Missing offline (message names the file, the folder searched, its URL,
        the environment variable and ``ldpfair data fetch``) or not downloadable.
    ChecksumError
        The local file's sha256 differs from the registry.
    """
    return get_registry(collection).fetch(relname)


def files(collection: str = "data") -> dict[str, FileEntry]:
    """Return the registered files of ``collection`` by relative name."""
    return dict(get_registry(collection).entries)


def data_available(collection: str = "data") -> bool:
    """Whether every file of ``collection`` is present locally with its registered size.

    This is a cheap check (existence and size); :func:`fetch` verifies hashes.
    """
    return get_registry(collection).available()


def where() -> dict[str, dict[str, Any]]:
    """Return the folders used by each collection."""
    return {c: get_registry(c).where() for c in COLLECTIONS}


def verify(collection: str | None = "data") -> list[FileStatus]:
    """Hash every local file of ``collection`` (None: all collections); download nothing."""
    cols = list(COLLECTIONS) if collection is None else [collection]
    return [s for c in cols for s in get_registry(c).verify()]


def fetch_all(collection: str | None = "data") -> list[Path]:
    """Fetch (download if needed, else verify offline) every file of ``collection``."""
    cols = list(COLLECTIONS) if collection is None else [collection]
    return [p for c in cols for p in get_registry(c).fetch_all()]
