"""Fairness and utility metrics: concepts, with their conventions as parameters.

- :mod:`~ldpfair.metrics.groups`: per-group rates (``n``, selection rate, TPR,
  FPR, accuracy, PPV) for any number of groups;
- :mod:`~ldpfair.metrics.gaps`: :func:`rate_gap`, one rate compared between
  groups under a named convention (``compare="privileged_vs_rest"``,
  ``"group1_minus_group0"`` or ``"max_gap"``; signed or ``absolute``; hard or
  ``soft``);
- :mod:`~ldpfair.metrics.fairness`: the named metrics (statistical parity
  difference, equal opportunity, max gaps, risk difference, ...), each a
  specialisation of :func:`rate_gap` or a combination of rates;
- :mod:`~ldpfair.metrics.bundles`: several columns of one convention from one
  pass (:func:`privileged_vs_rest_metrics`, :func:`group_difference_metrics`,
  :func:`max_gap_metrics`, :func:`soft_gap_metrics`, :func:`group_rate_columns`);
- :mod:`~ldpfair.metrics.utility`: accuracy, F1, recall, precision, AUC from
  scores and AUC from hard labels;
- :func:`evaluate`: every bundle at once as a flat ``dict`` (one result row; the
  experiment engine's default).

Each paper's own bundle, composed of these, is in its chapter package
(``ldpfair.papers.<paper>.metrics``).
"""

from __future__ import annotations

from .bundles import (
    group_difference_metrics,
    group_rate_columns,
    max_gap_metrics,
    privileged_vs_rest_metrics,
    soft_gap_metrics,
)
from .evaluate import evaluate
from .fairness import (
    data_unfairness,
    data_unfairness_pairwise,
    disparate_impact,
    equal_opportunity_difference,
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
from .gaps import COMPARISONS, GAP_RATES, rate_gap
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
    "COMPARISONS",
    "GAP_RATES",
    "RATE_COLUMNS",
    "UndefinedRateWarning",
    "accuracy",
    "auc_from_labels",
    "auc_from_scores",
    "data_unfairness",
    "data_unfairness_pairwise",
    "disparate_impact",
    "equal_opportunity_difference",
    "evaluate",
    "f1",
    "group_difference_metrics",
    "group_rate_columns",
    "group_rates",
    "max_gap",
    "max_gap_average_odds",
    "max_gap_equal_opportunity",
    "max_gap_equalized_odds",
    "max_gap_mean_equalized_odds",
    "max_gap_statistical_parity",
    "max_gap_metrics",
    "overall_accuracy_difference",
    "precision",
    "privileged_vs_rest_metrics",
    "rate_gap",
    "recall",
    "risk_difference",
    "soft_equal_opportunity",
    "soft_gap_metrics",
    "soft_statistical_parity",
    "statistical_parity_difference",
    "utility_metrics",
]
