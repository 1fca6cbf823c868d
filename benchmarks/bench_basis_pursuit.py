"""Benchmark of basis pursuit (hamman2023's Algorithm 2): certified solver, LARS homotopy, HiGHS.

``ldpfair.attacks.basis_pursuit`` solves ``min ||s||_1 s.t. H s = eta``. The
certified solver (``method="certified"``, the default since version 2 of the hamman2023
trial functions) is a primal-dual interior-point method whose iterates propose a
support until a certificate in float64 proves one optimal (``ldpfair.attacks.certified_bp``).
``method="lars"`` is the full path of scikit-learn's ``lars_path`` (the former default),
``method="highs"`` the linear program in HiGHS (scipy's ``linprog``). This script times them in CPU seconds
on one BLAS thread on the synthetic problems of the paper (random binary models,
``N0`` of ``n`` people disadvantaged), with exact answers and with Attribute-Conceal
answers, and checks that they return the same solution and the same recovered
attributes. HiGHS runs at the smaller size only unless ``--highs-large`` is given
(it takes minutes per problem at ``n = 10,000``).

Output: ``results/benchmarks/basis_pursuit.csv`` (one row per problem and solver)
and ``basis_pursuit.json`` (machine, versions).

Usage::

    python benchmarks/bench_basis_pursuit.py            # about five minutes on one core
    python benchmarks/bench_basis_pursuit.py --highs-large   # HiGHS at n = 10,000 too (about an hour)
    python benchmarks/bench_basis_pursuit.py --quick    # small sizes, seconds
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import ldpfair  # noqa: E402, F401  (before numpy: the BLAS kernels the committed results used)

# isort: split
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import scipy  # noqa: E402
import sklearn  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from ldpfair import attacks  # noqa: E402
from ldpfair.datasets.others import hamman_attributes  # noqa: E402
from ldpfair.experiments.cache import atomic_write_text  # noqa: E402


def problem(n: int, n0: int, m: int, epsilon: float, seed: int) -> dict:
    """One synthetic Attribute-Reveal problem; ``epsilon = inf`` gives exact answers."""
    rng = np.random.default_rng(seed)
    a = hamman_attributes(n, n0, rng)
    H = attacks.random_binary_models(m, n, rng)  # noqa: N806
    n1, k0 = attacks.group_sizes(a)
    answers = attacks.answer_queries(attacks.sp_queries(H, a), n1, k0, epsilon, "conceal", rng)
    return {"a": a, "H": H, "answers": answers, "n1": n1, "n0": k0}


def solve(p: dict, method: str) -> tuple[np.ndarray, float, float, float]:
    """Basis-pursuit solution, CPU seconds, leakage (%) and residual of Algorithm 2 with one solver.

    The residual is ``max |H s - eta|`` with ``eta = H r - answers``, written as the
    answers the solution implies, ``H (r - s)``, against the answers.
    """
    with threadpool_limits(1):
        start = time.process_time()
        res = attacks.reveal_compressed(p["H"], p["answers"], p["n1"], p["n0"], method=method)
        seconds = time.process_time() - start
    s = res.estimate
    residual = float(np.abs(p["H"] @ (1.0 / p["n1"] - s) - p["answers"]).max())
    return s, seconds, attacks.leakage(p["a"], res.a_hat), residual


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    ap.add_argument("--highs-large", action="store_true", help="also HiGHS at the large size (minutes)")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--out", default="results/benchmarks")
    args = ap.parse_args()
    small, large = ((400, 20, 100), (1000, 50, 200)) if args.quick else ((2000, 50, 400), (10000, 100, 1000))
    epsilons = [np.inf, 100.0, 10.0]
    rows, solutions, load_timed = [], [], os.getloadavg()
    for (n, n0, m), highs in ((small, True), (large, args.highs_large)):
        for eps in epsilons:
            for seed in range(args.seeds):
                p = problem(n, n0, m, eps, seed)
                s_lars, t_lars, leak_lars, resid_lars = solve(p, "lars")
                row = {"n": n, "n0": n0, "m": m, "epsilon": eps, "seed": seed,
                       "lars_s": t_lars, "lars_leakage": leak_lars,
                       "lars_l1": float(np.abs(s_lars).sum()), "lars_residual": resid_lars}
                s_auto, t_auto, leak_auto, resid_auto = solve(p, "certified")
                thr = 0.5 * (1.0 / p["n1"] + 1.0 / p["n0"])
                row.update(certified_s=t_auto, certified_leakage=leak_auto,
                           certified_l1=float(np.abs(s_auto).sum()),
                           certified_residual=resid_auto,
                           certified_vs_lars_flips=int(np.sum((s_auto > thr) != (s_lars > thr))))
                rows.append(row)
                solutions.append((highs, s_lars, s_auto, thr))
                print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    # HiGHS last (minutes per problem at the large size), after every timing of the two fast solvers
    for row, (highs, s_lars, s_auto, thr) in zip(rows, solutions, strict=True):
        if not highs:
            continue
        p = problem(row["n"], row["n0"], row["m"], row["epsilon"], row["seed"])
        s_lp, t_lp, leak_lp, _ = solve(p, "highs")
        row.update(highs_s=t_lp, highs_leakage=leak_lp, highs_l1=float(np.abs(s_lp).sum()),
                   max_abs_diff=float(np.abs(s_lars - s_lp).max()),
                   same_recovery=bool(row["lars_leakage"] == leak_lp),
                   certified_vs_highs_flips=int(np.sum((s_auto > thr) != (s_lp > thr))),
                   lars_vs_highs_flips=int(np.sum((s_lars > thr) != (s_lp > thr))))
        print({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    df = pd.DataFrame(rows)
    meta = {"machine": {"platform": platform.platform(), "cpu_count": os.cpu_count(),
                        "python": platform.python_version()},
            "versions": {"numpy": np.__version__, "scipy": scipy.__version__,
                         "scikit-learn": sklearn.__version__},
            "threads": 1, "timer": "time.process_time (CPU seconds)",
            "quick": args.quick, "seeds": args.seeds,
            "load_average_at_start": load_timed}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "basis_pursuit.csv", df.to_csv(index=False))
    atomic_write_text(out / "basis_pursuit.json", json.dumps(meta, indent=2) + "\n")


if __name__ == "__main__":
    main()
