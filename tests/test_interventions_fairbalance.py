"""FairBalance weights (class balance within every group) and FairBalance's mAOD metric."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import MetricFrame, false_positive_rate, true_positive_rate
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpfair.interventions.fairbalance import fairbalance_weights
from ldpfair.metrics import max_gap_average_odds, max_gap_mean_equalized_odds


@st.composite
def grouped_labels(draw, max_cols: int = 3):
    """Random (groups (n, m), y) where every group has both classes."""
    seed = draw(st.integers(0, 2**32 - 1))
    m = draw(st.integers(1, max_cols))
    n = draw(st.integers(4, 300))
    rng = np.random.default_rng(seed)
    cards = rng.integers(2, 4, m)
    a = np.column_stack([rng.integers(0, c, n) for c in cards])
    y = (rng.random(n) < rng.uniform(0.1, 0.9)).astype(np.int64)
    # force both classes in every group present
    _, codes = np.unique(a, axis=0, return_inverse=True)
    codes = codes.reshape(-1)
    for g in np.unique(codes):
        rows = np.flatnonzero(codes == g)
        if len(rows) == 1:
            a = np.vstack([a, a[rows]])
            y = np.r_[y, 1 - y[rows]]
        elif y[rows].min() == y[rows].max():
            y[rows[0]] = 1 - y[rows[0]]
    return a, y


@settings(max_examples=60, deadline=None)
@given(grouped_labels())
def test_each_group_keeps_its_size_split_half_per_class(data):
    a, y = data
    w = fairbalance_weights(a, y)
    assert w.shape == y.shape and np.all(w > 0)
    df = pd.DataFrame(a, columns=[f"a{j}" for j in range(a.shape[1])]).assign(y=y, w=w)
    cols = list(df.columns[:-2])
    per_group = df.groupby(cols)
    np.testing.assert_allclose(per_group["w"].sum().to_numpy(), per_group.size().to_numpy(), rtol=1e-12)
    per_cell = df.groupby([*cols, "y"])["w"].sum()
    half = (per_group.size() / 2.0).reindex(per_cell.index.droplevel("y"))
    np.testing.assert_allclose(per_cell.to_numpy(), half.to_numpy(), rtol=1e-12)
    # weighted P(Y=1 | a) = 1/2 in every group, so the weighted data unfairness Delta' is 0
    weighted_rate = (df["w"] * df["y"]).groupby([df[c] for c in cols]).sum() / per_group["w"].sum()
    np.testing.assert_allclose(weighted_rate.to_numpy(), 0.5, rtol=0, atol=1e-12)
    assert weighted_rate.max() - weighted_rate.min() <= 1e-12


@settings(max_examples=60, deadline=None)
@given(grouped_labels())
def test_agrees_with_a_pandas_groupby(data):
    a, y = data
    cols = [f"a{j}" for j in range(a.shape[1])]
    df = pd.DataFrame(a, columns=cols).assign(y=y)
    n_a = df.groupby(cols)["y"].transform("size")
    n_ay = df.groupby([*cols, "y"])["y"].transform("size")
    expected = (n_a / (2 * n_ay)).to_numpy(dtype=float)
    np.testing.assert_allclose(fairbalance_weights(a, y), expected, rtol=1e-15)


@settings(max_examples=40, deadline=None)
@given(grouped_labels(max_cols=3))
def test_two_dimensional_groups_equal_the_tuple_encoding(data):
    a, y = data
    code = np.zeros(len(y), dtype=np.int64)
    for j in range(a.shape[1]):
        code = code * 10 + a[:, j]
    np.testing.assert_array_equal(fairbalance_weights(a, y), fairbalance_weights(code, y))
    if a.shape[1] == 1:
        np.testing.assert_array_equal(fairbalance_weights(a, y), fairbalance_weights(a[:, 0], y))


def test_worked_example_and_string_groups():
    # group 0: 3 rows (1 pos, 2 neg) -> 3/2 and 3/4; group 1: 2 rows (1 pos, 1 neg) -> 1 and 1
    expected = np.array([1.5, 0.75, 0.75, 1.0, 1.0])
    np.testing.assert_array_equal(fairbalance_weights([0, 0, 0, 1, 1], [1, 0, 0, 0, 1]), expected)
    np.testing.assert_array_equal(fairbalance_weights(np.array(["f", "f", "f", "m", "m"]),
                                                      np.array([True, False, False, False, True])), expected)


def test_single_class_group():
    groups, y = [0, 0, 0, 1, 1], [1, 0, 0, 1, 1]
    with pytest.raises(ValueError, match=r"group 1 has only rows with y=1.*undefined"):
        fairbalance_weights(groups, y)
    with pytest.raises(ValueError, match=r"group \[1, 0\]"):
        fairbalance_weights(np.array([[0, 1], [0, 1], [1, 0]]), [1, 0, 1])
    # the authors' loop gives n_a / len(cell) / 2 = 1/2 to such rows
    np.testing.assert_array_equal(fairbalance_weights(groups, y, single_class="authors"),
                                  [1.5, 0.75, 0.75, 0.5, 0.5])


def test_invalid_inputs():
    with pytest.raises(ValueError, match="binary"):
        fairbalance_weights([0, 0, 1, 1], [0, 2, 0, 1])
    with pytest.raises(ValueError, match="entries"):
        fairbalance_weights([0, 0, 1, 1], [0, 1, 0])
    with pytest.raises(ValueError, match="1-D"):
        fairbalance_weights(np.zeros((2, 2, 2), dtype=int), [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        fairbalance_weights([0.0, np.nan, 1.0, 1.0], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="single_class"):
        fairbalance_weights([0, 0], [0, 1], single_class="ignore")


# ----------------------------------------------------------------------------- mAOD
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.integers(20, 400))
def test_max_gap_average_odds_matches_fairlearn(seed, k, n):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, k, n)
    y = rng.integers(0, 2, n)
    y_pred = rng.integers(0, 2, n)
    # every group needs both classes for TPR and FPR to be defined
    a = np.r_[a, np.arange(k), np.arange(k)]
    y = np.r_[y, np.zeros(k, int), np.ones(k, int)]
    y_pred = np.r_[y_pred, rng.integers(0, 2, 2 * k)]
    mf = MetricFrame(metrics={"tpr": true_positive_rate, "fpr": false_positive_rate},
                     y_true=y, y_pred=y_pred, sensitive_features=a)
    ao = (mf.by_group["tpr"] + mf.by_group["fpr"]) / 2
    value = max_gap_average_odds(y, y_pred, sensitive_features=a)
    assert value == pytest.approx(ao.max() - ao.min(), abs=1e-12)
    assert value <= max_gap_mean_equalized_odds(y, y_pred, sensitive_features=a) + 1e-12


def test_max_gap_average_odds_lets_opposite_gaps_cancel():
    # group 0: TPR 1, FPR 0; group 1: TPR 0, FPR 1 -> AO 1/2 in both, while Delta_MEO = 1
    y, y_pred, a = [1, 0, 1, 0], [1, 0, 0, 1], [0, 0, 1, 1]
    assert max_gap_average_odds(y, y_pred, sensitive_features=a) == 0.0
    assert max_gap_mean_equalized_odds(y, y_pred, sensitive_features=a) == 1.0
    with pytest.warns(RuntimeWarning, match="tpr"):
        nan = max_gap_average_odds([0, 0, 1, 0], [0, 1, 1, 0], sensitive_features=[0, 0, 1, 1])
    assert np.isnan(nan)
