"""The xu2019 chapter's tables and sentences (ldpfair.papers.xu2019.findings) on the committed results.

Every combination of ``reading`` and ``features`` that the notebook's declaration allows
renders non-empty tables, or says in one sentence why the encoding asked for is not
shown; the sentences' numbers are those of the tables they summarise.
"""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

from ldpfair.papers.xu2019 import SPEC, checks, findings
from ldpfair.papers.xu2019 import experiments as paper

READINGS = SPEC.parameters["reading"].values
FEATURES = SPEC.parameters["features"].values


@pytest.fixture(scope="module")
def res() -> dict[str, pd.DataFrame]:
    from ldpfair.papers import committed

    out = {name: committed("xu2019", name) for name in ("table1", "table2", "convergence", "readings")}
    if any(df is None or not len(df) for df in out.values()):
        pytest.skip("no committed xu2019 results")
    return out


def test_the_declaration_offers_both_readings_and_every_encoding() -> None:
    assert set(READINGS) == {paper.DEFAULT_READING, paper.EXPLORED_READING, "v0"}
    assert READINGS[0] == paper.DEFAULT_READING == checks.TEXT_READING  # the notebook's default
    assert set(FEATURES) == {"onehot", "compact", "counts"}


@pytest.mark.parametrize(("reading", "features"), list(itertools.product(READINGS, FEATURES)))
def test_every_declared_combination_shows_its_tables(res, reading, features) -> None:
    shown, note = findings.shown_encoding(res["table1"], features, reading, "paper")
    t1 = res["table1"][res["table1"].reading == reading]
    t2 = res["table2"][res["table2"].reading == reading]
    present = set(t1.features)
    if features in present:
        assert (shown, note) == (features, "")
    else:  # the results lack it: another encoding is shown, and one sentence says which and why
        assert shown in present and shown != features
        assert note.count(". ") <= 2 and f"'{reading}'" in note and features in note and shown in note
    # Table 1 (10 rows: 2 data sets x 5 methods), Table 2 (2 x 3 private methods x 4 budgets), the claims
    assert len(findings.table1(t1, shown, reading).frame) == 10
    assert len(findings.table2(t2, shown, reading).frame) == 24
    assert len(findings.claims(res, shown, reading).frame) == 3
    # every caption names the reading; only the default (the text's) is not labelled exploration
    exploration = reading != paper.DEFAULT_READING
    for tab in (findings.table1(t1, shown, reading), findings.table2(t2, shown, reading),
                findings.claims(res, shown, reading)):
        assert f"reading '{reading}'" in tab.caption and ("exploration" in tab.caption) == exploration
    other = findings.other_encodings(t1, shown)
    assert other, "the other encodings: tables or a sentence, never nothing"
    for item in other:
        if isinstance(item, str):
            assert item.startswith("No other encoding") and f"'{reading}'" in item
        else:
            assert len(item.frame) == 10


def test_v0_is_committed_with_compact_features_only(res) -> None:
    """The reported empty tables: v0 with onehot or counts falls back to compact, and says so."""
    for features in ("onehot", "counts"):
        shown, note = findings.shown_encoding(res["table1"], features, "v0", "paper")
        assert shown == "compact"
        assert note.startswith(f"**Encoding shown: compact, not {features}.**")


def test_shown_encoding_refuses_a_reading_without_results(res) -> None:
    with pytest.raises(ValueError, match="'v1' has no results in the paper profile"):
        findings.shown_encoding(res["table1"], "compact", "v1", "paper")


def test_agreement_sentence_counts_the_disagreements_table(res) -> None:
    text = findings.agreement_finding(res)
    n_new = int(re.search(r"\*\*(\d+)/68 under 'paper'\*\*", text).group(1))
    n_v0 = int(re.search(r"(\d+)/68 under v0", text).group(1))
    agree = checks.published_agreement(res["table1"], res["table2"], "compact", paper.DEFAULT_READING)
    assert len(agree) == 68 and n_new == int(agree.agrees.sum())
    assert n_v0 == int(checks.published_agreement(res["table1"], res["table2"], "compact", "v0").agrees.sum())
    # the disagreements table lists exactly the other published means
    assert len(findings.disagreements(res).frame) == 68 - n_new
    # one count per encoding of the default reading
    assert all(f"{f} " in text.split("encodings: ")[1] for f in paper.FEATURES)


def test_a_profile_without_compact_features_says_so(res) -> None:
    """The agreement is counted on compact features; without them (quick) a sentence, not a table of —."""
    onehot = {k: df[df.features == "onehot"] for k, df in res.items()}
    assert findings.disagreements(onehot) == ("The published means that still disagree are listed for "
                                              "compact features, which this profile does not compute.")
    text = findings.agreement_finding(onehot)
    agree = checks.published_agreement(res["table1"], res["table2"], "onehot", paper.DEFAULT_READING)
    n = int(agree.agrees.sum())
    assert "which this profile does not compute" in text and text.endswith(f"onehot {n}/68.")


def test_heldout_and_per_dataset_sentences_match_the_readings_table(res) -> None:
    rt = checks.readings_table(res["readings"])
    text, tab = findings.heldout_finding(res["readings"])
    sel = checks.heldout_selection(res["readings"])
    assert f"is {sel.attrs['selected']!r} ({sel.attrs['in_sample']} of 34)" in text
    assert "not held out" in text and "(held out)" not in text and len(tab.frame) == len(rt)
    rank = checks.default_rank(res["readings"])
    assert text.startswith(f"**The default reading** is the one the paper's text states, "
                           f"{checks.TEXT_READING!r}")
    assert f"total {rank['total'][0]} of 68 (rank {rank['total'][1]} of {rank['of']})" in text
    per = findings.per_dataset_finding(res["readings"])
    assert f"({rt.adult.max()}/34)" in per and f"({rt.dutch.max()}/34)" in per
    assert f"would match {rt.adult.max() + rt.dutch.max()}/68" in per
    assert f"at most {rt.total.max()}/68" in per
    assert len(findings.readings_overview(res["readings"]).frame) == len(rt)
    assert findings.heldout_finding(res["readings"].iloc[:0]) == []
    assert findings.per_dataset_finding(res["readings"].iloc[:0]) == ""


def test_convergence_tables(res) -> None:
    conv = res["convergence"]
    lim = findings.noiseless_limits(conv).frame
    # one row per reading and method that has an eps = inf fit
    assert len(lim) == len(conv[np.isinf(conv.epsilon)].groupby(["reading", "method"]))
    rates = findings.remedy_rates(conv).frame
    assert len(rates) == 7 * conv.reading.nunique()  # eps 0.1, 1, 10, 100, 1e3, 1e6 and inf
    fire = findings.remedy_firing(conv).frame
    assert len(fire) == conv[conv.method.isin(paper.PRIVATE_METHODS)].groupby(["epsilon", "reading"]).ngroups


def test_neutral_weight_sentence_quotes_the_table() -> None:
    nw = pd.DataFrame({"dataset": ["adult"] * 3 + ["dutch"] * 3, "encoding": list(paper.FEATURES) * 2,
                       "signed": [0.331, 0.334, 0.329, 0.79, 0.87, 0.8], "abs": [-1.0] * 6})
    text = findings.neutral_weight_finding(nw)
    assert text.startswith("With the signed shift the neutral weight is 0.33 on Adult and 0.79-0.87 on Dutch")
    assert len(findings.neutral_weight_table(nw).frame) == 6


def test_the_scoreboard_judges_the_texts_reading_and_flips_with_it(monkeypatch) -> None:
    """#45: the scoreboard's tables follow SCOREBOARD_READING (from the readings sweep where needed)."""
    board = checks.scoreboard().set_index("item")
    assert "reading 'paper'" in board.loc["Table 1", "evidence"]
    assert board.loc["Figure 1", "status"] != "not yet"  # Fig. 1 is computed under the text's reading
    fig1 = board.loc["Figure 1"]  # the evidence names each of the three trends and its outcome
    assert fig1["compared"] == 3 and fig1["disagreeing"] == fig1["evidence"].count(": no")
    assert fig1["evidence"].count(": yes") + fig1["evidence"].count(": no") == 3
    monkeypatch.setattr(checks, "SCOREBOARD_READING", "paper-zhang")
    other = checks.scoreboard().set_index("item")
    assert "reading 'paper-zhang'" in other.loc["Table 1", "evidence"]
    assert other.loc["Figure 1", "status"] == "not yet"  # no Fig. 1 rows under the exploratory reading
    assert (board.loc["Table 1", "share"], board.loc["Table 2", "share"]) != (
        other.loc["Table 1", "share"], other.loc["Table 2", "share"])
