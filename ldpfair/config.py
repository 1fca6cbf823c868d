"""Every ``LDPFAIR_*`` environment variable the package reads, in one place.

Each variable has a typed accessor that reads the environment when it is called
(so a test can ``monkeypatch.setenv``), and a :class:`Variable` entry in
:data:`VARIABLES` with its meaning, default and valid values (the table of
*How to use this book* is :func:`markdown_table`).

=========================  ================================  ==========================
variable                   accessor                          kind
=========================  ================================  ==========================
``LDPFAIR_DATA_DIR``       :func:`data_dir`                  folder
``LDPFAIR_REFERENCE_DIR``  :func:`reference_dir`             folder
``LDPFAIR_CACHE_DIR``      :func:`download_cache_dir`        folder
``LDPFAIR_CACHE``          :func:`task_cache_dir`            folder
``LDPFAIR_RESULTS_DIR``    :func:`results_root`              folder
``LDPFAIR_NOTEBOOKS``      :func:`notebooks_dir`             folder
``LDPFAIR_COMPUTE``        :func:`compute`                   flag
``LDPFAIR_RUN_LEDGER``     :func:`run_ledger`                file
``LDPFAIR_FIGURE_LOG``     :func:`figure_log`                file
``LDPFAIR_FIGURE_FILES``   :func:`figure_files`              flag
``LDPFAIR_DEBUG``          :func:`debug`                     flag
``LDPFAIR_BLAS_KERNELS``   :func:`blas_kernels`              choice
=========================  ================================  ==========================

Rules shared by every variable: unset and the empty string mean "use the
default". A path has ``~`` expanded and, when relative, is resolved against the
working folder of the process that reads it first: :func:`path_from_env` writes
the absolute path back into the environment, so a child process (a notebook
kernel, which runs in another folder) inherits the same folder;
:func:`absolute_paths` does this for every path variable at once (the command
line calls it on start). A value with leading or trailing white space, a
folder variable naming an existing file, or a file variable naming an existing
folder is refused. A flag is ``1`` (on) or ``0``
(off). Anything else raises one :class:`ValueError` naming the variable, the
value and what is valid.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "VARIABLES",
    "Variable",
    "absolute_paths",
    "raw_values",
    "blas_kernels",
    "select_blas_kernels",
    "compute",
    "data_dir",
    "debug",
    "download_cache_dir",
    "exported",
    "figure_files",
    "figure_log",
    "markdown_table",
    "notebooks_dir",
    "path_from_env",
    "reference_dir",
    "results_root",
    "run_ledger",
    "task_cache_dir",
]

DATA_DIR = "LDPFAIR_DATA_DIR"
REFERENCE_DIR = "LDPFAIR_REFERENCE_DIR"
CACHE_DIR = "LDPFAIR_CACHE_DIR"
CACHE = "LDPFAIR_CACHE"
RESULTS_DIR = "LDPFAIR_RESULTS_DIR"
NOTEBOOKS = "LDPFAIR_NOTEBOOKS"
COMPUTE = "LDPFAIR_COMPUTE"
RUN_LEDGER = "LDPFAIR_RUN_LEDGER"
FIGURE_LOG = "LDPFAIR_FIGURE_LOG"
FIGURE_FILES = "LDPFAIR_FIGURE_FILES"
DEBUG = "LDPFAIR_DEBUG"
BLAS_KERNELS = "LDPFAIR_BLAS_KERNELS"

_REPO = Path(__file__).resolve().parents[1]
_FLAG_VALUES = ("0", "1")
_BLAS_CHOICES = ("Haswell", "native")


@dataclass(frozen=True)
class Variable:
    """One environment variable read by :mod:`ldpfair`.

    Attributes
    ----------
    name : str
        The variable, ``LDPFAIR_...``.
    kind : {"folder", "file", "flag"}
        How its value is read (see the module docstring for the rules).
    meaning : str
        What it sets.
    default : str
        What is used when it is unset or empty.
    accessor : str
        The function of :mod:`ldpfair.config` that reads it.
    """

    name: str
    kind: str
    meaning: str
    default: str
    accessor: str

    @property
    def valid(self) -> str:
        """The valid values, in words."""
        if self.kind == "flag":
            return "`1` (on) or `0` (off)"
        if self.kind == "choice":
            return " or ".join(f"`{c}`" for c in _BLAS_CHOICES)
        return f"a path to a {self.kind} (`~` expanded)"


#: Every variable, in the order of the documentation table.
VARIABLES: tuple[Variable, ...] = (
    Variable(DATA_DIR, "folder", "Offline folder of the dataset files (same relative layout as the "
             "registry); files are read from it and their sha256 checked.",
             "unset: files are downloaded into the download cache", "data_dir"),
    Variable(REFERENCE_DIR, "folder", "Offline folder of the authors' reference results.",
             "`<LDPFAIR_DATA_DIR>/../reference` when that folder exists, else downloaded",
             "reference_dir"),
    Variable(CACHE_DIR, "folder", "Download cache of the dataset and reference files.",
             "pooch's user cache folder for `ldpfair`", "download_cache_dir"),
    Variable(CACHE, "folder", "Per-task cache of experiment cells (reruns and interrupted runs "
             "resume from it).", "`.ldpfair_cache` in the repository", "task_cache_dir"),
    Variable(RESULTS_DIR, "folder", "Folder of the committed results `<paper>/<name>`.",
             "`results` in the repository", "results_root"),
    Variable(NOTEBOOKS, "folder", "Folder of the chapter notebooks that `ldpfair run` executes.",
             "`./notebooks` when it exists, else `notebooks` in the repository", "notebooks_dir"),
    Variable(COMPUTE, "flag", "`1`: a chapter computes its paper profile (and rewrites the "
             "committed results) instead of reading them.", "`0`", "compute"),
    Variable(RUN_LEDGER, "file", "Ledger of the cells read and computed by a notebook; set by "
             "`ldpfair run` for the notebook's kernel.", "unset: nothing is recorded", "run_ledger"),
    Variable(FIGURE_LOG, "file", "File to which every figure checked by `ldpfair.style` appends "
             "one JSON line (its label, size and font sizes).", "unset: nothing is logged", "figure_log"),
    Variable(FIGURE_FILES, "flag", "`1`: a chapter writes each figure it shows as PNG and PDF files "
             "(under `figures/<paper>/` of the kernel's folder); `0`: it only shows them. The book "
             "build sets `0`.", "`1`", "figure_files"),
    Variable(DEBUG, "flag", "`1`: the command line re-raises unexpected errors with their "
             "traceback instead of printing one line.", "`0`", "debug"),
    Variable(BLAS_KERNELS, "choice", "OpenBLAS kernels selected when `ldpfair` is imported before "
             "numpy: `Haswell` (AVX2, those of the committed results, so that a computation sensitive "
             "to the last bit gives the same numbers on any AVX2 processor) or `native` (OpenBLAS's "
             "own choice). An `OPENBLAS_CORETYPE` already set wins.", "`Haswell` where the processor "
             "has AVX2", "blas_kernels"),
)
_BY_NAME = {v.name: v for v in VARIABLES}


def _raw(name: str) -> str | None:
    """The value of ``name``, ``None`` when unset or empty."""
    value = os.environ.get(name, "")
    return value or None


def _invalid(name: str, value: str, valid: str, why: str = "") -> ValueError:
    return ValueError(f"environment variable {name}={value!r} is not valid{why}; valid: {valid}")


def path_from_env(name: str, kind: str = "folder") -> Path | None:
    """Return the path held by environment variable ``name``, ``None`` when unset or empty.

    Parameters
    ----------
    name : str
        The variable (any name: :class:`~ldpfair.datasets.registry.FileRegistry`
        takes its own).
    kind : {"folder", "file"}
        What the path must be when it exists.

    Returns
    -------
    pathlib.Path or None
        The value with ``~`` expanded, as an absolute path (a relative one is
        resolved against the current working folder, and the absolute path is
        written back into ``os.environ[name]`` so that later reads and child
        processes see the same folder whatever their working folder); it need
        not exist.

    Raises
    ------
    ValueError
        If the value has leading or trailing white space, or names an existing
        file where a folder is needed (or the reverse).
    """
    if kind not in ("folder", "file"):
        raise ValueError(f"kind must be 'folder' or 'file', got {kind!r}")
    value = _raw(name)
    if value is None:
        return None
    valid = f"a path to a {kind} (`~` expanded), or unset"
    if value != value.strip():
        raise _invalid(name, value, valid, " (leading or trailing white space)")
    path = Path(os.path.abspath(Path(value).expanduser()))
    if os.fspath(path) != value:
        # resolved once, against the working folder of the first reader; a notebook kernel
        # started later (in its own folder) inherits the absolute path
        os.environ[name] = os.fspath(path)
    if kind == "folder" and path.is_file():
        raise _invalid(name, value, valid, " (it names a file)")
    if kind == "file" and path.is_dir():
        raise _invalid(name, value, valid, " (it names a folder)")
    return path


def raw_values(names: Iterable[str]) -> dict[str, str | None]:
    """The environment's raw value of each of ``names`` (None when unset), for reports such as ``doctor``."""
    return {n: os.environ.get(n) for n in names}


def absolute_paths() -> dict[str, str]:
    """Make every path variable of :data:`VARIABLES` that is set absolute in ``os.environ``.

    A relative value is resolved against the current working folder (see
    :func:`path_from_env`), so that a notebook kernel started afterwards in
    another folder reads the same folders. A value that is not valid is left as
    it is (its accessor raises the error when it is read).

    Returns
    -------
    dict of str to str
        The variables that were changed, with their new value.
    """
    changed: dict[str, str] = {}
    for v in VARIABLES:
        if v.kind not in ("folder", "file"):
            continue
        before = os.environ.get(v.name)
        try:
            path_from_env(v.name, v.kind)
        except ValueError:
            continue
        after = os.environ.get(v.name)
        if after is not None and after != before:
            changed[v.name] = after
    return changed


def _flag(name: str) -> bool:
    value = _raw(name)
    if value is None:
        return False
    if value not in _FLAG_VALUES:
        raise _invalid(name, value, "1 (on) or 0 (off), or unset")
    return value == "1"


def data_dir() -> Path | None:
    """``LDPFAIR_DATA_DIR``: offline folder of the dataset files, ``None`` when unset.

    Default: unset, the files are downloaded into :func:`download_cache_dir`.
    Valid values: a path to a folder.
    """
    return path_from_env(DATA_DIR)


def reference_dir() -> Path | None:
    """``LDPFAIR_REFERENCE_DIR``: offline folder of the authors' reference results.

    Default (``None`` here): ``<LDPFAIR_DATA_DIR>/../reference`` when that folder
    exists, else the files are downloaded (:mod:`ldpfair.datasets.registry`).
    Valid values: a path to a folder.
    """
    return path_from_env(REFERENCE_DIR)


def download_cache_dir() -> Path | None:
    """``LDPFAIR_CACHE_DIR``: root of the download cache, ``None`` when unset.

    Default (``None`` here): ``pooch.os_cache("ldpfair")``. Valid values: a
    path to a folder.
    """
    return path_from_env(CACHE_DIR)


def task_cache_dir() -> Path:
    """``LDPFAIR_CACHE``: per-task cache of experiment cells.

    Default: ``.ldpfair_cache`` in the repository. Valid values: a path to a
    folder.
    """
    return path_from_env(CACHE) or _REPO / ".ldpfair_cache"


def results_root() -> Path:
    """``LDPFAIR_RESULTS_DIR``: folder of the committed results.

    Default: ``results`` in the repository (independent of the working folder,
    so a notebook executed elsewhere finds them). Valid values: a path to a
    folder.
    """
    return path_from_env(RESULTS_DIR) or _REPO / "results"


def results_dir(paper: str | None = None) -> Path:
    """Folder of committed results (``$LDPFAIR_RESULTS_DIR`` or ``<repo>/results``).

    Independent of the working directory, so a notebook executed in an output
    folder still finds the committed paper-profile results.
    """
    root = results_root()
    return root / paper if paper else root


def notebooks_dir() -> Path:
    """``LDPFAIR_NOTEBOOKS``: folder of the chapter notebooks.

    Default: ``./notebooks`` when it exists, else ``notebooks`` in the
    repository. Valid values: a path to a folder.
    """
    env = path_from_env(NOTEBOOKS)
    if env is not None:
        return env
    local = Path("notebooks")
    return local if local.is_dir() else _REPO / "notebooks"


def compute() -> bool:
    """``LDPFAIR_COMPUTE``: whether a chapter computes its paper profile.

    Default: off (the committed results are read). Valid values: ``1`` (on),
    ``0`` (off).
    """
    return _flag(COMPUTE)


def run_ledger() -> Path | None:
    """``LDPFAIR_RUN_LEDGER``: ledger file of the cells a notebook read and computed.

    Set by ``ldpfair run`` for the notebook's kernel. Default: unset, nothing
    is recorded. Valid values: a path to a file.
    """
    return path_from_env(RUN_LEDGER, "file")


def figure_log() -> Path | None:
    """``LDPFAIR_FIGURE_LOG``: file to which every saved figure appends one line.

    Default: unset, nothing is logged. Valid values: a path to a file.
    """
    return path_from_env(FIGURE_LOG, "file")


def figure_files() -> bool:
    """``LDPFAIR_FIGURE_FILES``: whether :func:`ldpfair.style.figure` writes figure files.

    Default: on. Valid values: ``1`` (on), ``0`` (off).
    """
    return _raw(FIGURE_FILES) is None or _flag(FIGURE_FILES)


def debug() -> bool:
    """``LDPFAIR_DEBUG``: whether the command line re-raises unexpected errors.

    Default: off (one line on stderr). Valid values: ``1`` (on), ``0`` (off).
    """
    return _flag(DEBUG)


def blas_kernels() -> str:
    """``LDPFAIR_BLAS_KERNELS``: which OpenBLAS kernels :func:`select_blas_kernels` selects.

    Default: ``Haswell``. Valid values: ``Haswell``, ``native``.
    """
    value = _raw(BLAS_KERNELS)
    if value is None:
        return "Haswell"
    if value not in _BLAS_CHOICES:
        raise _invalid(BLAS_KERNELS, value, " or ".join(_BLAS_CHOICES))
    return value


def _has_avx2() -> bool:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            return any(line.startswith("flags") and " avx2" in line for line in fh)
    except OSError:  # not Linux: leave OpenBLAS's choice
        return False


def select_blas_kernels() -> str | None:
    """Select OpenBLAS's ``Haswell`` (AVX2) kernels before numpy loads OpenBLAS; return the choice.

    Floating-point linear algebra is not bit-identical across OpenBLAS's kernel sets
    (AVX2 vs AVX-512), and some committed results (xu2019's eigenvalues, the k-ary
    linear program of ghoukasian2025's optimal mechanism and its Fig. 6 regressions)
    depend on the last bit. Selecting one kernel set
    makes "same seed, same numbers" hold across processors. Does nothing when
    ``OPENBLAS_CORETYPE`` is already set, when numpy is already imported (its
    OpenBLAS is loaded: the kernels can no longer change), when
    ``LDPFAIR_BLAS_KERNELS=native``, or on a processor without AVX2.
    """
    import sys

    if os.environ.get("OPENBLAS_CORETYPE") or "numpy" in sys.modules:
        return None
    try:
        choice = blas_kernels()
    except ValueError as exc:  # at import time: say so, select nothing
        import warnings

        warnings.warn(str(exc), RuntimeWarning, stacklevel=2)
        return None
    if choice == "native" or not _has_avx2():
        return None
    os.environ["OPENBLAS_CORETYPE"] = "Haswell"
    return "Haswell"


def export_for_children(name: str, value: str | os.PathLike[str], *, override: bool = True) -> None:
    """Set environment variable ``name`` for the rest of this process and its children.

    For a process that hands settings to kernels it starts and never restores them
    (Otter's grading run inside its container).

    Raises
    ------
    ValueError
        If ``name`` is neither one of :data:`VARIABLES` nor ``MPLBACKEND``.
    """
    if name not in _BY_NAME and name != "MPLBACKEND":
        raise ValueError(f"unknown variable {name!r}; valid: {', '.join(_BY_NAME)}, MPLBACKEND")
    if override or os.environ.get(name) is None:
        os.environ[name] = os.fspath(value)


@contextmanager
def exported(name: str, value: str | os.PathLike[str], *, override: bool = True) -> Iterator[None]:
    """Set environment variable ``name`` for the duration of a ``with`` block.

    Used to hand a setting to a child process (a notebook kernel). The previous
    value (or its absence) is restored on exit.

    Parameters
    ----------
    name : str
        One of :data:`VARIABLES`.
    value : str or path-like
        The value.
    override : bool
        ``False`` keeps a value that is already set.

    Raises
    ------
    ValueError
        If ``name`` is not a variable of :data:`VARIABLES`.
    """
    if name not in _BY_NAME:
        raise ValueError(f"unknown variable {name!r}; valid: {', '.join(_BY_NAME)}")
    previous = os.environ.get(name)
    if override or previous is None:
        os.environ[name] = os.fspath(value)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = previous


def markdown_table() -> str:
    """The variables as a markdown table (name, meaning, default, valid values).

    Returns
    -------
    str
        One header line, one separator line and one line per variable, each
        ending with a newline.
    """
    lines = ["| Variable | Meaning | Default | Valid values |", "|---|---|---|---|"]
    lines += [f"| `{v.name}` | {v.meaning} | {v.default} | {v.valid} |" for v in VARIABLES]
    return "\n".join(lines) + "\n"
