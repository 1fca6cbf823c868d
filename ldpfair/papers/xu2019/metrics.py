"""The metrics xu2019 reports, as a bundle for ``Evaluation(metrics=...)``.

Tables 1-2 and Fig. 1 show accuracy and the risk difference
``RD = |P(Yhat=1 | S=1) - P(Yhat=1 | S=0)|`` of a binary ``S`` (Eq. 9). The
committed grids use the engine's default bundle (:func:`ldpfair.metrics.evaluate`),
whose columns include these with the same values; this bundle is what a grid
computing only this paper's metrics would declare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...identity import versioned
from ...metrics import accuracy, risk_difference
from ...metrics.gaps import check_binary_labels

__all__ = ["paper_metrics"]


@versioned("1", name="ldpfair.papers.xu2019.metrics.paper_metrics")
def paper_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Accuracy and risk difference of a binary attribute.

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like of {0, 1}
        Group of each individual.
    scores : array-like, optional
        Not used.
    labels : sequence, optional
        ``None`` or ``[0, 1]``.
    privileged : object
        Not used: RD is an absolute difference.

    Returns
    -------
    dict
        ``acc, RD`` (see :func:`~ldpfair.metrics.risk_difference`).

    Raises
    ------
    ValueError
        For a non-binary attribute or other ``labels``.
    """
    check_binary_labels(labels, "xu2019's bundle")
    return {"acc": accuracy(y_true, y_pred),
            "RD": risk_difference(y_pred, sensitive_features=sensitive_features)}
