"""A Random Forest that trains on the distinct rows of a discrete dataset.

:class:`DistinctRowForest` is scikit-learn's ``RandomForestClassifier`` (with its
default hyperparameters) computed the fast way for data with few distinct
feature rows (makhlouf2024: 12 to 256 distinct rows among up to 90,000).

Why it is the same estimator
----------------------------
scikit-learn fits each tree of a forest on *all* training rows with
``sample_weight`` = the number of times the row was drawn by the bootstrap
(``n`` uniform draws with replacement). Rows with equal features **and** label
are interchangeable, so the bootstrap counts of the distinct ``(x, y)`` rows
are ``Multinomial(n, c_g / n)`` where ``c_g`` is the number of copies of row
``g``; drawing those counts directly and fitting the tree on the distinct rows
with them as ``sample_weight`` (zero-weight rows kept, as scikit-learn keeps the
out-of-bag rows) grows the same tree in distribution: every split criterion is
a function of weighted class counts, candidate thresholds are midpoints of the
distinct values present in a node, and with ``min_samples_split=2``,
``min_samples_leaf=1`` a node stops growing exactly when it is pure or all its
rows share the same features, whether the copies are stored once or many times.
Test rows are predicted once per distinct row and mapped back.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sklearn
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.validation import check_array, check_is_fitted

from ._validation import check_count, check_rng
from .identity import versioned

__all__ = ["DistinctRowForest", "distinct_rows", "make_forest"]

_DTYPE = np.float32


def distinct_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(first, inverse)``: row indices of the distinct rows of ``x`` and each row's group.

    ``x[first][inverse]`` equals ``x``. Vectorised: each column is reduced to its
    rank among the column's distinct values and the ranks are combined in a
    mixed radix (``numpy.unique(axis=0)`` when that would overflow 63 bits).

    Parameters
    ----------
    x : numpy.ndarray
        2-D array.
    """
    x = np.asarray(x)
    if x.ndim != 2:
        raise ValueError(f"x must be a 2-D array, got shape {x.shape}")
    n = x.shape[0]
    code = np.zeros(n, dtype=np.int64)
    radix = 1
    for j in range(x.shape[1]):
        uniq, inv = np.unique(x[:, j], return_inverse=True)
        radix *= max(len(uniq), 1)
        if radix >= 2**62:
            _, first, inverse = np.unique(x, axis=0, return_index=True, return_inverse=True)
            return first, inverse.reshape(-1)
        code = code * len(uniq) + inv.reshape(-1)
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    return first, inverse.reshape(-1)


class DistinctRowForest(ClassifierMixin, BaseEstimator):
    """Random Forest classifier fitted on distinct rows with multinomial bootstrap weights.

    Same hyperparameter names and defaults as
    :class:`sklearn.ensemble.RandomForestClassifier` (``n_estimators=100``,
    ``criterion="gini"``, ``max_features="sqrt"``, bootstrap on). Each tree is a
    :class:`sklearn.tree.DecisionTreeClassifier`.

    Parameters
    ----------
    n_estimators : int
        Number of trees.
    criterion : {"gini", "entropy", "log_loss"}
        Split criterion.
    max_depth : int or None
        Maximum depth of a tree.
    min_samples_split : int
        Kept for API compatibility; only the default 2 gives the same trees as
        scikit-learn's forest (counts of distinct rows differ from counts of rows).
    min_samples_leaf : int
        Same remark; default 1.
    max_features : {"sqrt", "log2"}, int, float or None
        Features considered at each split.
    bootstrap : bool
        Multinomial bootstrap counts (True) or every row with weight 1.
    random_state : int, numpy.random.Generator or SeedSequence
        Seed of the bootstrap counts and of every tree (required; ``None`` is refused).
    n_jobs : int or None
        Accepted for compatibility with ``RandomForestClassifier``; trees are fitted
        sequentially (they take microseconds each).

    Attributes
    ----------
    classes_ : numpy.ndarray
        Class labels.
    estimators_ : list of DecisionTreeClassifier or DecisionTreeRegressor
        For two classes with ``criterion="gini"``: squared-error regression trees
        on the 0/1 label, which choose the same splits as Gini classification
        trees (the Gini impurity is twice the variance) and predict P(y=1).
        The fitted trees.
    n_distinct_ : int
        Number of distinct ``(x, y)`` training rows.
    """

    #: Force classification trees even for a binary Gini forest (used by the tests that
    #: check that the regression-tree shortcut grows the same forest).
    _use_classifier_trees = False

    def __init__(
        self,
        n_estimators: int = 100,
        *,
        criterion: str = "gini",
        max_depth: int | None = None,
        min_samples_split: int = 2,
        min_samples_leaf: int = 1,
        max_features: Any = "sqrt",
        bootstrap: bool = True,
        random_state: Any = None,
        n_jobs: int | None = None,
    ) -> None:
        self.n_estimators = n_estimators
        self.criterion = criterion
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.max_features = max_features
        self.bootstrap = bootstrap
        self.random_state = random_state
        self.n_jobs = n_jobs

    def fit(self, X: Any, y: Any) -> DistinctRowForest:  # noqa: N803 - scikit-learn's name
        """Fit the forest on ``X`` (n x d) and labels ``y``.

        Parameters
        ----------
        X : array-like of shape (n, d)
            Features (any numeric values; few distinct rows make it fast).
        y : array-like of shape (n,)
            Class labels.
        """
        n_trees = check_count(self.n_estimators, "n_estimators")
        if self.random_state is None:
            raise ValueError("random_state=None: DistinctRowForest needs an explicit int seed, "
                             "Generator or SeedSequence")
        rng = check_rng(self.random_state, "random_state")
        x = check_array(X, dtype=_DTYPE, order="C")
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != x.shape[0]:
            raise ValueError(f"y must be 1-D with {x.shape[0]} labels, got shape {y.shape}")
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        n_classes = len(self.classes_)
        self._binary_gini = n_classes == 2 and self.criterion == "gini" and not self._use_classifier_trees
        first_x, inv_x = distinct_rows(x)
        key = inv_x.astype(np.int64) * n_classes + y_enc.reshape(-1)
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
        x_d = np.ascontiguousarray(x[first])
        y_d = y_enc.reshape(-1)[first].astype(np.float64)
        n = x.shape[0]
        if self.bootstrap:
            weights = rng.multinomial(n, counts / n, size=n_trees).astype(np.float64)
        else:
            weights = np.broadcast_to(counts.astype(np.float64), (n_trees, len(counts)))
        seeds = rng.integers(0, 2**31 - 1, size=n_trees)
        trees = []
        # parameters are validated once here, not once per tree (a public scikit-learn switch)
        with sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
            trees = self._fit_trees(x_d, y_d, weights, seeds)
        self.estimators_ = trees
        self.n_features_in_ = x.shape[1]
        self.n_distinct_ = len(first)
        return self

    def _fit_trees(self, x_d: np.ndarray, y_d: np.ndarray, weights: np.ndarray,
                   seeds: np.ndarray) -> list[DecisionTreeClassifier | DecisionTreeRegressor]:
        trees: list[DecisionTreeClassifier | DecisionTreeRegressor] = []
        if self._binary_gini:
            # For a 0/1 target the Gini impurity 2p(1-p) is twice the variance p(1-p), so a
            # squared-error regression tree picks the same splits (same random feature draws,
            # same stopping rule) and its leaf value is the classifier's P(y=1). It skips
            # scikit-learn's per-tree classification-target checks, which dominate the cost
            # of trees grown on a few hundred distinct rows.
            for t in range(weights.shape[0]):
                tree = DecisionTreeRegressor(
                    criterion="squared_error", max_depth=self.max_depth,
                    min_samples_split=self.min_samples_split,
                    min_samples_leaf=self.min_samples_leaf,
                    max_features=self.max_features, random_state=int(seeds[t]),
                )
                tree.fit(x_d, y_d, sample_weight=np.ascontiguousarray(weights[t]), check_input=False)
                trees.append(tree)
            return trees
        for t in range(weights.shape[0]):
            tree = DecisionTreeClassifier(
                criterion=self.criterion, max_depth=self.max_depth,
                min_samples_split=self.min_samples_split, min_samples_leaf=self.min_samples_leaf,
                max_features=self.max_features, random_state=int(seeds[t]),
            )
            tree.fit(x_d, y_d, sample_weight=np.ascontiguousarray(weights[t]), check_input=False)
            trees.append(tree)
        return trees

    def predict_proba(self, X: Any) -> np.ndarray:  # noqa: N803
        """Mean of the trees' class probabilities (each distinct test row computed once)."""
        check_is_fitted(self, "estimators_")
        x = check_array(X, dtype=_DTYPE, order="C")
        if x.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {x.shape[1]} features, the forest was fitted on {self.n_features_in_}")
        first, inverse = distinct_rows(x)
        x_d = np.ascontiguousarray(x[first])
        proba = np.zeros((x_d.shape[0], len(self.classes_)), dtype=np.float64)
        with sklearn.config_context(assume_finite=True):
            self._sum_proba(x_d, proba)
        proba /= len(self.estimators_)
        return proba[inverse]

    def _sum_proba(self, x_d: np.ndarray, proba: np.ndarray) -> None:
        if self._binary_gini:
            for tree in self.estimators_:
                p1 = tree.predict(x_d, check_input=False)
                proba[:, 1] += p1
                proba[:, 0] += 1.0 - p1
            return
        for tree in self.estimators_:
            p = tree.predict_proba(x_d, check_input=False)
            # a tree knows the classes present in its (zero-weight included) rows: all of them
            proba[:, tree.classes_.astype(np.int64)] += p

    def predict(self, X: Any) -> np.ndarray:  # noqa: N803
        """Class with the largest mean probability (as ``RandomForestClassifier.predict``)."""
        return self.classes_.take(np.argmax(self.predict_proba(X), axis=1))


@versioned("d12ae51a1e86", name="ldpfair.forest.make_forest")
def make_forest(random_state: int, **params: Any) -> DistinctRowForest:
    """Factory for :class:`ldpfair.models.ModelSpec`: ``ModelSpec(make_forest)``."""
    return DistinctRowForest(random_state=random_state, **params)
