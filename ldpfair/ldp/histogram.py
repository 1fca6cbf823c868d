"""Thresholded histogram encoding (THE; Wang et al. 2017).

Histogram encoding adds ``Laplace(0, 2/eps)`` noise to every entry of the
one-hot vector of ``v`` (sensitivity 2). THE supports ``{u : z_u > theta}``.
Each coordinate is independent, so

- ``p = P(1 + L > theta) = 1 - exp(eps (theta - 1) / 2) / 2`` (``theta < 1``),
- ``q = P(L > theta) = exp(-eps theta / 2) / 2``.

Reports: with ``report="set"`` (default) the user sends the thresholded set as a
boolean ``n x k`` matrix, drawn directly with these exact bit probabilities (the
same distribution as thresholding the noisy vector, at a fraction of the cost);
with ``report="vector"`` the user sends the noisy float vector and the server
thresholds it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar

from .._validation import as_array, check_choice, check_epsilon, check_real, check_rng
from .base import CHUNK, FrequencyOracle
from .unary import bit_counts, draw_unary

__all__ = ["THE", "the_threshold", "the_objective"]

VARIANTS = ("authors", "paper")
REPORTS = ("set", "vector")


def the_objective(theta: float, epsilon: float) -> float:
    """The variance factor THE's threshold minimises (arcolezi2023, Sec. 3.3).

    ``(2 e^(eps theta / 2) - 1) / (1 + e^(eps (theta - 1/2)) - 2 e^(eps theta / 2))^2``.

    From ``eps theta / 2 = 300`` on (where ``e^(eps theta)`` nears the float
    range) it is evaluated divided through by ``a^2 = e^(eps theta)``:
    ``e^(-s) (2 - e^(-s)) / (e^(-s) + e^(eps (theta - 1) / 2) - 2)^2`` with
    ``s = eps theta / 2``, whose exponents are all <= 0 for ``theta <= 1``.
    """
    s = epsilon * theta / 2
    if s < 300:
        a = math.exp(s)
        return (2 * a - 1) / (1 + math.exp(epsilon * (theta - 0.5)) - 2 * a) ** 2
    b = math.exp(-s)
    return b * (2 - b) / (b + math.exp(epsilon * (theta - 1) / 2) - 2) ** 2


def the_threshold(epsilon: float, variant: str = "authors") -> float:
    """Optimal threshold ``theta`` with ``scipy.optimize.minimize_scalar`` (bounded).

    ``"authors"`` searches ``[0, 1]`` (the authors' code); ``"paper"`` searches
    ``(0.5, 1)`` as the paper states. Both give the same optimum.
    """
    check_choice(variant, VARIANTS, "variant")
    epsilon = check_epsilon(epsilon, "epsilon")
    bounds = (0.0, 1.0) if variant == "authors" else (0.5, 1.0)
    res = minimize_scalar(the_objective, bounds=bounds, method="bounded", args=(epsilon,))
    return float(res.x)


class THE(FrequencyOracle):
    """Thresholded histogram encoding.

    Parameters
    ----------
    k, epsilon
        Domain size and budget.
    theta : float, optional
        Threshold in ``(0, 1)``; default optimised by :func:`the_threshold`.
    variant : {"authors", "paper"}
        Search interval of the default threshold.
    report : {"set", "vector"}
        What the user sends (see the module docstring).
    """

    name = "THE"

    def __init__(
        self,
        k: int,
        epsilon: float,
        *,
        theta: float | None = None,
        variant: str = "authors",
        report: str = "set",
    ) -> None:
        super().__init__(k, epsilon)
        self.variant = check_choice(variant, VARIANTS, "variant")
        self.report = check_choice(report, REPORTS, "report")
        if theta is None:
            try:
                theta = the_threshold(self.epsilon, variant)
            except ZeroDivisionError:
                raise ValueError(
                    f"epsilon = {self.epsilon!r} is too small for THE: its probabilities p and q are "
                    "equal in floating point (the threshold search divides by zero); use a larger "
                    "epsilon") from None
        else:  # any real type (np.float32 too); bools, strings, NaN refused
            theta = check_real(theta, "theta", low=0.0, high=1.0, low_open=True, high_open=True)
        self.theta = float(theta)
        self.scale = 2.0 / self.epsilon

    def _params(self) -> dict[str, object]:
        return {"theta": round(self.theta, 6), "report": self.report}

    @property
    def p(self) -> float:
        """``1 - exp(eps (theta - 1) / 2) / 2``."""
        return 1.0 - 0.5 * math.exp(self.epsilon * (self.theta - 1.0) / 2.0)

    @property
    def q(self) -> float:
        """``exp(-eps theta / 2) / 2``."""
        return 0.5 * math.exp(-self.epsilon * self.theta / 2.0)

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return thresholded sets (bool n x k) or noisy vectors (float n x k)."""
        values = self._check_values(values)
        rng = check_rng(rng)
        if self.report == "set":
            return draw_unary(values, self.k, self.p, self.q, rng)
        n = values.shape[0]
        out = rng.laplace(0.0, self.scale, size=(n, self.k))
        out[np.arange(n), values] += 1.0
        return out

    def support(self, reports: np.ndarray) -> np.ndarray:
        """The thresholded set ``{u : z_u > theta}`` as a boolean n x k matrix."""
        reports = as_array(reports, "reports")
        if reports.ndim != 2 or reports.shape[1] != self.k:
            raise ValueError(f"reports must have shape (n, {self.k}), got {reports.shape}")
        if reports.dtype == bool:
            return reports
        if reports.dtype.kind != "f":
            raise ValueError(f"reports must be boolean sets or float vectors, got {reports.dtype}")
        # one reduction: any NaN or inf makes the sum non-finite (then count exactly: a sum may overflow)
        bad = 0 if np.isfinite(reports.sum()) else int((~np.isfinite(reports)).sum())
        if bad:
            raise ValueError(f"reports must be finite noisy vectors; found {bad} NaN or infinite entries "
                             "(a NaN is not 'below the threshold': it is no report)")
        return reports > self.theta

    def support_counts(self, reports: np.ndarray) -> np.ndarray:
        """Number of supports holding each value."""
        reports = as_array(reports, "reports")
        if reports.dtype == bool:
            return bit_counts(self.support(reports))
        counts = np.zeros(self.k, dtype=np.int64)
        for start in range(0, reports.shape[0], CHUNK):
            counts += self.support(reports[start : start + CHUNK]).sum(axis=0, dtype=np.int64)
        return counts

    def noisy_vector_density_ratio(self, z: np.ndarray, v: int, v2: int) -> np.ndarray:
        """``f(z | v) / f(z | v2)`` of the un-thresholded HE vector at points ``z`` (n x k)."""
        z = np.asarray(z, dtype=float)
        b = self.scale
        log_ratio = (-np.abs(z[:, v] - 1) + np.abs(z[:, v]) - np.abs(z[:, v2]) + np.abs(z[:, v2] - 1)) / b
        if v == v2:
            log_ratio = np.zeros(z.shape[0])
        return np.exp(log_ratio)
