"""Loaders of the UCI datasets (Adult, German credit, Student math, Bank marketing).

Each loader reproduces the preprocessing of one paper:

* ``adult_uci`` -- UCI Adult with the variants of FairProjection (Alghamdi et al.
  2022, used by Ghoukasian & Asoodeh 2025, Table I), of Mozannar et al. 2020
  (Ghoukasian & Asoodeh 2025, Fig. 6), of Hamman et al. 2023 and of Xu et al. 2019;
* ``german`` -- UCI Statlog German credit, as FairBalance (Yu et al. 2024, used by
  Ghoukasian & Asoodeh 2025, Table II) and as Hamman et al. 2023;
* ``student_math`` and ``bank`` -- FairBalance's preprocessing (Table II).

The raw-format parsers (:func:`read_adult`, :func:`read_german`,
:func:`read_student`, :func:`read_bank`) take a path, so they can be tested on
small fixtures; the loaders obtain verified paths through
:func:`ldpfair.datasets.registry.fetch`.

The helpers :func:`build_dataset` and :func:`to_onehot` are shared with
:mod:`ldpfair.datasets.others`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .core import Dataset, register
from .registry import fetch

__all__ = [
    "ADULT_COLUMNS",
    "GERMAN_COLUMNS",
    "GERMAN_LABELS",
    "read_adult",
    "read_german",
    "read_student",
    "read_bank",
    "adult_frame",
    "german_frame",
    "student_frame",
    "bank_frame",
    "build_dataset",
    "to_onehot",
    "adult_uci",
    "german",
    "student_math",
    "bank",
]

PathLike = str | os.PathLike[str]

UCI_LICENSE = "CC BY 4.0 (UCI Machine Learning Repository)"

# ---------------------------------------------------------------------------
# shared helpers


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


# ---------------------------------------------------------------------------
# Adult

ADULT_COLUMNS = [
    "age",
    "workclass",
    "fnlwgt",
    "education",
    "education_num",
    "marital_status",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital_gain",
    "capital_loss",
    "hours_per_week",
    "native_country",
    "income",
]
_ADULT_NUMERIC = ["age", "fnlwgt", "education_num", "capital_gain", "capital_loss", "hours_per_week"]
_ADULT_FILES = ("uci-adult/adult.data", "uci-adult/adult.test")
_ADULT_SOURCE = "https://archive.ics.uci.edu/dataset/2/adult"
#: shap.datasets.adult's fixed coding of relationship (used by Mozannar et al.'s notebook).
_SHAP_RELATIONSHIP = ["Not-in-family", "Unmarried", "Other-relative", "Own-child", "Husband", "Wife"]


def read_adult(path: PathLike) -> pd.DataFrame:
    """Parse a UCI Adult file (``adult.data`` or ``adult.test``).

    Fields are comma-separated with a space after each comma. Lines starting
    with ``|`` (the header line of ``adult.test``) and blank lines are skipped.
    Missing values stay the string ``"?"``; the trailing ``.`` of the income
    labels of ``adult.test`` (``">50K."``) is removed.

    Parameters
    ----------
    path : path-like
        The file.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ADULT_COLUMNS`; numeric columns int64, others str.

    Raises
    ------
    ValueError
        If a line does not have 15 fields, a numeric field is not an integer or
        an income label is not ``<=50K``/``>50K`` (with or without ``.``).
    """
    df = pd.read_csv(
        path,
        header=None,
        names=ADULT_COLUMNS,
        sep=",",
        skipinitialspace=True,
        comment="|",
        dtype=str,
        keep_default_na=False,
        na_values=[],
        index_col=False,
    )
    if df.isna().any().any() or (df == "").any().any():
        bad = int(np.flatnonzero((df.isna() | (df == "")).any(axis=1).to_numpy())[0])
        raise ValueError(f"{os.fspath(path)}: row {bad} does not have {len(ADULT_COLUMNS)} non-empty fields")
    for col in _ADULT_NUMERIC:
        try:
            df[col] = df[col].astype(np.int64)
        except ValueError as exc:
            raise ValueError(f"{os.fspath(path)}: column {col!r} is not integer ({exc})") from None
    df["income"] = df["income"].str.rstrip(".")
    bad = sorted(set(df["income"]) - {"<=50K", ">50K"})
    if bad:
        raise ValueError(f"{os.fspath(path)}: unexpected income label(s) {bad}")
    return df


def adult_frame(raw: pd.DataFrame, variant: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Apply one paper's row filter and column selection to raw Adult rows.

    Parameters
    ----------
    raw : pandas.DataFrame
        Output of :func:`read_adult` (train and, where the variant uses it, test
        rows concatenated).
    variant : {"fairprojection", "mozannar", "hamman", "xu2019"}
        Whose preprocessing.

    Returns
    -------
    frame : pandas.DataFrame
        Raw (string) values of the kept rows and columns.
    spec : dict
        Keyword arguments for :func:`build_dataset` (categorical orders,
        numeric columns, target, protected, sensitive).
    """
    if variant not in _ADULT_VARIANTS:
        raise ValueError(f"variant must be one of {list(_ADULT_VARIANTS)}, got {variant!r}")
    df = raw.reset_index(drop=True)
    binary = {"sex": ["Female", "Male"], "income": ["<=50K", ">50K"]}
    if variant == "fairprojection":
        df = df[df["race"].isin(["White", "Black"])]
        df = df.drop(columns=["fnlwgt", "workclass", "occupation", "education", "native_country"])
        cat: dict[str, Any] = {
            "marital_status": None,
            "relationship": None,
            "race": ["Black", "White"],
            **binary,
        }
        protected = "race"
    elif variant == "mozannar":
        df = df.drop(columns=["education", "fnlwgt"])
        # shap.datasets.adult: pandas category codes (sorted, "?" first), relationship fixed.
        cat = {
            "workclass": None,
            "marital_status": None,
            "occupation": None,
            "relationship": _SHAP_RELATIONSHIP,
            "race": None,
            "native_country": None,
            **binary,
        }
        protected = "sex"
    elif variant == "hamman":
        df = df[df["race"].isin(["White", "Black"])]
        cat = {
            c: None
            for c in [
                "workclass",
                "education",
                "marital_status",
                "occupation",
                "relationship",
                "native_country",
            ]
        }
        cat.update(race=["Black", "White"], **binary)
        protected = "race"
    else:  # xu2019
        df = df[~(df == "?").any(axis=1)]
        cat = {
            c: None
            for c in [
                "workclass",
                "education",
                "marital_status",
                "occupation",
                "relationship",
                "race",
                "native_country",
            ]
        }
        cat.update(binary)
        protected = "sex"
    df = df.reset_index(drop=True)
    numeric = [c for c in df.columns if c in _ADULT_NUMERIC]
    categorical = {c: cat[c] for c in df.columns if c not in numeric}
    spec = {
        "categorical": categorical,
        "numeric": numeric,
        "target": "income",
        "protected": protected,
        "sensitive": [protected],
    }
    return df, spec


_ADULT_VARIANTS: dict[str, dict[str, Any]] = {
    "fairprojection": {
        "files": _ADULT_FILES,
        "citation": "ghoukasian2025, alghamdi2022fairprojection, kohavi1996adult, dua2019uci",
        "description": (
            "UCI Adult as in FairProjection's DataLoader (Alghamdi et al. 2022), the data of "
            "Ghoukasian & Asoodeh (2025) Table I: adult.data and adult.test concatenated "
            "(48,842 rows; the trailing '.' of the test labels removed); columns fnlwgt, "
            "workclass, occupation, education and native-country dropped (so no missing "
            "values remain); race restricted to White and Black -> 46,447 rows. Protected "
            "attribute race (White = 1, Black = 0; 89.9% White); sex Male = 1; target income "
            "'>50K' = 1 (rate 0.241). marital_status and relationship are integer codes "
            "(FairProjection one-hot encodes them); numeric: age, education_num, capital_gain, "
            "capital_loss, hours_per_week."
        ),
    },
    "mozannar": {
        "files": _ADULT_FILES[:1],
        "citation": "ghoukasian2025, mozannar2020fair, kohavi1996adult, dua2019uci",
        "description": (
            "UCI Adult as returned by shap.datasets.adult() and used in Mozannar et al.'s "
            "notebook (Ghoukasian & Asoodeh 2025, Fig. 6): adult.data only, 32,561 rows; "
            "education and fnlwgt dropped; missing values '?' kept as a category. Categorical "
            "codes follow shap exactly: sorted labels ('?' first) for workclass, "
            "marital_status, occupation, race and native_country, and shap's fixed coding of "
            "relationship (Not-in-family 0, Unmarried 1, Other-relative 2, Own-child 3, "
            "Husband 4, Wife 5). Protected attribute sex (Male = 1, Female = 0), never a "
            "feature in the paper; target income '>50K' = 1. The notebook standardises the "
            "11 remaining columns (codes included) before splitting."
        ),
    },
    "hamman": {
        "files": _ADULT_FILES,
        "citation": "hamman2023, kohavi1996adult, dua2019uci",
        "description": (
            "UCI Adult as in Hamman et al. (2023): adult.data and adult.test concatenated "
            "(48,842 rows, '14 attributes' in the paper), race restricted to White and Black "
            "-> 46,447 rows (Black 10.1% here; the paper says 10.4%). All 14 attributes are "
            "kept: the paper's base model uses every attribute except race, which is the "
            "protected attribute (White = 1, the advantaged group; Black = 0) and stays in the "
            "frame only for the statistical-parity queries. The paper does not say how "
            "missing values were handled: rows are kept and '?' is a category of workclass, "
            "occupation and native_country. Target income '>50K' = 1; sex Male = 1."
        ),
    },
    "xu2019": {
        "files": _ADULT_FILES,
        "citation": "xu2019, kohavi1996adult, dua2019uci",
        "description": (
            "UCI Adult as in Xu et al. (2019): adult.data and adult.test concatenated and every "
            "row with a missing value ('?') removed -> 45,222 records, all 14 attributes kept. "
            "Protected attribute sex (Male = 1, Female = 0); decision income '>50K' = 1."
        ),
    },
}

_XU_ADULT_NOTE = (
    "The paper reports 40 features; one-hot encoding all 13 unprotected attributes gives 102 "
    "(96 dummies + 6 numeric). The paper does not say which attributes were dropped or merged "
    "(e.g. the 6 numeric attributes with workclass, marital-status, occupation and "
    "relationship one-hot would give exactly 40, but that is a guess, not implemented)."
)


@register(
    "adult_uci",
    summary="UCI Adult (>50K): FairProjection / Mozannar / Hamman / Xu et al. preprocessing",
    paper=("ghoukasian2025", "hamman2023", "xu2019"),
    choices={
        "variant": tuple(_ADULT_VARIANTS),
        "encoding": ("codes", "onehot"),
    },
)
def adult_uci(variant: str = "fairprojection", encoding: str = "codes") -> Dataset:
    """Load UCI Adult with the preprocessing of one paper.

    Parameters
    ----------
    variant : {"fairprojection", "mozannar", "hamman", "xu2019"}
        ``"fairprojection"``: train+test, White/Black, race protected (46,447 rows;
        Ghoukasian & Asoodeh 2025 Table I). ``"mozannar"``: adult.data only, sex
        protected (32,561 rows; their Fig. 6). ``"hamman"``: train+test,
        White/Black, race protected, all 14 attributes (46,447 rows).
        ``"xu2019"``: train+test without missing values, sex protected (45,222).
    encoding : {"codes", "onehot"}
        ``"onehot"`` (only with ``variant="xu2019"``): categorical attributes
        one-hot, numeric attributes scaled to [0, 1] (:func:`to_onehot`).

    Returns
    -------
    Dataset
    """
    if variant not in _ADULT_VARIANTS:
        raise ValueError(f"variant must be one of {list(_ADULT_VARIANTS)}, got {variant!r}")
    if encoding not in ("codes", "onehot"):
        raise ValueError(f"encoding must be 'codes' or 'onehot', got {encoding!r}")
    if encoding == "onehot" and variant != "xu2019":
        raise ValueError(
            f"encoding='onehot' is Xu et al.'s encoding and needs variant='xu2019', got variant={variant!r}"
        )
    meta = _ADULT_VARIANTS[variant]
    raw = pd.concat([read_adult(fetch(f)) for f in meta["files"]], ignore_index=True)
    frame, spec = adult_frame(raw, variant)
    ds = build_dataset(
        "adult_uci",
        frame,
        **spec,
        description=meta["description"],
        citation=meta["citation"],
        license=UCI_LICENSE,
        source=_ADULT_SOURCE,
        files=meta["files"],
    )
    if encoding == "onehot":
        ds = to_onehot(ds, note=_XU_ADULT_NOTE)
    return ds


# ---------------------------------------------------------------------------
# German credit

GERMAN_COLUMNS = [
    "status",
    "month",
    "credit_history",
    "purpose",
    "credit_amount",
    "savings",
    "employment",
    "investment_as_income_percentage",
    "personal_status",
    "other_debtors",
    "residence_since",
    "property",
    "age",
    "installment_plans",
    "housing",
    "number_of_credits",
    "skill_level",
    "people_liable_for",
    "telephone",
    "foreign_worker",
    "credit",
]
_GERMAN_NUMERIC = [
    "month",
    "credit_amount",
    "investment_as_income_percentage",
    "residence_since",
    "age",
    "number_of_credits",
    "people_liable_for",
]
#: Meaning of the qualitative codes (UCI german.doc).
GERMAN_LABELS: dict[str, dict[str, str]] = {
    "status": {
        "A11": "< 0 DM",
        "A12": "0 <= ... < 200 DM",
        "A13": ">= 200 DM / salary assignment >= 1 year",
        "A14": "no checking account",
    },
    "credit_history": {
        "A30": "no credits taken / all paid back duly",
        "A31": "all credits at this bank paid back duly",
        "A32": "existing credits paid back duly till now",
        "A33": "delay in paying off in the past",
        "A34": "critical account / other credits existing",
    },
    "purpose": {
        "A40": "car (new)",
        "A41": "car (used)",
        "A42": "furniture/equipment",
        "A43": "radio/television",
        "A44": "domestic appliances",
        "A45": "repairs",
        "A46": "education",
        "A47": "vacation",
        "A48": "retraining",
        "A49": "business",
        "A410": "others",
    },
    "savings": {
        "A61": "< 100 DM",
        "A62": "100 <= ... < 500 DM",
        "A63": "500 <= ... < 1000 DM",
        "A64": ">= 1000 DM",
        "A65": "unknown / no savings account",
    },
    "employment": {
        "A71": "unemployed",
        "A72": "< 1 year",
        "A73": "1 <= ... < 4 years",
        "A74": "4 <= ... < 7 years",
        "A75": ">= 7 years",
    },
    "personal_status": {
        "A91": "male: divorced/separated",
        "A92": "female: divorced/separated/married",
        "A93": "male: single",
        "A94": "male: married/widowed",
        "A95": "female: single",
    },
    "other_debtors": {"A101": "none", "A102": "co-applicant", "A103": "guarantor"},
    "property": {
        "A121": "real estate",
        "A122": "building society savings / life insurance",
        "A123": "car or other",
        "A124": "unknown / no property",
    },
    "installment_plans": {"A141": "bank", "A142": "stores", "A143": "none"},
    "housing": {"A151": "rent", "A152": "own", "A153": "for free"},
    "skill_level": {
        "A171": "unemployed / unskilled non-resident",
        "A172": "unskilled resident",
        "A173": "skilled employee / official",
        "A174": "management / self-employed / highly qualified",
    },
    "telephone": {"A191": "none", "A192": "yes, registered"},
    "foreign_worker": {"A201": "yes", "A202": "no"},
}
_GERMAN_MALE = ("A91", "A93", "A94")
_GERMAN_FILE = "uci-german/german.data"
_GERMAN_SOURCE = "https://archive.ics.uci.edu/dataset/144/statlog+german+credit+data"


def read_german(path: PathLike) -> pd.DataFrame:
    """Parse UCI ``german.data`` (space-separated, 21 fields, no header).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`GERMAN_COLUMNS` (FairBalance's names, with
        ``personal_status`` for attribute 9); numeric attributes and ``credit``
        (1 good, 2 bad) int64, qualitative attributes their ``A..`` codes.

    Raises
    ------
    ValueError
        If a line does not have 21 fields, a numeric field is not an integer, a
        qualitative code is unknown or ``credit`` is not 1 or 2.
    """
    df = pd.read_csv(path, sep=r"\s+", header=None, dtype=str, keep_default_na=False, engine="python")
    if df.shape[1] != len(GERMAN_COLUMNS) or df.isna().any().any():
        raise ValueError(
            f"{os.fspath(path)}: expected {len(GERMAN_COLUMNS)} space-separated fields per line, "
            f"got {df.shape[1]}"
        )
    df.columns = GERMAN_COLUMNS
    for col in [*_GERMAN_NUMERIC, "credit"]:
        try:
            df[col] = df[col].astype(np.int64)
        except ValueError as exc:
            raise ValueError(f"{os.fspath(path)}: column {col!r} is not integer ({exc})") from None
    for col, lab in GERMAN_LABELS.items():
        bad = sorted(set(df[col]) - set(lab))
        if bad:
            raise ValueError(f"{os.fspath(path)}: column {col!r} has unknown code(s) {bad}")
    bad_credit = sorted(set(df["credit"].tolist()) - {1, 2})
    if bad_credit:
        raise ValueError(f"{os.fspath(path)}: credit must be 1 (good) or 2 (bad), got {bad_credit}")
    return df


def german_frame(raw: pd.DataFrame, variant: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Apply FairBalance's or Hamman et al.'s preprocessing to raw German rows.

    Both variants replace ``personal_status`` by ``sex`` (1 = male: A91, A93,
    A94; 0 = female: A92, A95) in place and code ``credit`` 1 = good. The
    ``"fairbalance"`` variant also replaces ``age`` by ``age > 25`` (1) and
    protects age with sensitive attributes (age, sex); ``"hamman"`` keeps age
    numeric and protects sex.

    Returns
    -------
    frame, spec
        As :func:`adult_frame`.
    """
    if variant not in ("fairbalance", "hamman"):
        raise ValueError(f"variant must be 'fairbalance' or 'hamman', got {variant!r}")
    df = raw.copy()
    sex = np.where(df["personal_status"].isin(_GERMAN_MALE), "male", "female")
    df.insert(df.columns.get_loc("personal_status"), "sex", sex)
    df = df.drop(columns=["personal_status"])
    df["credit"] = np.where(df["credit"] == 1, "good", "bad")
    categorical: dict[str, Any] = {
        c: sorted(pd.unique(df[c]), key=_natural_key) for c in GERMAN_LABELS if c in df.columns
    }
    categorical.update(sex=["female", "male"], credit=["bad", "good"])
    numeric = list(_GERMAN_NUMERIC)
    if variant == "fairbalance":
        df["age"] = np.where(df["age"] > 25, ">25", "<=25")
        categorical["age"] = ["<=25", ">25"]
        numeric.remove("age")
        protected, sensitive = "age", ["age", "sex"]
    else:
        protected, sensitive = "sex", ["sex"]
    categorical = {c: categorical[c] for c in df.columns if c in categorical}
    spec = {
        "categorical": categorical,
        "numeric": numeric,
        "target": "credit",
        "protected": protected,
        "sensitive": sensitive,
        "labels": GERMAN_LABELS,
    }
    return df, spec


@register(
    "german",
    summary="UCI German credit (good credit = 1): FairBalance (age, sex) or Hamman (sex)",
    paper=("ghoukasian2025", "hamman2023"),
    choices={"variant": ("fairbalance", "hamman")},
)
def german(variant: str = "fairbalance") -> Dataset:
    """Load UCI Statlog German credit (1,000 rows).

    Parameters
    ----------
    variant : {"fairbalance", "hamman"}
        ``"fairbalance"`` (Ghoukasian & Asoodeh 2025 Table II, FairBalance's
        ``load_german``): age > 25 -> 1 replaces age, sex = 1 iff personal status
        in {A91, A93, A94}; protected age, sensitive (age, sex). ``"hamman"``
        (Hamman et al. 2023): protected sex (male = 1: N1 = 690, N0 = 310), age
        numeric.

    Returns
    -------
    Dataset
    """
    if variant not in ("fairbalance", "hamman"):
        raise ValueError(f"variant must be 'fairbalance' or 'hamman', got {variant!r}")
    raw = read_german(fetch(_GERMAN_FILE))
    frame, spec = german_frame(raw, variant)
    common = (
        "UCI Statlog German credit, german.data (1,000 rows, 20 attributes). The attribute "
        "personal_status (A91-A95) is replaced by sex: 1 = male (A91, A93, A94: 690 rows), "
        "0 = female (A92: 310 rows; A95 does not occur), so the marital information it "
        "also held is dropped. Target credit: good (1) = 1 (700 rows), bad (2) = 0. "
        "Qualitative attributes are integer codes in the order of their UCI codes "
        "(labels from german.doc); numeric attributes kept as integers."
    )
    if variant == "fairbalance":
        description = (
            f"{common} FairBalance preprocessing (Yu et al. 2024; Ghoukasian & Asoodeh 2025 "
            "Table II): age replaced by age > 25 (1, 810 rows) / <= 25 (0); sensitive "
            "attributes A = [age, sex], protected attribute age (the first of A, the one the "
            "authors' OPT privatises; the paper's text says gender). Groups for the metrics "
            "are the age x sex tuples."
        )
        citation = "ghoukasian2025, yu2024fairbalance, dua2019uci"
    else:
        description = (
            f"{common} Hamman et al. (2023): protected attribute gender (male = 1 = the "
            "advantaged group, N1 = 690; female = 0, N0 = 310, matching the paper), excluded "
            "from training and used only for the statistical-parity queries; age kept "
            "numeric."
        )
        citation = "hamman2023, dua2019uci"
    return build_dataset(
        "german",
        frame,
        **spec,
        description=description,
        citation=citation,
        license=UCI_LICENSE,
        source=_GERMAN_SOURCE,
        files=[_GERMAN_FILE],
    )


# ---------------------------------------------------------------------------
# Student performance (math)

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


# ---------------------------------------------------------------------------
# Bank marketing

_BANK_FILE = "fairness-datasets/bank-full.csv"
_BANK_SOURCE = "https://archive.ics.uci.edu/dataset/222/bank+marketing"


def read_bank(path: PathLike) -> pd.DataFrame:
    """Parse a Bank marketing csv (comma- or ``;``-separated, header line).

    Raises
    ------
    ValueError
        If ``age`` or ``y`` is missing, a field is empty or ``y`` is not yes/no.
    """
    with open(path, encoding="utf-8") as fh:
        header = fh.readline()
    sep = ";" if header.count(";") > header.count(",") else ","
    df = pd.read_csv(path, sep=sep)
    _check_columns(df, ["age", "y"], path)
    if df.isna().any().any():
        raise ValueError(f"{os.fspath(path)}: empty field(s) in {df.columns[df.isna().any()].tolist()}")
    bad = sorted(set(df["y"].astype(str)) - {"yes", "no"})
    if bad:
        raise ValueError(f"{os.fspath(path)}: y must be 'yes' or 'no', got {bad}")
    if not pd.api.types.is_numeric_dtype(df["age"]):
        raise ValueError(f"{os.fspath(path)}: age must be numeric")
    return df


def bank_frame(raw: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """FairBalance's ``load_bank``: age replaced by age > 25 (1); y = 'yes' -> 1."""
    df = raw.copy()
    df["age"] = np.where(df["age"] > 25, ">25", "<=25")
    numeric = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    categorical: dict[str, Any] = {c: None for c in df.columns if c not in numeric}
    categorical.update(age=["<=25", ">25"], y=["no", "yes"])
    spec = {
        "categorical": categorical,
        "numeric": numeric,
        "target": "y",
        "protected": "age",
        "sensitive": ["age"],
    }
    return df, spec


@register(
    "bank",
    summary="UCI Bank marketing (subscribed = 1), age > 25 protected: FairBalance",
    paper="ghoukasian2025",
)
def bank() -> Dataset:
    """Load Bank marketing (the fairness-datasets copy, 40,004 rows) as FairBalance did.

    Returns
    -------
    Dataset
        Protected ``age`` (> 25 = 1), target ``y`` ('yes' = 1).
    """
    raw = read_bank(fetch(_BANK_FILE))
    frame, spec = bank_frame(raw)
    description = (
        "UCI Bank marketing with FairBalance's preprocessing (Yu et al. 2024; Ghoukasian & "
        "Asoodeh 2025 Table II): protected attribute age, replaced by age > 25 (1) / <= 25 "
        "(0); target y = 1 iff the client subscribed a term deposit ('yes'); all other "
        "columns kept (text columns as sorted integer codes, integer columns numeric). "
        "Caveat: FairBalance reads its own data/bank.csv (';'-separated, probably UCI "
        "bank-full with 45,211 rows), which could not be obtained. This loader uses the "
        "cleaned bank-full copy of the fairness-datasets survey (Le Quy et al. 2022): "
        "comma-separated, 40,004 rows (y = 'yes' 11.7%, age > 25 96.7%), marital reduced to "
        "married/single. Results on Bank therefore differ from the paper's data."
    )
    return build_dataset(
        "bank",
        frame,
        **spec,
        description=description,
        citation="ghoukasian2025, yu2024fairbalance, moro2014bank, lequy2022survey, dua2019uci",
        license=UCI_LICENSE + "; cleaned copy from the fairness-datasets repository",
        source=_BANK_SOURCE + " (copy: https://github.com/tailequy/fairness_dataset)",
        files=[_BANK_FILE],
    )
