"""The software environment: installed versions, BLAS kernels, the lock file, and drift.

The committed results were computed in one environment, recorded in each
``results/<paper>/<name>.meta.json`` (``libraries``: the versions of the
libraries behind the numbers; ``machine.blas``: the BLAS kernels) and, for the
book, held by the hashed lock file ``requirements/lock-book.txt``. This module
compares the running environment with both, so that a recomputation that
differs can name the package that changed (``values differ; lightgbm 4.7.0 when
committed, 5.0.1 installed``) instead of leaving the reader to guess whether
the book or the world changed.

``ldpfair doctor`` prints :func:`doctor_report` (for bug reports) and
``ldpfair results verify --env`` prints :func:`environment_table`.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

__all__ = [
    "LOCK_FILE",
    "Difference",
    "add_subcommand",
    "blas_kernels",
    "checked_differences",
    "compare",
    "describe_differences",
    "drift_line",
    "doctor_report",
    "environment_table",
    "installed_version",
    "lock_path",
    "lock_record",
    "lock_sha256",
    "lock_state",
    "derived_lock_state",
    "parse_lock",
    "read_meta",
]

#: The book's lock file, relative to the repository root.
LOCK_FILE = "requirements/lock-book.txt"
#: What ``lock_state`` says of a results file whose metadata records no lock.
BEFORE_THE_LOCK = "before the lock"
_REPO = Path(__file__).resolve().parents[1]
#: The meta's ``libraries`` entries that are not packages to compare.
_NOT_COMPARED = ("ldpfair",)


def _canonical(name: str) -> str:
    """PEP 503 normalised distribution name (``Scikit_Learn`` -> ``scikit-learn``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed_version(name: str) -> str | None:
    """The installed version of distribution ``name`` (``"python"``: the interpreter), or None."""
    if _canonical(name) == "python":
        return platform.python_version()
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def blas_kernels() -> list[str]:
    """The BLAS libraries loaded and the CPU kernels they dispatched to (e.g. ``openblas:Haswell``).

    The same form as ``machine.blas`` in a results file's metadata.
    """
    import numpy  # noqa: F401 - loads numpy's BLAS, so that it is listed
    from threadpoolctl import threadpool_info

    return sorted({f"{i.get('internal_api')}:{i.get('architecture')}" for i in threadpool_info()
                   if i.get("user_api") == "blas"})


# -- the lock file ---------------------------------------------------------------------------------


def lock_path() -> Path:
    """Where the book's lock file is: ``requirements/lock-book.txt`` of the source tree.

    Only a source checkout (an editable install) has one; an installed wheel does not.
    """
    return _REPO / LOCK_FILE


def lock_sha256(path: str | os.PathLike[str] | None = None) -> str | None:
    """sha256 of the lock file (default :func:`lock_path`), or None when there is none."""
    p = Path(path) if path is not None else lock_path()
    try:
        return hashlib.sha256(p.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def parse_lock(path: str | os.PathLike[str]) -> dict[str, str]:
    """The exact pins of a requirements-format lock file: ``{canonical name: version}``.

    Raises
    ------
    ValueError
        If a requirement line is not an exact ``name==version`` pin.
    """
    pins: dict[str, str] = {}
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text or text.startswith("--"):  # comments, --hash continuation lines, options
            continue
        m = _PIN.match(text)
        if m is None:
            raise ValueError(f"{path}:{n}: not an exact pin (name==version): {text!r}")
        pins[_canonical(m.group(1))] = m.group(2)
    return pins


def lock_record(path: str | os.PathLike[str] | None = None) -> dict[str, Any] | None:
    """What a new results file records of the lock (its ``lock`` metadata entry), or None.

    ``{"file": "requirements/lock-book.txt", "sha256": ..., "differs": [...]}``:
    ``differs`` names the locked packages whose installed version is another one
    (``"name locked installed"``; empty when the environment is the locked one).
    """
    p = Path(path) if path is not None else lock_path()
    digest = lock_sha256(p)
    if digest is None:
        return None
    differs = [f"{name} {ver} {installed_version(name) or 'missing'}"
               for name, ver in sorted(parse_lock(p).items()) if installed_version(name) != ver]
    return {"file": LOCK_FILE, "sha256": digest, "differs": differs}


def lock_state(meta: Mapping[str, Any], current: str | None = None) -> str:
    """Which lock a results file was computed under, relative to the current one.

    ``"current lock"``, ``"before the lock"`` (its metadata records none), or
    ``"other lock (sha256 1a2b3c4d)"``; ``" (not as locked)"`` is appended when
    the environment differed from its lock.
    """
    current = lock_sha256() if current is None else current
    rec = meta.get("lock")
    if not isinstance(rec, Mapping) or not rec.get("sha256"):
        return BEFORE_THE_LOCK
    state = "current lock" if rec["sha256"] == current else f"other lock (sha256 {str(rec['sha256'])[:8]})"
    return state + (" (not as locked)" if rec.get("differs") else "")


def derived_lock_state(meta_path: str | os.PathLike[str], current: str | None = None) -> str:
    """Which lock computed a results file, derived from git rather than read from its metadata.

    A file whose ``.csv.gz`` or ``.meta.json`` differs from its committed version
    (or has none) is ``"unknown (differs from the committed version)"``: its
    ``lock`` field is not believed. A recorded lock must be the lock file as
    committed at the commit the file was computed at (``git_commit``; see
    :func:`ldpfair.experiments.committed.lock_claim_problem`), else ``"unverified
    lock"``. Then as :func:`lock_state`. Outside a git checkout the recorded field is
    shown, marked ``"(recorded, not checked: no git)"``.
    """
    from .experiments.committed import changed_results, lock_claim_problem

    meta = read_meta(meta_path)
    try:
        why = changed_results(meta_path)
    except LookupError:
        return lock_state(meta, current) + " (recorded, not checked against git)"
    if why:
        return f"unknown ({why})"
    if lock_claim_problem(meta, str(meta_path), LOCK_FILE):
        return "unverified lock (not the lock committed where it was computed)"
    return lock_state(meta, current)


# -- drift -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Difference:
    """A library (or ``BLAS``) whose installed version differs from the one a result recorded."""

    package: str
    committed: str
    installed: str

    def __str__(self) -> str:
        return f"{self.package} {self.committed} when committed, {self.installed} installed"


def _blas_list(meta: Mapping[str, Any]) -> list[str]:
    """``machine.blas`` of a results file's metadata as a list (a lone string is one entry, not letters)."""
    machine = meta.get("machine")
    blas = machine.get("blas") if isinstance(machine, Mapping) else None
    if isinstance(blas, str):
        return [blas] if blas else []
    if isinstance(blas, (list, tuple)):
        return [str(b) for b in blas]
    return []


def read_meta(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A results file's metadata (``<name>.meta.json``; ``<name>.csv.gz`` is accepted too)."""
    p = Path(path)
    if p.name.endswith(".csv.gz"):
        p = p.with_name(p.name[: -len(".csv.gz")] + ".meta.json")
    elif not p.name.endswith(".meta.json"):  # results/<paper>/<name>
        p = p.with_name(p.name + ".meta.json")
    from .experiments.results_files import ResultsIntegrityError  # a damaged file: exit 1, not 2

    try:
        meta = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).splitlines()[0]
        raise ResultsIntegrityError(f"{p}: not readable JSON metadata ({why})") from None
    if not isinstance(meta, dict):
        raise ResultsIntegrityError(f"{p}: not a JSON object")
    return meta


def compare(meta: Mapping[str, Any], *, installed: Mapping[str, str | None] | None = None,
            kernels: Sequence[str] | None = None) -> list[Difference]:
    """The libraries and BLAS kernels that differ between a result's metadata and this environment.

    Parameters
    ----------
    meta : mapping
        A results file's metadata (its ``libraries`` and ``machine.blas`` are read).
    installed : mapping, optional
        Installed versions by name (default: looked up with :func:`installed_version`).
    kernels : sequence of str, optional
        The BLAS kernels in use (default :func:`blas_kernels`).

    Returns
    -------
    list of Difference
        In the meta's order of names; ``BLAS`` last. Empty when nothing differs.
    """
    out = []
    for name, ver in sorted((meta.get("libraries") or {}).items()):
        if name in _NOT_COMPARED:
            continue
        have = installed.get(name) if installed is not None else installed_version(name)
        if have != str(ver):
            out.append(Difference(name, str(ver), have or "missing"))
    blas = _blas_list(meta)
    if blas:
        now = list(blas_kernels() if kernels is None else kernels)
        if sorted(blas) != sorted(now):
            out.append(Difference("BLAS", ", ".join(blas), ", ".join(now) or "none"))
    return out


def describe_differences(differences: Iterable[Difference]) -> str:
    """One clause: ``lightgbm 4.7.0 when committed, 5.0.1 installed; ...`` (or that none differs)."""
    diffs = list(differences)
    if not diffs:
        return "no recorded library version or BLAS kernel differs from this environment"
    return "; ".join(map(str, diffs))


def drift_line(path: str | os.PathLike[str], problems: Sequence[str]) -> list[str]:
    """The line that names what changed, when ``problems`` report recomputed values that differ.

    Parameters
    ----------
    path : path
        The results file (``results/<paper>/<name>``, its ``.csv.gz`` or ``.meta.json``).
    problems : sequence of str
        Lines of a :class:`~ldpfair.experiments.VerificationError`; those of a differing value
        read ``<file>: cell <key> column <col>: committed <a>, recomputed <b>``.

    Returns
    -------
    list of str
        ``["<file>: values differ on N cells; lightgbm 4.7.0 when committed, 5.0.1 installed"]``
        (every differing library and the BLAS kernels), or ``[]`` when no value differs or the
        metadata cannot be read.
    """
    cells = {line.split(" cell ", 1)[1].split(" ", 1)[0] for line in problems
             if " cell " in line and ": committed " in line and ", recomputed " in line}
    if not cells:
        return []
    try:
        meta = read_meta(path)
    except (OSError, ValueError):
        return []
    p = Path(path)
    shown = p if p.name.endswith(".csv.gz") else p.with_name(p.name.replace(".meta.json", "") + ".csv.gz")
    return [f"{shown}: values differ on {len(cells)} cell{'s' if len(cells) > 1 else ''}; "
            f"{describe_differences(compare(meta))}"]


def checked_differences(table: pd.DataFrame) -> str:
    """The differences of every results file that a verification recomputed, as one clause ("" if none).

    ``table`` is :func:`ldpfair.papers.verify`'s (``paper``, ``results``, ``checked``).
    """
    from . import config

    found: dict[Difference, None] = {}
    for row in table[table["checked"] > 0].itertuples():
        try:
            meta = read_meta(config.results_root() / str(row.paper) / str(row.results))
        except (OSError, ValueError):
            continue
        found.update(dict.fromkeys(compare(meta)))
    return describe_differences(found) if found else ""


def environment_table(metas: Mapping[str, Mapping[str, Any]], *,
                      lock: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """Recorded versus locked versus installed versions, one row per library (and ``BLAS``).

    Parameters
    ----------
    metas : mapping
        Results metadata by label (e.g. file name).
    lock : path, optional
        The lock file (default :func:`lock_path`; its versions are shown when it exists).

    Returns
    -------
    pandas.DataFrame
        ``package, committed, locked, installed, files, agree``: ``committed`` lists
        each recorded version (with its file count when several), ``files`` the
        number of files recording the package, ``agree`` is ``yes`` when every
        file's version is the installed one, else ``NO``.
    """
    lock_p = Path(lock) if lock is not None else lock_path()
    locked = parse_lock(lock_p) if lock_p.is_file() else {}
    seen: dict[str, dict[str, int]] = {}
    for meta in metas.values():
        for name, ver in (meta.get("libraries") or {}).items():
            if name not in _NOT_COMPARED:
                seen.setdefault(name, {}).setdefault(str(ver), 0)
                seen[name][str(ver)] += 1
        blas = _blas_list(meta)
        if blas:
            seen.setdefault("BLAS", {}).setdefault(", ".join(blas), 0)
            seen["BLAS"][", ".join(blas)] += 1
    kernels = ", ".join(blas_kernels()) or "none"
    rows = []
    for name in sorted(seen, key=lambda n: (n == "BLAS", n.lower())):
        versions = seen[name]
        have = kernels if name == "BLAS" else (installed_version(name) or "missing")
        committed = ", ".join(v if len(versions) == 1 else f"{v} ({k} files)" for v, k in versions.items())
        lockv = "" if name == "BLAS" else locked.get(_canonical(name), "3.11" if name == "python" else "-")
        rows.append({"package": name, "committed": committed, "locked": lockv, "installed": have,
                     "files": sum(versions.values()),
                     "agree": "yes" if set(versions) == {have} else "NO"})
    return pd.DataFrame(rows, columns=["package", "committed", "locked", "installed", "files", "agree"])


# -- ldpfair doctor --------------------------------------------------------------------------------


def _data_lines() -> list[str]:
    from .datasets import registry

    lines = []
    for coll, w in registry.where().items():
        reg = registry.get_registry(coll)
        missing = []
        for name, entry in reg.entries.items():
            p = reg.path(name)
            try:
                size = p.stat().st_size
            except OSError:
                missing.append(name)
                continue
            if entry.size is not None and size != entry.size:
                missing.append(f"{name} (size {size}, expected {entry.size})")
        env = f"{w['env']}={w['env_value']}" if w["env_value"] else f"{w['env']} unset"
        lines.append(f"  {coll}: {w['folder']} ({w['mode']}; {env}): "
                     f"{w['files'] - len(missing)} of {w['files']} files present")
        lines += [f"    missing: {m}" for m in missing[:8]]
        if len(missing) > 8:
            lines.append(f"    ... and {len(missing) - 8} more missing (ldpfair data verify lists them)")
    return lines


def doctor_report() -> list[str]:
    """What a bug report needs: environment, lock, libraries, BLAS and thread pools, data folders."""
    import sys

    from threadpoolctl import threadpool_info

    from . import __version__, config

    lines = [f"ldpfair {__version__} at {Path(__file__).resolve().parent}",
             f"python {platform.python_version()} ({sys.executable})",
             f"platform {platform.platform()}, {os.cpu_count()} CPUs"]
    lines.append("environment variables:")
    names = [v.name for v in config.VARIABLES] + ["OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS",
                                                  "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MPLBACKEND"]
    lines += [f"  {n}={v}" if v is not None else f"  {n} unset"
              for n, v in config.raw_values(dict.fromkeys(names)).items()]
    try:
        rec = lock_record()
    except ValueError as exc:  # a line that is not an exact pin: report it and go on
        rec = None
        lines.append(f"lock: {exc}")
    if rec is None:
        if not lines[-1].startswith("lock: "):
            lines.append(f"lock: no {LOCK_FILE} here (not a source checkout)")
    else:
        lines.append(f"lock: {LOCK_FILE} sha256 {rec['sha256'][:16]}: " + (
            "every locked package is installed at its locked version" if not rec["differs"] else
            f"{len(rec['differs'])} package(s) differ from the lock (locked, installed):"))
        lines += [f"  {d}" for d in rec["differs"][:30]]
        if len(rec["differs"]) > 30:
            lines.append(f"  ... and {len(rec['differs']) - 30} more")
    lines.append("libraries:")
    for name in ("numpy", "scipy", "pandas", "scikit-learn", "lightgbm", "numba", "llvmlite", "joblib",
                 "fairlearn", "matplotlib", "threadpoolctl", "jupyter-book", "sphinx", "myst-nb",
                 "papermill", "jupytext", "otter-grader"):
        lines.append(f"  {name} {installed_version(name) or 'not installed'}")
    lines.append("kernels (threadpoolctl):")
    import numpy  # noqa: F401 - load the BLAS libraries before listing them
    import scipy.linalg  # noqa: F401

    for info in threadpool_info():
        lines.append(f"  {info.get('user_api')}: {info.get('internal_api')} {info.get('version')} "
                     f"kernel {info.get('architecture')}, {info.get('num_threads')} threads "
                     f"({info.get('filepath')})")
    lines.append("data and reference folders:")
    try:
        lines += _data_lines()
    except Exception as exc:  # noqa: BLE001 - a report must come out whatever is broken
        lines.append(f"  cannot be read: {type(exc).__name__}: {exc}")
    try:
        results = config.results_root()
        metas = sorted(results.glob("*/*.meta.json"))
        states: dict[str, int] = {}
        for m in metas:
            s = derived_lock_state(m, rec["sha256"] if rec else lock_sha256())
            states[s] = states.get(s, 0) + 1
        lines.append(f"results: {results}: {len(metas)} files; "
                     + (", ".join(f"{k} {s}" for s, k in sorted(states.items())) or "none"))
    except Exception as exc:  # noqa: BLE001
        lines.append(f"results: cannot be read: {type(exc).__name__}: {exc}")
    return lines


def _doctor(args: Any) -> int:
    print("\n".join(doctor_report()))
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair doctor``."""
    p = subparsers.add_parser(
        "doctor", help="print the environment, kernels, lock and data folders (for bug reports)",
        description="Print what a bug report needs: ldpfair's version and location, Python and the "
        "platform, the LDPFAIR_* and BLAS environment variables, whether the installed packages are "
        "the locked ones (requirements/lock-book.txt), the versions of the libraries behind the "
        "results, the BLAS/OpenMP thread pools and their CPU kernels (threadpoolctl), the data and "
        "reference folders with the files missing there, and which lock the committed results were "
        "computed under.")
    p.set_defaults(func=_doctor)
