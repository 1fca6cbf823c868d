"""Agreement of one published number with our runs: the statistics behind every verdict.

A published number agrees with ours when the difference lies within a 95% interval
of the difference plus the paper's printed precision (paired, Welch, or the median's
order-statistic interval for heavy-tailed quantities); two means are "the same" by
two one-sided tests (:func:`compare_equivalent`). The rules are stated in
:mod:`ldpfair.verdicts`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

__all__ = ["LEVEL", "COMPARISON_COLUMNS", "compare_equivalent", "compare_median", "compare_paired",
           "compare_published", "compare_runs", "compare_welch", "median_interval", "printed_precision"]

#: Confidence level of every agreement interval.
LEVEL: float = 0.95


def printed_precision(decimals: int | None) -> float:
    """Half a unit of the last printed digit: how finely a printed value can be matched.

    ``printed_precision(2) == 0.005``; ``None`` (an unrounded number, e.g. the
    authors' per-run results) gives 0.
    """
    if decimals is None:
        return 0.0
    if isinstance(decimals, bool) or not isinstance(decimals, int | np.integer) or decimals < 0:
        raise ValueError(f"decimals must be a non-negative integer or None, got {decimals!r}")
    return 0.5 * 10.0 ** (-int(decimals))


def _finite(values: Any) -> np.ndarray:
    arr = np.asarray(values, dtype=float).ravel()
    return arr[np.isfinite(arr)]


def _tq(dof: float, level: float) -> float:
    """Two-sided Student-t quantile at ``level`` with ``dof`` (at least 1) degrees of freedom."""
    return _t_ppf(0.5 + level / 2.0, max(float(dof), 1.0))


@functools.lru_cache(maxsize=4096)
def _t_ppf(q: float, dof: float) -> float:
    """``scipy.stats.t.ppf(q, dof)``, once per argument pair and process (the scoreboard asks thousands)."""
    return float(stats.t.ppf(q, dof))


@functools.lru_cache(maxsize=64)
def _norm_ppf(q: float) -> float:
    """``scipy.stats.norm.ppf(q)``, once per argument and process."""
    return float(stats.norm.ppf(q))


def compare_paired(ours: Any, theirs: Any, *, decimals: int | None = None,
                   level: float = LEVEL) -> dict[str, Any]:
    """Agreement of two sets of runs on the same seeds (paired Student-t interval).

    Parameters
    ----------
    ours, theirs : array-like
        Per-run values, aligned: ``ours[i]`` and ``theirs[i]`` share seed/split ``i``.
        Pairs with a non-finite side are dropped.
    decimals : int, optional
        Printed precision of ``theirs`` (:func:`printed_precision`).
    level : float
        Confidence level.

    Returns
    -------
    dict
        ``ours, paper, diff, halfwidth, precision, n_runs, test, agrees``.
    """
    a = np.asarray(ours, dtype=float).ravel()
    b = np.asarray(theirs, dtype=float).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired runs must be aligned: ours has {a.size}, theirs {b.size}")
    keep = np.isfinite(a) & np.isfinite(b)
    d = a[keep] - b[keep]
    n = int(d.size)
    prec = printed_precision(decimals)
    if n == 0:
        return _row(np.nan, np.nan, np.nan, np.nan, prec, 0, "paired")
    diff = float(d.mean())
    half = _tq(n - 1, level) * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    return _row(float(a[keep].mean()), float(b[keep].mean()), diff, half, prec, n, "paired")


def compare_welch(ours: Any, paper_mean: float, *, paper_std: float | None = None,
                  paper_n: int | None = None, paper_ci: float | None = None,
                  decimals: int | None = None, level: float = LEVEL) -> dict[str, Any]:
    """Agreement of our runs with a published mean (Welch interval where the paper gives a spread).

    Parameters
    ----------
    ours : array-like
        Our per-run values (non-finite ones are dropped).
    paper_mean : float
        The published mean.
    paper_std, paper_n : float, int, optional
        The published standard deviation and its number of runs.
    paper_ci : float, optional
        The published confidence-interval half-width at ``level`` (with ``paper_n``,
        converted to a standard error; without, taken as the standard error times
        the normal quantile).
    decimals : int, optional
        Printed precision of the published numbers.
    level : float
        Confidence level.

    Returns
    -------
    dict
        ``ours, paper, diff, halfwidth, precision, n_runs, test, agrees``; ``test`` is
        ``"welch"`` with a published spread, ``"t"`` (our interval alone) without.
    """
    x = _finite(ours)
    n = int(x.size)
    prec = printed_precision(decimals)
    pm = float(paper_mean) if paper_mean is not None else float("nan")
    if n == 0 or not math.isfinite(pm):
        return _row(float(x.mean()) if n else np.nan, pm, np.nan, np.nan, prec, n, "t")
    v1 = float(x.var(ddof=1)) / n if n > 1 else 0.0
    v2: float | None = None
    dof2 = 1  # set together with v2
    if paper_std is not None and paper_n and math.isfinite(float(paper_std)):
        v2, dof2 = float(paper_std) ** 2 / int(paper_n), int(paper_n) - 1
    elif paper_ci is not None and math.isfinite(float(paper_ci)):
        q = _tq(int(paper_n) - 1, level) if paper_n else _norm_ppf(0.5 + level / 2.0)
        v2, dof2 = (float(paper_ci) / q) ** 2, (int(paper_n) - 1 if paper_n else 10**6)
    if v2 is None:
        half = _tq(n - 1, level) * math.sqrt(v1)
        test = "t"
    else:
        den = (v1**2 / max(n - 1, 1) if n > 1 else 0.0) + v2**2 / max(dof2, 1)
        dof = (v1 + v2) ** 2 / den if den > 0 else max(n - 1, 1)
        half = _tq(dof, level) * math.sqrt(v1 + v2)
        test = "welch"
    diff = float(x.mean()) - pm
    return _row(float(x.mean()), pm, diff, half, prec, n, test)


def median_interval(values: Any, *, level: float = LEVEL) -> tuple[float, float, float, float]:
    """The sample median and its distribution-free order-statistic confidence interval.

    With ``n`` finite values sorted, the interval is ``[x_(k), x_(n-k+1)]`` for the
    largest ``k`` such that ``P(B <= k - 1) <= (1 - level) / 2``, ``B ~ Binomial(n, 1/2)``:
    it covers the population median with probability at least ``level`` whatever the
    distribution (no moment needed, so it is valid for Cauchy noise).

    Returns
    -------
    (median, low, high, coverage)
        ``low``/``high`` are NaN and ``coverage`` 0 when ``n`` is too small for the
        level (fewer than 6 values at 95%).
    """
    x = np.sort(_finite(values))
    n = int(x.size)
    if n == 0:
        return float("nan"), float("nan"), float("nan"), 0.0
    med = float(np.median(x))
    alpha = (1.0 - level) / 2.0
    # k = number of values cut from each end, +1: P(B <= k - 1) <= alpha
    k = int(stats.binom.ppf(alpha, n, 0.5))
    if stats.binom.cdf(k, n, 0.5) > alpha:
        k -= 1
    k += 1  # 1-based rank of the lower end
    if k < 1 or k > n - k + 1:
        return med, float("nan"), float("nan"), 0.0
    coverage = 1.0 - 2.0 * float(stats.binom.cdf(k - 1, n, 0.5))
    return med, float(x[k - 1]), float(x[n - k]), coverage


def compare_median(ours: Any, paper_value: float, *, decimals: int | None = None,
                   level: float = LEVEL) -> dict[str, Any]:
    """Agreement of our runs' median with a published number (for heavy-tailed quantities).

    For quantities without a finite mean or variance (errors under Cauchy noise)
    a mean and its Welch interval are meaningless: one extreme draw makes the
    interval as wide as it likes, so anything "agrees". The median's
    order-statistic interval (:func:`median_interval`) is valid for any
    distribution. The published number agrees when it lies within that interval
    widened by the printed precision.

    Returns
    -------
    dict
        ``ours`` (the median), ``paper, diff, halfwidth`` (the interval's side facing
        the paper), ``precision, n_runs, test`` (``"median"``), ``agrees``, and ``low``,
        ``high``, ``coverage``. Too few runs for the level: the comparison cannot be
        made and does not agree (``test = "median: too few runs"``).
    """
    med, lo, hi, cov = median_interval(ours, level=level)
    n = int(_finite(ours).size)
    prec = printed_precision(decimals)
    pm = float(paper_value) if paper_value is not None else float("nan")
    if n == 0 or not math.isfinite(pm) or not math.isfinite(lo):
        out = _row(med, pm, med - pm if n else np.nan, np.nan, prec, n,
                   "median" if n == 0 else "median: too few runs")
        out["agrees"] = False
        return {**out, "low": lo, "high": hi, "coverage": cov}
    diff = med - pm
    half = (hi - med) if diff < 0 else (med - lo)
    return {**_row(med, pm, diff, half, prec, n, "median"), "low": lo, "high": hi, "coverage": cov}


def compare_equivalent(mean_a: float, mean_b: float, margin: float, *, std_a: float | None = None,
                       n_a: int | None = None, std_b: float | None = None, n_b: int | None = None,
                       level: float = LEVEL) -> dict[str, Any]:
    """Two one-sided tests (TOST) that ``a`` and ``b`` are the same within ``margin``.

    "The same" is shown when the ``1 - 2 * (1 - level)`` Welch interval of ``a - b``
    (90% at the default 95%) lies inside ``(-margin, margin)``: each one-sided test
    rejects a difference of at least ``margin`` at ``1 - level``. A side without
    ``std``/``n`` is an exact value (no sampling noise). A difference that is small
    but measured too noisily is **not** shown to be the same.

    Parameters
    ----------
    mean_a, mean_b : float
        The two means.
    margin : float
        The largest difference that counts as "the same" (positive), stated from the
        paper's own scale by the caller.
    std_a, n_a, std_b, n_b : float, int, optional
        Standard deviations (``ddof=1``) and numbers of runs behind the means.
    level : float
        Confidence level of each one-sided test.

    Returns
    -------
    dict
        ``diff, low, high, margin, equivalent`` (NaN inputs: not equivalent).
    """
    if not (isinstance(margin, int | float) and math.isfinite(margin) and margin > 0):
        raise ValueError(f"margin must be a positive number, got {margin!r}")
    diff = float(mean_a) - float(mean_b)
    parts, dofs = [], []
    for sd, n in ((std_a, n_a), (std_b, n_b)):
        if sd is None or n is None or (isinstance(n, float) and math.isnan(n)):
            continue
        v = float(sd) ** 2 / int(n)
        parts.append(v)
        dofs.append(int(n) - 1)
    var = float(sum(parts))
    if var > 0:
        den = sum(v**2 / max(d, 1) for v, d in zip(parts, dofs, strict=True))
        dof = var**2 / den if den > 0 else 1.0
        half = _tq(dof, 2.0 * level - 1.0) * math.sqrt(var)
    else:
        half = 0.0
    lo, hi = diff - half, diff + half
    ok = bool(math.isfinite(lo) and math.isfinite(hi) and -margin < lo and hi < margin)
    return {"diff": diff, "low": lo, "high": hi, "margin": float(margin), "equivalent": ok}


def _row(ours: float, paper: float, diff: float, half: float, prec: float, n: int,
         test: str) -> dict[str, Any]:
    ok = bool(math.isfinite(diff) and abs(diff) <= (half if math.isfinite(half) else 0.0) + prec + 1e-12)
    return {"ours": ours, "paper": paper, "diff": diff, "halfwidth": half, "precision": prec,
            "n_runs": n, "test": test, "agrees": ok}


#: Columns of a long comparison table (:func:`compare_published`, :func:`compare_runs`) after the
#: identifying columns. ``n_runs`` (our runs behind the comparison) cannot collide with a grid
#: parameter such as ``n``.
COMPARISON_COLUMNS: tuple[str, ...] = ("metric", "ours", "paper", "diff", "halfwidth", "precision", "n_runs",
                                      "test", "agrees")
_LONG = COMPARISON_COLUMNS


def compare_runs(ours: pd.DataFrame, theirs: pd.DataFrame, on: str | Sequence[str],
                 metrics: str | Sequence[str], *, pair_on: str | None = "seed",
                 level: float = LEVEL) -> pd.DataFrame:
    """Cell-by-cell agreement of our runs with the authors' per-run results.

    Every cell of ``theirs`` is compared per metric; with ``pair_on`` (the
    seed/split column both sides share) the test is paired on the runs present on
    both sides (:func:`compare_paired`), else Welch on the two sets of runs
    (:func:`compare_welch` with the authors' mean, spread and count). A cell
    missing on our side is a row that does not agree (``n_runs = 0``, test
    ``"missing"``). The authors' per-run results are unrounded (precision 0).

    Returns
    -------
    pandas.DataFrame
        One row per cell and metric: the ``on`` columns and ``metric, ours, paper,
        diff, halfwidth, precision, n_runs, test, agrees`` (``paper`` is the authors' mean).
    """
    on = [on] if isinstance(on, str) else list(on)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    if theirs.empty:
        return pd.DataFrame(columns=[*on, *_LONG])
    cells = theirs[on].drop_duplicates().reset_index(drop=True)
    t_vals = theirs[metrics].to_numpy(dtype=float)
    o_vals = ours[metrics].to_numpy(dtype=float) if len(ours) else np.empty((0, len(metrics)))
    runs = ours[on] if len(ours) else theirs[on].iloc[:0]
    if pair_on is not None and len(ours):  # the runs of both sides on the same seed
        keys = [*on, pair_on]
        o_cols, t_cols = [f"\0o{i}" for i in metrics], [f"\0t{i}" for i in metrics]
        j = ours[[*keys, *metrics]].set_axis([*keys, *o_cols], axis=1).merge(
            theirs[[*keys, *metrics]].set_axis([*keys, *t_cols], axis=1), on=keys)
        runs, o_vals, j_vals = j[on], j[o_cols].to_numpy(dtype=float), j[t_cols].to_numpy(dtype=float)
    # Each cell's number in the sorted order of the cells (``groupby(on, dropna=False)``'s
    # order): grouping runs by it is grouping them by ``on``, at a fraction of the cost.
    code = pd.concat([cells, theirs[on], runs], ignore_index=True).groupby(on, dropna=False).ngroup()
    cell_code, t_code, o_code = np.split(code.to_numpy(), [len(cells), len(cells) + len(theirs)])
    paper = _group_means(t_vals, t_code, cell_code)
    with np.errstate(invalid="ignore", divide="ignore"):
        if pair_on is not None:
            keep = np.isfinite(o_vals) & np.isfinite(j_vals) if len(ours) else np.isfinite(o_vals)
            d = np.where(keep, o_vals - j_vals, np.nan) if len(ours) else o_vals
            n = _group_stat(d, o_code, cell_code, "count")
            ours_mean = _group_means(o_vals, o_code, cell_code, keep)
            diff = _group_means(d, o_code, cell_code, keep)
            se2 = _group_stat(d, o_code, cell_code, "std") ** 2 / n
            dof = n - 1.0
        else:
            ko, kt = np.isfinite(o_vals), np.isfinite(t_vals)
            o_fin, t_fin = np.where(ko, o_vals, np.nan), np.where(kt, t_vals, np.nan)
            n = _group_stat(o_fin, o_code, cell_code, "count")
            n2 = _group_stat(t_fin, t_code, cell_code, "count")
            n[~(n2 > 0)] = np.nan  # a cell compared only where both sides have runs
            ours_mean = _group_means(o_vals, o_code, cell_code, ko)
            diff = ours_mean - _group_means(t_vals, t_code, cell_code, kt)
            v1 = _group_stat(o_fin, o_code, cell_code, "var") / n
            v2 = _group_stat(t_fin, t_code, cell_code, "var") / n2
            v1, v2 = np.where(np.isnan(v1), 0.0, v1), np.where(np.isnan(v2), 0.0, v2)
            se2 = v1 + v2
            dof = se2**2 / (v1**2 / np.maximum(n - 1, 1) + v2**2 / np.maximum(n2 - 1, 1))
        absent = ~(n > 0)
        q = stats.t.ppf(0.5 + level / 2.0, np.maximum(np.where(np.isnan(dof), 1.0, dof), 1.0).ravel())
        half = np.where(n > 1, q.reshape(n.shape) * np.sqrt(np.where(np.isnan(se2), 0.0, se2)), 0.0)
    for arr in (ours_mean, diff, half):
        arr[absent] = np.nan  # a cell we lack
    nc = len(cells)
    out = cells.iloc[np.tile(np.arange(nc), len(metrics))].reset_index(drop=True)
    out["metric"] = [m for m in metrics for _ in range(nc)]
    count = np.where(absent, 0, n).astype(int).ravel(order="F")
    diff_flat, half_flat = diff.ravel(order="F"), half.ravel(order="F")
    out["ours"], out["paper"], out["diff"] = ours_mean.ravel(order="F"), paper.ravel(order="F"), diff_flat
    out["halfwidth"], out["precision"], out["n_runs"] = half_flat, 0.0, count
    out["test"] = np.where(count > 0, "paired" if pair_on is not None else "welch", "missing")
    out["agrees"] = (count > 0) & (np.abs(diff_flat) <= half_flat + 1e-12)
    return out[[*on, *_LONG]]


def _group_means(values: np.ndarray, code: np.ndarray, cells: np.ndarray,
                 keep: np.ndarray | None = None) -> np.ndarray:
    """Per cell (rows) and metric (columns): the mean of the kept runs, NaN without any.

    One metric at a time, as pandas groups that metric's kept runs: its grouped mean
    takes a faster path when a column has no NaN, so the metrics are not grouped together.
    """
    out = np.full((len(cells), values.shape[1]), np.nan)
    for i in range(values.shape[1]):
        k = slice(None) if keep is None else keep[:, i]
        out[:, i] = pd.Series(values[k, i]).groupby(code[k]).mean().reindex(cells).to_numpy()
    return out


def _group_stat(values: np.ndarray, code: np.ndarray, cells: np.ndarray, how: str) -> np.ndarray:
    """Per cell and metric: ``count``, ``var`` or ``std`` (``ddof=1``) of the non-NaN runs, NaN without any.

    Every metric at once: pandas' grouped variance (Welford's update) and count skip NaN
    value by value, so each column equals the statistic of that metric's kept runs alone.
    """
    g = pd.DataFrame(values).groupby(code)
    stat = g.count() if how == "count" else getattr(g, how)(ddof=1)
    return stat.reindex(cells).to_numpy(dtype=float, copy=True)


def compare_published(ours: pd.DataFrame, published: pd.DataFrame, by: str | Sequence[str],
                      metrics: str | Sequence[str], *,
                      decimals: int | Mapping[str, int | None] | None = None,
                      paper_n: int | None = None, level: float = LEVEL,
                      statistic: str = "mean") -> pd.DataFrame:
    """Agreement of our runs with numbers printed in the paper, one row per number.

    Parameters
    ----------
    ours : pandas.DataFrame
        Our per-run results with the ``by`` columns and the metrics.
    published : pandas.DataFrame
        The paper's numbers: the ``by`` columns, one column per metric, and
        optionally ``<metric>_std`` (with ``paper_n``) or ``<metric>_ci``
        (a confidence-interval half-width). NaN means the paper prints none.
    by, metrics : str or sequence of str
        Identifying columns and metrics.
    decimals : int or mapping, optional
        Printed decimals of each metric (:func:`printed_precision`).
    paper_n : int, optional
        Number of runs behind the published means.
    statistic : {"mean", "median"}
        ``"mean"``: :func:`compare_welch`; ``"median"``: :func:`compare_median`, for
        heavy-tailed quantities (the book's heavy-tail rule; published spreads are
        then not used).

    Returns
    -------
    pandas.DataFrame
        One row per published number: the ``by`` columns and ``metric, ours, paper,
        diff, halfwidth, precision, n_runs, test, agrees``.
    """
    if statistic not in ("mean", "median"):
        raise ValueError(f"statistic must be 'mean' or 'median', got {statistic!r}")
    by = [by] if isinstance(by, str) else list(by)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    groups = dict(iter(ours.groupby(by, sort=False, dropna=False))) if len(ours) else {}
    rows: list[dict[str, Any]] = []
    for rec in published.to_dict("records"):
        key = tuple(rec[c] for c in by)
        cell = groups.get(key if len(by) > 1 else key[0], groups.get(key))
        for m in metrics:
            pm = rec.get(m)
            if pm is None or (isinstance(pm, float) and math.isnan(pm)):
                continue
            dec = decimals.get(m) if isinstance(decimals, Mapping) else decimals
            vals = cell[m] if cell is not None and m in cell else []
            if statistic == "median":
                res = compare_median(vals, float(pm), decimals=dec, level=level)
                res = {k: res[k] for k in COMPARISON_COLUMNS[1:]}
            else:
                res = compare_welch(vals, float(pm), paper_std=_num(rec.get(f"{m}_std")),
                                    paper_n=paper_n, paper_ci=_num(rec.get(f"{m}_ci")),
                                    decimals=dec, level=level)
            if res["n_runs"] == 0:
                res["test"] = "missing"
            rows.append({**dict(zip(by, key, strict=True)), "metric": m, **res})
    return pd.DataFrame(rows, columns=[*by, *_LONG])


def _num(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None
