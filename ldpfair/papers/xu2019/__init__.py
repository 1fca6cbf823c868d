"""Xu, Yuan & Wu (2019): differential privacy and fairness in logistic regression. The chapter's package.

Its rooms (the contract of :mod:`ldpfair.papers.contract`):

- :mod:`.experiments`: the profiles, the sweeps, the cell :func:`~.experiments.fit_evaluate`
  and the readings of the paper (:data:`~.experiments.READINGS`);
- :mod:`.figures`: Table 2 as a figure, Fig. 1 and the convergence study;
- :mod:`.checks`: the published Tables 1-2, the agreement of every published mean, the
  claims and the scoreboard, judged by :mod:`ldpfair.verdicts`;
- :mod:`.diagnostics`: the remedy's firing rate and the neutral fairness weight;
- :mod:`.tables`: the chapter's tables as a reader sees them;
- :mod:`.findings`: each table and sentence of the chapter, one function each (the notebook
  only calls them).

Importing this package loads only :mod:`.experiments` (no plotting, no results).
"""

from __future__ import annotations

from ..contract import PaperSpec
from . import experiments
from .experiments import build

__all__ = ["SPEC", "build"]


SPEC = PaperSpec(
    name="xu2019",
    title="Xu, Yuan & Wu (2019): differential privacy and fairness in logistic regression",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    parameters=experiments.PARAMETERS,
    overrides=(),  # the notebook's `features` picks the encoding shown, not the profile's encodings
)
