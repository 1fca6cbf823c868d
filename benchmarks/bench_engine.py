"""Benchmark of the experiment engine on the arcolezi2023 Adult grid.

Measures (1) the fraction of each cell's time spent outside model fitting
(loading, splitting, perturbation, encoding, prediction, metrics, bookkeeping),
(2) the speed-up of two workers over one, with where the two-worker run spends
its time outside the cells (start-up, pickling, result transfer, imbalance),
(3) ``metrics.evaluate`` per cell against the per-paper functions it replaced
(``evaluate_reference``, bit-identical) at the test sizes of arcolezi2023 and
makhlouf2024, CPU time on one BLAS thread, interleaved, and (4) with
``--scoreboard``, the CPU time of the scoreboard page (``scoreboard.computed()``
with an empty memo) and of loading every committed paper-profile file.

Grid: adult26k, LightGBM with the authors' tuned hyperparameters (max_depth 38,
learning_rate 0.0225569673; ``--n-estimators`` trees, 1100 in the paper),
GRR and OUE with the uniform split at epsilon = 1, and NonDP; ``--seeds`` seeds.
Results: ``results/benchmarks/engine.csv`` (per cell) and ``engine.json`` (summary).

Usage::

    LDPFAIR_DATA_DIR=/path/to/data python benchmarks/bench_engine.py --n-estimators 300 --scoreboard
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from ldpfair import experiments as ex  # noqa: E402
from ldpfair.experiments.cache import atomic_write_text  # noqa: E402


def make_grid(n_estimators: int, seeds: int) -> ex.Grid:
    from ldpfair.models import TUNED_LGBM  # here: --baseline runs this script on older code

    params = {**TUNED_LGBM["adult"], "n_estimators": n_estimators}
    return ex.Grid(
        name="bench_arcolezi2023_adult",
        datasets=ex.DatasetSpec("adult26k"),
        models=ex.ModelSpec("lightgbm", params),
        privatizations=[ex.PrivSpec("GRR", split="uniform"), ex.PrivSpec("OUE", split="uniform")],
        epsilons=[1.0],
        seeds=seeds,
        evaluation=ex.holdout(0.2, split_random_state="seed", model_random_state="seed"),
    )


#: Test-set sizes of the paper profiles (rows of ``n_test`` in the committed results).
EVALUATE_SIZES = {"arcolezi2023 adult26k": 9170, "arcolezi2023 lsac": 4086,
                  "makhlouf2024 synthetic / adult": 10000}


def bench_evaluate(reps: int = 15) -> list[dict[str, object]]:
    """ms of CPU per cell of ``evaluate`` and of the per-paper functions, interleaved, one thread."""
    from ldpfair.metrics import evaluate
    from ldpfair.metrics.evaluate import evaluate_reference

    rng = np.random.default_rng(0)
    rows = []
    with threadpool_limits(1):
        for what, n in EVALUATE_SIZES.items():
            y = rng.integers(0, 2, n)
            scores = rng.random(n)
            y_pred = (scores > 0.5).astype(np.int64)
            a = rng.integers(0, 2, n)
            kw = dict(sensitive_features=a, scores=scores, labels=[0, 1], privileged=1)
            assert evaluate(y, y_pred, **kw).keys() == evaluate_reference(y, y_pred, **kw).keys()
            times: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(reps):
                for label, fn in (("before", evaluate_reference), ("after", evaluate)):
                    t = time.process_time()
                    fn(y, y_pred, **kw)
                    times[label].append(time.process_time() - t)
            before, after = (statistics.median(times[k]) * 1e3 for k in ("before", "after"))
            rows.append({"test set": what, "n": n, "before_ms": before, "after_ms": after,
                         "speedup": before / after})
    return rows


def bench_scoreboard(tree: str | None = None) -> dict[str, float]:
    """CPU seconds of the scoreboard page (empty memo) and of loading every committed file.

    Each is timed in a fresh process (this script as a child), as a book build runs the
    page: what one measurement memoises in its process (the declared experiments, the
    parsed results files) must not speed up the other. ``tree``: a source tree put first
    on ``PYTHONPATH`` (and the working folder), to time other code the same way.
    """
    import subprocess
    import sys

    env = None if tree is None else {**os.environ, "PYTHONPATH": tree}
    out: dict[str, float] = {}
    for what in ("page", "load"):
        child = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--scoreboard-only", what],
                               cwd=tree, env=env, capture_output=True, text=True, check=True)
        out.update(json.loads(child.stdout.strip().splitlines()[-1]))
    return out


def _scoreboard_part(what: str) -> dict[str, float]:
    """``page``: CPU s of ``scoreboard.computed()`` with an empty memo; ``load``: of every committed file."""
    from ldpfair import scoreboard
    from ldpfair.experiments import load_results
    from ldpfair.papers import declared

    if what == "load":
        exps = list(declared("paper"))
        t = time.process_time()
        for _, _, grid, path in exps:
            load_results(grid, path)
        return {"load_all_committed_cpu_s": time.process_time() - t, "committed_experiments": len(exps)}
    previous = os.environ.get("LDPFAIR_CACHE")
    with tempfile.TemporaryDirectory() as memo:
        os.environ["LDPFAIR_CACHE"] = memo
        try:
            t = time.process_time()
            scoreboard.computed()
            return {"scoreboard_page_cpu_s": time.process_time() - t}
        finally:
            if previous is None:
                del os.environ["LDPFAIR_CACHE"]
            else:
                os.environ["LDPFAIR_CACHE"] = previous


def baseline_scoreboard(commit: str) -> dict[str, float]:
    """:func:`bench_scoreboard` of the code and results at ``commit`` (a child process).

    This script runs on ``git archive <commit>`` in a temporary folder, first on
    ``PYTHONPATH``, so the same measurement times the former code.
    """
    import subprocess

    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(["git", "archive", commit], cwd=root, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
        return {**bench_scoreboard(tree), "commit": commit}


def list_schedule_speedup(cell_times: list[float], workers: int = 2) -> float:
    """Best speed-up of ``workers`` that take the cells in order, each the next one when free.

    What joblib does; with few cells the last ones leave a worker idle (9 equal cells on
    2 workers: 9 / 5 = 1.8 at most), whatever the per-task overhead.
    """
    free = [0.0] * workers
    for t in cell_times:
        i = free.index(min(free))
        free[i] += t
    return sum(cell_times) / max(free)


def transfer_costs(grid: ex.Grid, row: dict[str, object]) -> dict[str, float]:
    """Bytes and ms to pickle one task (to a worker) and one result row (back)."""
    task = grid.tasks()[0]
    out = {}
    for what, obj in (("task", task), ("row", row)):
        t = time.process_time()
        for _ in range(50):
            data = pickle.dumps(obj)
        out[f"pickle_{what}_ms"] = (time.process_time() - t) / 50 * 1e3
        out[f"pickle_{what}_bytes"] = len(data)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n-estimators", type=int, default=300)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--out", default="results/benchmarks")
    ap.add_argument("--scoreboard", action="store_true",
                    help="also time the scoreboard page and the loading of the committed results")
    ap.add_argument("--baseline", metavar="COMMIT",
                    help="with --scoreboard: time the same at COMMIT as well (the code before)")
    ap.add_argument("--scoreboard-only", nargs="?", const="both", choices=["both", "page", "load"],
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.scoreboard_only:
        what = args.scoreboard_only
        print(json.dumps(bench_scoreboard() if what == "both" else _scoreboard_part(what)))
        return
    evaluate_rows = bench_evaluate()
    print(pd.DataFrame(evaluate_rows).to_string(index=False), flush=True)
    board = None
    if args.scoreboard:
        board = {"after": bench_scoreboard()}
        if args.baseline:
            board["before"] = baseline_scoreboard(args.baseline)
        print(json.dumps(board), flush=True)
    grid = make_grid(args.n_estimators, args.seeds)
    # Warm-up (not timed): numba compilation, imports and the per-process dataset cache, in
    # this process and in both loky workers, with cells of another seed.
    warm = make_grid(args.n_estimators // 10 or 1, 1)
    warm = ex.Grid(datasets=warm.datasets, models=warm.models, privatizations=warm.privatizations,
                   epsilons=warm.epsilons, seeds=[1000, 1001], evaluation=warm.evaluation)
    ex.run(warm, n_jobs=1, progress=False)
    ex.run(warm, n_jobs=2, progress=False)
    timings = {}
    driver_cpu = {}
    frames = {}
    load_start = os.getloadavg()
    for n_jobs in (1, 2):
        start, cpu = time.perf_counter(), time.process_time()
        frames[n_jobs] = ex.run(grid, n_jobs=n_jobs, cache=None, progress=False)
        timings[n_jobs] = time.perf_counter() - start
        driver_cpu[n_jobs] = time.process_time() - cpu
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
        # the two-worker run outside the cells: wall minus half the cells' own time (start-up
        # of the workers, pickling, transfer of tasks and rows, imbalance of the last cells)
        "outside_cells_2_workers_s": timings[2] - float(frames[2]["t_total"].sum()) / 2,
        "outside_cells_1_worker_s": timings[1] - total,
        "driver_cpu_1_worker_s": driver_cpu[1],
        "driver_cpu_2_workers_s": driver_cpu[2],
        # slowdown of the cells themselves when two run at once (memory bandwidth, other load)
        "cell_time_ratio_2_vs_1": float(frames[2]["t_total"].sum()) / total,
        "speedup_2_bound_by_cell_order": list_schedule_speedup(df["t_total"].tolist()),
        **transfer_costs(grid, df.drop(columns=["key"]).iloc[0].to_dict()),
        "load_average_at_start": load_start,
        "load_average_at_end": os.getloadavg(),
        "evaluate_ms_per_cell": evaluate_rows,
        "scoreboard": board,
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
