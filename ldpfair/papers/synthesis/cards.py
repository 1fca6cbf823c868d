"""Mechanism cards of the synthesis chapter: variance, report size, privacy level, throughput.

For each mechanism of the benchmark at domain size ``k`` and budget ``epsilon``:

* the exact variance of its unbiased frequency estimate of one value at true
  frequency ``f`` (``n Var``, i.e. per user): for the pure protocols
  ``[f p (1 - p) + (1 - f) q (1 - q)] / (p - q)^2`` (each user's support holds the
  value with probability ``p`` if it is theirs, ``q`` if not, independently across
  users; this equals Wang et al.'s Eq. 2 with ``f``); for a channel ``Q`` with two
  outputs the same formula with ``p = Q[0, 0]`` and ``q = Q[1, 0]``. The population is
  fixed (``f n`` users hold the value), as in the simulation;
* the same variance measured by simulation (:func:`simulated_variance`);
* the bits of one report in its usual encoding (:func:`report_bits`);
* the exact privacy level ``ln max P(z | v) / P(z | v')`` from the exact probabilities;
* the measured throughput (users per second) of ``benchmarks/bench_ldp.py``
  (``results/benchmarks/ldp_throughput.csv``), where it measured the mechanism.

OPT (ghoukasian2025, Theorem 2) depends on the group proportions: its card is
taken at proportions ``(f, 1 - f)`` of the value whose frequency is estimated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..._validation import check_epsilon
from ...experiments.grid import seed_from
from ...ldp import SS, LocalHashing, make_protocol, optimal_binary
from ...ldp.audit import audit
from . import open as bench_open
from .experiments import MECHANISMS

__all__ = [
    "MECHANISMS", "audits", "cards", "exact_variance", "mechanism", "report_bits", "simulated_variance",
]

_THROUGHPUT = Path(__file__).resolve().parents[3] / "results" / "benchmarks" / "ldp_throughput.csv"


def _check(name: str, k: int, f: float) -> None:
    if name not in MECHANISMS:
        raise ValueError(f"unknown mechanism {name!r}; valid: {', '.join(MECHANISMS)}")
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
        raise ValueError(f"k must be an int >= 2, got {k!r}")
    if name == "OPT" and k != 2:
        raise ValueError(f"the OPT card is defined for k = 2 (closed form) only, got k={k}")
    if not (isinstance(f, (int, float)) and 0 < f < 1):
        raise ValueError(f"f must be a frequency in (0, 1), got {f!r}")


def mechanism(name: str, k: int, epsilon: float, f: float = 0.3) -> Any:
    """The mechanism object: a protocol of :mod:`ldpfair.ldp`, or OPT at proportions ``(f, 1 - f)``."""
    _check(name, k, f)
    epsilon = check_epsilon(epsilon, "epsilon")
    if name == "OPT":
        return optimal_binary((f, 1 - f), epsilon)
    return make_protocol(name, k, epsilon)


def exact_variance(name: str, k: int, epsilon: float, f: float = 0.3) -> float:
    """``n Var`` of the unbiased estimate of value 0's frequency at true frequency ``f``."""
    m = mechanism(name, k, epsilon, f)
    if name == "OPT":
        p, q = float(m.channel[0, 0]), float(m.channel[1, 0])
    else:
        p, q = m.p, m.q
    return float((f * p * (1 - p) + (1 - f) * q * (1 - q)) / (p - q) ** 2)


def simulated_variance(name: str, k: int, epsilon: float, f: float = 0.3, *, n: int = 1000,
                       reps: int = 400, seed: int = 0) -> tuple[float, float]:
    """``n Var`` of value 0's frequency estimate over ``reps`` independent collections of ``n`` users.

    Value 0 is held by ``round(f n)`` users, the others are spread over ``1 .. k-1``.
    Returns ``(n * sample variance, its standard error)``; the standard error of a
    sample variance is estimated from the sample's fourth central moment
    (``sqrt((m4 - s^4 (reps - 3) / (reps - 1)) / reps)``), which stays right for the
    heavy-tailed estimates of large budgets, where the normal approximation does not.
    """
    _check(name, k, f)
    if isinstance(n, bool) or not isinstance(n, int) or n < 10:
        raise ValueError(f"n must be an int >= 10, got {n!r}")
    if isinstance(reps, bool) or not isinstance(reps, int) or reps < 10:
        raise ValueError(f"reps must be an int >= 10, got {reps!r}")
    m = mechanism(name, k, epsilon, f)
    n0 = round(f * n)
    values = np.concatenate([np.zeros(n0, dtype=np.int64), 1 + np.arange(n - n0, dtype=np.int64) % (k - 1)])
    rng = np.random.default_rng(seed_from("synthesis-cards", name, k, float(epsilon), float(f), seed))
    est = np.array([m.estimate(m.perturb(values, rng))[0] for _ in range(reps)])
    s2 = float(est.var(ddof=1))
    m4 = float(np.mean((est - est.mean()) ** 4))
    se = math.sqrt(max(m4 - s2**2 * (reps - 3) / (reps - 1), 0.0) / reps)
    return n * s2, n * se


def report_bits(name: str, k: int, epsilon: float) -> int:
    """Bits of one report in its usual encoding.

    ``ceil(log2 k)`` (GRR, OPT), the hash seed pair plus the hashed value (BLH, OLH:
    ``2 * 31 + ceil(log2 g)``), ``k`` (RAPPOR, OUE, THE: one bit per value) or
    ``omega * ceil(log2 k)`` (SS: the subset's members).
    """
    _check(name, k, 0.5)
    value_bits = max(1, math.ceil(math.log2(k)))
    if name in ("GRR", "OPT"):
        return value_bits
    m = make_protocol(name, k, epsilon)
    if isinstance(m, LocalHashing):  # BLH, OLH
        return 2 * 31 + max(1, math.ceil(math.log2(m.g)))
    if isinstance(m, SS):
        return int(m.omega) * value_bits
    return int(k)


def _throughput() -> pd.DataFrame:
    if not _THROUGHPUT.exists():
        return pd.DataFrame(columns=["protocol", "k", "epsilon", "ldpfair_users_per_s"])
    return pd.read_csv(_THROUGHPUT)[["protocol", "k", "epsilon", "ldpfair_users_per_s"]]


def _audit_lower(name: str, m: Any, k: int, epsilon: float, seed: int) -> float:
    """The empirical audit's lower bound on the level of the book's mechanism ``m`` (seeded by name)."""
    rng = np.random.default_rng(seed_from("synthesis-audit", name, k, float(epsilon), seed))
    return audit(m, epsilon, samples=bench_open.audit_samples(), name=name, rng=rng).lower_bound


def audits(
    k: int = 2, epsilons: Sequence[float] = (1.0, 8.0), f: float = 0.3, *, seed: int = 0
) -> pd.DataFrame:
    """The privacy columns of :func:`cards` alone (no simulation): one row per (mechanism, epsilon).

    Columns: ``mechanism, epsilon, level`` (exact level), ``audit_lower_bound``
    (the same audit, with the same seeds, as :func:`cards`), ``origin`` (``"book"``
    or ``"user"``: the user mechanisms admitted in this session follow the book's).
    """
    rows = []
    for name in MECHANISMS:
        for eps in epsilons:
            m = mechanism(name, k, eps, f)
            rows.append({"mechanism": name, "epsilon": float(eps),
                         "level": float(math.log(m.worst_case_ratio())),
                         "audit_lower_bound": _audit_lower(name, m, k, eps, seed), "origin": "book"})
    if bench_open.ADMITTED and k == bench_open.BENCH_K:
        audited = bench_open.admit_all(bench_open.ADMITTED, epsilons)
        for r in audited.to_dict("records"):
            rows.append({"mechanism": r["mechanism"], "epsilon": float(r["epsilon"]),
                         "level": r["exact level"],
                         "audit_lower_bound": r["audit lower bound"], "origin": "user"})
    return pd.DataFrame(rows)


def cards(k: int = 2, epsilons: Sequence[float] = (1.0, 8.0), f: float = 0.3, *, n: int = 1000,
          reps: int = 400, seed: int = 0) -> pd.DataFrame:
    """The mechanism card table: one row per (mechanism, epsilon).

    Columns: ``mechanism, epsilon, var_exact, var_simulated, var_se, z`` ((simulated -
    exact) / se), ``bits, level`` (exact privacy level, ``ln`` of the worst-case
    ratio), ``users_per_s`` (NaN where the benchmark did not measure it),
    ``audit_lower_bound`` (the empirical privacy audit's lower bound on the level,
    :func:`ldpfair.ldp.audit.audit`, with :func:`~ldpfair.papers.synthesis.open.audit_samples`
    reports per input). The user mechanisms admitted in this session
    (:data:`~ldpfair.papers.synthesis.open.ADMITTED`) follow, with their own cards
    (no simulated variance; ``users_per_s`` measured here).
    """
    tp = _throughput()
    rows = []
    for name in MECHANISMS:
        for eps in epsilons:
            m = mechanism(name, k, eps, f)
            exact = exact_variance(name, k, eps, f)
            sim, se = simulated_variance(name, k, eps, f, n=n, reps=reps, seed=seed)
            lower = _audit_lower(name, m, k, eps, seed)
            hit = tp[(tp["protocol"] == name) & (tp["k"] == k) & np.isclose(tp["epsilon"], eps)]
            rows.append({"mechanism": name, "epsilon": float(eps), "var_exact": exact, "var_simulated": sim,
                         "var_se": se, "z": (sim - exact) / se, "bits": report_bits(name, k, eps),
                         "level": float(math.log(m.worst_case_ratio())),
                         "users_per_s": float(hit["ldpfair_users_per_s"].iloc[0]) if len(hit) else np.nan,
                         "audit_lower_bound": lower})
    if bench_open.ADMITTED and k == bench_open.BENCH_K:
        user = bench_open.mechanism_cards(bench_open.ADMITTED, epsilons, f, seed=seed)
        rows += user.drop(columns="privacy").to_dict("records")
    return pd.DataFrame(rows)
