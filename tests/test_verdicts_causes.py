"""Causes decided from computed checks (issue #35): each rule fed checks that hold and that fail."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair import scoreboard as sb
from ldpfair import verdicts as v
from ldpfair.reporting import Claim

ROOT = Path(__file__).resolve().parents[1]


def _paper(holds: bool, covers=("a", "b")) -> v.Check:
    return v.Check("published error implies a privacy loss above epsilon", holds, "loss 394 > 100", "paper",
                   covers=covers)


# --------------------------------------------------------------------------- rule: explained
def test_a_variant_failing_one_of_the_items_checks_is_not_explained():
    default = {"SP below GRR": False, "EO below GRR": False, "accuracy within 0.02": True}
    good = v.variant_check("zeta = 1", source="zeta=1", default=default,
                           variant={"SP below GRR": True, "EO below GRR": True, "accuracy within 0.02": True})
    assert good.holds and set(good.covers) == {"SP below GRR", "EO below GRR"}
    cause = v.decide_cause(v.failing(default), [good])
    assert cause.kind == "explained" and (cause.covered, cause.disagreeing) == (2, 2)

    still = v.variant_check("zeta = 1", source="zeta=1", default=default,
                            variant={**default, "SP below GRR": True})
    cause = v.decide_cause(v.failing(default), [still])
    assert cause.kind == "unexplained" and (cause.covered, cause.disagreeing) == (1, 2)
    assert "1 of 2 disagreements explained" in cause.text and "EO below GRR" in cause.text

    # a variant that breaks a check the default passes covers nothing
    broken = v.variant_check("zeta = 1", source="zeta=1", default=default,
                             variant={"SP below GRR": True, "EO below GRR": True,
                                      "accuracy within 0.02": False})
    assert not broken.holds and broken.covers == ()
    assert v.decide_cause(v.failing(default), [broken]).kind == "unexplained"
    with pytest.raises(ValueError, match="other checks"):
        v.variant_check("x", source="x", default=default, variant={"SP below GRR": True})


# --------------------------------------------------------------------------- rule: paper error
def test_a_paper_check_that_does_not_hold_is_not_a_paper_error():
    assert v.decide_cause(["a", "b"], [_paper(True)]).kind == "paper error"
    cause = v.decide_cause(["a", "b"], [_paper(False)])
    assert cause.kind == "unexplained" and cause.covered == 0
    assert "0 of 2 disagreements explained" in cause.text and "Tried:" in cause.text
    # the same for "tried" checks, which never demonstrate anything even when they hold
    assert v.decide_cause(["a"], [v.Check("reading x", True, "lands", "tried", covers=("a",))]).kind \
        == "unexplained"


def test_data_unavailable_needs_the_missing_file():
    with pytest.raises(ValueError, match="missing file"):
        v.Check("bank file absent", True, "not found", "data", covers=("x",))
    c = v.Check("bank file absent", True, "not found", "data", covers=("x",), source="bank-full.csv")
    assert v.decide_cause(["x"], [c]).kind == "data unavailable"


def test_holds_must_be_computed():
    for bad in (None, float("nan"), 1, "yes"):
        with pytest.raises(ValueError, match="holds"):
            v.Check("s", bad, "e", "paper")
    assert v.Check("s", np.bool_(True), "e", "paper").holds is True
    with pytest.raises(ValueError, match="kind"):
        v.Check("s", True, "e", "label")


# --------------------------------------------------------------------------- rule: coverage
def test_coverage_below_the_disagreements_is_unexplained_with_k_of_n():
    cells = [f"cell {i}" for i in range(18)]
    cause = v.decide_cause(cells, [_paper(True, covers=cells[:6])], label="#t2")
    assert cause.kind == "unexplained" and (cause.covered, cause.disagreeing) == (6, 18)
    assert cause.text.startswith("6 of 18 disagreements explained") and "Not covered: cell 6" in cause.text
    row = v.score_item("Table 2", "#t2", agrees=[False] * 18, cause=cause)
    assert (row["disagreeing"], row["covered"], row["cause"]) == (18, 6, "unexplained")
    # mixed causes covering everything: listed per part, labelled by the larger part
    var = v.Check("per query, no factor 6", True, "lands", "variant", covers=cells[6:], source="per-query")
    cause = v.decide_cause(cells, [_paper(True, covers=cells[:6]), var])
    assert cause.kind == "explained" and cause.covered == 18 and len(cause.parts) == 2
    assert "[paper error, 6 of 18" in cause.text and "[explained, 12 of 18" in cause.text
    assert cause.text.startswith("18 of 18 disagreements explained (12 explained, 6 paper error).")


def test_the_cause_must_account_for_the_items_disagreements():
    cause = v.decide_cause(["a", "b"], [_paper(True)])
    with pytest.raises(ValueError, match="accounts for 2 disagreements, the item has 3"):
        v.score_item("T", "#t", agrees=[False, False, False, True], cause=cause)
    row = v.score_item("T", "#t", agrees=[False, False], trends={"t": True}, cause=cause)
    assert (row["disagreeing"], row["covered"], row["cause"]) == (2, 2, "paper error")


def test_check_ledger_enforces_full_coverage():
    row = {"paper": "p", "item": "T", "status": "partly", "cause": "paper error", "reason": "x",
           "disagreeing": 3, "covered": 2}
    with pytest.raises(ValueError, match="covers 2 of 3"):
        v.check_ledger(pd.DataFrame([row]))
    v.check_ledger(pd.DataFrame([{**row, "covered": 3}]))
    v.check_ledger(pd.DataFrame([{**row, "cause": "unexplained"}]))
    with pytest.raises(ValueError, match="covers 0 of 0"):
        v.check_ledger(pd.DataFrame([{**row, "disagreeing": 0, "covered": 0}]))


def test_claims_per_failing_check_and_the_ledger_line():
    checks = {"ACSCoverage: GRR 6th": False, "LSAC: GRR 2nd": False, "others": True}
    on_authors = v.Check("fails on the authors' runs too", True, "GRR 6th of 7", "paper",
                         covers=("ACSCoverage: GRR 6th",))
    cause = v.claim_cause(checks, [on_authors], "#claims")
    assert cause.kind == "unexplained" and (cause.covered, cause.disagreeing) == (1, 2)
    claims = sb.claims_overview_of({"p": [Claim("RQ3", "s", "e", checks, cause=cause)]})
    r = claims.iloc[0]
    assert (r["disagreeing"], r["covered"], r["cause"]) == (2, 1, "unexplained")
    led = sb.ledger(pd.DataFrame(columns=["paper", *v.ITEM_COLUMNS]), claims)
    assert "1 of 2 disagreements explained" in sb.ledger_markdown(led)


# --------------------------------------------------------------------------- heavy tails
def test_heavy_tail_rule_rejects_a_cauchy_mean_pseudo_agreement():
    rng = np.random.default_rng(np.random.SeedSequence(35))
    draws = np.abs(rng.standard_cauchy(50)) * 0.01  # errors of scale 0.01, median about 0.01
    draws[0] = 5e4  # Cauchy draws have such outliers; the mean has no expectation
    paper = 500.0  # far off: 50,000 times the median
    welch = v.compare_welch(draws, paper, decimals=4)
    assert welch["agrees"]  # the pseudo-agreement: the outlier makes Welch's interval huge
    med = v.compare_median(draws, paper, decimals=4)
    assert not med["agrees"] and med["test"] == "median" and med["high"] < 1
    # and it accepts a paper value inside the order-statistic interval
    assert v.compare_median(draws, float(np.median(draws)), decimals=4)["agrees"]
    ours = pd.DataFrame({"cell": ["c"] * 50, "err": draws})
    pub = pd.DataFrame({"cell": ["c"], "err": [paper]})
    assert v.compare_published(ours, pub, "cell", "err", decimals=4)["agrees"].all()
    assert not v.compare_published(ours, pub, "cell", "err", decimals=4, statistic="median")["agrees"].any()


def test_median_interval_is_the_binomial_order_statistics():
    med, lo, hi, cov = v.median_interval(np.arange(10.0))
    assert (med, lo, hi) == (4.5, 1.0, 8.0) and cov == pytest.approx(1 - 2 * 11 / 1024)
    assert np.isnan(v.median_interval(np.arange(5.0))[1])  # too few for 95%
    res = v.compare_median(np.arange(5.0), 2.0)
    assert not res["agrees"] and res["test"] == "median: too few runs"
    # the interval covers a Cauchy median at about its level (property, not timing)
    rng = np.random.default_rng(7)
    hits = [lo <= 0 <= hi for lo, hi in (v.median_interval(rng.standard_cauchy(30))[1:3] for _ in range(400))]
    assert 0.93 <= np.mean(hits) <= 0.99


# --------------------------------------------------------------------------- verifications
def test_a_number_equal_by_construction_does_not_count_in_the_share():
    # 8 eps = infinity cells (0 = 0) and 8 finite cells of which 3 agree: share 3/8, not 11/16
    agrees = [True] * 8 + [True] * 3 + [False] * 5
    construction = [True] * 8 + [False] * 8
    cause = v.decide_cause([f"c{i}" for i in range(5)], [])
    row = v.score_item("Table 1", "#t1", agrees=agrees, construction=construction, cause=cause)
    assert row["share"] == pytest.approx(3 / 8) and row["status"] == "not reproduced"
    assert (row["numbers"], row["verifications"], row["disagreeing"]) == (8, 8, 5)
    old = v.score_item("Table 1", "#t1", agrees=agrees, cause=cause)
    assert old["status"] == "partly"  # what counting them gave
    only = v.score_item("T", "#t", agrees=[True] * 4, construction=[True] * 4)
    assert only["status"] == "verified" and only["cause"] == "-"
    with pytest.raises(ValueError, match="construction"):
        v.score_item("T", "#t", agrees=[True] * 4, construction=[True])


# --------------------------------------------------------------------------- one road
def _constructs_cause(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name == "Cause":
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and any(a.name == "Cause" for a in node.names):
            lines.append(node.lineno)
    return lines


def test_the_ast_check_finds_a_cause_construction():
    assert _constructs_cause("from ...verdicts import Cause\nx = Cause('paper error', 't')\n") == [1, 2]
    assert _constructs_cause("x = verdicts.Cause('paper error', 't')\n") == [1]
    assert _constructs_cause("x = verdicts.decide_cause([], [])\n") == []


@pytest.mark.parametrize("chapter", sorted(p.name for p in (ROOT / "ldpfair" / "papers").iterdir()
                                           if p.is_dir() and not p.name.startswith("__")))
def test_no_chapter_constructs_a_cause(chapter):
    bad = [f"{path.relative_to(ROOT)}:{line}"
           for path in sorted((ROOT / "ldpfair" / "papers" / chapter).rglob("*.py"))
           for line in _constructs_cause(path.read_text())]
    assert not bad, "a chapter supplies checks, never labels: " + ", ".join(bad)


def test_a_self_checked_claim_is_verified_not_reproduced():
    c = Claim("Thm 2", "s", "e", {"closed form = brute force": True}, verified=True)
    assert c.verdict == "verified"
    assert Claim("Thm 2", "s", "e", {"x": True, "y": False}, verified=True).verdict == "not reproduced"
    over = sb.claims_overview_of({"p": [c]})
    assert over.iloc[0]["verdict"] == "verified" and over.iloc[0]["cause"] == "-"
    assert sb.verdict_counts(pd.DataFrame(columns=["status"]), over)["claims verified"] == 1
    sb.check_complete(pd.DataFrame(columns=["paper", *v.ITEM_COLUMNS]), over)


def test_scoreboard_markdown_shows_verifications_and_coverage():
    cause = v.decide_cause(["a", "b"], [_paper(True, covers=("a",))], "#t")
    row = v.score_item("Table 2", "#t", agrees=[True, False, False, True],
                       construction=[True, False, False, False], cause=cause)
    board = pd.DataFrame([{**row, "paper": "p"}])
    md = sb.scoreboard_markdown(board)
    assert "| verif. | covered | by chance |" in md
    assert "| 1 | 1 of 2 | 0.2 of 3; P = 0.007 | unexplained |" in md
    assert "1 of 2 disagreements explained" in sb.ledger_markdown(sb.ledger(board))


# --------------------------------------------------------------------------- chance (#45)
def test_chance_within_flips_with_the_count():
    """2 of 12 at 95% is within chance (P = 0.12); 4 of 12 is not (P = 0.002)."""
    two = v.chance(12, 2)
    assert two["expected_by_chance"] == pytest.approx(0.6)
    assert two["p_chance"] == pytest.approx(1 - 0.95**12 - 12 * 0.05 * 0.95**11)
    assert two["within_chance"]
    assert not v.chance(12, 4)["within_chance"]
    assert not v.chance(12, 0)["within_chance"]  # nothing to call chance
    assert "within what chance gives" in v.chance_words(12, 2)
    assert "more than chance gives" in v.chance_words(12, 4)


def test_chance_never_changes_a_status():
    """An item whose 2 of 12 disagreements are within chance keeps its status and its cause."""
    agrees = [True] * 10 + [False] * 2
    cause = v.decide_cause(["a", "b"], [])
    row = v.score_item("T", "#t", agrees=agrees, cause=cause)
    assert row["within_chance"] and row["status"] == "partly" and row["cause"] == "unexplained"
    assert row["compared"] == 12 and row["expected_by_chance"] == pytest.approx(0.6)


def test_chance_refuses_bad_counts():
    with pytest.raises(ValueError, match="cannot exceed"):
        v.chance(2, 3)
    with pytest.raises(ValueError, match="non-negative integer"):
        v.chance(-1, 0)


# --------------------------------------------------------------------------- causes in words (#45)
def _variant(covers, statement="Reading 'x'"):
    return v.Check(statement, True, "lands", "variant", covers=tuple(covers), source="reading='x'")


def test_summary_is_one_whole_sentence_with_counts_by_kind():
    ids = [f"Table 1 error (n={i}, m=25, epsilon=5, mechanism=conceal)" for i in range(35)]
    paper = v.Check("The published errors imply a privacy loss above epsilon", True, "e", "paper",
                    covers=tuple(ids[:24]))
    tried = [v.Check(f"Tried reading {i} " + "with a long explanation " * 5, False, "no", "tried")
             for i in range(4)]
    c = v.decide_cause(ids, [paper, *tried])
    assert c.summary.startswith("24 of 35 disagreements explained: 24 shown to be errors of the paper")
    assert "11 not explained" in c.summary and c.summary.endswith(".")
    assert len(c.summary) <= v.SUMMARY_LIMIT and "…" not in c.summary
    assert "n=3" not in c.summary  # cell parameters go to the evidence section, not the sentence
    listing = c.listing()
    assert listing[0][2] == tuple(ids[:24]) and listing[-1] == ("not covered", "", tuple(ids[24:]))


def test_summary_names_the_checks_when_they_fit_and_counts_when_not():
    short = v.decide_cause(["a"], [_variant(["a"])])
    assert "Reading 'x'" in short.summary
    long = v.decide_cause(["a"], [_variant(["a"], "Reading " + "very long " * 40)])
    assert "Reading" not in long.summary and long.summary == "1 of 1 disagreements explained: " \
        "1 explained by a variant."
