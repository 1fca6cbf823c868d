"""Feature matrices as the authors built them.

Every categorical column with domain size ``k`` becomes ``k`` indicator columns
(``np.eye(k)[codes]``, no column dropped), named ``<col>_<code>``; numeric
columns pass through. A privatised column replaces its one-hot block by the
block its LDP protocol returned (``privatize(..., output="support")``: the
one-hot of a GRR report, a unary-encoding bit vector, or an indicator vector of
the supported values) or, for perturbed integer codes, by their one-hot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ._validation import check_domain_size, check_values

__all__ = ["one_hot", "feature_blocks", "assemble", "encode_frame"]


def one_hot(codes: object, k: int, *, dtype: type = np.float32, name: str = "codes") -> np.ndarray:
    """Return the ``n x k`` one-hot matrix of ``codes`` in ``[0, k)`` (all ``k`` columns).

    A feature may be constant (``k = 1``, e.g. ACSCoverage's state column, all Texas):
    its block is one column of ones, as ``pandas.get_dummies`` gives. (An LDP
    protocol still needs ``k >= 2``.)

    >>> one_hot([0, 2], 3)
    array([[1., 0., 0.],
           [0., 0., 1.]], dtype=float32)
    """
    k = check_domain_size(k, f"domain size of {name}", minimum=1)
    values = check_values(codes, k, name)
    out: np.ndarray = np.zeros((values.shape[0], k), dtype=dtype)
    out[np.arange(values.shape[0]), values] = 1
    return out


def feature_blocks(
    frame: pd.DataFrame,
    columns: Sequence[str],
    domains: Mapping[str, int],
    numeric: Sequence[str] = (),
    *,
    dtype: type = np.float32,
) -> dict[str, np.ndarray]:
    """Encode each of ``columns`` of ``frame`` as its block of the feature matrix.

    Categorical columns (in ``domains``) become one-hot blocks; ``numeric``
    columns a single float column.
    """
    blocks: dict[str, np.ndarray] = {}
    numeric_set = set(numeric)
    for col in columns:
        if col not in frame.columns:
            raise ValueError(f"column {col!r} is not in the frame; columns: {list(frame.columns)}")
        values = frame[col].to_numpy()
        if col in numeric_set:
            blocks[col] = values.astype(dtype).reshape(-1, 1)
        elif col in domains:
            blocks[col] = one_hot(values.astype(np.int64), int(domains[col]), dtype=dtype, name=col)
        else:
            raise ValueError(
                f"column {col!r} is neither categorical (in domains) nor listed in numeric"
            )
    return blocks


def assemble(
    blocks: Mapping[str, np.ndarray],
    columns: Sequence[str],
    *,
    rows: np.ndarray | None = None,
    replace: Mapping[str, np.ndarray] | None = None,
    dtype: type = np.float32,
) -> np.ndarray:
    """Concatenate the blocks of ``columns`` (in that order) into one matrix.

    Parameters
    ----------
    blocks : mapping
        Column -> ``n x w`` block of the full data.
    columns : sequence of str
        Column order of the result.
    rows : numpy.ndarray, optional
        Row indices to select from every block of ``blocks`` (default: all rows).
    replace : mapping, optional
        Column -> block (already restricted to the selected rows) used instead
        of ``blocks[col]``, e.g. a privatised support matrix.
    """
    replace = replace or {}
    widths = []
    for col in columns:
        b = replace[col] if col in replace else blocks[col]
        widths.append(b.shape[1] if b.ndim == 2 else 1)
    n = int(rows.shape[0]) if rows is not None else next(iter(blocks.values())).shape[0]
    out: np.ndarray = np.empty((n, int(sum(widths))), dtype=dtype)
    pos = 0
    for col, w in zip(columns, widths, strict=True):
        if col in replace:
            b = np.asarray(replace[col])
            b = b.reshape(-1, 1) if b.ndim == 1 else b
            if b.shape[0] != n:
                raise ValueError(f"replacement block of {col!r} has {b.shape[0]} rows, expected {n}")
            out[:, pos:pos + w] = b
        else:
            b = blocks[col]
            out[:, pos:pos + w] = b if rows is None else b[rows]
        pos += w
    return out


def encode_frame(
    frame: pd.DataFrame,
    columns: Sequence[str],
    domains: Mapping[str, int],
    numeric: Sequence[str] = (),
    *,
    dtype: type = np.float32,
) -> tuple[np.ndarray, list[str]]:
    """One-hot encode ``columns`` of ``frame``; return the matrix and its column names.

    Names are ``<col>_<code>`` for categorical columns and ``<col>`` for numeric ones.
    """
    blocks = feature_blocks(frame, columns, domains, numeric, dtype=dtype)
    names: list[str] = []
    for col in columns:
        w = blocks[col].shape[1]
        names.extend([col] if col in set(numeric) else [f"{col}_{j}" for j in range(w)])
    return assemble(blocks, columns, dtype=dtype), names
