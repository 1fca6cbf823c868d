"""Checksummed loaders for every dataset of the five papers.

>>> from ldpfair import datasets
>>> datasets.names()  # doctest: +SKIP
>>> ds = datasets.load("adult26k")  # doctest: +SKIP

Raw files are fetched with pooch (sha256-verified) into a cache, or read from
the folder named by the ``LDPFAIR_DATA_DIR`` environment variable (see
:mod:`ldpfair.datasets.registry`).
"""

from __future__ import annotations

import importlib

from .core import Dataset, info, load, names, register
from .registry import ChecksumError, data_available, fetch

__all__ = [
    "ChecksumError",
    "Dataset",
    "data_available",
    "fetch",
    "info",
    "load",
    "names",
    "register",
]

# Loader modules register their datasets on import.
for _mod in ("arcolezi", "acs", "makhlouf", "adult", "german_credit", "student", "bank_marketing", "others",
             "user_cards"):
    try:
        importlib.import_module(f"{__name__}.{_mod}")
    except ModuleNotFoundError as _exc:  # only a loader module not written yet
        if _exc.name != f"{__name__}.{_mod}":
            raise
del _mod
