"""The book's verdict rules, in one place.

Every figure, table and claim of a paper gets one status, computed from the
committed results by the rules below; no chapter decides its own threshold and no
tolerance is widened to make an item pass.

Agreement of one published number
---------------------------------
A published number agrees with ours when the difference lies within a 95%
interval of the difference plus the paper's own printed precision:

- **paired** (:func:`compare_paired`) where both sides are per-run results on the
  same seeds/splits (the authors' per-seed results): a one-sample Student-t
  interval of the per-seed differences;
- **Welch** (:func:`compare_welch`) otherwise: the Welch interval of the two means
  when the paper gives its spread (a standard deviation with its number of runs,
  or a confidence-interval half-width), else the Student-t interval of our mean;
- **precision** (:func:`printed_precision`): a value printed with ``k`` decimals
  cannot be matched more finely than ``0.5 * 10**-k``; it is added to the interval,
  nothing else is.

**Heavy tails.** A quantity without a finite mean or variance (an error under
Cauchy noise) is compared by its median with the distribution-free
order-statistic interval (:func:`compare_median`), never by a Welch interval on
means: one extreme draw makes such an interval as wide as it likes, so anything
would "agree".

**Verifications.** A published number that ours equals by construction (an error
of 0 at epsilon = infinity, a check of our code against itself) is a
verification, not a reproduction: it does not count in the share
(``construction=`` of :func:`score_item`).

Status of an item
-----------------
``share`` is the fraction of the item's published numbers that agree. Then
**reproduced** when ``share >= 0.90``, **partly** when ``0.50 <= share < 0.90``,
**not reproduced** below. Qualitative checks the paper states (a trend, an
ordering) are extra checks that can only lower the status: their own share is
mapped by the same thresholds and the worse of the two statuses is kept. While
only part of an item's runs are committed it is at best **partly**. An item that
the paper gives no number or trend for, checked only against our own code (a
worked example, a theorem checked by brute force) is **verified**, never
"reproduced". A chapter no paper has is a **new result**.

Discrepancy ledger
------------------
Every item or claim that is not reproduced carries a :class:`Cause`, decided by
:func:`decide_cause` (the only road to one) from the chapter's computed
:class:`Check` objects; a chapter supplies checks, never labels. The item's
``disagreeing`` are its published numbers and checks that do not agree; a check
that holds ``covers`` some of them:

- **explained**: a switchable variant passes the same checks, under the same rule,
  that the default fails (:func:`variant_check`: a variant that still fails one of
  them covers nothing for it; one that fails a check the default passes covers
  nothing);
- **paper error**: a check computed on the paper's own numbers or the authors' own
  runs demonstrates the error for each disagreement it covers;
- **data unavailable**: the missing file is named;
- **unexplained**: otherwise, with "k of n disagreements explained", the covered
  parts and what was tried.

An item is explained / paper error / data unavailable only when ``covered ==
disagreeing``; mixed causes are listed per part (the label is the kind covering
the most). A claim's disagreements are its failing checks. Reproduced and verified
items have cause ``-`` (:data:`NO_CAUSE`). :func:`check_ledger` enforces this.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

__all__ = [
    "CAUSES",
    "CHECK_KINDS",
    "DEMONSTRATED",
    "LEVEL",
    "NO_CAUSE",
    "NO_CAUSE_RECORDED",
    "SHARE_PARTLY",
    "SHARE_REPRODUCED",
    "STATUSES",
    "VERDICTS",
    "Cause",
    "CausePart",
    "Check",
    "ITEM_COLUMNS",
    "check_ledger",
    "claim_cause",
    "compare_equivalent",
    "compare_median",
    "decide_cause",
    "failing",
    "median_interval",
    "variant_check",
    "compare_paired",
    "compare_published",
    "compare_runs",
    "compare_welch",
    "printed_precision",
    "score_item",
    "share_status",
    "status",
    "worse",
]

#: Confidence level of every agreement interval.
LEVEL: float = 0.95
#: Share of agreeing published numbers from which an item is "reproduced".
SHARE_REPRODUCED: float = 0.90
#: Share from which an item is "partly" reproduced.
SHARE_PARTLY: float = 0.50
#: Verdicts of a comparison with the paper, best first.
VERDICTS: tuple[str, str, str] = ("reproduced", "partly", "not reproduced")
#: Every status an item can have: the verdicts, then "verified" (checked against our own
#: code only: the paper gives no number), "new result" (no paper to reproduce) and
#: "not yet" (no committed results).
STATUSES: tuple[str, ...] = (*VERDICTS, "verified", "new result", "not yet")
#: Cause of a reproduced or verified item.
NO_CAUSE: str = "-"
#: Causes of a discrepancy (an item or claim that is not reproduced).
CAUSES: tuple[str, ...] = ("explained", "paper error", "data unavailable", "unexplained")
#: The reason a discrepancy gets when its chapter recorded no cause (the ledger test rejects it).
NO_CAUSE_RECORDED: str = "no cause recorded yet"


# --------------------------------------------------------------------------- agreement
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
    return float(stats.t.ppf(0.5 + level / 2.0, max(dof, 1.0)))


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
        ``ours, paper, diff, halfwidth, precision, n, test, agrees``.
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
        ``ours, paper, diff, halfwidth, precision, n, test, agrees``; ``test`` is
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
        q = _tq(int(paper_n) - 1, level) if paper_n else float(stats.norm.ppf(0.5 + level / 2.0))
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
        the paper), ``precision, n, test`` (``"median"``), ``agrees``, and ``low``,
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
            "n": n, "test": test, "agrees": ok}


_LONG = ("metric", "ours", "paper", "diff", "halfwidth", "precision", "n", "test", "agrees")


def compare_runs(ours: pd.DataFrame, theirs: pd.DataFrame, on: str | Sequence[str],
                 metrics: str | Sequence[str], *, pair_on: str | None = "seed",
                 level: float = LEVEL) -> pd.DataFrame:
    """Cell-by-cell agreement of our runs with the authors' per-run results.

    Every cell of ``theirs`` is compared per metric; with ``pair_on`` (the
    seed/split column both sides share) the test is paired on the runs present on
    both sides (:func:`compare_paired`), else Welch on the two sets of runs
    (:func:`compare_welch` with the authors' mean, spread and count). A cell
    missing on our side is a row that does not agree (``n = 0``, test
    ``"missing"``). The authors' per-run results are unrounded (precision 0).

    Returns
    -------
    pandas.DataFrame
        One row per cell and metric: the ``on`` columns and ``metric, ours, paper,
        diff, halfwidth, precision, n, test, agrees`` (``paper`` is the authors' mean).
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
    out["halfwidth"], out["precision"], out["n"] = half_flat, 0.0, count
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
        diff, halfwidth, precision, n, test, agrees``.
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
                res = {k: res[k] for k in ("ours", "paper", "diff", "halfwidth", "precision", "n", "test",
                                           "agrees")}
            else:
                res = compare_welch(vals, float(pm), paper_std=_num(rec.get(f"{m}_std")),
                                    paper_n=paper_n, paper_ci=_num(rec.get(f"{m}_ci")),
                                    decimals=dec, level=level)
            if res["n"] == 0:
                res["test"] = "missing"
            rows.append({**dict(zip(by, key, strict=True)), "metric": m, **res})
    return pd.DataFrame(rows, columns=[*by, *_LONG])


def _num(x: Any) -> float | None:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


# --------------------------------------------------------------------------- status
def share_status(share: float) -> str:
    """The verdict of a share of agreeing numbers (or of passing checks)."""
    if share is None or not math.isfinite(float(share)):
        raise ValueError(f"share must be a finite number in [0, 1], got {share!r}")
    if not 0.0 <= float(share) <= 1.0:
        raise ValueError(f"share must be in [0, 1], got {share!r}")
    if share >= SHARE_REPRODUCED:
        return VERDICTS[0]
    if share >= SHARE_PARTLY:
        return VERDICTS[1]
    return VERDICTS[2]


def worse(*statuses: str) -> str:
    """The worst of several verdicts."""
    return VERDICTS[max(VERDICTS.index(s) for s in statuses)]


def _bools(checks: Mapping[str, Any] | Iterable[Any] | None) -> list[bool]:
    if checks is None:
        return []
    values = checks.values() if isinstance(checks, Mapping) else checks
    return [bool(v) if v is not None and v == v else False for v in values]


def status(agrees: Iterable[Any] | None = None, *, trends: Mapping[str, Any] | Iterable[Any] | None = None,
           present: int | None = None, total: int | None = None) -> tuple[str, float]:
    """Status and share of an item compared with the paper.

    Parameters
    ----------
    agrees : iterable of bool, optional
        One entry per published number: whether it agrees with ours.
    trends : mapping or iterable of bool, optional
        The paper's qualitative statements about the item, checked on our results;
        they can only lower the status.
    present, total : int, optional
        Committed and declared runs: ``present == 0`` is "not yet"; ``present < total``
        caps the status at "partly".

    Returns
    -------
    (str, float)
        The status and the share of agreeing numbers (NaN without published numbers,
        in which case the trends alone decide).
    """
    nums = _bools(agrees)
    tr = _bools(trends)
    if present == 0 or (not nums and not tr):
        return "not yet", float("nan")
    share = float(np.mean(nums)) if nums else float("nan")
    verdicts = []
    if nums:
        verdicts.append(share_status(share))
    if tr:
        verdicts.append(share_status(float(np.mean(tr))))
    out = worse(*verdicts)
    if present is not None and total is not None and present < total:
        out = worse(out, "partly")
    return out, share


# --------------------------------------------------------------------------- ledger
#: Kinds of a :class:`Check`: what it would demonstrate if it holds.
CHECK_KINDS: tuple[str, ...] = ("variant", "paper", "data", "tried")
#: The cause a holding check of each kind demonstrates ("tried" demonstrates none).
_KIND_CAUSE: dict[str, str] = {"variant": "explained", "paper": "paper error", "data": "data unavailable"}


@dataclass(frozen=True)
class Check:
    """One computed check behind a cause: the only thing a chapter gives :func:`decide_cause`.

    Parameters
    ----------
    statement : str
        One sentence: what was computed.
    holds : bool
        The computed outcome (a ``bool`` or numpy bool computed from results; ``None``
        or NaN is refused: a check that was not computed cannot hold).
    evidence : str
        The numbers behind it, in words.
    kind : str
        One of :data:`CHECK_KINDS`:

        - ``"variant"``: a switchable variant of the computation passes the item's
          checks that the default fails, under the same rule (build it with
          :func:`variant_check`, which computes ``holds`` and ``covers`` from both
          sides' checks); ``source`` names the variant's parameter value;
        - ``"paper"``: computed on the paper's own numbers or on the authors' own runs,
          it demonstrates the error for each disagreement it ``covers``;
        - ``"data"``: the data or code that produced the numbers does not exist;
          ``source`` names the missing file;
        - ``"tried"``: a reading that was tried and does not land (it covers nothing;
          it is listed in the text of an ``unexplained`` cause).
    covers : tuple of str
        Ids of the item's disagreements (published numbers or checks that do not
        agree) this check accounts for when it holds.
    source : str
        The variant's parameter value (``"variant"``) or the missing file (``"data"``).
    """

    statement: str
    holds: bool
    evidence: str
    kind: str
    covers: tuple[str, ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in CHECK_KINDS:
            raise ValueError(f"check kind must be one of {list(CHECK_KINDS)}, got {self.kind!r}")
        if not str(self.statement).strip():
            raise ValueError("a check needs a statement saying what was computed")
        h = self.holds
        if isinstance(h, float) or h is None or not isinstance(h, bool | np.bool_):
            raise ValueError(f"check {self.statement!r}: holds must be a computed bool, got {h!r}")
        object.__setattr__(self, "holds", bool(h))
        if isinstance(self.covers, str):
            raise ValueError(f"check {self.statement!r}: covers must be a sequence of ids, not one string")
        object.__setattr__(self, "covers", tuple(str(c) for c in self.covers))
        if self.kind in ("variant", "data") and not str(self.source).strip():
            what = "the variant's parameter value" if self.kind == "variant" else "the missing file"
            raise ValueError(f"a {self.kind!r} check names {what} in source: {self.statement!r}")

    @property
    def counts(self) -> bool:
        """Whether this check demonstrates a cause (it holds and is not merely ``"tried"``)."""
        return self.holds and self.kind != "tried"


def failing(checks: Mapping[str, Any]) -> list[str]:
    """The names of the checks that do not pass (NaN/None count as not passing): the disagreements."""
    return [str(k) for k, v in checks.items() if not (v is not None and v == v and bool(v))]


def variant_check(statement: str, *, source: str, default: Mapping[str, Any],
                  variant: Mapping[str, Any], evidence: str = "") -> Check:
    """A ``"variant"`` check: the variant judged by the same checks, under the same rule, as the default.

    Parameters
    ----------
    statement : str
        What the variant is.
    source : str
        Its parameter value.
    default, variant : mapping of str to bool
        The item's checks (or per-number agreements) under the default and under the
        variant, computed by the same function; the keys must be the same.
    evidence : str
        The numbers, in words.

    Returns
    -------
    Check
        ``covers`` the default's failing checks that the variant passes; ``holds``
        when it covers at least one and the variant fails none of the checks the
        default passes (a variant that breaks a passing check reproduces nothing:
        it moves the disagreement). A variant still failing one of the item's checks
        covers nothing for that check, so the item is then not ``explained``.
    """
    if set(default) != set(variant):
        raise ValueError(f"variant {source!r} is judged by other checks than the default: "
                         f"only default {sorted(set(default) - set(variant))}, "
                         f"only variant {sorted(set(variant) - set(default))}")
    d_fail, v_fail = set(failing(default)), set(failing(variant))
    broken = [k for k in default if k in v_fail and k not in d_fail]
    covers = tuple(k for k in default if k in d_fail and k not in v_fail)
    still = [k for k in default if k in d_fail and k in v_fail]
    words = [f"The variant passes {len(covers)} of the default's {len(d_fail)} failing checks"]
    if still:
        words.append("still fails " + "; ".join(still))
    if broken:
        words.append("fails what the default passes: " + "; ".join(broken))
    text = ". ".join(x for x in (evidence.strip().rstrip("."), ", ".join(words)) if x)
    return Check(statement, bool(covers) and not broken, text, "variant",
                 covers=covers if not broken else (), source=source)


@dataclass(frozen=True)
class CausePart:
    """The part of an item's disagreements one holding check accounts for (see :func:`decide_cause`)."""

    cause: str
    statement: str
    evidence: str
    covers: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True)
class Cause:
    """Why an item or claim is not reproduced: made by :func:`decide_cause`, never by a chapter.

    Parameters
    ----------
    kind : str
        One of :data:`CAUSES`.
    text : str
        The cause and its evidence (for ``unexplained``: what was covered and what was tried).
    label : str
        Where the chapter shows the evidence: a MyST target or ``"#heading-anchor"``.
    disagreeing, covered : int
        How many of the item's published numbers or checks disagree, and how many of
        those a demonstrated cause covers.
    parts : tuple of CausePart
        The evidence of each covered part (mixed causes are listed per part).
    decided : bool
        True when made by :func:`decide_cause` from computed checks.
    """

    kind: str
    text: str
    label: str = ""
    disagreeing: int = 0
    covered: int = 0
    parts: tuple[CausePart, ...] = ()
    decided: bool = False

    def __post_init__(self) -> None:
        if self.kind not in CAUSES:
            raise ValueError(f"cause kind must be one of {list(CAUSES)}, got {self.kind!r}")
        if not self.text.strip():
            raise ValueError("a cause needs a sentence saying what shows it "
                             "(or, if unexplained, what was tried)")
        if not 0 <= self.covered <= self.disagreeing and self.decided:
            raise ValueError(f"covered must be between 0 and disagreeing ({self.disagreeing}), "
                             f"got {self.covered}")
        if self.decided and self.kind != "unexplained" and not self.covered == self.disagreeing >= 1:
            raise ValueError(f"a cause {self.kind!r} covers every disagreement: "
                             f"{self.covered} of {self.disagreeing}")


def _list(ids: Sequence[str], limit: int = 8) -> str:
    ids = list(ids)
    head = ", ".join(ids[:limit])
    return head + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def _sentence(text: str) -> str:
    """``text`` as a sentence: a final full stop, and a capital if it opens with a plain word.

    An opening identifier (``compas_3: ...``, ``fig3: ...``) keeps its case.
    """
    text = str(text).strip()
    if not text:
        return text
    if re.match(r"[a-z]+[ ,;:]", text) and not re.match(r"[a-z]+\d", text):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def decide_cause(disagreements: Sequence[str], checks: Sequence[Check], label: str = "", *,
                 note: str = "") -> Cause:
    """The cause of an item's or claim's disagreements, by the book's rules, from computed checks.

    Parameters
    ----------
    disagreements : sequence of str
        Ids of the item's published numbers or checks that do not agree (for a claim:
        its failing checks, :func:`failing`).
    checks : sequence of Check
        The chapter's computed checks. A check demonstrates a cause when it holds and
        is not ``"tried"``; it covers the disagreements named in its ``covers`` (each
        disagreement counted once, for the first such check in the given order).
    label : str
        Where the chapter shows the evidence.
    note : str
        Context that decides nothing (e.g. that only part of the runs is committed),
        appended to the text.

    Returns
    -------
    Cause
        ``explained`` / ``paper error`` / ``data unavailable`` only when every
        disagreement is covered (the kind covering the most, ties in the order of
        :data:`CAUSES`; every part is listed); otherwise ``unexplained`` with
        "k of n disagreements explained", the covered parts, the ones not covered and
        what was tried (the checks that do not hold).
    """
    ids = list(dict.fromkeys(str(d) for d in disagreements))
    for c in checks:
        if not isinstance(c, Check):
            raise ValueError(f"decide_cause takes Check objects, got {type(c).__name__}")
    wanted = set(ids)
    taken: set[str] = set()
    parts: list[CausePart] = []
    for c in checks:
        if not c.counts:
            continue
        got = tuple(i for i in c.covers if i in wanted and i not in taken)
        if got:
            taken.update(got)
            parts.append(CausePart(_KIND_CAUSE[c.kind], c.statement, c.evidence, got, c.source))
    n, k = len(ids), len(taken)
    tried = [c for c in checks if not c.counts]

    def part_text(p: CausePart) -> str:
        src = f" ({p.source})" if p.source else ""
        return f"{_sentence(p.statement + src)} {_sentence(p.evidence)}".strip()

    if n and k == n:
        by_kind = {c: sum(len(p.covers) for p in parts if p.cause == c) for c in CAUSES}
        kind = max(CAUSES, key=lambda c: (by_kind[c], -CAUSES.index(c)))
        if len(parts) == 1:
            text = part_text(parts[0])
        else:
            split = ", ".join(f"{by_kind[c]} {c}" for c in CAUSES if by_kind[c])
            text = f"{n} of {n} disagreements explained ({split}). " + " ".join(
                f"[{p.cause}, {len(p.covers)} of {n}: {_list(p.covers, 4)}] {part_text(p)}" for p in parts)
    else:
        kind = "unexplained"
        bits = [f"{k} of {n} disagreements explained." if n else
                "No published number or check of the item disagrees: the results are not all committed."]
        bits += [f"[{p.cause}, {len(p.covers)}: {_list(p.covers, 4)}] {part_text(p)}" for p in parts]
        rest = [i for i in ids if i not in taken]
        if rest:
            bits.append(f"Not covered: {_list(rest)}.")
        if tried:
            bits.append("Tried: " + " ".join(f"{_sentence(c.statement)} {_sentence(c.evidence)}".strip()
                                             for c in tried))
        text = " ".join(bits)
    if note.strip():
        text = f"{text} {_sentence(note)}"
    return Cause(kind, text, label, disagreeing=n, covered=k, parts=tuple(parts), decided=True)


def claim_cause(claim_checks: Mapping[str, Any], checks: Sequence[Check], label: str = "", *,
                note: str = "") -> Cause:
    """:func:`decide_cause` for a claim: its disagreements are its failing checks (:func:`failing`)."""
    return decide_cause(failing(claim_checks), checks, label, note=note)


#: Columns of a paper's scoreboard rows made by :func:`score_item`.
ITEM_COLUMNS: tuple[str, ...] = ("item", "label", "status", "share", "numbers", "verifications",
                                 "disagreeing", "covered", "cause", "reason", "cause_label", "evidence")


def score_item(item: str, label: str, *, agrees: Iterable[Any] | None = None,
               trends: Mapping[str, Any] | Iterable[Any] | None = None,
               verified: Mapping[str, Any] | Iterable[Any] | None = None,
               construction: Iterable[Any] | None = None,
               present: int | None = None, total: int | None = None,
               cause: Cause | None = None, evidence: str = "") -> dict[str, Any]:
    """One scoreboard row, judged by the book's rules.

    Parameters
    ----------
    item, label : str
        As the paper names the item, and where it is in the chapter.
    agrees, trends, present, total
        As in :func:`status` (an item compared with the paper).
    verified : mapping or iterable of bool, optional
        For an item the paper gives no number or trend for: checks of our code
        against itself. All pass: "verified"; otherwise "not reproduced" (a
        failing self-check is a defect, reported as such). Exclusive with
        ``agrees``/``trends``.
    construction : iterable of bool, optional
        Aligned with ``agrees``: the published numbers ours equals by construction
        (an error of 0 at epsilon = infinity, a check of our code against itself).
        They are verifications: left out of the share and counted in ``verifications``;
        an item whose every number is one (and without trends) is "verified".
    cause : Cause, optional
        Required when the status is partly or not reproduced (made by
        :func:`decide_cause`; its ``disagreeing`` must be the item's number of
        disagreeing numbers and checks); ignored (``-``) otherwise.
    evidence : str
        One line saying what was checked, with numbers.

    Returns
    -------
    dict
        The row, with the columns of :data:`ITEM_COLUMNS`.
    """
    n_ver = 0
    if verified is not None:
        if agrees is not None or trends is not None or construction is not None:
            raise ValueError("an item is either verified against our code or compared with the paper, "
                             "not both")
        v = _bools(verified)
        if not v:
            raise ValueError(f"{item}: verified= needs at least one check")
        st, share = ("verified" if all(v) else "not reproduced"), float("nan")
        n_fail = v.count(False)
    else:
        nums = _bools(agrees)
        if construction is not None:
            mask = _bools(construction)
            if len(mask) != len(nums):
                raise ValueError(f"{item}: construction= has {len(mask)} entries, agrees= {len(nums)}")
            n_ver = sum(mask)
            nums = [a for a, m in zip(nums, mask, strict=True) if not m]
        tr = _bools(trends)
        if n_ver and not nums and not tr and present != 0:
            st, share = "verified", float("nan")
        else:
            st, share = status(nums, trends=trends, present=present, total=total)
        n_fail = nums.count(False) + tr.count(False)
        agrees = nums
    n = len(_bools(agrees)) if verified is None else 0
    disagreeing, covered = n_fail, 0
    if st in ("partly", "not reproduced"):
        c = cause or Cause("unexplained", NO_CAUSE_RECORDED)
        if c.decided:
            if c.disagreeing != n_fail:
                raise ValueError(f"{item}: the cause accounts for {c.disagreeing} disagreements, the item "
                                 f"has {n_fail} (published numbers and checks that do not agree)")
            covered = c.covered
        kind, reason, clabel = c.kind, c.text, c.label
    else:
        kind, reason, clabel = NO_CAUSE, "", ""
    return {"item": item, "label": label, "status": st, "share": share, "numbers": n,
            "verifications": n_ver, "disagreeing": disagreeing, "covered": covered,
            "cause": kind, "reason": reason, "cause_label": clabel, "evidence": evidence}


#: Causes that must cover every disagreement of their item (``covered == disagreeing``).
DEMONSTRATED: tuple[str, ...] = ("explained", "paper error", "data unavailable")


def check_ledger(board: pd.DataFrame) -> None:
    """Raise ``ValueError`` unless every non-reproduced row has a cause and every other has ``-``.

    ``board`` has at least the columns ``item``, ``status`` and ``cause`` (a
    scoreboard or a claims overview; ``paper`` is used in the message when present).
    With the columns ``disagreeing`` and ``covered``, a row whose cause is one of
    :data:`DEMONSTRATED` must cover every disagreement (``covered == disagreeing``,
    at least one).
    """
    bad = []
    counted = "disagreeing" in board.columns and "covered" in board.columns
    for r in board.to_dict("records"):
        where = f"{r.get('paper', '')} {r['item']}".strip()
        if r["status"] in ("partly", "not reproduced"):
            if r["cause"] not in CAUSES:
                bad.append(f"{where}: status {r['status']!r} needs a cause in {list(CAUSES)}, "
                           f"has {r['cause']!r}")
            elif not str(r.get("reason", "x")).strip():
                bad.append(f"{where}: cause {r['cause']!r} without a sentence")
            elif counted and r["cause"] in DEMONSTRATED and not (
                    int(r["covered"]) == int(r["disagreeing"]) >= 1):
                bad.append(f"{where}: cause {r['cause']!r} covers {int(r['covered'])} of "
                           f"{int(r['disagreeing'])} disagreements (it must cover all)")
        elif r["cause"] != NO_CAUSE:
            bad.append(f"{where}: status {r['status']!r} must have cause '-', has {r['cause']!r}")
    if bad:
        raise ValueError("discrepancy ledger is incomplete:\n" + "\n".join(bad))
