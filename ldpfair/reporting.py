"""Reporting helpers shared by the paper chapters.

- :func:`summarise`: mean, standard deviation and a t-based confidence interval
  of metrics over repetitions (seeds, folds, trials), per group of settings;
- :func:`side_by_side`: our numbers next to a paper's published numbers, with the
  difference and whether the published value lies in our interval;
- :class:`Claim` and :func:`claims_table`: each claim of a paper with the evidence
  computed from our results and a verdict derived from checks on that evidence,
  never typed by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from ._validation import check_probability
from .verdicts import VERDICTS, Cause, share_status

__all__ = [
    "VERDICTS",
    "Claim",
    "claims_table",
    "compact",
    "side_by_side",
    "summarise",
    "verdict",
]

def _t_halfwidth(std: np.ndarray, n: np.ndarray, level: float) -> np.ndarray:
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = stats.t.ppf(0.5 + level / 2.0, np.maximum(n - 1.0, 1.0))
        half = q * np.asarray(std, dtype=float) / np.sqrt(n)
    return np.where(n > 1, half, np.nan)


def summarise(
    results: pd.DataFrame,
    by: str | Sequence[str],
    metrics: str | Sequence[str],
    *,
    level: float = 0.95,
) -> pd.DataFrame:
    """Summarise metrics over repetitions: mean, std (ddof=1), n and CI half-width.

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy results, one row per repetition (e.g. from
        :func:`ldpfair.experiments.run`).
    by : str or sequence of str
        Columns identifying a setting (e.g. ``["protocol", "epsilon"]``).
    metrics : str or sequence of str
        Metric columns to summarise.
    level : float
        Confidence level of the two-sided Student-t interval of the mean.

    Returns
    -------
    pandas.DataFrame
        One row per setting, with columns ``<m>_mean, <m>_std, <m>_n, <m>_ci`` for
        each metric ``m`` (``_ci`` is the half-width; NaN when fewer than two
        finite values). NaN values of a metric are ignored and not counted.
    """
    level = check_probability(level, "level", open_interval=True)
    by = [by] if isinstance(by, str) else list(by)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    missing = [c for c in [*by, *metrics] if c not in results.columns]
    if missing:
        raise ValueError(f"columns {missing} not in results; available: {list(results.columns)}")
    grouped = results.groupby(by, sort=True, dropna=False)[metrics]
    mean, std, n = grouped.mean(), grouped.std(ddof=1), grouped.count()
    out = {}
    for m in metrics:
        out[f"{m}_mean"] = mean[m]
        out[f"{m}_std"] = std[m]
        out[f"{m}_n"] = n[m]
        out[f"{m}_ci"] = _t_halfwidth(std[m].to_numpy(), n[m].to_numpy(), level)
    return pd.DataFrame(out).reset_index()


def side_by_side(
    ours: pd.DataFrame,
    paper: pd.DataFrame,
    on: str | Sequence[str],
    metrics: str | Sequence[str],
    *,
    tolerance: float | Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """Put our summarised numbers next to the paper's published ones.

    Parameters
    ----------
    ours : pandas.DataFrame
        Output of :func:`summarise` (columns ``<m>_mean`` and optionally ``<m>_ci``).
    paper : pandas.DataFrame
        The published values: the ``on`` columns and one column per metric.
    on : str or sequence of str
        Columns identifying a row in both frames.
    metrics : str or sequence of str
        Metrics to compare.
    tolerance : float or mapping, optional
        Absolute difference accepted as agreement in addition to our interval
        (e.g. the rounding of the published numbers: 0.005 for two decimals).

    Returns
    -------
    pandas.DataFrame
        For each metric: ``<m> (paper)``, ``<m> (ours)``, ``<m> ±`` (our CI
        half-width), ``<m> diff`` (ours - paper) and ``<m> agrees`` (paper value
        within our interval widened by the tolerance). Rows of ``paper`` missing
        from ``ours`` keep NaN for our values.
    """
    on = [on] if isinstance(on, str) else list(on)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    merged = paper[on + metrics].merge(ours, on=on, how="left")
    out = merged[on].copy()
    for m in metrics:
        tol = tolerance.get(m, 0.0) if isinstance(tolerance, Mapping) else float(tolerance or 0.0)
        ci = merged.get(f"{m}_ci", pd.Series(0.0, index=merged.index)).fillna(0.0)
        ours_m = merged[f"{m}_mean"]
        out[f"{m} (paper)"] = merged[m]
        out[f"{m} (ours)"] = ours_m
        out[f"{m} ±"] = merged.get(f"{m}_ci", np.nan)
        out[f"{m} diff"] = ours_m - merged[m]
        agrees = (ours_m - merged[m]).abs() <= ci + tol
        out[f"{m} agrees"] = agrees.where(ours_m.notna())
    return out


def verdict(checks: bool | Iterable[bool]) -> str:
    """Turn one or several boolean checks into a verdict by the book's rules.

    The share of passing checks decides (:func:`ldpfair.verdicts.share_status`):
    at least 90% -> ``"reproduced"``, at least 50% -> ``"partly"``, else
    ``"not reproduced"``. NaN/None checks (evidence missing) count as failures.
    """
    if isinstance(checks, bool | np.bool_):
        values = [bool(checks)]
    else:
        values = [bool(c) if c is not None and c == c else False for c in checks]
    if not values:
        raise ValueError("verdict needs at least one check")
    return share_status(sum(values) / len(values))


@dataclass
class Claim:
    """A claim of a paper, checked against our results.

    Parameters
    ----------
    id : str
        Short identifier (``"RQ1"``, ``"Obs3"``, ``"Table 1"``...).
    statement : str
        The claim, in the paper's words or a faithful paraphrase.
    evidence : str
        What our results show, with the numbers (computed, not typed).
    checks : mapping of str to bool
        Named boolean checks on the evidence; the verdict is derived from them.
    cause : ldpfair.verdicts.Cause, optional
        Why the claim is not reproduced (the discrepancy ledger); required by the
        scoreboard when the verdict is not "reproduced".
    verified : bool
        The checks test our own code against itself or a theorem by brute force,
        nothing the paper measured: the verdict is "verified" when all pass (never
        "reproduced"), "not reproduced" otherwise.
    """

    id: str
    statement: str
    evidence: str
    checks: Mapping[str, bool] = field(default_factory=dict)
    cause: Cause | None = None
    verified: bool = False

    @property
    def verdict(self) -> str:
        """The verdict derived from :attr:`checks` (see :func:`verdict`; "verified" for a self-check)."""
        if self.verified:
            if not self.checks:
                raise ValueError("verdict needs at least one check")
            ok = all(bool(v) and v == v for v in self.checks.values())
            return "verified" if ok else "not reproduced"
        return verdict(self.checks.values())

    @classmethod
    def from_check(
        cls,
        id: str,
        statement: str,
        evidence_fn: Callable[[], tuple[str, Mapping[str, bool]]],
    ) -> Claim:
        """Build a claim from a function returning ``(evidence, checks)``."""
        evidence, checks = evidence_fn()
        return cls(id, statement, evidence, checks)


def claims_table(claims: Iterable[Claim]) -> pd.DataFrame:
    """Tabulate claims: id, statement, evidence, the checks passed, and the verdict."""
    rows = []
    for c in claims:
        if not c.checks:
            raise ValueError(f"claim {c.id!r} has no checks: a verdict must be computed from results")
        passed = sum(bool(v) and v == v for v in c.checks.values())
        rows.append(
            {
                "claim": c.id,
                "statement": c.statement,
                "evidence": c.evidence,
                "checks passed": f"{passed}/{len(c.checks)}",
                "verdict": c.verdict,
            }
        )
    return pd.DataFrame(rows)


def compact(table: pd.DataFrame, on: str | Sequence[str], metrics: str | Sequence[str], *,
            digits: int = 1) -> pd.DataFrame:
    """A narrow, readable version of a :func:`side_by_side` table.

    For each metric: ``<m> paper``, ``<m> ours`` as ``"mean ± half-width"`` and
    ``<m> diff``, formatted with ``digits`` decimals (empty where absent).
    """
    on = [on] if isinstance(on, str) else list(on)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    out = table[on].copy()

    def num(v: float | None) -> str:
        return "" if v is None or pd.isna(v) else f"{float(v):.{digits}f}"

    for m in metrics:
        if f"{m} (paper)" in table:
            out[f"{m} paper"] = table[f"{m} (paper)"].map(num)
        ours, half = table[f"{m} (ours)"], table.get(f"{m} ±", pd.Series(np.nan, index=table.index))
        out[f"{m} ours"] = [num(o) + (f" ± {num(h)}" if pd.notna(h) and pd.notna(o) else "")
                            for o, h in zip(ours, half, strict=True)]
        if f"{m} diff" in table:
            out[f"{m} diff"] = table[f"{m} diff"].map(num)
    return out
