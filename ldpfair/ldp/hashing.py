"""Local hashing: binary (BLH) and optimal (OLH) local hashing.

The hash family is the Carter-Wegman universal family
``H_{a,b}(x) = ((a x + b) mod P) mod g`` with the Mersenne prime ``P = 2**31 - 1``,
``a`` uniform in ``[1, P)`` and ``b`` uniform in ``[0, P)`` drawn per user from
the caller's generator. The report of a user is ``(a, b, z)``: the hash function
and the GRR-perturbed hash value. It is evaluated vectorised (numba).

Exact probabilities. For ``x != y`` the pair ``((a x + b) mod P, (a y + b) mod P)``
is uniform over the ``P (P - 1)`` ordered pairs of distinct residues, so the
collision probability ``c = P(H(x) = H(y))`` is known exactly
(:func:`collision_probability`; ``c ~ 1/g``). With ``p_g = e^eps / (e^eps + g - 1)``
the support probabilities are ``p = p_g`` and
``q = p_g c + (1 - p_g)(1 - c) / (g - 1)`` (``= 1/g`` when ``c = 1/g``), which the
estimator uses, so it is exactly unbiased for this family.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_choice, check_epsilon, check_rng
from ._kernels import grr_from_uniforms, lh_support
from .base import FrequencyOracle, ratio_or_inf
from .symmetric_channel import SymmetricChannel

__all__ = ["LHReports", "LocalHashing", "BLH", "OLH", "olh_g", "collision_probability", "PRIME"]

#: The Mersenne prime of the hash family (> every supported k).
PRIME = 2**31 - 1
#: Largest hash range; larger g (eps > ~43) adds nothing once g > P.
G_MAX = 2**52

VARIANTS = ("authors", "paper")


class LHReports(NamedTuple):
    """Local-hashing reports: per-user hash parameters ``(a, b)`` and value ``z``."""

    a: np.ndarray
    b: np.ndarray
    z: np.ndarray

    def __getitem__(self, item):
        """Row slicing (``reports[i:j]``) slices every field; ints index the tuple."""
        if isinstance(item, slice):
            return LHReports(self.a[item], self.b[item], self.z[item])
        return tuple.__getitem__(self, item)


def collision_probability(g: int, prime: int = PRIME) -> float:
    """Exact ``P(H(x) = H(y))`` for ``x != y`` in the family ``((a x + b) mod P) mod g``."""
    m, c = divmod(prime, g)
    same = c * (m + 1) * m + (g - c) * m * (m - 1)
    return same / (prime * (prime - 1))


def olh_g(epsilon: float, variant: str = "authors") -> int:
    """OLH hash range ``g``.

    ``"authors"`` (multi-freq-ldpy): ``int(round(e^eps)) + 1``;
    ``"paper"`` (arcolezi2023, Wang et al.): ``floor(e^eps + 1)``. Both capped at
    ``2**52`` (reached only for eps > 36).
    """
    check_choice(variant, VARIANTS, "variant")
    epsilon = check_epsilon(epsilon, "epsilon")
    if epsilon > 36:
        return G_MAX
    e = math.exp(epsilon)
    g = int(round(e)) + 1 if variant == "authors" else math.floor(e + 1)
    return max(2, min(g, G_MAX))


class LocalHashing(FrequencyOracle):
    """Local hashing with hash range ``g`` followed by GRR on ``[g]``.

    Parameters
    ----------
    k : int
        Domain size, ``2 <= k < 2**31 - 1``.
    epsilon : float
        Privacy budget.
    g : int
        Hash range, ``2 <= g <= 2**52``.
    """

    name = "LH"

    def __init__(self, k: int, epsilon: float, *, g: int) -> None:
        super().__init__(k, epsilon)
        if self.k >= PRIME:
            raise ValueError(f"k must be < {PRIME} for local hashing, got {self.k}")
        if isinstance(g, bool) or not isinstance(g, (int, np.integer)) or not 2 <= g <= G_MAX:
            raise ValueError(f"g must be an integer in [2, 2**52], got {g!r}")
        self.g = int(g)
        self._pg = 1.0 / (1.0 + (self.g - 1) * math.exp(-self.epsilon))
        self._qg = math.exp(-self.epsilon) * self._pg  # GRR on [g]: any other hashed value
        c = collision_probability(self.g)
        self.collision = c
        self._q = self._pg * c + (1 - self._pg) * (1 - c) / (self.g - 1)

    def _params(self) -> dict[str, object]:
        return {"g": self.g}

    @property
    def p(self) -> float:
        """``e^eps / (e^eps + g - 1)``: the hashed value is kept."""
        return self._pg

    @property
    def q(self) -> float:
        """Exact probability that another value hashes to the report (about ``1/g``)."""
        return self._q

    @property
    def channel(self) -> np.ndarray:
        """The ``g x g`` GRR channel applied to the hashed value (the hash is public)."""
        if self.g > 4096:
            raise ValueError(f"channel is dense g x g; refusing g={self.g} > 4096 "
                             "(symmetric_channel() is its compressed form)")
        mat = np.full((self.g, self.g), self._qg)
        np.fill_diagonal(mat, self._pg)
        return mat

    def symmetric_channel(self) -> SymmetricChannel:
        """The ``g x g`` channel on the hashed value in compressed form (any ``g``, e.g. OLH at eps = 10)."""
        return SymmetricChannel(self.g, self._pg, self._qg)

    def worst_case_ratio(self) -> float:
        """``e^eps``: given the (input-independent) hash, the report is GRR on ``[g]``."""
        return ratio_or_inf(self._pg, self._qg)

    def hash(self, a: ArrayLike, b: ArrayLike, x: ArrayLike) -> np.ndarray:
        """Evaluate ``((a x + b) mod P) mod g`` elementwise (broadcasting); integers only."""
        arrays = []
        for field, arr in (("a", a), ("b", b), ("x", x)):
            arr = np.asarray(arr)
            if arr.dtype.kind not in "iu":  # a float would be truncated to another hash or value
                raise ValueError(f"hash: {field} must hold integers, got dtype {arr.dtype}")
            arrays.append(arr.astype(np.int64, copy=False))
        a, b, x = arrays
        return ((a * x + b) % PRIME) % self.g

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> LHReports:
        """Return ``LHReports(a, b, z)``: per-user hash function and perturbed hash."""
        values = self._check_values(values)
        rng = check_rng(rng)
        n: int = values.shape[0]
        a = rng.integers(1, PRIME, n, dtype=np.int64)
        b = rng.integers(0, PRIME, n, dtype=np.int64)
        u = rng.random(n)
        z = grr_from_uniforms(self.hash(a, b, values), u, self._pg, self.g)  # GRR on the hashed value
        return LHReports(a, b, z)

    def n_reports(self, reports: LHReports) -> int:
        """Number of users."""
        return int(self._report_arrays(reports)[2].shape[0])

    def _report_arrays(self, reports: LHReports) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(a, b, z)`` as 1-D integer arrays of equal length (structure and dtype only)."""
        if not isinstance(reports, tuple) or len(reports) != 3:
            raise ValueError("reports must be an LHReports(a, b, z) tuple from perturb(), got "
                             f"{type(reports).__name__}" + (f" of length {len(reports)}"
                                                            if isinstance(reports, tuple) else ""))
        arrays = [np.asarray(r) for r in reports]
        for field, arr in zip("abz", arrays, strict=True):
            if arr.dtype.kind not in "iu":
                raise ValueError(f"reports.{field} must hold integers, got dtype {arr.dtype}")
        a, b, z = arrays
        if not a.shape == b.shape == z.shape or a.ndim != 1:
            raise ValueError("reports a, b and z must be 1-D arrays of equal length, got shapes "
                             f"{a.shape}, {b.shape}, {z.shape}")
        return a, b, z

    def _check_reports(self, reports: LHReports) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(a, b, z)`` as contiguous int64 arrays after checking each lies in its range.

        A hash function has ``a`` in ``[1, P)`` and ``b`` in ``[0, P)``; a report
        ``z`` lies in ``[0, g)``. Anything else is not a report of this protocol
        (``a = 0`` hashes every value alike; ``z >= g`` matches no value) and
        would bias the estimate: one vectorised min/max per field.
        """
        arrays = self._report_arrays(reports)
        out = []
        for field, arr, lo, hi in zip("abz", arrays, (1, 0, 0), (PRIME, PRIME, self.g), strict=True):
            if arr.size and (int(arr.min()) < lo or int(arr.max()) >= hi):
                bad = arr[(arr < lo) | (arr >= hi)]
                raise ValueError(f"reports.{field} must lie in [{lo}, {hi}) (found {bad.size} value(s) "
                                 f"outside, e.g. {int(bad[0])}); these are not {self.name} reports "
                                 f"with g={self.g}")
            out.append(np.ascontiguousarray(arr, dtype=np.int64))
        return out[0], out[1], out[2]

    def support(self, reports: LHReports) -> np.ndarray:
        """``S[i, x] = (H_i(x) == z_i)``: the indicator vector (IVE), boolean n x k.

        Raises
        ------
        ValueError
            Unless ``reports`` is an ``LHReports(a, b, z)`` of equal-length integer
            arrays with ``a`` in ``[1, P)``, ``b`` in ``[0, P)`` and ``z`` in ``[0, g)``.
        """
        a, b, z = self._check_reports(reports)
        return lh_support(a, b, z, self.k, PRIME, self.g)


class BLH(LocalHashing):
    """Binary local hashing: ``g = 2``."""

    name = "BLH"

    def __init__(self, k: int, epsilon: float) -> None:
        super().__init__(k, epsilon, g=2)

    def _params(self) -> dict[str, object]:
        return {}


class OLH(LocalHashing):
    """Optimal local hashing: ``g`` from :func:`olh_g` (or given explicitly).

    Parameters
    ----------
    k, epsilon
        Domain size and budget.
    variant : {"authors", "paper"}
        Rule for ``g`` (default ``"authors"``: ``round(e^eps) + 1``).
    g : int, optional
        Explicit hash range overriding ``variant``.
    """

    name = "OLH"

    def __init__(self, k: int, epsilon: float, *, variant: str = "authors", g: int | None = None) -> None:
        check_choice(variant, VARIANTS, "variant")
        self.variant = variant
        if g is None:
            g = olh_g(check_epsilon(epsilon, "epsilon"), variant)
        super().__init__(k, epsilon, g=g)

    def _params(self) -> dict[str, object]:
        return {"g": self.g, "variant": self.variant}
