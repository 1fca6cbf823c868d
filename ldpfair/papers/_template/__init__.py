"""Template of a chapter package: copy it to ``ldpfair/papers/<paper>/``.

The rooms are the same in every chapter (see :mod:`ldpfair.papers.contract`):
``experiments`` (profiles and declarations, cheap to import), ``figures``,
``checks``; this file exports ``SPEC`` and imports nothing heavy, so that the
registry and ``ldpfair run`` can read the declarations quickly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contract import PaperSpec
from . import experiments

if TYPE_CHECKING:
    import pandas as pd

    from ...reporting import Claim

__all__ = ["SPEC"]


def _claims() -> list[Claim]:
    from . import checks

    return checks.committed_claims()


def _scoreboard() -> pd.DataFrame:
    from . import checks

    return checks.scoreboard()


SPEC = PaperSpec(
    name="_template",
    title="Template: a check of generalised randomised response",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    claims=_claims,
    scoreboard=_scoreboard,
    parameters=experiments.PARAMETERS,
)
