"""ghoukasian2025: the chapter's results split, book tables, claims and glued figures (issue #36).

The notebook only calls these functions, so they are checked here on the committed
results: the tables carry the published numbers, their agreement counts are those the
chapter's sentences state, and the claims are the scoreboard's.
"""

from __future__ import annotations

import pandas as pd
import pytest

from ldpfair.papers import committed
from ldpfair.papers.ghoukasian2025 import SPEC, baselines, checks, figures, findings, tables
from ldpfair.papers.ghoukasian2025.experiments import LGBM_FIGURES

EMPTY = pd.DataFrame()


@pytest.fixture(scope="module")
def parts():
    return findings.chapter_results({name: committed("ghoukasian2025", name)
                                     for name in SPEC.experiments("paper")})


def _agreeing(book) -> int:
    return int((book.frame["agrees"] == "✓").sum())


def _published(book) -> list[float]:
    """The published numbers of a book table (formatted to the paper's decimal; "—" where none)."""
    return sorted(float(x) for x in book.frame["paper"] if x not in ("—", "", None))


def test_chapter_results_puts_every_experiment_in_one_part(parts):
    lgbm, base, variants, t1_long, t2_long = parts
    assert list(lgbm) == list(LGBM_FIGURES)
    assert list(base) == ["fig6", "fig6_asym", "table1", "table2"]
    assert set(lgbm) | set(base) | set(variants) == set(SPEC.experiments("paper"))
    assert variants and all("_zeta_" in name for name in variants)
    pd.testing.assert_frame_equal(t1_long, baselines.long_fairprojection(base["table1"]))
    pd.testing.assert_frame_equal(t2_long, baselines.long_fairbalance(base["table2"]))


def test_table1_book_shows_the_published_numbers_and_the_stated_agreement(parts):
    t1_long = parts[3]
    published = sorted(tables.PAPER_TABLE1[["acc", "Delta_SP", "Delta_MEO"]].to_numpy().ravel())
    counts = {}
    for reading in ("authors", "binding"):
        book = findings.table1_book(t1_long, reading)
        assert _published(book) == published
        counts[reading] = _agreeing(book)
        # the sentence above the table counts the same numbers
        assert f"reading {reading!r}: {counts[reading]}/12 published numbers agree" in \
            findings.table1_readings(t1_long)
    assert counts["authors"] == 12 > counts["binding"]


def test_table2_book_counts_what_the_readings_table_counts(parts):
    t2_long = parts[4]
    readings = tables.table2_readings(t2_long)
    for reading, row in (("authors", 0), ("paper", 3)):
        book = findings.table2_book(t2_long, reading)
        assert len(_published(book)) == 18 == readings.iloc[row]["numbers"]
        assert _agreeing(book) == readings.iloc[row]["agree"]
    assert _agreeing(findings.table2_book(t2_long, "paper")) == 8  # the chapter's "8 of 18"


def test_books_are_empty_without_results_and_name_their_readings():
    assert findings.table1_book(EMPTY) is None and findings.table2_book(EMPTY) is None
    assert findings.fairprojection_evidence(EMPTY) == ()
    with pytest.raises(ValueError, match="reading must be one of 'authors', 'binding', got 'paper'"):
        findings.table1_book(EMPTY, "paper")
    with pytest.raises(ValueError, match="reading must be one of 'authors', 'paper', got 'binding'"):
        findings.table2_book(EMPTY, "binding")


def test_fairprojection_evidence_is_the_finding_and_the_published_row(parts):
    t1_long = parts[3]
    checks_table, evidence, row = findings.fairprojection_evidence(t1_long)
    assert checks_table.frame["holds"].all()
    assert evidence == findings.fairprojection_finding(t1_long)[1]
    pd.testing.assert_frame_equal(row.frame, findings.authors_tolerance_table(t1_long).frame)


def test_claims_table_is_the_scoreboards_claims(parts):
    lgbm, base, variants, t1_long, t2_long = parts
    thm2, lem1 = checks.theory_checks()
    shown = findings.claims_table(lgbm, base, t1_long, t2_long, thm2, lem1, variants).frame
    board = checks.committed_claims()
    assert shown["claim"].tolist() == [c.id for c in board]
    assert shown["verdict"].tolist() == [c.verdict for c in board]
    assert shown["cause"].tolist() == [c.cause.kind if c.cause else "—" for c in board]


def test_lgbm_figures_save_what_ran_and_glue_a_placeholder_for_the_rest(parts, tmp_path, monkeypatch):
    import myst_nb

    glued = {}
    monkeypatch.setattr(myst_nb, "glue", lambda key, fig, display=True: glued.setdefault(key, fig))
    figures.lgbm_figures({"fig2": parts[0]["fig2"], "fig3": EMPTY}, folder=tmp_path)
    assert list(glued) == list(LGBM_FIGURES)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig2.pdf", "fig2.png"]
    for name in ("fig1", "fig3", "fig4", "fig5"):
        assert glued[name].data == f"*{name}: no results in this profile*"
    assert glued["fig2"].data[:8] == b"\x89PNG\r\n\x1a\n"  # the drawn figure, shown from its PNG


def test_table1_finding_on_our_runs_alone_is_unexplained_not_a_paper_error():
    """#45: the V-C Table I finding rests on our FairProjection runs: what was tried, no paper error."""
    from dataclasses import replace

    from test_ghoukasian2025 import _fake_table1

    from ldpfair import verdicts
    from ldpfair.papers.ghoukasian2025 import baselines, checks

    long = _fake_table1(dict.fromkeys(baselines.FP_TOLERANCES, 0.8455))
    _, claim = checks.table1_checks(long, "binding")
    assert verdicts.failing(claim)  # a projection that acts beats OPT: the claim fails
    found = checks.fairprojection_checks(long, claim)
    assert found and all(c.kind == "tried" for c in found)
    cause = verdicts.claim_cause(claim, [replace(c, holds=True) for c in found])  # even where it holds
    assert cause.kind == "unexplained" and cause.covered == 0 and "our own FairProjection runs" in cause.text
    # the same finding on the paper's numbers or the authors' runs would be a paper error
    as_paper = [replace(c, kind="paper", holds=True) for c in found]
    assert verdicts.claim_cause(claim, as_paper).kind == "paper error"
