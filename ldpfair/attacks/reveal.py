"""Attribute-Reveal: recovering protected attributes from bias queries (hamman2023 Sec. 3).

With ``v_j = 1/N1`` (a_j = 1) or ``-1/N0`` (a_j = 0), the answers of ``m``
statistical-parity queries are ``SP = H v`` (Theorem 1). The model developers
choose ``H`` (their classifiers' predictions on the test set) and read ``SP``:

- :func:`single_query_model` / :func:`reveal_single`: Example 1, one model that
  accepts only the target; the sign of SP is the target's group;
- :func:`double_query_models` / :func:`reveal_double`: Example 2, a realistic model
  and a copy that flips the target's prediction;
- :func:`flip_models` / :func:`reveal_linear`: Algorithm 1, ``m = n`` models each
  flipping one prediction of a base model, solved as a linear system (Theorem 1);
- :func:`perturbed_models` / :func:`random_binary_models` / :func:`reveal_compressed`:
  Algorithm 2, ``m << n`` queries and compressed sensing: with ``v = r - s``,
  ``r = 1/N1`` and ``s_j = (1/N1 + 1/N0) 1{a_j = 0}`` (N0-sparse),
  ``eta = H r - SP = H s`` is solved by basis pursuit ``min ||s||_1 s.t. H s = eta``
  (:func:`basis_pursuit`). The paper writes ``eta = SP - H r``, which equals
  ``-H s``: with that sign basis pursuit returns ``-s`` and the threshold of
  Algorithm 2 never fires, so we use the sign that makes ``eta = H s``;
- :func:`absolute_sp_partition`: Theorem 3, ``n`` absolute-SP queries partition the
  test set into the two groups.
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog

from .._validation import check_choice, check_rng
from ..metrics.groups import check_scores
from .certified_bp import ipm_basis_pursuit, simplex_basis_pursuit
from .queries import check_predictions

__all__ = [
    "RevealResult",
    "single_query_model",
    "reveal_single",
    "double_query_models",
    "reveal_double",
    "flip_models",
    "reveal_linear",
    "perturbed_models",
    "random_binary_models",
    "basis_pursuit",
    "solve_basis_pursuit",
    "reveal_compressed",
    "absolute_sp_partition",
]


@dataclass(frozen=True)
class RevealResult:
    """Output of an Attribute-Reveal attack.

    Attributes
    ----------
    a_hat : numpy.ndarray
        Recovered protected attributes (0/1).
    estimate : numpy.ndarray
        The solved vector: ``v`` (linear system) or ``s`` (compressed sensing).
    threshold : float
        The decision threshold applied to ``estimate``.
    solver : str
        Which solver produced ``estimate`` (:func:`solve_basis_pursuit`), or
        ``"lstsq"`` for the linear system of Algorithm 1.
    """

    a_hat: np.ndarray
    estimate: np.ndarray
    threshold: float
    solver: str = "lstsq"


def _index(j: object, n: int, name: str = "target") -> int:
    if isinstance(j, bool) or not isinstance(j, numbers.Integral) or not 0 <= int(j) < n:
        raise ValueError(f"{name} must be an integer index in [0, {n}), got {j!r}")
    return int(j)


def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def single_query_model(n: int, target: int) -> np.ndarray:
    """Example 1: predictions of a model accepting only individual ``target`` (length ``n``)."""
    n = _count(n, "n")
    h = np.zeros(n)
    h[_index(target, n)] = 1.0
    return h


def reveal_single(sp: float) -> tuple[int, int]:
    """Example 1: the target's group and the size of that group from the single answer.

    ``SP = 1/N1`` if the target is advantaged, ``-1/N0`` otherwise.

    Returns
    -------
    (a, size) : tuple of int
        ``a = 1`` and ``size = N1`` when ``SP > 0``; ``a = 0`` and ``size = N0`` otherwise.
    """
    sp = float(sp)
    if sp == 0.0 or not math.isfinite(sp):
        raise ValueError(f"sp must be a non-zero finite answer of a single query, got {sp!r}")
    return (1 if sp > 0 else 0), int(round(1.0 / abs(sp)))


def double_query_models(h0: object, target: int) -> np.ndarray:
    """Example 2: ``[h0, h0 with the target's prediction flipped]`` (shape ``(2, n)``)."""
    base = check_scores(h0, "h0")
    j = _index(target, base.shape[0])
    out = np.vstack([base, base])
    out[1, j] = 1.0 - base[j]
    return out


def reveal_double(sp1: float, sp2: float, h0_target: float) -> int:
    """Example 2: the target's group from the answers of :func:`double_query_models`.

    ``SP2 - SP1 = (1 - 2 h0(x_target)) v_target``; the sign of ``v`` is the group.
    """
    d = 1.0 - 2.0 * float(h0_target)
    if d == 0.0:
        raise ValueError("h0_target = 0.5: flipping it does not change the prediction")
    v = (float(sp2) - float(sp1)) / d
    if v == 0.0:
        raise ValueError("the two answers are equal: the queries carry no information")
    return 1 if v > 0 else 0


def flip_models(h0: object) -> np.ndarray:
    """Algorithm 1: ``n`` models, model ``i`` equal to ``h0`` except ``h_i(x_i) = 1 - h0(x_i)``.

    The matrix is ``1 h0^T + diag(1 - 2 h0)``; for a binary ``h0`` accepting ``k``
    individuals its determinant is ``+-(1 - k)``, so it is singular when ``h0``
    accepts exactly one individual (then :func:`reveal_linear` refuses it).
    """
    base = check_scores(h0, "h0")
    out = np.tile(base, (base.shape[0], 1))
    idx = np.arange(base.shape[0])
    out[idx, idx] = 1.0 - base
    return out


def reveal_linear(H: object, sp: object) -> RevealResult:  # noqa: N803
    """Theorem 1 / Algorithm 1: solve ``SP = H v`` (``rank(H) = n``) and read ``a_j = 1{v_j > 0}``.

    Raises
    ------
    ValueError
        If the shapes disagree or ``rank(H) < n`` (the attributes are not identified).
    """
    mat = check_predictions(H)
    answers = np.asarray(sp, dtype=float)
    if answers.shape != (mat.shape[0],):
        raise ValueError(f"sp has shape {answers.shape}; expected ({mat.shape[0]},), one answer per row of H")
    v, _, rank, _ = np.linalg.lstsq(mat, answers, rcond=None)
    if rank < mat.shape[1]:
        raise ValueError(f"rank(H) = {rank} < n = {mat.shape[1]}: the linear system does not identify "
                         "every attribute (Theorem 1 needs rank n)")
    return RevealResult((v > 0).astype(np.int64), v, 0.0)


def perturbed_models(h0: object, m: int, rng: object, *, width: float = 0.1, clip: bool = True) -> np.ndarray:
    """Algorithm 2: ``m`` copies of ``h0`` plus Uniform(-width, width) noise.

    ``clip=True`` clips the outputs to ``[0, 1]`` (they stay probabilities);
    ``clip=False`` keeps them as the paper's text describes ("we add a small
    noise sampled from Uniform(-0.1, 0.1) to each output of the base model"),
    in ``[-width, 1 + width]``. The draws are the same either way.
    """
    base = check_scores(h0, "h0")
    m = _count(m, "m")
    if not 0.0 < float(width) <= 1.0:
        raise ValueError(f"width must lie in (0, 1], got {width!r}")
    if not isinstance(clip, (bool, np.bool_)):
        raise TypeError(f"clip must be True or False, got {clip!r}")
    gen = check_rng(rng)
    out = base[None, :] + gen.uniform(-width, width, size=(m, base.shape[0]))
    return np.clip(out, 0.0, 1.0) if clip else out


def random_binary_models(m: int, n: int, rng: object, *, p: float = 0.5) -> np.ndarray:
    """``m`` random binary predictors on ``n`` individuals (a Bernoulli(p) sensing matrix)."""
    m, n = _count(m, "m"), _count(n, "n")
    if not 0.0 < float(p) < 1.0:
        raise ValueError(f"p must lie in (0, 1), got {p!r}")
    gen = check_rng(rng)
    return (gen.random((m, n)) < p).astype(float)


def _bp_highs(mat: np.ndarray, eta: np.ndarray, tolerance: float) -> np.ndarray:
    m, n = mat.shape
    a = np.hstack([mat, -mat])
    c = np.ones(2 * n)
    if tolerance > 0:
        res = linprog(c, A_ub=np.vstack([a, -a]), b_ub=np.concatenate([eta + tolerance, tolerance - eta]),
                      bounds=(0, None), method="highs")
    else:
        res = linprog(c, A_eq=a, b_eq=eta, bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"basis pursuit LP failed (HiGHS status {res.status}): {res.message}")
    return res.x[:n] - res.x[n:]


def _bp_lars(mat: np.ndarray, eta: np.ndarray) -> np.ndarray | None:
    """End point of the LARS-lasso path, or ``None`` if it does not interpolate ``eta``."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import lars_path

    m, n = mat.shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        _, _, coef = lars_path(mat, eta, method="lasso", alpha_min=0.0, return_path=False,
                               max_iter=20 * m + 100, copy_X=True)
    x = np.asarray(coef).ravel()
    scale = max(1.0, float(np.abs(eta).max()))
    if not np.all(np.isfinite(x)) or np.abs(mat @ x - eta).max() > 1e-6 * scale:
        return None  # the homotopy did not reach an interpolating solution: use the LP
    return x


def _bp_certified(mat: np.ndarray, eta: np.ndarray) -> np.ndarray | None:
    """Interior point, certificate, simplex crossover (:mod:`.certified_bp`); ``None`` if not certified."""
    x, ranking = ipm_basis_pursuit(mat, eta)
    if x is None and ranking.size >= mat.shape[0]:
        x = simplex_basis_pursuit(mat, eta, ranking[:mat.shape[0]])
    return x


#: The solvers of :func:`basis_pursuit` (``"auto"`` picks one of them).
BP_METHODS = ("auto", "certified", "lars", "highs")


def solve_basis_pursuit(H: object, eta: object, *, method: str = "auto",  # noqa: N803
                        tolerance: float = 0.0) -> tuple[np.ndarray, str]:
    """:func:`basis_pursuit` and the name of the solver whose answer it returns.

    Returns
    -------
    s : numpy.ndarray, shape (n,)
    solver : {"certified", "lars", "highs", "lstsq"}
        ``"certified"``: proved optimal by :func:`~ldpfair.attacks.certified_bp.certify_support`;
        ``"lars"`` / ``"highs"``: the fallbacks (or the method asked for); ``"lstsq"``:
        ``m >= n`` with ``rank(H) = n`` (one feasible point).
    """
    mat = np.asarray(H, dtype=float)
    if mat.ndim != 2 or mat.shape[0] < 1 or not np.all(np.isfinite(mat)):
        raise ValueError(f"H must be a finite (m, n) matrix with m >= 1, got shape {mat.shape}")
    y = np.asarray(eta, dtype=float)
    if y.shape != (mat.shape[0],) or not np.all(np.isfinite(y)):
        raise ValueError(f"eta must be a finite vector of shape ({mat.shape[0]},), got shape {y.shape}")
    check_choice(method, list(BP_METHODS), "method")
    tol = float(tolerance)
    if not tol >= 0.0 or not math.isfinite(tol):
        raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
    if method in ("lars", "certified") and tol > 0:
        raise ValueError(f"method={method!r} solves the equality-constrained problem; "
                         "use method='highs' (or 'auto') with a tolerance")
    if method == "highs" or tol > 0:
        return _bp_highs(mat, y, tol), "highs"
    if mat.shape[0] >= mat.shape[1]:
        # m >= n: if rank(H) = n the feasible set is one point, the solution of the linear system
        x, _, rank, _ = np.linalg.lstsq(mat, y, rcond=None)
        if rank == mat.shape[1]:
            return x, "lstsq"
    if method in ("auto", "certified"):
        x = _bp_certified(mat, y)
        if x is not None:
            return x, "certified"
    x = _bp_lars(mat, y)
    if x is not None:
        return x, "lars"
    return _bp_highs(mat, y, 0.0), "highs"


def basis_pursuit(H: object, eta: object, *, method: str = "auto", tolerance: float = 0.0) -> np.ndarray:  # noqa: N803
    """Basis pursuit ``min ||s||_1 subject to H s = eta`` (or ``||H s - eta||_inf <= tolerance``).

    Parameters
    ----------
    H : array_like, shape (m, n)
        Sensing matrix.
    eta : array_like, shape (m,)
        Measurements.
    method : {"auto", "certified", "lars", "highs"}
        ``"certified"``: a primal-dual interior-point method on the ``m x m`` normal
        equations, whose iterates propose a support until a certificate in float64
        proves one optimal (:mod:`ldpfair.attacks.certified_bp`; a simplex crossover
        if none does); about 20 dense steps. If nothing is certified, the LARS path
        and then HiGHS take over. ``"lars"``: the end point (``alpha -> 0``) of the
        LARS-lasso homotopy path (:func:`sklearn.linear_model.lars_path`), the
        basis-pursuit solution in exact arithmetic (Donoho & Tsaig 2008); along the
        ``7 m`` steps it needs from noisy answers it accumulates rounding and may end
        a few recovered attributes away from the minimiser (HiGHS is the fallback if
        it does not reach ``H s = eta``). ``"highs"``: the linear program
        ``min 1^T (u + w)`` s.t. ``H (u - w) = eta``, ``u, w >= 0`` in HiGHS
        (:func:`scipy.optimize.linprog`; minutes on dense problems with
        ``n = 10,000``). ``"auto"``: ``"certified"`` for ``tolerance = 0``, else
        ``"highs"``. When ``m >= n`` and ``rank(H) = n`` the only feasible point
        (the solution of the linear system) is returned directly.
    tolerance : float
        Noise-aware variant (basis pursuit denoising with an l-infinity residual):
        ``> 0`` replaces the equality by ``|H s - eta| <= tolerance`` (an LP, HiGHS).

    Returns
    -------
    numpy.ndarray, shape (n,)

    See Also
    --------
    solve_basis_pursuit : the same, with the name of the solver that answered.
    """
    return solve_basis_pursuit(H, eta, method=method, tolerance=tolerance)[0]


def reveal_compressed(H: object, sp: object, n1: int, n0: int, *, method: str = "auto",  # noqa: N803
                      tolerance: float = 0.0, bounded: bool = True) -> RevealResult:
    """Algorithm 2: compressed-sensing Attribute-Reveal.

    ``eta = H r - SP`` (``r = 1/N1``; the paper's ``SP - H r`` is ``-H s``),
    ``s = basis_pursuit(H, eta)``, and
    ``a_j = 0`` iff ``s_j > (1/N1 + 1/N0) / 2``. The group sizes are known to the
    attacker (one extra query of Example 1 reveals them).

    Parameters
    ----------
    H : array_like, shape (m, n)
        The queried models' predictions.
    sp : array_like, shape (m,)
        The (possibly noisy) answers.
    n1, n0 : int
        Group sizes, both >= 1.
    method, tolerance
        See :func:`basis_pursuit`.
    bounded : bool
        Require ``H`` in ``[0, 1]`` (``False``: any finite scores, e.g. unclipped
        :func:`perturbed_models`).
    """
    mat = check_predictions(H, bounded=bounded)
    answers = np.asarray(sp, dtype=float)
    if answers.shape != (mat.shape[0],):
        raise ValueError(f"sp has shape {answers.shape}; expected ({mat.shape[0]},), one answer per row of H")
    for name, val in (("n1", n1), ("n0", n0)):
        _count(val, name)
    if n1 + n0 != mat.shape[1]:
        raise ValueError(f"n1 + n0 = {n1 + n0} differs from the {mat.shape[1]} columns of H")
    eta = mat.sum(axis=1) / n1 - answers  # H s = H r - SP (the paper's Algorithm 2 flips the sign)
    s, solver = solve_basis_pursuit(mat, eta, method=method, tolerance=tolerance)
    threshold = 0.5 * (1.0 / n1 + 1.0 / n0)
    return RevealResult(np.where(s > threshold, 0, 1).astype(np.int64), s, threshold, solver)


def absolute_sp_partition(oracle: Callable[[np.ndarray], np.ndarray], n: int) -> tuple[np.ndarray, int]:
    """Theorem 3: partition the test set into its two groups with ``n`` absolute-SP queries.

    Query 1 accepts individual 0 only: ``|SP| = 1/N_alpha`` gives the size of the
    group alpha of individual 0 (and ``N_beta = n - N_alpha``). If the sizes differ,
    the model accepting only ``j`` answers ``1/N_alpha`` iff ``j`` is in alpha;
    otherwise the model accepting ``0`` and ``j`` answers ``2/N_alpha`` (same group)
    or ``0``. The group sizes are integers, which makes the comparisons exact.

    Parameters
    ----------
    oracle : callable
        ``oracle(H) -> |SP|`` for a ``(k, n)`` matrix of binary predictions.
    n : int
        Test-set size, >= 2.

    Returns
    -------
    labels : numpy.ndarray
        1 for the individuals in the group of individual 0, 0 for the others
        (which group is advantaged is not identified).
    queries : int
        Number of queries used (``n``).
    """
    n = _count(n, "n")
    if n < 2:
        raise ValueError(f"n must be >= 2, got {n}")
    first = np.asarray(oracle(single_query_model(n, 0)[None, :]), dtype=float).ravel()
    n_alpha = int(round(1.0 / float(first[0])))
    eye = np.eye(n)[1:]
    if 2 * n_alpha != n:
        answers = np.asarray(oracle(eye), dtype=float).ravel()
        same = np.rint(1.0 / answers).astype(np.int64) == n_alpha
    else:
        pairs = eye.copy()
        pairs[:, 0] = 1.0
        answers = np.asarray(oracle(pairs), dtype=float).ravel()
        same = answers * n_alpha > 1.0  # 2/N_alpha (same group) against 0
    return np.concatenate([[1], same.astype(np.int64)]), 1 + eye.shape[0]
