"""Feature encodings of Adult and the Dutch census for Xu, Yuan & Wu (2019).

The paper one-hot encodes categorical attributes and scales numeric ones to
[0, 1], and reports 40 (Adult) and 35 (Dutch) features without naming them.
:func:`xu2019_features` builds three encodings, every column in [0, 1]:

``"onehot"``
    every level of every attribute (102 Adult, 59 Dutch columns);
``"compact"``
    Adult: the 6 numeric attributes and one-hot workclass, marital status,
    occupation and relationship (40 columns: education is redundant with
    education-num, race and native country are dropped); Dutch: the ordered
    attributes age, education level and household size as scaled codes, the
    binary previous residence as one column, the rest one-hot (37 columns);
``"counts"``
    the paper's counts, 40 and 35: Adult as ``"compact"``; Dutch with age,
    household position and household size as scaled codes, previous residence as
    one column, and citizenship, country of birth, education level, economic
    status, current economic activity and marital status one-hot (35 columns).
    It differs from ``"compact"`` on Dutch in two attributes only: household
    position (one scaled code instead of 8 one-hot columns) and education level
    (6 one-hot columns instead of one scaled code).

Column names are ``attribute`` (one column) or ``attribute=level`` (one-hot), so
the number of source attributes, a public bound on a record's feature sum, is
:func:`n_attributes` of the names.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._validation import check_choice

__all__ = ["XU2019_DATASETS", "XU2019_ENCODINGS", "xu2019_features", "n_attributes", "encoding_diff"]

XU2019_DATASETS = ("adult", "dutch")
XU2019_ENCODINGS = ("onehot", "compact", "counts")
_ADULT_KEPT = ("workclass=", "marital_status=", "occupation=", "relationship=")
#: Dutch attributes coded as one scaled column (``code / (levels - 1)``) per encoding; binary
#: attributes are one column in both.
_DUTCH_CODED = {"compact": ("age", "edu_level", "household_size"),
                "counts": ("age", "household_position", "household_size")}


def xu2019_features(
    dataset: str, encoding: str = "onehot"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Features in [0, 1], labels, protected attribute (sex, male = 1) and column names.

    Parameters
    ----------
    dataset : {"adult", "dutch"}
    encoding : {"onehot", "compact", "counts"}
        See the module docstring.

    Returns
    -------
    X : ndarray (n, d) float64, y : ndarray (n,) int64, s : ndarray (n,) int64, columns : tuple of str
    """
    from . import load

    check_choice(dataset, XU2019_DATASETS, "dataset")
    check_choice(encoding, XU2019_ENCODINGS, "encoding")
    if dataset == "adult":
        ds = load("adult_uci", variant="xu2019", encoding="onehot")
        frame = ds.frame.drop(columns=[ds.target, ds.protected])
        if encoding != "onehot":
            frame = frame[[c for c in frame.columns if c in ds.numeric or c.startswith(_ADULT_KEPT)]]
    elif encoding == "onehot":
        ds = load("dutch", encoding="onehot")
        frame = ds.frame.drop(columns=[ds.target, ds.protected])
    else:
        ds = load("dutch", encoding="codes")
        cols: dict[str, np.ndarray] = {}
        for c in ds.frame.columns:
            if c in (ds.target, ds.protected):
                continue
            v = ds.frame[c].to_numpy()
            k = ds.domains[c]
            if c in _DUTCH_CODED[encoding] or k == 2:
                cols[c] = v / (k - 1)
            else:
                for code, label in ds.categories[c].items():
                    cols[f"{c}={label}"] = (v == code).astype(np.float64)
        frame = pd.DataFrame(cols)
    X = frame.to_numpy(np.float64)
    y = ds.frame[ds.target].to_numpy(np.int64)
    s = ds.frame[ds.protected].to_numpy(np.int64)
    return X, y, s, tuple(frame.columns)


def n_attributes(columns: Sequence[str]) -> int:
    """Number of source attributes behind encoded columns (``attribute`` or ``attribute=level``).

    With every column in [0, 1] and at most one 1 per one-hot group, it bounds a
    record's feature sum; it depends on the schema only, not on the records.
    """
    return len({c.split("=", 1)[0] for c in columns})


def encoding_diff(dataset: str, a: str, b: str) -> pd.DataFrame:
    """Attributes encoded differently by encodings ``a`` and ``b``: columns of each.

    Returns
    -------
    DataFrame
        ``attribute``, ``columns (a)``, ``columns (b)`` for every attribute whose
        columns differ (0 where an encoding drops it).
    """
    counts = {}
    for enc in (a, b):
        cols = xu2019_features(dataset, enc)[3]
        counts[enc] = pd.Series([c.split("=", 1)[0] for c in cols]).value_counts()
    both = pd.concat(counts, axis=1).fillna(0).astype(int)
    both = both[both[a] != both[b]]
    return pd.DataFrame({"attribute": both.index, f"columns ({a})": both[a].to_numpy(),
                         f"columns ({b})": both[b].to_numpy()}).reset_index(drop=True)
