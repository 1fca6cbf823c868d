"""Loaders of the non-UCI datasets: Dutch census, COMPAS, and Hamman et al.'s synthetic sets.

* ``dutch`` -- Dutch census 2001 as curated by the fairness-datasets survey
  (Le Quy et al. 2022), the second dataset of Xu et al. (2019);
* ``compas_fairprojection`` -- ProPublica's COMPAS data with FairProjection's
  preprocessing (Alghamdi et al. 2022), used by Ghoukasian & Asoodeh (2025) Table I;
* ``synthetic_hamman`` -- the synthetic test sets of Hamman et al. (2023): a
  binary protected-attribute vector with ``n0`` minority members.

Parsers take a path (:func:`read_dutch`, :func:`read_compas`); the loaders get
verified paths from :func:`ldpfair.datasets.registry.fetch`.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_count, check_rng
from .build import build_dataset, to_onehot
from .core import Dataset, register
from .registry import fetch

__all__ = [
    "DUTCH_COLUMNS",
    "COMPAS_COLUMNS",
    "read_dutch",
    "read_compas",
    "dutch_frame",
    "compas_frame",
    "dutch",
    "compas_fairprojection",
    "synthetic_hamman",
    "hamman_attributes",
]

PathLike = str | os.PathLike[str]

# ---------------------------------------------------------------------------
# Dutch census

DUTCH_COLUMNS = [
    "sex",
    "age",
    "household_position",
    "household_size",
    "prev_residence_place",
    "citizenship",
    "country_birth",
    "edu_level",
    "economic_status",
    "cur_eco_activity",
    "marital_status",
    "occupation",
]
_DUTCH_FILE = "fairness-datasets/dutch.csv"


def read_dutch(path: PathLike) -> pd.DataFrame:
    """Parse the fairness-datasets ``dutch.csv`` (comma-separated, header line).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`DUTCH_COLUMNS`: ``sex`` as text (female/male), the
        others integer codes of the census.

    Raises
    ------
    ValueError
        If a column is missing, a field is empty, ``sex`` is not female/male, a
        code is not an integer or ``occupation`` is not 0/1.
    """
    df = pd.read_csv(path)
    missing = [c for c in DUTCH_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{os.fspath(path)}: missing column(s) {missing}; found {list(df.columns)}")
    df = df[DUTCH_COLUMNS]
    if df.isna().any().any():
        raise ValueError(f"{os.fspath(path)}: empty field(s) in {df.columns[df.isna().any()].tolist()}")
    bad = sorted(set(df["sex"].astype(str)) - {"female", "male"})
    if bad:
        raise ValueError(f"{os.fspath(path)}: sex must be 'female' or 'male', got {bad}")
    for col in DUTCH_COLUMNS[1:]:
        if not pd.api.types.is_integer_dtype(df[col]):
            raise ValueError(f"{os.fspath(path)}: column {col!r} must hold integer codes")
    bad_occ = sorted(set(df["occupation"].tolist()) - {0, 1})
    if bad_occ:
        raise ValueError(f"{os.fspath(path)}: occupation must be 0 or 1, got {bad_occ}")
    return df


def dutch_frame(raw: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Code the Dutch census for Xu et al.: sex male = 1, occupation high-level = 1.

    Every attribute is categorical (census codes, sorted); there are no numeric
    attributes.
    """
    categorical: dict[str, Any] = {c: None for c in raw.columns}
    categorical.update(sex=["female", "male"], occupation=[0, 1])
    spec = {
        "categorical": categorical,
        "numeric": [],
        "target": "occupation",
        "protected": "sex",
        "sensitive": ["sex"],
        "labels": {"occupation": {0: "low-level", 1: "high-level"}},
    }
    return raw.reset_index(drop=True), spec


_XU_DUTCH_NOTE = (
    "The paper reports 35 features; one-hot encoding the 10 unprotected attributes (all "
    "categorical census codes, age in 12 groups) gives 59. The paper does not say which "
    "attributes it treated as numeric or dropped."
)


@register(
    "dutch",
    summary="Dutch census 2001 (high-level occupation = 1), sex protected: Xu et al. 2019",
    paper="xu2019",
    choices={"encoding": ("codes", "onehot")},
)
def dutch(encoding: str = "codes") -> Dataset:
    """Load the Dutch census 2001 (60,420 rows) as Xu et al. (2019) used it.

    Parameters
    ----------
    encoding : {"codes", "onehot"}
        ``"onehot"``: every attribute except sex and occupation one-hot
        (:func:`ldpfair.datasets.build.to_onehot`).

    Returns
    -------
    Dataset
        Protected ``sex`` (male = 1), target ``occupation`` (high-level = 1).
    """
    if encoding not in ("codes", "onehot"):
        raise ValueError(f"encoding must be 'codes' or 'onehot', got {encoding!r}")
    frame, spec = dutch_frame(read_dutch(fetch(_DUTCH_FILE)))
    description = (
        "Dutch Virtual Census 2001 as cleaned by the fairness-datasets survey (Le Quy et al. "
        "2022; dutch.csv, 60,420 people, 12 attributes), the data of Xu et al. (2019). "
        "Protected attribute sex (male = 1, female = 0). Xu et al. call the decision "
        "'Income'; the file (and the survey) has none and defines the class as occupation: "
        "1 = high-level (prestigious) occupation (28,763 rows, 47.6%), 0 = low-level. All "
        "other attributes are census codes, kept as categorical integer codes in the order "
        "of the census codes (labels = the raw census codes)."
    )
    ds = build_dataset(
        "dutch",
        frame,
        **spec,
        description=description,
        citation="xu2019, lequy2022survey",
        license=(
            "No licence stated in the fairness-datasets repository; the census sample comes "
            "from Statistics Netherlands (via IPUMS-International)"
        ),
        source="https://github.com/tailequy/fairness_dataset",
        files=[_DUTCH_FILE],
    )
    if encoding == "onehot":
        ds = to_onehot(ds, note=_XU_DUTCH_NOTE)
    return ds


# ---------------------------------------------------------------------------
# COMPAS

COMPAS_COLUMNS = [
    "age",
    "c_charge_degree",
    "race",
    "sex",
    "priors_count",
    "days_b_screening_arrest",
    "is_recid",
    "c_jail_in",
    "c_jail_out",
]
_COMPAS_FILE = "propublica-compas/compas-scores-two-years.csv"


def read_compas(path: PathLike) -> pd.DataFrame:
    """Parse ProPublica's ``compas-scores-two-years.csv`` (the columns FairProjection uses).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`COMPAS_COLUMNS`, one row per line of the file.

    Raises
    ------
    ValueError
        If one of those columns is missing.
    """
    df = pd.read_csv(path)
    missing = [c for c in COMPAS_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{os.fspath(path)}: missing column(s) {missing}")
    return df[COMPAS_COLUMNS].copy()


def compas_frame(raw: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """FairProjection's COMPAS preprocessing.

    Keeps rows with ``-30 <= days_b_screening_arrest <= 30`` (a missing value
    fails), ``is_recid != -1`` and ``c_charge_degree != "O"`` (ProPublica's
    filter: 6,172 rows of the real file), computes ``length_of_stay`` =
    whole days between ``c_jail_in`` and ``c_jail_out``, then keeps
    African-American (race 0) and Caucasian (race 1) only.
    """
    days = pd.to_numeric(raw["days_b_screening_arrest"], errors="coerce")
    keep = (days >= -30) & (days <= 30) & (raw["is_recid"] != -1) & (raw["c_charge_degree"] != "O")
    df = raw.loc[keep.to_numpy()].copy()
    jail_in = pd.to_datetime(df["c_jail_in"], errors="coerce")
    jail_out = pd.to_datetime(df["c_jail_out"], errors="coerce")
    stay = (jail_out - jail_in).dt.days
    if stay.isna().any():
        raise ValueError(f"COMPAS: {int(stay.isna().sum())} kept row(s) lack a valid c_jail_in/c_jail_out")
    df["length_of_stay"] = stay.astype(np.int64)
    df = df[df["race"].isin(["African-American", "Caucasian"])]
    df = df[["age", "c_charge_degree", "race", "sex", "priors_count", "length_of_stay", "is_recid"]]
    df = df.reset_index(drop=True)
    spec = {
        "categorical": {
            "c_charge_degree": ["M", "F"],
            "race": ["African-American", "Caucasian"],
            "sex": ["Female", "Male"],
            "is_recid": [0, 1],
        },
        "numeric": ["age", "priors_count", "length_of_stay"],
        "target": "is_recid",
        "protected": "race",
        "sensitive": ["race"],
        "labels": {
            "c_charge_degree": {"M": "misdemeanour", "F": "felony"},
            "is_recid": {0: "no recidivism", 1: "recidivism"},
        },
    }
    return df, spec


@register(
    "compas_fairprojection",
    summary="COMPAS (is_recid; 1 = recidivism), race protected: FairProjection preprocessing",
    paper="ghoukasian2025",
)
def compas_fairprojection() -> Dataset:
    """Load COMPAS with FairProjection's preprocessing (5,278 rows).

    Returns
    -------
    Dataset
        Protected ``race`` (Caucasian = 1), target ``is_recid``. **Target 1 is
        recidivism**, the unfavourable outcome: the paper's convention (FairProjection
        predicts ``is_recid``) is kept, see the description.
    """
    frame, spec = compas_frame(read_compas(fetch(_COMPAS_FILE)))
    description = (
        "ProPublica COMPAS two-year data (compas-scores-two-years.csv, 7,214 rows) with "
        "FairProjection's DataLoader (Alghamdi et al. 2022), the data of Ghoukasian & Asoodeh "
        "(2025) Table I: ProPublica's filter (-30 <= days_b_screening_arrest <= 30, "
        "is_recid != -1, c_charge_degree != 'O') -> 6,172 rows; length_of_stay = days "
        "between c_jail_in and c_jail_out; only African-American (race 0) and Caucasian "
        "(race 1, 39.8%) kept -> 5,278 rows. Features: age, c_charge_degree (misdemeanour 0, "
        "felony 1; FairProjection codes them -1/+1), race, sex (Male = 1; FairProjection "
        "calls it gender), priors_count, length_of_stay. Target is_recid (rate 0.50), not "
        "two_year_recid. Coding of the target: the paper's convention is kept, so "
        "is_recid = 1 means the person re-offended, the UNFAVOURABLE outcome (the one "
        "exception to the package's 'target 1 = favourable' rule). Accuracy, |Delta_SP| and "
        "Delta_MEO (Table I's metrics) are unchanged if the label is flipped."
    )
    return build_dataset(
        "compas_fairprojection",
        frame,
        **spec,
        description=description,
        citation="ghoukasian2025, alghamdi2022fairprojection, angwin2016compas",
        license="No licence stated; data published by ProPublica with its analysis",
        source="https://github.com/propublica/compas-analysis",
        files=[_COMPAS_FILE],
    )


# ---------------------------------------------------------------------------
# Hamman et al.'s synthetic test sets


def hamman_attributes(n: int, n0: int, rng: np.random.Generator) -> np.ndarray:
    """Return a protected-attribute vector of length ``n`` with exactly ``n0`` zeros.

    The ``n0`` members of the disadvantaged group (a = 0) sit at positions drawn
    uniformly without replacement; everybody else has a = 1.

    Parameters
    ----------
    n : int
        Test-set size, >= 2.
    n0 : int
        Size N0 of the disadvantaged group, ``1 <= n0 < n``.
    rng : numpy.random.Generator
        Source of randomness.

    Returns
    -------
    numpy.ndarray
        int64 array of 0/1.

    Raises
    ------
    TypeError
        If ``n`` or ``n0`` is not an integer.
    ValueError
        If ``n < 2`` or ``n0`` is outside ``[1, n - 1]``.
    """
    n = check_count(n, "n", minimum=2, why=" (both groups non-empty)")
    n0 = check_count(n0, "n0", minimum=1, maximum=n - 1, why=f" (n = {n}: both groups non-empty)")
    a = np.ones(n, dtype=np.int64)
    a[rng.choice(n, size=n0, replace=False)] = 0
    return a


@register(
    "synthetic_hamman",
    summary="Hamman et al. 2023 synthetic test set: protected-attribute vector, n0 minority",
    paper="hamman2023",
)
def synthetic_hamman(n: int = 1000, n0: int = 10, seed: Any = 0) -> Dataset:
    """Generate one synthetic test set of Hamman et al. (2023), Sec. 5 and App. A.7.

    The paper defines a synthetic set only by its size ``n`` and the size ``N0``
    of the disadvantaged group ("sparsity"); the predictions it queries are
    random binary predictors generated by the experiment (the sensing matrix
    H), and no features or labels exist. The dataset therefore holds the single
    column ``a``.

    Parameters
    ----------
    n : int
        Test-set size (the paper uses 100, 1000, 10000).
    n0 : int
        N0, the number of members of the disadvantaged group (a = 0);
        ``1 <= n0 < n``. Fig. 3 uses n = 1000, N0 = 10.
    seed : int, numpy.random.SeedSequence or numpy.random.Generator
        Randomness for the positions of the minority members.

    Returns
    -------
    Dataset
        ``frame`` has one column ``a`` (1 = advantaged, 0 = disadvantaged);
        ``protected = "a"``; ``target`` is ``""`` (there is no outcome, so
        ``ds.y`` is not available).
    """
    rng = check_rng(seed)
    a = hamman_attributes(n, n0, rng)
    frame = pd.DataFrame({"a": a})
    description = (
        f"Synthetic test set of Hamman et al. (2023), Sec. 5 and App. A.7: n = {int(n)} "
        f"individuals, of whom N0 = {int(n0)} are in the disadvantaged group (a = 0) and "
        f"N1 = {int(n) - int(n0)} in the advantaged group (a = 1). The paper defines the "
        "synthetic data only by (n, N0): the m models queried are random binary predictors "
        "(a random 0/1 sensing matrix H) drawn by the experiment, and there are no features "
        "or labels, so the frame holds only the attribute vector a and target is empty. The "
        "minority positions are drawn uniformly without replacement from the seed (the "
        "paper's random H makes the positions immaterial)."
    )
    return Dataset(
        name="synthetic_hamman",
        frame=frame,
        target="",
        protected="a",
        sensitive={"a": 2},
        domains={"a": 2},
        categories={"a": {0: "disadvantaged", 1: "advantaged"}},
        numeric=[],
        description=description,
        citation="hamman2023",
        license="Generated data (no upstream licence)",
        source="generated by ldpfair.datasets.others.synthetic_hamman",
        files=[],
    )
