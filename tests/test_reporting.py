import numpy as np
import pandas as pd
import pytest
from scipy import stats

from ldpfair.reporting import Claim, claims_table, side_by_side, summarise, verdict


def _runs(seed, mean, n=20, sd=0.1):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"cell": np.repeat(["a", "b"], n), "acc": rng.normal(mean, sd, 2 * n)})


def test_summarise_matches_scipy_t_interval():
    df = _runs(0, 0.8)
    s = summarise(df, "cell", "acc").set_index("cell")
    x = df.loc[df.cell == "a", "acc"].to_numpy()
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    assert s.loc["a", "acc_mean"] == pytest.approx(x.mean())
    assert s.loc["a", "acc_ci"] == pytest.approx((hi - lo) / 2)
    assert s.loc["a", "acc_n"] == 20


def test_summarise_ignores_nan_and_single_value_has_no_ci():
    df = pd.DataFrame({"c": ["x", "x", "y"], "m": [1.0, np.nan, 2.0]})
    s = summarise(df, "c", "m").set_index("c")
    assert s.loc["x", "m_n"] == 1 and np.isnan(s.loc["x", "m_ci"])
    with pytest.raises(ValueError, match="not in results"):
        summarise(df, "c", "zzz")


def test_interval_coverage_is_about_nominal():
    # 400 experiments of 10 draws each: the 95% interval covers the true mean ~95% of the time
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"e": np.repeat(np.arange(400), 10), "m": rng.normal(0.0, 1.0, 4000)})
    s = summarise(df, "e", "m")
    covered = (s.m_mean.abs() <= s.m_ci).mean()
    assert 0.92 <= covered <= 0.98


def test_side_by_side_flags_agreement_with_tolerance():
    ours = summarise(_runs(2, 0.8), "cell", "acc")
    paper = pd.DataFrame({"cell": ["a", "b"], "acc": [0.80, 0.95]})
    t = side_by_side(ours, paper, "cell", "acc", tolerance=0.005).set_index("cell")
    assert bool(t.loc["a", "acc agrees"]) and not bool(t.loc["b", "acc agrees"])
    assert t.loc["b", "acc diff"] == pytest.approx(t.loc["b", "acc (ours)"] - 0.95)


def test_verdicts_are_computed():
    assert verdict([True, True]) == "reproduced"
    assert verdict([True, False]) == "partly"
    assert verdict([False, np.nan]) == "not reproduced"
    assert verdict(np.bool_(True)) == "reproduced"
    with pytest.raises(ValueError):
        verdict([])


def test_claims_table_requires_checks():
    ok = Claim("C1", "x improves", "x: 0.5 -> 0.6", {"improves": 0.6 > 0.5})
    t = claims_table([ok])
    assert t.loc[0, "verdict"] == "reproduced" and t.loc[0, "checks passed"] == "1/1"
    with pytest.raises(ValueError, match="no checks"):
        claims_table([Claim("C2", "typed", "trust me")])
    c = Claim.from_check("C3", "s", lambda: ("e", {"a": True, "b": False}))
    assert c.verdict == "partly"
