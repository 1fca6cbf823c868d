"""Subset selection (SS; Wang et al. 2016, Ye & Barg 2018)."""

from __future__ import annotations

import math

import numpy as np

from .._validation import as_array, check_choice, check_domain_size, check_epsilon, check_rng
from ._subsets import draw_subsets
from .base import EXP_ARG_MAX, FrequencyOracle, ratio_or_inf

__all__ = ["SS", "subset_size"]

VARIANTS = ("authors", "paper")


def subset_size(k: int, epsilon: float, variant: str = "authors") -> int:
    """Subset size ``omega``.

    Parameters
    ----------
    k : int
        Domain size.
    epsilon : float
        Privacy budget.
    variant : {"authors", "paper"}
        ``"authors"``: ``max(1, rint(k / (e^eps + 1)))`` (multi-freq-ldpy, which
        produced arcolezi2023's numbers); ``"paper"``: ``max(1, floor(k / (e^eps + 1)))``
        (the floor of the papers, with the lower bound 1 that ghoukasian2025 states
        and without which omega = 0 for large eps).

    Returns
    -------
    int
        ``omega`` in ``[1, k - 1]``.
    """
    check_choice(variant, VARIANTS, "variant")
    k = check_domain_size(k, "k")
    epsilon = check_epsilon(epsilon, "epsilon")
    ratio = k / (math.exp(epsilon) + 1.0) if epsilon < EXP_ARG_MAX else 0.0
    raw = np.rint(ratio) if variant == "authors" else math.floor(ratio)
    return int(min(k - 1, max(1, int(raw))))


class SS(FrequencyOracle):
    """Subset selection.

    Each user reports a subset of size ``omega``; the true value is included with
    probability ``p = omega e^eps / (omega e^eps + k - omega)``, and the other
    members are drawn uniformly without replacement from the other values. Every
    other value is in the subset with probability
    ``q = (omega e^eps (omega - 1) + (k - omega) omega) / ((k - 1)(omega e^eps + k - omega))``.

    Reports are an ``(n, omega)`` array of subset members in increasing order: the
    report is the set and nothing else (the order the sampler draws members in puts
    the true value first whenever it is in, which would leak it; issue #44).

    Parameters
    ----------
    k, epsilon
        Domain size and budget.
    omega : int, optional
        Subset size; default from :func:`subset_size` with ``variant``.
    variant : {"authors", "paper"}
        Rule for the default ``omega``.
    """

    name = "SS"

    def __init__(self, k: int, epsilon: float, *, omega: int | None = None, variant: str = "authors") -> None:
        super().__init__(k, epsilon)
        self.variant = check_choice(variant, VARIANTS, "variant")
        if omega is None:
            omega = subset_size(self.k, self.epsilon, variant)
        elif isinstance(omega, bool) or not isinstance(omega, (int, np.integer)) or not 1 <= omega < self.k:
            raise ValueError(f"omega must be an integer in [1, {self.k - 1}], got {omega!r}")
        self.omega = int(omega)
        w, k = self.omega, self.k
        if self.epsilon < EXP_ARG_MAX:
            e = math.exp(self.epsilon)
            self._p = w * e / (w * e + k - w)
            self._q = (w * e * (w - 1) + (k - w) * w) / ((k - 1) * (w * e + k - w))
        else:  # the same ratios divided through by e^eps, which would overflow
            d = math.exp(-self.epsilon)
            self._p = w / (w + (k - w) * d)
            self._q = (w * (w - 1) + (k - w) * w * d) / ((k - 1) * (w + (k - w) * d))

    def _params(self) -> dict[str, object]:
        return {"omega": self.omega, "variant": self.variant}

    @property
    def p(self) -> float:
        """Probability that the true value is in the subset."""
        return self._p

    @property
    def q(self) -> float:
        """Probability that a given other value is in the subset."""
        return self._q

    def output_probability(self, contains_true: bool) -> float:
        """Exact probability of one particular subset that does / does not hold ``v``."""
        w, k = self.omega, self.k
        if contains_true:
            return self.p / math.comb(k - 1, w - 1)
        return (1 - self.p) / math.comb(k - 1, w)

    def worst_case_ratio(self) -> float:
        """Ratio of the two subset probabilities (``e^eps``, tight)."""
        return ratio_or_inf(self.output_probability(True), self.output_probability(False))

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return the subsets as an ``(n, omega)`` array of members.

        The members' dtype is the smallest unsigned type holding ``k - 1`` (uint8
        for ``k <= 256``), which keeps the report compact.

        The true value is in with probability ``floor(p 2^64) / 2^64`` (within
        ``2^-64`` of ``p``); the other members come from Floyd's algorithm on exact
        uniform integers (Lemire's method on raw words), see
        :func:`ldpfair.ldp._subsets.draw_subsets`. Each row is then sorted, so
        the report is a function of the set alone: the sampler puts the true
        value first whenever it is in the subset, which an order would leak.
        Sorting draws nothing, so the generator ends where the sampler leaves it
        and every support (hence every estimate and every committed result built
        on supports) is unchanged.
        """
        values = self._check_values(values)
        rng = check_rng(rng)
        members = draw_subsets(values, self.k, self.omega, self.p, rng)
        members.sort(axis=1)
        return members

    def _check_reports(self, reports: np.ndarray) -> np.ndarray:
        """``reports`` as an array after checking its shape ``(n, omega)`` and members in ``[0, k)``.

        One vectorised min/max; repeated members within a subset are not looked for.
        """
        reports = as_array(reports, "reports")
        if reports.ndim != 2 or reports.shape[1] != self.omega or reports.dtype.kind not in "iu":
            raise ValueError(
                f"reports must be an integer array of shape (n, {self.omega}), "
                f"got {reports.dtype} {reports.shape}"
            )
        if reports.size and (int(reports.min()) < 0 or int(reports.max()) >= self.k):
            bad = reports[(reports < 0) | (reports >= self.k)]
            raise ValueError(f"reports must hold subset members in [0, {self.k}) (domain size k={self.k}); "
                             f"found {bad.size} outside, e.g. {int(bad[0])}")
        return reports

    def support(self, reports: np.ndarray) -> np.ndarray:
        """Indicator vector encoding (IVE) of the subsets (boolean, n x k)."""
        reports = self._check_reports(reports)
        out = np.zeros((reports.shape[0], self.k), dtype=bool)
        np.put_along_axis(out, reports, True, axis=1)
        return out

    def support_counts(self, reports: np.ndarray) -> np.ndarray:
        """Number of subsets holding each value."""
        return np.bincount(self._check_reports(reports).ravel(), minlength=self.k)
