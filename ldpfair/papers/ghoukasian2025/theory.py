"""ghoukasian2025: numerical checks of Lemma 1, Theorem 2 and program (9)/(10).

- :func:`theorem2_check`: Theorem 2's closed form against a brute-force search
  over every binary mechanism whose privacy level is exactly epsilon.
- :func:`lemma1_check`: GRR never increases the pairwise data unfairness
  Delta' on random k-ary distributions.
- :func:`zeta_tradeoff`: the k-ary program solved exactly over a range of the
  utility bound zeta, against GRR, on a real dataset's group statistics.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..._validation import check_epsilon, check_rng
from ...ldp import GRR, optimal_binary_parameters, optimal_kary, smallest_feasible_zeta
from ...ldp.optimal import data_unfairness

__all__ = [
    "pairwise_unfairness",
    "binary_channel",
    "theorem2_bruteforce",
    "theorem2_check",
    "lemma1_check",
    "group_statistics",
    "zeta_tradeoff",
    "ZETA_CASES",
    "zeta_tradeoff_cases",
    "kary_summary",
    "FACTS_KARY_CHECK",
]


def pairwise_unfairness(Q: np.ndarray, p_a: ArrayLike, p_y_given_a: ArrayLike) -> float:
    """``Delta'(D_M) = max_{a,a'} |P(Y=1 | Z=a) - P(Y=1 | Z=a')|`` after the channel ``Q``.

    Parameters
    ----------
    Q : array (k, k)
        Row-stochastic channel, ``Q[a, z] = P(Z=z | A=a)``.
    p_a : sequence of float
        Group proportions of ``A``.
    p_y_given_a : sequence of float
        ``P(Y=1 | A=a)``.

    Returns
    -------
    float
    """
    Q = np.asarray(Q, dtype=float)
    pa = np.asarray(p_a, dtype=float)
    pa = pa / pa.sum()
    py = np.asarray(p_y_given_a, dtype=float)
    den = pa @ Q
    used = den > 0
    rate = ((py * pa) @ Q)[used] / den[used]
    return float(rate.max() - rate.min())


def binary_channel(p: float, q: float) -> np.ndarray:
    """The 2 x 2 channel with ``P(Z=0|A=0) = p`` and ``P(Z=1|A=1) = q``."""
    return np.array([[p, 1.0 - p], [1.0 - q, q]])


def theorem2_bruteforce(
    p_a: ArrayLike, p_y_given_a: ArrayLike, epsilon: float, n_grid: int = 4001
) -> tuple[float, float, float]:
    """Minimise ``Delta'(D_M) / Delta'(D)`` over binary mechanisms of level exactly epsilon.

    The search covers both pieces of the curve ``eps*(M) = eps`` with
    ``p, q >= 1/2`` (the assumption of the proof): ``p = e^eps (1 - q)`` and
    ``q = e^eps (1 - p)``, on ``n_grid`` points each, evaluating the ratio from
    the joint distribution directly (not from the paper's simplified objective).

    Returns
    -------
    (ratio, p, q) : the smallest ratio found and where.
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    e = np.exp(epsilon)
    base = pairwise_unfairness(np.eye(2), p_a, p_y_given_a)
    # piece 1: p = e^eps (1 - q) with p in [1/2, 1] and q in [1/2, 1]  ->  q in [1 - 1/e^eps, 1 - 1/(2 e^eps)]
    grid = np.linspace(max(0.5, 1 - 1 / e), 1 - 0.5 / e, n_grid)
    other = np.minimum(1.0, np.maximum(0.5, e * (1 - grid)))  # clip rounding at the ends of the piece
    # piece 2 by symmetry: (p, q) = (grid, other); all channels at once, in the order of a scan
    p = np.concatenate([other, grid])
    q = np.concatenate([grid, other])
    keep = np.concatenate([grid <= e * (1 - other) + 1e-12, grid <= e * (1 - other) + 1e-12])
    if not keep.any():
        return (np.inf, np.nan, np.nan)
    p, q = p[keep], q[keep]
    ratio = _binary_unfairness(p, q, p_a, p_y_given_a) / base
    i = int(np.argmin(ratio))  # the first smallest, as a scan keeping strict improvements
    return (float(ratio[i]), float(p[i]), float(q[i]))


def _binary_unfairness(p: np.ndarray, q: np.ndarray, p_a: ArrayLike, p_y_given_a: ArrayLike) -> np.ndarray:
    """:func:`pairwise_unfairness` of every channel ``binary_channel(p[i], q[i])`` at once."""
    pa = np.asarray(p_a, dtype=float)
    pa = pa / pa.sum()
    py = np.asarray(p_y_given_a, dtype=float)
    w = py * pa
    den0, den1 = pa[0] * p + pa[1] * (1 - q), pa[0] * (1 - p) + pa[1] * q
    num0, num1 = w[0] * p + w[1] * (1 - q), w[0] * (1 - p) + w[1] * q
    with np.errstate(divide="ignore", invalid="ignore"):
        r0, r1 = num0 / den0, num1 / den1
    both = (den0 > 0) & (den1 > 0)  # one output unused: a single rate, no gap
    return np.where(both, np.abs(r0 - r1), 0.0)


def theorem2_check(n_instances: int = 200, *, n_grid: int = 2001, seed: int = 0) -> pd.DataFrame:
    """Theorem 2's closed form against :func:`theorem2_bruteforce` on random instances.

    Each instance draws ``p_0 ~ U(0.05, 0.95)``, ``P(Y=1|A=a) ~ U(0, 1)`` and
    ``log10 eps ~ U(-1.5, 1.3)``.

    Returns
    -------
    DataFrame
        One row per instance: ``p0, p_y0, p_y1, epsilon``, the closed form's
        ``p_star, q_star, ratio_closed``, the brute force's ``ratio_brute``, the
        randomised-response ratio ``ratio_rr`` and ``gap = ratio_closed - ratio_brute``.
    """
    rng = check_rng(seed)
    rows = []
    for _ in range(int(n_instances)):
        p0 = rng.uniform(0.05, 0.95)
        py = rng.uniform(0, 1, size=2)
        eps = 10 ** rng.uniform(-1.5, 1.3)
        pa = (p0, 1 - p0)
        ps, qs = optimal_binary_parameters(pa, eps)
        base = pairwise_unfairness(np.eye(2), pa, py)
        closed = pairwise_unfairness(binary_channel(ps, qs), pa, py) / base
        brute, pb, qb = theorem2_bruteforce(pa, py, eps, n_grid)
        keep = np.exp(eps) / (1 + np.exp(eps))
        rr = pairwise_unfairness(binary_channel(keep, keep), pa, py) / base
        rows.append({"p0": p0, "p_y0": py[0], "p_y1": py[1], "epsilon": eps, "p_star": ps,
                     "q_star": qs, "ratio_closed": closed, "ratio_brute": brute, "p_brute": pb,
                     "q_brute": qb, "ratio_rr": rr, "gap": closed - brute})
    return pd.DataFrame(rows)


def lemma1_check(n_instances: int = 2000, *, k_max: int = 10, seed: int = 0) -> pd.DataFrame:
    """Lemma 1 (GRR never increases Delta') on random k-ary distributions.

    Each instance draws ``k ~ U{2..k_max}``, group proportions from a flat
    Dirichlet, ``P(Y=1|A=a) ~ U(0, 1)`` and ``log10 eps ~ U(-2, 1.5)``.

    Returns
    -------
    DataFrame
        ``k, epsilon, delta_prime, delta_prime_grr, ratio`` per instance.
    """
    rng = check_rng(seed)
    rows = []
    for _ in range(int(n_instances)):
        k = int(rng.integers(2, k_max + 1))
        pa = rng.dirichlet(np.ones(k))
        py = rng.uniform(0, 1, size=k)
        eps = 10 ** rng.uniform(-2, 1.5)
        before = pairwise_unfairness(np.eye(k), pa, py)
        after = pairwise_unfairness(GRR(k, eps).channel, pa, py)
        rows.append({"k": k, "epsilon": eps, "delta_prime": before, "delta_prime_grr": after,
                     "ratio": after / before})
    return pd.DataFrame(rows)


def group_statistics(dataset: str, protected: str) -> tuple[np.ndarray, np.ndarray]:
    """Group proportions and ``P(Y=1 | A=a)`` of a registry dataset (all rows).

    Returns
    -------
    (p_a, p_y_given_a) : two arrays of length k
    """
    from ... import datasets

    ds = datasets.load(dataset, protected=protected)
    a = ds.frame[protected].to_numpy().astype(np.int64)
    k = int(ds.domains[protected])
    counts = np.bincount(a, minlength=k).astype(float)
    pos = np.bincount(a, weights=ds.y.astype(float), minlength=k)
    return counts / counts.sum(), pos / counts


def zeta_tradeoff(
    p_a: ArrayLike,
    p_y_given_a: ArrayLike,
    epsilon: float,
    *,
    n_zeta: int = 25,
    zeta_max: float = 1.0,
) -> pd.DataFrame:
    """Program (9)/(10) solved exactly on a grid of zeta in ``[zeta_min, zeta_max]``.

    Returns
    -------
    DataFrame
        ``zeta, delta_opt, utility_opt`` (``sum_i p_i q_ii``) per zeta, with the
        constant columns ``zeta_min, zeta_grr, delta_grr, delta_orig``.
    """
    pa = np.asarray(p_a, dtype=float)
    pa = pa / pa.sum()
    py = np.asarray(p_y_given_a, dtype=float)
    k = pa.size
    zmin = smallest_feasible_zeta(pa, epsilon)
    grr = GRR(k, epsilon).channel
    zeta_grr = 1 - float(pa @ np.diag(grr))
    rows = []
    for z in np.unique(np.r_[np.linspace(zmin, zeta_max, n_zeta), min(zeta_grr, zeta_max)]):
        res = optimal_kary(pa, py, epsilon, float(z))
        rows.append({"zeta": float(z), "delta_opt": res.delta,
                     "utility_opt": float(pa @ np.diag(res.Q))})
    out = pd.DataFrame(rows)
    out["zeta_min"] = zmin
    out["zeta_grr"] = zeta_grr
    out["delta_grr"] = data_unfairness(grr, pa, py)
    out["delta_orig"] = data_unfairness(np.eye(k), pa, py)
    out["epsilon"] = float(epsilon)
    return out


#: The k-ary cases of the chapter's zeta figure: panel title -> (dataset, protected attribute).
ZETA_CASES: dict[str, tuple[str, str]] = {
    "Adult, race (k=5)": ("adult26k", "race"),
    "LSAC, fam_inc (k=5)": ("lsac", "fam_inc"),
    "Adult, race x gender (k=10)": ("adult26k", "race_gender"),
}


def zeta_tradeoff_cases(
    cases: dict[str, tuple[str, str]] | None = None,
    epsilons: Sequence[float] = (1.0, 4.0),
    *,
    n_zeta: int = 12,
) -> dict[str, pd.DataFrame]:
    """:func:`zeta_tradeoff` on each case's real group statistics, at each epsilon.

    Parameters
    ----------
    cases : dict, optional
        Title -> (dataset, protected attribute); default :data:`ZETA_CASES`.
    epsilons : sequence of float
    n_zeta : int
        Grid size of :func:`zeta_tradeoff`.

    Returns
    -------
    dict of str to DataFrame
        Per case, the rows of :func:`zeta_tradeoff` of every epsilon (what
        :func:`~ldpfair.papers.ghoukasian2025.figures.plot_zeta_tradeoff` draws).
    """
    out = {}
    for title, (dataset, protected) in (ZETA_CASES if cases is None else cases).items():
        pa, py = group_statistics(dataset, protected)
        out[title] = pd.concat([zeta_tradeoff(pa, py, e, n_zeta=n_zeta) for e in epsilons])
    return out


#: The facts file's numerical check of (9)/(10) on the full datasets (a check made while
#: preparing the reproduction, not a number of the paper): Delta at zeta_min and zeta_min + 0.05.
FACTS_KARY_CHECK = pd.DataFrame(
    [
        ("adult26k", "race", 1.0, 0.408, 0.595, 0.343, 0.047, 0.044, 0.022),
        ("adult26k", "race", 4.0, 0.055, 0.068, 0.343, 0.285, 0.286, 0.171),
        ("lsac", "fam_inc", 1.0, 0.507, 0.595, 0.094, 0.0056, 0.0056, 0.0029),
        ("adult26k", "race_gender", 2.0, 0.313, 0.549, 0.558, 0.211, 0.211, 0.150),
    ],
    columns=["dataset", "protected", "epsilon", "zeta_min", "zeta_grr", "delta_orig", "delta_grr",
             "delta_opt_zeta_min", "delta_opt_plus_05"],
)


def kary_summary(cases: pd.DataFrame = FACTS_KARY_CHECK) -> pd.DataFrame:
    """Recompute the columns of :data:`FACTS_KARY_CHECK` for each of its cases."""
    rows = []
    for case in cases.itertuples(index=False):
        pa, py = group_statistics(case.dataset, case.protected)
        k = pa.size
        zmin = smallest_feasible_zeta(pa, case.epsilon)
        grr = GRR(k, case.epsilon).channel
        rows.append({
            "dataset": case.dataset, "protected": case.protected, "epsilon": case.epsilon,
            "zeta_min": zmin, "zeta_grr": 1 - float(pa @ np.diag(grr)),
            "delta_orig": data_unfairness(np.eye(k), pa, py), "delta_grr": data_unfairness(grr, pa, py),
            "delta_opt_zeta_min": optimal_kary(pa, py, case.epsilon, zmin).delta,
            "delta_opt_plus_05": optimal_kary(pa, py, case.epsilon, min(1.0, zmin + 0.05)).delta,
        })
    return pd.DataFrame(rows)
