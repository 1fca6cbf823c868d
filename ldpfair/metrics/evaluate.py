"""Every metric of the five papers at once, as one flat result row."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .fairness import (
    arcolezi2023_metrics,
    ghoukasian2025_metrics,
    hamman2023_metrics,
    makhlouf2024_metrics,
    risk_difference,
)
from .groups import check_binary, group_rates
from .utility import utility_metrics

__all__ = ["evaluate", "GROUP_RATE_NAMES"]

#: Prefix of the per-group columns written by :func:`evaluate` -> rate column.
GROUP_RATE_NAMES = {
    "n": "n",
    "SR": "selection_rate",
    "TPR": "tpr",
    "FPR": "fpr",
    "ACC": "accuracy",
    "PPV": "ppv",
}


def evaluate(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Compute every utility and fairness metric of the five papers.

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like
        Group of each individual (integer codes).
    scores : array-like of float, optional
        Probability of the positive class (``AUC`` from scores and hamman2023's
        soft metrics; NaN columns when absent).
    labels : sequence, optional
        The groups, in order (default: the sorted groups present). Listing the
        full domain makes an empty group visible as ``n_<g> = 0`` and NaN rates.
    privileged : object
        arcolezi2023's privileged group (compared with every other row).

    Returns
    -------
    dict
        Utility (``acc, f1, recall, precision, auc_labels, auc_scores``); per group
        ``g``: ``n_g, SR_g, TPR_g, FPR_g, ACC_g, PPV_g``; arcolezi2023
        (``SP_a_1, SP_a_0, SPD, DI, EO_a_1, EO_a_0, EOD, OA_a_1, OA_a_0, OAD``,
        privileged - rest); makhlouf2024 ``SD, PED, PRD`` (group 1 - group 0; its
        EOD and OAD equal arcolezi2023's for a binary attribute); ghoukasian2025
        ``Delta_SP, Delta_EO, Delta_MEO, Delta_EOd``; hamman2023 ``soft_SP, soft_EO,
        abs_soft_SP, abs_soft_EO``; xu2019 ``RD``. Metrics defined only for a
        binary attribute are NaN when the groups are not exactly ``{0, 1}``.
    """
    y = check_binary(y_true, "y_true")
    p = check_binary(y_pred, "y_pred")
    a = np.asarray(sensitive_features)
    out: dict[str, float] = {}
    out.update(utility_metrics(y, p, scores))
    rates = group_rates(y, p, sensitive_features=a, labels=labels)
    for g in rates.index:
        for prefix, col in GROUP_RATE_NAMES.items():
            value = rates.at[g, col]
            out[f"{prefix}_{g}"] = int(value) if prefix == "n" else float(value)
    out.update(arcolezi2023_metrics(y, p, sensitive_features=a, privileged=privileged))
    binary = [*rates.index] == [0, 1]
    nan = float("nan")
    if binary:
        m = makhlouf2024_metrics(y, p, sensitive_features=a)
        out.update({"SD": m["SD"], "PED": m["PED"], "PRD": m["PRD"]})
        out["RD"] = risk_difference(p, sensitive_features=a)
        if scores is not None:
            out.update(hamman2023_metrics(y, scores, sensitive_features=a))
        else:
            out.update(dict.fromkeys(("soft_SP", "soft_EO", "abs_soft_SP", "abs_soft_EO"), nan))
    else:
        out.update(dict.fromkeys(
            ("SD", "PED", "PRD", "RD", "soft_SP", "soft_EO", "abs_soft_SP", "abs_soft_EO"), nan))
    out.update(ghoukasian2025_metrics(y, p, sensitive_features=a, labels=labels))
    return out
