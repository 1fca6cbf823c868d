"""DistinctRowForest: same estimator in distribution as scikit-learn's RandomForestClassifier."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.ensemble import RandomForestClassifier

from ldpfair.forest import DistinctRowForest, distinct_rows, make_forest


def _discrete(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic-like data: C, A, M (12 cells) with cells of P(Y=1|x) near 0.5 (hard cases)."""
    c = rng.random(n) < 0.35
    a = rng.random(n) < np.where(c, 0.75, 0.55)
    m = rng.choice(3, size=n, p=[0.4, 0.4, 0.2])
    logit = 0.5 * c + 0.4 * a + 0.3 * m - 0.8
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return np.column_stack([c, a, m]).astype(np.float32), y


def test_distinct_rows_roundtrip() -> None:
    rng = np.random.default_rng(1)
    x = rng.integers(0, 3, size=(500, 4)).astype(np.float32)
    first, inv = distinct_rows(x)
    np.testing.assert_array_equal(x[first][inv], x)
    assert len(first) == len(np.unique(x, axis=0))
    with pytest.raises(ValueError, match="2-D"):
        distinct_rows(np.zeros(3))


def test_fit_predict_shapes_and_determinism() -> None:
    x, y = _discrete(3000, np.random.default_rng(0))
    f1 = DistinctRowForest(n_estimators=20, random_state=5).fit(x, y)
    f2 = make_forest(5, n_estimators=20).fit(x, y)
    p = f1.predict_proba(x)
    np.testing.assert_array_equal(p, f2.predict_proba(x))
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    assert f1.n_distinct_ <= 24
    np.testing.assert_array_equal(f1.predict(x), f1.classes_[p.argmax(axis=1)])
    with pytest.raises(ValueError, match="random_state"):
        DistinctRowForest().fit(x, y)
    with pytest.raises(ValueError, match="n_estimators"):
        DistinctRowForest(n_estimators=0, random_state=0).fit(x, y)


def test_predicted_proba_matches_sklearn_in_distribution() -> None:
    """Per distinct row, the forest probability of both estimators has the same mean (Welch t-test)."""
    rng = np.random.default_rng(2)
    x, y = _discrete(2000, rng)
    first, _ = distinct_rows(x)
    grid = x[first]
    ours = np.array([DistinctRowForest(n_estimators=25, random_state=s).fit(x, y).predict_proba(grid)[:, 1]
                     for s in range(30)])
    theirs = np.array([RandomForestClassifier(n_estimators=25, random_state=s).fit(x, y)
                       .predict_proba(grid)[:, 1] for s in range(30)])
    pvals = stats.ttest_ind(ours, theirs, axis=0, equal_var=False).pvalue
    pvals = pvals[np.isfinite(pvals)]
    # Bonferroni over the distinct rows: no row may differ at the 0.1% family level
    assert pvals.min() > 0.001 / len(pvals)
    # and the hard predictions agree on (almost) every row on average
    assert np.mean((ours.mean(0) > 0.5) == (theirs.mean(0) > 0.5)) >= 0.9
    # the spread across seeds is of the same size too (bootstrap variance is reproduced)
    ratio = ours.std(0).mean() / theirs.std(0).mean()
    assert 0.7 < ratio < 1.4


def test_bootstrap_off_equals_weighted_tree_average() -> None:
    x, y = _discrete(1000, np.random.default_rng(3))
    f = DistinctRowForest(n_estimators=5, bootstrap=False, max_features=None, random_state=0).fit(x, y)
    # without bootstrap and with all features, each tree is the full-depth tree: class frequency per cell
    first, inv = distinct_rows(x)
    freq = np.bincount(inv, weights=y) / np.bincount(inv)
    np.testing.assert_allclose(f.predict_proba(x[first])[:, 1], freq, atol=1e-12)
