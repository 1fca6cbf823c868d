"""Template of a chapter package: copy it to ``ldpfair/papers/<paper>/``.

The rooms are the same in every chapter (see :mod:`ldpfair.papers.contract`):
``experiments`` (profiles and declarations, cheap to import), ``figures``,
``checks``; this file exports ``SPEC`` and imports nothing heavy, so that the
registry and ``ldpfair run`` can read the declarations quickly.
"""

from __future__ import annotations

from ..contract import PaperSpec
from . import experiments

__all__ = ["SPEC"]


SPEC = PaperSpec(
    name="_template",
    title="Template: a check of generalised randomised response",
    profiles=experiments.PROFILES,
    declare=experiments.declare,
    parameters=experiments.PARAMETERS,
)
