"""Attribute-Conceal: answering bias queries with differential privacy (hamman2023 Sec. 4).

Neighbouring test sets differ in ONE individual's protected attribute (the
features and labels are known to the model developers). For ``m`` statistical-
parity queries the l1 sensitivities are

- global (Theorem 4): ``Delta_SP = m/2 + m/(n-1)``; ``Delta_|SP| = m/2`` (Theorem 7);
- local at a test set with group sizes ``(N1, N0)``, maximised over the
  classifiers: ``m * max(1/(N1+1) + 1/N0, 1/N1 + 1/(N0+1))`` (each term only when
  the flip leaves both groups non-empty); with ``N0 <= N1`` this is the paper's
  ``m/(N1+1) + m/N0``;
- beta-smooth (Definition 4.3, Nissim et al. 2007): the maximum over all test sets
  ``S'`` of ``LS(S') exp(-beta d(S, S'))``. As ``LS`` depends on ``S'`` only through
  ``N0'``, and the nearest ``S'`` with ``N0'`` minority members is at distance
  ``|N0' - N0|``, :func:`smooth_sensitivity_sp` computes it exactly by a maximum
  over ``N0' = 1 .. n-1``; for ``2 <= N0 <= N1`` it equals the closed form of
  Theorem 5, ``max(m/(N1+1) + m/N0, exp(-(N0-2) beta)(m/(n-1) + m/2))``.

Mechanisms (``answer = SP + scale * Z``, one independent draw per query):

=====================  ===============================  ==============================
mechanism              noise                            guarantee
=====================  ===============================  ==============================
``"conceal"``          ``6 S/eps`` x Cauchy, beta=eps/6m  eps-DP (Theorem 5, Alg. 3)
``"smooth_laplace"``   ``2 S/eps`` x Laplace,           (eps, delta)-DP (Theorem 6)
                       beta = eps / (4(m + ln(2/delta)))
``"laplace"``          Lap(Delta_SP / eps)               eps-DP (Theorem 4)
``"none"``             none (eps = inf)                  none
=====================  ===============================  ==============================

Readings of the noise scale (``noise_reading``, :data:`NOISE_READINGS`): the
default ``"theorem5"`` is the mechanisms as the theorems state them (the budget
``eps`` covers all ``m`` answers). The other readings are the candidate
interpretations examined in the hamman2023 chapter, each one parameter value of
:func:`noise_scale`:

==============================  ================================================  ============
reading                         Attribute-Conceal scale (Laplace baseline)        guarantee
==============================  ================================================  ============
``"theorem5"``                  ``6 S_m(eps/6m) / eps`` (``Delta_m / eps``)        eps-DP
``"per_query"``                 ``6 S_1(eps/6) / eps`` (``Delta_1 / eps``)          m eps-DP
``"beta_eps6"``                 ``6 S_m(eps/6) / eps`` (``Delta_m / eps``)          none proven
``"no_factor6"``                ``S_m(eps/6m) / eps`` (``Delta_m / eps``)           none proven
``"per_query_no_factor6"``      ``S_1(eps/6) / eps`` (``Delta_1 / eps``)            none proven
``"smooth_laplace"``            Laplace ``2 S_m(b6) / eps`` (``Delta_m / eps``)     (eps, delta)-DP
``"smooth_laplace_per_query"``  Laplace ``2 S_1(b6') / eps`` (``Delta_1 / eps``)    (m eps, m delta)
==============================  ================================================  ============

``S_k(beta)`` is the beta-smooth sensitivity of ``k`` SP answers, ``Delta_k = k/2 +
k/(n-1)`` the global one, ``b6 = eps / (4(m + ln(2/delta)))`` and ``b6'`` the same
with ``m = 1``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._validation import check_choice, check_epsilon, check_probability, check_rng

__all__ = [
    "MECHANISMS",
    "NOISE_READINGS",
    "noise_scale",
    "global_sensitivity_sp",
    "global_sensitivity_abs_sp",
    "local_sensitivity_sp",
    "smooth_sensitivity_sp",
    "smooth_sensitivity_abs_sp",
    "attribute_conceal",
    "smooth_laplace_mechanism",
    "laplace_mechanism",
    "answer_queries",
]

#: Mechanisms of :func:`answer_queries`.
MECHANISMS: tuple[str, ...] = ("conceal", "smooth_laplace", "laplace", "none")
#: Readings of the noise scale of :func:`noise_scale` (``"theorem5"``: as the theorems state it).
NOISE_READINGS: tuple[str, ...] = ("theorem5", "per_query", "beta_eps6", "no_factor6", "per_query_no_factor6",
                                   "smooth_laplace", "smooth_laplace_per_query")


def _int(value: object, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if int(value) < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}")
    return int(value)


def _groups(n1: object, n0: object) -> tuple[int, int]:
    return _int(n1, "n1 (N1)", 1), _int(n0, "n0 (N0)", 1)


def _beta(beta: object) -> float:
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or not float(beta) > 0:
        raise ValueError(f"beta must be a real number > 0, got {beta!r}")
    if not math.isfinite(float(beta)):
        raise ValueError(f"beta must be finite, got {beta!r}")
    return float(beta)


def global_sensitivity_sp(n: int, m: int = 1) -> float:
    """Theorem 4: l1 global sensitivity ``m/2 + m/(n-1)`` of ``m`` SP (or EO) queries.

    Raises
    ------
    ValueError
        If ``n < 3`` (both groups non-empty in every neighbour needs ``n >= 3``) or ``m < 1``.
    """
    n = _int(n, "n", 3)
    m = _int(m, "m", 1)
    return m / 2.0 + m / (n - 1.0)


def global_sensitivity_abs_sp(m: int = 1) -> float:
    """Theorem 7: l1 global sensitivity ``m/2`` of ``m`` absolute-SP queries."""
    return _int(m, "m", 1) / 2.0


def _ls_per_query(n1: np.ndarray, n0: np.ndarray) -> np.ndarray:
    """Local sensitivity of ONE SP query, maximised over the classifier, at sizes (n1, n0)."""
    n1 = np.asarray(n1, dtype=float)
    n0 = np.asarray(n0, dtype=float)
    with np.errstate(divide="ignore"):
        flip_0_to_1 = np.where(n0 >= 2, 1.0 / (n1 + 1.0) + 1.0 / n0, 0.0)
        flip_1_to_0 = np.where(n1 >= 2, 1.0 / n1 + 1.0 / (n0 + 1.0), 0.0)
    return np.maximum(flip_0_to_1, flip_1_to_0)


def local_sensitivity_sp(n1: int, n0: int, m: int = 1) -> float:
    """Local l1 sensitivity of ``m`` SP queries at a test set with group sizes ``(N1, N0)``.

    The maximum over every classifier and every neighbour (one attribute flipped,
    both groups staying non-empty) of ``||SP(S) - SP(S')||_1``:
    ``m * max(1/(N1+1) + 1/N0, 1/N1 + 1/(N0+1))``, a term counting only when its flip
    is allowed. For ``N0 <= N1`` it is the paper's ``m/(N1+1) + m/N0``.
    """
    n1, n0 = _groups(n1, n0)
    return _int(m, "m", 1) * float(_ls_per_query(np.array(n1), np.array(n0)))


def smooth_sensitivity_sp(n1: int, n0: int, m: int, beta: float, *, form: str = "exact") -> float:
    """beta-smooth sensitivity of ``m`` SP queries (Definition 4.3, Theorem 5).

    Parameters
    ----------
    n1, n0 : int
        Group sizes ``N1, N0 >= 1`` of the test set.
    m : int
        Number of queries.
    beta : float
        Smoothness parameter, > 0 (``eps / (6m)`` in Theorem 5).
    form : {"exact", "paper"}
        ``"exact"``: the maximum over every ``N0' = 1 .. n-1`` of
        ``LS(n - N0', N0') exp(-beta |N0' - N0|)`` (equal to a brute force over all
        attribute vectors: tested). ``"paper"``: Theorem 5's closed form
        ``max(m/(N1+1) + m/N0, exp(-(N0-2) beta) (m/(n-1) + m/2))``, derived for
        ``N0 < N1``; it equals the exact value when ``2 <= N0 <= N1``,
        over-estimates it when ``N0 = 1`` and can under-estimate it when ``N0 > N1``
        (then it is not a valid smooth bound).
    """
    n1, n0 = _groups(n1, n0)
    m = _int(m, "m", 1)
    beta = _beta(beta)
    check_choice(form, ["exact", "paper"], "form")
    n = n1 + n0
    if form == "paper":
        return max(m / (n1 + 1.0) + m / n0, math.exp(-(n0 - 2) * beta) * (m / (n - 1.0) + m / 2.0))
    n0s = np.arange(1, n)
    ls = _ls_per_query(n - n0s, n0s)
    return float(m * np.max(ls * np.exp(-beta * np.abs(n0s - n0))))


def smooth_sensitivity_abs_sp(n1: int, n0: int, m: int, beta: float) -> float:
    """beta-smooth sensitivity of ``m`` absolute-SP queries, Appendix A.6's closed form.

    ``max(m/N0, m exp(-(N0-2) beta) / 2)`` (derived for ``N0 < N1``).
    """
    n1, n0 = _groups(n1, n0)
    m = _int(m, "m", 1)
    beta = _beta(beta)
    return max(m / n0, m * math.exp(-(n0 - 2) * beta) / 2.0)


def _answers(sp: object) -> np.ndarray:
    arr = np.asarray(sp, dtype=float)
    if arr.ndim != 1 or arr.shape[0] < 1 or not np.all(np.isfinite(arr)):
        raise ValueError(f"sp must be a non-empty 1-D vector of finite query answers, got shape "
                         f"{arr.shape}")
    return arr


def attribute_conceal(sp: object, n1: int, n0: int, epsilon: float, rng: object,
                      *, form: str = "exact") -> np.ndarray:
    """Algorithm 3 (Theorem 5): ``SP + (6 S / eps) Z``, Z standard Cauchy, ``beta = eps / (6 m)``.

    Parameters
    ----------
    sp : array_like, shape (m,)
        The true answers.
    n1, n0 : int
        Group sizes of the test set (known to the compliance team).
    epsilon : float
        Privacy budget, > 0.
    rng : Generator, SeedSequence or int
        Source of the noise.
    form : {"exact", "paper"}
        Smooth sensitivity used (:func:`smooth_sensitivity_sp`). The exact value
        equals the paper's closed form whenever ``2 <= N0 <= N1`` (every experiment
        of the paper); the closed form under-estimates it when ``N0 > N1``.

    Returns
    -------
    numpy.ndarray
        The eps-DP answers.
    """
    arr = _answers(sp)
    eps = check_epsilon(epsilon)
    gen = check_rng(rng)
    m = arr.shape[0]
    s = smooth_sensitivity_sp(n1, n0, m, eps / (6.0 * m), form=form)
    return arr + (6.0 * s / eps) * gen.standard_cauchy(m)


def smooth_laplace_mechanism(sp: object, n1: int, n0: int, epsilon: float, delta: float,
                             rng: object, *, form: str = "exact") -> np.ndarray:
    """Theorem 6: ``SP + (2 S / eps) Z``, Z standard Laplace, ``beta = eps / (4(m + ln(2/delta)))``.

    (eps, delta)-DP; ``delta`` must lie in (0, 1). The paper states the theorem for
    ``eps`` in (0, 1); any ``eps > 0`` is accepted here.
    """
    arr = _answers(sp)
    eps = check_epsilon(epsilon)
    delta = check_probability(delta, "delta", open_interval=True)
    gen = check_rng(rng)
    m = arr.shape[0]
    s = smooth_sensitivity_sp(n1, n0, m, eps / (4.0 * (m + math.log(2.0 / delta))), form=form)
    return arr + (2.0 * s / eps) * gen.laplace(0.0, 1.0, m)


def laplace_mechanism(sp: object, n: int, epsilon: float, rng: object) -> np.ndarray:
    """Theorem 4: ``SP + Lap(Delta_SP / eps)`` per query, ``Delta_SP = m/2 + m/(n-1)``."""
    arr = _answers(sp)
    eps = check_epsilon(epsilon)
    gen = check_rng(rng)
    scale = global_sensitivity_sp(n, arr.shape[0]) / eps
    return arr + gen.laplace(0.0, scale, arr.shape[0])


def noise_scale(n1: int, n0: int, m: int, epsilon: float, mechanism: str = "conceal",
                reading: str = "theorem5", *, delta: float = 1e-5) -> tuple[float, str]:
    """Per-answer noise scale and distribution of a mechanism under one reading of the paper.

    Parameters
    ----------
    n1, n0 : int
        Group sizes of the test set.
    m : int
        Number of queries answered together.
    epsilon : float
        Privacy budget, > 0 and finite.
    mechanism : {"conceal", "smooth_laplace", "laplace"}
        ``"conceal"`` under ``reading``; ``"smooth_laplace"`` is Theorem 6 whatever the
        reading's noise family (``reading`` then only says whether the budget is per query);
        ``"laplace"`` is Theorem 4's baseline (``Delta_m / eps``, or ``Delta_1 / eps`` under
        the per-query readings).
    reading : str
        One of :data:`NOISE_READINGS` (table in the module docstring).
    delta : float
        delta of the smooth-Laplace readings.

    Returns
    -------
    (float, str)
        The scale ``b`` (answer = SP + b Z) and the family of ``Z`` (``"cauchy"`` or ``"laplace"``).
    """
    check_choice(mechanism, ["conceal", "smooth_laplace", "laplace"], "mechanism")
    check_choice(reading, list(NOISE_READINGS), "noise_reading")
    n1, n0 = _groups(n1, n0)
    m = _int(m, "m", 1)
    eps = check_epsilon(epsilon)
    per_query = reading.startswith("per_query") or reading == "smooth_laplace_per_query"
    k = 1 if per_query else m
    if mechanism == "laplace":
        return global_sensitivity_sp(n1 + n0, k) / eps, "laplace"
    if mechanism == "smooth_laplace" or reading.startswith("smooth_laplace"):
        delta = check_probability(delta, "delta", open_interval=True)
        s = smooth_sensitivity_sp(n1, n0, k, eps / (4.0 * (k + math.log(2.0 / delta))))
        return 2.0 * s / eps, "laplace"
    beta = eps / 6.0 if reading in ("per_query", "beta_eps6", "per_query_no_factor6") else eps / (6.0 * m)
    s = smooth_sensitivity_sp(n1, n0, k, beta)
    factor = 1.0 if reading.endswith("no_factor6") else 6.0
    return factor * s / eps, "cauchy"


def answer_queries(sp: object, n1: int, n0: int, epsilon: float, mechanism: str, rng: object,
                   *, delta: float = 1e-5, noise_reading: str = "theorem5") -> np.ndarray:
    """Answer SP queries with one of :data:`MECHANISMS`.

    ``epsilon = inf`` (or ``mechanism = "none"``) returns the exact answers.
    ``noise_reading`` (:data:`NOISE_READINGS`) selects a reading of the noise scale
    (:func:`noise_scale`); the default ``"theorem5"`` is the mechanisms as stated.
    """
    check_choice(mechanism, list(MECHANISMS), "mechanism")
    check_choice(noise_reading, list(NOISE_READINGS), "noise_reading")
    eps = check_epsilon(epsilon, allow_inf=True)
    arr = _answers(sp)
    if mechanism == "none" or math.isinf(eps):
        return arr.copy()
    if noise_reading != "theorem5":
        scale, family = noise_scale(n1, n0, arr.shape[0], eps, mechanism, noise_reading, delta=delta)
        gen = check_rng(rng)
        z = gen.standard_cauchy(arr.shape[0]) if family == "cauchy" else gen.laplace(0.0, 1.0, arr.shape[0])
        return arr + scale * z
    if mechanism == "conceal":
        return attribute_conceal(arr, n1, n0, eps, rng)
    if mechanism == "smooth_laplace":
        return smooth_laplace_mechanism(arr, n1, n0, eps, delta, rng)
    n1, n0 = _groups(n1, n0)
    return laplace_mechanism(arr, n1 + n0, eps, rng)
