"""Datasets as preprocessed by Arcolezi et al. (2023): ``adult26k`` and ``lsac``.

Both papers that use them (arcolezi2023, ghoukasian2025) pass every column
through scikit-learn's ``LabelEncoder``, so codes are ``0 .. k-1`` in sorted
order of the raw values (strings lexicographically). :func:`label_encode` does
the same (``numpy.unique`` is what ``LabelEncoder`` uses).

The ACS task of the same paper is in :mod:`ldpfair.datasets.acs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .core import Dataset, register
from .registry import fetch

__all__ = [
    "ADULT26K_COLUMNS",
    "LSAC_COLUMNS",
    "LSAC_DOMAINS",
    "build_lsac",
    "label_encode",
    "make_adult26k",
    "make_lsac",
    "read_codes_csv",
]

# ---------------------------------------------------------------------------
# helpers shared by the loaders of this package


def label_encode(values: pd.Series | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Encode values as ``0 .. k-1`` in sorted order, like ``sklearn LabelEncoder``.

    Parameters
    ----------
    values : pandas.Series or numpy.ndarray
        Values without missing entries.

    Returns
    -------
    codes : numpy.ndarray of int64
        The code of each value.
    classes : numpy.ndarray
        The sorted distinct values; ``classes[code]`` is the raw value.
    """
    arr = values.to_numpy() if isinstance(values, pd.Series) else np.asarray(values)
    if arr.dtype.kind not in "iufb":
        arr = arr.astype(str)
    classes, codes = np.unique(arr, return_inverse=True)
    return codes.astype(np.int64), classes


def _fmt(value: object) -> str:
    """Label of a raw value: integral floats without the ``.0``."""
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def read_codes_csv(
    path: str | Path, columns: Sequence[str], domains: dict[str, int] | None = None
) -> pd.DataFrame:
    """Read a CSV of integer codes and check its header and values.

    Parameters
    ----------
    path : path-like
        The CSV file.
    columns : sequence of str
        The exact expected header.
    domains : dict, optional
        Maximum domain size per column: codes must lie in ``[0, k)``.

    Returns
    -------
    pandas.DataFrame
        int64 columns.

    Raises
    ------
    ValueError
        Wrong header, missing values, non-integer values or codes out of range.
    """
    df = pd.read_csv(path)
    if list(df.columns) != list(columns):
        raise ValueError(
            f"{Path(path).name}: unexpected columns {list(df.columns)}; expected {list(columns)}"
        )
    if df.isna().any().any():
        bad = df.columns[df.isna().any()].tolist()
        raise ValueError(f"{Path(path).name}: missing values in {bad}")
    for c in df.columns:
        if df[c].dtype.kind not in "iu":
            raise ValueError(f"{Path(path).name}: column {c!r} is not integer ({df[c].dtype})")
        if (df[c] < 0).any() or (domains and c in domains and (df[c] >= domains[c]).any()):
            hi = domains.get(c) if domains else None
            raise ValueError(f"{Path(path).name}: column {c!r} has codes outside [0, {hi})")
    return df.astype(np.int64)


def domains_of(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> dict[str, int]:
    """Domain size ``len(set(col))`` of each column, as the authors computed k."""
    cols = frame.columns if columns is None else columns
    return {c: int(frame[c].nunique()) for c in cols}


def _reorder(sensitive: dict[str, int], first: str) -> dict[str, int]:
    return {first: sensitive[first], **{k: v for k, v in sensitive.items() if k != first}}


# ---------------------------------------------------------------------------
# Adult (reconstructed), income > 26,000

ADULT26K_COLUMNS = (
    "age",
    "workclass",
    "education",
    "marital-status",
    "occupation",
    "native-country",
    "relationship",
    "hours-per-week",
    "gender",
    "race",
    "income",
)

# Labels in LabelEncoder (sorted) order. Categories are the UCI Adult spellings;
# that the codes follow them was checked by matching every category's frequency
# with UCI adult.data+adult.test (all agree within 0.3 percentage points).
_ADULT_LABELS: dict[str, list[str]] = {
    "workclass": [
        "Federal-gov", "Local-gov", "Private", "Self-emp-inc", "Self-emp-not-inc",
        "State-gov", "Without-pay",
    ],
    "education": [
        "10th", "11th", "12th", "1st-4th", "5th-6th", "7th-8th", "9th", "Assoc-acdm",
        "Assoc-voc", "Bachelors", "Doctorate", "HS-grad", "Masters", "Preschool",
        "Prof-school", "Some-college",
    ],
    "marital-status": [
        "Divorced", "Married-AF-spouse", "Married-civ-spouse", "Married-spouse-absent",
        "Never-married", "Separated", "Widowed",
    ],
    "occupation": [
        "Adm-clerical", "Armed-Forces", "Craft-repair", "Exec-managerial", "Farming-fishing",
        "Handlers-cleaners", "Machine-op-inspct", "Other-service", "Priv-house-serv",
        "Prof-specialty", "Protective-serv", "Sales", "Tech-support", "Transport-moving",
    ],
    "relationship": [
        "Husband", "Not-in-family", "Other-relative", "Own-child", "Unmarried", "Wife",
    ],
    "native-country": [
        "Cambodia", "Canada", "China", "Columbia", "Cuba", "Dominican-Republic", "Ecuador",
        "El-Salvador", "England", "France", "Germany", "Greece", "Guatemala", "Haiti",
        "Holand-Netherlands", "Honduras", "Hong", "Hungary", "India", "Iran", "Ireland",
        "Italy", "Jamaica", "Japan", "Laos", "Mexico", "Nicaragua",
        "Outlying-US(Guam-USVI-etc)", "Peru", "Philippines", "Poland", "Portugal",
        "Puerto-Rico", "Scotland", "South", "Taiwan", "Thailand", "Trinadad&Tobago",
        "United-States", "Vietnam", "Yugoslavia",
    ],
    "race": ["Amer-Indian-Eskimo", "Asian-Pac-Islander", "Black", "Other", "White"],
    "gender": ["Female", "Male"],
    "income": ["<=26000", ">26000"],
}  # fmt: skip
_ADULT_AGES = list(range(17, 91))  # 74 ages, all present
_ADULT_HOURS = [h for h in range(1, 100) if h not in (71, 83, 93)]  # 96 values


def _adult_categories(frame: pd.DataFrame) -> dict[str, dict[int, str]]:
    cats: dict[str, dict[int, str]] = {}
    for c in frame.columns:
        k = int(frame[c].max()) + 1 if len(frame) else 0
        if c in _ADULT_LABELS and k <= len(_ADULT_LABELS[c]):
            cats[c] = dict(enumerate(_ADULT_LABELS[c]))
        elif c == "age" and frame[c].nunique() == len(_ADULT_AGES):
            cats[c] = {i: str(a) for i, a in enumerate(_ADULT_AGES)}
        elif c == "hours-per-week" and frame[c].nunique() == len(_ADULT_HOURS):
            cats[c] = {i: str(h) for i, h in enumerate(_ADULT_HOURS)}
        else:
            cats[c] = {i: str(i) for i in range(k)}
    return cats


def make_adult26k(frame: pd.DataFrame, protected: str = "gender") -> Dataset:
    """Build the ``adult26k`` :class:`Dataset` from the authors' coded extract.

    Parameters
    ----------
    frame : pandas.DataFrame
        The content of ``db_adult_processed_26k.csv`` (integer codes).
    protected : {"gender", "race", "race_gender"}
        Protected attribute. ``"race_gender"`` adds the column
        ``race_gender = race * 2 + gender`` (k = 10).

    Returns
    -------
    Dataset
    """
    if protected not in ("gender", "race", "race_gender"):
        raise ValueError(f"invalid protected={protected!r}; valid: 'gender', 'race', 'race_gender'")
    frame = frame.copy()
    cats = _adult_categories(frame)
    sensitive = {"gender": 2, "race": 5, "native-country": 41, "age": 74}
    if protected == "race_gender":
        rg = frame["race"].to_numpy() * 2 + frame["gender"].to_numpy()
        frame.insert(frame.columns.get_loc("income"), "race_gender", rg.astype(np.int64))
        cats["race_gender"] = {
            2 * r + g: f"{cats['race'][r]}/{cats['gender'][g]}" for r in range(5) for g in range(2)
        }
        sensitive = {"race_gender": 10, "native-country": 41, "age": 74}
    else:
        sensitive = _reorder(sensitive, protected)
    domains = domains_of(frame)
    if protected == "race_gender":
        domains["race_gender"] = 10
    return Dataset(
        name="adult26k",
        frame=frame,
        target="income",
        protected=protected,
        sensitive=sensitive,
        domains=domains,
        categories=cats,
        numeric=[],
        description=(
            "Reconstructed Adult (Ding et al. 2021, folktables' adult_reconstruction.csv) as "
            "preprocessed by Arcolezi et al. (2023): income binarised as income > 26,000 "
            "(1 = favourable); rows with '?' in workclass, occupation or native-country "
            "dropped (45,849 rows); capital-gain, capital-loss and education-num dropped; age "
            "and hours-per-week kept unbinned (k = 74 and 96); every column LabelEncoded "
            "(sorted order; gender Male = 1 is the privileged group). Code labels of "
            "workclass, marital-status, occupation and relationship were inferred by matching "
            "category frequencies with UCI Adult. protected='race' (k = 5) and "
            "'race_gender' (race*2+gender, k = 10) are k-ary group attributes (ghoukasian2025): "
            "no privileged code is defined for binary metrics; race and gender stay in the "
            "frame as features."
        ),
        citation="arcolezi2023, ghoukasian2025, ding2021folktables",
        license="MIT (authors' extract, github.com/hharcolezi/ldp-fairness-impact); "
        "underlying data from the US Census via folktables",
        source="https://github.com/hharcolezi/ldp-fairness-impact",
        files=["arcolezi2023/db_adult_processed_26k.csv"],
    )


@register(
    "adult26k",
    summary="Reconstructed Adult, income > 26k, 45,849 rows (Arcolezi et al. extract)",
    paper=("arcolezi2023", "ghoukasian2025"),
    choices={"protected": ("gender", "race", "race_gender")},
)
def load_adult26k(protected: str = "gender") -> Dataset:
    """Load ``adult26k`` (see :func:`make_adult26k`)."""
    path = fetch("arcolezi2023/db_adult_processed_26k.csv")
    doms = {c: len(v) for c, v in _ADULT_LABELS.items()} | {"age": 74, "hours-per-week": 96}
    return make_adult26k(read_codes_csv(path, ADULT26K_COLUMNS, doms), protected)


# ---------------------------------------------------------------------------
# LSAC bar passage

LSAC_COLUMNS = ("fam_inc", "gender", "fulltime", "race1", "lsat", "ugpa", "pass_bar")
LSAC_DOMAINS = {
    "fam_inc": 5, "gender": 2, "fulltime": 2, "race1": 2, "lsat": 37, "ugpa": 6, "pass_bar": 2
}  # fmt: skip
# Labels of the codes of the full processed table (checked against build_lsac on the raw file).
_LSAC_LABELS: dict[str, dict[int, str]] = {
    "fam_inc": {i: str(i + 1) for i in range(5)},
    "gender": {0: "female", 1: "male"},
    "fulltime": {0: "1", 1: "2"},
    "race1": {0: "black", 1: "non-black"},
    "lsat": {i: str(v) for i, v in enumerate([11, 12, *range(14, 49)])},
    "ugpa": {i: _fmt(v) for i, v in enumerate([1.5, 2.0, 2.5, 3.0, 3.5, 4.0])},
    "pass_bar": {0: "0", 1: "1"},
}


def build_lsac(raw: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, dict[int, str]]]:
    """Apply the authors' LSAC recipe to the raw ``bar_pass_prediction.csv`` table.

    ``dropna`` over all raw columns; ``race1 = (race1 != 'black')``;
    ``ugpa = round(2 ugpa) / 2`` (half to even); ``lsat = rint(lsat)``; keep
    ``fam_inc, gender, fulltime, race1, lsat, ugpa, pass_bar``; LabelEncode.

    Parameters
    ----------
    raw : pandas.DataFrame
        The raw table (39 columns).

    Returns
    -------
    frame : pandas.DataFrame
        Integer codes, original row order, index reset.
    categories : dict
        Label of every code.
    """
    missing = [c for c in LSAC_COLUMNS if c not in raw.columns]
    if missing:
        raise ValueError(f"raw LSAC table lacks columns {missing}")
    df = raw.dropna(how="any")
    values = {
        "fam_inc": df["fam_inc"].to_numpy(dtype=np.float64),
        "gender": df["gender"].astype(str).to_numpy(dtype=object),
        "fulltime": df["fulltime"].to_numpy(dtype=np.float64),
        "race1": np.where(df["race1"].astype(str).to_numpy(dtype=object) != "black", 1, 0),
        "lsat": np.rint(df["lsat"].to_numpy(dtype=np.float64)),
        # numpy rounds half to even, as Python's round() on floats
        "ugpa": np.round(2.0 * df["ugpa"].to_numpy(dtype=np.float64)) / 2.0,
        "pass_bar": df["pass_bar"].to_numpy(dtype=np.float64),
    }
    frame = pd.DataFrame(index=pd.RangeIndex(len(df)))
    cats: dict[str, dict[int, str]] = {}
    for c in LSAC_COLUMNS:
        codes, classes = label_encode(values[c])
        frame[c] = codes
        cats[c] = {i: _fmt(v) for i, v in enumerate(classes.tolist())}
    cats["race1"] = {i: ("black" if v == "0" else "non-black") for i, v in cats["race1"].items()}
    return frame, cats


def make_lsac(
    frame: pd.DataFrame,
    protected: str = "race1",
    categories: dict[str, dict[int, str]] | None = None,
    source: str = "raw",
) -> Dataset:
    """Build the ``lsac`` :class:`Dataset` from a coded frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        Coded LSAC table (columns :data:`LSAC_COLUMNS`).
    protected : {"race1", "gender", "fam_inc"}
        Protected attribute (``fam_inc`` is a k-ary group attribute, k = 5).
    categories : dict, optional
        Code labels (from :func:`build_lsac`); the labels of the full table otherwise.
    source : {"raw", "extract"}
        Recorded in the description.

    Returns
    -------
    Dataset
    """
    if protected not in ("race1", "gender", "fam_inc"):
        raise ValueError(f"invalid protected={protected!r}; valid: 'race1', 'gender', 'fam_inc'")
    if categories is None:
        categories = {c: dict(v) for c, v in _LSAC_LABELS.items()}
    domains = domains_of(frame)
    sensitive = {c: domains[c] for c in ("race1", "fam_inc", "gender", "fulltime")}
    return Dataset(
        name="lsac",
        frame=frame,
        target="pass_bar",
        protected=protected,
        sensitive=_reorder(sensitive, protected),
        domains=domains,
        categories=categories,
        numeric=[],
        description=(
            "LSAC National Longitudinal Bar Passage Study (Wightman 1998) with the recipe of "
            "Arcolezi et al. (2023): rows with any missing value among the 39 raw columns "
            "dropped (20,427 rows); race1 = non-black (1, privileged) vs black (0); ugpa "
            "rounded to the nearest half (ties to even; k = 6); lsat rounded to an integer "
            "(k = 37); columns fam_inc, gender, fulltime, race1, lsat, ugpa, pass_bar "
            "LabelEncoded; target pass_bar (1 = passed). protected='gender' (male = 1) and "
            "'fam_inc' (k = 5, a k-ary group attribute) are the ghoukasian2025 settings. "
            f"Built from {'the raw table' if source == 'raw' else 'the authors extract'}."
        ),
        citation="arcolezi2023, ghoukasian2025, wightman1998lsac",
        license="MIT (authors' repository github.com/hharcolezi/ldp-fairness-impact); "
        "LSAC data distributed for research",
        source="https://github.com/hharcolezi/ldp-fairness-impact",
        files=["arcolezi2023/bar_pass_prediction.csv" if source == "raw" else "arcolezi2023/db_LSAC.csv"],
    )


@register(
    "lsac",
    summary="LSAC bar passage, 20,427 rows (Arcolezi et al. recipe on the raw table)",
    paper=("arcolezi2023", "ghoukasian2025"),
    choices={"source": ("raw", "extract"), "protected": ("race1", "gender", "fam_inc")},
)
def load_lsac(source: str = "raw", protected: str = "race1") -> Dataset:
    """Load ``lsac`` built from the raw table (``source="raw"``) or the authors' extract."""
    if source == "raw":
        raw = pd.read_csv(fetch("arcolezi2023/bar_pass_prediction.csv"), low_memory=False)
        frame, cats = build_lsac(raw)
        return make_lsac(frame, protected, cats, source)
    if source == "extract":
        frame = read_codes_csv(fetch("arcolezi2023/db_LSAC.csv"), LSAC_COLUMNS, LSAC_DOMAINS)
        return make_lsac(frame, protected, None, source)
    raise ValueError(f"invalid source={source!r}; valid: 'raw', 'extract'")
