"""Tests of the xu2019 paper package (ldpfair.papers.xu2019: declarations, published numbers, checks)."""

from __future__ import annotations

import numpy as np
import pytest

from ldpfair.papers.xu2019 import SPEC, checks
from ldpfair.papers.xu2019 import experiments as xu2019


def test_profiles_declare_every_target() -> None:
    paper = SPEC.experiments("paper")
    assert set(paper) == {"table1", "table2", "fig1", "convergence", "readings"}
    # the text's reading and the exploratory one with the three encodings, v0 with compact features
    assert len(paper["table1"]) == 7 * 2 * len(xu2019.METHODS) * 10
    assert len(paper["table2"]) == 7 * 2 * len(xu2019.PRIVATE_METHODS) * 4 * 10
    assert {(p["reading"], p["features"]) for p in paper["table2"].param_sets} == {
        *((r, f) for r in ("paper", "paper-zhang") for f in ("onehot", "compact", "counts")),
        ("v0", "compact")}
    # Fig. 1 and the convergence study: the default reading, which is the text's
    assert xu2019.DEFAULT_READING == checks.TEXT_READING == "paper"
    assert {p["reading"] for p in paper["fig1"].param_sets} == {"paper"}
    assert {p["reading"] for p in paper["convergence"].param_sets} == {"paper", "v0"}
    # every reading: the private methods on Table 2's cells plus its own LR and FairLR
    assert len(paper["readings"]) == len(xu2019.READINGS) * 2 * (3 * 4 + 2) * 10
    assert {p["epsilon"] for p in paper["convergence"].param_sets} == set(xu2019.CONVERGENCE_EPSILONS)
    ratios = sorted({p["eps_f_ratio"] for p in paper["fig1"].param_sets})
    np.testing.assert_allclose(ratios, np.arange(1, 20) * 0.05)
    quick = SPEC.experiments("quick")
    assert {p["method"] for p in quick["table1"].param_sets} == set(xu2019.METHODS)
    with pytest.raises(ValueError, match="profile"):
        xu2019.build("slow")


def test_published_tables() -> None:
    assert len(checks.PAPER_TABLE1) == 10 and len(checks.PAPER_TABLE2) == 24
    t1 = checks.PAPER_TABLE1.set_index(["dataset", "method"])
    t2 = checks.PAPER_TABLE2.set_index(["dataset", "method", "epsilon"])
    # Table 2 at epsilon = 1 repeats Table 1 (accuracy)
    for ds in ("adult", "dutch"):
        for m in ("PrivLR", "PFLR", "PFLR*"):
            assert t1.loc[(ds, m), "accuracy"] == t2.loc[(ds, m, 1.0), "accuracy"]
    # the paper's "11.42%" and "17.52%" losses are differences of Table 1 accuracies (points)
    loss = t1["accuracy"].xs("LR", level="method") - t1["accuracy"].xs("PrivLR", level="method")
    np.testing.assert_allclose(loss[["adult", "dutch"]], [0.1142, 0.1752], atol=1e-9)


def test_noise_variance_pflr_star_needs_large_eps_f() -> None:
    # eps_f = eps/2 doubles the objective's noise scale: PFLR* adds MORE noise than PFLR for d >= 4
    for d in (4, 40, 102):
        assert xu2019.noise_variance("PFLR*", d, 1.0, 0.5) > xu2019.noise_variance("PFLR", d, 1.0)
    # with eps_f / eps large enough (paper: eps_f >= Delta_f / Delta_f~ * eps) it adds less
    d = 40
    q = 0.9
    assert q > xu2019.lr_sensitivity(d) / xu2019.pflr_sensitivity(d)
    assert xu2019.noise_variance("PFLR*", d, 1.0, q) < xu2019.noise_variance("PFLR", d, 1.0)
    # ... but not too large: the noise of mu (budget eps_g) counts too, which the paper omits
    assert xu2019.noise_variance("PFLR*", d, 1.0, 0.95) > xu2019.noise_variance("PFLR", d, 1.0)


@pytest.mark.data
def test_features_and_cell() -> None:
    from ldpfair.datasets.xu2019 import encoding_diff, n_attributes

    # "counts" has the paper's counts, 40 (Adult) and 35 (Dutch)
    for ds, feats, d in (("adult", "onehot", 102), ("adult", "compact", 40), ("adult", "counts", 40),
                         ("dutch", "onehot", 59), ("dutch", "compact", 37), ("dutch", "counts", 35)):
        X, y, s, cols = xu2019.load_xy(ds, feats)
        assert X.shape[1] == d == len(cols) and X.min() >= 0 and X.max() <= 1
        assert set(np.unique(y)) == {0, 1} and set(np.unique(s)) == {0, 1}
        # the attribute count bounds every record's feature sum (the "attributes" sensitivity bound)
        assert X.sum(axis=1).max() <= n_attributes(cols) + 1e-9
    assert n_attributes(xu2019.load_xy("adult", "compact")[3]) == 10
    assert n_attributes(xu2019.load_xy("dutch", "counts")[3]) == 10
    diff = encoding_diff("dutch", "compact", "counts").set_index("attribute")
    assert diff.to_dict("index") == {"edu_level": {"columns (compact)": 1, "columns (counts)": 6},
                                     "household_position": {"columns (compact)": 8, "columns (counts)": 1}}
    assert encoding_diff("adult", "compact", "counts").empty
    dropped = encoding_diff("adult", "onehot", "compact").set_index("attribute")["columns (compact)"]
    assert set(dropped.index) == {"education", "race", "native_country"} and (dropped == 0).all()
    with pytest.raises(ValueError, match="encoding"):
        xu2019.load_xy("adult", "binned")
    X, y, s, _ = xu2019.load_xy("adult", "onehot")
    assert len(y) == 45222
    row = xu2019.fit_evaluate("adult", "compact", "PFLR*", 10.0, 0.5, 0, rng=np.random.default_rng(0))
    again = xu2019.fit_evaluate("adult", "compact", "PFLR*", 10.0, 0.5, 0, rng=np.random.default_rng(0))
    assert row == again and 0.5 < row["accuracy"] < 0.9 and row["d"] == 40
    # one-hot groups make the noiseless form singular: its smallest eigenvalue is 0 (to rounding)
    assert abs(row["min_eig_clean"]) < 1e-8 and row["min_eig_noisy"] < 0
    # noiseless limits: PFLR* with the shift as mean = the signed-shift Taylor model (v0 and v1); with
    # the shift as constraint (adopted) = FairLR's constrained Taylor model
    lim = {(m, r): xu2019.fit_evaluate("adult", "compact", m, float("inf") if m == "PFLR*" else None, 0.5, 0,
                                       rng=np.random.default_rng(0), reading=r)
           for m, r in (("PFLR*", "paper"), ("PFLR*", "v1"), ("PFLR*", "v0"), ("FairLR", "paper"))}
    assert lim[("PFLR*", "v1")]["accuracy"] == lim[("PFLR*", "v0")]["accuracy"]
    fair = lim[("FairLR", "paper")]["accuracy"]
    assert lim[("PFLR*", "paper")]["accuracy"] == pytest.approx(fair, abs=2e-4)
    assert lim[("PFLR*", "paper")]["remedy_triggered"] == 0
    # the "attributes" bound and the "train" evaluation are honoured
    a = xu2019.fit_evaluate("adult", "compact", "PrivLR", 1.0, 0.5, 0, rng=np.random.default_rng(0),
                            reading="paper+attributes")
    tr = xu2019.fit_evaluate("adult", "compact", "LR", None, 0.5, 0, rng=np.random.default_rng(0),
                             reading="paper+train")
    te = xu2019.fit_evaluate("adult", "compact", "LR", None, 0.5, 0, rng=np.random.default_rng(0))
    assert a["d"] == 40 and tr["accuracy"] != te["accuracy"]
    assert row["rd"] == pytest.approx(abs(row["pos_rate_s1"] - row["pos_rate_s0"]))
    with pytest.raises(ValueError, match="needs an epsilon"):
        xu2019.fit_evaluate("dutch", "onehot", "PrivLR", None, 0.5, 0, rng=np.random.default_rng(0))


def test_published_agreement_uses_the_verdict_rules() -> None:
    import pandas as pd

    rng = np.random.default_rng(0)
    rows = []
    for r in checks.PAPER_TABLE1.to_dict("records"):
        for run in range(10):
            eps = 1.0 if r["method"] in xu2019.PRIVATE_METHODS else None
            rows.append({"dataset": r["dataset"], "method": r["method"], "epsilon": eps, "run": run,
                         "features": "compact", "reading": "paper",
                         "accuracy": r["accuracy"] + rng.normal(0, 1e-3), "rd": r["rd"] + 0.2})
    t1 = pd.DataFrame(rows)
    t2 = t1[t1.method.isin(xu2019.PRIVATE_METHODS)].copy()
    out = checks.published_agreement(t1, t2, "compact", "paper")
    assert len(out) == 20 + 48
    missing = out[out.n_runs == 0]  # our t2 has only the epsilon = 1 cells; the others count as disagreeing
    assert len(missing) == 36 and not missing.agrees.any()
    t1_rows = out[out.table == "Table 1"]
    assert t1_rows[t1_rows.metric == "accuracy"].agrees.all()
    assert not t1_rows[t1_rows.metric == "rd"].agrees.any()  # 0.2 off: far outside any interval
    # the precision slack is half a unit of the fourth decimal, nothing wider
    assert set(out.precision) == {0.00005}


def test_scoreboard_follows_the_committed_results(monkeypatch, tmp_path) -> None:
    """Computed, not typed: every row by verdicts.score_item; with the results moved away, 'not yet'."""
    from ldpfair import verdicts
    from ldpfair.papers import committed

    board = checks.scoreboard()
    assert list(board["item"]) == ["Table 1", "Table 2", "Figure 1"]
    assert list(board.columns) == list(verdicts.ITEM_COLUMNS)
    verdicts.check_ledger(board)
    sources = {n: committed("xu2019", n) for n in ("table1", "table2", "readings")}
    t1, t2, _ = checks.tables_under(checks.SCOREBOARD_READING, sources)
    agree = checks.published_agreement(t1, t2, checks.SCOREBOARD_FEATURES, checks.SCOREBOARD_READING)
    for item in ("Table 1", "Table 2"):
        a = agree[agree.table == item]["agrees"]
        row = board.set_index("item").loc[item]
        assert row["numbers"] == len(a) and row["share"] == a.mean()
        assert row["status"] == verdicts.status(a.tolist())[0]
    claims = checks.committed_claims()
    assert [c.id for c in claims] == ["C1", "C2", "C3"]
    assert all((c.cause is None) == (c.verdict == "reproduced") for c in claims)
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path))
    assert set(checks.scoreboard()["status"]) == {"not yet"}
    assert checks.committed_claims() == []


def test_the_default_is_the_texts_reading_and_the_selection_is_exploration() -> None:
    """#45: the default reading is the text's ('paper'); a selection on Adult picks another one."""
    from ldpfair.papers import committed

    readings = committed("xu2019", "readings")
    if not len(readings):
        pytest.skip("no committed readings results")
    sel = checks.heldout_selection(readings)
    assert checks.SCOREBOARD_READING == checks.TEXT_READING == "paper" == xu2019.DEFAULT_READING
    assert sel.attrs["selected"] == xu2019.EXPLORED_READING != xu2019.DEFAULT_READING  # chosen by score
    rank = checks.default_rank(readings)
    assert rank["of"] == len(xu2019.READINGS) and rank["total"][1] > 1  # not the best by score
    assert sel.attrs["select_on"] == "adult" and sel.attrs["held_out_dataset"] == "dutch"
    assert sel.attrs["of"] == 34
    rt = checks.readings_table(readings).set_index("reading")
    assert set(rt.index) == set(xu2019.READINGS)
    assert (rt["Table 1"] + rt["Table 2"] == rt["total"]).all()
    assert (rt["adult"] + rt["dutch"] == rt["total"]).all()
    # the selection looked at Adult only: its count there is the largest, whatever Dutch says
    assert sel.attrs["in_sample"] == rt["adult"].max() == rt.loc[xu2019.EXPLORED_READING, "adult"]
    assert sel.attrs["held_out"] == rt.loc[xu2019.EXPLORED_READING, "dutch"]
    # the tables' own cells (computed separately) agree with the readings sweep's count for it
    t1, t2 = committed("xu2019", "table1"), committed("xu2019", "table2")
    n_tables = int(checks.published_agreement(t1, t2, "compact", xu2019.DEFAULT_READING)["agrees"].sum())
    assert n_tables == rt.loc[xu2019.DEFAULT_READING, "total"]


def test_heldout_rule_ignores_the_held_out_counts(monkeypatch) -> None:
    """A reading best on Dutch or in total is not selected when another is best on Adult; ties by order."""
    import pandas as pd

    names = list(xu2019.READINGS)
    frame = pd.DataFrame({"reading": names, "adult": [10] * len(names), "dutch": [10] * len(names)})
    frame.loc[frame.reading == names[3], ["adult", "dutch"]] = [20, 5]   # best on Adult
    frame.loc[frame.reading == names[0], ["adult", "dutch"]] = [19, 34]  # best on Dutch and in total
    frame["total"] = frame["adult"] + frame["dutch"]
    monkeypatch.setattr(checks, "readings_table", lambda readings, features=None: frame.copy())
    sel = checks.heldout_selection(pd.DataFrame())
    assert sel.attrs["selected"] == names[3] and sel.attrs["held_out"] == 5 and sel.attrs["in_sample"] == 20
    frame.loc[frame.reading == names[5], "adult"] = 20  # a tie on Adult: the earlier reading wins
    assert checks.heldout_selection(pd.DataFrame()).attrs["selected"] == names[3]
    sel = checks.heldout_selection(pd.DataFrame(), select_on="dutch", held_out="adult")
    assert sel.attrs["selected"] == names[0] and sel.attrs["held_out"] == 19


def test_profile_overrides_reach_the_sweeps() -> None:
    """SPEC.experiments and build apply the same overrides; a name the profile lacks is refused."""
    quick = SPEC.experiments("quick", runs=3, datasets=("adult",))
    assert {p["run"] for p in quick["table1"].param_sets} == {0, 1, 2}
    assert {p["dataset"] for p in quick["table2"].param_sets} == {"adult"}
    same = xu2019.build("quick", runs=3, datasets=("adult",))["table1"]
    assert [t.key for t in same.tasks()] == [t.key for t in quick["table1"].tasks()]
    assert [t.key for t in SPEC.experiments("quick")["table1"].tasks()] != [t.key for t in same.tasks()]
    with pytest.raises(ValueError, match="unknown parameter.*'run'"):
        SPEC.experiments("quick", run=3)
