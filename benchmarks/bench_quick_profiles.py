"""Wall and CPU time of each paper notebook's quick profile, from an empty cache.

Runs ``ldpfair run <paper> --profile quick -p n_jobs 2`` (``--n-jobs``: both cores of
the 2-core machine the targets are set on) for every paper, each with a fresh
per-task cache (``LDPFAIR_CACHE`` in a temporary folder), so nothing is reused,
and records the wall time and the machine. The "For instructors" page quotes
these times. Results: ``results/benchmarks/quick_profiles.{csv,json}``.

Usage::

    LDPFAIR_DATA_DIR=/path/to/data python benchmarks/bench_quick_profiles.py
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

from ldpfair.experiments.cache import atomic_write_text
from ldpfair.papers import PAPERS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--papers", nargs="*", default=list(PAPERS))
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--label", default="", help="a label for the rows (e.g. before, after)")
    ap.add_argument("--profile", default="quick", help="the profile run (paper: a book chapter's work)")
    ap.add_argument("--n-jobs", type=int, default=2,
                    help="the notebooks' n_jobs parameter (default 2: both cores of the 2-core machine)")
    args = ap.parse_args()
    rows = []
    for paper in args.papers:
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "LDPFAIR_CACHE": str(Path(tmp) / "cache"), "OMP_NUM_THREADS": "1"}
            load = os.getloadavg()[0]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            cli = "import sys; from ldpfair.cli import main; sys.exit(main())"
            subprocess.run([sys.executable, "-c", cli, "run", paper, "--profile", args.profile,
                            "-p", "n_jobs", str(args.n_jobs), "-o", str(Path(tmp) / f"{paper}.ipynb")],
                           check=True, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rows.append({"label": args.label, "profile": args.profile, "paper": paper, "n_jobs": args.n_jobs,
                     "wall_s": round(wall, 1),
                     "cpu_s": round(cpu, 1), "load_1min": round(load, 2),
                     "load_1min_end": round(os.getloadavg()[0], 2)})
        print(f"{args.label} {paper}: {wall:.0f} s wall, {cpu:.0f} CPU s (load {load:.2f})", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame(rows)
    atomic_write_text(out / "quick_profiles.csv", frame.to_csv(index=False))
    meta = {"what": f"ldpfair run <paper> --profile {args.profile}, empty cache, n_jobs={args.n_jobs} "
                    "(CPU: run + kernel)",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpu_count": os.cpu_count(),
            "platform": platform.platform(), "python": platform.python_version()}
    atomic_write_text(out / "quick_profiles.json", json.dumps(meta, indent=2) + "\n")


if __name__ == "__main__":
    main()
