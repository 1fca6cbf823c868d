"""Tests of the hamman2023 paper declarations (profiles, trials, published tables)."""

import math

import numpy as np
import pytest

from ldpfair.experiments import Sweep
from ldpfair.papers.hamman2023 import SPEC
from ldpfair.papers.hamman2023 import checks as hc
from ldpfair.papers.hamman2023 import experiments as hm


def test_profiles_declare_every_figure_and_table():
    names = {"accuracy", "fig1", "table1", "fig2", "table2", "table3", "fig4", "table4", "table1_reading",
             "table1_clipped"}
    for profile in ("quick", "paper"):
        assert set(SPEC.experiments(profile)) == names
        assert all(isinstance(s, Sweep) for s in SPEC.experiments(profile).values())
    t1 = SPEC.experiments("paper")["table1"]
    keys = {(p["n"], p["m"], p["epsilon"], p["mechanism"]) for p in t1.param_sets}
    paper = {tuple(r) for r in hc.PAPER_TABLE1[["n", "m", "epsilon", "mechanism"]].itertuples(index=False)}
    assert paper <= keys
    assert len(hc.PAPER_TABLE2) == 18 and len(hc.PAPER_TABLE3) == 16 and len(hc.PAPER_TABLE4) == 6
    with pytest.raises(ValueError, match="profile"):
        hm.build("full")


def test_m_rule():
    assert hm.m_rule(1000, 10) == math.ceil(20 * math.log(100))
    assert hm.m_rule(100, 60) <= 100


def test_synthetic_trial_is_deterministic_and_noiseless_recovery_is_exact():
    r1 = hm.synthetic_trial(400, 8, 80, math.inf, "conceal", np.random.default_rng(3))
    r2 = hm.synthetic_trial(400, 8, 80, math.inf, "conceal", np.random.default_rng(3))
    assert r1 == r2
    assert r1["leakage"] == 100.0 and r1["recovered"] == 400 and r1["avg_sp_err"] == 0.0
    noisy = hm.synthetic_trial(400, 8, 80, 10.0, "laplace", np.random.default_rng(3))
    assert noisy["avg_sp_err"] > 0 and noisy["leakage"] < 100.0


def test_adult_reading_trial_changes_only_the_noise_scale():
    # the readings experiment keeps the clipped models it was committed with
    base = hm.adult_trial(100, 25, 10.0, "conceal", 0, np.random.default_rng(5), clip_models=True)
    same = hm.adult_reading_trial(100, 25, 10.0, "conceal", 0, "theorem5", np.random.default_rng(5))
    assert same["avg_sp_err"] == pytest.approx(base["avg_sp_err"]) and same["leakage"] == base["leakage"]
    small = hm.adult_reading_trial(100, 25, 10.0, "conceal", 0, "per_query_no_factor6",
                                   np.random.default_rng(5))
    assert small["N0"] == base["N0"]
    scale = hm.attacks.noise_scale(base["N1"], base["N0"], 25, 10.0, "conceal", "per_query_no_factor6")[0]
    ratio = scale / hm.attacks.noise_scale(base["N1"], base["N0"], 25, 10.0)[0]
    assert small["avg_sp_err"] == pytest.approx(ratio * base["avg_sp_err"])
    assert small["rms_sp_err"] >= small["avg_sp_err"]
