r"""FairBalance sample weights (Yu, Chakraborty & Menzies, IEEE TSE 2024).

FairBalance is a pre-processing intervention: it trains the unchanged learner with sample weights that
balance the two classes *within every demographic group*. With ``a`` the tuple of all sensitive columns,
``n_a`` the number of training rows of group ``a`` and ``n_{a,y}`` those of group ``a`` with label ``y``,

.. math:: w(a, y) = \frac{n_a}{2\, n_{a,y}} .

The weights are not rescaled (the authors' ``FairBalance`` in ``src/preprocessor.py`` comments the
rescaling out): every group keeps its total weight ``n_a``, split ``n_a / 2`` per class, so the weighted
``P(Y=1 | a) = 1/2`` for every group and the weighted data unfairness ``Delta'`` is 0.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .._validation import check_choice, check_label_types
from ..metrics.groups import check_binary

__all__ = ["fairbalance_weights"]


def _encode(groups: object) -> tuple[np.ndarray, np.ndarray]:
    """Codes ``0 .. g-1`` of the rows' groups (tuples of all columns for 2-D input) and the group labels."""
    check_label_types(groups, "groups")
    arr = np.asarray(groups)
    if arr.ndim not in (1, 2):
        raise ValueError(f"groups must be 1-D (one sensitive column) or 2-D (n rows x m sensitive columns), "
                         f"got shape {arr.shape}")
    if arr.ndim == 2 and arr.shape[1] == 0:
        raise ValueError("groups has no sensitive column (shape (n, 0))")
    if arr.dtype.kind == "O":
        raise ValueError("groups must have a numeric or string dtype, not object; encode the sensitive "
                         "columns as integer codes first")
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError("groups holds NaN; every row needs a group")
    if arr.ndim == 1:
        labels, codes = np.unique(arr, return_inverse=True)
    else:
        labels, codes = np.unique(arr, axis=0, return_inverse=True)
    return codes.reshape(-1).astype(np.int64), labels


def fairbalance_weights(
    groups: object, y: object, *, single_class: Literal["raise", "authors"] = "raise"
) -> np.ndarray:
    """FairBalance sample weights ``w(a, y) = n_a / (2 n_{a,y})``.

    Parameters
    ----------
    groups : array-like, shape (n,) or (n, m)
        The sensitive attribute of every training row, or ``m`` sensitive columns; with several columns the
        group ``a`` is the tuple of all of them (as the authors' ``A`` list).
    y : array-like of {0, 1}, shape (n,)
        Binary training labels.
    single_class : {"raise", "authors"}
        What to do with a group whose rows all have the same label. Its classes cannot be balanced, so
        FairBalance is undefined there: ``"raise"`` (default) raises a ``ValueError``; ``"authors"``
        reproduces the authors' code, which still gives those rows ``n_a / (2 n_a) = 1/2`` (the group's
        total weight is then ``n_a / 2``, not ``n_a``).

    Returns
    -------
    numpy.ndarray of float64, shape (n,)
        The weight of every row (not rescaled: the weights of group ``a`` sum to ``n_a``).

    Raises
    ------
    ValueError
        If ``y`` is not binary, the lengths differ, or (``single_class="raise"``) a group has one class.

    Examples
    --------
    >>> fairbalance_weights([0, 0, 0, 1, 1], [1, 0, 0, 0, 1])
    array([1.5 , 0.75, 0.75, 1.  , 1.  ])
    """
    check_choice(single_class, ("raise", "authors"), "single_class")
    codes, labels = _encode(groups)
    yy = check_binary(y, "y")
    if yy.shape[0] != codes.shape[0]:
        raise ValueError(f"y has {yy.shape[0]} entries but groups has {codes.shape[0]} rows")
    g = len(labels)
    cell = np.bincount(codes * 2 + yy, minlength=2 * g).reshape(g, 2)
    n_a = cell.sum(axis=1)
    one_class = (cell == 0).any(axis=1)
    if single_class == "raise" and one_class.any():
        i = int(np.flatnonzero(one_class)[0])
        present = int(np.flatnonzero(cell[i])[0])
        lab = labels[i].tolist() if isinstance(labels[i], np.ndarray) else labels[i].item()
        raise ValueError(
            f"group {lab!r} has only rows with y={present} ({n_a[i]} rows): FairBalance cannot balance its "
            f"classes and is undefined there; pass single_class='authors' to give those rows weight 1/2 as "
            f"the authors' code does"
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        w_cell = n_a[:, None] / (2.0 * cell)
    return w_cell[codes, yy]
