"""The book's verdict rules (ldpfair.verdicts) on constructed cases, and the ledger of every paper."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ldpfair import scoreboard as sb
from ldpfair import verdicts as v
from ldpfair.datasets import data_available
from ldpfair.reporting import Claim


def test_share_thresholds():
    assert v.share_status(1.0) == "reproduced"
    assert v.share_status(0.90) == "reproduced"
    assert v.share_status(0.89) == "partly"
    assert v.share_status(0.50) == "partly"
    assert v.share_status(0.49) == "not reproduced"
    for bad in (float("nan"), -0.1, 1.1):
        with pytest.raises(ValueError, match="share"):
            v.share_status(bad)


def test_an_item_at_089_is_partly():
    agrees = [True] * 89 + [False] * 11
    st, share = v.status(agrees)
    assert st == "partly" and share == pytest.approx(0.89)


def test_one_passing_check_among_sixteen_failing_numbers_is_not_reproduced():
    """The old rule called this 'partly' (any passing check); the share decides now."""
    row = v.score_item("Table 3", "#table-3", agrees=[False] * 16, trends={"Conceal below Laplace": True},
                       cause=v.Cause("unexplained", "tried x and y"))
    assert row["status"] == "not reproduced" and row["share"] == 0.0 and row["numbers"] == 16
    assert row["cause"] == "unexplained"


def test_trends_can_only_lower():
    assert v.status([True] * 10, trends=[True])[0] == "reproduced"
    assert v.status([True] * 10, trends=[True, False])[0] == "partly"
    assert v.status([True] * 10, trends=[False, False])[0] == "not reproduced"
    assert v.status([False] * 10, trends=[True, True])[0] == "not reproduced"
    # without published numbers the trends alone decide, and the share is NaN
    st, share = v.status(None, trends={"a": True})
    assert st == "reproduced" and math.isnan(share)


def test_incomplete_results_cap_at_partly_and_absent_are_not_yet():
    assert v.status([True] * 10, present=5, total=10)[0] == "partly"
    assert v.status([False] * 10, present=5, total=10)[0] == "not reproduced"
    assert v.status([True] * 10, present=0, total=10)[0] == "not yet"
    assert v.status([])[0] == "not yet"


def test_self_checks_are_verified_not_reproduced():
    row = v.score_item("Figure 1", "fig", verified={"protocol is eps-LDP": True})
    assert row["status"] == "verified" and row["cause"] == v.NO_CAUSE and math.isnan(row["share"])
    row = v.score_item("Figure 1", "fig", verified=[True, False], cause=v.Cause("paper error", "x"))
    assert row["status"] == "not reproduced" and row["cause"] == "paper error"
    with pytest.raises(ValueError, match="not both"):
        v.score_item("x", "y", verified=[True], agrees=[True])


def test_cause_is_validated_and_reproduced_items_have_none():
    with pytest.raises(ValueError, match="cause kind"):
        v.Cause("bad luck", "x")
    with pytest.raises(ValueError, match="sentence"):
        v.Cause("unexplained", "  ")
    row = v.score_item("T", "t", agrees=[True] * 9, cause=v.Cause("explained", "variant x"))
    assert row["status"] == "reproduced" and row["cause"] == "-" and row["reason"] == ""
    row = v.score_item("T", "t", agrees=[False] * 9)
    assert row["cause"] == "unexplained" and row["reason"] == v.NO_CAUSE_RECORDED


def test_printed_precision_is_the_only_slack():
    assert v.printed_precision(2) == 0.005 and v.printed_precision(None) == 0.0
    with pytest.raises(ValueError, match="decimals"):
        v.printed_precision(-1)
    runs = [0.123] * 10  # no spread: only the precision decides
    assert v.compare_welch(runs, 0.12, decimals=2)["agrees"]
    assert not v.compare_welch(runs, 0.12, decimals=3)["agrees"]
    assert not v.compare_welch([0.126] * 10, 0.12, decimals=2)["agrees"]


def test_welch_interval_with_the_papers_std_and_ci():
    x = np.array([0.78, 0.80, 0.82, 0.79, 0.81])
    v1, v2 = x.var(ddof=1) / 5, 0.01**2 / 10
    dof = (v1 + v2) ** 2 / (v1**2 / 4 + v2**2 / 9)
    half = stats.t.ppf(0.975, dof) * math.sqrt(v1 + v2)
    r = v.compare_welch(x, 0.80 - 0.999 * half, paper_std=0.01, paper_n=10)
    assert r["test"] == "welch" and r["halfwidth"] == pytest.approx(half) and r["agrees"]
    assert not v.compare_welch(x, 0.80 - 1.001 * half, paper_std=0.01, paper_n=10)["agrees"]
    # a published 95% CI half-width with its n is the same information as its std
    ci = stats.t.ppf(0.975, 9) * 0.01 / math.sqrt(10)
    r2 = v.compare_welch(x, 0.8, paper_ci=ci, paper_n=10)
    assert r2["halfwidth"] == pytest.approx(half)
    # without a published spread only our interval counts
    r3 = v.compare_welch(x, 0.8)
    ours_half = stats.t.ppf(0.975, 4) * x.std(ddof=1) / 5**0.5
    assert r3["test"] == "t" and r3["halfwidth"] == pytest.approx(ours_half)
    assert not v.compare_welch([], 0.8)["agrees"]


def test_paired_test_is_used_when_seeds_match_and_is_sharper():
    """Runs sharing a split vary together: a small constant shift is visible only paired."""
    rng = np.random.default_rng(np.random.SeedSequence(7))
    split = rng.normal(0, 0.02, 20)  # the shared per-seed effect
    theirs = pd.DataFrame({"cell": "a", "seed": range(20), "acc": 0.8 + split + rng.normal(0, 0.001, 20)})
    ours = theirs.assign(acc=0.8 + split + rng.normal(0, 0.001, 20) + 0.004)
    paired = v.compare_runs(ours, theirs, "cell", "acc", pair_on="seed")
    welch = v.compare_runs(ours, theirs, "cell", "acc", pair_on=None)
    assert paired["test"].tolist() == ["paired"] and welch["test"].tolist() == ["welch"]
    assert not paired["agrees"].iloc[0] and welch["agrees"].iloc[0]
    one = v.compare_paired(ours["acc"], theirs["acc"])
    assert one["diff"] == pytest.approx(paired["diff"].iloc[0]) and one["n_runs"] == 20
    # identical runs agree; a cell we lack is a row that does not agree
    same = v.compare_runs(theirs, theirs, "cell", "acc")
    assert same["agrees"].all() and (same["diff"] == 0).all()
    missing = v.compare_runs(ours.iloc[:0], theirs, "cell", "acc")
    assert missing["test"].tolist() == ["missing"] and not missing["agrees"].any()


@pytest.mark.parametrize("pair_on", ["seed", None])
def test_intervals_cover_at_their_level(pair_on):
    """Under no difference, about 95% of cells agree (binomial 99.9% band over 400 cells)."""
    rng = np.random.default_rng(np.random.SeedSequence(11))
    cells, seeds = 400, 20
    shared = rng.normal(0, 1, (cells, seeds))
    theirs = pd.DataFrame({"cell": np.repeat(np.arange(cells), seeds),
                           "seed": np.tile(np.arange(seeds), cells),
                           "x": (shared + rng.normal(0, 0.5, (cells, seeds))).ravel()})
    ours = theirs.assign(x=(shared + rng.normal(0, 0.5, (cells, seeds))).ravel())
    share = v.compare_runs(ours, theirs, "cell", "x", pair_on=pair_on)["agrees"].mean()
    lo, hi = stats.binom.ppf([0.0005, 0.9995], cells, 0.95) / cells
    if pair_on is None:  # Welch ignores the shared effect: conservative, never below the level
        assert share >= lo
    else:
        assert lo <= share <= hi


def test_compare_published_reads_std_ci_and_skips_unprinted():
    ours = pd.DataFrame({"m": ["A"] * 5 + ["B"] * 5, "acc": [0.8, 0.81, 0.79, 0.8, 0.8] + [0.6] * 5,
                         "rd": [0.1] * 10})
    paper = pd.DataFrame({"m": ["A", "B", "C"], "acc": [0.80, 0.70, 0.5], "acc_std": [0.01, 0.0, 0.0],
                          "rd": [0.1, np.nan, 0.1]})
    out = v.compare_published(ours, paper, "m", ["acc", "rd"], decimals=2, paper_n=5)
    got = {(r.m, r.metric): r.agrees for r in out.itertuples()}
    assert got == {("A", "acc"): True, ("B", "acc"): False, ("C", "acc"): False, ("A", "rd"): True,
                   ("C", "rd"): False}
    assert out.set_index(["m", "metric"]).loc[("C", "acc"), "test"] == "missing"


def test_claim_verdicts_use_the_share():
    assert Claim("c", "s", "e", {str(i): i < 9 for i in range(10)}).verdict == "reproduced"
    assert Claim("c", "s", "e", {str(i): i < 1 for i in range(16)}).verdict == "not reproduced"


def test_ledger_and_completeness_on_constructed_boards():
    board = pd.DataFrame([
        {"paper": "p", "item": "T1", "label": "#t1", "status": "reproduced", "share": 1.0, "cause": "-",
         "reason": "", "cause_label": "", "evidence": "", "disagreeing": 0, "covered": 0},
        {"paper": "p", "item": "T2", "label": "#t2", "status": "partly", "share": 0.6, "cause": "explained",
         "reason": "variant x lands on 90%", "cause_label": "#variant", "evidence": "", "disagreeing": 2,
         "covered": 2},
    ])
    claims = pd.DataFrame([{"paper": "p", "claim": "C1", "statement": "s", "checks passed": "0/2",
                            "share": 0.0, "verdict": "not reproduced", "cause": "unexplained",
                            "reason": v.NO_CAUSE_RECORDED, "cause_label": ""}])
    led = sb.ledger(board, claims)
    assert led["item"].tolist() == ["T2", "C1"] and led["label"].tolist() == ["#variant", "#claims"]
    with pytest.raises(ValueError, match="without a recorded cause: p C1"):
        sb.check_complete(board, claims)
    sb.check_complete(board, claims.iloc[:0])
    bad = board.assign(cause=["explained", "-"])
    with pytest.raises(ValueError, match="must have cause"):
        v.check_ledger(bad)
    md = sb.ledger_markdown(led)
    assert "verdict-explained" in md and "[T2](../notebooks/p.md#variant)" in md
    box = sb.verdict_box("p", board=board, claims=claims)
    assert box.startswith(":::{admonition} Did it reproduce?") and "[T2](#variant)" in box
    assert "1 <span class=\"verdict verdict-reproduced\">reproduced</span>" in box


@pytest.mark.skipif(not (data_available() and data_available("reference")),
                    reason="dataset / reference files not reachable (set LDPFAIR_DATA_DIR)")
@pytest.mark.data
def test_every_discrepancy_of_every_paper_has_a_cause():
    board, claims = sb.computed()
    assert set(board["status"]) <= set(v.STATUSES)
    sb.check_complete(board, claims)
    # "verified" only for items compared with nothing of the paper
    assert board.loc[board["status"] == "verified", "share"].isna().all()

