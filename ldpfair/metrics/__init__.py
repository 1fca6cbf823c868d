"""Fairness and utility metrics with explicit conventions.

- :mod:`~ldpfair.metrics.groups`: per-group rates (``n``, selection rate, TPR,
  FPR, accuracy, PPV) for any number of groups;
- :mod:`~ldpfair.metrics.fairness`: every fairness metric of the five papers,
  each paper's sign and aggregation named in the function;
- :mod:`~ldpfair.metrics.utility`: accuracy, F1, recall, precision, AUC from
  scores and AUC from hard labels;
- :func:`evaluate`: everything at once as a flat ``dict`` (one result row).
"""

from __future__ import annotations

from .evaluate import evaluate
from .fairness import (
    arcolezi2023_metrics,
    data_unfairness,
    data_unfairness_pairwise,
    disparate_impact,
    equal_opportunity_difference,
    ghoukasian2025_metrics,
    hamman2023_metrics,
    makhlouf2024_metrics,
    max_gap,
    max_gap_average_odds,
    max_gap_equal_opportunity,
    max_gap_equalized_odds,
    max_gap_mean_equalized_odds,
    max_gap_statistical_parity,
    overall_accuracy_difference,
    risk_difference,
    soft_equal_opportunity,
    soft_statistical_parity,
    statistical_parity_difference,
)
from .groups import RATE_COLUMNS, UndefinedRateWarning, group_rates
from .utility import (
    accuracy,
    auc_from_labels,
    auc_from_scores,
    f1,
    precision,
    recall,
    utility_metrics,
)

__all__ = [
    "RATE_COLUMNS",
    "UndefinedRateWarning",
    "accuracy",
    "arcolezi2023_metrics",
    "auc_from_labels",
    "auc_from_scores",
    "data_unfairness",
    "data_unfairness_pairwise",
    "disparate_impact",
    "equal_opportunity_difference",
    "evaluate",
    "f1",
    "ghoukasian2025_metrics",
    "group_rates",
    "hamman2023_metrics",
    "makhlouf2024_metrics",
    "max_gap",
    "max_gap_average_odds",
    "max_gap_equal_opportunity",
    "max_gap_equalized_odds",
    "max_gap_mean_equalized_odds",
    "max_gap_statistical_parity",
    "overall_accuracy_difference",
    "precision",
    "recall",
    "risk_difference",
    "soft_equal_opportunity",
    "soft_statistical_parity",
    "statistical_parity_difference",
    "utility_metrics",
]
