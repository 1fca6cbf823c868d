"""Xu, Yuan & Wu (2019): the chapter's tables as a reader sees them (:mod:`ldpfair.tables`)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ... import tables
from ...tables import Table

__all__ = ["LABELS", "table"]

#: Human labels of the chapter's columns.
LABELS = {"method": "method", "epsilon": "ε", "eps_f_ratio": "ε_f/ε", "features": "encoding",
          "reading": "reading", "accuracy": "accuracy (ours)", "accuracy_paper": "accuracy (paper)",
          "accuracy_diff": "accuracy diff",
          "rd": "RD (ours)", "rd_paper": "RD (paper)", "rd_diff": "RD diff", "remedy": "trimmed",
          "halfwidth": "95% halfwidth", "ours v0": "ours (v0)", "ours": "ours", "paper": "paper",
          "metric": "metric", "table": "table"}


def table(results: pd.DataFrame, paper: pd.DataFrame, by: Sequence[str], caption: str | None = None) -> Table:
    """Our mean ± std next to the paper's, with differences of the means (an ``ldpfair.tables`` table).

    Parameters
    ----------
    results : DataFrame
        Tidy sweep results (one row per run).
    paper : DataFrame
        :data:`.checks.PAPER_TABLE1` or :data:`.checks.PAPER_TABLE2`.
    by : sequence of str
        Identifying columns (e.g. ``["dataset", "method"]``).
    caption : str, optional
        The table's caption.

    Returns
    -------
    ldpfair.tables.Table
        Four decimals (the paper's precision); ``trimmed``: share of fits whose noisy
        form still had negative curvature after the remedy's ridge.
    """
    by = list(by)
    g = results.groupby(by, sort=False)[["accuracy", "rd", "remedy_triggered"]]
    ours = g.mean().join(g.std(ddof=1).add_suffix("_std")).reset_index()
    keys = [c for c in by if c in paper.columns]
    merged = ours.merge(paper, on=keys, how="left", suffixes=("", "_paper"))
    out = merged[by].copy()
    for m in ("accuracy", "rd"):
        out[m], out[f"{m}_sd"] = merged[m], merged[f"{m}_std"]
        out[f"{m}_paper"], out[f"{m}_paper_sd"] = merged[f"{m}_paper"], merged[f"{m}_std_paper"]
        out[f"{m}_diff"] = merged[m] - merged[f"{m}_paper"]
    out["remedy"] = merged["remedy_triggered"]
    digits: dict[str, int | str] = {"default": 4, "remedy": "%"}
    if "epsilon" in out:
        digits["epsilon"] = "g"
    return tables.table(out, caption=caption, key=by, labels=LABELS, digits=digits,
                        pm={"accuracy": "accuracy_sd", "accuracy_paper": "accuracy_paper_sd",
                            "rd": "rd_sd", "rd_paper": "rd_paper_sd"})
