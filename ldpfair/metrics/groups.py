"""Per-group rates for any number of groups.

Every fairness metric of the five papers is a function of a handful of
per-group rates: the group size ``n``, the selection rate
``P(Yhat=1 | A=a)``, the true- and false-positive rates, the accuracy and the
positive predictive value. :func:`group_rates` computes them all at once,
vectorised over individuals (one ``np.bincount`` per quantity).

A rate whose denominator is zero (an empty group, a group without positives,
a group with no predicted positives for PPV) is undefined: it is returned as
``NaN`` together with an :class:`UndefinedRateWarning` that names the group and
the rate. Nothing is silently replaced by 0; where an authors' code did that
(makhlouf2024's ``precision_score`` returns 0), the function offers the
convention as an option (``group_difference_metrics(ppv_zero_division=0.0)``).

A missing group label (``NaN``, ``None``, ``pd.NA``) is refused with a
ValueError: it is neither a group of its own nor part of "the rest". So are
labels of mixed types (``[0, '0', 1]``), which numpy would merge.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._validation import check_bool, check_label_types, check_rate_names

__all__ = [
    "UndefinedRateWarning",
    "RATE_COLUMNS",
    "check_binary",
    "check_scores",
    "check_no_missing",
    "encode_groups",
    "group_rates",
    "rates_from_sums",
    "warn_undefined_rates",
]

#: Columns of the frame returned by :func:`group_rates`.
RATE_COLUMNS = (
    "n",
    "n_pos",
    "n_neg",
    "base_rate",
    "selection_rate",
    "tpr",
    "fpr",
    "accuracy",
    "ppv",
)


class UndefinedRateWarning(RuntimeWarning):
    """A per-group rate is undefined (zero denominator) and was set to NaN."""


def check_binary(values: object, name: str) -> np.ndarray:
    """Return ``values`` as a 1-D int64 array of 0/1 labels.

    Raises
    ------
    ValueError
        If the array is not one-dimensional or holds anything but 0 and 1.
    """
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.dtype.kind == "b":
        return arr.astype(np.int64)
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold binary labels 0/1, got dtype {arr.dtype}")
    bad = (arr != 0) & (arr != 1)
    if np.any(bad):
        raise ValueError(
            f"{name} must hold binary labels 0/1; found {int(bad.sum())} other value(s), "
            f"e.g. {arr[bad][0]!r}"
        )
    return arr.astype(np.int64)


def check_scores(values: object, name: str) -> np.ndarray:
    """Return ``values`` as a 1-D float64 array of scores in ``[0, 1]``.

    Raises
    ------
    ValueError
        If the array is not one-dimensional, not numeric, or leaves ``[0, 1]``.
    """
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers in [0, 1], got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if not np.all((arr >= 0.0) & (arr <= 1.0)):
        raise ValueError(f"{name} must lie in [0, 1] (probabilities), got values outside or NaN")
    return arr


def check_no_missing(values: np.ndarray, name: str) -> None:
    """Refuse missing group labels (NaN, None, pd.NA, NaT) in a 1-D array, naming ``name``.

    Raises
    ------
    ValueError
        With the number of missing entries and the first position.
    """
    if values.dtype.kind in "biuUS":
        return
    missing = np.asarray(pd.isna(values), dtype=bool)
    if missing.any():
        first = int(np.flatnonzero(missing)[0])
        raise ValueError(
            f"{name} holds {int(missing.sum())} missing value(s) (NaN or None), the first at "
            f"position {first}: a missing attribute is not a group; drop or impute those rows first")


def encode_groups(
    groups: object, labels: Sequence[object] | None = None, name: str = "sensitive_features"
) -> tuple[np.ndarray, list[object]]:
    """Map group labels to codes ``0 .. g-1``.

    Parameters
    ----------
    groups : array-like
        One group label per individual.
    labels : sequence, optional
        The groups to report, in order. Groups listed here but absent from
        ``groups`` are reported as empty (NaN rates); individuals whose group is
        not listed raise an error. Default: the sorted unique labels present.
    name : str
        Argument name used in error messages.

    Returns
    -------
    codes : numpy.ndarray
        ``int64`` code of each individual's group (index into ``labels``).
    labels : list
        The group labels, in code order.
    """
    check_label_types(groups, name)
    arr = np.asarray(groups)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    check_no_missing(arr, name)
    if labels is None:
        uniq, codes = np.unique(arr, return_inverse=True)
        return codes.astype(np.int64), [_plain(u) for u in uniq]
    if isinstance(labels, (str, bytes)) or not isinstance(labels, (Sequence, np.ndarray, pd.Index)):
        raise TypeError(f"labels must be a sequence of group labels (e.g. [0, 1]), got {labels!r} "
                        f"({type(labels).__name__}); a string would be read letter by letter")
    check_label_types(labels, "labels")
    labels = [_plain(v) for v in labels]
    if len(set(labels)) != len(labels):
        raise ValueError(f"labels must be distinct, got {labels!r}")
    uniq, inv = np.unique(arr, return_inverse=True)
    lookup = {lab: i for i, lab in enumerate(labels)}
    missing = [_plain(u) for u in uniq if _plain(u) not in lookup]
    if missing:
        raise ValueError(f"{name} holds group(s) {missing!r} not listed in labels={labels!r}")
    mapping = np.array([lookup[_plain(u)] for u in uniq], dtype=np.int64)
    return mapping[inv], labels


def _plain(value: object) -> object:
    """Return a numpy scalar as the equivalent Python scalar (stable labels)."""
    return value.item() if isinstance(value, np.generic) else value


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.full(num.shape, np.nan, dtype=np.float64)
    ok = den > 0
    out[ok] = num[ok] / den[ok]
    return out


def group_rates(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    soft: bool = False,
    warn: bool | Sequence[str] = True,
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> pd.DataFrame:
    """Per-group size, base rate, selection rate, TPR, FPR, accuracy and PPV.

    Parameters
    ----------
    y_true : array-like of {0, 1}
        True labels.
    y_pred : array-like
        Hard predictions in {0, 1}, or (``soft=True``) scores ``h(x)`` in
        ``[0, 1]``. With scores, ``selection_rate = E[h | A=a]``,
        ``tpr = E[h | Y=1, A=a]`` and ``fpr = E[h | Y=0, A=a]`` (hamman2023's
        expectations for logistic classifiers); ``accuracy`` is then the expected
        accuracy ``E[h Y + (1-h)(1-Y) | A=a]`` and ``ppv`` is
        ``E[h Y | A=a] / E[h | A=a]``.
    sensitive_features : array-like
        Group of each individual (any hashable labels).
    labels : sequence, optional
        Groups to report, in order (see :func:`encode_groups`); a listed group
        with no member gets ``n = 0`` and NaN rates.
    soft : bool
        Whether ``y_pred`` holds scores rather than hard labels (``True`` or
        ``False``; a string is refused).
    warn : bool or sequence of str
        Emit an :class:`UndefinedRateWarning` for every undefined rate (or only
        for the rates named, from :data:`RATE_COLUMNS`; a bare string such as
        ``"tpr"`` is refused: write ``("tpr",)``). An empty group is always
        reported when warning.
    names : (str, str)
        How the caller named ``y_true`` and ``y_pred`` (used in error messages).

    Returns
    -------
    pandas.DataFrame
        Indexed by group label (index name ``"group"``), columns
        :data:`RATE_COLUMNS`.

    Examples
    --------
    >>> group_rates([1, 0, 1, 0], [1, 0, 0, 0], sensitive_features=[0, 0, 1, 1])
    ... # doctest: +NORMALIZE_WHITESPACE
           n  n_pos  n_neg  base_rate  selection_rate  tpr  fpr  accuracy  ppv
    group
    0      2      1      1        0.5             0.5  1.0  0.0       1.0  1.0
    1      2      1      1        0.5             0.0  0.0  0.0       0.5  NaN
    """
    y_name, p_name = names
    soft = check_bool(soft, "soft")
    columns = check_rate_names(warn, RATE_COLUMNS, "warn")
    y = check_binary(y_true, y_name)
    h = check_scores(y_pred, p_name) if soft else check_binary(y_pred, p_name).astype(float)
    if h.shape != y.shape:
        raise ValueError(f"{p_name} has {h.shape[0]} entries but {y_name} has {y.shape[0]}")
    codes, labs = encode_groups(sensitive_features, labels)
    if codes.shape != y.shape:
        raise ValueError(f"sensitive_features has {codes.shape[0]} entries but {y_name} has {y.shape[0]}")
    g = len(labs)
    yf = y.astype(np.float64)
    n = np.bincount(codes, minlength=g).astype(np.float64)
    n_pos = np.bincount(codes, weights=yf, minlength=g)
    sel = np.bincount(codes, weights=h, minlength=g)
    tp = np.bincount(codes, weights=h * yf, minlength=g)
    correct = np.bincount(codes, weights=h * yf + (1.0 - h) * (1.0 - yf), minlength=g)
    frame = pd.DataFrame(rates_from_sums(n, n_pos, sel, tp, correct),
                         index=pd.Index(labs, name="group"))
    if columns is None or columns:
        _warn_undefined(frame, columns)
    return frame


def rates_from_sums(
    n: np.ndarray, n_pos: np.ndarray, sel: np.ndarray, tp: np.ndarray, correct: np.ndarray
) -> dict[str, np.ndarray]:
    """The columns :data:`RATE_COLUMNS` from per-group sums (float64 arrays, one entry a group).

    ``n`` group sizes, ``n_pos`` positives, ``sel`` (expected) predicted positives,
    ``tp`` (expected) true positives, ``correct`` (expected) correct predictions.
    Hard predictions give integer sums, so sums counted in integers and converted
    give the same rates, bit for bit, as sums accumulated in floats.
    """
    n_neg = n - n_pos
    return {
        "n": n.astype(np.int64),
        "n_pos": n_pos.round().astype(np.int64),
        "n_neg": n_neg.round().astype(np.int64),
        "base_rate": _ratio(n_pos, n),
        "selection_rate": _ratio(sel, n),
        "tpr": _ratio(tp, n_pos),
        "fpr": _ratio(sel - tp, n_neg),
        "accuracy": _ratio(correct, n),
        "ppv": _ratio(tp, sel),
    }


_WHY = {
    "tpr": "the group has no positive (Y=1) individual",
    "fpr": "the group has no negative (Y=0) individual",
    "ppv": "the group has no predicted positive",
}


def _warn_undefined(frame: pd.DataFrame, columns: tuple[str, ...] | None) -> None:
    warn_undefined_rates(list(frame.index), {c: frame[c].to_numpy() for c in frame.columns},
                         columns, stacklevel=4)


def warn_undefined_rates(
    labels: Sequence[object],
    rates: Mapping[str, np.ndarray],
    columns: tuple[str, ...] | None,
    stacklevel: int = 3,
) -> None:
    """Emit :func:`group_rates`' warnings: every empty group, then each undefined rate.

    ``rates`` holds ``n`` and the rates of ``_WHY`` (one entry a group, in the order
    of ``labels``); ``columns`` restricts the rates reported (``None``: all).
    """
    n = np.asarray(rates["n"])
    for i in np.flatnonzero(n == 0):
        warnings.warn(
            f"group {labels[int(i)]!r} is empty: all its rates are undefined; set to NaN",
            UndefinedRateWarning,
            stacklevel=stacklevel,
        )
    for col, why in _WHY.items():
        if columns is not None and col not in columns:
            continue
        for i in np.flatnonzero((n > 0) & np.isnan(rates[col])):
            warnings.warn(
                f"{col} of group {labels[int(i)]!r} is undefined ({why}); set to NaN",
                UndefinedRateWarning,
                stacklevel=stacklevel,
            )


def warn_privileged_empty(a: np.ndarray, privileged: object, stacklevel: int) -> None:
    """Warn that ``privileged`` matches no row of ``a``: its group's rates are NaN (names the values present).

    ``stacklevel`` counts from this function, as in :func:`warnings.warn`.
    """
    present = sorted({v.item() if isinstance(v, np.generic) else v for v in a.tolist()}, key=repr)
    warnings.warn(f"privileged={privileged!r} matches no row of sensitive_features (values present: "
                  f"{present[:10]!r}): the privileged group is empty; its rates are NaN",
                  UndefinedRateWarning, stacklevel=stacklevel)
