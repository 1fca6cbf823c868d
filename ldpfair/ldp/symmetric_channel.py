"""A symmetric (GRR-shaped) channel stored by its two probabilities, for sizes too large to build densely."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["ROW_TOL", "SymmetricChannel"]

#: Absolute tolerance on a channel's row sums (shared with :func:`ldpfair.ldp.channel.check_channel_matrix`).
ROW_TOL = 1e-9


@dataclass(frozen=True)
class SymmetricChannel:
    """A ``size x size`` channel with ``diagonal`` on the diagonal and ``off`` elsewhere, stored by the two.

    The compressed form of GRR on ``[size]`` (also local hashing's channel on
    the hashed value, whose hash is public), for sizes whose dense matrix is too
    large to build (OLH at ``epsilon = 10`` has ``g = 22027``). Its exact level is
    ``ln(diagonal / off)`` (:meth:`level`).
    """

    size: int
    diagonal: float
    off: float

    def __post_init__(self) -> None:
        if self.size < 2 or not (math.isfinite(self.diagonal) and math.isfinite(self.off)) \
                or self.diagonal < 0 or self.off < 0:
            raise ValueError(f"a symmetric channel needs size >= 2 and finite probabilities >= 0, got {self}")
        total = self.diagonal + (self.size - 1) * self.off
        if abs(total - 1) > ROW_TOL:
            raise ValueError(f"a symmetric channel's rows must sum to 1: {self.diagonal!r} + "
                             f"({self.size} - 1) {self.off!r} = {total!r}")

    @property
    def shape(self) -> tuple[int, int]:
        """``(size, size)``, as the dense matrix's."""
        return self.size, self.size

    def level(self) -> tuple[float, tuple[int, int, int]]:
        """Exact level ``max_z ln(max_v Q[v, z] / min_v Q[v, z])`` and ``(v, v', z)`` attaining it."""
        hi, lo = max(self.diagonal, self.off), min(self.diagonal, self.off)
        if hi == lo:
            return 0.0, (0, 1, 0)
        worst = (0, 1, 0) if self.diagonal > self.off else (1, 0, 0)
        return (math.log(hi / lo) if lo > 0 else math.inf), worst
