"""Executable evidence for the errors found in the papers (the book's Errata page).

Each function recomputes one erratum from scratch, with a check that does not
rely on the code it questions where that is possible (a brute force over every
attribute vector and classifier, or the paper's own formula run as printed).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from .._validation import check_count, check_rng

__all__ = [
    "algorithm2_sign",
    "compas_date_filter",
    "smooth_sensitivity_brute_force",
]


def smooth_sensitivity_brute_force(n: int = 8, beta: float = 0.1) -> pd.DataFrame:
    """beta-smooth sensitivity of one SP query by brute force, against Theorem 5's closed form.

    Every attribute vector ``a`` in ``{0, 1}^n`` with both groups non-empty and
    every classifier ``h`` in ``{0, 1}^n`` is enumerated: the local sensitivity
    ``LS(a)`` is the largest change of ``SP(h, a)`` over ``h`` and over the
    neighbours of ``a`` (one attribute flipped, both groups still non-empty), and the
    smooth sensitivity is ``max_a' LS(a') exp(-beta d(a, a'))`` over all ``a'``
    (Definition 4.3, Nissim et al. 2007). Nothing of ``ldpfair.attacks`` is used
    for the brute force.

    Parameters
    ----------
    n : int
        Test-set size, 3 to 12 (``4^n`` SP values are enumerated).
    beta : float
        Smoothness parameter, > 0.

    Returns
    -------
    pandas.DataFrame
        One row per group size ``N0 = 1 .. n-1`` (``N1 = n - N0``): ``brute force``,
        ``exact`` (:func:`ldpfair.attacks.conceal.smooth_sensitivity_sp`),
        ``Theorem 5`` (the paper's closed form) and ``Theorem 5 / brute force``.
    """
    from ..attacks.conceal import smooth_sensitivity_sp

    check_count(n, "n", minimum=3, maximum=12)
    if not (isinstance(beta, int | float) and math.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a finite number > 0, got {beta!r}")
    vecs = np.array(list(itertools.product((0, 1), repeat=n)), dtype=np.int64)  # rows: a or h
    n1 = vecs.sum(axis=1)
    n0 = n - n1
    ok = (n1 > 0) & (n0 > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        sp = (vecs @ vecs.T) / n1[None, :] - (vecs @ (1 - vecs).T) / n0[None, :]  # [h, a]
    index = np.arange(len(vecs))  # itertools.product order: index = binary number of the vector
    ls = np.full(len(vecs), -np.inf)
    for j in range(n):
        nb = index ^ (1 << (n - 1 - j))
        valid = ok & ok[nb]
        change = np.abs(sp[:, index] - sp[:, nb]).max(axis=0)
        ls = np.where(valid, np.maximum(ls, change), ls)
    dist = np.array([[bin(int(x) ^ int(y)).count("1") for y in index] for x in index])
    smooth = np.max(np.where(ok[None, :], ls[None, :] * np.exp(-beta * dist), -np.inf), axis=1)
    rows = []
    for k0 in range(1, n):
        a = np.array([1] * (n - k0) + [0] * k0)
        i = int(a @ (1 << np.arange(n)[::-1]))
        paper = smooth_sensitivity_sp(n - k0, k0, 1, beta, form="paper")
        rows.append({"N1": n - k0, "N0": k0, "brute force": float(smooth[i]),
                     "exact": smooth_sensitivity_sp(n - k0, k0, 1, beta), "Theorem 5": paper,
                     "Theorem 5 / brute force": paper / float(smooth[i])})
    return pd.DataFrame(rows)


def algorithm2_sign(n: int = 300, n0: int = 12, m: int = 120, seed: int = 0) -> pd.DataFrame:
    """Algorithm 2 with the paper's sign of ``eta`` and with the corrected one, on exact answers.

    With ``v_j = 1/N1`` (group 1) or ``-1/N0`` (group 0), ``r = 1/N1`` and
    ``s = r - v`` (``N0``-sparse, ``s_j = 1/N1 + 1/N0`` on group 0), the answers are
    ``SP = H v = H r - H s``. The paper sets ``eta = SP - H r``, which is ``-H s``:
    basis pursuit then returns ``-s``, whose entries are never above the threshold
    ``(1/N1 + 1/N0) / 2``, so every member is assigned group 1 (leakage 50, chance).
    ``eta = H r - SP = H s`` recovers ``s``.

    Parameters
    ----------
    n, n0 : int
        Test-set size and group-0 size (``1 <= n0 < n``).
    m : int
        Number of random binary models queried.
    seed : int
        Seed of the models and of which members are in group 0.

    Returns
    -------
    pandas.DataFrame
        One row per sign: ``eta``, ``min s``, ``max s``, ``members assigned group 0``,
        ``leakage`` (balanced accuracy x 100, Definition 5.1).
    """
    from ..attacks.queries import sp_queries
    from ..attacks.reveal import basis_pursuit, random_binary_models

    check_count(n, "n", minimum=2)
    check_count(m, "m")
    check_count(n0, "n0", maximum=n - 1)
    rng = check_rng(np.random.default_rng(np.random.SeedSequence(seed)))
    a = np.ones(n, dtype=np.int64)
    a[rng.choice(n, size=n0, replace=False)] = 0
    H = random_binary_models(m, n, rng)  # noqa: N806
    sp = sp_queries(H, a)
    n1 = n - n0
    hr = H.sum(axis=1) / n1
    threshold = 0.5 * (1.0 / n1 + 1.0 / n0)
    rows = []
    for label, eta in (("paper: SP - H r", sp - hr), ("corrected: H r - SP", hr - sp)):
        s = basis_pursuit(H, eta)
        guess = np.where(s > threshold, 0, 1)
        tpr0 = float(np.mean(guess[a == 0] == 0))
        tpr1 = float(np.mean(guess[a == 1] == 1))
        rows.append({"eta": label, "min s": float(s.min()), "max s": float(s.max()),
                     "members assigned group 0": int((guess == 0).sum()),
                     "leakage": 100 * (tpr0 + tpr1) / 2})
    return pd.DataFrame(rows)


def compas_date_filter() -> pd.DataFrame:
    """Rows of ProPublica's COMPAS table kept by the authors' screening-date filter and by the intended one.

    makhlouf2024's code keeps ``days_b_screening_arrest <= 30 OR >= -30``, which every
    number satisfies, so it only drops the rows where the value is missing; the
    intended window is ``-30 <= days <= 30`` (AND). Counted on the raw file, before
    and after keeping the two races the paper studies.

    Returns
    -------
    pandas.DataFrame
        One row per filter: ``rows kept`` and ``rows kept (two races)``.
    """
    from ..datasets.registry import fetch

    raw = pd.read_csv(fetch("propublica-compas/compas-scores-two-years.csv"), low_memory=False)
    days = raw["days_b_screening_arrest"].to_numpy(dtype=np.float64)
    races = raw["race"].isin(["African-American", "Caucasian"]).to_numpy()
    with np.errstate(invalid="ignore"):
        filters = {
            "none (raw file)": np.ones(len(raw), dtype=bool),
            "days not missing": ~np.isnan(days),
            "authors: days <= 30 OR days >= -30": (days <= 30) | (days >= -30),
            "intended: -30 <= days <= 30": (days <= 30) & (days >= -30),
        }
    return pd.DataFrame([{"filter": k, "rows kept": int(v.sum()),
                          "rows kept (two races)": int((v & races).sum())}
                         for k, v in filters.items()])
