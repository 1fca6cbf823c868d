"""The metrics makhlouf2024 reports, as a bundle for ``Evaluation(metrics=...)``.

Fig. 3 shows, per group of a binary protected attribute, the selection rate,
TPR, FPR, accuracy and PPV, and the disparities SD, EOD, PED, OAD and PRD
(Eqs. 2-6), signed ``maj - min`` where ``maj`` is the group *coded* 1 (not the
larger one). The committed grids use the engine's default bundle
(:func:`ldpfair.metrics.evaluate`), whose columns include these with the same
values; this bundle is what a grid computing only this paper's metrics would
declare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...identity import versioned
from ...metrics import accuracy, group_difference_metrics, group_rate_columns
from ...metrics.gaps import check_binary_labels

__all__ = ["paper_metrics"]

#: The disparities of Fig. 3, ``group 1 - group 0``.
DISPARITIES = ("SD", "EOD", "PED", "OAD", "PRD")


@versioned("1", name="ldpfair.papers.makhlouf2024.metrics.paper_metrics")
def paper_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Accuracy, per-group rates and ``group 1 - group 0`` disparities of a binary attribute.

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like of {0, 1}
        Group of each individual; ``maj`` is 1, ``min`` is 0.
    scores : array-like, optional
        Not used.
    labels : sequence, optional
        ``None`` or ``[0, 1]`` (the groups of the per-group columns).
    privileged : object
        Must be 1: the paper's disparities are ``maj - min`` with ``maj`` coded 1,
        which is what the ``EOD`` and ``OAD`` columns of other bundles mean only
        when the privileged group is 1.

    Returns
    -------
    dict
        ``acc``; ``n_g, SR_g, TPR_g, FPR_g, ACC_g, PPV_g`` for each group ``g``
        (:func:`~ldpfair.metrics.group_rate_columns`); ``SD, EOD, PED, OAD, PRD``
        (:func:`~ldpfair.metrics.group_difference_metrics`, PPV of a group
        without predicted positive NaN).

    Raises
    ------
    ValueError
        For a non-binary attribute, other ``labels`` or ``privileged != 1``.
    """
    check_binary_labels(labels, "makhlouf2024's bundle")
    if privileged != 1:
        raise ValueError(f"makhlouf2024's disparities are group 1 (maj) - group 0 (min): privileged must "
                         f"be 1, got {privileged!r}")
    diff = group_difference_metrics(y_true, y_pred, sensitive_features=sensitive_features)
    out: dict[str, float] = {"acc": accuracy(y_true, y_pred)}
    out.update(group_rate_columns(y_true, y_pred, sensitive_features=sensitive_features, labels=labels))
    out.update({name: diff[name] for name in DISPARITIES})
    return out
