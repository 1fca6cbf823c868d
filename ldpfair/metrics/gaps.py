"""The gap of one per-group rate between groups, with the comparison as a parameter.

A group-fairness metric of the papers is almost always one rate of
:func:`~ldpfair.metrics.groups.group_rates` compared between groups. What differs
is the *convention*, and :func:`rate_gap` takes it as parameters:

``rate``
    ``"selection_rate"`` (statistical parity), ``"tpr"`` (equal opportunity),
    ``"fpr"`` (predictive equality), ``"accuracy"`` (overall accuracy),
    ``"ppv"`` (predictive parity) or ``"base_rate"`` (of the labels).
``compare``
    ``"privileged_vs_rest"``: the group coded ``privileged`` minus *every other
    row* pooled (signed; used by arcolezi2023); ``"group1_minus_group0"``:
    group 1 minus group 0 of a binary attribute (signed, decided by coding, not
    by size; makhlouf2024, hamman2023, xu2019); ``"max_gap"``: the largest
    absolute difference over all pairs of groups, any number of groups
    (``>= 0``; ghoukasian2025; fairlearn's ``MetricFrame.difference()``).
``absolute``
    ``|gap|`` (xu2019's risk difference, hamman2023's ``|SP|``).
``soft``
    ``y_pred`` holds scores ``h(x)`` in ``[0, 1]`` and the rates are expectations
    (hamman2023's soft classifier).
``nan_policy``
    What an undefined group rate does to ``"max_gap"`` (``"propagate"`` or
    ``"omit"``); a signed two-group difference is NaN whenever one of its two
    rates is undefined.

Undefined rates are NaN with an :class:`~ldpfair.metrics.groups.UndefinedRateWarning`
naming the group; nothing is silently made 0.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .._validation import check_bool, check_choice, check_label_types, check_real_array, check_scalar_label
from .groups import (
    UndefinedRateWarning,
    check_binary,
    check_no_missing,
    check_scores,
    group_rates,
    warn_privileged_empty,
)

__all__ = ["COMPARISONS", "GAP_RATES", "NanPolicy", "Comparison", "max_gap", "rate_gap"]

NanPolicy = Literal["propagate", "omit"]
Comparison = Literal["privileged_vs_rest", "group1_minus_group0", "max_gap"]

#: The ways :func:`rate_gap` compares a rate between groups.
COMPARISONS: tuple[str, ...] = ("privileged_vs_rest", "group1_minus_group0", "max_gap")

#: The per-group rates :func:`rate_gap` compares (columns of :func:`~ldpfair.metrics.group_rates`).
GAP_RATES: tuple[str, ...] = ("selection_rate", "tpr", "fpr", "accuracy", "ppv", "base_rate")


def max_gap(rates: object, *, nan_policy: NanPolicy = "propagate") -> float:
    """Largest absolute difference ``max_{a,a'} |r_a - r_a'|`` between per-group rates.

    Parameters
    ----------
    rates : array-like of float
        One rate per group (a 1-D array of numbers; NaN marks an undefined rate;
        strings, booleans and infinities are refused).
    nan_policy : {"propagate", "omit"}
        With ``"propagate"`` an undefined (NaN) group rate makes the result NaN;
        ``"omit"`` ignores such groups. Fewer than two groups left gives NaN with
        an :class:`UndefinedRateWarning` (a single group is not "perfectly fair").

    Returns
    -------
    float
        ``max(r) - min(r)`` (``>= 0``) or NaN.
    """
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = check_real_array(rates, "rates", ndim=1, allow_nan=True)
    if np.isnan(r).any():
        if nan_policy == "propagate":
            return float("nan")
        r = r[~np.isnan(r)]
    if r.size < 2:
        warn_one_group(r.size)
        return float("nan")
    return float(r.max() - r.min())


def warn_one_group(n: int) -> None:
    """A gap between groups needs two groups with a defined rate; say so (the result is NaN)."""
    warnings.warn(
        f"a gap between groups needs at least two groups with a defined rate, got {n}: the result "
        "is NaN, not 0 (an absent group is only known when labels= lists it)",
        UndefinedRateWarning, stacklevel=4)


def pairwise_meo(tpr: np.ndarray, fpr: np.ndarray, nan_policy: NanPolicy) -> float:
    """``max_{a,a'} (|TPR_a - TPR_a'| + |FPR_a - FPR_a'|) / 2`` over pairs of groups (not two maxima)."""
    ok = ~(np.isnan(tpr) | np.isnan(fpr))
    if not ok.all():
        if nan_policy == "propagate":
            return float("nan")
        tpr, fpr = tpr[ok], fpr[ok]
    if tpr.size < 2:
        warn_one_group(tpr.size)
        return float("nan")
    gaps = 0.5 * (np.abs(tpr[:, None] - tpr[None, :]) + np.abs(fpr[:, None] - fpr[None, :]))
    return float(gaps.max())


def privileged_vs_rest_rates(
    y_true: object,
    y_pred: object,
    sensitive_features: object,
    privileged: object,
    warn: tuple[str, ...] = (),
    names: tuple[str, str] = ("y_true", "y_pred"),
    *,
    soft: bool = False,
    stacklevel: int = 4,
) -> pd.DataFrame:
    """Rates of the privileged group (index 1) and of every other row (index 0).

    A ``privileged`` value that matches no row gives NaN rates for the group
    with one warning naming ``privileged`` and the values present
    (``stacklevel`` counts from the warning's helper, as in :func:`warnings.warn`).
    """
    check_scalar_label(privileged, "privileged")
    check_label_types(sensitive_features, "sensitive_features")
    a = np.asarray(sensitive_features)
    if a.ndim != 1:
        raise ValueError(f"sensitive_features must be one-dimensional, got shape {a.shape}")
    check_no_missing(a, "sensitive_features")
    is_priv = (a == privileged).astype(np.int64)
    if a.size and not is_priv.any():
        warn_privileged_empty(a, privileged, stacklevel=stacklevel)
        warn = ()
    return group_rates(y_true, y_pred, sensitive_features=is_priv, labels=[0, 1], soft=soft,
                       warn=warn, names=names)


def binary_group_rates(
    y_true: object,
    y_pred: object,
    sensitive_features: object,
    *,
    soft: bool = False,
    warn: bool | tuple[str, ...] = True,
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> pd.DataFrame:
    """Rates of groups 0 and 1 of a binary sensitive attribute (anything else is refused)."""
    a = np.asarray(sensitive_features)
    if a.ndim == 1:
        check_no_missing(a, "sensitive_features")
    a = check_binary(a, "sensitive_features")
    return group_rates(y_true, y_pred, sensitive_features=a, labels=[0, 1], soft=soft, warn=warn,
                       names=names)


def check_binary_labels(labels: Sequence[object] | None, what: str) -> None:
    """Refuse ``labels`` other than ``None`` or ``[0, 1]`` for a metric of a binary attribute.

    Raises
    ------
    ValueError
        Naming ``what`` and the labels given.
    """
    if labels is not None and [v.item() if isinstance(v, np.generic) else v for v in labels] != [0, 1]:
        raise ValueError(f"{what} compares group 1 with group 0 of a binary attribute: labels must be "
                         f"None or [0, 1], got {list(labels)!r}")


def rate_gap(
    rate: str,
    y_true: object | None,
    y_pred: object | None,
    *,
    sensitive_features: object,
    compare: Comparison = "max_gap",
    privileged: object = 1,
    labels: Sequence[object] | None = None,
    absolute: bool = False,
    soft: bool = False,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """The gap of one per-group rate between groups, under a named convention.

    Parameters
    ----------
    rate : {"selection_rate", "tpr", "fpr", "accuracy", "ppv", "base_rate"}
        The per-group rate compared (see :func:`~ldpfair.metrics.group_rates`).
    y_true : array-like of {0, 1} or None
        True labels; ``None`` for ``"selection_rate"``, which needs predictions only.
    y_pred : array-like or None
        Hard predictions in {0, 1} (or scores with ``soft=True``); ``None`` for
        ``"base_rate"``, which needs labels only.
    sensitive_features : array-like
        Group of each individual.
    compare : {"privileged_vs_rest", "group1_minus_group0", "max_gap"}
        ``rate(privileged) - rate(all other rows)``; ``rate(1) - rate(0)`` of a
        binary attribute; or ``max_{a,a'} |rate(a) - rate(a')|`` over every pair
        of groups (fairlearn's ``MetricFrame.difference(method="between_groups")``).
    privileged : object
        The privileged group of ``"privileged_vs_rest"``: one label, not a list
        (unused otherwise).
    labels : sequence, optional
        The groups of ``"max_gap"`` (listing one absent from the data makes the gap
        NaN under ``nan_policy="propagate"``); ``None`` or ``[0, 1]`` for
        ``"group1_minus_group0"``; unused by ``"privileged_vs_rest"``.
    absolute : bool
        Return ``|gap|`` (a max gap is already ``>= 0``); ``True`` or ``False``.
    soft : bool
        ``y_pred`` holds scores in ``[0, 1]``; the rates are expectations
        (``True`` or ``False``).
    nan_policy : {"propagate", "omit"}
        Undefined group rates in ``"max_gap"``: NaN result, or groups ignored.

    Returns
    -------
    float
        The gap; NaN (with an :class:`UndefinedRateWarning`) when a rate it needs
        is undefined.

    Examples
    --------
    Selection rates 1/2, 1/2 and 1 in groups 0, 1 and 2:

    >>> p, a = [1, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2]
    >>> rate_gap("selection_rate", None, p, sensitive_features=a, compare="max_gap")
    0.5
    >>> rate_gap("selection_rate", None, p, sensitive_features=a, compare="privileged_vs_rest",
    ...          privileged=0)
    -0.25
    """
    check_choice(rate, GAP_RATES, "rate")
    check_choice(compare, COMPARISONS, "compare")
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    absolute = check_bool(absolute, "absolute")
    soft = check_bool(soft, "soft")
    if y_pred is None and rate != "base_rate":
        raise ValueError(f"rate={rate!r} needs y_pred (only 'base_rate' is a rate of y_true alone)")
    if y_true is None and rate != "selection_rate":
        raise ValueError(f"rate={rate!r} needs y_true (only 'selection_rate' is a rate of y_pred alone)")
    if compare == "group1_minus_group0":
        check_binary_labels(labels, "compare='group1_minus_group0'")
    value = gap(rate, y_true, y_pred, sensitive_features, compare, privileged=privileged,
                labels=labels, soft=soft, nan_policy=nan_policy)
    return abs(value) if absolute else value


def gap(
    rate: str,
    y_true: object | None,
    y_pred: object | None,
    sensitive_features: object,
    compare: str,
    *,
    privileged: object = 1,
    labels: Sequence[object] | None = None,
    soft: bool = False,
    nan_policy: NanPolicy = "propagate",
    names: tuple[str, str] | None = None,
) -> float:
    """:func:`rate_gap` without its argument checks (the concept functions call it directly).

    One of ``y_true`` / ``y_pred`` may be ``None``: the other one is validated
    first and stands in for it (only ``rate``, which does not need the missing
    one, is read).
    """
    p_name = "scores" if soft else "y_pred"
    if y_true is None:
        names = names or (p_name, p_name)
        y_pred = check_scores(y_pred, names[1]) if soft else check_binary(y_pred, names[1])
        y_true = np.zeros(y_pred.shape[0], dtype=np.int64) if soft else y_pred
    elif y_pred is None:
        names = names or ("y_true", "y_true")
        y_true = check_binary(y_true, names[0])
        y_pred, soft = y_true, False
    names = names or ("y_true", p_name)
    warn = (rate,)
    if compare == "max_gap":
        r = group_rates(y_true, y_pred, sensitive_features=sensitive_features, labels=labels,
                        soft=soft, warn=warn, names=names)
        return max_gap(r[rate], nan_policy=nan_policy)
    if compare == "privileged_vs_rest":
        r = privileged_vs_rest_rates(y_true, y_pred, sensitive_features, privileged, warn, names,
                                     soft=soft, stacklevel=5)
    else:
        r = binary_group_rates(y_true, y_pred, sensitive_features, soft=soft, warn=warn,
                               names=names)
    return float(r.at[1, rate] - r.at[0, rate])
