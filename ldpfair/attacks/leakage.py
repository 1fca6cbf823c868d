"""The leakage metric of hamman2023 (Definition 5.1): balanced accuracy of recovery x 100."""

from __future__ import annotations

import numpy as np

from ..metrics.groups import check_binary
from .queries import group_sizes

__all__ = ["leakage", "recovered"]


def _pair(a_true: object, a_hat: object) -> tuple[np.ndarray, np.ndarray]:
    t = check_binary(a_true, "a_true")
    h = check_binary(a_hat, "a_hat")
    if t.shape != h.shape:
        raise ValueError(f"a_hat has shape {h.shape}, a_true has shape {t.shape}; they must match")
    group_sizes(t, "a_true")
    return t, h


def recovered(a_true: object, a_hat: object) -> tuple[int, int]:
    """``(N_A, N_B)``: correctly recovered members of the advantaged and disadvantaged groups."""
    t, h = _pair(a_true, a_hat)
    return int(np.sum((t == 1) & (h == 1))), int(np.sum((t == 0) & (h == 0)))


def leakage(a_true: object, a_hat: object) -> float:
    """Leakage (%) = ``50 (N_A / N1 + N_B / N0)`` (Definition 5.1).

    Equal to ``100 * sklearn.metrics.balanced_accuracy_score(a_true, a_hat)``;
    random guessing scores about 50, perfect recovery 100.
    """
    t, h = _pair(a_true, a_hat)
    n1, n0 = group_sizes(t, "a_true")
    na, nb = recovered(t, h)
    return 50.0 * (na / n1 + nb / n0)
