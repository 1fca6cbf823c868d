"""hamman2023's findings as the chapter shows them (issue #36): functions of the package, not notebook cells.

The numbers in each sentence are those of the table or comparison it summarises,
computed on the committed paper-profile results.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from ldpfair import verdicts
from ldpfair.papers.hamman2023 import cells as fc
from ldpfair.papers.hamman2023 import checks as hc
from ldpfair.papers.hamman2023 import findings
from ldpfair.tables import Table

KEY = ["n", "m", "epsilon", "mechanism"]


@pytest.fixture(scope="module")
def res() -> dict[str, pd.DataFrame]:
    return hc.committed_results()


def _agree(ours: pd.DataFrame) -> int:
    """Finite-epsilon Table 1 leakage numbers that agree, by compare_published directly (the former cell)."""
    pub = hc.PAPER_TABLE1[np.isfinite(hc.PAPER_TABLE1["epsilon"])]
    return int(verdicts.compare_published(ours, pub, KEY, ["leakage"], decimals=0)["agrees"].sum())


def test_table1_reading_comparison_counts_what_compare_published_counts(res):
    default, under = hc.table1_reading_comparison(res)
    finite = int(np.isfinite(hc.PAPER_TABLE1["epsilon"]).sum())
    assert len(default) == finite and set(default["metric"]) == {"leakage"}
    assert int(default["agrees"].sum()) == _agree(res["table1"])
    readings = sorted(res["table1_reading"]["noise_reading"].unique())
    assert list(under) == readings and readings
    for reading, cmp in under.items():
        assert len(cmp) == finite
        ours = res["table1_reading"][res["table1_reading"]["noise_reading"] == reading]
        assert int(cmp["agrees"].sum()) == _agree(ours)
    # the leakage checks judge the same comparison
    evidence = [c.evidence for c in hc.leakage_checks("Table 1", hc.published_comparison(res)["Table 1"], res)
                if c.source.startswith("noise_reading=")]
    assert len(evidence) == len(under)
    for ev, cmp in zip(evidence, under.values(), strict=True):
        assert ev.startswith(f"{int(cmp['agrees'].sum())} of {finite} leakage numbers agree under it, "
                             f"{int(default['agrees'].sum())} under Theorem 5")


def test_table1_readings_sentence_states_the_comparison(res):
    tab, sentence = findings.table1_readings(res)
    default, under = hc.table1_reading_comparison(res)
    assert isinstance(tab, Table) and len(tab) == len(default)  # one row per finite-epsilon cell
    assert sentence == (f"Finite-epsilon leakage cells of Table 1 that agree with the paper "
                        f"(of {len(default)}): Theorem 5 {int(default['agrees'].sum())}; "
                        + "; ".join(f"{k} {int(v['agrees'].sum())}" for k, v in under.items()) + ".")
    # a profile without the readings says so and shows no table
    assert findings.table1_readings({**res, "table1_reading": res["table1_reading"].iloc[:0]}) == (
        None, "Table 1 under the readings: not computed in this profile.")
    assert hc.table1_reading_comparison({"table1": res["table1"]})[1] == {}


def test_leakage_checks_table_has_one_row_per_check(res):
    cmp = hc.published_comparison(res)
    want = [(item, c.statement, c.kind, str(len(c.covers) if c.holds else 0))
            for item in ("Table 1", "Table 2", "Table 3", "Table 4")
            for c in hc.leakage_checks(item, cmp[item], res)]
    frame = findings.leakage_checks_table(res).frame
    assert len(want) >= 5  # clipping, two readings, one regression per table
    got = list(frame.itertuples(index=False, name=None))
    assert [(r[0], r[1], r[2], str(r[3])) for r in got] == want


def test_cell_labels_finding_counts_the_committed_cells():
    ct = fc.committed_cell_table()
    text = findings.cell_labels_finding(ct)
    for r in fc.label_counts(ct).to_dict("records"):
        part = ", ".join(f"{int(r[k])} {k}" for k in fc.LABELS if int(r[k]))
        assert f"{r['item']}: {part}" in text
    tables_ct = ct[ct["item"].str.startswith("Table")]
    m = re.search(r"Of the (\d+) table cells, (\d+) are not ε-DP", text)
    assert m and (int(m[1]), int(m[2])) == (len(tables_ct), int(tables_ct["not_dp"].sum()))
    assert int(tables_ct["not_dp"].sum()) == hc.forensic_summary()["not_dp"]


def test_forensic_finding_states_the_summary():
    fs = {"reading": "per_query_no_factor6", "statistic": "rms", "best": 17, "cells": 64, "share": 17 / 64,
          "theorem5_best": 3}
    text = findings.forensic_finding(fs)
    assert text.startswith("The best combination, **per_query_no_factor6 with the rms**, reproduces 17 of 64 "
                           "cells (27%)")
    assert "at most 3." in text


def test_conclusion_names_each_item_not_reproduced():
    board = pd.DataFrame({"item": ["Table 1", "Figure 2", "Table 4"],
                          "status": ["not reproduced", "reproduced", "partly reproduced"],
                          "covered": [3, 0, 0], "disagreeing": [7, 0, 2],
                          "cause": ["paper error", "", "unexplained"]})
    text = findings.conclusion(board)
    assert "Table 1: 3 of 7 disagreements covered, cause *paper error*." in text
    assert "Table 4: 0 of 2 disagreements covered, cause *unexplained*." in text
    assert "Figure 2" not in text and text.startswith("**Conclusion (computed).**")


def test_accuracy_table_shows_the_printed_numbers():
    acc = pd.DataFrame({"dataset": ["adult", "german"], "base_accuracy": [85.0, 74.0],
                        "models_mean": [84.0, 73.0], "models_sd": [0.3, 0.4]})
    frame = findings.accuracy_table({"accuracy": acc}).frame
    paper = frame.iloc[:, 2].tolist()
    p = hc.PAPER_NUMBERS
    assert paper[1:] == [f"{p['adult_models_accuracy']:.2f}", f"{p['adult_models_sd']:.2f}",
                         f"{p['german_base_accuracy']:.2f}", f"{p['german_models_accuracy']:.2f}",
                         f"{p['german_models_sd']:.2f}"]
    assert frame.iloc[:, 3].tolist()[3] == "74.00"


def test_the_data_cards_and_reading_meanings_cover_the_chapter():
    from ldpfair import attacks

    assert [d for d, _ in findings.DATASETS] == ["adult_uci", "german", "synthetic_hamman"]
    assert set(findings.NOISE_READING_MEANINGS) == set(attacks.NOISE_READINGS)


def test_only_the_texts_reading_under_the_default_statistic_covers_a_cell():
    """#45: a reading covers a cell only as the text's reading, judged by the default comparison's statistic.

    The text's reading is Theorem 5 (our runs' noise): it covers nothing the default fails; a reading that
    lands under another statistic is exploration. Flip the implied loss above epsilon: a paper error.
    """
    from ldpfair import attacks

    def cell(loss: float) -> pd.DataFrame:
        return pd.DataFrame([{"item": "Figure 3", "n": 1000, "n0": 10, "m": 60, "N0": 10.0, "epsilon": 100.0,
                              "mechanism": "conceal", "paper": 0.0601, "decimals": 1, "statistic": "median",
                              "implied_scale": 0.06, "loss": loss, "not_dp": loss > 100.0,
                              "default_lands": False, "lands": "no_factor6", "label": "explained",
                              **{f"ratio {r}": 1.0 for r in attacks.NOISE_READINGS}}])

    assert set(hc.TEXT_READING.values()) == {"theorem5"} and "Theorem 5" in hc.TEXT_SENTENCE
    ct = cell(91.7)
    cid = hc.number_id("Figure 3", "avg_sp_err_e3", ct.iloc[0].to_dict())
    checks = hc.error_checks("Figure 3", ct, agrees={cid: False})
    c = verdicts.decide_cause([cid], checks)
    assert c.kind == "unexplained" and c.covered == 0 and "Exploration" in c.text
    assert verdicts.decide_cause([cid], hc.error_checks("Figure 3", cell(216.5))).kind == "paper error"
    assert hc.scoreboard().set_index("item").loc["Figure 3", "cause"] == "unexplained"
