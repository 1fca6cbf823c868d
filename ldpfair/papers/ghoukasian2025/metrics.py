"""The metrics ghoukasian2025 reports, as a bundle for ``Evaluation(metrics=...)``.

Figs. 1-5 and Tables I-II show accuracy and the gaps Delta_SP, Delta_EO,
Delta_MEO (Definitions 3-5) as a maximum over every pair of groups, for any
number of groups; Fig. 6 shows the equalized-odds gap Delta_EOd. The committed
grids use the engine's default bundle (:func:`ldpfair.metrics.evaluate`), whose
columns include these with the same values; this bundle is what a grid
computing only this paper's metrics would declare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...identity import versioned
from ...metrics import accuracy, max_gap_metrics

__all__ = ["paper_metrics"]


@versioned("1", name="ldpfair.papers.ghoukasian2025.metrics.paper_metrics")
def paper_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Accuracy and the max-over-pairs gaps of one test set (any number of groups).

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like
        Group of each individual.
    scores : array-like, optional
        Not used.
    labels : sequence, optional
        The groups (default: those present); a listed group with no member
        makes the gaps NaN, with a warning naming it.
    privileged : object
        Not used: a max over pairs has no reference group.

    Returns
    -------
    dict
        ``acc, Delta_SP, Delta_EO, Delta_MEO, Delta_EOd`` (see
        :func:`~ldpfair.metrics.max_gap_metrics`).
    """
    out = {"acc": accuracy(y_true, y_pred)}
    out.update(max_gap_metrics(y_true, y_pred, sensitive_features=sensitive_features, labels=labels))
    return out
