"""The one-pass :func:`ldpfair.metrics.evaluate` equals, bit for bit, the per-paper functions.

``evaluate_reference`` is the former ``evaluate`` verbatim: every paper function
called one after the other (six ``group_rates``, two ``roc_auc_score``). The fast
one must return the same keys in the same order, the same float bits (NaN placement
and the sign of zero included) and the same warnings in the same order.
"""

from __future__ import annotations

import struct
import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from ldpfair.metrics import evaluate
from ldpfair.metrics.evaluate import evaluate_reference
from ldpfair.metrics.utility import roc_auc


def _bits(value):
    return ("int", value) if isinstance(value, int) else ("float", struct.pack("<d", value))


def _call(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, [(x.category, str(x.message)) for x in w]


def _case(rng, n, k, *, labels_mode, scores_mode, privileged, degenerate):
    y = rng.integers(0, 2, n)
    scores = rng.random(n)
    if scores_mode == "ties":
        scores = np.round(scores, 1)
    p = (scores > rng.uniform(0.2, 0.8)).astype(np.int64)
    a = rng.integers(0, k, n)
    if degenerate == "one_class":
        y[:] = 1
    elif degenerate == "constant_pred":
        p[:] = 0
    elif degenerate == "group_without_positive" and n:
        y[a == 0] = 0
    elif degenerate == "group_all_predicted" and n:
        p[a == k - 1] = 1
    labels = {"none": None, "domain": list(range(k)), "wider": list(range(k + 1))}[labels_mode]
    return y, p, a, (None if scores_mode == "none" else scores), labels, privileged


def _assert_same(args):
    y, p, a, scores, labels, privileged = args
    kw = dict(sensitive_features=a, scores=scores, labels=labels, privileged=privileged)
    new, w_new = _call(evaluate, y, p, **kw)
    old, w_old = _call(evaluate_reference, y, p, **kw)
    assert list(new) == list(old)
    assert {k: _bits(v) for k, v in new.items()} == {k: _bits(v) for k, v in old.items()}
    assert w_new == w_old


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [1, 7, 60, 3000])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_evaluate_bitwise_identical_to_the_paper_functions(seed, n, k):
    rng = np.random.default_rng([seed, n, k])
    for labels_mode in ("none", "domain", "wider"):
        for scores_mode in ("none", "continuous", "ties"):
            for degenerate in ("", "one_class", "constant_pred", "group_without_positive",
                               "group_all_predicted"):
                privileged = rng.choice([0, 1, 7])
                _assert_same(_case(rng, n, k, labels_mode=labels_mode, scores_mode=scores_mode,
                                   privileged=int(privileged), degenerate=degenerate))


def test_evaluate_identical_on_label_types_and_small_groups():
    """Float and boolean group labels, a missing group, fewer than two groups (NaN gaps, warned)."""
    rng = np.random.default_rng(11)
    y, p = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    s = rng.random(200)
    cases = [
        (rng.integers(0, 2, 200).astype(float), None, 1.0),
        (rng.integers(0, 2, 200).astype(bool), None, True),
        (np.zeros(200, dtype=np.int64), None, 1),  # one group: gaps NaN with a warning
        (np.zeros(200, dtype=np.int64), [0, 1], 0),  # group 1 empty
        (rng.integers(0, 3, 200), [2, 0, 1], 2),  # labels out of sorted order
    ]
    for a, labels, privileged in cases:
        _assert_same((y, p, a, s, labels, privileged))
        _assert_same((y, p, a, None, labels, privileged))
    _, w = _call(evaluate, y, p, sensitive_features=np.zeros(200, dtype=np.int64))
    assert any("at least two groups" in m for _, m in w)


def test_evaluate_bad_input_errors_unchanged():
    y = np.array([0, 1, 1, 0])
    with pytest.raises(ValueError, match="y_pred has 3 entries"):
        evaluate(y, [0, 1, 1], sensitive_features=[0, 1, 0, 1])
    with pytest.raises(ValueError, match="scores must lie in"):
        evaluate(y, y, sensitive_features=[0, 1, 0, 1], scores=[0.1, 2.0, 0.3, 0.4])
    with pytest.raises(ValueError, match="not listed in labels"):
        evaluate(y, y, sensitive_features=[0, 1, 2, 1], labels=[0, 1])
    with pytest.raises(ValueError, match="sensitive_features has 3 entries"):
        evaluate(y, y, sensitive_features=[0, 1, 0])


@pytest.mark.parametrize("seed", range(20))
def test_roc_auc_equals_sklearn_bitwise(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 5000))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.random(n)
    if seed % 2:
        s = np.round(s, int(rng.integers(0, 3)))  # heavy ties, collinear points dropped
    assert struct.pack("<d", roc_auc(y, s)) == struct.pack("<d", float(roc_auc_score(y, s)))
