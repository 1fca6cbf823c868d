"""makhlouf2024: the chapter's findings as Markdown sentences, and the tables built from several sources.

The notebook only calls these: the coverage of the profile, how the claims fare over
fresh synthetic draws, how close the population forest is to the authors' forests, and
the claims table with the verdicts on the authors' runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ...experiments import coverage_note
from ...reporting import claims_table
from ...tables import Table
from . import checks, draws, tables
from .claims import claims

__all__ = ["coverage", "draws_finding", "population_gap", "claims_with_authors"]


def coverage(res: Mapping[str, pd.DataFrame]) -> str:
    """How many of the profile's declared cells are present, over every experiment."""
    return coverage_note({"present": sum(v.attrs["coverage"]["present"] for v in res.values()),
                          "total": sum(v.attrs["coverage"]["total"] for v in res.values())})


def draws_finding(runs_all: pd.DataFrame | None, authors: pd.DataFrame, fresh: Sequence[int]
                  ) -> tuple[Table | None, Table | None, str]:
    """Agreement per synthetic source, each claim's verdict per draw, and which verdicts change."""
    if runs_all is None or not fresh:
        return None, None, ""
    by_source = tables.agreement_by_source(draws.agreement_by_source(runs_all, authors))
    dc = draws.draw_claims(runs_all, [None, *fresh])
    changed = dc.loc[(dc[[f"draw {d}" for d in fresh]].ne(dc["authors"], axis=0)).any(axis=1), "claim"]
    return by_source, tables.draw_claims(dc), (
        f"claims whose verdict changes in at least one of {len(fresh)} fresh draw(s): "
        f"{', '.join(changed) or 'none'}")


def population_gap(authors: pd.DataFrame) -> str:
    """How far the population forest's rate means are from the authors' forests on their files."""
    gap = draws.population_gap(authors)
    return (f"population forest vs the authors' forests on their files: {len(gap)} rate means, "
            f"{(gap < 0.02).mean():.0%} within 0.02 (median {gap.median():.3f}, max {gap.max():.2f})")


def claims_with_authors(summ: pd.DataFrame) -> Table:
    """The claims on our runs, with the verdict and the failing checks on the authors' runs."""
    ct = claims_table(claims(summ))
    theirs = {c.id: c for c in checks.authors_claims(summ)}
    ct["on the authors' runs"] = [theirs[c].verdict for c in ct["claim"]]
    ct["failing on the authors' runs"] = ["; ".join(k for k, v in theirs[c].checks.items() if not v)
                                          for c in ct["claim"]]
    return tables.claims(ct)


def claim_causes(summ: pd.DataFrame) -> str:
    """The computed cause of each claim on our runs ``summ`` that has one (:func:`.checks.claim_causes`).

    One paragraph per claim, in Markdown, each decided against the same claim checked on the
    authors' per-run results (:func:`.checks.authors_claims`).
    """
    out = []
    for c in checks.claim_causes(claims(summ), checks.authors_claims(summ)):
        if c.cause is not None:
            out.append(f"**{c.id}** ({c.verdict}; {c.cause.kind}, {c.cause.covered} of "
                       f"{c.cause.disagreeing} disagreements covered): {c.cause.text}")
    return "\n\n".join(out)
