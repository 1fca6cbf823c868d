"""Bias queries of many classifiers at once (hamman2023 Definitions 2.1-2.2).

The statistical-parity gap of classifier ``h_i`` on a test set with protected
attribute ``a`` is ``SP_i = sum_j h_i(x_j) v_j`` with ``v_j = 1/N1`` if
``a_j = 1`` and ``-1/N0`` if ``a_j = 0`` (the proof of Theorem 1), so the
answers to ``m`` queries are the matrix product ``H v`` of the ``m x n``
prediction matrix ``H``. Row ``i`` of the result equals
:func:`ldpfair.metrics.soft_statistical_parity` of ``H[i]`` (tested).
"""

from __future__ import annotations

import numpy as np

from ..metrics.groups import check_binary

__all__ = ["group_sizes", "query_weights", "sp_queries", "eo_queries", "check_predictions"]


def group_sizes(a: object, name: str = "a") -> tuple[int, int]:
    """``(N1, N0)``: sizes of the advantaged (a = 1) and disadvantaged (a = 0) groups.

    Raises
    ------
    ValueError
        If ``a`` is not a 1-D 0/1 vector or a group is empty (``N0 >= 1`` and
        ``N1 >= 1`` are required: SP is undefined otherwise).
    """
    arr = check_binary(a, name)
    n1 = int(arr.sum())
    n0 = int(arr.shape[0] - n1)
    if n0 < 1 or n1 < 1:
        raise ValueError(f"{name} must contain both groups (N0 >= 1 and N1 >= 1), got N1={n1}, N0={n0}")
    return n1, n0


def query_weights(a: object) -> np.ndarray:
    """The vector ``v`` of Theorem 1: ``1/N1`` where ``a = 1``, ``-1/N0`` where ``a = 0``."""
    arr = check_binary(a, "a")
    n1, n0 = group_sizes(arr)
    return np.where(arr == 1, 1.0 / n1, -1.0 / n0)


def check_predictions(H: object, n: int | None = None, name: str = "H", *,  # noqa: N803
                      bounded: bool = True) -> np.ndarray:
    """Return ``H`` as a 2-D float array of predictions in ``[0, 1]`` (a 1-D vector is one row).

    ``bounded=False`` accepts any finite scores (the unclipped perturbed models of
    hamman2023's Algorithm 2, whose outputs reach ``[-0.1, 1.1]``).

    Raises
    ------
    ValueError
        If ``H`` is not 1-D/2-D, has no row, has the wrong number of columns, holds
        non-finite values or (``bounded=True``) values outside ``[0, 1]``.
    """
    arr = np.asarray(H, dtype=float)
    shape = arr.shape
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2 or arr.shape[0] < 1:
        raise ValueError(f"{name} must be an (m, n) matrix of predictions with m >= 1, got shape "
                         f"{shape}")
    if n is not None and arr.shape[1] != n:
        raise ValueError(f"{name} has {arr.shape[1]} columns; expected n = {n} (one per individual)")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must hold finite predictions; got non-finite values")
    if bounded and (arr.min(initial=0.0) < 0.0 or arr.max(initial=0.0) > 1.0):
        raise ValueError(f"{name} must hold predictions in [0, 1]; got values in "
                         f"[{np.nanmin(arr)}, {np.nanmax(arr)}]")
    return arr


def sp_queries(H: object, a: object, *, absolute: bool = False, bounded: bool = True) -> np.ndarray:  # noqa: N803
    """Answers ``SP_i`` (or ``|SP_i|``) of the classifiers whose predictions are the rows of ``H``.

    Parameters
    ----------
    H : array_like, shape (m, n) or (n,)
        ``H[i, j] = h_i(x_j)`` in ``[0, 1]`` (binary or probabilistic classifiers).
    a : array_like of 0/1, shape (n,)
        Protected attribute (1 = advantaged).
    absolute : bool
        Return ``|SP_i|``.
    bounded : bool
        Require ``H`` in ``[0, 1]`` (``False``: any finite scores, see :func:`check_predictions`).

    Returns
    -------
    numpy.ndarray, shape (m,)
    """
    v = query_weights(a)
    sp = check_predictions(H, v.shape[0], bounded=bounded) @ v
    return np.abs(sp) if absolute else sp


def eo_queries(H: object, a: object, y: object, *, absolute: bool = False) -> np.ndarray:  # noqa: N803
    """Equal-opportunity gaps ``E[h | A=1, Y=1] - E[h | A=0, Y=1]`` of the rows of ``H``.

    Only the individuals with ``y = 1`` enter (Remark 2: an EO query tells nothing
    about those with ``y = 0``).

    Raises
    ------
    ValueError
        If a group has no individual with ``y = 1``.
    """
    arr = check_binary(a, "a")
    yy = check_binary(y, "y")
    if yy.shape != arr.shape:
        raise ValueError(f"y has shape {yy.shape}, a has shape {arr.shape}; they must match")
    pos = yy == 1
    v = np.zeros(arr.shape[0])
    n1, n0 = group_sizes(arr[pos], "a[y == 1]")
    v[pos] = np.where(arr[pos] == 1, 1.0 / n1, -1.0 / n0)
    eo = check_predictions(H, arr.shape[0]) @ v
    return np.abs(eo) if absolute else eo
