"""Certified basis pursuit for large dense problems (hamman2023's Algorithm 2 with noisy answers).

``min ||s||_1 s.t. H s = eta`` is a linear program. With noisy answers its minimiser
is (generically) a unique vertex with ``m`` non-zeros, and the LARS homotopy needs
about ``7 m`` steps (each a pass over ``H``) to reach it. This module reaches the
same vertex in fewer passes and proves that it is the minimiser:

1. an approximate solution by ADMM (Douglas-Rachford on ``||s||_1`` and the affine
   set ``H s = eta``; float32 passes, it only has to point at the support);
2. a crossover: the ``m`` largest ``|s_j|`` form a basis ``S``; ``x_S = H_S^{-1} eta``
   with signs ``sign(x_S)`` is a feasible vertex of the LP;
3. primal simplex pivots (Dantzig pricing over float32 ``H^T y``, float64 ratio
   tests and pivots) until no column prices out;
4. :func:`certify_support`: in float64, ``x_S`` from ``H_S x_S = eta``, the dual
   ``y`` from ``H_S^T y = sign(x_S)``, and the check ``||H^T y||_inf <= 1 + tol``.
   Primal feasibility, dual feasibility and equal objectives
   (``eta^T y = sign(x_S)^T x_S = ||x||_1``) prove optimality; a strict
   ``|h_j^T y| < 1`` off the support with a non-singular ``H_S`` makes it unique.

Any failure (singular basis, iteration cap, certificate rejected) returns ``None``
and the caller falls back to an exact method.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve

__all__ = ["certify_support", "admm_basis_pursuit", "simplex_basis_pursuit"]

#: dual feasibility tolerance of the certificate: ``||H^T y||_inf <= 1 + DUAL_TOL``
DUAL_TOL = 1e-9


def certify_support(H: np.ndarray, eta: np.ndarray, support: np.ndarray,  # noqa: N803
                    tol: float = DUAL_TOL) -> np.ndarray | None:
    """The basis-pursuit minimiser with support ``support`` if a certificate proves it, else ``None``.

    Parameters
    ----------
    H : numpy.ndarray, shape (m, n)
        Sensing matrix (float64).
    eta : numpy.ndarray, shape (m,)
        Measurements.
    support : numpy.ndarray of int, shape (m,)
        Candidate basis: ``m`` distinct column indices.
    tol : float
        Dual feasibility tolerance.

    Returns
    -------
    numpy.ndarray of shape (n,) or None
        ``x`` with ``x_S = H_S^{-1} eta`` and zeros elsewhere when ``H_S`` is
        non-singular, no ``x_S`` is zero and ``y = H_S^{-T} sign(x_S)`` satisfies
        ``|h_j^T y| <= 1 + tol`` for every column; ``None`` otherwise.
    """
    m, n = H.shape
    S = np.asarray(support, dtype=np.int64)  # noqa: N806
    if S.shape != (m,) or np.unique(S).size != m or S.min() < 0 or S.max() >= n:
        return None
    HS = H[:, S]  # noqa: N806
    try:
        xs = np.linalg.solve(HS, eta)
        sig = np.sign(xs)
        if np.any(sig == 0):
            return None
        y = np.linalg.solve(HS.T, sig)
    except np.linalg.LinAlgError:
        return None
    if not (np.all(np.isfinite(xs)) and np.all(np.isfinite(y))):
        return None
    scale = max(1.0, float(np.abs(eta).max()))
    if np.abs(HS @ xs - eta).max() > 1e-9 * scale or np.abs(H.T @ y).max() > 1.0 + tol:
        return None
    x = np.zeros(n)
    x[S] = xs
    return x


def admm_basis_pursuit(H: np.ndarray, eta: np.ndarray, iterations: int = 1500) -> np.ndarray:  # noqa: N803
    """Approximate basis pursuit by ADMM (float32 passes); a warm start, not a solution.

    Iterates ``x = P(z - u)`` (projection onto ``H x = eta`` through a Cholesky factor
    of ``H H^T``), ``z = soft(x + u, 1/rho)``, ``u += x - z`` with ``rho`` set from
    the minimum-norm solution. Requires ``rank(H) = m``.

    Returns
    -------
    numpy.ndarray, shape (n,)
        The last ``x`` (feasible up to float32 rounding).
    """
    h32 = np.asarray(H, dtype=np.float32)
    ht32 = np.ascontiguousarray(h32.T)
    factor = cho_factor((h32 @ ht32).astype(np.float64))

    def project(v: np.ndarray) -> np.ndarray:
        r = (h32 @ v.astype(np.float32)).astype(np.float64) - eta
        return v - (ht32 @ cho_solve(factor, r).astype(np.float32)).astype(np.float64)

    x = project(np.zeros(H.shape[1]))
    z, u = x.copy(), np.zeros_like(x)
    med = float(np.median(np.abs(x)))
    thresh = med if med > 0 else 1.0  # 1 / rho
    for _ in range(iterations):
        x = project(z - u)
        w = x + u
        z = np.sign(w) * np.maximum(np.abs(w) - thresh, 0.0)
        u += x - z
    return x


def simplex_basis_pursuit(H: np.ndarray, eta: np.ndarray, start: np.ndarray, *,  # noqa: N803
                          max_pivots: int | None = None, refactor: int = 100) -> np.ndarray | None:
    """Primal simplex from the basis ``start`` to a certified basis-pursuit minimiser.

    The basis ``S`` (``m`` columns) with signs ``sign(H_S^{-1} eta)`` is a feasible
    vertex; each pivot brings in the column with the largest ``|h_j^T y| > 1``
    (priced in float32) and removes the basic variable that reaches zero first
    (float64 ratio test on ``H_S^{-1} h_j``). The explicit inverse is updated by
    rank one and refactorised every ``refactor`` pivots.

    Returns
    -------
    numpy.ndarray of shape (n,) or None
        The certified minimiser (:func:`certify_support`), or ``None`` if the start
        is singular, the pivot cap (default ``20 m``) is reached or the final
        certificate fails.
    """
    m, n = H.shape
    S = np.array(start, dtype=np.int64)  # noqa: N806
    if S.shape != (m,) or np.unique(S).size != m:
        return None
    ht32 = np.ascontiguousarray(H.T, dtype=np.float32)
    cap = 20 * m if max_pivots is None else int(max_pivots)
    try:
        binv = np.linalg.inv(H[:, S])
    except np.linalg.LinAlgError:
        return None
    x = binv @ eta
    sig = np.where(x >= 0, 1.0, -1.0)
    for pivot in range(cap + 1):
        g = ht32 @ (binv.T @ sig).astype(np.float32)
        g[S] = 0.0
        j = int(np.argmax(np.abs(g)))
        if abs(float(g[j])) <= 1.0 + 1e-6:
            out = certify_support(H, eta, S)
            if out is not None or pivot == cap:
                return out
            g = H.T @ (binv.T @ sig)  # float32 pricing too coarse: price once in float64
            g[S] = 0.0
            j = int(np.argmax(np.abs(g)))
            if abs(float(g[j])) <= 1.0 + DUAL_TOL:
                return None
        if pivot == cap:
            return None
        s_in = 1.0 if g[j] > 0 else -1.0
        d = binv @ H[:, j]
        dd = sig * s_in * d
        pos = dd > 1e-12
        if not np.any(pos):
            return None  # unbounded direction: impossible for basis pursuit, numerical trouble
        ratios = np.full(m, np.inf)
        ratios[pos] = np.abs(x[pos]) / dd[pos]
        r = int(np.argmin(ratios))
        t = float(ratios[r])
        x -= t * s_in * d
        x[r] = s_in * t
        sig[r] = s_in
        S[r] = j
        row = binv[r] / d[r]
        binv -= np.outer(d, row)
        binv[r] = row
        if (pivot + 1) % refactor == 0:
            try:
                binv = np.linalg.inv(H[:, S])
            except np.linalg.LinAlgError:
                return None
            x = binv @ eta
            if np.any(np.sign(x) * sig < 0):
                return None
    return None
