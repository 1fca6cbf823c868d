"""``otter run -a ZIP`` against ``ldpfair assignment grade``: points on seven submission kinds per chapter.

For each chapter given (default: makhlouf2024, hamman2023, xu2019), exports the handout
and the Otter zip (``context="setup"``), makes the seven kinds of submission of
``tests/fixtures_submissions.py`` (right, blank, wrong, other valid route, wrong type, a
raising exercise, a cell raising after the answers), grades them with both graders and
prints one row per chapter and kind: Otter's points per question, ldpfair's, whether
they agree, and the seconds of each grader. ``otter run`` reads only what the zip
bundles (the ``LDPFAIR_*`` folders point at an empty folder) and imports the zip's ldpfair
wheel (installed without dependencies into a folder put first on ``PYTHONPATH``). The test suite runs one
chapter (``tests/test_classroom_otter.py``); this script measures the full table.

Output: ``results/benchmarks/otter_agreement.csv`` and a Markdown table on stdout.

Usage::

    python benchmarks/bench_otter_agreement.py
    python benchmarks/bench_otter_agreement.py xu2019 --jobs 2
"""

from __future__ import annotations

import argparse
import csv
import platform
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _timed(autograder: Path, path: Path, run: Any, site: Path) -> tuple[dict[str, float], float]:
    t = time.perf_counter()
    return run(autograder, path, site=site), time.perf_counter() - t


def main() -> int:
    """Export, grade with both graders, compare; write the CSV; exit 1 on a disagreement."""
    sys.path.insert(0, str(ROOT / "tests"))
    from fixtures_submissions import install_wheel, ldpfair_points, otter_points, write_submissions

    from ldpfair.classroom import export_assignment, grade

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", default=["makhlouf2024", "hamman2023", "xu2019"])
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at a time (both graders)")
    parser.add_argument("--out", default=str(ROOT / "results" / "benchmarks" / "otter_agreement.csv"))
    args = parser.parse_args()
    rows = []
    for paper in args.papers:
        with tempfile.TemporaryDirectory(prefix="bench-otter-") as tmp:
            t0 = time.perf_counter()
            result = export_assignment(paper, output=Path(tmp) / "handout", context="setup")
            export_s = time.perf_counter() - t0
            assert result.autograder is not None, "otter-grader is not installed"
            subs = write_submissions(result.student, result.key, Path(tmp) / "subs")
            t0 = time.perf_counter()
            _, grades = grade(list(subs.values()), result.key, jobs=args.jobs)
            ldpfair_s = (time.perf_counter() - t0) / len(subs)

            site = install_wheel(result.autograder, Path(tmp) / "site")  # the zip's ldpfair in the kernel
            with ThreadPoolExecutor(max_workers=args.jobs) as pool:
                otter = list(pool.map(lambda p, z=result.autograder, s=site: _timed(z, p, otter_points, s),
                                      subs.values()))
            for (kind, _), g, (o, otter_s) in zip(subs.items(), grades, otter, strict=True):
                mine = ldpfair_points(g, paper)
                size = result.autograder.stat().st_size / 1e6
                rows.append({"paper": paper, "kind": kind, "otter": sum(o.values()),
                             "ldpfair": sum(mine.values()), "possible": g.possible,
                             "same_per_question": o == mine, "otter_s": round(otter_s, 1),
                             "ldpfair_s_mean": round(ldpfair_s, 1), "export_s": round(export_s, 1),
                             "zip_mb": round(size, 1),
                             "machine": f"{platform.node()} ({platform.processor() or platform.machine()})"})
                print(rows[-1], flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print("\n| paper | kind | otter | ldpfair | of | same per question | otter s |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['paper']} | {r['kind']} | {r['otter']:g} | {r['ldpfair']:g} | {r['possible']:g} | "
              f"{'yes' if r['same_per_question'] else 'NO'} | {r['otter_s']} |")
    print(f"\nwritten {out}")
    return 0 if all(r["same_per_question"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
