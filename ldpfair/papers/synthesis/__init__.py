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

from typing import TYPE_CHECKING

from ..contract import PaperSpec
from . import experiments
from .experiments import build  # a thin compatibility entry point

if TYPE_CHECKING:
    import pandas as pd

    from ...reporting import Claim

__all__ = ["SPEC", "build", "claims", "scoreboard"]


def claims() -> list[Claim]:
    """None: the chapter tests the papers' claims on new datasets, it makes no claim to reproduce."""
    return []


def scoreboard() -> pd.DataFrame:
    """The chapter's scoreboard rows (:func:`.checks.scoreboard`)."""
    from . import checks

    return checks.scoreboard()


SPEC = PaperSpec(
    name="synthesis",
    title="Synthesis: do the papers' claims hold beyond their own datasets?",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    claims=claims,
    scoreboard=scoreboard,
    parameters=experiments.PARAMETERS,
)
