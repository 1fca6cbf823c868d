"""Tidy readers of the result tables published by the authors of two papers.

Files come from the ``"reference"`` collection of :mod:`ldpfair.datasets.registry`
(pinned URLs and sha256; offline folder ``LDPFAIR_REFERENCE_DIR``, by default
``<LDPFAIR_DATA_DIR>/../reference``).

* arcolezi2023: ``<dataset>/<protocol>/<split>/[Appendix_]LGBM_results_<protocol>_eps_<eps>.csv``,
  one row per seed. The protocol the paper calls RAPPOR is stored as ``SUE``.
* makhlouf2024: ``<Dataset>/<data>_<setting>_results.csv``: 20 run rows and one
  standard-deviation row (``Seed_num = 20``) per epsilon.

:func:`compact_table` keeps a table built from many of these files (arcolezi2023's
756 per-seed files, say) as one checksummed file in the cache folder, so that the
scoreboard and the book read the authors' runs once, not once per page and process.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import os
import pickle
import re
import tempfile
from collections.abc import Callable, Hashable
from pathlib import Path

import numpy as np
import pandas as pd

from .. import config
from .registry import fetch, files

__all__ = [
    "ARCOLEZI_DATASETS",
    "ARCOLEZI_EPSILONS",
    "ARCOLEZI_PROTOCOLS",
    "COMPACT_VERSION",
    "MAKHLOUF_DATA",
    "MAKHLOUF_SETTINGS",
    "arcolezi2023_file",
    "compact_table",
    "read_arcolezi2023",
    "read_arcolezi2023_nonprivate",
    "read_makhlouf2024",
    "reference_path",
]

#: accepted dataset names -> folder
ARCOLEZI_DATASETS = {
    "adult": "adult",
    "adult26k": "adult",
    "ACSCoverage": "ACSCoverage",
    "acs_coverage": "ACSCoverage",
    "LSAC": "LSAC",
    "lsac": "LSAC",
}
#: paper protocol name -> folder (the paper's RAPPOR is the code's SUE)
ARCOLEZI_PROTOCOLS = {
    "GRR": "GRR",
    "BLH": "BLH",
    "OLH": "OLH",
    "RAPPOR": "SUE",
    "SUE": "SUE",
    "OUE": "OUE",
    "SS": "SS",
    "THE": "THE",
}
ARCOLEZI_SPLITS = ("uniform", "k_based")
ARCOLEZI_EPSILONS = (0.25, 0.5, 1, 2, 4, 8, 10, 20, 50)

MAKHLOUF_DATA = {
    **{f"S1_{t}": "Synthetic" for t in ("0.44", "0.52", "0.6")},
    **{f"compas_{t}": "Compas" for t in (1, 3, 5)},
    **{f"adult_{t}": "Adult" for t in (10000, 27260, 50000)},
}
#: accepted setting names -> file suffix
MAKHLOUF_SETTINGS = {
    "NoLDP": "NoLDP",
    "noLDP": "NoLDP",
    "sLDP": "sLDP",
    "combsLDP": "combsLDP",
    "combLDP": "combsLDP",
    "indsLDP": "indsLDP",
    "indLDP": "indsLDP",
}


def reference_path(relpath: str) -> Path:
    """Return the local, sha256-verified path of an authors' result file.

    Parameters
    ----------
    relpath : str
        Path relative to the reference folder, e.g.
        ``"makhlouf2024/Compas/compas_3_sLDP_results.csv"``.
    """
    return fetch(relpath, collection="reference")


def _choice(value: object, mapping: dict, name: str) -> str:
    if value not in mapping:
        raise ValueError(f"invalid {name}={value!r}; valid: {', '.join(map(repr, mapping))}")
    return mapping[value]


def _eps_token(epsilon: float) -> str:
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float | np.integer | np.floating):
        raise TypeError(f"epsilon must be a number, got {type(epsilon).__name__}")
    eps = float(epsilon)
    if not any(math.isclose(eps, e) for e in ARCOLEZI_EPSILONS):
        raise ValueError(f"invalid epsilon={epsilon!r}; valid: {', '.join(map(str, ARCOLEZI_EPSILONS))}")
    return str(int(eps)) if eps.is_integer() else repr(eps)


_CM = re.compile(r"-?\d+")


def _tidy_arcolezi(df: pd.DataFrame) -> pd.DataFrame:
    """Split the multi-line confusion-matrix string into tn, fp, fn, tp."""
    if "cm" in df.columns:
        cells = np.array([[int(x) for x in _CM.findall(str(s))] for s in df["cm"]], dtype=np.int64)
        if cells.ndim != 2 or cells.shape[1] != 4:
            raise ValueError("unexpected confusion-matrix format in the 'cm' column")
        for j, c in enumerate(("tn", "fp", "fn", "tp")):
            df[c] = cells[:, j]
    return df


def arcolezi2023_file(dataset: str, protocol: str, split: str, epsilon: float,
                      appendix: bool = False) -> Path:
    """The local path of one result file of Arcolezi et al. (2023), its sha256 checked.

    The parameters are those of :func:`read_arcolezi2023`.
    """
    ds = _choice(dataset, ARCOLEZI_DATASETS, "dataset")
    proto = _choice(protocol, ARCOLEZI_PROTOCOLS, "protocol")
    if split not in ARCOLEZI_SPLITS:
        raise ValueError(f"invalid split={split!r}; valid: {', '.join(map(repr, ARCOLEZI_SPLITS))}")
    if not isinstance(appendix, bool):
        raise TypeError(f"appendix must be a bool, got {appendix!r}")
    tok = _eps_token(epsilon)
    prefix = "Appendix_" if appendix else ""
    return reference_path(f"arcolezi2023/{ds}/{proto}/{split}/{prefix}LGBM_results_{proto}_eps_{tok}.csv")


def read_arcolezi2023(
    dataset: str, protocol: str, split: str, epsilon: float, appendix: bool = False
) -> pd.DataFrame:
    """Read one result table of Arcolezi et al. (2023): one row per seed.

    Parameters
    ----------
    dataset : {"adult", "ACSCoverage", "LSAC"} or the ldpfair names
        ``"adult26k"``, ``"acs_coverage"``, ``"lsac"``.
    protocol : {"GRR", "BLH", "OLH", "RAPPOR", "SUE", "OUE", "SS", "THE"}
        RAPPOR and SUE name the same files.
    split : {"uniform", "k_based"}
        Privacy-budget split.
    epsilon : float
        One of 0.25, 0.5, 1, 2, 4, 8, 10, 20, 50.
    appendix : bool
        The random-number-of-sensitive-attributes experiment (files ``Appendix_*``).

    Returns
    -------
    pandas.DataFrame
        The authors' columns (seed, acc, f1, auc, recall, cm, SP_a_1, ..., OAD)
        plus tn, fp, fn, tp, dataset, protocol (the paper's name), split,
        epsilon and appendix.
    """
    ds = _choice(dataset, ARCOLEZI_DATASETS, "dataset")
    proto = _choice(protocol, ARCOLEZI_PROTOCOLS, "protocol")
    df = _tidy_arcolezi(pd.read_csv(arcolezi2023_file(dataset, protocol, split, epsilon, appendix)))
    df["dataset"] = ds
    df["protocol"] = "RAPPOR" if proto == "SUE" else proto
    df["split"] = split
    df["epsilon"] = float(epsilon)
    df["appendix"] = appendix
    return df


def read_arcolezi2023_nonprivate(dataset: str) -> pd.DataFrame:
    """Read the non-private baseline runs of Arcolezi et al. (2023): one row per seed."""
    ds = _choice(dataset, ARCOLEZI_DATASETS, "dataset")
    rel = f"arcolezi2023/{ds}/non_private/LGBM_results_non_private.csv"
    df = _tidy_arcolezi(pd.read_csv(reference_path(rel)))
    df["dataset"] = ds
    df["protocol"] = "NonDP"
    df["epsilon"] = math.inf
    return df


def read_makhlouf2024(data: str, setting: str) -> pd.DataFrame:
    """Read one result table of Makhlouf et al. (2024), run rows only.

    Parameters
    ----------
    data : str
        ``S1_0.44``, ``S1_0.52``, ``S1_0.6``, ``compas_1``, ``compas_3``,
        ``compas_5``, ``adult_10000``, ``adult_27260`` or ``adult_50000``.
    setting : {"NoLDP", "sLDP", "combsLDP", "indsLDP"}
        Also accepted: the paper's ``noLDP``, ``combLDP``, ``indLDP``.

    Returns
    -------
    pandas.DataFrame
        The 20 run rows per epsilon (standard-deviation rows, ``Seed_num = 20``,
        dropped); column ``epsilon`` (``inf`` for NoLDP), plus ``data`` and
        ``setting``.
    """
    folder = _choice(data, MAKHLOUF_DATA, "data")
    suffix = _choice(setting, MAKHLOUF_SETTINGS, "setting")
    rel = f"makhlouf2024/{folder}/{data}_{suffix}_results.csv"
    df = pd.read_csv(reference_path(rel))
    if "Seed_num" not in df.columns:
        raise ValueError(f"{rel}: no Seed_num column")
    df = df.loc[df["Seed_num"].to_numpy() != 20].reset_index(drop=True)
    if "epsilon" not in df.columns:
        df.insert(1, "epsilon", math.inf)
    df["epsilon"] = df["epsilon"].astype(np.float64)
    df["data"] = data
    df["setting"] = suffix
    return df


#: Bumped when the layout of the compact tables changes (their key also hashes the builder's code).
COMPACT_VERSION = 1
_COMPACT: dict[str, pd.DataFrame] = {}


def compact_table(prefix: str, args: Hashable, build: Callable[[], pd.DataFrame]) -> pd.DataFrame:
    """The frame ``build()`` reads from the authors' files under ``prefix``, read once.

    The first call reads the files (through :func:`reference_path`, each checked against
    its registered sha256) and stores the frame as one pickle in
    ``<cache>/reference/`` (``LDPFAIR_CACHE``, see :func:`ldpfair.config.task_cache_dir`)
    with the sha256 of its bytes beside it; later calls, in this process or another,
    return a copy of it. The file's key hashes ``prefix``, ``args``, the registered sha256
    of every reference file under ``prefix`` (so another version of the authors' files
    is another key), :data:`COMPACT_VERSION` and the source code of this module and of the
    module defining ``build`` (so a changed reader is another key). A compact file whose bytes do not
    match their recorded sha256 (damaged, edited) is ignored and rebuilt from the files.

    Parameters
    ----------
    prefix : str
        Folder of the reference collection the frame is read from, e.g. ``"arcolezi2023/"``.
    args : hashable
        What selects the frame (its ``repr`` enters the key).
    build : callable
        Reads the files and returns the frame.
    """
    h = hashlib.sha256(repr((COMPACT_VERSION, prefix, args)).encode())
    for name, entry in sorted(files("reference").items()):
        if name.startswith(prefix):
            h.update(f"{name}\0{entry.sha256}\n".encode())
    try:  # a builder defined in a notebook or ``python -c`` has no source file
        source = inspect.getsourcefile(build)
    except TypeError:
        source = None
    for code in sorted({__file__, *([source] if source else [])}):  # these readers, the builder's module
        if Path(code).is_file():  # not "<string>" (``python -c``) or a notebook cell
            h.update(Path(code).read_bytes())
    key = f"{prefix.strip('/').replace('/', '_')}-{h.hexdigest()[:32]}"
    if key in _COMPACT:
        return _COMPACT[key].copy()
    folder = config.task_cache_dir() / "reference"
    path, digest = folder / f"{key}.pkl", folder / f"{key}.sha256"
    frame: pd.DataFrame | None = None
    try:
        blob = path.read_bytes()
        if hashlib.sha256(blob).hexdigest() == digest.read_text().strip():
            frame = pickle.loads(blob)  # noqa: S301 (our own file, its checksum checked)
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, AttributeError):
        frame = None  # missing or damaged: read the files again
    if not isinstance(frame, pd.DataFrame):
        frame = build()
        _store(folder, path, digest, pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL))
    _COMPACT[key] = frame
    return frame.copy()


def _store(folder: Path, path: Path, digest: Path, blob: bytes) -> None:
    """Write ``blob`` to ``path`` and its sha256 to ``digest``, atomically; no-op when read-only."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for target, data in ((path, blob), (digest, hashlib.sha256(blob).hexdigest().encode() + b"\n")):
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, target)
    except OSError:
        pass  # a read-only cache folder: the files are read again next time
