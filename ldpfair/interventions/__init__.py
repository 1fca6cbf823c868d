"""Fairness interventions that ghoukasian2025 compares with (or plugs OPT into).

- :mod:`~ldpfair.interventions.fairprojection`: FairProjection (Alghamdi et al. 2022),
  post-processing by information projection, solved on its low-dimensional dual.
- :mod:`~ldpfair.interventions.fairbalance`: FairBalance (Yu, Chakraborty & Menzies 2024),
  pre-processing by class balancing within each demographic group.
- :mod:`~ldpfair.interventions.reductions`: the exponentiated-gradient reduction for
  equalized odds (Agarwal et al. 2018), step 1 of Mozannar et al. (2020): fairlearn's
  ``ExponentiatedGradient`` behind a thin adapter.
- :mod:`~ldpfair.interventions.private_postprocessing`: Mozannar, Ohannessian & Srebro's
  (2020) de-biased equalized-odds post-processing for a privatised attribute, for any
  2 x 2 mechanism (p, q), step 2 of their two-step method.
"""

from .fairbalance import fairbalance_weights
from .fairprojection import FairProjection
from .private_postprocessing import PrivateEqualizedOdds
from .reductions import ExponentiatedGradientEO

__all__ = [
    "ExponentiatedGradientEO",
    "FairProjection",
    "PrivateEqualizedOdds",
    "fairbalance_weights",
]
