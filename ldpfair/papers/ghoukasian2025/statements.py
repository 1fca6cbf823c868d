"""ghoukasian2025: the Section V statements that lower modules judge results by.

:func:`lgbm_checks` (Figs. 1-5, Section V-A) and :func:`two_step_checks` (Fig. 6,
Section V-B), with their tolerances. They read only results, so :mod:`.asym` and
:mod:`.kary` use them without importing :mod:`.checks` (which imports both).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

__all__ = ["ACC_TOLERANCE", "LARGE_EPSILON", "lgbm_checks", "two_step_checks"]

#: Accuracy tolerance of "comparable accuracy" (absolute, one point).
ACC_TOLERANCE = 0.01
#: Epsilons from which the paper says OPT's fairness gains show ("as epsilon increases").
LARGE_EPSILON = 1.0


def _means(df: pd.DataFrame, metrics: Sequence[str]) -> pd.DataFrame:
    return df.groupby(["mechanism", "epsilon"], dropna=False)[list(metrics)].mean()


def lgbm_checks(results: pd.DataFrame, figure: str) -> tuple[str, dict[str, bool]]:
    """Section V-A's claim on one of Figs. 1-5: OPT lowers both gaps at comparable accuracy.

    Checks, at every epsilon >= :data:`LARGE_EPSILON` of the figure: OPT's mean
    Delta_SP and Delta_EO below GRR's; and at every epsilon: OPT's mean accuracy
    within :data:`ACC_TOLERANCE` of GRR's.
    """
    if results.empty or "OPT" not in set(results["mechanism"]) or "GRR" not in set(results["mechanism"]):
        return "no results", {}
    m = _means(results, ["acc", "Delta_SP", "Delta_EO"])
    opt, grr = m.loc["OPT"], m.loc["GRR"]
    eps = [e for e in opt.index if e in grr.index]
    large = [e for e in eps if e >= LARGE_EPSILON]
    sp = [e for e in large if opt.at[e, "Delta_SP"] < grr.at[e, "Delta_SP"]]
    eo = [e for e in large if opt.at[e, "Delta_EO"] < grr.at[e, "Delta_EO"]]
    acc_gap = max(abs(opt.at[e, "acc"] - grr.at[e, "acc"]) for e in eps)
    checks = {
        f"{figure}: OPT Delta_SP < GRR at eps >= {LARGE_EPSILON:g}": len(sp) == len(large) and bool(large),
        f"{figure}: OPT Delta_EO < GRR at eps >= {LARGE_EPSILON:g}": len(eo) == len(large) and bool(large),
        f"{figure}: |acc(OPT) - acc(GRR)| <= {ACC_TOLERANCE:g}": bool(acc_gap <= ACC_TOLERANCE),
    }
    e_max = max(eps)
    evidence = (f"{figure}: OPT below GRR in Delta_SP at {len(sp)}/{len(large)} and in Delta_EO at "
                f"{len(eo)}/{len(large)} epsilons >= {LARGE_EPSILON:g}; at eps = {e_max:g}: Delta_SP "
                f"{opt.at[e_max, 'Delta_SP']:.3f} vs {grr.at[e_max, 'Delta_SP']:.3f}, Delta_EO "
                f"{opt.at[e_max, 'Delta_EO']:.3f} vs {grr.at[e_max, 'Delta_EO']:.3f}; largest accuracy "
                f"gap {acc_gap:.4f}")
    return evidence, checks


def two_step_checks(results: pd.DataFrame) -> tuple[str, dict[str, bool]]:
    """Section V-B's statements on Fig. 6 (means over splits, true test attribute)."""
    if results.empty:
        return "no results", {}
    means = results.groupby(["dataset", "mechanism", "epsilon"])[["acc", "Delta_EOd"]].mean()
    return two_step_from_means(means)


def two_step_from_means(m: pd.DataFrame) -> tuple[str, dict[str, bool]]:
    """:func:`two_step_checks` from the sorted means of acc and Delta_EOd by dataset, mechanism, epsilon."""
    checks: dict[str, bool] = {}
    parts = []
    if "lsac" in m.index.get_level_values(0):
        lo, lr = m.loc[("lsac", "OPT")], m.loc[("lsac", "RR")]
        gap = float((lo["acc"] - lr["acc"]).abs().max())
        better = int((lo["Delta_EOd"] < lr["Delta_EOd"]).sum())
        checks["LSAC: |acc(OPT) - acc(RR)| <= 0.01 at every eps"] = gap <= ACC_TOLERANCE
        checks["LSAC: OPT Delta_EOd < RR at most eps"] = better > len(lo) / 2
        parts.append(f"LSAC: accuracy gap at most {gap:.4f}; OPT lower Delta_EOd at {better}/{len(lo)} eps")
    if "adult" in m.index.get_level_values(0):
        ao, ar = m.loc[("adult", "OPT")], m.loc[("adult", "RR")]
        large = [e for e in ao.index if e >= 4]
        small = [e for e in ao.index if e <= 1]
        lower = sum(ao.at[e, "Delta_EOd"] < ar.at[e, "Delta_EOd"] for e in large)
        higher = sum(ao.at[e, "acc"] > ar.at[e, "acc"] for e in small)
        checks["Adult: OPT Delta_EOd < RR at every eps >= 4"] = lower == len(large) and bool(large)
        checks["Adult: OPT accuracy > RR at every eps <= 1"] = higher == len(small) and bool(small)
        parts.append(f"Adult: OPT lower Delta_EOd at {lower}/{len(large)} eps >= 4, higher accuracy at "
                     f"{higher}/{len(small)} eps <= 1")
    return "; ".join(parts), checks
