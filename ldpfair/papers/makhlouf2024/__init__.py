"""Makhlouf et al. (2024), "On the impact of multi-dimensional LDP on fairness".

The chapter's package (see :mod:`ldpfair.papers.contract`):

:mod:`~.experiments`
    Profiles, grids and the notebook's parameters (cheap to import).
:mod:`~.aggregate`
    The authors' per-run aggregation of the engine's per-fold rows, and its summary.
:mod:`~.figures`
    Every figure of the chapter.
:mod:`~.checks`
    Table 1 and the figures against the paper and the authors' runs, the claims with
    their ledger causes, the scoreboard; the claims themselves are in :mod:`~.claims`,
    the authors' runs and the numbers quoted in the text in :mod:`~.authors`.
:mod:`~.draws`
    Synthetic dataset 1 from the authors' files against regenerated draws (forests and
    the population forest).
:mod:`~.tables`
    The chapter's tables as a reader sees them.

This module stays cheap: it imports :mod:`~.experiments` only; the claims and the
scoreboard import :mod:`~.checks` when called.
"""

from __future__ import annotations

from ..contract import PaperSpec
from . import experiments as _experiments
from .experiments import build

__all__ = ["SPEC", "build"]


SPEC = PaperSpec(
    name="makhlouf2024",
    title="Makhlouf et al. (2024): multi-dimensional LDP and fairness",
    profiles=_experiments.PROFILES,
    declare=_experiments.declare,
    parameters=_experiments.PARAMETERS,
)
