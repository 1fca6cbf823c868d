"""Wall and CPU time of the README's book build from a fresh copy of each given commit.

For every revision (default: ``HEAD^1`` and ``HEAD``, i.e. the previous main and a session's
merge onto it, in that order),
``git archive`` extracts the commit into a temporary folder, which gets a fresh
``git init`` (the book's execution cache keys on the files git lists) and an empty task
cache (``LDPFAIR_CACHE``), and ``jupyter-book build . --all -W --keep-going`` runs there
with this environment's packages; ``MPLBACKEND`` is unset, as in CI. One row per
revision: wall seconds, CPU seconds of the build and its children, the 1-minute load
average before and after. The revisions run one after the other in the same call, so
they share the machine's state.

Usage::

    LDPFAIR_DATA_DIR=/path/to/data python benchmarks/bench_book.py [REV ...] [--out DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def _extract(rev: str, into: Path) -> None:
    archive = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, capture_output=True,
                             check=True).stdout
    tar = into.with_suffix(".tar")
    tar.write_bytes(archive)
    with tarfile.open(tar) as fh:
        fh.extractall(into, filter="data")
    tar.unlink()
    subprocess.run(["git", "init", "-q"], cwd=into, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("revs", nargs="*", default=["HEAD^1", "HEAD"],
                    help="commits to build (default: HEAD^1 HEAD)")
    ap.add_argument("--out", default="benchmarks/fast_loop/book_build.csv")
    args = ap.parse_args()
    jb = shutil.which("jupyter-book", path=str(Path(sys.executable).parent)) or "jupyter-book"
    rows = []
    for rev in args.revs:
        sha = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.strip()
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "book"
            _extract(rev, src)
            env = {k: v for k, v in os.environ.items() if k not in ("MPLBACKEND", "PYTHONPATH")}
            env.update(LDPFAIR_CACHE=str(Path(tmp) / "cache"), PYTHONPATH=str(src))
            load = os.getloadavg()[0]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            run = subprocess.run([jb, "build", ".", "--all", "-W", "--keep-going"], cwd=src, env=env,
                                 capture_output=True, text=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if run.returncode != 0:
            sys.exit(f"the build of {rev} failed:\n{(run.stdout + run.stderr)[-3000:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rows.append({"rev": sha, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                     "load_1min": round(load, 2), "load_1min_end": round(os.getloadavg()[0], 2),
                     "cores": os.cpu_count(), "date": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        print(f"{rev} ({sha}): {wall:.0f} s wall, {cpu:.0f} CPU s (load {load:.2f})", flush=True)
    out = ROOT / args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out, index=False)


if __name__ == "__main__":
    main()
