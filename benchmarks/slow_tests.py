"""Choose the slow tier from a ``pytest --durations=0`` report and write ``tests/slow_tests.txt``.

Reads the report of one run of the whole suite (``pytest -m "" -p no:cacheprovider
--durations=0 -q > durations.txt``), adds each test's setup, call and teardown
times, and lists the slowest tests until the rest (the fast tier) sums to at most
``--budget`` seconds. A parametrised test whose cases together are slow is listed
once, without its parameters (every case is slow then). Prints the estimated
seconds of both tiers; ``--write`` replaces ``tests/slow_tests.txt`` (the tests
already marked ``@pytest.mark.slow`` in their files need no line).

Usage::

    python benchmarks/slow_tests.py durations.txt --budget 120 [--write]
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from pathlib import Path

_LINE = re.compile(r"^\s*([0-9.]+)s\s+(setup|call|teardown)\s+(\S.*?)\s*$")


def durations(report: str) -> dict[str, float]:
    """Seconds per node id (setup + call + teardown) of a ``--durations=0`` report."""
    out: dict[str, float] = defaultdict(float)
    for line in report.splitlines():
        m = _LINE.match(line)
        if m:
            out[m.group(3)] += float(m.group(1))
    return dict(out)


def choose(times: dict[str, float], budget: float) -> tuple[list[str], float, float]:
    """The ids to mark slow (grouped by test function) so that the rest sums to ``budget``.

    Returns
    -------
    (ids, fast_s, slow_s)
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for node in times:
        groups[node.split("[", 1)[0]].append(node)
    cost = {g: sum(times[n] for n in nodes) for g, nodes in groups.items()}
    total = sum(cost.values())
    chosen: list[str] = []
    fast = total
    for g in sorted(cost, key=cost.__getitem__, reverse=True):
        if fast <= budget:
            break
        chosen.append(g)
        fast -= cost[g]
    return sorted(chosen), fast, total - fast


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report", help="output of pytest --durations=0")
    ap.add_argument("--budget", type=float, default=120.0, help="seconds left to the fast tier")
    ap.add_argument("--write", action="store_true", help="replace tests/slow_tests.txt")
    args = ap.parse_args()
    times = durations(Path(args.report).read_text(encoding="utf-8"))
    ids, fast, slow = choose(times, args.budget)
    print(f"{len(times)} timed tests: fast tier {fast:.0f} s, slow tier {slow:.0f} s "
          f"({len(ids)} test functions listed)")
    if args.write:
        head = ("# The slow tier (see tests/conftest.py): node ids without parameters, one a line,\n"
                f"# chosen by benchmarks/slow_tests.py (budget {args.budget:g} s) from --durations=0.\n")
        Path("tests/slow_tests.txt").write_text(head + "".join(f"{i}\n" for i in ids), encoding="utf-8")


if __name__ == "__main__":
    main()
