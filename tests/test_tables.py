import numpy as np
import pandas as pd
import pytest

from ldpfair import tables
from ldpfair.tables import MISSING, format_value, long, table


def test_format_value_precision_missing_and_booleans():
    assert format_value(0.81234, 3) == "0.812"
    assert format_value(100.0, "g") == "100" and format_value(0.25, "g") == "0.25"
    assert format_value(36679) == "36,679"
    assert format_value(0.934, "%") == "93%"
    assert format_value(-0.0001, 3) == "0.000"  # no negative zero
    assert format_value(np.nan) == MISSING and format_value(None) == MISSING
    assert format_value(pd.NA) == MISSING
    assert format_value(True) == "yes" and format_value(np.bool_(False)) == "no"
    assert format_value(float("inf")) == "\u221e"
    assert format_value(0.000123, ".2e") == "1.23e-04"
    with pytest.raises(ValueError, match="digits"):
        format_value(1.0, "x")
    with pytest.raises(ValueError, match="digits"):
        format_value(1.0, -1)


def _frame():
    return pd.DataFrame({
        "auc_labels": [0.812345, np.nan, 0.7],
        "auc_sd": [0.0041, 0.002, np.nan],
        "epsilon": [0.25, 1.0, 100.0],
        "n": [1000.0, 300.0, 20427.0],
        "agrees": [True, False, None],
        "tuned": [True, False, True],
        "dataset": ["adult", "lsac", "acs"],
    })


def test_table_cells_read_as_a_reader_expects():
    t = table(_frame(), key="dataset", pm={"auc_labels": "auc_sd"}, digits={"epsilon": "g"},
              agreement="agrees", caption="A caption")
    f = t.frame
    assert list(f.columns) == ["dataset", "AUC (labels)", "\u03b5", "n", "agrees", "tuned"]  # key 1st
    assert f["AUC (labels)"].tolist() == ["0.812\u00a0\u00b1\u00a00.004", MISSING, "0.700"]
    assert f["\u03b5"].tolist() == ["0.25", "1", "100"]
    assert f["n"].tolist() == ["1,000", "300", "20,427"]  # integer-valued floats without decimals
    assert f["agrees"].tolist() == ["\u2713", "\u2717", MISSING]
    assert f["tuned"].tolist() == ["yes", "no", "yes"]
    flat = " ".join(f.astype(str).to_numpy().ravel())
    for raw in ("nan", "None", "True", "False"):
        assert raw not in flat
    assert any("agrees" in line for line in t.legend)


def test_table_html_is_in_a_scroll_container_with_caption_and_classes():
    html = table(_frame(), key="dataset", caption="Cells <present>", agreement="agrees")._repr_html_()
    assert html.startswith('<div class="ldpfair-table-block">')
    assert '<p class="ldpfair-caption">Cells &lt;present&gt;</p>' in html
    assert html.index("ldpfair-caption") < html.index('<div class="ldpfair-table"') < html.index("<table>")
    assert '<td class="key nowrap">adult</td>' in html
    assert '<td class="num nowrap">1,000</td>' in html  # numbers right-aligned, never wrapped
    assert '<span class="mark-no">\u2717</span>' in html and 'class="legend"' in html


def test_table_index_and_multiindex_columns_become_columns():
    wide = pd.DataFrame([[0.5, 0.25]], columns=pd.MultiIndex.from_tuples([("acc", "ours"), ("acc", "paper")]),
                        index=pd.Index(["adult"], name="dataset"))
    t = table(wide, key="dataset")
    assert list(t.frame.columns) == ["dataset", "acc ours", "acc paper"]
    assert t.frame.iloc[0].tolist() == ["adult", "0.500", "0.250"]


def test_table_labels_and_text_print():
    t = table(pd.DataFrame({"avg_sp_err_e3": [1.23456]}), labels={"avg_sp_err_e3": "mean SP error (x 1e-3)"},
              digits=2)
    assert list(t.frame.columns) == ["mean SP error (x 1e-3)"]
    assert "1.23" in str(t) and "nan" not in str(t)
    assert table(pd.DataFrame({"some_col": [1]})).frame.columns[0] == "some col"


def test_table_rejects_unknown_columns_and_bad_input():
    with pytest.raises(ValueError, match="key: no column 'zzz'"):
        table(_frame(), key="zzz")
    with pytest.raises(ValueError, match="pm: no column"):
        table(_frame(), pm={"auc_labels": "nope"})
    with pytest.raises(ValueError, match="digits"):
        table(_frame(), digits="bad")
    with pytest.raises(ValueError, match="frame must be a pandas DataFrame"):
        table([[1, 2]])


def test_long_keeps_row_order_and_every_cell():
    wide = pd.DataFrame({"ds": ["b", "a"], "acc": [0.1, 0.2], "f1": [0.3, 0.4]})
    out = long(wide, "ds")
    assert out.columns.tolist() == ["ds", "metric", "value"]
    assert out["ds"].tolist() == ["b", "b", "a", "a"]
    assert out["metric"].tolist() == ["acc", "f1", "acc", "f1"]
    assert out["value"].tolist() == [0.1, 0.3, 0.2, 0.4]
    with pytest.raises(ValueError, match="values: no column"):
        long(wide, "ds", ["zz"])


def test_labels_cover_the_recurring_internal_names():
    assert tables.LABELS["auc_labels"] != "auc_labels" and tables.LABELS["mechanism"] == "protocol"
    assert tables.label("auc_labels") == "AUC (labels)" and tables.label("my_col") == "my col"
    assert tables.label("x", {"x": "X"}) == "X"


def test_badges_render_verdicts_as_css_badges():
    t = table(pd.DataFrame({"claim": ["RQ1", "RQ2"], "verdict": ["reproduced", "not reproduced"]}),
              key="claim", badges="verdict")
    html = t.to_html()
    assert '<span class="verdict verdict-reproduced">reproduced</span>' in html
    assert '<span class="verdict verdict-not-reproduced">not reproduced</span>' in html
    assert tables.verdict_slug("Partly ") == "partly"


def test_details_are_full_width_lines_under_their_row():
    claims = pd.DataFrame({"claim": ["RQ1", "RQ2"], "verdict": ["reproduced", "partly"],
                           "evidence": ["93% of cells fairer", np.nan]})
    t = table(claims, key="claim", details="evidence")
    assert list(t.frame.columns) == ["claim", "verdict"]  # the prose is not a column
    html = t.to_html()
    assert html.count('<tr class="detail">') == 1  # a missing detail adds no line
    assert ('<td colspan="2"><div class="detail-text"><span class="detail-label">evidence:</span> '
            '93% of cells fairer</div></td>') in html
    assert html.index("RQ1") < html.index("93% of cells") < html.index("RQ2")
    assert "RQ1 - evidence: 93% of cells fairer" in str(t)
    with pytest.raises(ValueError, match="details: no column"):
        table(claims, details="nope")


def test_checks_marks_every_boolean_column_and_missing_values():
    frame = pd.DataFrame({"figure": ["1", "2", "3"], "check": ["a", "b", "c"],
                          "passes": [True, False, True], "on authors": [True, np.nan, None],
                          "score": [0.5, 1.0, 0.25], "flag": ["x", "y", "z"]})
    assert tables.boolean_columns(frame) == ["passes", "on authors"]
    t = tables.checks(frame, key="figure")
    assert t.frame["passes"].tolist() == ["\u2713", "\u2717", "\u2713"]
    assert t.frame["on authors"].tolist() == ["\u2713", MISSING, MISSING]
    assert t.frame["score"].tolist() == ["0.500", "1.000", "0.250"]  # numbers stay numbers
    assert t.legend == ["\u2713 holds, \u2717 does not, \u2014 not checked."]  # one legend line
    named = tables.checks(frame.set_index("figure"), marks="passes", legend_marks="L")
    assert named.frame.columns[0] == "figure" and named.legend == ["L"]
    assert named.frame["on authors"].tolist() == ["yes", MISSING, MISSING]  # not a mark column
    with pytest.raises(ValueError, match="marks="):
        tables.checks(frame, agreement="passes")
    with pytest.raises(ValueError, match="agreement: no column 'nope'"):
        tables.checks(frame, marks="nope")
    assert tables.boolean_columns(pd.DataFrame({"x": [np.nan, None]})) == []  # no boolean at all


def test_comparison_shows_paper_ours_with_interval_and_mark():
    from ldpfair.reporting import side_by_side

    ours = pd.DataFrame({"n": [100, 1000], "epsilon": [np.inf, 10.0], "leak_mean": [51.24, 60.0],
                         "leak_ci": [1.0, 2.0], "extra": [3.0, 4.0]})
    paper = pd.DataFrame({"n": [100, 1000, 5], "epsilon": [np.inf, 10.0, 1.0], "leak": [51.0, 70.0, 3.0]})
    sbs = side_by_side(ours, paper, ["n", "epsilon"], "leak", tolerance=0.5)
    sbs["extra"] = [3.0, 4.0, np.nan]
    t = tables.comparison(sbs, ["n", "epsilon"], "leak", labels={"leak": "leakage (%)"},
                          digits={"leak": 1, "epsilon": "g"}, extra=["extra"])
    assert list(t.frame.columns) == ["n", "\u03b5", "leakage (%) paper", "leakage (%) ours",
                                     "leakage (%) agrees", "extra"]
    assert t.frame["\u03b5"].tolist() == ["\u221e", "10", "1"]
    assert t.frame["leakage (%) ours"].tolist() == ["51.2\u00a0\u00b1\u00a01.0", "60.0\u00a0\u00b1\u00a02.0",
                                                    MISSING]
    assert t.frame["leakage (%) agrees"].tolist() == ["\u2713", "\u2717", MISSING]
    assert "ours \u2212 paper" not in " ".join(t.frame.columns)
    with_diff = tables.comparison(sbs, ["n", "epsilon"], "leak", diff=True, digits=1)
    assert with_diff.frame["leak ours \u2212 paper"].tolist()[:2] == ["0.2", "-10.0"]
    with pytest.raises(ValueError, match="sbs: no column 'acc \\(paper\\)'"):
        tables.comparison(sbs, ["n"], "acc")


def _no_raw(t) -> None:
    cells = set(t.frame.astype(str).to_numpy().ravel()) | set(t.frame.columns)
    assert not cells & {"nan", "NaN", "None", "True", "False", "<NA>"}


def test_chapter_tables_of_makhlouf2024_and_hamman2023_show_marks_and_labels():
    from ldpfair.papers.hamman2023 import tables as ht
    from ldpfair.papers.makhlouf2024 import tables as mkt
    from ldpfair.reporting import side_by_side

    fig = mkt.figure12({"Figure 1": {"three settings": True}, "Figure 2": {"P(M | A) as coded": False}})
    assert fig.frame["holds"].tolist() == ["\u2713", "\u2717"] and fig.frame.columns[0] == "figure"
    _no_raw(fig)
    over = pd.DataFrame({"claim": ["Obs1"], "authors' files": ["reproduced"], "draw 0": ["reproduced"],
                         "draw 1": ["partly"], "draw 2": ["reproduced"], "draw 3": ["reproduced"],
                         "survives": [0.75], "checks changed": [0.25]})
    t = mkt.claims_over_draws(over)
    assert t.frame.iloc[0].tolist() == ["Obs1", "reproduced", "reproduced", "partly", "reproduced", "75%",
                                        "0.25"]
    assert "4 regenerated draws (3 shown)" in t.caption
    dc = pd.DataFrame({"claim": ["Obs1", "Obs5"], "authors": ["reproduced", "partly"],
                       "authors share": [1.0, 0.67], "draw 0": ["reproduced", "partly"],
                       "draw 0 share": [1.0, 0.5]})
    t = mkt.draw_claims(dc)
    assert list(t.frame.columns) == ["claim", "authors' files", "draw 0", "checks passed (authors' files)",
                                     "same share in every draw"]
    assert t.frame.iloc[1].tolist() == ["Obs5", "partly", "partly", "67%", "\u2717"]
    assert 'verdict-partly' in t.to_html()
    ours = pd.DataFrame({"n": [1000], "n0": [10], "m": [60], "avg_sp_err_e3_mean": [12.345],
                         "avg_sp_err_e3_ci": [0.5], "leakage_mean": [50.4], "leakage_ci": [np.nan]})
    paper = pd.DataFrame({"n": [1000, 10000], "n0": [10, 100], "m": [60, 1000], "avg_sp_err_e3": [0.1, 0.2],
                          "leakage": [50.0, 51.0]})
    sbs = side_by_side(ours, paper, ["n", "n0", "m"], ["avg_sp_err_e3", "leakage"])
    pub = ht.published(sbs, ["n", "n0", "m"], ["avg_sp_err_e3", "leakage"], caption="Table 2.")
    assert pub.frame.columns[:3].tolist() == ["n", "N\u2080", "m"]
    assert pub.frame.iloc[0, 4] == "12.3\u00a0\u00b1\u00a00.5" and pub.frame.iloc[1, 4] == MISSING
    assert pub.frame.iloc[0, 5] == "\u2717" and pub.frame.iloc[1, 5] == MISSING
    assert pub.frame.iloc[0, 7] == "50.4"  # no interval: the mean alone
    _no_raw(pub)
    imp = pd.DataFrame({"table": ["1", "1"], "n": [100, 100], "m": [40, 40], "N0": [10.0, 10.0],
                        "epsilon": [10.0, 100.0], "mechanism": ["conceal", "laplace"],
                        "paper_err": [1e-3, 2e-4],
                        "theorem_scale": [0.5, 0.04], "implied_scale": [1e-3, 2e-4], "factor": [500.0, 200.0],
                        "loss": [30.0, 50.0], "dp": [False, True]})
    t = ht.implied(imp)
    assert t.frame["\u03b5-DP"].tolist() == ["\u2717", "\u2713"]
    assert t.frame["privacy loss / \u03b5"].tolist() == ["3", "0.5"]
    assert t.frame["N\u2080"].tolist() == ["10", "10"]
    _no_raw(t)
