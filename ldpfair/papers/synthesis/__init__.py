"""synthesis: whether the five papers' claims hold beyond their own datasets (a new result).

The chapter's package, by the written contract (:mod:`ldpfair.papers.contract`):

:mod:`~ldpfair.papers.synthesis.experiments`
    The profiles and the benchmark's grids (one per dataset).
:mod:`~ldpfair.papers.synthesis.analysis`
    Paired deltas against NonDP, means, the leaderboard and the measured cost.
:mod:`~ldpfair.papers.synthesis.checks`
    The papers' claims tested on every dataset, and the chapter's scoreboard rows.
:mod:`~ldpfair.papers.synthesis.figures`
    The heatmaps, the fairness-utility scatter and the leaderboard plot.
:mod:`~ldpfair.papers.synthesis.cards`
    The mechanism cards (variance, report size, privacy level, throughput).

``SPEC`` is what the registry, the command line, the scoreboard and the notebook use.
"""

from __future__ import annotations

from ..contract import PaperSpec
from . import experiments
from .experiments import build  # a thin compatibility entry point

__all__ = ["SPEC", "build"]


SPEC = PaperSpec(
    name="synthesis",
    title="Synthesis: do the papers' claims hold beyond their own datasets?",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    claims=list,  # the chapter tests the papers' claims on new datasets: none of its own
    parameters=experiments.PARAMETERS,
)
