"""Xu, Yuan & Wu (2019): diagnostics of the discrepancies (the chapter's "Why PFLR did not recover").

How often the noisy quadratic form of the functional mechanism is indefinite and the
remedy trims it (:func:`remedy_summary`), and the fairness weight at which the
noiseless shifted model has zero decision-boundary covariance (:func:`neutral_weight`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .experiments import PRIVATE_METHODS, load_xy, split_indices

__all__ = ["INDEFINITE_TOL", "remedy_summary", "neutral_weight"]

#: An eigenvalue below ``-INDEFINITE_TOL`` counts as negative (the noiseless forms are singular, their
#: zero eigenvalues come out as about -1e-12 by rounding; the largest are about 1e4).
INDEFINITE_TOL = 1e-6


def remedy_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per reading, method and epsilon: how often the noisy quadratic form was indefinite.

    ``indefinite``: share of fits whose symmetrised noisy form had a negative
    eigenvalue below ``-INDEFINITE_TOL`` (the objective is unbounded below without a
    remedy); ``trimmed``:
    share where directions of negative curvature were left *after* the remedy's ridge
    and spectral trimming removed them (the ``remedy_triggered`` flag); ``min eig``:
    mean smallest eigenvalue of the noisy form, next to that of the noiseless form.
    """
    priv = frame[frame["method"].isin(PRIVATE_METHODS)]
    g = priv.groupby(["reading", "dataset", "method", "epsilon"], sort=True)
    out = pd.DataFrame({
        "fits": g.size(),
        "indefinite": g["min_eig_noisy"].apply(lambda v: float((v < -INDEFINITE_TOL).mean())),
        "trimmed": g["remedy_triggered"].mean(),
        "min eig (noisy)": g["min_eig_noisy"].mean(),
        "min eig (noiseless)": g["min_eig_clean"].mean(),
        "accuracy": g["accuracy"].mean(),
        "rd": g["rd"].mean(),
    })
    return out.reset_index()


def neutral_weight(dataset: str, features: str = "compact", run: int = 0) -> dict[str, float]:
    """The fairness weights at which the noiseless shifted Taylor models meet ``g_D(w) = 0``.

    The noiseless model of a shift ``v`` with weight ``alpha`` is
    ``w(alpha) = -1/2 M^+ (lambda_1 + alpha v)``; its covariance ``mu @ w(alpha)`` is
    linear in ``alpha`` and vanishes at ``alpha* = -(mu @ M^+ lambda_1) / (mu @ M^+ v)``
    (training part of the ``run``-th split).

    Returns
    -------
    dict
        ``signed`` (``v = mu``: PFLR*'s shift, v0's PFLR) and ``abs`` (``v = sum |s - s_bar| x``:
        the literal rule of Algorithm 1).
    """
    from ...functional import fairness_shift, taylor_coefficients

    X, y, s, _ = load_xy(dataset, features)
    tr, _ = split_indices(len(y), run)
    lam1, lam2 = taylor_coefficients(X[tr], y[tr])
    mu = fairness_shift(X[tr], s[tr])
    absv = X[tr].T @ np.abs(s[tr] - s[tr].mean())
    pinv = np.linalg.pinv((lam2 + lam2.T) / 2.0, rcond=1e-10, hermitian=True)
    base = float(mu @ pinv @ lam1)
    return {"signed": -base / float(mu @ pinv @ mu), "abs": -base / float(mu @ pinv @ absv)}
