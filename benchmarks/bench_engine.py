"""Benchmark of the experiment engine on the arcolezi2023 Adult grid.

Measures (1) the fraction of each cell's time spent outside model fitting
(loading, splitting, perturbation, encoding, prediction, metrics, bookkeeping)
and (2) the speed-up of two workers over one.

Grid: adult26k, LightGBM with the authors' tuned hyperparameters (max_depth 38,
learning_rate 0.0225569673; ``--n-estimators`` trees, 1100 in the paper),
GRR and OUE with the uniform split at epsilon = 1, and NonDP; ``--seeds`` seeds.
Results: ``results/benchmarks/engine.csv`` (per cell) and ``engine.json`` (summary).

Usage::

    LDPFAIR_DATA_DIR=/path/to/data python benchmarks/bench_engine.py --n-estimators 300
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import pandas as pd  # noqa: E402

from ldpfair import experiments as ex  # noqa: E402
from ldpfair.experiments.cache import atomic_write_text  # noqa: E402
from ldpfair.models import ARCOLEZI2023_LGBM  # noqa: E402


def make_grid(n_estimators: int, seeds: int) -> ex.Grid:
    params = {**ARCOLEZI2023_LGBM["adult"], "n_estimators": n_estimators}
    return ex.Grid(
        name="bench_arcolezi2023_adult",
        datasets=ex.DatasetSpec("adult26k"),
        models=ex.ModelSpec("lightgbm", params),
        privatizations=[ex.PrivSpec("GRR", split="uniform"), ex.PrivSpec("OUE", split="uniform")],
        epsilons=[1.0],
        seeds=seeds,
        evaluation=ex.holdout(0.2, split_random_state="seed", model_random_state="seed"),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-estimators", type=int, default=300)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--out", default="results/benchmarks")
    args = ap.parse_args()
    grid = make_grid(args.n_estimators, args.seeds)
    # Warm-up (not timed): numba compilation, imports and the per-process dataset cache, in
    # this process and in both loky workers, with cells of another seed.
    warm = make_grid(args.n_estimators // 10 or 1, 1)
    warm = ex.Grid(datasets=warm.datasets, models=warm.models, privatizations=warm.privatizations,
                   epsilons=warm.epsilons, seeds=[1000, 1001], evaluation=warm.evaluation)
    ex.run(warm, n_jobs=1, progress=False)
    ex.run(warm, n_jobs=2, progress=False)
    timings = {}
    frames = {}
    for n_jobs in (1, 2):
        start = time.perf_counter()
        frames[n_jobs] = ex.run(grid, n_jobs=n_jobs, cache=None, progress=False)
        timings[n_jobs] = time.perf_counter() - start
    cols = ex.metric_columns(frames[1])
    identical = bool(frames[1][cols].equals(frames[2][cols]))
    df = frames[1]
    fit = float(df["t_fit"].sum())
    total = float(df["t_total"].sum())
    outside_in_cells = (total - fit) / total
    outside_overall = (timings[1] - fit) / timings[1]
    model = fit + float(df["t_predict"].sum())
    outside_model_in_cells = (total - model) / total
    outside_model_overall = (timings[1] - model) / timings[1]
    summary = {
        "grid": grid.describe(),
        "n_cells": len(df),
        "n_estimators": args.n_estimators,
        "wall_1_worker_s": timings[1],
        "wall_2_workers_s": timings[2],
        "speedup_2_vs_1": timings[1] / timings[2],
        "fit_s": fit,
        "cells_total_s": total,
        "fraction_outside_fit_in_cells": outside_in_cells,
        "fraction_outside_fit_overall": outside_overall,
        "fraction_outside_fit_and_predict_in_cells": outside_model_in_cells,
        "fraction_outside_fit_and_predict_overall": outside_model_overall,
        "cells_total_s_2_workers": float(frames[2]["t_total"].sum()),
        "load_average_at_start": os.getloadavg(),
        "mean_times_s": {c: float(df[c].mean()) for c in ex.TIMING_COLUMNS},
        "results_identical_1_vs_2_workers": identical,
        "machine": {"platform": platform.platform(), "cpu_count": os.cpu_count(),
                    "python": platform.python_version()},
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cols_out = [*ex.LABEL_COLUMNS, "acc", "SPD", *ex.TIMING_COLUMNS]
    atomic_write_text(out / "engine.csv", df[cols_out].to_csv(index=False))
    atomic_write_text(out / "engine.json", json.dumps(summary, indent=2, default=str) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if k != "grid"}, indent=2, default=str))


if __name__ == "__main__":
    pd.set_option("display.width", 120)
    main()
