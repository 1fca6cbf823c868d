"""hamman2023: the published numbers of Tables 1-4 the committed results, and their comparison.

The lowest room of the chapter's judging: :mod:`.forensics` and :mod:`.checks` both
read the published tables (:data:`PAPER_TABLE1` .. :data:`PAPER_TABLE4`,
:data:`PAPER_NUMBERS`) and the committed paper-profile results
(:func:`committed_results`, in the paper's units by :func:`with_units`) and compare
them number by number (:func:`published_comparison`) from here.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ... import verdicts

__all__ = ["PAPER_TABLE1", "PAPER_TABLE2", "PAPER_TABLE3", "PAPER_TABLE4", "PAPER_NUMBERS",
           "with_units", "committed_results", "published_comparison", "number_id"]

INF = math.inf


def _t1() -> pd.DataFrame:
    rows = []
    data = {  # (n, m): [(eps, err ours, err lap, leak ours, leak lap)]
        (100, 25): [(5, 10.9, 200.9, 50, 54), (10, 5.1, 112.6, 48, 49), (100, 0.05, 12.1, 58, 44),
                    (INF, 0, 0, 63, 63)],
        (100, 40): [(5, 77.9, 660.2, 55, 57), (10, 12.3, 236.8, 49, 43), (100, 0.7, 27.6, 67, 47),
                    (INF, 0, 0, 100, 100)],
        (1000, 300): [(5, 122.2, 874.5, 52, 49), (10, 35.7, 160.8, 50, 51), (100, 2.0, 11.5, 53, 51),
                      (INF, 0, 0, 79, 79)],
        (1000, 400): [(5, 140.0, 893.4, 52, 49), (10, 42.2, 216.3, 52, 52), (100, 0.2, 54.4, 55, 49),
                      (INF, 0, 0, 100, 100)],
    }
    for (n, m), lst in data.items():
        for eps, eo, el, lo, ll in lst:
            rows.append({"n": n, "m": m, "epsilon": float(eps), "mechanism": "conceal",
                         "avg_sp_err_e3": eo, "leakage": lo})
            rows.append({"n": n, "m": m, "epsilon": float(eps), "mechanism": "laplace",
                         "avg_sp_err_e3": el, "leakage": ll})
    return pd.DataFrame(rows)


#: Table 1 (Adult): Avg. SP err (x 1e-3) and leakage (%), Attribute-Conceal (conceal) vs Laplace.
PAPER_TABLE1 = _t1()
#: Table 2 (synthetic, eps = 100).
PAPER_TABLE2 = pd.DataFrame(
    [(1000, n0, m, e, lk) for n0, e5, e9, l5, l9 in [
        (10, 128.8, 191.4, 65, 64), (50, 90.8, 156.3, 67, 61), (100, 87.4, 102.9, 62, 55),
        (200, 51.9, 96.7, 62, 47), (300, 38.9, 59.9, 48, 47), (400, 41.6, 54.5, 47, 45)]
     for m, e, lk in ((500, e5, l5), (900, e9, l9))]
    + [(10000, n0, 1000, e, lk) for n0, e, lk in [
        (50, 96.9, 64), (100, 76.9, 61), (500, 38.3, 59), (1000, 26.9, 59), (3000, 12.8, 55),
        (5000, 9.9, 48)]],
    columns=["n", "n0", "m", "avg_sp_err_e3", "leakage"])
#: Table 3 (synthetic): rows (n, N0, eps); m is not given in the paper (we use 500 / 1000).
PAPER_TABLE3 = pd.DataFrame(
    [(1000, 10, 10.0, 929, 49), (1000, 100, 10.0, 838, 51), (1000, 10, 50.0, 149.3, 65),
     (1000, 100, 50.0, 44.8, 55), (1000, 10, 100.0, 83, 71), (1000, 100, 100.0, 30.5, 56),
     (1000, 10, 500.0, 26.6, 75), (1000, 100, 500.0, 9.7, 53),
     (10000, 100, 10.0, 832.3, 51), (10000, 1000, 10.0, 678.4, 50), (10000, 100, 50.0, 46.5, 55),
     (10000, 1000, 50.0, 85.3, 52), (10000, 100, 100.0, 33.1, 55), (10000, 1000, 100.0, 47.4, 53),
     (10000, 100, 500.0, 31, 57), (10000, 1000, 500.0, 13.6, 56)],
    columns=["n", "n0", "epsilon", "avg_sp_err_e3", "leakage"])
#: Table 4 (German credit, N1 = 690, N0 = 310).
PAPER_TABLE4 = pd.DataFrame(
    [(800, 10.0, 133.7, 558), (1000, 10.0, 112.9, 492), (800, 100.0, 6.1, 557),
     (1000, 100.0, 6.3, 500), (800, 1000.0, 0.5, 657), (1000, 1000.0, 0.7, 516)],
    columns=["m", "epsilon", "avg_sp_err_e3", "recovered"])
#: Other numbers quoted in the text.
PAPER_NUMBERS: Mapping[str, float] = {
    "adult_models_accuracy": 86.23, "adult_models_sd": 0.2583, "fig1b_avg_sp_err": 7.41e-4,
    "fig3_avg_sp_err": 0.0601, "fig4b_avg_sp_err": 4.78e-4, "german_base_accuracy": 73.70,
    "german_models_accuracy": 73.44, "german_models_sd": 0.3942, "adult_black_share": 10.4,
}


def with_units(res: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The results with the error columns also in units of 10^-3, as the paper's tables give them.

    Adds ``avg_sp_err_e3`` and ``median_sp_err_e3`` to every frame that has the errors
    (a copy; ``attrs`` such as the coverage are kept).
    """
    out = {}
    for name, frame in res.items():
        if "avg_sp_err" in frame.columns:
            frame = frame.copy()
            frame["avg_sp_err_e3"] = 1000 * frame["avg_sp_err"]
            frame["median_sp_err_e3"] = 1000 * frame["median_sp_err"]
        out[name] = frame
    return out


def committed_results() -> dict[str, pd.DataFrame]:
    """Every committed paper-profile experiment (never computed), :func:`with_units`."""
    from .. import committed
    from . import SPEC

    return with_units({name: committed("hamman2023", name) for name in SPEC.experiments("paper")})


#: Printed decimals of the published numbers (x 1e-3 for errors), by table, metric and exception cells.
_DECIMALS: dict[str, dict[str, int]] = {
    "Table 1": {"avg_sp_err_e3": 1, "leakage": 0}, "Table 2": {"avg_sp_err_e3": 1, "leakage": 0},
    "Table 3": {"avg_sp_err_e3": 1, "leakage": 0}, "Table 4": {"avg_sp_err_e3": 1, "recovered": 0},
}
#: Published errors printed with other decimals than their table's: (table, value x 1e-3) -> decimals.
_DECIMAL_EXCEPTIONS: dict[tuple[str, float], int] = {
    ("Table 1", 0.05): 2, ("Table 1", 0.0): 0, ("Table 3", 929.0): 0, ("Table 3", 838.0): 0,
    ("Table 3", 83.0): 0, ("Table 3", 31.0): 0,
}


#: Columns naming a published number of each table (its id: :func:`number_id`).
_BY: dict[str, list[str]] = {"Table 1": ["n", "m", "epsilon", "mechanism"], "Table 2": ["n", "n0", "m"],
                             "Table 3": ["n", "n0", "epsilon"], "Table 4": ["m", "epsilon"]}
#: How the ids name each metric.
_METRIC_NAMES = {"avg_sp_err_e3": "error", "leakage": "leakage", "recovered": "recovered"}


def _fmt(v: Any) -> str:
    if isinstance(v, str):
        return v
    f = float(v)
    return "∞" if math.isinf(f) else f"{f:g}"


def number_id(item: str, metric: str, rec: Mapping[str, Any]) -> str:
    """The id of one published number: ``"Table 1 error (n=100, m=25, epsilon=5, mechanism=conceal)"``.

    For the quoted figure errors (``item`` a figure): ``"Figure 3 quoted error"``.
    """
    name = _METRIC_NAMES.get(metric, metric)
    if item not in _BY:
        return f"{item} quoted {name}"
    return f"{item} {name} (" + ", ".join(f"{c}={_fmt(rec[c])}" for c in _BY[item]) + ")"


def _compare_table(item: str, frame: pd.DataFrame, pub: pd.DataFrame, by: list[str],
                   metrics: list[str]) -> pd.DataFrame:
    """:func:`ldpfair.verdicts.compare_published` with each number's printed decimals and statistic.

    Errors under Attribute-Conceal (Cauchy noise: no mean) are compared by the median
    of our runs' errors with its order-statistic interval; Laplace errors, leakage and
    recovered attributes by the Welch interval of the mean. ``construction`` marks the
    epsilon = infinity errors (0 = 0 by construction: verifications); ``id`` names
    each number (:func:`number_id`).
    """
    parts = []
    for metric in metrics:
        dec = _DECIMALS[item][metric]
        if metric == "avg_sp_err_e3":
            mech = pub["mechanism"] if "mechanism" in pub else pd.Series("conceal", index=pub.index)
            key = pd.Series([f"{_DECIMAL_EXCEPTIONS.get((item, float(v)), dec)}|{mc}"
                             for v, mc in zip(pub[metric], mech, strict=True)], index=pub.index)
            for k, sub in pub.groupby(key):
                d, mc = str(k).split("|")
                stat = "median" if mc == "conceal" else "mean"
                parts.append(verdicts.compare_published(frame, sub, by, [metric], decimals=int(d),
                                                        statistic=stat).assign(statistic=stat))
        else:
            parts.append(verdicts.compare_published(frame, pub, by, [metric], decimals=dec)
                         .assign(statistic="mean"))
    out = pd.concat(parts, ignore_index=True).rename(columns={"n_runs": "runs"})
    eps = out["epsilon"].astype(float) if "epsilon" in out else pd.Series(100.0, index=out.index)
    out["construction"] = (out["metric"] == "avg_sp_err_e3") & ~np.isfinite(eps)
    out["id"] = [number_id(item, m, r) for m, r in zip(out["metric"], out.to_dict("records"), strict=True)]
    return out


def published_comparison(res: Mapping[str, pd.DataFrame] | None = None) -> dict[str, pd.DataFrame]:
    """Every published number of Tables 1-4 against our committed runs (one row per number)."""
    res = committed_results() if res is None else res
    return {item: _compare_table(item, res[name], pub, _BY[item], metrics) for item, name, pub, metrics in (
        ("Table 1", "table1", PAPER_TABLE1, ["avg_sp_err_e3", "leakage"]),
        ("Table 2", "table2", PAPER_TABLE2, ["avg_sp_err_e3", "leakage"]),
        ("Table 3", "table3", PAPER_TABLE3, ["avg_sp_err_e3", "leakage"]),
        ("Table 4", "table4", PAPER_TABLE4, ["avg_sp_err_e3", "recovered"]))}
