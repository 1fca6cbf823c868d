"""The metrics arcolezi2023 reports, as a bundle for ``Evaluation(metrics=...)``.

Figs. 5-7 show accuracy, F1, recall and the AUC the authors computed from hard
labels (``roc_auc_score(y_test, y_pred)``); Figs. 2-4 show DI, SPD, EOD and OAD
of the privileged group (the one-hot column ``<A>_1``) against every other row,
signed ``privileged - rest`` (Eqs. 1-4). The committed grids use the engine's
default bundle (:func:`ldpfair.metrics.evaluate`), whose columns include these
with the same values; this bundle is what a grid computing only this paper's
metrics would declare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...identity import versioned
from ...metrics import accuracy, auc_from_labels, f1, privileged_vs_rest_metrics, recall

__all__ = ["paper_metrics"]


@versioned("1", name="ldpfair.papers.arcolezi2023.metrics.paper_metrics")
def paper_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Utility and privileged-vs-rest fairness of one test set (arcolezi2023's columns).

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like
        Group of each individual (any number of groups).
    scores : array-like, optional
        Not used: the authors' AUC is computed from the hard predictions.
    labels : sequence, optional
        Not used: the rest is every row outside the privileged group.
    privileged : object
        The privileged group.

    Returns
    -------
    dict
        ``acc, f1, recall, auc_labels`` and ``SP_a_1, SP_a_0, SPD, DI, EO_a_1,
        EO_a_0, EOD, OA_a_1, OA_a_0, OAD`` (see
        :func:`~ldpfair.metrics.privileged_vs_rest_metrics`).
    """
    out = {
        "acc": accuracy(y_true, y_pred),
        "f1": f1(y_true, y_pred),
        "recall": recall(y_true, y_pred),
        "auc_labels": auc_from_labels(y_true, y_pred),
    }
    out.update(privileged_vs_rest_metrics(y_true, y_pred, sensitive_features=sensitive_features,
                                          privileged=privileged))
    return out
