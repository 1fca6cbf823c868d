"""Hamman, Chen & Dutta (2023): can querying for bias leak protected attributes? The chapter's package.

Its rooms (the contract of :mod:`ldpfair.papers.contract`):

- :mod:`.experiments`: the profiles, the sweeps and the trial functions (Adult,
  synthetic and German-credit runs of Attribute-Reveal against Attribute-Conceal);
- :mod:`.figures`: Figs. 1-4 as functions of the results;
- :mod:`.checks`: the published Tables 1-4 and quoted numbers, the claims and the
  scoreboard, judged by :mod:`ldpfair.verdicts`;
- :mod:`.forensics` and :mod:`.cells`: which computation could have produced the published
  query errors (their tables are the chapter's ``derived`` results, computed by the engine);
- :mod:`.tables`: the chapter's tables as a reader sees them.

Importing this package loads only :mod:`.experiments` (no plotting, no results).
"""

from __future__ import annotations

from ..contract import Derived, PaperSpec
from . import experiments
from .experiments import build

__all__ = ["SPEC", "build"]


SPEC = PaperSpec(
    name="hamman2023",
    title="Hamman, Chen & Dutta (2023): can querying for bias leak protected attributes?",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    parameters=experiments.PARAMETERS,
    # the forensics of the published errors: tables of our runs against the paper's numbers, computed
    # by the engine after the experiments (not grids of tasks; see ldpfair.experiments.derived)
    derived=(
        Derived(("forensics_readings", "forensics_cells", "forensics_implied"),
                f"{__name__}.forensics", "summaries", {"reps": 200, "seed": 2023}),
        Derived(("forensics_percell",), f"{__name__}.cells", "summaries", {"reps": 200, "seed": 2023}),
    ),
)
