"""Protocols by name: :data:`PROTOCOLS` and :func:`make_protocol`."""

from __future__ import annotations

import inspect
from typing import Any

from .base import FrequencyOracle
from .grr import GRR
from .hashing import BLH, OLH
from .histogram import THE
from .subset import SS
from .unary import OUE, RAPPOR

__all__ = ["PROTOCOLS", "ALIASES", "make_protocol", "protocol_class"]

#: The seven protocols of arcolezi2023, in the paper's order.
PROTOCOLS: tuple[str, ...] = ("GRR", "BLH", "OLH", "RAPPOR", "OUE", "SS", "THE")

_CLASSES: dict[str, type[FrequencyOracle]] = {
    "GRR": GRR,
    "BLH": BLH,
    "OLH": OLH,
    "RAPPOR": RAPPOR,
    "OUE": OUE,
    "SS": SS,
    "THE": THE,
}

#: Accepted alternative names (upper-cased) -> canonical name.
ALIASES: dict[str, str] = {"SUE": "RAPPOR", "KRR": "GRR", "K-RR": "GRR", "RR": "GRR"}


def protocol_class(name: str) -> type[FrequencyOracle]:
    """Return the class of protocol ``name`` (case-insensitive, aliases allowed)."""
    if not isinstance(name, str):
        raise TypeError(f"protocol name must be a str, got {name!r}")
    key = name.strip().upper()
    key = ALIASES.get(key, key)
    if key not in _CLASSES:
        valid = ", ".join(PROTOCOLS) + " (aliases: SUE -> RAPPOR, kRR -> GRR)"
        raise ValueError(f"unknown protocol {name!r}; valid: {valid}")
    return _CLASSES[key]


def make_protocol(name: str, k: int, epsilon: float, **options: Any) -> FrequencyOracle:
    """Instantiate protocol ``name`` on domain size ``k`` with budget ``epsilon``.

    Parameters
    ----------
    name : str
        One of :data:`PROTOCOLS`, case-insensitive; ``"SUE"`` means RAPPOR and
        ``"kRR"`` means GRR.
    k : int
        Domain size ``>= 2``.
    epsilon : float
        Privacy budget ``> 0``.
    **options
        Protocol options, e.g. ``variant="paper"`` for OLH/SS/THE, ``omega`` for
        SS, ``g`` for OLH, ``theta`` / ``report`` for THE.

    Returns
    -------
    FrequencyOracle

    Raises
    ------
    ValueError
        For an option the protocol does not take (the message lists those it takes).
    """
    cls = protocol_class(name)
    params = inspect.signature(cls.__init__).parameters
    accepted = [p for p in params if p not in ("self", "k", "epsilon")]
    unknown = sorted(set(options) - set(accepted))
    if unknown:
        valid = ", ".join(accepted) if accepted else "none"
        raise ValueError(f"unknown option(s) {unknown} for protocol {cls.name}; valid options: {valid}")
    return cls(k, epsilon, **options)
