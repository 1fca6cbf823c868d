"""Loader of UCI Statlog German credit (1,000 rows).

``german`` reproduces FairBalance's preprocessing (Yu et al. 2024, used by
Ghoukasian & Asoodeh 2025, Table II) and Hamman et al. 2023's. The raw-format
parser :func:`read_german` takes a path, so it can be tested on small fixtures.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from .build import UCI_LICENSE, PathLike, _natural_key, build_dataset
from .core import Dataset, register
from .registry import fetch

__all__ = ['GERMAN_COLUMNS', 'GERMAN_LABELS', 'read_german', 'german_frame', 'german']


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
