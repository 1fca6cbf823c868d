"""Encode a frame of raw values into a :class:`~ldpfair.datasets.core.Dataset`.

Shared by the loaders of :mod:`ldpfair.datasets.adult`,
:mod:`~ldpfair.datasets.german_credit`, :mod:`~ldpfair.datasets.student`,
:mod:`~ldpfair.datasets.bank_marketing` and :mod:`~ldpfair.datasets.others`:

* :func:`build_dataset` -- integer codes ``0..k-1`` for categorical columns (a
  fixed order of raw values per column), numeric columns kept;
* :func:`to_onehot` -- the one-hot / [0, 1] encoding of Xu et al. (2019).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .core import Dataset

__all__ = ["PathLike", "UCI_LICENSE", "build_dataset", "to_onehot"]

PathLike = str | os.PathLike[str]

#: Licence of the datasets of the UCI Machine Learning Repository.
UCI_LICENSE = "CC BY 4.0 (UCI Machine Learning Repository)"


def _natural_key(value: Any) -> tuple:
    """Sort key putting ``A40 < A41 < A49 < A410`` (digits compared as numbers)."""
    parts = re.split(r"(\d+)", str(value))
    return tuple(int(p) if p.isdigit() else p for p in parts)


def _encode(values: pd.Series, column: str, order: Sequence[Any] | None) -> tuple[np.ndarray, list[Any]]:
    """Return integer codes ``0..k-1`` of ``values`` and the raw value of each code.

    ``order`` fixes the raw value of each code; ``None`` means the sorted
    distinct values present. A value outside ``order`` raises ValueError.
    """
    if order is None:
        order = sorted(pd.unique(values))
    order = list(order)
    known = values.isin(order).to_numpy()
    if not known.all():
        bad = sorted({str(v) for v in values[~known]})
        raise ValueError(f"column {column!r} holds unexpected value(s) {bad[:10]}; valid: {order}")
    codes = np.asarray(pd.Categorical(values, categories=order).codes, dtype=np.int64)
    return codes, order


def build_dataset(
    name: str,
    raw: pd.DataFrame,
    *,
    categorical: Mapping[str, Sequence[Any] | None],
    numeric: Sequence[str],
    target: str,
    protected: str,
    sensitive: Sequence[str],
    labels: Mapping[str, Mapping[Any, str]] | None = None,
    description: str = "",
    citation: str = "",
    license: str = "",
    source: str = "",
    files: Sequence[str] = (),
) -> Dataset:
    """Encode a frame of raw values into a :class:`~ldpfair.datasets.core.Dataset`.

    Parameters
    ----------
    name : str
        Registry name.
    raw : pandas.DataFrame
        One row per individual; the column order is kept.
    categorical : mapping
        For each categorical column, the raw value of code ``0, 1, ...`` (so a
        binary attribute listed as ``[unprivileged, privileged]`` gets the
        privileged group coded 1), or ``None`` for the sorted distinct values.
        The domain size is the number of values in that order.
    numeric : sequence of str
        Numeric columns (kept as they are).
    target, protected : str
        Outcome column (code 1 favourable) and protected attribute (privileged 1).
    sensitive : sequence of str
        The sensitive attributes, protected first.
    labels : mapping, optional
        Per column, a human label of raw values (default: the raw value as str).
    description, citation, license, source : str
        Data-card text.
    files : sequence of str
        Registry names of the raw files.

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        If a column is listed twice or missing, if numeric columns hold missing
        values, or if a categorical column holds a value outside its order.
    """
    cols = list(raw.columns)
    listed = list(categorical) + list(numeric)
    if len(set(listed)) != len(listed) or set(listed) != set(cols):
        raise ValueError(
            f"{name}: categorical + numeric columns {sorted(listed)} must list every column "
            f"{sorted(cols)} exactly once"
        )
    for col in (target, protected, *sensitive):
        if col not in categorical:
            raise ValueError(f"{name}: column {col!r} must be categorical")
    labels = labels or {}
    out: dict[str, Any] = {}
    domains: dict[str, int] = {}
    categories: dict[str, dict[int, str]] = {}
    for col in cols:
        if col in categorical:
            codes, order = _encode(raw[col], col, categorical[col])
            out[col] = codes
            domains[col] = len(order)
            lab = labels.get(col, {})
            categories[col] = {i: str(lab.get(v, v)) for i, v in enumerate(order)}
        else:
            values = raw[col]
            if values.isna().any():
                raise ValueError(f"{name}: numeric column {col!r} has missing values")
            out[col] = values.to_numpy()
    frame = pd.DataFrame(out, columns=cols)
    return Dataset(
        name=name,
        frame=frame,
        target=target,
        protected=protected,
        sensitive={s: domains[s] for s in sensitive},
        domains=domains,
        categories=categories,
        numeric=list(numeric),
        description=description,
        citation=citation,
        license=license,
        source=source,
        files=list(files),
    )


def to_onehot(ds: Dataset, *, note: str = "") -> Dataset:
    """Return ``ds`` with every categorical attribute one-hot and numerics scaled to [0, 1].

    The target and the protected attribute stay single 0/1 columns. Every other
    categorical column ``c`` with domain size ``k`` becomes ``k`` columns
    ``"c=<label>"`` (all levels kept, none dropped) of 0/1 values, placed where
    ``c`` was. Numeric columns are min-max scaled on the full data,
    ``(x - min) / (max - min)`` (a constant column becomes 0). This is the
    encoding of Xu et al. (2019), whose attributes all lie in [0, 1].

    Parameters
    ----------
    ds : Dataset
        A dataset with integer-coded categoricals.
    note : str
        Text appended to the description.

    Returns
    -------
    Dataset
        Dummy columns have domain 2 with categories ``{0: "no", 1: "yes"}``;
        scaled numeric columns are float64 and listed in ``numeric``.
    """
    keep = {ds.target, ds.protected, *ds.sensitive}
    out: dict[str, np.ndarray] = {}
    domains: dict[str, int] = {}
    categories: dict[str, dict[int, str]] = {}
    numeric: list[str] = []
    for col in ds.frame.columns:
        values = ds.frame[col].to_numpy()
        if col in ds.numeric:
            x = values.astype(np.float64)
            lo, hi = float(x.min()), float(x.max())
            out[col] = (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)
            numeric.append(col)
        elif col in keep:
            out[col] = values.astype(np.int64)
            domains[col] = ds.domains[col]
            categories[col] = dict(ds.categories[col])
        else:
            for code, label in ds.categories[col].items():
                dummy = f"{col}={label}"
                out[dummy] = (values == code).astype(np.int64)
                domains[dummy] = 2
                categories[dummy] = {0: "no", 1: "yes"}
    frame = pd.DataFrame(out)
    n_feat = frame.shape[1] - len(keep)
    desc = (
        f"{ds.description} One-hot encoding (Xu et al. 2019): every categorical attribute "
        f"except the target and the protected attribute expanded into one 0/1 column per "
        f"level (no level dropped), numeric attributes min-max scaled to [0, 1] on the full "
        f"data; {n_feat} unprotected feature columns."
    )
    if note:
        desc = f"{desc} {note}"
    return Dataset(
        name=ds.name,
        frame=frame,
        target=ds.target,
        protected=ds.protected,
        sensitive=dict(ds.sensitive),
        domains=domains,
        categories=categories,
        numeric=numeric,
        description=desc,
        citation=ds.citation,
        license=ds.license,
        source=ds.source,
        files=list(ds.files),
    )


def _check_columns(df: pd.DataFrame, expected: Sequence[str], path: PathLike) -> None:
    missing = [c for c in expected if c not in df.columns]
    if missing:
        raise ValueError(f"{os.fspath(path)}: missing column(s) {missing}; found {list(df.columns)}")
