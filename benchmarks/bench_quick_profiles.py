"""Wall time of each paper notebook's quick profile, from an empty cache.

Runs ``ldpfair run <paper> --profile quick`` for every paper, each with a fresh
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
    args = ap.parse_args()
    rows = []
    for paper in args.papers:
        with tempfile.TemporaryDirectory() as tmp:
            env = {**os.environ, "LDPFAIR_CACHE": str(Path(tmp) / "cache"), "OMP_NUM_THREADS": "1"}
            t0 = time.perf_counter()
            cli = "import sys; from ldpfair.cli import main; sys.exit(main())"
            subprocess.run([sys.executable, "-c", cli, "run", paper, "--profile", "quick",
                            "-o", str(Path(tmp) / f"{paper}.ipynb")], check=True, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.perf_counter() - t0
        rows.append({"paper": paper, "wall_s": round(wall, 1)})
        print(f"{paper}: {wall:.0f} s", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame(rows)
    atomic_write_text(out / "quick_profiles.csv", frame.to_csv(index=False))
    meta = {"what": "ldpfair run <paper> --profile quick, empty cache, n_jobs=1",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpu_count": os.cpu_count(),
            "platform": platform.platform(), "python": platform.python_version()}
    atomic_write_text(out / "quick_profiles.json", json.dumps(meta, indent=2) + "\n")


if __name__ == "__main__":
    main()
