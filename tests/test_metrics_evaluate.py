"""The one-pass :func:`ldpfair.metrics.evaluate` equals, bit for bit, the bundles it stands for.

``evaluate_reference`` is the former ``evaluate``: every convention's bundle called
one after the other (six ``group_rates``, two ``roc_auc_score``). The fast one must
return the same keys in the same order, the same float bits (NaN placement and the
sign of zero included) and the same warnings in the same order.

Each chapter's own bundle (``ldpfair.papers.<paper>.metrics.paper_metrics``) returns
a subset of :func:`evaluate`'s columns with the same bits wherever it is defined,
and refuses (``ValueError``) what it does not define.
"""

from __future__ import annotations

import importlib
import struct
import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from ldpfair.metrics import UndefinedRateWarning, evaluate
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
def test_evaluate_bitwise_identical_to_the_bundles(seed, n, k):
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


# ----------------------------------------------------------------------------- the chapters' bundles
def _chapters_with_bundles():
    """Every registered chapter (and the template) whose package has a metrics module: from the registry."""
    import importlib.util

    from ldpfair.papers import with_results

    return tuple(c for c in with_results() if importlib.util.find_spec(f"ldpfair.papers.{c}.metrics"))


CHAPTERS = _chapters_with_bundles()
BUNDLES = {c: importlib.import_module(f"ldpfair.papers.{c}.metrics").paper_metrics for c in CHAPTERS}
#: The bundles defined for two groups only (they raise ValueError otherwise); every other bundle, a new
#: chapter's too, must accept any number of groups. A new binary-only bundle: add its chapter here.
BINARY_ONLY = frozenset({"makhlouf2024", "hamman2023", "xu2019"})


def _defined(chapter, a, scores, labels, privileged):
    """Whether the chapter's bundle is defined on this case (else it must raise ValueError)."""
    if chapter not in BINARY_ONLY:
        return True  # any number of groups
    binary = (labels is None or list(labels) == [0, 1]) and set(np.unique(a).tolist()) <= {0, 1}
    if chapter == "makhlouf2024":
        return binary and privileged == 1
    return binary and (chapter != "hamman2023" or scores is not None)


def _assert_bundles_match(args, compared=None):
    y, p, a, scores, labels, privileged = args
    kw = dict(sensitive_features=a, scores=scores, labels=labels)
    for chapter, bundle in BUNDLES.items():
        priv = 1 if chapter == "makhlouf2024" else privileged  # its refusal of others: below
        row, _ = _call(evaluate, y, p, privileged=priv, **kw)
        if not _defined(chapter, a, scores, labels, priv):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UndefinedRateWarning)
                with pytest.raises(ValueError):
                    bundle(y, p, privileged=priv, **kw)
            continue
        try:
            out, w = _call(bundle, y, p, privileged=priv, **kw)
        except ValueError as exc:
            pytest.fail(f"{chapter}'s bundle refused a case ({exc}); if it is defined for two groups only, "
                        "add the chapter to BINARY_ONLY")
        assert set(out) <= set(row), f"{chapter}: columns not in evaluate's row: {set(out) - set(row)}"
        assert {c: _bits(v) for c, v in out.items()} == {c: _bits(row[c]) for c in out}, chapter
        if any(np.isnan(v) for v in out.values()):  # an undefined column is never silent
            assert any(cat is UndefinedRateWarning for cat, _ in w), chapter
        if compared is not None:
            compared[chapter] = compared.get(chapter, 0) + 1


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("n", [1, 7, 60, 800])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_chapter_bundles_are_evaluate_columns_bit_for_bit(seed, n, k):
    rng = np.random.default_rng([seed, n, k, 27])
    compared: dict[str, int] = {}
    for labels_mode in ("none", "domain", "wider"):
        for scores_mode in ("none", "continuous"):
            for degenerate in ("", "one_class", "constant_pred", "group_without_positive",
                               "group_all_predicted"):
                privileged = int(rng.choice([0, 1, 7]))
                _assert_bundles_match(_case(rng, n, k, labels_mode=labels_mode, scores_mode=scores_mode,
                                            privileged=privileged, degenerate=degenerate), compared)
    # the binary-only bundles are compared on binary data too, not only refused
    if k <= 2:
        assert set(compared) == set(CHAPTERS), compared
    elif n >= 60:  # three groups present: only the bundles defined for any number of groups
        assert set(compared) == set(CHAPTERS) - BINARY_ONLY, (
            f"{compared}: a bundle that refuses three groups belongs in BINARY_ONLY")


def test_chapter_bundles_on_label_types_and_their_refusals():
    rng = np.random.default_rng(12)
    y, p, s = rng.integers(0, 2, 200), rng.integers(0, 2, 200), rng.random(200)
    for a, privileged in ((rng.integers(0, 2, 200).astype(float), 1.0),
                          (rng.integers(0, 2, 200).astype(bool), True)):
        _assert_bundles_match((y, p, a, s, None, privileged))
    a = rng.integers(0, 2, 200)
    with pytest.raises(ValueError, match="privileged must be 1, got 0"):
        BUNDLES["makhlouf2024"](y, p, sensitive_features=a, privileged=0)
    with pytest.raises(ValueError, match="needs scores"):
        BUNDLES["hamman2023"](y, p, sensitive_features=a, scores=None)
    with pytest.raises(ValueError, match=r"labels must be None or \[0, 1\], got \[1, 0\]"):
        BUNDLES["xu2019"](y, p, sensitive_features=a, labels=[1, 0])
    with pytest.raises(ValueError, match="binary labels"):
        BUNDLES["xu2019"](y, p, sensitive_features=a + 1)


def test_chapter_bundles_are_pinned_and_key_only_their_own_grids():
    from ldpfair.experiments import Evaluation

    default = Evaluation().config()
    for chapter, bundle in BUNDLES.items():
        cfg = Evaluation(metrics=bundle).config()
        assert cfg.pop("metrics") == f"callable:ldpfair.papers.{chapter}.metrics.paper_metrics:1"
        assert cfg == default and "metrics" not in default
