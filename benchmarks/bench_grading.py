"""Benchmark of ``ldpfair assignment grade``: seconds to grade one submission per chapter, sandboxed.

For each chapter given (default: every paper), exports the handout with ``context="setup"``
(the handout runs only the setup its exercises need), then grades its own key as a
submission in bubblewrap (full marks expected) and reports the wall seconds of the grading
alone (the export, which runs the key once, is timed apart). The issue's target is under
60 s per notebook on a 2-core machine.

With ``--variants N`` the export draws N per-student variants (one key each) and the
submissions are the variants' keys stamped as their handouts, spread over the variants,
graded against ``<paper>_variants.json`` (each against its own key). The issue's target
for a course is 30 submissions with ``--jobs 2`` under 15 minutes. The machine's load
average (1 min) before and after is recorded: on a shared machine the figures are an
upper bound.

Output: ``results/benchmarks/grading.csv`` (one row per chapter) and a table on stdout.

Usage::

    python benchmarks/bench_grading.py                 # every chapter (minutes)
    python benchmarks/bench_grading.py xu2019 --jobs 2 --copies 4
    python benchmarks/bench_grading.py xu2019 --jobs 2 --copies 30 --variants 10
"""

from __future__ import annotations

import argparse
import copy
import csv
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path


def _stamped(key: Path, handout: Path, dest: Path) -> Path:
    """A right submission of one variant: its key carrying its handout's metadata (the stamp)."""
    import nbformat

    nb = nbformat.read(key, 4)
    nb.metadata["ldpfair"] = copy.deepcopy(nbformat.read(handout, 4).metadata["ldpfair"])
    nbformat.write(nb, dest)
    return dest


def main() -> None:
    """Export, grade and time each chapter; write the CSV."""
    from ldpfair.classroom import export_assignment, export_variants, grade
    from ldpfair.papers import PAPERS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", help="chapters (default: all)")
    parser.add_argument("--copies", type=int, default=1, help="submissions graded per chapter")
    parser.add_argument("--jobs", type=int, default=1, help="submissions graded at a time")
    parser.add_argument("--variants", type=int, default=0, help="per-student variants (0: one key)")
    parser.add_argument("--out", default="results/benchmarks/grading.csv")
    args = parser.parse_args()
    rows = []
    for paper in args.papers or list(PAPERS):
        with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
            t0 = time.perf_counter()
            subs = Path(tmp) / "subs"
            subs.mkdir()
            if args.variants:
                made = export_variants(paper, args.variants, seed=43, output=Path(tmp) / "handout")
                key_arg: Path = made.manifest
                pairs = list(zip(made.keys.values(), made.handouts, strict=True))
                copies = [_stamped(*pairs[i % len(pairs)], subs / f"student{i}.ipynb")
                          for i in range(args.copies)]
            else:
                result = export_assignment(paper, output=Path(tmp) / "handout", context="setup", otter=False)
                key_arg = result.key
                copies = [Path(shutil.copy(result.key, subs / f"student{i}.ipynb"))
                          for i in range(args.copies)]
            export_s = time.perf_counter() - t0
            load_before = os.getloadavg()[0]
            t0 = time.perf_counter()
            key, grades = grade(copies, key_arg, timeout=600, jobs=args.jobs)
            grade_s = time.perf_counter() - t0
            load_after = os.getloadavg()[0]
            full = sum(g.score == key.possible for g in grades)
            rows.append({"paper": paper, "variants": args.variants, "export_s": f"{export_s:.1f}",
                         "submissions": args.copies, "jobs": args.jobs, "grade_s": f"{grade_s:.1f}",
                         "per_notebook_s": f"{max(g.seconds for g in grades):.1f}",
                         "full_marks": f"{full}/{len(grades)}", "load_before": f"{load_before:.1f}",
                         "load_after": f"{load_after:.1f}", "cpus": os.cpu_count(),
                         "machine": platform.node()})
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
