"""Utility metrics: accuracy, F1, recall, precision and two kinds of AUC.

arcolezi2023 computed ``roc_auc_score(y_test, y_pred)`` on *hard* labels, which
equals the balanced accuracy ``(TPR + TNR) / 2``; that is :func:`auc_from_labels`.
The usual ROC AUC from scores is :func:`auc_from_scores`. Both exist, named
apart, so that a figure always says which one it shows.

An undefined value (AUC with a single class in ``y_true``; F1, recall or
precision with a zero denominator) is NaN with an
:class:`~ldpfair.metrics.groups.UndefinedRateWarning`, unless ``zero_division``
requests scikit-learn's ``0.0`` (what the authors' default calls returned).
``zero_division`` is ``None`` or a number in ``[0, 1]`` (a value of the metric).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.integrate import trapezoid
from sklearn import metrics as skm

from .._validation import check_real
from .groups import UndefinedRateWarning, check_binary, check_scores

__all__ = [
    "accuracy",
    "f1",
    "recall",
    "precision",
    "auc_from_labels",
    "auc_from_scores",
    "utility_metrics",
]


def _pair(y_true: object, y_pred: object) -> tuple[np.ndarray, np.ndarray]:
    y = check_binary(y_true, "y_true")
    p = check_binary(y_pred, "y_pred")
    if y.shape != p.shape:
        raise ValueError(f"y_pred has {p.shape[0]} entries but y_true has {y.shape[0]}")
    return y, p


def check_zero_division(zero_division: object) -> float | None:
    """``None`` or the value in ``[0, 1]`` that a 0/0 metric takes (an F1 of 5 is not an F1)."""
    if zero_division is None:
        return None
    return check_real(zero_division, "zero_division", low=0.0, high=1.0,
                      why=" or None (NaN with a warning)")


def _ratio(num: float, den: float, what: str, zero_division: float | None) -> float:
    if den == 0:
        if zero_division is not None:
            return float(zero_division)
        warnings.warn(f"{what} is undefined (denominator 0); set to NaN", UndefinedRateWarning,
                      stacklevel=3)
        return float("nan")
    return float(num / den)


def accuracy(y_true: object, y_pred: object) -> float:
    """Fraction of correct hard predictions (NaN with a warning on empty input)."""
    y, p = _pair(y_true, y_pred)
    return _ratio(float(np.sum(y == p)), float(y.size), "accuracy", None)


def recall(y_true: object, y_pred: object, *, zero_division: float | None = None) -> float:
    """``TP / (TP + FN)``; NaN (or ``zero_division``) without positives."""
    zero_division = check_zero_division(zero_division)
    y, p = _pair(y_true, y_pred)
    return _ratio(float(np.sum(y & p)), float(np.sum(y)), "recall", zero_division)


def precision(y_true: object, y_pred: object, *, zero_division: float | None = None) -> float:
    """``TP / (TP + FP)``; NaN (or ``zero_division``) without predicted positives."""
    zero_division = check_zero_division(zero_division)
    y, p = _pair(y_true, y_pred)
    return _ratio(float(np.sum(y & p)), float(np.sum(p)), "precision", zero_division)


def f1(y_true: object, y_pred: object, *, zero_division: float | None = None) -> float:
    """F1 of the positive class, ``2 TP / (2 TP + FP + FN)``; NaN (or ``zero_division``) if 0/0."""
    zero_division = check_zero_division(zero_division)
    y, p = _pair(y_true, y_pred)
    tp = float(np.sum(y & p))
    return _ratio(2 * tp, float(np.sum(y) + np.sum(p)), "f1", zero_division)


def auc_from_labels(y_true: object, y_pred: object) -> float:
    """ROC AUC of *hard* labels, as arcolezi2023 computed it; equals ``(TPR + TNR) / 2``.

    NaN with a warning when ``y_true`` holds a single class.
    """
    y, p = _pair(y_true, y_pred)
    return _auc(y, p.astype(np.float64))


def auc_from_scores(y_true: object, scores: object) -> float:
    """ROC AUC of scores (probabilities of the positive class).

    NaN with a warning when ``y_true`` holds a single class.
    """
    y = check_binary(y_true, "y_true")
    s = check_scores(scores, "scores")
    if y.shape != s.shape:
        raise ValueError(f"scores has {s.shape[0]} entries but y_true has {y.shape[0]}")
    return _auc(y, s)


def warn_auc_undefined(stacklevel: int) -> None:
    """Warn that the AUC is undefined (one class in ``y_true``); ``stacklevel`` counts from here."""
    warnings.warn("AUC is undefined (y_true holds a single class); set to NaN",
                  UndefinedRateWarning, stacklevel=stacklevel)


def _auc(y: np.ndarray, s: np.ndarray) -> float:
    if y.size == 0 or y.min() == y.max():
        warn_auc_undefined(stacklevel=4)
        return float("nan")
    return float(skm.roc_auc_score(y, s))


def roc_auc(y: np.ndarray, s: np.ndarray) -> float:
    """``sklearn.metrics.roc_auc_score(y, s)`` of validated arrays, bit for bit, without its checks.

    ``y`` int 0/1 holding both classes, ``s`` finite float64 scores of the same
    length. The same curve as scikit-learn's ``roc_curve`` (one point per distinct
    score, in decreasing order, positives and negatives counted exactly, collinear
    points dropped, ``(0, 0)`` prepended) integrated by the same trapezoid rule.
    The order of tied scores does not matter: only the counts at the end of a tie
    enter the curve.
    """
    order = np.argsort(s, kind="stable")[::-1]
    s_sorted = s[order]
    ends = np.r_[np.flatnonzero(np.diff(s_sorted)), s.size - 1]
    tps = np.cumsum(y[order].astype(np.float64), dtype=np.float64)[ends]
    fps = 1 + ends.astype(np.float64) - tps
    return _auc_from_curve(tps, fps)


def _auc_from_curve(tps: np.ndarray, fps: np.ndarray) -> float:
    """Area under the ROC curve of cumulative counts at decreasing thresholds (as scikit-learn)."""
    if fps.shape[0] > 2:
        keep = np.r_[True, np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), True]
        fps, tps = fps[keep], tps[keep]
    tps = np.r_[0.0, tps]
    fps = np.r_[0.0, fps]
    return float(trapezoid(tps / tps[-1], fps / fps[-1]))


def utility_metrics(
    y_true: object,
    y_pred: object,
    scores: object | None = None,
    *,
    zero_division: float | None = None,
) -> dict[str, float]:
    """All utility columns: ``acc, f1, recall, precision, auc_labels, auc_scores``.

    ``auc_scores`` is NaN when ``scores`` is not given.
    """
    zero_division = check_zero_division(zero_division)
    out = {
        "acc": accuracy(y_true, y_pred),
        "f1": f1(y_true, y_pred, zero_division=zero_division),
        "recall": recall(y_true, y_pred, zero_division=zero_division),
        "precision": precision(y_true, y_pred, zero_division=zero_division),
        "auc_labels": auc_from_labels(y_true, y_pred),
        "auc_scores": float("nan") if scores is None else auc_from_scores(y_true, scores),
    }
    return out
