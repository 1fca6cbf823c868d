"""Shared pytest configuration.

Tests marked ``data`` need the real dataset files. They run whenever the files
are reachable (``LDPFAIR_DATA_DIR`` or the download cache; CI sets
``LDPFAIR_DATA_DIR=../shared/data``) and are skipped with the reason otherwise.

Tiers: ``pytest`` runs the fast tier (``addopts = -m "not slow"`` in pyproject.toml);
``pytest -m slow`` runs the rest, and ``pytest -m ""`` everything. A test is slow
when it carries ``@pytest.mark.slow`` or its node id (or the id without its
parameters, which marks every case) is a line of ``tests/slow_tests.txt``, the list
chosen from ``pytest --durations=0`` (``benchmarks/slow_tests.py`` regenerates it).
A line that matches no collected test only costs nothing: the test it named runs in
the fast tier, so no test is ever dropped from the union of the two.
"""

from __future__ import annotations

import os
from pathlib import Path

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


def _slow_ids() -> frozenset[str]:
    """The node ids listed in ``tests/slow_tests.txt`` (lines starting with ``#`` and blank lines skipped)."""
    path = Path(__file__).with_name("slow_tests.txt")
    if not path.is_file():
        return frozenset()
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


@pytest.hookimpl(tryfirst=True)  # before the -m selection of pytest's mark plugin
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    slow = _slow_ids()
    for item in items:
        if item.nodeid in slow or item.nodeid.split("[", 1)[0] in slow:
            item.add_marker(pytest.mark.slow)
    ok, reason = _data_reachable()
    if ok:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "data" in item.keywords:
            item.add_marker(skip)
