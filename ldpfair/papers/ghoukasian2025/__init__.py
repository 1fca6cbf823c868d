"""Ghoukasian & Asoodeh (2025), "Optimal Fairness under Local Differential Privacy".

The chapter's package (the rooms of :mod:`ldpfair.papers.contract`):

:mod:`.experiments`
    The profiles, the declarations of Figs. 1-6, Tables I-II and the k-ary
    variants, and the notebook's parameters (cheap to import).
:mod:`.baselines`
    The cell functions of Fig. 6 and Tables I-II.
:mod:`.theory`
    Numerical checks of Lemma 1, Theorem 2 and program (9)/(10).
:mod:`.figures`
    Every figure of the chapter.
:mod:`.checks`
    The paper's statements, claims and scoreboard; with :mod:`.tables` (Tables I-II
    against the published numbers), :mod:`.kary` (which zeta gives the k-ary
    curves) and :mod:`.report` (the tables as a reader sees them, and the
    evidence behind two ledger decisions).

``SPEC`` is what the registry, the command line, the scoreboard and the notebook use.
"""

from __future__ import annotations

from ..contract import PaperSpec
from . import experiments

__all__ = ["SPEC"]


SPEC = PaperSpec(
    name="ghoukasian2025",
    title="Ghoukasian & Asoodeh (2025): optimal fairness under local differential privacy",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    parameters=experiments.PARAMETERS,
)
