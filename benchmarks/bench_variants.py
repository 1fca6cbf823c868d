"""How many distinct answers N per-student variants give, per graded name (issue #43, item 4).

For each chapter given (default: every paper), exports the assignment with ``--variants N``
(``context="setup"``, a fixed seed), reads the N keys and counts, per graded name, the
distinct expected values: two values count as one when the grader would accept either
for the other (:func:`ldpfair.classroom.checks.judge` with the answer's tolerance). A
name answered alike by every variant (count 1) is one the book's public solution answers.

Output: a Markdown table on stdout and ``results/benchmarks/variants.csv``.

Usage::

    python benchmarks/bench_variants.py                      # every chapter, N = 10 (minutes)
    python benchmarks/bench_variants.py xu2019 hamman2023 -n 10 --seed 43
"""

from __future__ import annotations

import argparse
import csv
import tempfile
import time
from pathlib import Path
from typing import Any


def distinct(values: list[Any], spec: dict[str, Any]) -> int:
    """Values that are pairwise not accepted for one another under ``spec``'s tolerance."""
    from ldpfair.classroom.checks import judge

    kept: list[Any] = []
    for v in values:
        if not any(judge({"value": v}, {**spec, "expected": k}) == "" for k in kept):
            kept.append(v)
    return len(kept)


def main() -> None:
    """Export N variants per chapter and print the distinct answers per graded name."""
    from ldpfair.classroom import list_exercises, load_key
    from ldpfair.classroom.variant_export import export_variants
    from ldpfair.papers import PAPERS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("papers", nargs="*", help="chapters (default: all)")
    parser.add_argument("-n", "--variants", type=int, default=10)
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--out", default="results/benchmarks/variants.csv")
    args = parser.parse_args()
    rows = []
    print("| paper | exercise | graded name | varied parameters | distinct answers (of N) |")
    print("|---|---|---|---|---|")
    for paper in args.papers or list(PAPERS):
        with tempfile.TemporaryDirectory(prefix="bench-variants-") as tmp:
            t0 = time.perf_counter()
            try:
                result = export_variants(paper, args.variants, seed=args.seed, output=tmp)
            except ValueError as exc:
                print(f"| {paper} | - | - | - | not exported: {exc} |", flush=True)
                continue
            seconds = time.perf_counter() - t0
            keys = [load_key(p) for p in result.keys.values()]
            first = keys[0]
            params = {e.number: ", ".join(v.name for v in e.variables) or "(none)"
                      for e in list_exercises(paper)}
            for spec in first.specs:
                values = [next(s["expected"] for s in k.specs if s["name"] == spec["name"]) for k in keys]
                n = distinct(values, spec)
                rows.append({"paper": paper, "exercise": spec["exercise"], "name": spec["name"],
                             "varied": params[spec["exercise"]], "distinct": n, "variants": len(keys),
                             "export_s": f"{seconds:.0f}"})
                print(f"| {paper} | {spec['exercise']} | `{spec['name']}` | {params[spec['exercise']]} | "
                      f"{n} / {len(keys)} |", flush=True)
            print(f"<!-- {paper}: {len(keys)} keys computed in {seconds:.0f} s -->", flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["paper", "exercise", "name", "varied", "distinct", "variants",
                                                "export_s"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
