"""hamman2023 forensics: which computation could have produced the published query errors.

The average SP error of a run depends only on the noise, not on the models or the
attack: ``answered - SP = b Z`` with the per-answer scale ``b`` of the mechanism
(:func:`ldpfair.attacks.noise_scale`) and ``Z`` standard Cauchy (Attribute-Conceal)
or Laplace. So every published error cell can be re-derived cheaply from fresh draws
of ``Z`` under any reading of the scale and any statistic of the errors, with the
group sizes of our committed runs. This module

- lists the published finite-epsilon error cells with their settings
  (:func:`published_cells`);
- regresses ``log(paper / ours)`` on the logs of the settings (:func:`ratio_regression`,
  :func:`regression_table`): a constant ratio is a constant factor, a slope in ``m`` a
  per-query budget, and so on;
- simulates each cell's statistic under each reading and statistic and counts the
  cells whose published value lies in the 95% range of that statistic
  (:func:`simulate_cell`, :func:`readings_table`);
- derives the scale each published number implies and the privacy loss that scale
  allows on an explicit pair of neighbouring test sets (:func:`implied_scales`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ... import attacks
from ..._validation import check_choice
from . import published as hc

__all__ = [
    "STATISTICS",
    "published_cells",
    "error_statistics",
    "simulate_cell",
    "ratio_regression",
    "regression_table",
    "readings_table",
    "best_reading",
    "implied_scales",
    "cauchy_shift_loss",
    "CLIP_VARIANTS",
    "clipping_comparison",
    "SUMMARIES",
    "summaries",
    "load",
]

#: Statistics of the ``runs x m`` absolute errors of a cell (then averaged as named).
STATISTICS: tuple[str, ...] = ("mean", "median", "trimmed_mean", "mean_run_median", "rms")
#: Share trimmed from each tail by the trimmed mean.
TRIM = 0.1
#: Printed decimals of the published errors (x 1e-3) of each table.
_DECIMALS = {"Table 1": 1, "Table 2": 1, "Table 3": 1, "Table 4": 1}


def published_cells(results: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:
    """Every published finite-epsilon error cell of Tables 1-4 with our committed group sizes.

    Returns
    -------
    pandas.DataFrame
        One row per cell: ``table, n, m, n0, epsilon, mechanism, paper_err`` (the
        published Avg. SP err, as a number, not x 1e-3), ``decimals`` (printed, of the
        x 1e-3 value), ``paper_leakage`` (NaN for Table 4), ``groups`` (list of our
        runs' ``(N1, N0)``), ``N1, N0`` (their means), ``ours_err`` (our mean error,
        Theorem 5), ``ours_median_err`` and ``ours_leakage`` (means over our runs).
    """
    res = results if results is not None else hc.committed_results()
    specs = [("Table 1", "table1", hc.PAPER_TABLE1, ["n", "m", "epsilon", "mechanism"]),
             ("Table 2", "table2", hc.PAPER_TABLE2.assign(epsilon=100.0, mechanism="conceal"),
              ["n", "n0", "m"]),
             ("Table 3", "table3", hc.PAPER_TABLE3.assign(mechanism="conceal"), ["n", "n0", "epsilon"]),
             ("Table 4", "table4", hc.PAPER_TABLE4.assign(mechanism="conceal"), ["m", "epsilon"])]
    rows: list[dict[str, Any]] = []
    for table, name, pub, by in specs:
        ours = res[name]
        for rec in pub.to_dict("records"):
            if not math.isfinite(float(rec["epsilon"])):
                continue
            mask = np.ones(len(ours), dtype=bool)
            for c in by:
                mask &= (ours[c] == rec[c]).to_numpy()
            cell = ours[mask]
            if not len(cell):
                continue
            groups = list(zip(cell["N1"].astype(int), cell["N0"].astype(int), strict=True))
            rows.append({"table": table, "n": int(cell["N1"].iloc[0] + cell["N0"].iloc[0]),
                         "m": int(cell["m"].iloc[0]), "n0": int(rec.get("n0", round(cell["N0"].mean()))),
                         "epsilon": float(rec["epsilon"]), "mechanism": rec["mechanism"],
                         "paper_err": float(rec["avg_sp_err_e3"]) / 1000.0, "decimals": _DECIMALS[table],
                         "paper_leakage": float(rec.get("leakage", np.nan)),
                         "groups": groups, "N1": float(cell["N1"].mean()), "N0": float(cell["N0"].mean()),
                         "ours_err": float(cell["avg_sp_err"].mean()),
                         "ours_median_err": float(cell["median_sp_err"].mean()),
                         "ours_leakage": float(cell["leakage"].mean())})
    return pd.DataFrame(rows)


def error_statistics(err: np.ndarray) -> dict[str, np.ndarray]:
    """The :data:`STATISTICS` of absolute errors ``err`` of shape ``(..., runs, m)``.

    ``mean``, ``median``, ``trimmed_mean`` (``TRIM`` of each tail) and ``rms`` pool the
    ``runs x m`` errors; ``mean_run_median`` is the mean over runs of each run's median.
    """
    from scipy import stats

    e = np.asarray(err, dtype=float)
    if e.ndim < 2:
        raise ValueError(f"err must have shape (..., runs, m), got {e.shape}")
    flat = e.reshape(*e.shape[:-2], -1)
    return {"mean": flat.mean(axis=-1), "median": np.median(flat, axis=-1),
            "trimmed_mean": stats.trim_mean(flat, TRIM, axis=-1),
            "mean_run_median": np.median(e, axis=-1).mean(axis=-1),
            "rms": np.sqrt((flat ** 2).mean(axis=-1))}


def simulate_cell(groups: Sequence[tuple[int, int]], m: int, epsilon: float, mechanism: str,
                  readings: Sequence[str], rng: np.random.Generator, *, reps: int = 200,
                  runs: int | None = None) -> dict[str, dict[str, np.ndarray]]:
    """Sampling distribution of each statistic of a cell's errors under each reading.

    Parameters
    ----------
    groups : sequence of (int, int)
        ``(N1, N0)`` of the runs (cycled when ``runs`` is larger).
    m, epsilon, mechanism
        The cell.
    readings : sequence of str
        Readings of :func:`ldpfair.attacks.noise_scale`.
    rng : numpy.random.Generator
        Source of the draws; the same standard draws serve every reading.
    reps : int
        Replications of the whole cell (``runs x m`` answers each).
    runs : int, optional
        Runs per cell (default: ``len(groups)``).

    Returns
    -------
    dict
        ``{reading: {statistic: array of reps values}}``.
    """
    if not groups:
        raise ValueError("groups must list at least one run's (N1, N0)")
    r = len(groups) if runs is None else int(runs)
    g = [groups[i % len(groups)] for i in range(r)]
    draws = {"cauchy": np.abs(rng.standard_cauchy((reps, r, m))),
             "laplace": np.abs(rng.laplace(0.0, 1.0, (reps, r, m)))}
    out: dict[str, dict[str, np.ndarray]] = {}
    for reading in readings:
        fam: str | None = None
        scales = np.empty(r)
        for i, (n1, n0) in enumerate(g):
            scales[i], fam = attacks.noise_scale(n1, n0, m, epsilon, mechanism, reading)
        if fam is None:  # no run: no noise distribution to draw from
            raise ValueError(f"runs must be >= 1, got {r}")
        out[reading] = error_statistics(scales[None, :, None] * draws[fam])
    return out


def _agrees(sim: np.ndarray, paper: float, decimals: int) -> bool:
    lo, hi = np.quantile(sim, [0.025, 0.975])
    prec = 0.5 * 10.0 ** (-decimals) / 1000.0
    return bool(lo - prec <= paper <= hi + prec)


def readings_table(cells: pd.DataFrame | None = None, *, readings: Sequence[str] | None = None,
                   reps: int = 200, seed: int = 2023, runs: int | None = None) -> pd.DataFrame:
    """Agreement of every reading x statistic with the published error cells.

    A cell agrees when its published value (plus half a unit of its last printed
    digit) lies in the central 95% range of the statistic over ``reps`` simulated
    replications of the cell (our runs' group sizes, ``runs`` runs of ``m`` answers).

    Returns
    -------
    pandas.DataFrame
        One row per reading and statistic: ``reading, statistic, conceal`` (agreeing
        Attribute-Conceal cells), ``laplace`` (agreeing Laplace cells of Table 1),
        ``total``, ``cells``, ``median_ratio`` (median over cells of paper / simulated
        median) and ``spread`` (the ratio's interquartile range on a log10 scale).
        ``attrs["per_cell"]`` holds the cell-level frame.
    """
    cells = published_cells() if cells is None else cells
    readings = list(attacks.NOISE_READINGS if readings is None else readings)
    rows = []
    per_cell = []
    for i, c in enumerate(cells.to_dict("records")):
        rng = np.random.default_rng(np.random.SeedSequence([seed, i]))
        sims = simulate_cell(c["groups"], c["m"], c["epsilon"], c["mechanism"], readings, rng,
                             reps=reps, runs=runs)
        for reading, stats_ in sims.items():
            for stat, v in stats_.items():
                per_cell.append({"table": c["table"], "n": c["n"], "m": c["m"], "n0": c["n0"],
                                 "epsilon": c["epsilon"], "mechanism": c["mechanism"], "reading": reading,
                                 "statistic": stat, "paper": c["paper_err"],
                                 "sim_median": float(np.median(v)),
                                 "agrees": _agrees(v, c["paper_err"], c["decimals"])})
    pc = pd.DataFrame(per_cell)
    for (reading, stat), g in pc.groupby(["reading", "statistic"], sort=False):
        lr = np.log10(g["paper"] / g["sim_median"])
        rows.append({"reading": reading, "statistic": stat,
                     "conceal": int(g.loc[g["mechanism"] == "conceal", "agrees"].sum()),
                     "laplace": int(g.loc[g["mechanism"] == "laplace", "agrees"].sum()),
                     "total": int(g["agrees"].sum()), "cells": len(g),
                     "median_ratio": float(10 ** lr.median()),
                     "spread": float(lr.quantile(0.75) - lr.quantile(0.25))})
    out = pd.DataFrame(rows).sort_values("total", ascending=False, kind="stable").reset_index(drop=True)
    out.attrs["per_cell"] = pc
    return out


def best_reading(table: pd.DataFrame) -> tuple[str, str, float]:
    """The reading and statistic matching the most cells, and their share of the cells."""
    top = table.sort_values(["total", "spread"], ascending=[False, True]).iloc[0]
    return str(top["reading"]), str(top["statistic"]), float(top["total"] / top["cells"])


def ratio_regression(paper: Any, ours: Any, covariates: pd.DataFrame) -> pd.DataFrame:
    """Least squares of ``log(paper / ours)`` on ``log`` of the covariates (and an intercept).

    Parameters
    ----------
    paper, ours : array-like
        Positive published and reproduced values, one per cell.
    covariates : pandas.DataFrame
        Positive settings per cell (e.g. ``n, m, N0, N1, epsilon``); constant
        columns are dropped.

    Returns
    -------
    pandas.DataFrame
        ``term, coef, se`` (``term = "factor"`` is ``exp(intercept)``, its ``se`` on the
        log scale) with ``attrs["r2"]``, ``attrs["resid_sd"]`` (log scale) and ``attrs["cells"]``.
    """
    p = np.asarray(paper, dtype=float)
    o = np.asarray(ours, dtype=float)
    if p.shape != o.shape or p.ndim != 1 or p.size != len(covariates):
        raise ValueError("paper, ours and covariates must have one entry per cell")
    keep = (p > 0) & (o > 0) & np.isfinite(p) & np.isfinite(o)
    if keep.sum() < 2:
        raise ValueError("ratio_regression needs at least two cells with positive values on both sides")
    y = np.log(p[keep] / o[keep])
    cov = covariates.loc[keep]
    cols = [c for c in cov.columns if np.ptp(np.log(cov[c].to_numpy(dtype=float))) > 0]
    X = np.column_stack([np.ones(int(keep.sum()))] + [np.log(cov[c].to_numpy(dtype=float)) for c in cols])  # noqa: N806
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    dof = max(len(y) - X.shape[1], 1)
    s2 = float(resid @ resid) / dof
    se = np.sqrt(np.diag(s2 * np.linalg.pinv(X.T @ X)))
    ss_tot = float(((y - y.mean()) ** 2).sum())
    out = pd.DataFrame({"term": ["factor"] + [f"log {c}" for c in cols],
                        "coef": [float(np.exp(coef[0]))] + list(coef[1:]), "se": se})
    out.attrs.update(r2=1.0 - float(resid @ resid) / ss_tot if ss_tot > 0 else float("nan"),
                     resid_sd=math.sqrt(s2), cells=int(len(y)))
    return out


def regression_table(cells: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """The issue's regressions of ``log(paper / ours)`` on ``log n, m, N0, N1, epsilon``.

    ``ours`` is our committed mean error (``"conceal, mean"``), our committed mean of
    per-run medians (``"conceal, median"``; robust to the Cauchy tail), our Laplace mean
    error (``"laplace, mean"``, Table 1) and our mean leakage (``"leakage"``).
    """
    cells = published_cells() if cells is None else cells
    cov_cols = ["n", "m", "N0", "N1", "epsilon"]
    con = cells[cells["mechanism"] == "conceal"].reset_index(drop=True)
    lap = cells[cells["mechanism"] == "laplace"].reset_index(drop=True)
    lk = cells[np.isfinite(cells["paper_leakage"])].reset_index(drop=True)
    return {
        "conceal, mean": ratio_regression(con["paper_err"], con["ours_err"], con[cov_cols]),
        "conceal, median": ratio_regression(con["paper_err"], con["ours_median_err"], con[cov_cols]),
        "laplace, mean": ratio_regression(lap["paper_err"], lap["ours_err"], lap[["m", "n", "epsilon"]]),
        "leakage": ratio_regression(lk["paper_leakage"], lk["ours_leakage"], lk[cov_cols]),
    }


def cauchy_shift_loss(shift: Any, scale: Any) -> np.ndarray:
    """Largest log-density ratio between Cauchy laws of scale ``scale`` whose centres differ by ``shift``.

    ``sup_z log f(z) / f(z - shift) = 2 asinh(|shift| / (2 scale))`` for the Cauchy
    density ``f(z) = 1 / (pi scale (1 + (z/scale)^2))``: the privacy loss of one
    answer whose true value moves by ``shift``.
    """
    d = np.abs(np.asarray(shift, dtype=float))
    b = np.asarray(scale, dtype=float)
    if np.any(b <= 0):
        raise ValueError("scale must be > 0")
    return 2.0 * np.arcsinh(d / (2.0 * b))


def implied_scales(cells: pd.DataFrame | None = None, *, statistic: str = "median") -> pd.DataFrame:
    """Scale each published error implies, and the privacy loss it allows on a neighbouring pair.

    The implied scale is ``b = paper / E[statistic of |Z|]``; with ``statistic =
    "median"`` (the median of ``|Z|`` is 1 for the standard Cauchy, ``ln 2`` for the
    standard Laplace) it is the largest scale among the statistics of
    :data:`STATISTICS` for Cauchy noise, the most favourable to privacy. The
    neighbouring pair: the test set of the cell and the one where a disadvantaged
    person joins the advantaged group, queried by ``m`` models that accept only that
    person: every answer moves by ``1/(N1+1) + 1/N0`` (the local sensitivity of one
    query). With noise of the same law at both, the privacy loss of the ``m`` answers
    is at least ``m * 2 asinh(shift / (2 b))`` (Cauchy; ``m shift / b`` for Laplace
    noise, where the shift is Theorem 4's ``1/2 + 1/(n-1)``); the cell is not
    ``epsilon``-DP when that loss exceeds ``epsilon``.

    Returns
    -------
    pandas.DataFrame
        Per cell: the settings, ``paper_err``, ``theorem_scale`` (Theorem 5 or 4),
        ``implied_scale``, ``factor`` (theorem / implied), ``loss`` and ``dp``
        (``loss <= epsilon``).
    """
    check_choice(statistic, ["median", "mean_run_median"], "statistic")
    cells = published_cells() if cells is None else cells
    rows = []
    for c in cells.to_dict("records"):
        n1, n0 = int(round(c["N1"])), int(round(c["N0"]))
        theory, fam = attacks.noise_scale(n1, n0, c["m"], c["epsilon"], c["mechanism"], "theorem5")
        if fam == "cauchy":
            b = c["paper_err"]
            loss = c["m"] * float(cauchy_shift_loss(attacks.local_sensitivity_sp(n1, n0), b))
        else:
            b = c["paper_err"] / math.log(2.0)
            loss = c["m"] * attacks.global_sensitivity_sp(n1 + n0) / b
        rows.append({"table": c["table"], "n": c["n"], "m": c["m"], "N0": c["N0"], "epsilon": c["epsilon"],
                     "mechanism": c["mechanism"], "paper_err": c["paper_err"], "theorem_scale": theory,
                     "implied_scale": b, "factor": theory / b, "loss": loss,
                     "dp": bool(loss <= c["epsilon"])})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- perturbed models
#: The two readings of Algorithm 2's perturbed models: result name of Table 1 under each.
CLIP_VARIANTS: dict[str, str] = {"unclipped (the text)": "table1", "clipped to [0, 1]": "table1_clipped"}


def clipping_comparison(results: dict[str, pd.DataFrame] | None = None) -> dict[str, pd.DataFrame]:
    """Table 1 under unclipped and clipped perturbed models (:data:`CLIP_VARIANTS`).

    Returns
    -------
    dict
        ``"noiseless"``: one row per published noiseless cell ``(n, m)`` and
        variant, our mean leakage over every noiseless run of the cell (both
        mechanisms' runs: without noise they differ only by their draws), the
        paper's value and the verdict of :func:`ldpfair.verdicts.compare_welch`
        (printed as an integer); ``"counts"``: per variant and metric, how many of
        Table 1's published numbers agree (:func:`ldpfair.papers.hamman2023.checks.published_comparison`).
    """
    from ... import verdicts

    res = results if results is not None else hc.committed_results()
    pub = hc.PAPER_TABLE1
    pub0 = pub[~np.isfinite(pub["epsilon"].astype(float))].drop_duplicates(["n", "m"])
    rows, counts = [], []
    for variant, name in CLIP_VARIANTS.items():
        if name not in res or not len(res[name]):
            continue
        frame = res[name]
        noiseless = frame[~np.isfinite(frame["epsilon"].astype(float))]
        for rec in pub0.itertuples(index=False):
            runs = noiseless.loc[(noiseless["n"] == rec.n) & (noiseless["m"] == rec.m), "leakage"]
            cmp = verdicts.compare_welch(runs.to_numpy(), float(rec.leakage), decimals=0)
            rows.append({"variant": variant, "n": int(rec.n), "m": int(rec.m), "paper": float(rec.leakage),
                         "ours": cmp["ours"], "halfwidth": cmp["halfwidth"], "runs": cmp["n_runs"],
                         "full_recovery": float((runs == 100.0).mean()), "agrees": cmp["agrees"]})
        cmp = hc.published_comparison({**res, "table1": frame})["Table 1"]
        for metric, sub in cmp.groupby("metric"):
            counts.append({"variant": variant, "metric": metric, "agree": int(sub["agrees"].sum()),
                           "of": int(len(sub))})
    return {"noiseless": pd.DataFrame(rows), "counts": pd.DataFrame(counts)}


# --------------------------------------------------------------------------- committed summaries
#: Files of the committed forensic summaries, under ``results/hamman2023/``.
SUMMARIES: tuple[str, ...] = ("forensics_readings", "forensics_cells", "forensics_implied")


def summaries(*, reps: int = 200, seed: int = 2023) -> dict[str, pd.DataFrame]:
    """The forensic summaries (readings x statistics, per cell, implied scales), computed afresh.

    Declared in the chapter's ``SPEC`` (:class:`ldpfair.papers.contract.Derived`): the
    engine writes them to ``results/hamman2023/<name>.csv.gz`` (``ldpfair results compute
    hamman2023``) and verifies them (about a minute and a half on one core), so that the
    chapter and the scoreboard read them (:func:`load`) without recomputing.
    """
    cells = published_cells()
    table = readings_table(cells, reps=reps, seed=seed)
    return {"forensics_readings": table, "forensics_cells": table.attrs["per_cell"],
            "forensics_implied": implied_scales(cells)}


def load(name: str) -> pd.DataFrame:
    """A committed forensic summary (:data:`SUMMARIES`), checked against its recorded sha256."""
    from ...config import results_dir
    from ...experiments.results import check_results_file

    check_choice(name, list(SUMMARIES), "name")
    path = results_dir("hamman2023") / f"{name}.csv.gz"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run ldpfair results compute hamman2023")
    return check_results_file(path, require_key=False)
