"""The privacy door's audit of every built-in protocol: mechanism x epsilon x k (issue #44).

Prints one row per (mechanism, epsilon, k): verdict, the empirical audit's lower
bound, the exact level where known, and the CPU seconds of the audit, with the
door's sample sizes (:func:`ldpfair.ldp.plugins.samples_at`). Run::

    python benchmarks/bench_audit_door.py [--k 2 16 128] [--eps 0.5 1 4]

Timings are CPU seconds of this process (``time.process_time``); on a shared
machine say so when reporting them.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from ldpfair.ldp import PROTOCOLS, make_protocol
from ldpfair.ldp.audit import DEFAULT_SAMPLES, PrivacyAuditError, audit, power_line
from ldpfair.ldp.plugins import samples_at


def main() -> None:
    """Audit each built-in protocol at each (epsilon, k) and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, nargs="+", default=[2, 16, 128])
    ap.add_argument("--eps", type=float, nargs="+", default=[0.5, 1.0, 4.0])
    ap.add_argument("--mechanisms", nargs="+", default=list(PROTOCOLS))
    args = ap.parse_args()
    print("| mechanism | epsilon | k | verdict | audit bound | exact level | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for k in args.k:
        for eps in args.eps:
            for name in args.mechanisms:
                rng = np.random.default_rng(np.random.SeedSequence([44, k, int(eps * 10)]))
                t0 = time.process_time()
                try:
                    mech = make_protocol(name, k, eps)
                    r = audit(mech, eps, samples=samples_at(k, DEFAULT_SAMPLES), rng=rng, name=name)
                    verdict, bound, level = "admitted", f"{r.lower_bound:.3f}", r.level
                except PrivacyAuditError as exc:
                    verdict, bound, level = f"refused: {exc}", "-", math.nan
                dt = time.process_time() - t0
                lv = "-" if math.isnan(level) else f"{level:.4f}"
                print(f"| {name} | {eps:g} | {k} | {verdict} | {bound} | {lv} | {dt:.1f} |", flush=True)
    for eps in args.eps:
        print(power_line(eps))


if __name__ == "__main__":
    main()
