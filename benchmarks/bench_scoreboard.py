"""CPU seconds of the scoreboard and the claims (every paper), computed from scratch.

Runs ``ldpfair.scoreboard.scoreboard()`` and ``claims_overview()`` in a fresh Python
process with an empty cache folder (``LDPFAIR_CACHE`` in a temporary folder, so no
memo, no compact copy of the authors' runs), once cold and then once more in a second
process that finds the compact copy the first wrote (the book's case after its first
page). Optionally (``--profile FILE``) writes a cProfile of the cold run. Prints and
writes ``results/benchmarks/scoreboard.{csv,json}`` with the load average of the
machine, since CPU seconds on a shared machine still vary with it.

Usage::

    python benchmarks/bench_scoreboard.py [--profile /tmp/scoreboard.pstats]
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

_CHILD = """
import time, sys
t0 = time.process_time(); w0 = time.perf_counter()
from ldpfair import scoreboard
board = scoreboard.scoreboard(); claims = scoreboard.claims_overview()
print(f"{time.process_time() - t0:.2f} {time.perf_counter() - w0:.2f} {len(board)} {len(claims)}")
"""


def _run(env: dict[str, str], profile: str | None) -> tuple[float, float, int, int]:
    script = Path(env["LDPFAIR_CACHE"]).parent / "child.py"
    script.write_text(_CHILD)
    cmd = [sys.executable]
    if profile:
        cmd += ["-m", "cProfile", "-o", profile]
    out = subprocess.run([*cmd, str(script)], env=env, check=True, capture_output=True, text=True)
    cpu, wall, n_board, n_claims = out.stdout.split()[-4:]
    return float(cpu), float(wall), int(n_board), int(n_claims)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default=None, help="cProfile output of the cold run")
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--label", default="", help="a label for the row (e.g. the git commit)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "LDPFAIR_CACHE": str(Path(tmp) / "cache"), "OMP_NUM_THREADS": "1"}
        for run in ("cold", "warm"):
            load = os.getloadavg()[0]
            cpu, wall, nb, nc = _run(env, args.profile if run == "cold" else None)
            rows.append({"label": args.label, "run": run, "cpu_s": cpu, "wall_s": wall,
                         "board_rows": nb, "claims_rows": nc, "load_1min": round(load, 2)})
            print(f"{run}: {cpu:.1f} CPU s, {wall:.1f} s wall, load {load:.2f} "
                  f"({nb} scoreboard rows, {nc} claims)", flush=True)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out / "scoreboard.csv", index=False)
    meta = {"what": "scoreboard() + claims_overview() of every paper, fresh process, empty cache",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpu_count": os.cpu_count(),
            "platform": platform.platform(), "python": platform.python_version()}
    (out / "scoreboard.json").write_text(json.dumps(meta, indent=2) + "\n")


if __name__ == "__main__":
    main()
