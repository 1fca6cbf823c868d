"""Tests of the synthesis chapter: grid declaration, paired deltas, claim checks, leaderboard, cards."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair.papers.synthesis import SPEC, analysis, cards, checks
from ldpfair.papers.synthesis import experiments as syn

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- helpers
def _row(ds, mech, eps, seed, **m):
    base = {"dataset": ds, "mechanism": mech, "epsilon": eps, "seed": seed, "acc": 0.80, "auc_scores": 0.85,
            "SPD": 0.20, "EOD": 0.10, "OAD": 0.05, "DI": 0.60, "Delta_SP": 0.20, "Delta_EO": 0.10}
    base.update(m)
    return base


def _frame(ds="compas", seeds=(0, 1, 2), mechs=syn.MECHANISMS, eps=syn.EPSILONS, fair=None, acc=None):
    """NonDP gaps (0.2, 0.1, 0.05, DI 0.6); each private cell's gaps scaled by ``fair(mech, eps)``."""
    fair = fair or (lambda m, e: 0.5)
    acc = acc or (lambda m, e: 0.80)
    rows = []
    for s in seeds:
        rows.append(_row(ds, "NonDP", np.nan, s))
        for m in mechs:
            for e in eps:
                f = fair(m, e)
                rows.append(_row(ds, m, e, s, SPD=0.2 * f, EOD=0.1 * f, OAD=0.05 * f, DI=1 - 0.4 * f,
                                 Delta_SP=0.2 * f, Delta_EO=0.1 * f, acc=acc(m, e)))
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- declaration
def test_paper_grid_declares_the_issue_grid():
    grids = SPEC.experiments("paper")
    assert list(grids) == list(syn.DATASETS)
    for key, g in grids.items():
        tasks = g.tasks()
        # NonDP once per seed, every mechanism at every epsilon per seed
        assert len(tasks) == 10 * (1 + len(syn.MECHANISMS) * len(syn.EPSILONS))
        assert {t.privatization.name for t in tasks} == {"NonDP", *syn.MECHANISMS}
        assert {p.sensitive for p in g.privatizations if p.private} == {(syn.DATASETS[key][2],)}
        assert all(p.apply_to == "train" for p in g.privatizations)
        assert g.models[0].params == syn.LGBM_PARAMS
    # task keys are stable: declaring twice gives the same keys
    again = SPEC.experiments("paper", datasets=["compas"])["compas"].tasks()
    assert [t.key for t in again] == [t.key for t in grids["compas"].tasks()]


@pytest.mark.parametrize("kwargs, word", [({"profile": "full"}, "profile"),
                                          ({"datasets": ["adult_uci"]}, "dataset"),
                                          ({"mechanisms": ["Laplace"]}, "mechanism")])
def test_build_rejects_bad_input(kwargs, word):
    with pytest.raises(ValueError, match=word):
        SPEC.experiments(**kwargs)


def test_every_protected_attribute_is_binary():
    from ldpfair.datasets import load

    for key in ("compas", "german", "student_math"):
        name, options, protected, _ = syn.DATASETS[key]
        ds = load(name, **options)
        assert ds.protected == protected
        assert ds.domains[protected] == 2


# --------------------------------------------------------------------------- deltas and claims
def test_deltas_pair_each_run_with_its_seed():
    f = _frame(seeds=(0, 1), mechs=("GRR",), eps=(1.0,))
    f.loc[(f.mechanism == "NonDP") & (f.seed == 1), "acc"] = 0.90  # seed 1's baseline is better
    d = analysis.deltas(f).set_index("seed")
    assert d.loc[0, "utility_loss"] == pytest.approx(0.0)
    assert d.loc[1, "utility_loss"] == pytest.approx(0.10)
    assert d.loc[0, "gain_SPD"] == pytest.approx(0.10)  # |0.2| - |0.1|
    assert d.loc[0, "gain_DI"] == pytest.approx(0.4 - 0.2)
    assert d.loc[0, "fairness_gain"] == pytest.approx((0.1 + 0.05 + 0.025) / 3)


def test_deltas_reject_a_frame_without_metrics():
    with pytest.raises(ValueError, match="frame"):
        analysis.deltas(pd.DataFrame({"dataset": ["a"], "mechanism": ["NonDP"]}))


def test_claims_hold_on_a_constructed_dataset_where_they_should():
    # more noise at small epsilon -> smaller gaps; OPT fairer than GRR/SS; BLH worst accuracy, GRR/SS best
    fair = {"OPT": 0.35}
    accs = {"BLH": 0.70, "GRR": 0.80, "SS": 0.80}
    f = _frame(fair=lambda m, e: fair.get(m, 0.2 + 0.1 * e), acc=lambda m, e: accs.get(m, 0.795))
    t = checks.claim_checks(f).set_index("claim")
    assert bool(t.loc["RQ1 fairness", "holds"])  # 0.2 + 0.1 e < 1 for e < 8
    assert not bool(t.loc["RQ1 utility", "holds"])  # BLH loses 10 points: mean loss > 1.5
    assert bool(t.loc["RQ3", "holds"])
    assert bool(t.loc["Obs1", "holds"]) and bool(t.loc["A", "holds"])
    # OPT's gaps 0.35 x NonDP are below GRR's (0.3, 0.4, 0.6, 1.0) only at epsilon 2, 4, 8: not all >= 1
    assert not bool(t.loc["V-A vs GRR", "holds"])
    assert "SP 3/4" in t.loc["V-A vs GRR", "text"]


def test_claims_fail_where_ldp_makes_things_worse():
    f = _frame(fair=lambda m, e: 1.5 - 0.1 * e)  # gaps grow under LDP, and more so at small epsilon
    t = checks.claim_checks(f).set_index("claim")
    assert not bool(t.loc["RQ1 fairness", "holds"])
    assert not bool(t.loc["Obs1", "holds"])
    assert not bool(t.loc["A", "holds"])
    assert t.loc["RQ1 fairness", "value"] == pytest.approx(0.2)  # only epsilon 8 (gaps x 0.7) is fairer


def test_generalisation_counts_datasets_where_each_claim_holds():
    good = _frame("compas", fair=lambda m, e: 0.5)
    bad = _frame("german", fair=lambda m, e: 1.5)
    partial = _frame("dutch", mechs=("GRR",), eps=(1.0,))  # no epsilon 0.5/8: Obs1 not testable
    table = checks.generalisation(checks.claim_checks(pd.concat([good, bad, partial]))).set_index("claim")
    assert table.loc["RQ1 fairness", "holds on"] == "2/3"
    assert table.loc["RQ1 fairness", "COMPAS"].startswith("holds")
    assert table.loc["RQ1 fairness", "German"].startswith("does not hold")
    assert table.loc["Obs1", "Dutch"] == "—"
    assert table.loc["Obs1", "holds on"] == "0/2"
    assert "2/3" in checks.headline(table.reset_index())


# --------------------------------------------------------------------------- leaderboard
def test_leaderboard_matches_utility_loss_and_ranks_by_gain():
    # SS: the largest gain at every epsilon, but it loses 2 points below epsilon 4; GRR never loses accuracy
    def fair(m, e):
        return {"SS": 0.1, "GRR": 0.5}.get(m, 0.9)

    def acc(m, e):
        return 0.78 if (m == "SS" and e < 4) else 0.80

    f = _frame(mechs=("GRR", "SS", "OUE"), fair=fair, acc=acc)
    board = analysis.leaderboard(f, max_loss=0.005).set_index("mechanism")
    assert list(board.index) == ["SS", "GRR", "OUE"]
    assert board.loc["SS", "epsilon_median"] == 4.0  # the most private budget within the matched loss
    assert board.loc["GRR", "epsilon_median"] == 0.5
    assert board.loc["SS", "gain"] == pytest.approx((0.18 + 0.09 + 0.045) / 3)
    assert board.loc["SS", "ci_low"] <= board.loc["SS", "gain"] <= board.loc["SS", "ci_high"]
    assert board.loc["SS", "wins"] == 1


def test_leaderboard_interval_reflects_seed_spread():
    f = _frame(mechs=("GRR",), eps=(1.0,), seeds=range(6))
    f.loc[f.mechanism == "GRR", "SPD"] = 0.1 + 0.01 * f.loc[f.mechanism == "GRR", "seed"]
    b = analysis.leaderboard(f).iloc[0]
    assert b["ci_high"] - b["ci_low"] > 0


@pytest.mark.parametrize("kwargs", [{"max_loss": -0.1}, {"max_loss": float("nan")}, {"level": 1.5}])
def test_leaderboard_rejects_bad_parameters(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        analysis.leaderboard(_frame(mechs=("GRR",), eps=(1.0,)), **kwargs)


# --------------------------------------------------------------------------- mechanism cards
@pytest.mark.parametrize("name", [m for m in syn.MECHANISMS if m != "OPT"])
def test_exact_variance_is_wang_et_al_with_f(name):
    from ldpfair.ldp import make_protocol

    for k, eps in ((2, 1.0), (5, 2.0)):
        assert cards.exact_variance(name, k, eps, 0.3) == pytest.approx(
            make_protocol(name, k, eps).variance(1, 0.3), rel=1e-12)


@pytest.mark.parametrize("name, eps", [("GRR", 1.0), ("OLH", 2.0), ("THE", 1.0), ("OPT", 1.0), ("OPT", 8.0)])
def test_exact_variance_agrees_with_simulation(name, eps):
    sim, se = cards.simulated_variance(name, 2, eps, 0.3, n=500, reps=300, seed=1)
    assert abs(sim - cards.exact_variance(name, 2, eps, 0.3)) < 4 * se


def test_card_privacy_levels_and_bits():
    t = cards.cards(2, (1.0,), reps=20).set_index("mechanism")
    for m in ("GRR", "BLH", "OLH", "RAPPOR", "OUE", "SS", "OPT"):
        assert t.loc[m, "level"] == pytest.approx(1.0, rel=1e-9)
    assert t.loc["THE", "level"] < 1.0  # thresholded: strictly inside the budget
    assert t.loc["GRR", "bits"] == 1 and t.loc["RAPPOR", "bits"] == 2 and t.loc["OLH", "bits"] > 62
    assert cards.report_bits("SS", 8, 1.0) == 3 * cards.make_protocol("SS", 8, 1.0).omega
    assert math.isnan(t.loc["OPT", "users_per_s"]) and t.loc["GRR", "users_per_s"] > 0
    # OPT's variance levels off at 1 - f, GRR's tends to 0
    assert cards.exact_variance("OPT", 2, 30.0, 0.3) == pytest.approx(0.7, rel=1e-6)
    assert cards.exact_variance("GRR", 2, 30.0, 0.3) < 1e-9


def test_audit_table_is_the_cards_privacy_columns():
    """`cards.audits` (the book's "Adding a mechanism" page) gives the cards' levels and audit bounds."""
    a = cards.audits(2, (4.0,))
    book = a[a["origin"] == "book"].reset_index(drop=True)
    c = cards.cards(2, (4.0,), reps=10).iloc[: len(book)].reset_index(drop=True)
    assert list(book["mechanism"]) == list(cards.MECHANISMS) == list(c["mechanism"])
    np.testing.assert_array_equal(book["level"], c["level"])
    np.testing.assert_array_equal(book["audit_lower_bound"], c["audit_lower_bound"])
    gap = book["level"] - book["audit_lower_bound"]
    assert ((gap >= 0) & (gap < 0.1)).all()  # sound, and tight at a million reports per input


@pytest.mark.parametrize("args, word", [(("Laplace", 2, 1.0), "mechanism"), (("GRR", 1, 1.0), "k"),
                                        (("OPT", 3, 1.0), "k"), (("GRR", 2, 1.0, 1.5), "f")])
def test_cards_reject_bad_input(args, word):
    with pytest.raises(ValueError, match=word):
        cards.exact_variance(*args)


# --------------------------------------------------------------------------- committed results
def test_committed_results_reproduce_and_scoreboard_rows():
    from ldpfair.experiments import verify_results
    from ldpfair.experiments.notebooks import results_dir

    frames = SPEC.results("paper")
    present = {k: f for k, f in frames.items() if len(f)}
    assert present, "no committed synthesis results"
    for f in present.values():
        assert f.attrs["coverage"]["present"] == f.attrs["coverage"]["total"] == 410
    # a sample of committed cells (at least one per mechanism) recomputed bit for bit
    fresh = verify_results(SPEC.experiments("paper")["compas"], results_dir("synthesis") / "compas",
                           n_cells=1)
    assert len(fresh) >= 1
    board = SPEC.scoreboard()
    assert set(board["status"]) == {"new result"}
    text = (ROOT / "notebooks" / "synthesis.md").read_text()
    headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                for h in re.findall(r"^#{1,3} (.+)$", text, re.MULTILINE)}
    assert {label[1:] for label in board["label"]} <= headings


def test_has_budget_is_whether_a_private_mechanism_ran_at_that_epsilon():
    import pandas as pd

    from ldpfair.papers.synthesis import report

    rows = pd.DataFrame({"mechanism": ["NonDP", "GRR", "GRR"], "epsilon": [float("inf"), 1.0, 4.0]})
    assert report.has_budget(rows, 1.0) and report.has_budget(rows, 4.000000001)
    assert not report.has_budget(rows, 2.0) and not report.has_budget(rows.iloc[:1], 1.0)
    assert not report.has_budget(rows.iloc[:0], 1.0)
