"""The chapter's metric bundle, for ``Evaluation(metrics=paper_metrics)`` in a ``Grid``.

A bundle maps one test set to one result row ``{column: value}``. Compose it of
:mod:`ldpfair.metrics` concepts with the paper's conventions as parameters
(here the selection-rate gap as a max over pairs of groups) and pin it with
``@versioned``: its identity is part of the task key of every grid that declares
it, so it never touches the keys of the other chapters (which keep the default
bundle, :func:`ldpfair.metrics.evaluate`). Bump the version only when what it
computes changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...identity import versioned
from ...metrics import accuracy, rate_gap

__all__ = ["paper_metrics"]


@versioned("1", name="ldpfair.papers._template.metrics.paper_metrics")
def paper_metrics(
    y_true: object,
    y_pred: object,
    *,
    sensitive_features: object,
    scores: object | None = None,
    labels: Sequence[object] | None = None,
    privileged: object = 1,
) -> dict[str, float]:
    """Accuracy and the statistical-parity gap over every pair of groups.

    Parameters
    ----------
    y_true, y_pred : array-like of {0, 1}
        True labels and hard predictions.
    sensitive_features : array-like
        Group of each individual.
    scores : array-like, optional
        Not used (the engine passes the positive-class probabilities).
    labels : sequence, optional
        The groups (default: those present).
    privileged : object
        Not used (the engine passes ``Evaluation.privileged``).

    Returns
    -------
    dict
        ``acc`` and ``Delta_SP = max_{a,a'} |P(Yhat=1|a) - P(Yhat=1|a')|``.
    """
    return {"acc": accuracy(y_true, y_pred),
            "Delta_SP": rate_gap("selection_rate", None, y_pred, sensitive_features=sensitive_features,
                                 compare="max_gap", labels=labels)}
