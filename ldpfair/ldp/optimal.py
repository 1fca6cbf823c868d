"""The optimal fairness mechanism of ghoukasian2025 (OPT).

- :func:`optimal_binary` (Theorem 2): for binary ``A`` with group proportions
  ``(p_0, p_1)`` the mechanism minimising the data unfairness ``Delta'`` among
  mechanisms of privacy level exactly ``eps`` keeps the *minority* group's value
  with probability ``1 - e^-eps / 2`` and reports the *majority* group's value as
  a fair coin. With ``p = P(Z=0 | A=0)``, ``q = P(Z=1 | A=1)``:
  ``p_0 < p_1 -> (p, q) = (1 - e^-eps/2, 1/2)``; ``p_1 < p_0 -> (1/2, 1 - e^-eps/2)``.
  Ties: group 0 is taken as the majority (the authors' code takes the mode of
  the training ``A``, which is the smaller code on a tie), giving
  ``(1/2, 1 - e^-eps/2)``. The authors' tie rule ``p = q = 1 - e^-eps/2`` is
  not eps-LDP and is not offered.
- :func:`optimal_kary`: program (9)/(10), ``min_Q max_a |P(Y=1|Z=a)/P(Y=1) - 1|``
  over row-stochastic, eps-LDP, truthful ``Q`` with ``sum_i p_i q_ii >= 1 - zeta``;
  a min-max linear-fractional program solved exactly with the generalised
  Dinkelbach method (one HiGHS LP per iteration) or bisection on the objective
  with HiGHS feasibility LPs (the authors used branch and bound to a 1e-2 gap).
- :func:`smallest_feasible_zeta`: ``1 - max sum_i p_i q_ii`` under the same
  constraints (an LP); the paper's experiments use it ("smallest feasible zeta").
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import OptimizeResult, linprog

from .._validation import as_array, check_choice, check_count, check_epsilon, check_real, check_real_array
from ..identity import versioned
from .base import EXP_ARG_MAX
from .channel import ChannelMechanism, channel_epsilon, check_channel_matrix, within_level

__all__ = [
    "optimal_binary_parameters",
    "optimal_binary",
    "smallest_feasible_zeta",
    "optimal_kary",
    "KaryResult",
    "enforce_level",
    "data_unfairness",
    "opt_factory",
]


#: Largest budget :func:`optimal_binary` accepts: ``e^-eps / 2`` is a normal float up to about 708.
MAX_BINARY_EPSILON = 707.0

#: Largest budget program (9) is written for (``e^eps`` must be a float); HiGHS
#: may already fail from about 15 (see :func:`optimal_kary`).
MAX_KARY_EPSILON = EXP_ARG_MAX


def _proportions(p_a: ArrayLike, name: str = "p_a", k: int | None = None) -> np.ndarray:
    arr = check_real_array(p_a, name, allow_nan=True)
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"{name} must be a 1-D array of at least 2 group proportions, got shape {arr.shape}")
    if k is not None and arr.size != k:
        raise ValueError(f"{name} must have {k} entries, got {arr.size}")
    if not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(
            f"{name} must be finite and > 0 for every group (valid: (0, inf)), got {arr.tolist()}"
        )
    return arr / arr.sum()


def optimal_binary_parameters(proportions: ArrayLike, epsilon: float) -> tuple[float, float]:
    """Theorem 2's ``(p*, q*) = (P(Z=0 | A=0), P(Z=1 | A=1))``.

    Parameters
    ----------
    proportions : sequence of 2 floats
        Group proportions or counts ``(p_0, p_1)`` of ``A`` (both > 0).
    epsilon : float
        Privacy budget, finite and ``> 0``.

    Returns
    -------
    (float, float)
    """
    p0, p1 = _proportions(proportions, "proportions", 2)
    epsilon = check_epsilon(epsilon, "epsilon")
    keep = 1.0 - math.exp(-epsilon) / 2.0
    if p0 < p1:
        return keep, 0.5
    return 0.5, keep


def optimal_binary(proportions: ArrayLike, epsilon: float) -> ChannelMechanism:
    """Theorem 2's optimal mechanism as a :class:`ChannelMechanism` (level exactly ``eps``).

    The flip probability ``e^-eps / 2`` is stored as computed, not as ``1 - keep``:
    the subtraction loses its relative precision from ``eps`` of about 25 on,
    where the channel's level would drift above ``eps``. Above
    :data:`MAX_BINARY_EPSILON` it is subnormal or 0 and the level is not
    representable: a ``ValueError`` says so.
    """
    p, q = optimal_binary_parameters(proportions, epsilon)
    if epsilon > MAX_BINARY_EPSILON:
        raise ValueError(
            f"epsilon={epsilon!r} is too large for a float channel: the flip probability "
            f"e^-epsilon / 2 is below the smallest normal float (valid: epsilon <= {MAX_BINARY_EPSILON})"
        )
    flip = math.exp(-epsilon) / 2.0
    off = (flip if p != 0.5 else 0.5), (flip if q != 0.5 else 0.5)
    return ChannelMechanism(np.array([[p, off[0]], [off[1], q]]), epsilon)


def data_unfairness(Q: np.ndarray, p_a: ArrayLike, p_y_given_a: ArrayLike) -> float:
    """``Delta(D_M) = max_a |P(Y=1 | Z=a) / P(Y=1) - 1|`` after the channel ``Q``.

    ``Q`` a ``k x m`` channel, ``p_a`` ``k`` group proportions (or counts) ``> 0``,
    ``p_y_given_a`` ``k`` probabilities in ``[0, 1]`` (strings, booleans and NaN
    are refused).
    """
    Q = check_channel_matrix(Q)
    pa = _proportions(p_a, "p_a", Q.shape[0])
    py = check_real_array(p_y_given_a, "p_y_given_a", low=0.0, high=1.0, ndim=1)
    if py.shape != pa.shape:
        raise ValueError(f"p_y_given_a must have {pa.size} entries (one per row of Q), got {py.size}")
    p1 = float(pa @ py)
    num = (py * pa) @ Q
    den = pa @ Q
    used = den > 0
    return float(np.max(np.abs(num[used] / (p1 * den[used]) - 1)))


def _constraints(k: int, epsilon: float, extra: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inequalities (LDP, truthfulness) and row-sum equalities of (9) on vec(Q) (+ ``extra`` vars)."""
    nv = k * k + extra
    if epsilon > MAX_KARY_EPSILON:
        raise ValueError(
            f"epsilon={epsilon!r} is too large for program (9): its constraints hold e^epsilon, "
            f"which overflows a float from 709.8 (valid: epsilon <= {MAX_KARY_EPSILON:g})"
        )
    e = math.exp(epsilon)
    rows = []
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            r = np.zeros(nv)  # q_jj - e^eps q_ij <= 0
            r[j * k + j] = 1.0
            r[i * k + j] = -e
            rows.append(r)
            r = np.zeros(nv)  # q_ij - q_ii <= 0
            r[i * k + j] = 1.0
            r[i * k + i] = -1.0
            rows.append(r)
            r = np.zeros(nv)  # q_ij - q_jj <= 0
            r[i * k + j] = 1.0
            r[j * k + j] -= 1.0
            rows.append(r)
    a_ub = np.array(rows)
    b_ub = np.zeros(len(rows))
    a_eq = np.zeros((k, nv))
    for i in range(k):
        a_eq[i, i * k : (i + 1) * k] = 1.0
    b_eq = np.ones(k)
    return a_ub, b_ub, a_eq, b_eq


def _utility_row(pa: np.ndarray, nv: int) -> np.ndarray:
    k = pa.size
    r = np.zeros(nv)
    r[np.arange(k) * k + np.arange(k)] = -pa
    return r


def _highs_failure(step: str, res: OptimizeResult, epsilon: float, pa: np.ndarray) -> RuntimeError:
    """The error for an LP HiGHS could not solve, with what makes program (9) hard."""
    return RuntimeError(
        f"HiGHS failed {step} at epsilon={epsilon:g}: {res.message} Program (9) is feasible for "
        f"every epsilon, so this is numerical: its LDP constraints hold e^epsilon = {math.exp(epsilon):.3g} "
        f"and the smallest group proportion is {pa.min():.3g}. Large budgets (from about 15; the "
        "papers stop at 10) and near-empty groups are beyond the solver's tolerances; merge tiny "
        "groups or use a smaller epsilon."
    )


def smallest_feasible_zeta(p_a: ArrayLike, epsilon: float) -> float:
    """Smallest ``zeta`` for which (9) is feasible: ``1 - max sum_i p_i q_ii`` (an LP).

    Parameters
    ----------
    p_a : sequence of float
        Group proportions (or counts) of ``A``, all ``> 0``.
    epsilon : float
        Privacy budget.

    Returns
    -------
    float
        ``zeta_min``, at most GRR's ``1 - e^eps / (e^eps + k - 1)``.
    """
    pa = _proportions(p_a)
    epsilon = check_epsilon(epsilon, "epsilon")
    k = pa.size
    a_ub, b_ub, a_eq, b_eq = _constraints(k, epsilon, 0)
    c = _utility_row(pa, k * k)
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, A_eq=a_eq, b_eq=b_eq, bounds=(0, 1), method="highs")
    if res.status != 0:  # GRR is always feasible: only numerical trouble gets here
        raise _highs_failure("on the zeta LP", res, epsilon, pa)
    return float(min(1.0, max(0.0, 1.0 + res.fun)))


@dataclass(frozen=True)
class KaryResult:
    """Solution of program (9)/(10).

    Attributes
    ----------
    Q : numpy.ndarray
        The optimal ``k x k`` channel (rows cleaned to be exactly stochastic).
    delta : float
        The optimal objective ``Delta(D_M)`` evaluated at ``Q``.
    zeta : float
        The utility bound used.
    zeta_min : float
        The smallest feasible ``zeta``.
    epsilon : float
        The budget.
    iterations : int
        LPs solved.
    method : str
        ``"dinkelbach"`` or ``"bisection"``.
    converged : bool
        Whether the method met its stopping rule within ``max_iter`` LPs (when not,
        :func:`optimal_kary` also warns: ``Q`` is feasible but not proved optimal).
    uniform_weight : float
        Weight ``t`` of the uniform channel mixed into the LP solution,
        ``Q = (1 - t) Q_LP + t / k``, to bring its level back to ``epsilon``
        (:func:`enforce_level`); ``0.0`` unless the solver's tolerances left the
        level above ``epsilon`` by more than the relative slack ``1e-6``.
    """

    Q: np.ndarray
    delta: float
    zeta: float
    zeta_min: float
    epsilon: float
    iterations: int
    method: str
    uniform_weight: float = 0.0
    converged: bool = True

    @property
    def mechanism(self) -> ChannelMechanism:
        """The solution as a :class:`ChannelMechanism` (checked to be eps-LDP)."""
        return ChannelMechanism(self.Q, self.epsilon)


def enforce_level(Q: np.ndarray, epsilon: float, *, tol: float = 1e-15) -> tuple[np.ndarray, float]:
    """Mix ``Q`` with the uniform channel by the smallest weight that makes it ``epsilon``-LDP.

    ``Q_t = (1 - t) Q + t / m`` is a channel for every ``t`` in ``[0, 1]``; each
    column's ratio ``max / min`` falls monotonically in ``t`` (``Q_1`` is
    0-LDP), so bisection finds the smallest ``t`` (within ``tol``) with
    ``channel_epsilon(Q_t) <= epsilon``. Utility ``sum_i p_i q_ii`` drops by at
    most ``t`` (so a utility bound ``1 - zeta`` may be missed by ``t``).

    Parameters
    ----------
    Q : numpy.ndarray, shape (k, m)
        Row-stochastic channel.
    epsilon : float
        Target level, ``> 0``.
    tol : float
        Precision of ``t``, in ``(0, 1)``. The bisection also stops at the
        resolution of floating point, so a tiny ``tol`` cannot make it loop.

    Returns
    -------
    (numpy.ndarray, float)
        The mixed channel, of level ``<= epsilon``, and ``t`` (``0.0`` and an unchanged copy of ``Q``
        when it is already ``epsilon``-LDP).
    """
    Q = check_channel_matrix(Q)
    epsilon = check_epsilon(epsilon, "epsilon")
    tol = check_real(tol, "tol", low=0.0, high=1.0, low_open=True, high_open=True,
                     why=" (the precision of the mixing weight)")
    if channel_epsilon(Q) <= epsilon:
        return Q, 0.0
    uniform = np.full_like(Q, 1.0 / Q.shape[1])

    def mix(t: float) -> np.ndarray:
        return (1.0 - t) * Q + t * uniform

    lo, hi = 0.0, 1.0
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:  # adjacent floats: no finer t exists
            break
        if channel_epsilon(mix(mid)) <= epsilon:
            hi = mid
        else:
            lo = mid
    return mix(hi), hi


def _clean(x: np.ndarray, k: int) -> np.ndarray:
    Q = np.clip(x[: k * k].reshape(k, k), 0.0, 1.0)
    return Q / Q.sum(axis=1, keepdims=True)


def optimal_kary(
    p_a: ArrayLike,
    p_y_given_a: ArrayLike,
    epsilon: float,
    zeta: float | None = None,
    *,
    method: str = "dinkelbach",
    tol: float = 1e-10,
    max_iter: int = 200,
) -> KaryResult:
    """Solve ghoukasian2025's program (9)/(10) exactly.

    Parameters
    ----------
    p_a : sequence of float
        Group proportions (or counts) ``p_a`` of the sensitive attribute, all ``> 0``.
    p_y_given_a : sequence of float
        ``P(Y=1 | A=a)`` per group, in ``[0, 1]``, with ``P(Y=1) > 0``.
    epsilon : float
        Privacy budget.
    zeta : float, optional
        Utility bound, ``sum_i p_i q_ii >= 1 - zeta``; must lie in
        ``[zeta_min, 1]``. ``None`` uses :func:`smallest_feasible_zeta`.
    method : {"dinkelbach", "bisection"}
        Exact solver: generalised Dinkelbach (default) or bisection on the
        objective value with feasibility LPs.
    tol : float
        Stopping tolerance on the objective, finite and ``>= 0``.
    max_iter : int
        Maximum number of LPs, an integer ``>= 2`` (the starting LP and at least
        one step). A method that has not met its stopping rule when ``max_iter``
        LPs are spent returns its best feasible ``Q`` with ``converged=False`` and
        a :class:`RuntimeWarning` naming ``max_iter``.

    Returns
    -------
    KaryResult
        Its ``Q`` is ``epsilon``-LDP: where HiGHS's tolerances leave the level
        above ``epsilon`` by more than the relative slack ``1e-6`` (seen from
        about ``eps = 18`` with a group below ``1e-3``), the solution is mixed
        with the uniform channel by the smallest weight that restores it
        (:func:`enforce_level`, weight in ``uniform_weight``, about ``1e-11``).

    Raises
    ------
    ValueError
        For invalid inputs, an infeasible ``zeta``, or ``epsilon`` above
        :data:`MAX_KARY_EPSILON`.
    RuntimeError
        When HiGHS cannot solve one of the LPs. The program is always feasible,
        so this is numerical: its constraints hold ``e^eps`` and its solutions
        entries near ``e^-eps``, which leave the solver's tolerances from about
        ``eps = 15`` (earlier with group proportions near 0). Random instances
        with ``k <= 12`` solved without failure up to ``eps = 10`` unless a group
        proportion was below ``1e-4``.
    """
    pa = _proportions(p_a)
    k = pa.size
    py = check_real_array(p_y_given_a, "p_y_given_a", allow_nan=True)
    if py.shape != (k,) or not np.all(np.isfinite(py)) or np.any((py < 0) | (py > 1)):
        raise ValueError(
            f"p_y_given_a must hold {k} probabilities in [0, 1], got {np.asarray(p_y_given_a).tolist()}"
        )
    p1 = float(pa @ py)
    if p1 <= 0:
        raise ValueError("P(Y=1) must be > 0 (p_y_given_a is all zero)")
    epsilon = check_epsilon(epsilon, "epsilon")
    check_choice(method, ("dinkelbach", "bisection"), "method")
    tol = check_real(tol, "tol", low=0.0, why=" (stopping tolerance on the objective)")
    max_iter = check_count(max_iter, "max_iter", minimum=2, why=" (the starting LP and at least one step)")
    zmin = smallest_feasible_zeta(pa, epsilon)
    if zeta is None:
        zeta = zmin
    if isinstance(zeta, bool) or not isinstance(zeta, (int, float, np.floating)) or not np.isfinite(zeta):
        raise ValueError(f"zeta must be a real in [{zmin:.6g}, 1], got {zeta!r}")
    zeta = float(zeta)
    if zeta < zmin - 1e-9 or zeta > 1:
        raise ValueError(
            f"zeta={zeta!r} is infeasible for epsilon={epsilon}: valid range is [{zmin:.6g}, 1] "
            "(zeta_min from smallest_feasible_zeta)"
        )
    zeta = max(zeta, zmin)

    nv = k * k + 1  # vec(Q) and the auxiliary s / dummy
    a_ub, b_ub, a_eq, b_eq = _constraints(k, epsilon, 1)
    util = _utility_row(pa, nv)
    # N_a and D_a as linear forms over vec(Q): coefficient of q_ja is at j*k + a.
    num = np.zeros((k, nv))
    den = np.zeros((k, nv))
    for a in range(k):
        num[a, np.arange(k) * k + a] = (py - p1) * pa
        den[a, np.arange(k) * k + a] = p1 * pa
    bounds = [(0.0, 1.0)] * (k * k) + [(None, None)]

    def objective(Q: np.ndarray) -> float:
        x = Q.ravel()
        n_a = num[:, : k * k] @ x
        d_a = den[:, : k * k] @ x
        return float(np.max(np.abs(n_a) / d_a))

    def solve(c, extra_ub, extra_b, zeta_used):
        aub = np.vstack([a_ub, util[None, :], extra_ub])
        bub = np.concatenate([b_ub, [-(1.0 - zeta_used)], extra_b])
        return linprog(c, A_ub=aub, b_ub=bub, A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")

    # Starting point: any feasible Q (maximum utility).
    c0 = np.zeros(nv)
    c0[-1] = 0.0
    start = solve(util, np.zeros((0, nv)), np.zeros(0), zeta)
    if start.status == 2:
        zeta = zeta + 1e-9
        start = solve(util, np.zeros((0, nv)), np.zeros(0), zeta)
    if start.status != 0:
        raise _highs_failure("to find a feasible Q", start, epsilon, pa)
    best_q = _clean(start.x, k)
    t = objective(best_q)
    iterations = 1
    s_col = np.zeros((k, nv))
    s_col[:, -1] = -1.0

    converged = False
    if method == "dinkelbach":
        c = np.zeros(nv)
        c[-1] = 1.0
        while iterations < max_iter:
            extra = np.vstack([num - t * den + s_col, -num - t * den + s_col])
            res = solve(c, extra, np.zeros(2 * k), zeta)
            iterations += 1
            if res.status != 0:
                raise _highs_failure("in a Dinkelbach step", res, epsilon, pa)
            q_new = _clean(res.x, k)
            t_new = objective(q_new)
            if t_new < t:
                best_q, improvement = q_new, t - t_new
                t = t_new
            else:
                improvement = 0.0
            if res.fun >= -tol or improvement <= tol:
                converged = True
                break
    else:
        lo, hi = 0.0, t
        c = np.zeros(nv)
        while hi - lo > tol and iterations < max_iter:
            mid = 0.5 * (lo + hi)
            extra = np.vstack([num - mid * den, -num - mid * den])
            res = solve(c, extra, np.zeros(2 * k), zeta)
            iterations += 1
            if res.status == 0:
                q_new = _clean(res.x, k)
                t_new = objective(q_new)
                if t_new < t:
                    best_q, t = q_new, t_new
                hi = min(mid, t)
            else:
                lo = mid
        converged = hi - lo <= tol
    if not converged:
        warnings.warn(
            f"optimal_kary ({method}) stopped at max_iter={max_iter} LPs before meeting its stopping "
            f"rule (tol={tol:g}): Q is feasible but not proved optimal (delta may be above the "
            "optimum); raise max_iter", RuntimeWarning, stacklevel=2)
    weight = 0.0
    if not within_level(channel_epsilon(best_q), epsilon):
        # Beyond the solver's tolerances (entries near e^-eps at large eps): repair
        # the level instead of returning a channel ChannelMechanism would reject.
        best_q, weight = enforce_level(best_q, epsilon)
    return KaryResult(
        Q=best_q,
        delta=data_unfairness(best_q, pa, py),
        zeta=zeta,
        zeta_min=zmin,
        epsilon=epsilon,
        iterations=iterations,
        method=method,
        uniform_weight=weight,
        converged=converged,
    )


@versioned("fd657f3a262d", name="ldpfair.ldp.optimal.opt_factory")
def opt_factory(
    y: np.ndarray,
    *,
    zeta: float | None = None,
    zeta_slack: float = 0.0,
    method: str = "dinkelbach",
) -> Callable[[int, float, np.ndarray], ChannelMechanism]:
    """A data-dependent OPT factory for :func:`ldpfair.ldp.privatize`.

    The returned ``factory(k, epsilon, values)`` reads the group proportions of
    ``values`` (the training rows' sensitive codes) and ``P(Y=1 | A=a)`` from
    ``y`` (the same rows' binary labels), then returns Theorem 2's mechanism when
    ``k = 2`` and the solution of (9)/(10) when ``k > 2``, at ``zeta`` or, when
    ``None``, at the smallest feasible zeta plus ``zeta_slack`` (the paper's
    experiments).

    Parameters
    ----------
    y : array-like of {0, 1}
        Binary labels aligned with the values the factory will receive.
    zeta : float, optional
        Utility bound for ``k > 2``.
    zeta_slack : float
        Added to the smallest feasible zeta when ``zeta`` is None.
    method : {"dinkelbach", "bisection"}
        Solver of the k-ary program.

    Returns
    -------
    callable
    """
    y = np.asarray(y)
    if y.ndim != 1 or not np.all(np.isin(y, (0, 1))):
        raise ValueError("y must be a 1-D array of binary labels in {0, 1}")
    y = y.astype(float)
    check_choice(method, ("dinkelbach", "bisection"), "method")
    zeta_slack = check_real(zeta_slack, "zeta_slack", low=0.0, high=1.0, why=" (added to zeta_min)")
    if zeta is not None:
        zeta = check_real(zeta, "zeta", low=0.0, high=1.0)

    def factory(k: int, epsilon: float, values: np.ndarray) -> ChannelMechanism:
        values = as_array(values, "values")
        if values.shape != y.shape:
            raise ValueError(f"values has {values.shape[0]} rows but y has {y.shape[0]}")
        counts = np.bincount(values, minlength=k).astype(float)
        if np.any(counts == 0):
            raise ValueError(
                f"every group must occur in the training rows; counts {counts.astype(int).tolist()}"
            )
        if k == 2:
            return optimal_binary(counts, epsilon)
        py = np.bincount(values, weights=y, minlength=k) / counts
        z = zeta
        if z is None:
            z = min(1.0, smallest_feasible_zeta(counts, epsilon) + zeta_slack)
        return optimal_kary(counts, py, epsilon, z, method=method).mechanism

    return factory
