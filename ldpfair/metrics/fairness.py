"""The fairness metrics of the five papers, each with its own convention named.

The papers disagree on sign, on which groups are compared and on how more than
two groups are aggregated. Each function below states its convention in its
name and docstring; nothing is silently made absolute or re-signed.

========================  ==========================================  =================
paper                     metric(s)                                   convention
========================  ==========================================  =================
arcolezi2023              SPD, DI, EOD, OAD                           privileged (coded
                                                                      ``privileged``) vs
                                                                      *all other* rows;
                                                                      signed priv - rest;
                                                                      DI = SP_rest/SP_priv
makhlouf2024              SD, EOD, PED, OAD, PRD                      group 1 ("maj") -
                                                                      group 0 ("min"),
                                                                      signed
ghoukasian2025            Delta, Delta' (data), Delta_SP, Delta_EO,   max over all pairs
                          Delta_MEO, Delta_EOd                        of groups, >= 0
hamman2023                SP, EO of a soft classifier, and |SP|,|EO|  E[h|A=1] - E[h|A=0]
xu2019                    RD                                          |P(1|S=1)-P(1|S=0)|
========================  ==========================================  =================

Undefined rates are NaN with an :class:`~ldpfair.metrics.groups.UndefinedRateWarning`
naming the group; options reproduce the authors' deviations (``zero_division``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .._validation import check_choice
from .groups import (
    UndefinedRateWarning,
    check_binary,
    check_no_missing,
    check_scores,
    group_rates,
    warn_privileged_empty,
)

__all__ = [
    "statistical_parity_difference",
    "disparate_impact",
    "equal_opportunity_difference",
    "overall_accuracy_difference",
    "arcolezi2023_metrics",
    "arcolezi2023_columns",
    "makhlouf2024_metrics",
    "data_unfairness",
    "data_unfairness_pairwise",
    "max_gap",
    "max_gap_statistical_parity",
    "max_gap_equal_opportunity",
    "max_gap_mean_equalized_odds",
    "max_gap_equalized_odds",
    "ghoukasian2025_metrics",
    "soft_statistical_parity",
    "soft_equal_opportunity",
    "hamman2023_metrics",
    "risk_difference",
    "max_gap_average_odds",
]

NanPolicy = Literal["propagate", "omit"]


# --------------------------------------------------------------------------- helpers
def _priv_rest(
    y_true: object,
    y_pred: object,
    sensitive_features: object,
    privileged: object,
    warn: tuple[str, ...] = (),
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> pd.DataFrame:
    """Rates of the privileged group (index 1) and of every other row (index 0).

    A ``privileged`` value that matches no row gives NaN rates for the group
    with one warning naming ``privileged`` and the values present.
    """
    a = np.asarray(sensitive_features)
    if a.ndim != 1:
        raise ValueError(f"sensitive_features must be one-dimensional, got shape {a.shape}")
    check_no_missing(a, "sensitive_features")
    is_priv = (a == privileged).astype(np.int64)
    if a.size and not is_priv.any():
        warn_privileged_empty(a, privileged, stacklevel=4)
        warn = ()
    return group_rates(y_true, y_pred, sensitive_features=is_priv, labels=[0, 1], warn=warn,
                       names=names)


def _binary_groups(
    y_true: object,
    y_pred: object,
    sensitive_features: object,
    *,
    soft: bool = False,
    warn: bool | tuple[str, ...] = True,
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> pd.DataFrame:
    """Rates of groups 0 and 1 of a binary sensitive attribute."""
    a = np.asarray(sensitive_features)
    if a.ndim == 1:
        check_no_missing(a, "sensitive_features")
    a = check_binary(a, "sensitive_features")
    return group_rates(y_true, y_pred, sensitive_features=a, labels=[0, 1], soft=soft, warn=warn,
                       names=names)


def _safe_div(num: float, den: float, what: str, zero_division: str) -> float:
    if den == 0 or np.isnan(den) or np.isnan(num):
        if zero_division == "raise" and den == 0:
            raise ZeroDivisionError(f"{what}: denominator is 0")
        if den == 0:
            warnings.warn(f"{what} is undefined (denominator 0); set to NaN", UndefinedRateWarning,
                          stacklevel=3)
        return float("nan")
    return float(num / den)


# --------------------------------------------------------------------------- arcolezi2023
def statistical_parity_difference(
    y_pred: object, *, sensitive_features: object, privileged: object = 1
) -> float:
    """arcolezi2023 Eq. 2: ``SPD = P(Yhat=1 | privileged) - P(Yhat=1 | rest)`` (signed).

    "rest" is every row whose attribute differs from ``privileged`` (the authors
    compare the one-hot column ``<A>_1`` against all other rows).
    """
    y_pred = check_binary(y_pred, "y_pred")
    r = _priv_rest(y_pred, y_pred, sensitive_features, privileged, ("selection_rate",),
                   names=("y_pred", "y_pred"))
    return float(r.at[1, "selection_rate"] - r.at[0, "selection_rate"])


def disparate_impact(
    y_pred: object,
    *,
    sensitive_features: object,
    privileged: object = 1,
    zero_division: Literal["nan", "raise"] = "nan",
) -> float:
    """arcolezi2023 Eq. 1: ``DI = P(Yhat=1 | rest) / P(Yhat=1 | privileged)``.

    ``zero_division="nan"`` (default) returns NaN with a warning when the
    privileged group has no predicted positive; ``"raise"`` reproduces the
    authors' plain Python division (``ZeroDivisionError``).
    """
    check_choice(zero_division, ("nan", "raise"), "zero_division")
    y_pred = check_binary(y_pred, "y_pred")
    r = _priv_rest(y_pred, y_pred, sensitive_features, privileged, ("selection_rate",),
                   names=("y_pred", "y_pred"))
    return _safe_div(r.at[0, "selection_rate"], r.at[1, "selection_rate"], "DI", zero_division)


def equal_opportunity_difference(
    y_true: object, y_pred: object, *, sensitive_features: object, privileged: object = 1
) -> float:
    """arcolezi2023 Eq. 3: ``EOD = TPR(privileged) - TPR(rest)`` (signed)."""
    r = _priv_rest(y_true, y_pred, sensitive_features, privileged, ("tpr",))
    return float(r.at[1, "tpr"] - r.at[0, "tpr"])


def overall_accuracy_difference(
    y_true: object, y_pred: object, *, sensitive_features: object, privileged: object = 1
) -> float:
    """arcolezi2023 Eq. 4: ``OAD = accuracy(privileged) - accuracy(rest)`` (signed)."""
    r = _priv_rest(y_true, y_pred, sensitive_features, privileged, ("accuracy",))
    return float(r.at[1, "accuracy"] - r.at[0, "accuracy"])


def arcolezi2023_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    privileged: object = 1,
    zero_division: Literal["nan", "raise"] = "nan",
) -> dict[str, float]:
    """All fairness columns of arcolezi2023's result files, with their names.

    Returns ``SP_a_1, SP_a_0, SPD, DI, EO_a_1, EO_a_0, EOD, OA_a_1, OA_a_0, OAD``
    where ``a_1`` is the privileged group and ``a_0`` every other row;
    differences are ``a_1 - a_0`` and ``DI = SP_a_0 / SP_a_1``.
    """
    check_choice(zero_division, ("nan", "raise"), "zero_division")
    r = _priv_rest(y_true, y_pred, sensitive_features, privileged,
                   ("selection_rate", "tpr", "accuracy"))
    return arcolezi2023_columns(r.at[1, "selection_rate"], r.at[0, "selection_rate"], r.at[1, "tpr"],
                                r.at[0, "tpr"], r.at[1, "accuracy"], r.at[0, "accuracy"], zero_division)


def arcolezi2023_columns(sp1: float, sp0: float, eo1: float, eo0: float, oa1: float, oa0: float,
                         zero_division: Literal["nan", "raise"] = "nan") -> dict[str, float]:
    """arcolezi2023's named fairness columns from the privileged (``1``) and other (``0``) rates."""
    return {
        "SP_a_1": float(sp1),
        "SP_a_0": float(sp0),
        "SPD": float(sp1 - sp0),
        "DI": _safe_div(sp0, sp1, "DI", zero_division),
        "EO_a_1": float(eo1),
        "EO_a_0": float(eo0),
        "EOD": float(eo1 - eo0),
        "OA_a_1": float(oa1),
        "OA_a_0": float(oa0),
        "OAD": float(oa1 - oa0),
    }


# --------------------------------------------------------------------------- makhlouf2024
def makhlouf2024_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    ppv_zero_division: float = float("nan"),
) -> dict[str, float]:
    """makhlouf2024 Eqs. 2-6: per-group rates and ``group 1 - group 0`` differences.

    Groups are decided by coding: ``maj`` is A = 1 and ``min`` is A = 0 (not by
    size). Returns ``SP_maj, SP_min, SD, EO_maj, EO_min, EOD, PE_maj, PE_min,
    PED, OA_maj, OA_min, OAD, PRP_maj, PRP_min, PRD`` where SP is the selection
    rate, EO the TPR, PE the FPR, OA the accuracy and PRP the PPV.

    Parameters
    ----------
    ppv_zero_division : float
        PPV of a group with no predicted positive. Default NaN (with a warning);
        the authors' ``sklearn.metrics.precision_score`` returned ``0.0``.
    """
    r = _binary_groups(y_true, y_pred, sensitive_features)
    ppv = r["ppv"].to_numpy(copy=True)
    ppv[(r["n"].to_numpy() > 0) & np.isnan(ppv)] = ppv_zero_division
    out: dict[str, float] = {}
    for short, col in (("SP", "selection_rate"), ("EO", "tpr"), ("PE", "fpr"), ("OA", "accuracy")):
        out[f"{short}_maj"] = float(r.at[1, col])
        out[f"{short}_min"] = float(r.at[0, col])
    out["PRP_maj"], out["PRP_min"] = float(ppv[1]), float(ppv[0])
    out["SD"] = out["SP_maj"] - out["SP_min"]
    out["EOD"] = out["EO_maj"] - out["EO_min"]
    out["PED"] = out["PE_maj"] - out["PE_min"]
    out["OAD"] = out["OA_maj"] - out["OA_min"]
    out["PRD"] = out["PRP_maj"] - out["PRP_min"]
    return out


# --------------------------------------------------------------------------- ghoukasian2025
def max_gap(rates: object, *, nan_policy: NanPolicy = "propagate") -> float:
    """Largest absolute difference ``max_{a,a'} |r_a - r_a'|`` between per-group rates.

    Parameters
    ----------
    rates : array-like of float
        One rate per group.
    nan_policy : {"propagate", "omit"}
        With ``"propagate"`` an undefined (NaN) group rate makes the result NaN;
        ``"omit"`` ignores such groups. Fewer than two groups left gives NaN with
        an :class:`UndefinedRateWarning` (a single group is not "perfectly fair").
    """
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = np.asarray(rates, dtype=np.float64)
    if np.isnan(r).any():
        if nan_policy == "propagate":
            return float("nan")
        r = r[~np.isnan(r)]
    if r.size < 2:
        _warn_one_group(r.size)
        return float("nan")
    return float(r.max() - r.min())


def _warn_one_group(n: int) -> None:
    """A gap between groups needs two groups with a defined rate; say so (the result is NaN)."""
    warnings.warn(
        f"a gap between groups needs at least two groups with a defined rate, got {n}: the result "
        "is NaN, not 0 (an absent group is only known when labels= lists it)",
        UndefinedRateWarning, stacklevel=4)


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
    """ghoukasian2025 Definition 1: ``Delta = max_a |P(Y=1|A=a) / P(Y=1) - 1|``."""
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = _rates(y, y, sensitive_features, labels, ("base_rate",), names=("y", "y"))
    if len(r) < 2:
        _warn_one_group(len(r))
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
    """ghoukasian2025 Definition 2: ``Delta' = max_{a,a'} |P(Y=1|a) - P(Y=1|a')|``."""
    r = _rates(y, y, sensitive_features, labels, ("base_rate",), names=("y", "y"))
    return max_gap(r["base_rate"], nan_policy=nan_policy)


def max_gap_statistical_parity(
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """ghoukasian2025 Definition 3: ``Delta_SP = max_{a,a'} |P(Yhat=1|a) - P(Yhat=1|a')|``.

    Equals fairlearn's ``demographic_parity_difference(method="between_groups")``.
    """
    y_pred = check_binary(y_pred, "y_pred")
    r = _rates(y_pred, y_pred, sensitive_features, labels, ("selection_rate",), names=("y_pred", "y_pred"))
    return max_gap(r["selection_rate"], nan_policy=nan_policy)


def max_gap_equal_opportunity(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """ghoukasian2025 Definition 4: ``Delta_EO = max_{a,a'} |TPR_a - TPR_a'|``."""
    r = _rates(y_true, y_pred, sensitive_features, labels, ("tpr",))
    return max_gap(r["tpr"], nan_policy=nan_policy)


def _pairwise_meo(tpr: np.ndarray, fpr: np.ndarray, nan_policy: NanPolicy) -> float:
    ok = ~(np.isnan(tpr) | np.isnan(fpr))
    if not ok.all():
        if nan_policy == "propagate":
            return float("nan")
        tpr, fpr = tpr[ok], fpr[ok]
    if tpr.size < 2:
        _warn_one_group(tpr.size)
        return float("nan")
    gaps = 0.5 * (np.abs(tpr[:, None] - tpr[None, :]) + np.abs(fpr[:, None] - fpr[None, :]))
    return float(gaps.max())


def max_gap_mean_equalized_odds(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """ghoukasian2025 Definition 5: ``Delta_MEO = max_{a,a'} (|dTPR| + |dFPR|) / 2``.

    The maximum is over *pairs* (both gaps measured on the same pair), which is
    not the mean of the two separate max-min gaps when there are more than two
    groups.
    """
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = _rates(y_true, y_pred, sensitive_features, labels, ("tpr", "fpr"))
    return _pairwise_meo(r["tpr"].to_numpy(), r["fpr"].to_numpy(), nan_policy)


def max_gap_equalized_odds(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> float:
    """ghoukasian2025 Definition 5: ``Delta_EOd = max_{a,a'} max(|dTPR|, |dFPR|)``.

    Equals fairlearn's ``equalized_odds_difference(agg="worst_case")``.
    """
    r = _rates(y_true, y_pred, sensitive_features, labels, ("tpr", "fpr"))
    return max(
        max_gap(r["tpr"], nan_policy=nan_policy), max_gap(r["fpr"], nan_policy=nan_policy)
    ) if not _any_nan(r, nan_policy) else float("nan")


def _any_nan(r: pd.DataFrame, nan_policy: NanPolicy) -> bool:
    return nan_policy == "propagate" and bool(r[["tpr", "fpr"]].isna().to_numpy().any())


def ghoukasian2025_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> dict[str, float]:
    """``Delta_SP, Delta_EO, Delta_MEO, Delta_EOd`` (max over pairs of groups, >= 0)."""
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = _rates(y_true, y_pred, sensitive_features, labels, ("selection_rate", "tpr", "fpr"))
    tpr, fpr = r["tpr"].to_numpy(), r["fpr"].to_numpy()
    d_tpr = max_gap(tpr, nan_policy=nan_policy)
    d_fpr = max_gap(fpr, nan_policy=nan_policy)
    return {
        "Delta_SP": max_gap(r["selection_rate"], nan_policy=nan_policy),
        "Delta_EO": d_tpr,
        "Delta_MEO": _pairwise_meo(tpr, fpr, nan_policy),
        "Delta_EOd": float("nan") if _any_nan(r, nan_policy) else float(max(d_tpr, d_fpr)),
    }


# --------------------------------------------------------------------------- hamman2023
def soft_statistical_parity(
    scores: object, *, sensitive_features: object, absolute: bool = False
) -> float:
    """hamman2023 Definition 2.1: ``SP = E[h(X) | A=1] - E[h(X) | A=0]``.

    ``scores`` are the outputs ``h(x)`` in ``[0, 1]`` of a binary or logistic
    classifier. ``absolute=True`` gives ``|SP|``.
    """
    s = check_scores(scores, "scores")
    r = _binary_groups(np.zeros(s.shape[0], dtype=np.int64), s, sensitive_features, soft=True,
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
    """hamman2023 Definition 2.2: ``EO = E[h | A=1, Y=1] - E[h | A=0, Y=1]``.

    ``absolute=True`` gives ``|EO|``.
    """
    r = _binary_groups(y_true, scores, sensitive_features, soft=True, warn=("tpr",),
                       names=("y_true", "scores"))
    value = float(r.at[1, "tpr"] - r.at[0, "tpr"])
    return abs(value) if absolute else value


def hamman2023_metrics(
    y_true: object, scores: object, *, sensitive_features: object
) -> dict[str, float]:
    """``SP, EO, |SP|, |EO|`` of a soft classifier (hamman2023 Definitions 2.1-2.2)."""
    r = _binary_groups(y_true, scores, sensitive_features, soft=True,
                       warn=("selection_rate", "tpr"), names=("y_true", "scores"))
    sp = float(r.at[1, "selection_rate"] - r.at[0, "selection_rate"])
    eo = float(r.at[1, "tpr"] - r.at[0, "tpr"])
    return {"soft_SP": sp, "soft_EO": eo, "abs_soft_SP": abs(sp), "abs_soft_EO": abs(eo)}


# --------------------------------------------------------------------------- xu2019
def risk_difference(y_pred: object, *, sensitive_features: object) -> float:
    """xu2019 Eq. 9: ``RD = |P(Yhat=1 | S=1) - P(Yhat=1 | S=0)|`` (binary S)."""
    y_pred = check_binary(y_pred, "y_pred")
    r = _binary_groups(y_pred, y_pred, sensitive_features, warn=("selection_rate",),
                       names=("y_pred", "y_pred"))
    return float(abs(r.at[1, "selection_rate"] - r.at[0, "selection_rate"]))


# --------------------------------------------------------------------------- FairBalance (Table II)
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
