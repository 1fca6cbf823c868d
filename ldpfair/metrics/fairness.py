"""Named group-fairness metrics: :func:`~ldpfair.metrics.gaps.rate_gap` under fixed conventions.

Each function is a concept with its convention in its name; most are one
:func:`~ldpfair.metrics.gaps.rate_gap` call (stated in the docstring, and
checked in the tests). The bundles that compute several columns at once are in
:mod:`~ldpfair.metrics.bundles`; the bundle of each paper is in its chapter
package (``ldpfair.papers.<paper>.metrics``).

=====================================  =========================  ==============================
function                               rate(s)                    convention (``compare``)
=====================================  =========================  ==============================
:func:`statistical_parity_difference`  selection rate             ``privileged_vs_rest``, signed
:func:`disparate_impact`               selection rate             ratio rest / privileged
:func:`equal_opportunity_difference`   TPR                        ``privileged_vs_rest``, signed
:func:`overall_accuracy_difference`    accuracy                   ``privileged_vs_rest``, signed
:func:`risk_difference`                selection rate             ``group1_minus_group0``, absolute
:func:`soft_statistical_parity`        E[h]                       ``group1_minus_group0``, soft
:func:`soft_equal_opportunity`         E[h | Y=1]                 ``group1_minus_group0``, soft
:func:`max_gap_statistical_parity`     selection rate             ``max_gap``
:func:`max_gap_equal_opportunity`      TPR                        ``max_gap``
:func:`max_gap_equalized_odds`         TPR and FPR                larger of the two max gaps
:func:`max_gap_mean_equalized_odds`    TPR and FPR                max over pairs of the mean gap
:func:`max_gap_average_odds`           (TPR + FPR) / 2            ``max_gap`` (FairBalance)
:func:`data_unfairness`                base rate                  max deviation from P(Y=1)
:func:`data_unfairness_pairwise`       base rate                  ``max_gap``
=====================================  =========================  ==============================

The privileged-vs-rest metrics are arcolezi2023's (Eqs. 1-4), the group 1 -
group 0 ones makhlouf2024's, hamman2023's and xu2019's, the max gaps
ghoukasian2025's (Definitions 1-5). Undefined rates are NaN with an
:class:`~ldpfair.metrics.groups.UndefinedRateWarning` naming the group; options
reproduce the authors' deviations (``zero_division``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .._validation import check_bool, check_choice
from .gaps import (
    NanPolicy,
    binary_group_rates,
    gap,
    max_gap,
    pairwise_meo,
    privileged_vs_rest_rates,
    warn_one_group,
)
from .groups import UndefinedRateWarning, check_binary, check_scores, group_rates

__all__ = [
    "statistical_parity_difference",
    "disparate_impact",
    "equal_opportunity_difference",
    "overall_accuracy_difference",
    "data_unfairness",
    "data_unfairness_pairwise",
    "max_gap",
    "max_gap_statistical_parity",
    "max_gap_equal_opportunity",
    "max_gap_mean_equalized_odds",
    "max_gap_equalized_odds",
    "soft_statistical_parity",
    "soft_equal_opportunity",
    "risk_difference",
    "max_gap_average_odds",
]


def safe_div(num: float, den: float, what: str, zero_division: str) -> float:
    """``num / den``; if ``den`` is 0: NaN with a warning, or ``ZeroDivisionError`` (``"raise"``)."""
    if den == 0 or np.isnan(den) or np.isnan(num):
        if zero_division == "raise" and den == 0:
            raise ZeroDivisionError(f"{what}: denominator is 0")
        if den == 0:
            warnings.warn(f"{what} is undefined (denominator 0); set to NaN", UndefinedRateWarning,
                          stacklevel=3)
        return float("nan")
    return float(num / den)


# --------------------------------------------------------------------------- privileged vs rest
def statistical_parity_difference(
    y_pred: object, *, sensitive_features: object, privileged: object = 1
) -> float:
    """``SPD = P(Yhat=1 | privileged) - P(Yhat=1 | rest)`` (signed; arcolezi2023 Eq. 2).

    "rest" is every row whose attribute differs from ``privileged`` (the authors
    compare the one-hot column ``<A>_1`` against all other rows). Equals
    ``rate_gap("selection_rate", None, y_pred, compare="privileged_vs_rest")``.
    """
    return gap("selection_rate", None, y_pred, sensitive_features, "privileged_vs_rest",
               privileged=privileged)


def disparate_impact(
    y_pred: object,
    *,
    sensitive_features: object,
    privileged: object = 1,
    zero_division: Literal["nan", "raise"] = "nan",
) -> float:
    """``DI = P(Yhat=1 | rest) / P(Yhat=1 | privileged)`` (arcolezi2023 Eq. 1).

    ``zero_division="nan"`` (default) returns NaN with a warning when the
    privileged group has no predicted positive; ``"raise"`` reproduces the
    authors' plain Python division (``ZeroDivisionError``).
    """
    check_choice(zero_division, ("nan", "raise"), "zero_division")
    y_pred = check_binary(y_pred, "y_pred")
    r = privileged_vs_rest_rates(y_pred, y_pred, sensitive_features, privileged, ("selection_rate",),
                                 names=("y_pred", "y_pred"))
    return safe_div(r.at[0, "selection_rate"], r.at[1, "selection_rate"], "DI", zero_division)


def equal_opportunity_difference(
    y_true: object, y_pred: object, *, sensitive_features: object, privileged: object = 1
) -> float:
    """``EOD = TPR(privileged) - TPR(rest)`` (signed; arcolezi2023 Eq. 3).

    Equals ``rate_gap("tpr", y_true, y_pred, compare="privileged_vs_rest")``.
    """
    return gap("tpr", y_true, y_pred, sensitive_features, "privileged_vs_rest", privileged=privileged)


def overall_accuracy_difference(
    y_true: object, y_pred: object, *, sensitive_features: object, privileged: object = 1
) -> float:
    """``OAD = accuracy(privileged) - accuracy(rest)`` (signed; arcolezi2023 Eq. 4).

    Equals ``rate_gap("accuracy", y_true, y_pred, compare="privileged_vs_rest")``.
    """
    return gap("accuracy", y_true, y_pred, sensitive_features, "privileged_vs_rest",
               privileged=privileged)


# --------------------------------------------------------------------------- max over pairs of groups
def _rates(
    y_true: object,
    y_pred: object,
    sensitive_features: object,
    labels: Sequence[object] | None,
    warn: tuple[str, ...],
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> pd.DataFrame:
    return group_rates(y_true, y_pred, sensitive_features=sensitive_features, labels=labels,
                       warn=warn, names=names)


def data_unfairness(
    y: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """``Delta = max_a |P(Y=1|A=a) / P(Y=1) - 1|`` of the labels (ghoukasian2025 Definition 1)."""
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = _rates(y, y, sensitive_features, labels, ("base_rate",), names=("y", "y"))
    if len(r) < 2:
        warn_one_group(len(r))
        return float("nan")
    p1 = float(np.mean(check_binary(y, "y")))
    if p1 == 0:
        warnings.warn("data_unfairness is undefined (P(Y=1) = 0); set to NaN",
                      UndefinedRateWarning, stacklevel=2)
        return float("nan")
    dev = np.abs(r["base_rate"].to_numpy() / p1 - 1.0)
    if np.isnan(dev).any():
        if nan_policy == "propagate":
            return float("nan")
        dev = dev[~np.isnan(dev)]
    return float(dev.max()) if dev.size else float("nan")


def data_unfairness_pairwise(
    y: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """``Delta' = max_{a,a'} |P(Y=1|a) - P(Y=1|a')|`` (ghoukasian2025 Definition 2).

    Equals ``rate_gap("base_rate", y, None, compare="max_gap")``.
    """
    return gap("base_rate", y, None, sensitive_features, "max_gap", labels=labels,
               nan_policy=nan_policy, names=("y", "y"))


def max_gap_statistical_parity(
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """``Delta_SP = max_{a,a'} |P(Yhat=1|a) - P(Yhat=1|a')|`` (ghoukasian2025 Definition 3).

    Equals ``rate_gap("selection_rate", None, y_pred, compare="max_gap")`` and
    fairlearn's ``demographic_parity_difference(method="between_groups")``.
    """
    return gap("selection_rate", None, y_pred, sensitive_features, "max_gap", labels=labels,
               nan_policy=nan_policy)


def max_gap_equal_opportunity(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """``Delta_EO = max_{a,a'} |TPR_a - TPR_a'|`` (ghoukasian2025 Definition 4).

    Equals ``rate_gap("tpr", y_true, y_pred, compare="max_gap")``.
    """
    return gap("tpr", y_true, y_pred, sensitive_features, "max_gap", labels=labels,
               nan_policy=nan_policy)


def max_gap_mean_equalized_odds(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """``Delta_MEO = max_{a,a'} (|dTPR| + |dFPR|) / 2`` (ghoukasian2025 Definition 5).

    The maximum is over *pairs* (both gaps measured on the same pair), which is
    not the mean of the two separate max-min gaps when there are more than two
    groups.
    """
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = _rates(y_true, y_pred, sensitive_features, labels, ("tpr", "fpr"))
    return pairwise_meo(r["tpr"].to_numpy(), r["fpr"].to_numpy(), nan_policy)


def max_gap_equalized_odds(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """``Delta_EOd = max_{a,a'} max(|dTPR|, |dFPR|)`` (ghoukasian2025 Definition 5).

    Equals fairlearn's ``equalized_odds_difference(agg="worst_case")``.
    """
    r = _rates(y_true, y_pred, sensitive_features, labels, ("tpr", "fpr"))
    return max(
        max_gap(r["tpr"], nan_policy=nan_policy), max_gap(r["fpr"], nan_policy=nan_policy)
    ) if not any_nan_odds(r, nan_policy) else float("nan")


def any_nan_odds(r: pd.DataFrame, nan_policy: NanPolicy) -> bool:
    """Whether an undefined TPR or FPR makes an equalized-odds gap NaN under ``nan_policy``."""
    return nan_policy == "propagate" and bool(r[["tpr", "fpr"]].isna().to_numpy().any())


def max_gap_average_odds(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """FairBalance's mAOD: ``max_a (TPR_a + FPR_a)/2 - min_a (TPR_a + FPR_a)/2``.

    Yu, Chakraborty & Menzies (2024), ``Metrics.aod()``; the authors' code of ghoukasian2025 reports it
    as "Delta_MEO" in Table II. It is *not* :func:`max_gap_mean_equalized_odds`: opposite TPR and FPR
    gaps cancel here (``|dTPR + dFPR| / 2 <= (|dTPR| + |dFPR|) / 2``).
    """
    r = _rates(y_true, y_pred, sensitive_features, labels, ("tpr", "fpr"))
    return max_gap(0.5 * (r["tpr"].to_numpy() + r["fpr"].to_numpy()), nan_policy=nan_policy)


# --------------------------------------------------------------------------- group 1 - group 0
def soft_statistical_parity(
    scores: object, *, sensitive_features: object, absolute: bool = False
) -> float:
    """``SP = E[h(X) | A=1] - E[h(X) | A=0]`` of a soft classifier (hamman2023 Definition 2.1).

    ``scores`` are the outputs ``h(x)`` in ``[0, 1]`` of a binary or logistic
    classifier. ``absolute=True`` gives ``|SP|``. Equals
    ``rate_gap("selection_rate", None, scores, compare="group1_minus_group0", soft=True)``.
    """
    absolute = check_bool(absolute, "absolute")
    s = check_scores(scores, "scores")
    r = binary_group_rates(np.zeros(s.shape[0], dtype=np.int64), s, sensitive_features, soft=True,
                           warn=False, names=("scores", "scores"))
    sp1, sp0 = r.at[1, "selection_rate"], r.at[0, "selection_rate"]
    for group, value in ((1, sp1), (0, sp0)):
        if np.isnan(value):
            warnings.warn(f"selection_rate of group {group} is undefined (the group is empty); "
                          "set to NaN", UndefinedRateWarning, stacklevel=2)
    value = float(sp1 - sp0)
    return abs(value) if absolute else value


def soft_equal_opportunity(
    y_true: object, scores: object, *, sensitive_features: object, absolute: bool = False
) -> float:
    """``EO = E[h | A=1, Y=1] - E[h | A=0, Y=1]`` of a soft classifier (hamman2023 Definition 2.2).

    ``absolute=True`` gives ``|EO|``. Equals
    ``rate_gap("tpr", y_true, scores, compare="group1_minus_group0", soft=True)``.
    """
    absolute = check_bool(absolute, "absolute")
    value = gap("tpr", y_true, scores, sensitive_features, "group1_minus_group0", soft=True)
    return abs(value) if absolute else value


def risk_difference(y_pred: object, *, sensitive_features: object) -> float:
    """``RD = |P(Yhat=1 | S=1) - P(Yhat=1 | S=0)|`` of a binary ``S`` (xu2019 Eq. 9).

    Equals ``rate_gap("selection_rate", None, y_pred, compare="group1_minus_group0", absolute=True)``.
    """
    return abs(gap("selection_rate", None, y_pred, sensitive_features, "group1_minus_group0"))
