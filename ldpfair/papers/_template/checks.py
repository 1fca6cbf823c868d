"""Template chapter: published numbers, claims and scoreboard items.

Everything here is judged by :mod:`ldpfair.verdicts` (one set of rules for the
whole book): a comparison with the paper's numbers gives each item its status,
and an item that is not reproduced carries the cause
:func:`~ldpfair.verdicts.decide_cause` computes from the chapter's checks (a chapter
never constructs a :class:`~ldpfair.verdicts.Cause`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ... import verdicts
from ...reporting import Claim

__all__ = ["claims", "committed_claims", "scoreboard", "variance_agreement"]


def variance_agreement(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epsilon: the measured MSE against GRR's analytic variance, by a one-sample t interval.

    Returns the long comparison table of :func:`ldpfair.verdicts.compare_welch`
    with one row per epsilon (``agrees``: the analytic value lies in the
    interval of the measured mean).
    """
    rows = []
    for eps, cell in frame.groupby("epsilon"):
        row = verdicts.compare_welch(cell["mse"].to_numpy(), float(cell["variance"].mean()))
        rows.append({"epsilon": eps, **row})
    return pd.DataFrame(rows)


def claims(res: Mapping[str, pd.DataFrame]) -> list[Claim]:
    """The chapter's claims, checked on ``res`` (any profile)."""
    agreement = variance_agreement(res["fig1"])
    by = res["fig1"].groupby("epsilon")["mse"].mean()
    per_budget = zip(agreement["epsilon"], agreement["agrees"], strict=True)
    return [
        Claim("C1", "GRR's estimates are unbiased with the analytic variance.",
              f"{int(agreement['agrees'].sum())} of {len(agreement)} budgets agree.",
              {f"ε = {e:g}": bool(a) for e, a in per_budget}),
        Claim("C2", "The error falls as the budget grows.",
              f"mean squared error from {by.iloc[0]:.2e} to {by.iloc[-1]:.2e}.",
              {"decreasing": bool(np.all(np.diff(by.to_numpy()) < 0))}),
    ]


def _results() -> dict[str, pd.DataFrame]:
    """The committed paper-profile results (``results/_template/``), checked as they are read."""
    from .. import committed

    return {name: committed("_template", name) for name in ("fig1",)}


def committed_claims() -> list[Claim]:
    """The claims on the results the scoreboard judges."""
    return claims(_results())


def scoreboard() -> pd.DataFrame:
    """One row per figure and table of the paper (see :func:`ldpfair.verdicts.score_item`).

    The template's Fig. 1 has no published numbers: its checks are of our code
    against the analytic variance, so the item is at best ``verified``.
    """
    checks = {c.id: c.verdict == "reproduced" for c in committed_claims()}
    item = verdicts.score_item("Fig. 1", "fig-template-1", verified=checks,
                               evidence="measured error against GRR's analytic variance")
    return pd.DataFrame([item])
