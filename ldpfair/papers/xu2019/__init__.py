"""Xu, Yuan & Wu (2019): differential privacy and fairness in logistic regression. The chapter's package.

Its rooms (the contract of :mod:`ldpfair.papers.contract`):

- :mod:`.experiments`: the profiles, the sweeps, the cell :func:`~.experiments.fit_evaluate`
  and the readings of the paper (:data:`~.experiments.READINGS`);
- :mod:`.figures`: Table 2 as a figure, Fig. 1 and the convergence study;
- :mod:`.checks`: the published Tables 1-2, the agreement of every published mean, the
  claims and the scoreboard, judged by :mod:`ldpfair.verdicts`;
- :mod:`.diagnostics`: the remedy's firing rate and the neutral fairness weight;
- :mod:`.tables`: the chapter's tables as a reader sees them.

Importing this package loads only :mod:`.experiments` (no plotting, no results).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..contract import PaperSpec
from . import experiments
from .experiments import build

if TYPE_CHECKING:
    import pandas as pd

    from ...reporting import Claim

__all__ = ["SPEC", "build", "committed_claims", "scoreboard"]


def committed_claims() -> list[Claim]:
    """The paper's claims checked on the committed results (:func:`.checks.committed_claims`)."""
    from .checks import committed_claims as _claims

    return _claims()


def scoreboard() -> pd.DataFrame:
    """One row per table and figure of the paper (:func:`.checks.scoreboard`)."""
    from .checks import scoreboard as _scoreboard

    return _scoreboard()


SPEC = PaperSpec(
    name="xu2019",
    title="Xu, Yuan & Wu (2019): differential privacy and fairness in logistic regression",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    claims=committed_claims,
    scoreboard=scoreboard,
    parameters=experiments.PARAMETERS,
    overrides=(),  # the notebook's `features` picks the encoding shown, not the profile's encodings
)
