"""A small synthetic logistic-regression data set shared by the functional-mechanism tests."""

from __future__ import annotations

import numpy as np
import scipy.special


def xu_data(n: int = 600, d: int = 6, seed: int = 0, *, base: float = 0.8, shift: float = 0.2
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features in [0, 1] that depend on a binary group ``s``, and labels from a logistic model."""
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 2, n)
    X = np.clip(rng.uniform(size=(n, d)) * base + shift * s[:, None] * rng.uniform(size=(n, d)), 0, 1)  # noqa: N806
    w = rng.normal(size=d)
    y = (rng.uniform(size=n) < scipy.special.expit(3 * (X - 0.5) @ w + s)).astype(int)
    return X, y, s
