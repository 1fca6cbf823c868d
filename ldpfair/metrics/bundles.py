"""Metric bundles: several named columns of one convention from one pass of group rates.

A bundle returns ``{column: value}`` for one result row. Each computes its
rates once (one :func:`~ldpfair.metrics.groups.group_rates`) and names its
columns as the result files of the paper that uses the convention do.

====================================  ======================================  ==========================
bundle                                columns                                 convention
====================================  ======================================  ==========================
:func:`privileged_vs_rest_metrics`    ``SP_a_1, SP_a_0, SPD, DI, EO_a_1,      privileged vs every other
                                      EO_a_0, EOD, OA_a_1, OA_a_0, OAD``      row, signed (arcolezi2023)
:func:`group_difference_metrics`      ``SP/EO/PE/OA/PRP_maj``, ``_min`` and   group 1 - group 0, signed
                                      ``SD, EOD, PED, OAD, PRD``              (makhlouf2024)
:func:`max_gap_metrics`               ``Delta_SP, Delta_EO, Delta_MEO,        max over pairs of groups,
                                      Delta_EOd``                             >= 0 (ghoukasian2025)
:func:`soft_gap_metrics`              ``soft_SP, soft_EO, abs_soft_SP,        group 1 - group 0 of
                                      abs_soft_EO``                           scores (hamman2023)
:func:`group_rate_columns`            ``n_g, SR_g, TPR_g, FPR_g, ACC_g,       every group ``g``
                                      PPV_g``
====================================  ======================================  ==========================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from .._validation import check_choice, check_real
from .fairness import any_nan_odds, safe_div
from .gaps import NanPolicy, binary_group_rates, max_gap, pairwise_meo, privileged_vs_rest_rates
from .groups import group_rates

__all__ = [
    "GROUP_RATE_NAMES",
    "group_difference_metrics",
    "group_rate_columns",
    "max_gap_metrics",
    "privileged_vs_rest_columns",
    "privileged_vs_rest_metrics",
    "soft_gap_metrics",
]

#: Prefix of the per-group columns (``<prefix>_<group>``) -> column of :func:`~ldpfair.metrics.group_rates`.
GROUP_RATE_NAMES = {
    "n": "n",
    "SR": "selection_rate",
    "TPR": "tpr",
    "FPR": "fpr",
    "ACC": "accuracy",
    "PPV": "ppv",
}


def privileged_vs_rest_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    privileged: object = 1,
    zero_division: Literal["nan", "raise"] = "nan",
) -> dict[str, float]:
    """Selection rate, TPR and accuracy of the privileged group against every other row.

    Returns ``SP_a_1, SP_a_0, SPD, DI, EO_a_1, EO_a_0, EOD, OA_a_1, OA_a_0, OAD``
    where ``a_1`` is the privileged group and ``a_0`` every other row;
    differences are ``a_1 - a_0`` and ``DI = SP_a_0 / SP_a_1`` (the columns of
    arcolezi2023's result files). ``SPD``, ``EOD`` and ``OAD`` equal
    :func:`~ldpfair.metrics.rate_gap` with ``compare="privileged_vs_rest"``.
    ``zero_division="raise"`` raises on a privileged group without predicted
    positive (the authors' plain division) instead of a NaN ``DI``.
    """
    check_choice(zero_division, ("nan", "raise"), "zero_division")
    r = privileged_vs_rest_rates(y_true, y_pred, sensitive_features, privileged,
                                 ("selection_rate", "tpr", "accuracy"))
    return privileged_vs_rest_columns(
        r.at[1, "selection_rate"], r.at[0, "selection_rate"], r.at[1, "tpr"], r.at[0, "tpr"],
        r.at[1, "accuracy"], r.at[0, "accuracy"], zero_division)


def privileged_vs_rest_columns(sp1: float, sp0: float, eo1: float, eo0: float, oa1: float, oa0: float,
                               zero_division: Literal["nan", "raise"] = "nan") -> dict[str, float]:
    """The columns of :func:`privileged_vs_rest_metrics` from the privileged (1) and other (0) rates."""
    return {
        "SP_a_1": float(sp1),
        "SP_a_0": float(sp0),
        "SPD": float(sp1 - sp0),
        "DI": safe_div(sp0, sp1, "DI", zero_division),
        "EO_a_1": float(eo1),
        "EO_a_0": float(eo0),
        "EOD": float(eo1 - eo0),
        "OA_a_1": float(oa1),
        "OA_a_0": float(oa0),
        "OAD": float(oa1 - oa0),
    }


def group_difference_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    ppv_zero_division: float = float("nan"),
) -> dict[str, float]:
    """Per-group rates of a binary attribute and their signed differences ``group 1 - group 0``.

    The groups are decided by coding: ``maj`` is A = 1 and ``min`` is A = 0 (not
    by size), as in makhlouf2024's result files. Returns ``SP_maj, SP_min, SD,
    EO_maj, EO_min, EOD, PE_maj, PE_min, PED, OA_maj, OA_min, OAD, PRP_maj,
    PRP_min, PRD`` where SP is the selection rate, EO the TPR, PE the FPR, OA the
    accuracy and PRP the PPV. Each difference equals
    :func:`~ldpfair.metrics.rate_gap` with ``compare="group1_minus_group0"``.

    Parameters
    ----------
    ppv_zero_division : float
        PPV of a group with no predicted positive: NaN (default, with a warning)
        or a number in ``[0, 1]``; the authors' ``sklearn.metrics.precision_score``
        returned ``0.0``.
    """
    if not (isinstance(ppv_zero_division, float) and np.isnan(ppv_zero_division)):
        ppv_zero_division = check_real(ppv_zero_division, "ppv_zero_division", low=0.0, high=1.0,
                                       why=" or NaN")
    r = binary_group_rates(y_true, y_pred, sensitive_features)
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


def max_gap_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
    nan_policy: NanPolicy = "propagate",
) -> dict[str, float]:
    """``Delta_SP, Delta_EO, Delta_MEO, Delta_EOd``: gaps as a max over pairs of groups (``>= 0``).

    The columns of :func:`~ldpfair.metrics.max_gap_statistical_parity`,
    :func:`~ldpfair.metrics.max_gap_equal_opportunity`,
    :func:`~ldpfair.metrics.max_gap_mean_equalized_odds` and
    :func:`~ldpfair.metrics.max_gap_equalized_odds` (ghoukasian2025's
    Definitions 3-5), from one pass; any number of groups.
    """
    check_choice(nan_policy, ("propagate", "omit"), "nan_policy")
    r = group_rates(y_true, y_pred, sensitive_features=sensitive_features, labels=labels,
                    warn=("selection_rate", "tpr", "fpr"))
    tpr, fpr = r["tpr"].to_numpy(), r["fpr"].to_numpy()
    d_tpr = max_gap(tpr, nan_policy=nan_policy)
    d_fpr = max_gap(fpr, nan_policy=nan_policy)
    return {
        "Delta_SP": max_gap(r["selection_rate"], nan_policy=nan_policy),
        "Delta_EO": d_tpr,
        "Delta_MEO": pairwise_meo(tpr, fpr, nan_policy),
        "Delta_EOd": float("nan") if any_nan_odds(r, nan_policy) else float(max(d_tpr, d_fpr)),
    }


def soft_gap_metrics(
    y_true: object, scores: object, *, sensitive_features: object
) -> dict[str, float]:
    """``soft_SP, soft_EO, abs_soft_SP, abs_soft_EO``: group 1 - group 0 of a soft classifier.

    ``soft_SP = E[h | A=1] - E[h | A=0]`` and ``soft_EO = E[h | A=1, Y=1] -
    E[h | A=0, Y=1]`` of scores ``h`` in ``[0, 1]`` (hamman2023 Definitions
    2.1-2.2), and their absolute values.
    """
    r = binary_group_rates(y_true, scores, sensitive_features, soft=True,
                           warn=("selection_rate", "tpr"), names=("y_true", "scores"))
    sp = float(r.at[1, "selection_rate"] - r.at[0, "selection_rate"])
    eo = float(r.at[1, "tpr"] - r.at[0, "tpr"])
    return {"soft_SP": sp, "soft_EO": eo, "abs_soft_SP": abs(sp), "abs_soft_EO": abs(eo)}


def group_rate_columns(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    labels: Sequence[object] | None = None,
) -> dict[str, float]:
    """Every group's size and rates as flat columns ``n_g, SR_g, TPR_g, FPR_g, ACC_g, PPV_g``.

    One :func:`~ldpfair.metrics.group_rates` call (with its warnings); ``n_g`` is
    an ``int``, the rates floats (NaN when undefined). The groups are ``labels``
    (default: those present), in order.
    """
    rates = group_rates(y_true, y_pred, sensitive_features=sensitive_features, labels=labels)
    out: dict[str, float] = {}
    for g in rates.index:
        for prefix, col in GROUP_RATE_NAMES.items():
            value = rates.at[g, col]
            out[f"{prefix}_{g}"] = int(value) if prefix == "n" else float(value)
    return out
