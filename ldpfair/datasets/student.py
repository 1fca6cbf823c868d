"""Loader of UCI Student performance (math course) with FairBalance's preprocessing.

Used by Ghoukasian & Asoodeh 2025, Table II ("Math"). The raw-format parser
:func:`read_student` takes a path, so it can be tested on small fixtures.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from .build import UCI_LICENSE, PathLike, _check_columns, build_dataset
from .core import Dataset, register
from .registry import fetch

__all__ = ['read_student', 'student_frame', 'student_math']


_STUDENT_FILE = "uci-student/student-mat.csv"
_STUDENT_SOURCE = "https://archive.ics.uci.edu/dataset/320/student+performance"


def read_student(path: PathLike) -> pd.DataFrame:
    """Parse UCI ``student-mat.csv`` (``;``-separated, quoted strings, header line).

    Quoted numbers (``"5"``, as G1 and G2 are written) are read as numbers.

    Raises
    ------
    ValueError
        If a column of the UCI file is missing or a field is empty.
    """
    df = pd.read_csv(path, sep=";")
    _check_columns(df, ["sex", "G1", "G2", "G3"], path)
    if df.isna().any().any():
        raise ValueError(f"{os.fspath(path)}: empty field(s) in {df.columns[df.isna().any()].tolist()}")
    return df


def student_frame(raw: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """FairBalance's ``load_student_mat``: sex M = 1, y = G3 >= 10 (G3 dropped).

    Columns read as text are categorical (sorted codes), the others numeric,
    as FairBalance's preprocessor splits them (G1 and G2 numeric).
    """
    df = raw.copy()
    for g in ("G1", "G2", "G3"):
        if not pd.api.types.is_numeric_dtype(df[g]):
            raise ValueError(f"student data: column {g!r} must be numeric, got {df[g].dtype}")
    df["y"] = np.where(df["G3"] >= 10, "pass", "fail")
    df = df.drop(columns=["G3"])
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    categorical: dict[str, Any] = {c: None for c in df.columns if c not in numeric}
    categorical.update(sex=["F", "M"], y=["fail", "pass"])
    spec = {
        "categorical": categorical,
        "numeric": numeric,
        "target": "y",
        "protected": "sex",
        "sensitive": ["sex"],
        "labels": {"sex": {"F": "female", "M": "male"}, "y": {"fail": "G3 < 10", "pass": "G3 >= 10"}},
    }
    return df, spec


@register(
    "student_math",
    summary="UCI Student performance, math (G3 >= 10 = 1), sex protected: FairBalance",
    paper="ghoukasian2025",
)
def student_math() -> Dataset:
    """Load UCI Student performance (math course, 395 rows) as FairBalance did.

    Returns
    -------
    Dataset
        Protected ``sex`` (M = 1), target ``y`` = G3 >= 10; G1 and G2 kept.
    """
    raw = read_student(fetch(_STUDENT_FILE))
    frame, spec = student_frame(raw)
    description = (
        "UCI Student performance, math course (student-mat.csv, 395 students, 33 columns), "
        "FairBalance preprocessing (Yu et al. 2024; Ghoukasian & Asoodeh 2025 Table II, "
        "'Math'): protected attribute sex (M = 1, F = 0); target y = 1 iff the final grade "
        "G3 >= 10 (265 of 395 pass), G3 dropped; the period grades G1 and G2 kept as "
        "features. Text columns are integer codes (sorted labels), integer columns numeric "
        "(FairBalance one-hot encodes the former and standardises the latter)."
    )
    return build_dataset(
        "student_math",
        frame,
        **spec,
        description=description,
        citation="ghoukasian2025, yu2024fairbalance, cortez2008student, dua2019uci",
        license=UCI_LICENSE,
        source=_STUDENT_SOURCE,
        files=[_STUDENT_FILE],
    )
