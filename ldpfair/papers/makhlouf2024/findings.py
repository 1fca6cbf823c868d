"""makhlouf2024: the chapter's findings as Markdown sentences, and the tables built from several sources.

The notebook only calls these: the runs of the profile in both aggregations
(:func:`chapter_runs`), the coverage of the profile, Table 1 with its checks, how the
claims fare over fresh synthetic draws, how close the population forest is to the
authors' forests, the agreement with the authors' runs, the numbers quoted in the text,
the claims table with the verdicts on the authors' runs, and Fig. 7 on draw 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ...experiments import coverage_note
from ...reporting import claims_table
from ...tables import Table
from . import aggregate, checks, draws, figures, tables
from . import authors as mkau
from .claims import claims

__all__ = ["ChapterRuns", "chapter_runs", "coverage", "table1", "draws_finding", "population_gap",
           "fig7_draw0", "quoted_numbers", "agreement", "claims_with_authors", "claim_causes",
           "aggregation_gap"]


@dataclass(frozen=True)
class ChapterRuns:
    """The runs a chapter profile shows (:func:`chapter_runs`).

    Attributes
    ----------
    runs_all : DataFrame or None
        Per-run rows in the chosen aggregation, every synthetic source included
        (``None`` when the profile has no results).
    runs : DataFrame or None
        ``runs_all`` with Synthetic 1 from the authors' files, as the figures read it.
    runs_other : DataFrame or None
        The same in the other aggregation (``faithful`` negated).
    summ : DataFrame
        :func:`.aggregate.summary` of ``runs`` (empty with its key columns when no runs).
    authors : DataFrame
        The authors' per-run results (:func:`.authors.authors_runs`).
    summ_auth : DataFrame or None
        Their summary, drawn on the figures; ``None`` when not overlaid.
    draws : list of int
        The regenerated Synthetic 1 draws present in ``runs_all``.
    """

    runs_all: pd.DataFrame | None
    runs: pd.DataFrame | None
    runs_other: pd.DataFrame | None
    summ: pd.DataFrame
    authors: pd.DataFrame
    summ_auth: pd.DataFrame | None
    draws: list[int]


def chapter_runs(res: Mapping[str, pd.DataFrame], *, faithful: bool = True,
                 overlay_authors: bool = True) -> ChapterRuns:
    """Aggregate the profile's results ``res`` both ways and load the authors' runs.

    Parameters
    ----------
    res : mapping of str to DataFrame
        The engine's per-fold results per experiment (``SPEC.results``); empty frames
        are experiments the profile lacks.
    faithful : bool, default True
        The authors' fold aggregation (:func:`.aggregate.aggregate_runs`) for ``runs``.
    overlay_authors : bool, default True
        Summarise the authors' runs for the figures.
    """
    present = [v for v in res.values() if len(v)]
    tidy = pd.concat(present, ignore_index=True) if present else None
    runs_all = aggregate.aggregate_runs(tidy, faithful=faithful) if tidy is not None else None
    runs_other = aggregate.aggregate_runs(tidy, faithful=not faithful) if tidy is not None else None
    runs = draws.draw_runs(runs_all, None) if runs_all is not None else None
    authors = mkau.authors_runs(list(checks.PAPER_DATA))
    return ChapterRuns(
        runs_all=runs_all, runs=runs,
        runs_other=draws.draw_runs(runs_other, None) if runs_other is not None else None,
        summ=aggregate.summary(runs) if runs is not None
        else pd.DataFrame(columns=["data", "setting", "epsilon"]),
        authors=authors, summ_auth=aggregate.summary(authors) if overlay_authors else None,
        draws=draws.available_draws(runs_all) if runs_all is not None else [])


def coverage(res: Mapping[str, pd.DataFrame]) -> str:
    """How many of the profile's declared cells are present, over every experiment."""
    return coverage_note({"present": sum(v.attrs["coverage"]["present"] for v in res.values()),
                          "total": sum(v.attrs["coverage"]["total"] for v in res.values())})


def table1(synthetic_seed: int, synthetic_source: str) -> tuple[Table, Table, Table]:
    """Table 1 as computed, its comparison with the printed sizes, and the synthetic thresholds.

    Parameters
    ----------
    synthetic_seed, synthetic_source
        The notebook's parameters: which Synthetic 1 data Table 1 describes.
    """
    t1 = checks.table1(synthetic_seed, synthetic_source)
    return (tables.table1(t1), tables.table1_comparison(checks.table1_comparison(t1)),
            tables.thresholds(checks.synthetic_thresholds(), checks.PRINTED_THRESHOLDS))


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


def fig7_draw0(runs_all: pd.DataFrame | None, fresh: Sequence[int],
               summ_auth: pd.DataFrame | None) -> Any:
    """Fig. 7 with Synthetic 1 from regenerated draw 0; ``None`` when the profile lacks draw 0.

    ``fresh`` lists the draws present (:attr:`ChapterRuns.draws`); the chapter glues the
    figure with :func:`ldpfair.style.figure`, which says in its place that it is missing.
    """
    if runs_all is None or 0 not in fresh:
        return None
    summ_d0 = aggregate.summary(draws.draw_runs(runs_all, 0))
    return figures.plot_thresholds(summ_d0, ["S1_0.44", "S1_0.52", "S1_0.6"], authors=summ_auth)


def quoted_numbers(runs: pd.DataFrame | None, authors: pd.DataFrame) -> Table:
    """The numbers quoted in the text next to ours and the authors' (the paper's only when no runs)."""
    return tables.quoted_numbers(mkau.quoted_numbers(runs, authors) if runs is not None
                                 else mkau.paper_numbers())


def agreement(runs: pd.DataFrame | None, authors: pd.DataFrame, *, mixed: bool = True
              ) -> tuple[Table | None, Table | None]:
    """Share of each figure's plotted means, and of each dataset's metric means, agreeing with the authors.

    ``(None, None)`` when the profile has no runs.
    """
    if runs is None:
        return None, None
    return (tables.figure_agreement(checks.figure_agreement_shares(runs, authors, mixed=mixed)),
            tables.metric_agreement(mkau.agreement_with_authors(runs, authors)))


def aggregation_gap(runs: pd.DataFrame | None, runs_other: pd.DataFrame | None) -> Table | None:
    """Largest difference of the faithful and corrected aggregations (:func:`.tables.aggregation_gap`).

    ``runs`` and ``runs_other`` are the runs in the two aggregations (the difference is
    absolute, so their order does not matter); ``None`` when the profile has no runs.
    """
    if runs is None or runs_other is None:
        return None
    return tables.aggregation_gap(aggregate.summary(runs), aggregate.summary(runs_other))


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
    runs = checks.authors_runs(list(checks.PAPER_DATA))
    for c in checks.claim_causes(claims(summ), checks.authors_claims(summ),
                                 their_summary=checks.summary(runs), their_runs=runs):
        if c.cause is not None:
            out.append(f"**{c.id}** ({c.verdict}; {c.cause.kind}, {c.cause.covered} of "
                       f"{c.cause.disagreeing} disagreements covered): {c.cause.text}")
    return "\n\n".join(out)
