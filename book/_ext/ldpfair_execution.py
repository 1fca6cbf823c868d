"""Sphinx extension of the ldpfair book: every notebook executed ahead, one per core.

Jupyter Book 1 runs Sphinx in one process, so MyST-NB executes the book's notebooks
one after the other while Sphinx reads the pages. The book uses MyST-NB's ``cache``
execution mode instead (``execute_notebooks: cache`` in ``_config.yml``): a page
whose code matches an execution stored in the jupyter-cache under
``_build/.jupyter_cache`` takes its outputs from there. This extension fills that
cache before Sphinx reads anything:

1. On ``env-before-read-docs`` it takes every page to be read that MyST-NB reads as
   a notebook (MyST-NB's own reader decides, and its execution exclude patterns
   apply), adds it to the cache's project and runs jupyter-cache's ``local-parallel``
   executor, one process per core, over those whose code has no stored execution.
   Each notebook runs in its own folder, as MyST-NB runs it. MyST-NB then finds
   every page in the cache; a notebook that failed here is executed again by
   MyST-NB, which reports the error as usual (a failed build under ``-W``).
2. The cache matches a notebook on its code alone, but the book's pages also read
   the ``ldpfair`` package, the committed results and the environment. The
   extension therefore keys the whole cache on a digest of every file of the
   repository that git tracks or would track (the pages included), the installed
   distributions and their versions, the Python version and the ``LDPFAIR_*``,
   ``OPENBLAS_*`` and ``MPLBACKEND`` variables. When the digest differs from the one
   the cache was filled under, the cache is emptied and every notebook runs again;
   outputs are only reused by a rebuild in which none of these changed. A clean
   clone has no cache, so its build (CI's) executes every notebook.
3. A book build writes no figure files (``LDPFAIR_FIGURE_FILES=0`` unless set): the
   pages show each figure from the notebook's output; ``ldpfair run`` writes them.

Registered in ``_config.yml`` under ``sphinx: local_extensions``.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging as std_logging
import os
import subprocess
import sys
import time
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Environment variables whose values are part of the cache's key (prefixes).
KEYED_VARIABLES = ("LDPFAIR_", "OPENBLAS_", "MPLBACKEND")
#: Folders never part of the key when git cannot list the files (outputs, caches, environments).
_SKIPPED_DIRS = {"_build", "runs", "__pycache__", "figures", "node_modules", "build", "dist", "venv"}


def _project_files(root: Path) -> list[Path]:
    """Every file that git tracks or would track under ``root``; else every file outside outputs."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             cwd=root, capture_output=True, check=True).stdout
        return sorted(root / p for p in out.decode("utf-8").split("\0") if p)
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS
                             and not (Path(folder) / d / "pyvenv.cfg").exists())
            files.extend(Path(folder) / n for n in names)
        return sorted(files)


def project_digest(root: Path) -> dict[str, Any]:
    """What the book's outputs depend on besides each notebook's code, with its sha256.

    Parameters
    ----------
    root : Path
        The book's source folder (the repository).

    Returns
    -------
    dict
        ``files`` (how many were hashed), ``python``, ``variables`` (the keyed
        environment variables and their values) and ``sha256`` (of the files' paths
        and bytes, the distributions and versions, and the two entries before).
    """
    h = hashlib.sha256()
    files = [f for f in _project_files(root) if f.is_file()]
    for f in files:
        h.update(str(f.relative_to(root)).encode() + b"\0")
        with open(f, "rb") as fh:
            h.update(hashlib.file_digest(fh, "sha256").digest())
    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    variables = {k: v for k, v in sorted(os.environ.items()) if k.startswith(KEYED_VARIABLES)}
    key = {"files": len(files), "python": sys.version, "variables": variables}
    h.update(json.dumps([dists, key], sort_keys=True).encode())
    return {**key, "sha256": h.hexdigest()}


def _notebooks(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> list[tuple[Path, dict]]:
    """(path, jupyter-cache read data) of each page in ``docnames`` that MyST-NB executes."""
    from myst_nb.core.read import create_nb_reader

    nb_config = env.mystnb_config
    found = []
    for docname in docnames:
        path = Path(env.doc2path(docname))
        if any(fnmatch(str(path), p) for p in nb_config.execution_excludepatterns):
            continue
        text = path.read_text(encoding="utf-8")
        reader = create_nb_reader(str(path), env.myst_config, nb_config, text)
        if reader is None:
            continue
        metadata = reader.read(text).metadata.get("mystnb", {})
        if metadata.get("execution_mode", nb_config.execution_mode) != "cache":
            continue  # a page that sets its own mode is executed (or not) by MyST-NB
        found.append((path, reader.read_fmt or {"name": "nbformat", "type": "plugin"}))
    return found


def execute_ahead(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Fill MyST-NB's jupyter-cache for ``docnames``, one notebook per core (see the module)."""
    from jupyter_cache import get_cache
    from jupyter_cache.executors import load_executor

    nb_config = env.mystnb_config
    if nb_config.execution_mode != "cache":
        return
    cache_path = Path(nb_config.execution_cache_path or Path(app.outdir).parent / ".jupyter_cache")
    cache = get_cache(cache_path)
    stamp_file = cache_path.with_name(cache_path.name + ".ldpfair-key.json")
    digest = project_digest(Path(app.srcdir))
    try:
        previous = json.loads(stamp_file.read_text(encoding="utf-8")).get("sha256")
    except (OSError, ValueError):
        previous = None
    if previous != digest["sha256"]:
        if cache.list_cache_records() or cache.list_project_records():
            logger.info("[ldpfair] the package, results or environment changed: "
                        "every notebook runs again")
        cache.clear_cache()
        cache = get_cache(cache_path)
        stamp_file.write_text(json.dumps(digest, indent=1), encoding="utf-8")
    notebooks = _notebooks(app, env, docnames)
    # Largest first, so that the processes finish together (size stands in for running time).
    notebooks.sort(key=lambda item: -item[0].stat().st_size)
    uris = [str(cache.add_nb_to_project(str(p), read_data=fmt).uri) for p, fmt in notebooks]
    todo = [r.uri for r in cache.list_unexecuted(uris)]
    if not todo:
        logger.info(f"[ldpfair] all {_count(len(uris))} are in the cache")
        return
    quiet = std_logging.getLogger("ldpfair.book.execution")
    quiet.setLevel(std_logging.WARNING)
    t0 = time.perf_counter()
    logger.info(f"[ldpfair] executing {_count(len(todo))}, {os.cpu_count()} at a time")
    result = load_executor("local-parallel", cache=cache, logger=quiet).run_and_cache(
        filter_uris=todo, timeout=nb_config.execution_timeout,
        allow_errors=nb_config.execution_allow_errors)
    failed = result.excepted + result.errored
    logger.info(f"[ldpfair] {_count(len(result.succeeded))} executed in {time.perf_counter() - t0:.0f} s"
                + (f"; {len(failed)} failed and run again by MyST-NB: {', '.join(failed)}" if failed else ""))


def _count(n: int) -> str:
    return f"{n} notebook" + ("" if n == 1 else "s")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the extension."""
    if not os.environ.get("LDPFAIR_FIGURE_FILES"):
        os.environ["LDPFAIR_FIGURE_FILES"] = "0"  # inherited by the kernels
    app.setup_extension("myst_nb")
    app.connect("env-before-read-docs", execute_ahead)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
