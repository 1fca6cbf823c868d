"""Every convention's metrics at once, as one flat result row (the engine's default bundle).

:func:`evaluate` gives exactly (bit for bit, NaNs and warnings included) what
calling :func:`~ldpfair.metrics.utility.utility_metrics`,
:func:`~ldpfair.metrics.bundles.group_rate_columns` and the bundles of
:mod:`~ldpfair.metrics.bundles` one after the other gives
(:func:`evaluate_reference`), from one pass over the individuals: the counts per
(group, privileged, y, y_pred) of one ``np.bincount`` (hard predictions give
integer sums, so every rate is the same float), the AUC of the labels from those
counts, the AUC of the scores from one sort, and the soft sums of
:func:`~ldpfair.metrics.bundles.soft_gap_metrics` in the same order as there.

A chapter that needs other columns declares its own bundle
(``Evaluation(metrics=...)``); :func:`evaluate` itself does not change, so the
committed results computed with it keep their keys.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._validation import check_label_types, check_scalar_label
from .bundles import (
    GROUP_RATE_NAMES,
    group_difference_metrics,
    group_rate_columns,
    max_gap_metrics,
    privileged_vs_rest_columns,
    privileged_vs_rest_metrics,
    soft_gap_metrics,
)
from .fairness import risk_difference
from .gaps import max_gap, pairwise_meo
from .groups import (
    check_binary,
    check_scores,
    encode_groups,
    rates_from_sums,
    warn_privileged_empty,
    warn_undefined_rates,
)
from .utility import _auc_from_curve, _ratio, roc_auc, utility_metrics, warn_auc_undefined

__all__ = ["evaluate", "evaluate_reference", "GROUP_RATE_NAMES"]


def evaluate(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Compute every utility metric, every group's rates and every convention's gaps.

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like
        Group of each individual (integer codes).
    scores : array-like of float, optional
        Probability of the positive class (``AUC`` from scores and the soft gaps;
        NaN columns when absent).
    labels : sequence, optional
        The groups, in order (default: the sorted groups present). Listing the
        full domain makes an empty group visible as ``n_<g> = 0`` and NaN rates.
    privileged : object
        The privileged group of the privileged-vs-rest columns (compared with
        every other row).

    Returns
    -------
    dict
        Utility (``acc, f1, recall, precision, auc_labels, auc_scores``); per group
        ``g``: ``n_g, SR_g, TPR_g, FPR_g, ACC_g, PPV_g``; privileged vs rest
        (``SP_a_1, SP_a_0, SPD, DI, EO_a_1, EO_a_0, EOD, OA_a_1, OA_a_0, OAD``,
        arcolezi2023's columns); group 1 - group 0 ``SD, PED, PRD`` (makhlouf2024's;
        its EOD and OAD equal the privileged-vs-rest ones for a binary attribute
        and ``privileged=1``); max over pairs ``Delta_SP, Delta_EO, Delta_MEO,
        Delta_EOd`` (ghoukasian2025's); soft gaps ``soft_SP, soft_EO, abs_soft_SP,
        abs_soft_EO`` (hamman2023's); absolute group 1 - group 0 ``RD`` (xu2019's
        risk difference). Metrics defined only for a binary attribute are NaN when
        the groups are not exactly ``{0, 1}``.
    """
    y = check_binary(y_true, "y_true")
    p = check_binary(y_pred, "y_pred")
    if y.shape != p.shape:
        raise ValueError(f"y_pred has {p.shape[0]} entries but y_true has {y.shape[0]}")
    s = None
    if scores is not None:
        s = check_scores(scores, "scores")
        if y.shape != s.shape:
            raise ValueError(f"scores has {s.shape[0]} entries but y_true has {y.shape[0]}")
    check_scalar_label(privileged, "privileged")
    check_label_types(sensitive_features, "sensitive_features")
    a = np.asarray(sensitive_features)
    codes, labs = encode_groups(a, labels)
    if codes.shape != y.shape:
        raise ValueError(f"sensitive_features has {codes.shape[0]} entries but y_true has {y.shape[0]}")
    is_priv = (a == privileged).astype(np.int64)
    g = len(labs)
    # one pass: counts per (group, privileged?, y, y_pred); every hard rate derives from them
    counts = np.bincount(((codes * 2 + is_priv) * 2 + y) * 2 + p, minlength=8 * g)
    counts = counts.reshape(g, 2, 2, 2)
    by_group = counts.sum(axis=1)  # (group, y, y_pred)
    by_priv = counts.sum(axis=0)  # (rest / privileged, y, y_pred)

    out: dict[str, float] = _utility(by_group.sum(axis=0), y, s)
    rates = _hard_rates(by_group)
    warn_undefined_rates(labs, rates, None)
    for i, lab in enumerate(labs):
        for prefix, col in GROUP_RATE_NAMES.items():
            value = rates[col][i]
            out[f"{prefix}_{lab}"] = int(value) if prefix == "n" else float(value)
    out.update(_privileged_vs_rest(a, is_priv, by_priv, privileged))
    nan = float("nan")
    if labs == [0, 1]:
        check_binary(a, "sensitive_features")  # what group_difference_metrics and RD require
        warn_undefined_rates([0, 1], rates, None)  # group_difference_metrics' own rates
        out["SD"] = _diff(rates["selection_rate"])
        out["PED"] = _diff(rates["fpr"])
        out["PRD"] = _diff(rates["ppv"])
        sel = rates["selection_rate"]
        warn_undefined_rates([0, 1], rates, ("selection_rate",))
        out["RD"] = float(abs(sel[1] - sel[0]))
        if s is not None:
            out.update(_soft_gaps(codes, y, s))
        else:
            out.update(dict.fromkeys(("soft_SP", "soft_EO", "abs_soft_SP", "abs_soft_EO"), nan))
    else:
        out.update(dict.fromkeys(
            ("SD", "PED", "PRD", "RD", "soft_SP", "soft_EO", "abs_soft_SP", "abs_soft_EO"), nan))
    warn_undefined_rates(labs, rates, ("selection_rate", "tpr", "fpr"))
    tpr, fpr = rates["tpr"], rates["fpr"]
    d_tpr = max_gap(tpr)
    d_fpr = max_gap(fpr)
    out["Delta_SP"] = max_gap(rates["selection_rate"])
    out["Delta_EO"] = d_tpr
    out["Delta_MEO"] = pairwise_meo(tpr, fpr, "propagate")
    undefined = bool(np.isnan(tpr).any() or np.isnan(fpr).any())
    out["Delta_EOd"] = nan if undefined else float(max(d_tpr, d_fpr))
    return out


def _hard_rates(c: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`~ldpfair.metrics.groups.group_rates` of hard predictions from counts ``c[group, y, y_pred]``."""
    c = c.astype(np.float64)
    return rates_from_sums(c.sum(axis=(1, 2)), c[:, 1, :].sum(axis=1), c[:, :, 1].sum(axis=1),
                           c[:, 1, 1], c[:, 0, 0] + c[:, 1, 1])


def _diff(rate: np.ndarray) -> float:
    """``group 1 - group 0`` as :func:`~ldpfair.metrics.group_difference_metrics` computes it (floats)."""
    return float(rate[1]) - float(rate[0])


def _utility(c: np.ndarray, y: np.ndarray, s: np.ndarray | None) -> dict[str, float]:
    """:func:`~ldpfair.metrics.utility.utility_metrics` from the confusion counts ``c[y, y_pred]``."""
    tp, n_pos, n_pred = float(c[1, 1]), float(c[1].sum()), float(c[:, 1].sum())
    n = int(c.sum())
    out = {
        "acc": _ratio(float(c[0, 0] + c[1, 1]), float(n), "accuracy", None),
        "f1": _ratio(2 * tp, n_pos + n_pred, "f1", None),
        "recall": _ratio(tp, n_pos, "recall", None),
        "precision": _ratio(tp, n_pred, "precision", None),
    }
    single_class = n == 0 or c[1].sum() in (0, n)
    if single_class:
        warn_auc_undefined(stacklevel=4)
        out["auc_labels"] = float("nan")
    else:  # the ROC curve of hard labels: thresholds 1 (when predicted) and 0
        fp = float(c[0, 1])
        inner = 0 < c[:, 1].sum() < n
        tps = np.array([tp, n_pos]) if inner else np.array([n_pos])
        fps = np.array([fp, float(c[0].sum())]) if inner else np.array([float(c[0].sum())])
        out["auc_labels"] = _auc_from_curve(tps, fps)
    if s is None:
        out["auc_scores"] = float("nan")
    elif single_class:
        warn_auc_undefined(stacklevel=4)
        out["auc_scores"] = float("nan")
    else:
        out["auc_scores"] = roc_auc(y, s)
    return out


def _privileged_vs_rest(a: np.ndarray, is_priv: np.ndarray, c: np.ndarray, privileged: object,
                        ) -> dict[str, float]:
    """:func:`~ldpfair.metrics.bundles.privileged_vs_rest_metrics` from counts ``c[priv, y, y_pred]``."""
    warn: tuple[str, ...] | None = ("selection_rate", "tpr", "accuracy")
    if a.size and not is_priv.any():
        warn_privileged_empty(a, privileged, stacklevel=4)
        warn = None
    r = _hard_rates(c)
    if warn is not None:
        warn_undefined_rates([0, 1], r, warn)
    sp0, sp1 = r["selection_rate"]
    eo0, eo1 = r["tpr"]
    oa0, oa1 = r["accuracy"]
    return privileged_vs_rest_columns(sp1, sp0, eo1, eo0, oa1, oa0)


def _soft_gaps(codes: np.ndarray, y: np.ndarray, s: np.ndarray) -> dict[str, float]:
    """:func:`~ldpfair.metrics.bundles.soft_gap_metrics` (groups 0 and 1, soft sums as there)."""
    yf = y.astype(np.float64)
    n = np.bincount(codes, minlength=2).astype(np.float64)
    n_pos = np.bincount(codes, weights=yf, minlength=2)
    sel = np.bincount(codes, weights=s, minlength=2)
    tp = np.bincount(codes, weights=s * yf, minlength=2)
    correct = np.bincount(codes, weights=s * yf + (1.0 - s) * (1.0 - yf), minlength=2)
    r = rates_from_sums(n, n_pos, sel, tp, correct)
    warn_undefined_rates([0, 1], r, ("selection_rate", "tpr"))
    sp = float(r["selection_rate"][1] - r["selection_rate"][0])
    eo = float(r["tpr"][1] - r["tpr"][0])
    return {"soft_SP": sp, "soft_EO": eo, "abs_soft_SP": abs(sp), "abs_soft_EO": abs(eo)}


def evaluate_reference(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """:func:`evaluate` computed by calling each bundle in turn (the former ``evaluate``).

    Six :func:`~ldpfair.metrics.groups.group_rates` and two ``roc_auc_score``
    calls per row, about ten times slower: the reference that :func:`evaluate`
    must equal bit for bit (tests and ``benchmarks/bench_engine.py``).
    """
    y = check_binary(y_true, "y_true")
    p = check_binary(y_pred, "y_pred")
    a = np.asarray(sensitive_features)
    out: dict[str, float] = {}
    out.update(utility_metrics(y, p, scores))
    out.update(group_rate_columns(y, p, sensitive_features=a, labels=labels))
    out.update(privileged_vs_rest_metrics(y, p, sensitive_features=a, privileged=privileged))
    binary = encode_groups(a, labels)[1] == [0, 1]  # the groups of group_rate_columns
    nan = float("nan")
    if binary:
        m = group_difference_metrics(y, p, sensitive_features=a)
        out.update({"SD": m["SD"], "PED": m["PED"], "PRD": m["PRD"]})
        out["RD"] = risk_difference(p, sensitive_features=a)
        if scores is not None:
            out.update(soft_gap_metrics(y, scores, sensitive_features=a))
        else:
            out.update(dict.fromkeys(("soft_SP", "soft_EO", "abs_soft_SP", "abs_soft_EO"), nan))
    else:
        out.update(dict.fromkeys(
            ("SD", "PED", "PRD", "RD", "soft_SP", "soft_EO", "abs_soft_SP", "abs_soft_EO"), nan))
    out.update(max_gap_metrics(y, p, sensitive_features=a, labels=labels))
    return out
