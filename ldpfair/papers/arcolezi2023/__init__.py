"""arcolezi2023: Arcolezi, Makhlouf & Palamidessi (DBSec 2023).

"(Local) Differential Privacy has NO Disparate Impact on Fairness". The chapter's
package, by the written contract (:mod:`ldpfair.papers.contract`):

:mod:`~ldpfair.papers.arcolezi2023.experiments`
    The profiles and the declarations of the main experiment (Figs. 2-7) and the
    appendix experiment (Figs. 8-13, :func:`~.experiments.appendix_sensitive`).
:mod:`~ldpfair.papers.arcolezi2023.figures`
    Figs. 2-13 (:func:`~.figures.figure`, the paper's 4 x 2 layout).
:mod:`~ldpfair.papers.arcolezi2023.checks`
    The quoted numbers, RQ1-RQ3, Table 2, the claims and the scoreboard.
:mod:`~ldpfair.papers.arcolezi2023.authors`
    The authors' per-seed results and the cell-by-cell agreement with ours.
:mod:`~ldpfair.papers.arcolezi2023.example`
    Fig. 1: one user through the seven protocols.
:mod:`~ldpfair.papers.arcolezi2023.tables`
    Results helpers of the chapter's tables (combining frames, the NonDP baseline).
:mod:`~ldpfair.papers.arcolezi2023.tuning`
    The optional hyperparameter search (TPE, as the authors, or on a validation split).

``SPEC`` is what the registry, the command line, the scoreboard and the notebook use.
"""

from __future__ import annotations

from ..contract import PaperSpec
from . import experiments

__all__ = ["SPEC"]


SPEC = PaperSpec(
    name="arcolezi2023",
    title="(Local) Differential Privacy has NO Disparate Impact on Fairness",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    parameters=experiments.PARAMETERS,
)
