"""arcolezi2023 chapter: appendix subsets and grids, Fig. 1, authors' results, agreement, claims, tuning."""

from __future__ import annotations

import collections
import math
import sys
import types

import numpy as np
import pandas as pd
import pytest

from ldpfair.experiments.union import GridUnion
from ldpfair.ldp import PROTOCOLS
from ldpfair.papers.arcolezi2023 import SPEC, authors, checks, example, figures, tuning
from ldpfair.papers.arcolezi2023 import experiments as exp


def _data_available() -> bool:
    try:
        from ldpfair.datasets import data_available
    except ImportError:  # pragma: no cover
        import os

        return bool(os.environ.get("LDPFAIR_DATA_DIR"))
    return bool(data_available())


needs_data = pytest.mark.skipif(not _data_available(), reason="dataset / reference files not reachable "
                                "(set LDPFAIR_DATA_DIR)")


# --------------------------------------------------------------------------- appendix subsets
def test_appendix_subsets_are_the_authors_draws():
    sizes = collections.Counter(len(exp.appendix_sensitive("adult26k", s)) for s in range(20))
    assert dict(sizes) == {2: 2, 3: 4, 4: 6, 5: 5, 6: 3}
    # the same draws for every dataset (only the candidate names differ)
    for ds, cands in exp.APPENDIX_CANDIDATES.items():
        for s in range(20):
            sub = exp.appendix_sensitive(ds, s)
            assert sub[0] == exp.SENSITIVE[ds][0]
            assert len(set(sub)) == len(sub) and set(sub[1:]) <= set(cands)
            idx = [exp.APPENDIX_CANDIDATES["adult26k"].index(a) for a in exp.appendix_sensitive(
                "adult26k", s)[1:]]
            assert [cands[i] for i in idx] == list(sub[1:])
    # seed 0: d = 5, the permutation of legacy RandomState(0)
    assert exp.appendix_sensitive("adult26k", 0) == (
        "gender", "education", "age", "native-country", "hours-per-week", "race")
    assert exp.appendix_sensitive("lsac", 2) == ("race1", "ugpa")
    with pytest.raises(ValueError, match="dataset"):
        exp.appendix_sensitive("adult", 0)
    with pytest.raises(ValueError, match="seed"):
        exp.appendix_sensitive("lsac", -1)


def test_appendix_grids_use_each_seeds_subset():
    quick = exp.build_appendix("quick")
    assert list(quick) == ["appendix-lsac"]
    assert isinstance(quick["appendix-lsac"], GridUnion) and len(quick["appendix-lsac"]) == 5
    full = exp.build_appendix("paper")
    assert list(full) == [f"appendix-{d}" for d in exp.DATASETS]
    u = full["appendix-lsac"]
    tasks = u.tasks()
    assert len(tasks) == 20 * (1 + 7 * 2 * 9) == len({t.key for t in tasks})
    for t in tasks:
        if t.privatization.private:
            assert t.privatization.sensitive == exp.appendix_sensitive("lsac", t.seed)
    # the NonDP baseline is the same cell as in the main grid (same key, computed once)
    main_nondp = {t.key for t in exp.build("paper")["lsac"].tasks() if not t.privatization.private}
    app_nondp = {t.key for t in tasks if not t.privatization.private}
    assert main_nondp == app_nondp and len(app_nondp) == 20
    # the declared experiments: main names unchanged plus the appendix unions
    assert list(SPEC.experiments("paper")) == [*exp.DATASETS, *(f"appendix-{d}" for d in exp.DATASETS)]
    assert list(SPEC.experiments("quick")) == ["lsac", "appendix-lsac"]
    assert list(SPEC.experiments("quick", appendix=False)) == ["lsac"]
    with pytest.raises(ValueError, match="profile"):
        exp.build_appendix("full")


def test_quick_profile_defaults_per_experiment_and_overrides_for_both():
    def cells(grid):
        return {(t.privatization.name, t.epsilon, t.seed) for t in grid.tasks() if t.privatization.private}

    quick = SPEC.experiments("quick")
    assert {p for p, _, _ in cells(quick["lsac"])} == set(PROTOCOLS)
    assert {(e, s) for _, e, s in cells(quick["lsac"])} == {(1, 0), (8, 0)}
    assert cells(quick["appendix-lsac"]) == {("GRR", 2, 0), ("SS", 2, 0)}
    # an override (a plain value) replaces both experiments' defaults
    over = SPEC.experiments("quick", protocols=["OUE"], epsilons=[4], seeds=[3])
    assert cells(over["lsac"]) == cells(over["appendix-lsac"]) == {("OUE", 4, 3)}
    with pytest.raises(ValueError, match="unknown dataset"):
        SPEC.experiments("quick", datasets=["adult"])


@needs_data
@pytest.mark.data
def test_appendix_candidates_are_categorical_columns():
    from ldpfair.datasets import load

    for ds, cands in exp.APPENDIX_CANDIDATES.items():
        d = load(ds)
        assert all(c in d.domains and c in d.features for c in cands), ds


# --------------------------------------------------------------------------- Fig. 1
def _parse(vec: str) -> np.ndarray:
    return np.array(vec.split("[", 1)[1].rstrip("]").split(), dtype=float)


def test_worked_example_is_the_implementation():
    from ldpfair.ldp import make_protocol

    t = example.worked_example(2, 5, 1.0, rng=7)
    assert t["protocol"].tolist() == list(PROTOCOLS)
    assert t.equals(example.worked_example(2, 5, 1.0, rng=7))
    vec = {r.protocol: _parse(r._5) for r in t.itertuples()}
    # GRR: one-hot of the reported value
    z = int(t.loc[t.protocol == "GRR", "report"].iloc[0].split("=")[1])
    assert vec["GRR"].tolist() == np.eye(5)[z].tolist()
    # unary encodings: the server vector is the report
    for p in ("RAPPOR", "OUE"):
        assert vec[p].tolist() == _parse("x " + t.loc[t.protocol == p, "report"].iloc[0]).tolist()
    # SS: the subset's indicator, omega members
    members = t.loc[t.protocol == "SS", "report"].iloc[0].strip("{}").split(", ")
    assert sorted(np.flatnonzero(vec["SS"]).tolist()) == sorted(int(m) for m in members)
    assert len(members) == make_protocol("SS", 5, 1.0).omega
    # THE: noisy histogram thresholded at theta
    theta = make_protocol("THE", 5, 1.0).theta
    noisy = _parse("x " + t.loc[t.protocol == "THE", "report"].iloc[0])
    assert vec["THE"].tolist() == (noisy > theta).astype(float).tolist()
    # LH: the indicator of {x : H(x) = z}
    for p in ("BLH", "OLH"):
        rep = t.loc[t.protocol == p, "report"].iloc[0].strip("()").split(", ")
        a, b, z = (int(x.split("=")[1]) for x in rep)
        proto = make_protocol(p, 5, 1.0)
        assert vec[p].tolist() == (proto.hash(a, b, np.arange(5)) == z).astype(float).tolist()
    with pytest.raises(ValueError, match="value"):
        example.worked_example(5, 5, 1.0, rng=0)
    with pytest.raises(ValueError):
        example.worked_example(0, 5, -1.0, rng=0)


def test_worked_example_keeps_the_value_more_often_than_not_at_large_epsilon():
    # at eps = 12 GRR keeps the true value with probability e^12 / (e^12 + 4) > 0.9999
    kept = [example.worked_example(3, 5, 12.0, rng=s, protocols=["GRR"])["report"].iloc[0] == "z = 3"
            for s in range(20)]
    assert all(kept)


# --------------------------------------------------------------------------- authors, agreement, claims
@needs_data
@pytest.mark.data
def test_authors_results_and_self_agreement():
    au = authors.authors_results(["lsac"])
    assert set(au["mechanism"]) == {"NonDP", *PROTOCOLS}
    assert au.groupby(["mechanism", "split", "epsilon"], dropna=False).size().eq(20).all()
    base = au[au["mechanism"] == "NonDP"]
    assert base["split"].isna().all() and base["epsilon"].isna().all()
    # facts file: LSAC NonDP means
    assert base["acc"].mean() == pytest.approx(0.9438, abs=5e-5)
    assert base["auc_labels"].mean() == pytest.approx(0.5411, abs=5e-5)
    assert base["DI"].mean() == pytest.approx(0.8500, abs=5e-5)
    ag = authors.agreement_with_authors(au, au)
    assert len(ag) == (1 + 7 * 2 * 9) * 8 and ag["agrees"].all() and (ag["diff"] == 0).all()
    shifted = au.copy()
    shifted["acc"] += 0.05  # far outside the seed-to-seed interval
    ag2 = authors.agreement_with_authors(shifted, au)
    summ = authors.agreement_summary(ag2)
    share = summ.set_index("metric")["share agreeing"]
    assert share["acc"] == 0.0 and share["DI"] == 1.0
    assert authors.agreement_with_authors(au.iloc[:0], au).empty


@needs_data
@pytest.mark.data
def test_plot_dataset_titles_say_whose_runs_and_how_many_seeds():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    au = authors.authors_results(["lsac"], protocols=("GRR",), epsilons=(1.0, 8.0))
    ours = au[au["seed"] < 3]
    titles = lambda fig: [ax.get_title() for ax in fig.axes if ax.get_title()]  # noqa: E731
    fig = figures.plot_dataset(ours, au, ["DI"], "LSAC")
    assert titles(fig) == ["LSAC (3 of 20 seeds): uniform split", "LSAC (3 of 20 seeds): k-based split"]
    fig2 = figures.plot_dataset(au, au, ["DI"], "LSAC")
    assert titles(fig2)[0] == "LSAC: uniform split"
    fig3 = figures.plot_dataset(au.iloc[:0], au, ["DI"], "LSAC")
    assert titles(fig3)[0] == "LSAC, authors' runs: uniform split"
    with pytest.raises(ValueError, match="no results"):
        figures.plot_dataset(au.iloc[:0], None, ["DI"], "LSAC")
    # figure(n) picks the paper figure's dataset and metrics from frames of every dataset
    fig4 = figures.figure(4, ours, au)
    assert titles(fig4)[0] == "LSAC (3 of 20 seeds): uniform split" and len(fig4.axes) == 8
    assert [ax.get_ylabel() for ax in figures.figure(7, ours, au).axes[::2]] == [
        "accuracy", "F1", "AUC (hard labels)", "recall"]
    with pytest.raises(ValueError, match="no Figure 1"):
        figures.figure(1, ours, au)
    plt.close("all")


@needs_data
@pytest.mark.data
def test_claims_on_the_authors_results_and_without_results():
    au = authors.authors_results()
    verdicts = dict(zip(*checks.claims_frame(checks.claims(au)).pipe(lambda f: (f["claim"], f["verdict"])),
                        strict=True))
    # the paper's claims hold on its own per-seed results, except RQ3's GRR on ACSCoverage
    assert verdicts["RQ1"] == verdicts["RQ2"] == "reproduced"
    assert verdicts["RQ3"] == "partly"
    assert verdicts["Adult DI"] == verdicts["Adult SPD"] == verdicts["ACSCoverage OAD"] == "reproduced"
    assert verdicts["Appendix"] == "no results"
    q = checks.quoted_numbers(au)
    assert q["agrees"].all()
    assert q.loc[0, "ours"] == pytest.approx(0.4456, abs=5e-5)
    # no results: every claim says so; a partial set gives only the checks it can support
    none = checks.claims_frame(checks.claims(None))
    assert (none["verdict"] == "no results").all()
    part = checks.claims(au[au["dataset"] == "lsac"])
    rq1 = next(c for c in part if c.id == "RQ1")
    assert list(rq1.checks) == ["LSAC: > 50% of cells fairer than NonDP"]
    assert not next(c for c in part if c.id == "Adult DI").checks
    # a fairness shift that makes LDP unfair flips RQ1's check
    worse = au[au["dataset"] == "lsac"].copy()
    priv = worse["mechanism"] != "NonDP"
    worse.loc[priv, "SPD"] += 0.5
    worse.loc[priv, "EOD"] += 0.5
    worse.loc[priv, "DI"] -= 0.5
    assert not next(c for c in checks.claims(worse) if c.id == "RQ1").checks[
        "LSAC: > 50% of cells fairer than NonDP"]


@needs_data
@pytest.mark.data
def test_scoreboard_and_committed_claims(tmp_path, monkeypatch):
    from ldpfair import experiments as ex
    from ldpfair.scoreboard import paper_scoreboard

    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path))
    board = paper_scoreboard("arcolezi2023")
    assert board["item"].tolist() == ["Table 1", "Table 2", *(f"Figure {i}" for i in range(1, 14))]
    status = dict(zip(board["item"], board["status"], strict=True))
    # the notation and the worked example are checked against our code only: verified
    assert status["Table 1"] == status["Figure 1"] == "verified" and status["Table 2"] == "reproduced"
    assert all(status[f"Figure {i}"] == "not yet" for i in range(2, 14))
    assert checks.committed_claims() == []
    # a partial committed file (2 LSAC cells): Fig. 4 and 7 get a computed status
    grid = SPEC.experiments("paper")["lsac"]
    tasks = [t for t in grid.tasks() if t.seed == 0 and (not t.privatization.private or (
        t.privatization.name == "GRR" and t.epsilon == 50 and t.privatization.split == "uniform"))]
    assert len(tasks) == 2
    df = ex.run(grid, tasks=tasks, n_jobs=1, progress=False)
    ex.save_results(df, tmp_path / "arcolezi2023" / "lsac", grid=grid)
    board = paper_scoreboard("arcolezi2023")
    status = dict(zip(board["item"], board["status"], strict=True))
    assert status["Figure 4"] != "not yet" and status["Figure 7"] != "not yet"
    assert status["Figure 2"] == "not yet"
    claims = checks.committed_claims()
    assert [c.id for c in claims] == ["RQ1"]  # the only claim 2 LSAC cells can support
    assert all(c.checks for c in claims)


# --------------------------------------------------------------------------- tuning
def test_tuning_split_keeps_test_rows_out_of_validation():
    y = np.r_[np.zeros(700, int), np.ones(300, int)]
    fit, val, test = tuning.tuning_split(y, "validation", seed=42)
    assert len(set(fit) | set(val) | set(test)) == 1000 and not set(val) & set(test)
    assert not set(fit) & set(val) and len(test) == 200 and len(val) == 200
    assert y[val].mean() == pytest.approx(0.3) and y[test].mean() == pytest.approx(0.3)
    fit2, score, test2 = tuning.tuning_split(y, "test", seed=42)
    assert np.array_equal(score, test2) and np.array_equal(test, test2)
    assert np.array_equal(np.sort(fit2), np.sort(np.r_[fit, val]))
    with pytest.raises(ValueError, match="selection"):
        tuning.tuning_split(y, "train")


def test_score_params_hard_label_auc_is_balanced_accuracy():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 3)).astype(np.float32)
    y = (x[:, 0] + 0.5 * rng.normal(size=400) > 0).astype(int)
    params = {"max_depth": 3, "n_estimators": 20, "learning_rate": 0.1}
    auc = tuning.score_params(params, x[:300], y[:300], x[300:], y[300:], seed=1)
    from ldpfair.models import make_model

    pred = make_model("lightgbm", 1, **params).fit(x[:300], y[:300]).predict(x[300:])
    yt = y[300:]
    tpr, tnr = (pred[yt == 1] == 1).mean(), (pred[yt == 0] == 0).mean()
    assert auc == pytest.approx((tpr + tnr) / 2)
    assert tuning.score_params(params, x[:300], y[:300], x[300:], y[300:], seed=1, metric="auc_scores") > auc
    with pytest.raises(ValueError, match="metric"):
        tuning.score_params(params, x, y, x, y, metric="f1")


class _Trial:
    def __init__(self, number: int, rng: np.random.Generator):
        self.number, self.rng, self.params, self.value = number, rng, {}, None

    def suggest_int(self, name, lo, hi, step=1):
        self.params[name] = int(lo + step * self.rng.integers(0, (hi - lo) // step + 1))
        return self.params[name]

    def suggest_float(self, name, lo, hi):
        self.params[name] = float(self.rng.uniform(lo, hi))
        return self.params[name]


class _Study:
    def __init__(self, sampler):
        self.rng = np.random.default_rng(sampler.seed)
        self.trials: list[_Trial] = []

    def optimize(self, objective, n_trials):
        for i in range(n_trials):
            t = _Trial(i, self.rng)
            t.value = objective(t)
            self.trials.append(t)

    @property
    def best_trial(self):
        return max(self.trials, key=lambda t: t.value)

    @property
    def best_params(self):
        return self.best_trial.params

    @property
    def best_value(self):
        return self.best_trial.value


def _fake_optuna() -> types.ModuleType:
    mod = types.ModuleType("optuna")
    mod.samplers = types.SimpleNamespace(TPESampler=lambda seed: types.SimpleNamespace(seed=seed))
    mod.logging = types.SimpleNamespace(WARNING=30, set_verbosity=lambda level: None)
    mod.create_study = lambda direction, sampler: _Study(sampler)
    return mod


@needs_data
@pytest.mark.data
def test_tune_drives_the_sampler_and_refits_on_validation(monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", _fake_optuna())
    space = {"max_depth": (2, 4), "n_estimators": (10, 30, 10), "learning_rate": (0.05, 0.2)}
    res = tuning.tune("lsac", n_evals=3, selection="validation", space=space)
    assert len(res.trials) == 3 and res.best_score == res.trials["score"].max()
    assert set(res.best_params) == {"max_depth", "learning_rate", "n_estimators"}
    assert 2 <= res.best_params["max_depth"] <= 4 and res.best_params["n_estimators"] in (10, 20, 30)
    assert 0.0 <= res.test_score <= 1.0
    same = tuning.tune("lsac", n_evals=3, selection="validation", space=space)
    pd.testing.assert_frame_equal(res.trials, same.trials)
    test_sel = tuning.tune("lsac", n_evals=2, selection="test", space=space)
    assert test_sel.test_score == test_sel.best_score


def test_tune_without_optuna_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)
    with pytest.raises(ImportError, match="pip install optuna"):
        tuning.tune("lsac", n_evals=1)
    with pytest.raises(ValueError, match="dataset"):
        tuning.tune("adult", n_evals=1)
    with pytest.raises(ValueError, match="space"):
        tuning._check_space("wide")
    assert math.isclose(tuning.SEARCH_SPACES["authors"]["learning_rate"][1], 0.25)


@needs_data
@pytest.mark.data
def test_tune_with_optuna_is_seeded_and_stays_in_the_space():
    pytest.importorskip("optuna")
    space = {"max_depth": (2, 4), "n_estimators": (10, 30, 10), "learning_rate": (0.05, 0.2)}
    res = tuning.tune("lsac", n_evals=4, selection="validation", space=space)
    again = tuning.tune("lsac", n_evals=4, selection="validation", space=space)
    pd.testing.assert_frame_equal(res.trials, again.trials)  # TPE seeded: same trials, same scores
    assert len(res.trials) == 4 and res.best_score == res.trials["score"].max()
    assert 2 <= res.best_params["max_depth"] <= 4 and res.best_params["n_estimators"] in (10, 20, 30)
    assert 0.05 <= res.best_params["learning_rate"] <= 0.2


def test_a_claim_is_a_paper_error_only_for_checks_failing_on_the_authors_runs_too():
    from ldpfair.reporting import Claim

    ours = Claim("RQ3", "s", "ours", {"ACSCoverage: GRR in the top 3 by accuracy": False,
                                      "LSAC: SS in the top 3 by accuracy": False, "Adult: BLH lowest": True})
    theirs = Claim("RQ3", "s", "theirs", {**ours.checks, "LSAC: SS in the top 3 by accuracy": True})
    (c,) = checks.claim_causes([ours], [theirs])
    assert c.cause.kind == "unexplained" and (c.cause.covered, c.cause.disagreeing) == (1, 2)
    assert c.cause.text.startswith("1 of 2 disagreements explained")
    both = Claim("RQ3", "s", "theirs", {k: False for k in ours.checks})
    (c,) = checks.claim_causes([ours], [both])
    assert c.cause.kind == "paper error" and c.cause.covered == c.cause.disagreeing == 2
    (c,) = checks.claim_causes([ours], [])  # nothing computed on the authors' runs: nothing covered
    assert c.cause.kind == "unexplained" and c.cause.covered == 0
