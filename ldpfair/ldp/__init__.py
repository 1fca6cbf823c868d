"""Local differential privacy: frequency oracles, multidimensional collection, OPT.

Protocols (one class each, Wang et al., USENIX Security 2017): :class:`GRR`,
:class:`BLH`, :class:`OLH`, :class:`RAPPOR` (symmetric unary encoding),
:class:`OUE`, :class:`SS`, :class:`THE`. Each has ``perturb(values, rng)``
(all users at once, randomness only from ``rng``), ``support(reports)`` (the
``n x k`` indicator matrix, arcolezi2023's homogeneous encoding),
``estimate(reports, projection=None)`` (unbiased unless a projection is
asked for), ``variance(n, f)`` and the exact probabilities ``p`` / ``q``.

Parameter rules where the papers and the authors' code differ are selectable
with ``variant="authors" | "paper"`` (OLH ``g``, SS ``omega``, THE ``theta``
search interval); the default is ``"authors"``, the code that produced the
published numbers.

Multidimensional collection: :func:`split_budget`, :func:`privatize`,
:func:`privatize_frame`. The optimal fairness mechanism of ghoukasian2025:
:func:`optimal_binary`, :func:`optimal_kary`, :func:`smallest_feasible_zeta`,
:class:`ChannelMechanism`, :func:`enforce_level`, :func:`opt_factory`.

Mechanisms from outside (:mod:`~ldpfair.ldp.plugins`): :func:`register`, import
paths ``"pkg.mod:Name"`` and the entry-point group ``ldpfair.mechanisms``, each
audited for privacy (:mod:`~ldpfair.ldp.audit`) before a benchmark uses it.
"""

from __future__ import annotations

from .base import FrequencyOracle, project_estimate, project_simplex
from .channel import ChannelMechanism, channel_epsilon
from .grr import GRR, one_hot
from .hashing import BLH, OLH, LHReports, LocalHashing, collision_probability, olh_g
from .histogram import THE, the_threshold
from .multidim import (
    decode_combined,
    encode_combined,
    privatize,
    privatize_frame,
    split_budget,
)
from .optimal import (
    KaryResult,
    enforce_level,
    opt_factory,
    optimal_binary,
    optimal_binary_parameters,
    optimal_kary,
    smallest_feasible_zeta,
)
from .plugins import register
from .registry import ALIASES, PROTOCOLS, make_protocol, protocol_class
from .subset import SS, subset_size
from .unary import OUE, RAPPOR, UnaryEncoding

__all__ = [
    "FrequencyOracle",
    "GRR",
    "BLH",
    "OLH",
    "RAPPOR",
    "OUE",
    "SS",
    "THE",
    "LocalHashing",
    "UnaryEncoding",
    "LHReports",
    "PROTOCOLS",
    "ALIASES",
    "make_protocol",
    "protocol_class",
    "split_budget",
    "privatize",
    "privatize_frame",
    "encode_combined",
    "decode_combined",
    "one_hot",
    "project_simplex",
    "project_estimate",
    "olh_g",
    "subset_size",
    "the_threshold",
    "collision_probability",
    "ChannelMechanism",
    "channel_epsilon",
    "optimal_binary",
    "optimal_binary_parameters",
    "optimal_kary",
    "smallest_feasible_zeta",
    "enforce_level",
    "KaryResult",
    "opt_factory",
    "register",
]
