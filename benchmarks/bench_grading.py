"""Benchmark of ``ldpfair assignment grade``: seconds to grade one submission per chapter, sandboxed.

For each chapter given (default: every paper), exports the handout with ``context="setup"``
(the handout runs only the setup its exercises need), then grades its own key as a
submission in bubblewrap (full marks expected) and reports the wall seconds of the grading
alone (the export, which runs the key once, is timed apart). The issue's target is under
60 s per notebook on a 2-core machine.

Output: ``results/benchmarks/grading.csv`` (one row per chapter) and a table on stdout.

Usage::

    python benchmarks/bench_grading.py                 # every chapter (minutes)
    python benchmarks/bench_grading.py xu2019 --jobs 2 --copies 4
"""

from __future__ import annotations

import argparse
import csv
import platform
import shutil
import tempfile
import time
from pathlib import Path


def main() -> None:
    """Export, grade and time each chapter; write the CSV."""
    from ldpfair.classroom import export_assignment, grade
    from ldpfair.papers import PAPERS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", help="chapters (default: all)")
    parser.add_argument("--copies", type=int, default=1, help="submissions graded per chapter")
    parser.add_argument("--jobs", type=int, default=1, help="submissions graded at a time")
    parser.add_argument("--out", default="results/benchmarks/grading.csv")
    args = parser.parse_args()
    rows = []
    for paper in args.papers or list(PAPERS):
        with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
            t0 = time.perf_counter()
            result = export_assignment(paper, output=Path(tmp) / "handout", context="setup", otter=False)
            export_s = time.perf_counter() - t0
            subs = Path(tmp) / "subs"
            subs.mkdir()
            copies = [shutil.copy(result.key, subs / f"student{i}.ipynb") for i in range(args.copies)]
            t0 = time.perf_counter()
            key, grades = grade(copies, result.key, timeout=600, jobs=args.jobs)
            grade_s = time.perf_counter() - t0
            full = sum(g.score == key.possible for g in grades)
            rows.append({"paper": paper, "export_s": f"{export_s:.1f}", "submissions": args.copies,
                         "jobs": args.jobs, "grade_s": f"{grade_s:.1f}",
                         "per_notebook_s": f"{max(g.seconds for g in grades):.1f}",
                         "full_marks": f"{full}/{len(grades)}", "machine": platform.node()})
            print(rows[-1], flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
