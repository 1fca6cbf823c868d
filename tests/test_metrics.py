"""Metrics: agreement with fairlearn and scikit-learn, conventions, undefined rates."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from fairlearn.metrics import (
    MetricFrame,
    demographic_parity_difference,
    equal_opportunity_difference,
    equalized_odds_difference,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score, roc_auc_score

from ldpfair import metrics as M
from ldpfair.metrics import UndefinedRateWarning


def _random(rng, n, k):
    y = rng.integers(0, 2, n)
    p = rng.integers(0, 2, n)
    a = rng.integers(0, k, n)
    return y, p, a


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("seed", range(5))
def test_max_gaps_agree_with_fairlearn(k, seed):
    rng = np.random.default_rng(seed)
    y, p, a = _random(rng, 400, k)
    assert M.max_gap_statistical_parity(p, sensitive_features=a) == pytest.approx(
        demographic_parity_difference(y, p, sensitive_features=a), abs=1e-12)
    assert M.max_gap_equalized_odds(y, p, sensitive_features=a) == pytest.approx(
        equalized_odds_difference(y, p, sensitive_features=a, agg="worst_case"), abs=1e-12)
    assert M.max_gap_equal_opportunity(y, p, sensitive_features=a) == pytest.approx(
        equal_opportunity_difference(y, p, sensitive_features=a), abs=1e-12)
    g = M.max_gap_metrics(y, p, sensitive_features=a)
    assert g["Delta_SP"] == pytest.approx(demographic_parity_difference(y, p, sensitive_features=a))
    assert g["Delta_EOd"] == pytest.approx(
        equalized_odds_difference(y, p, sensitive_features=a, agg="worst_case"))


@pytest.mark.parametrize("seed", range(3))
def test_group_rates_agree_with_metricframe(seed):
    rng = np.random.default_rng(seed)
    y, p, a = _random(rng, 300, 4)
    mf = MetricFrame(
        metrics={"selection_rate": selection_rate, "tpr": true_positive_rate,
                 "fpr": false_positive_rate, "accuracy": accuracy_score,
                 "ppv": precision_score, "n": lambda yt, yp: len(yt)},
        y_true=y, y_pred=p, sensitive_features=a,
    )
    ours = M.group_rates(y, p, sensitive_features=a)
    for col in ("selection_rate", "tpr", "fpr", "accuracy", "ppv", "n"):
        np.testing.assert_allclose(ours[col].to_numpy(dtype=float),
                                   mf.by_group[col].to_numpy(dtype=float), rtol=0, atol=1e-12)


def test_utility_agrees_with_sklearn():
    rng = np.random.default_rng(1)
    y, p, _ = _random(rng, 500, 2)
    s = rng.random(500)
    u = M.utility_metrics(y, p, s)
    assert u["acc"] == pytest.approx(accuracy_score(y, p))
    assert u["f1"] == pytest.approx(f1_score(y, p))
    assert u["recall"] == pytest.approx(recall_score(y, p))
    assert u["precision"] == pytest.approx(precision_score(y, p))
    assert u["auc_scores"] == pytest.approx(roc_auc_score(y, s))
    # arcolezi2023's AUC on hard labels is the balanced accuracy (TPR + TNR) / 2
    tpr = np.mean(p[y == 1]); tnr = np.mean(1 - p[y == 0])  # noqa: E702
    assert u["auc_labels"] == pytest.approx((tpr + tnr) / 2)
    assert u["auc_labels"] == pytest.approx(roc_auc_score(y, p))


def test_privileged_vs_rest_conventions():
    y = np.array([1, 1, 0, 0, 1, 0, 1, 0, 1])
    p = np.array([1, 1, 1, 0, 0, 0, 1, 0, 0])
    a = np.array([1, 1, 1, 0, 0, 0, 2, 2, 2])  # rest = groups 0 and 2 together
    m = M.privileged_vs_rest_metrics(y, p, sensitive_features=a)
    assert m["SP_a_1"] == pytest.approx(1.0)
    assert m["SP_a_0"] == pytest.approx(1 / 6)
    assert m["SPD"] == pytest.approx(1 - 1 / 6)
    assert m["DI"] == pytest.approx(1 / 6)
    assert m["EO_a_1"] == 1.0 and m["EO_a_0"] == pytest.approx(1 / 3)
    assert m["OAD"] == pytest.approx(2 / 3 - 4 / 6)
    assert M.statistical_parity_difference(p, sensitive_features=a) == m["SPD"]
    assert M.disparate_impact(p, sensitive_features=a) == m["DI"]
    assert M.equal_opportunity_difference(y, p, sensitive_features=a) == m["EOD"]
    assert M.overall_accuracy_difference(y, p, sensitive_features=a) == m["OAD"]


def test_disparate_impact_zero_division():
    p = np.array([0, 0, 1, 1]); a = np.array([1, 1, 0, 0])  # noqa: E702
    with pytest.warns(UndefinedRateWarning, match="DI"):
        assert np.isnan(M.disparate_impact(p, sensitive_features=a))
    with pytest.raises(ZeroDivisionError):  # the authors' plain division
        M.disparate_impact(p, sensitive_features=a, zero_division="raise")


def test_group_difference_ppv_convention_zero_as_the_authors():
    y = np.array([1, 0, 1, 0]); p = np.array([1, 0, 0, 0]); a = np.array([1, 1, 0, 0])  # noqa: E702
    with pytest.warns(UndefinedRateWarning, match="ppv of group 0"):
        m = M.group_difference_metrics(y, p, sensitive_features=a)
    assert np.isnan(m["PRP_min"]) and np.isnan(m["PRD"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedRateWarning)
        m0 = M.group_difference_metrics(y, p, sensitive_features=a, ppv_zero_division=0.0)
    assert m0["PRP_min"] == 0.0 and m0["PRD"] == 1.0  # precision_score's 0, as the authors
    assert m0["SD"] == 0.5 and m0["EOD"] == 1.0 and m0["PED"] == 0.0 and m0["OAD"] == 0.5


def test_data_unfairness_by_hand():
    # P(Y=1|a): a=0 -> 1/4, a=1 -> 3/4, a=2 -> 1/2 ; P(Y=1) = 6/12
    y = np.array([1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0])
    a = np.array([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    assert M.data_unfairness(y, sensitive_features=a) == pytest.approx(0.5)
    assert M.data_unfairness_pairwise(y, sensitive_features=a) == pytest.approx(0.5)


def test_mean_equalized_odds_is_max_over_pairs():
    # TPR = (1, 0, 0.5), FPR = (0, 0, 1): pairwise max of (|dTPR|+|dFPR|)/2 is 0.75 (pair 0-2)
    # whereas the mean of the two separate max-min gaps would be 1.0
    y = np.array([1, 0, 1, 0, 1, 1, 0])
    p = np.array([1, 0, 0, 0, 1, 0, 1])
    a = np.array([0, 0, 1, 1, 2, 2, 2])
    assert M.max_gap_mean_equalized_odds(y, p, sensitive_features=a) == pytest.approx(0.75)
    assert M.max_gap_equalized_odds(y, p, sensitive_features=a) == pytest.approx(1.0)


def test_soft_metrics_and_risk_difference():
    y = np.array([1, 1, 0, 1, 0, 0])
    s = np.array([0.9, 0.6, 0.3, 0.2, 0.4, 0.1])
    a = np.array([1, 1, 1, 0, 0, 0])
    assert M.soft_statistical_parity(s, sensitive_features=a) == pytest.approx(0.6 - 0.7 / 3)
    assert M.soft_equal_opportunity(y, s, sensitive_features=a) == pytest.approx(0.75 - 0.2)
    h = M.soft_gap_metrics(y, 1 - s, sensitive_features=a)
    assert h["abs_soft_SP"] == pytest.approx(abs(h["soft_SP"]))
    # on hard labels the soft SP is the hard SP; RD is its absolute value
    p = (s > 0.5).astype(int)
    assert M.soft_statistical_parity(p, sensitive_features=a) == pytest.approx(
        M.statistical_parity_difference(p, sensitive_features=a))
    assert M.risk_difference(p, sensitive_features=1 - a) == pytest.approx(
        abs(M.statistical_parity_difference(p, sensitive_features=a)))


def test_empty_group_is_nan_with_named_warning():
    y = np.array([1, 0, 1, 0]); p = np.array([1, 0, 0, 1]); a = np.array([0, 0, 2, 2])  # noqa: E702
    with pytest.warns(UndefinedRateWarning, match="group 1 is empty"):
        r = M.group_rates(y, p, sensitive_features=a, labels=[0, 1, 2])
    assert r.loc[1, "n"] == 0 and r.loc[1, ["selection_rate", "tpr", "fpr", "accuracy"]].isna().all()
    with pytest.warns(UndefinedRateWarning):
        assert np.isnan(M.max_gap_statistical_parity(p, sensitive_features=a, labels=[0, 1, 2]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedRateWarning)
        assert M.max_gap_statistical_parity(p, sensitive_features=a, labels=[0, 1, 2],
                                            nan_policy="omit") == 0.0
    with pytest.warns(UndefinedRateWarning, match="single class"):
        assert np.isnan(M.auc_from_labels([1, 1], [1, 0]))


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="y_pred"):
        M.group_rates([0, 1], [0, 2], sensitive_features=[0, 1])
    with pytest.raises(ValueError, match="entries"):
        M.group_rates([0, 1], [0, 1, 1], sensitive_features=[0, 1])
    with pytest.raises(ValueError, match="not listed"):
        M.group_rates([0, 1], [0, 1], sensitive_features=[0, 5], labels=[0, 1])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        M.soft_statistical_parity([0.2, 1.5], sensitive_features=[0, 1])
    with pytest.raises(ValueError, match="nan_policy"):
        M.max_gap([0.1], nan_policy="zero")


def test_evaluate_columns_consistent():
    rng = np.random.default_rng(3)
    y, p, a = _random(rng, 300, 2)
    s = rng.random(300)
    row = M.evaluate(y, p, sensitive_features=a, scores=s)
    assert row["SD"] == row["SPD"] and row["RD"] == abs(row["SPD"])
    assert row["SR_1"] - row["SR_0"] == pytest.approx(row["SPD"])
    assert row["Delta_SP"] == pytest.approx(abs(row["SPD"]))
    assert row["auc_scores"] == pytest.approx(roc_auc_score(y, s))
    row3 = M.evaluate(y, p, sensitive_features=rng.integers(0, 3, 300))
    assert np.isnan(row3["SD"]) and np.isnan(row3["soft_SP"]) and not np.isnan(row3["Delta_SP"])


# ----------------------------------------------------------------------------- rate_gap: conventions
def _soft_rate(rate):
    def fn(y_true, s):
        y_true, s = np.asarray(y_true), np.asarray(s)
        return float(np.mean(s if rate == "selection_rate" else s[y_true == 1]))
    return fn


FAIRLEARN_RATES = {"selection_rate": selection_rate, "tpr": true_positive_rate,
                   "fpr": false_positive_rate, "accuracy": accuracy_score, "ppv": precision_score,
                   "base_rate": lambda y_true, y_pred: float(np.mean(y_true))}


@pytest.mark.parametrize("seed", range(4))
def test_rate_gap_agrees_with_metricframe_under_each_convention(seed):
    rng = np.random.default_rng([seed, 27])
    for k in (2, 3, 4):
        y, p, a = _random(rng, 400, k)
        priv = int(rng.integers(0, k))
        for rate, fn in FAIRLEARN_RATES.items():
            mf = MetricFrame(metrics=fn, y_true=y, y_pred=p, sensitive_features=a)
            pr = MetricFrame(metrics=fn, y_true=y, y_pred=p, sensitive_features=a == priv).by_group
            gap = M.rate_gap(rate, y, p, sensitive_features=a, compare="max_gap")
            assert gap == pytest.approx(mf.difference(), abs=1e-12) and gap > 0
            signed = M.rate_gap(rate, y, p, sensitive_features=a, compare="privileged_vs_rest",
                                privileged=priv)
            assert signed == pytest.approx(pr[True] - pr[False], abs=1e-12)
            assert M.rate_gap(rate, y, p, sensitive_features=a, compare="privileged_vs_rest",
                              privileged=priv, absolute=True) == abs(signed)
            if k == 2:
                g10 = M.rate_gap(rate, y, p, sensitive_features=a, compare="group1_minus_group0")
                assert g10 == pytest.approx(mf.by_group[1] - mf.by_group[0], abs=1e-12)
                assert abs(g10) == pytest.approx(gap, abs=1e-12)
            else:
                with pytest.raises(ValueError, match="binary labels"):
                    M.rate_gap(rate, y, p, sensitive_features=a, compare="group1_minus_group0")
        s = rng.random(400)
        for rate in ("selection_rate", "tpr"):
            mf = MetricFrame(metrics=_soft_rate(rate), y_true=y, y_pred=s, sensitive_features=a)
            assert M.rate_gap(rate, y, s, sensitive_features=a, soft=True) == pytest.approx(
                mf.difference(), abs=1e-12)
            if k == 2:
                assert M.rate_gap(rate, y, s, sensitive_features=a, soft=True,
                                  compare="group1_minus_group0") == pytest.approx(
                    mf.by_group[1] - mf.by_group[0], abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_named_metrics_are_rate_gap_specialisations_bit_for_bit(seed):
    rng = np.random.default_rng([seed, 28])
    y, p, a = _random(rng, int(rng.integers(5, 300)), 3)
    b, s = (a == 1).astype(int), rng.random(y.size)
    gap, pvr, g10 = M.rate_gap, "privileged_vs_rest", "group1_minus_group0"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedRateWarning)
        pairs = [
            (M.statistical_parity_difference(p, sensitive_features=a, privileged=2),
             gap("selection_rate", None, p, sensitive_features=a, compare=pvr, privileged=2)),
            (M.equal_opportunity_difference(y, p, sensitive_features=a),
             gap("tpr", y, p, sensitive_features=a, compare="privileged_vs_rest")),
            (M.overall_accuracy_difference(y, p, sensitive_features=a, privileged=0),
             gap("accuracy", y, p, sensitive_features=a, compare="privileged_vs_rest", privileged=0)),
            (M.max_gap_statistical_parity(p, sensitive_features=a, labels=[0, 1, 2, 3], nan_policy="omit"),
             gap("selection_rate", y, p, sensitive_features=a, labels=[0, 1, 2, 3], nan_policy="omit")),
            (M.max_gap_equal_opportunity(y, p, sensitive_features=a),
             gap("tpr", y, p, sensitive_features=a)),
            (M.data_unfairness_pairwise(y, sensitive_features=a),
             gap("base_rate", y, None, sensitive_features=a)),
            (M.risk_difference(p, sensitive_features=b),
             gap("selection_rate", None, p, sensitive_features=b, compare=g10, absolute=True)),
            (M.soft_statistical_parity(s, sensitive_features=b),
             gap("selection_rate", None, s, sensitive_features=b, compare="group1_minus_group0", soft=True)),
            (M.soft_equal_opportunity(y, s, sensitive_features=b, absolute=True),
             gap("tpr", y, s, sensitive_features=b, compare="group1_minus_group0", soft=True, absolute=True)),
        ]
    for named, general in pairs:
        assert np.array_equal(named, general, equal_nan=True), (named, general)


def test_rate_gap_refuses_what_it_cannot_compute():
    y, p, a = [1, 0, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1]
    with pytest.raises(ValueError, match="unknown rate .recall.; valid: .selection_rate."):
        M.rate_gap("recall", y, p, sensitive_features=a)
    with pytest.raises(ValueError, match="unknown compare .ratio."):
        M.rate_gap("tpr", y, p, sensitive_features=a, compare="ratio")
    with pytest.raises(ValueError, match="rate='tpr' needs y_true"):
        M.rate_gap("tpr", None, p, sensitive_features=a)
    with pytest.raises(ValueError, match="rate='selection_rate' needs y_pred"):
        M.rate_gap("selection_rate", y, None, sensitive_features=a)
    with pytest.raises(ValueError, match=r"scores must lie in \[0, 1\]"):
        M.rate_gap("selection_rate", None, [0.5, 2.0, 0.1, 0.2], sensitive_features=a, soft=True)
    with pytest.raises(ValueError, match=r"labels must be None or \[0, 1\], got \[0, 1, 2\]"):
        M.rate_gap("tpr", y, p, sensitive_features=a, compare="group1_minus_group0", labels=[0, 1, 2])
    with pytest.warns(UndefinedRateWarning, match="tpr of group 1 is undefined"):
        assert np.isnan(M.rate_gap("tpr", [1, 0, 0, 0], p, sensitive_features=a,
                                   compare="group1_minus_group0"))
    with pytest.warns(UndefinedRateWarning, match="privileged=5 matches no row"):
        assert np.isnan(M.rate_gap("fpr", y, p, sensitive_features=a, compare="privileged_vs_rest",
                                   privileged=5))
