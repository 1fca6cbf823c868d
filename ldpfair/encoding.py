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

#: pandas' inferred types of an object column that hold numbers (a nullable Int64 column, say).
_NUMERIC_OBJECTS = ("integer", "floating", "mixed-integer-float", "decimal", "boolean")


def _column_values(frame: pd.DataFrame, col: str, numeric: bool) -> np.ndarray:
    """The column as numbers, refusing what ``astype`` would silently parse or truncate.

    Strings (``"1.5"`` parsed by ``astype(float)``) are refused for every column;
    a categorical column's float codes must be integral (``1.7`` would be
    truncated to code 1) and finite. One vectorised pass.
    """
    values = frame[col].to_numpy()
    kind = values.dtype.kind
    if kind == "O" and pd.api.types.infer_dtype(values, skipna=False) in _NUMERIC_OBJECTS:
        values = values.astype(np.float64)
        kind = "f"
    if kind not in "biuf":
        what = "numbers" if numeric else "integer codes"
        raise ValueError(f"column {col!r} must hold {what}, got dtype {frame[col].dtype}")
    if not numeric and kind == "f":
        bad = ~(np.isfinite(values) & (values == np.round(values)))
        if bad.any():
            raise ValueError(f"column {col!r} must hold integer codes; found {int(bad.sum())} non-integer "
                             f"value(s), e.g. {float(values[bad][0])!r} (they would be truncated)")
    return values

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
        if col in numeric_set:
            blocks[col] = _column_values(frame, col, True).astype(dtype).reshape(-1, 1)
        elif col in domains:
            values = _column_values(frame, col, False)
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
    missing = [col for col in columns if col not in replace and col not in blocks]
    if missing:
        raise ValueError(f"assemble: no block for column(s) {missing}; blocks: {list(blocks)}")
    if rows is not None:
        rows = np.asarray(rows)
        n_all = next(iter(blocks.values())).shape[0] if blocks else 0
        if rows.dtype.kind == "b":
            if rows.shape != (n_all,):
                raise ValueError(f"assemble: a boolean rows mask must have {n_all} entries, got {rows.shape}")
            rows = np.flatnonzero(rows)
        elif rows.dtype.kind not in "iu" or rows.ndim != 1:
            raise ValueError(f"assemble: rows must be a 1-D array of row indices, got {rows.dtype} "
                             f"{rows.shape}")
        elif rows.size and (int(rows.min()) < 0 or int(rows.max()) >= n_all):
            raise ValueError(f"assemble: rows must be indices in [0, {n_all}) (the blocks' rows), got "
                             f"min {int(rows.min())}, max {int(rows.max())}")
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
