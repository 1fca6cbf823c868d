"""Shared pytest configuration.

Tests marked ``data`` need the real dataset files. They run whenever the files
are reachable (``LDPFAIR_DATA_DIR`` or the download cache; CI sets
``LDPFAIR_DATA_DIR=../shared/data``) and are skipped with the reason otherwise.
"""

from __future__ import annotations

import os

import pytest

import ldpfair  # noqa: F401  (first: selects the OpenBLAS kernels before anything loads numpy)


def _data_reachable() -> tuple[bool, str]:
    try:
        from ldpfair.datasets import data_available
    except ImportError:
        root = os.environ.get("LDPFAIR_DATA_DIR")
        if root and os.path.isdir(root):
            return True, ""
        return False, "LDPFAIR_DATA_DIR is not set to an existing folder"
    ok = data_available()
    return ok, "" if ok else "dataset files not reachable (set LDPFAIR_DATA_DIR or run `ldpfair data fetch`)"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    ok, reason = _data_reachable()
    if ok:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "data" in item.keywords:
            item.add_marker(skip)
