"""The metrics hamman2023 queries, as a bundle for ``Evaluation(metrics=...)``.

The bias queries are statistical parity and equal opportunity of a binary or
logistic classifier ``h`` (Definitions 2.1-2.2), ``E[h | A=1] - E[h | A=0]``
and ``E[h | A=1, Y=1] - E[h | A=0, Y=1]``, and their absolute values. The
committed grids use the engine's default bundle (:func:`ldpfair.metrics.evaluate`),
whose columns include these with the same values; this bundle is what a grid
computing only this paper's metrics would declare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...identity import versioned
from ...metrics import accuracy, soft_gap_metrics
from ...metrics.gaps import check_binary_labels

__all__ = ["paper_metrics"]


@versioned("1", name="ldpfair.papers.hamman2023.metrics.paper_metrics")
def paper_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Accuracy and the soft SP and EO gaps (``group 1 - group 0``) of a binary attribute.

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions (for the accuracy).
    sensitive_features : array-like of {0, 1}
        Group of each individual.
    scores : array-like of float
        The classifier's outputs ``h(x)`` in ``[0, 1]``; required.
    labels : sequence, optional
        ``None`` or ``[0, 1]``.
    privileged : object
        Not used: the queries are ``group 1 - group 0`` by coding.

    Returns
    -------
    dict
        ``acc, soft_SP, soft_EO, abs_soft_SP, abs_soft_EO`` (see
        :func:`~ldpfair.metrics.soft_gap_metrics`).

    Raises
    ------
    ValueError
        Without ``scores``, for a non-binary attribute or other ``labels``.
    """
    check_binary_labels(labels, "hamman2023's bundle")
    if scores is None:
        raise ValueError("hamman2023's bundle needs scores (the classifier's outputs h(x) in [0, 1])")
    out = {"acc": accuracy(y_true, y_pred)}
    out.update(soft_gap_metrics(y_true, scores, sensitive_features=sensitive_features))
    return out
