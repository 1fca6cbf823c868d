"""ACS PUMS public-coverage task as used by Arcolezi et al. (2023): ``acs_coverage``.

Two sources:

``"extract"``
    The authors' processed file ``db_ACSCoverage.csv`` (Texas, 2018, 1-Year;
    98,739 rows).
``"folktables"``
    The same task built from the Census PUMS person file through folktables'
    own ``ACSDataSource`` and ``ACSPublicCoverage`` (``AGEP < 65``,
    ``PINCP <= 30000``, NaN -> 0), followed by the authors' steps: delete
    ``DEAR, DEYE, DREM, PINCP``; binarise ``SEX`` (1 = male), ``DIS``
    (1 = with a disability) and ``RAC1P`` (1 = Black); LabelEncode every column.
    The binarisation is **inferred** from the extract's prevalences (the
    authors' intermediate file and the code that made it are not published).

folktables reads ``<root_dir>/<year>/1-Year/psam_p<FIPS>.csv`` (``ss<yy>p<st>.csv``
before 2017) without any checksum; Census PUMS files are not in the ldpfair
registry, so the loader records the file's sha256 in the description instead.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pooch

from .. import config
from .arcolezi import _fmt, domains_of, label_encode, read_codes_csv
from .core import Dataset, register
from .registry import fetch, file_sha256

__all__ = ["ACS_COLUMNS", "ACS_DOMAINS", "STATES", "build_acs_coverage", "make_acs_coverage"]

ACS_COLUMNS = (
    "AGEP", "SCHL", "MAR", "SEX", "DIS", "ESP", "CIT", "MIG", "MIL", "ANC", "NATIVITY",
    "ESR", "ST", "FER", "RAC1P", "PUBCOV",
)  # fmt: skip
ACS_DOMAINS = {
    "AGEP": 50, "SCHL": 24, "MAR": 5, "SEX": 2, "DIS": 2, "ESP": 9, "CIT": 5, "MIG": 3,
    "MIL": 5, "ANC": 4, "NATIVITY": 2, "ESR": 7, "ST": 1, "FER": 3, "RAC1P": 2, "PUBCOV": 2,
}  # fmt: skip
_DROPPED = ("DEAR", "DEYE", "DREM", "PINCP")
_BINARY_LABELS = {
    "SEX": {0: "female", 1: "male"},
    "DIS": {0: "without disability", 1: "with disability"},
    "RAC1P": {0: "not Black", 1: "Black"},
    "PUBCOV": {0: "without public coverage", 1: "with public coverage"},
}
# Raw PUMS value of code 0 for the columns of the extract whose codes are a
# shift of the raw values (all raw values present; NaN -> 0 where applicable).
_EXTRACT_OFFSETS = {
    "AGEP": 15, "SCHL": 1, "MAR": 1, "ESP": 0, "CIT": 1, "MIG": 1, "MIL": 0,
    "NATIVITY": 1, "ESR": 0, "FER": 0,
}  # fmt: skip

STATES: tuple[str, ...] = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ",
    "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
    "VA", "WA", "WV", "WI", "WY", "PR",
)  # fmt: skip


def _extract_categories(frame: pd.DataFrame) -> dict[str, dict[int, str]]:
    cats: dict[str, dict[int, str]] = {}
    for c in frame.columns:
        k = int(frame[c].max()) + 1
        if c in _BINARY_LABELS:
            cats[c] = dict(_BINARY_LABELS[c])
        elif c in _EXTRACT_OFFSETS and frame[c].nunique() == ACS_DOMAINS[c]:
            cats[c] = {i: str(i + _EXTRACT_OFFSETS[c]) for i in range(k)}
        elif c == "ST" and k == 1:
            cats[c] = {0: "48"}  # Texas
        else:
            cats[c] = {i: str(i) for i in range(k)}
    return cats


def build_acs_coverage(
    features: pd.DataFrame, target: pd.Series | pd.DataFrame
) -> tuple[pd.DataFrame, dict[str, dict[int, str]]]:
    """Apply the authors' steps to folktables' ``ACSPublicCoverage`` output.

    Parameters
    ----------
    features : pandas.DataFrame
        ``ACSPublicCoverage.df_to_pandas(...)[0]`` (19 features, NaN already 0).
    target : pandas.Series or DataFrame
        The boolean PUBCOV target from the same call.

    Returns
    -------
    frame : pandas.DataFrame
        Columns :data:`ACS_COLUMNS`, LabelEncoded.
    categories : dict
        Label (raw PUMS value, or a name for the binarised columns) of every code.
    """
    y = target.iloc[:, 0] if isinstance(target, pd.DataFrame) else target
    df = features.drop(columns=list(_DROPPED)).reset_index(drop=True)
    df["SEX"] = (df["SEX"] == 1).astype(np.int64)
    df["DIS"] = (df["DIS"] == 1).astype(np.int64)
    df["RAC1P"] = (df["RAC1P"] == 2).astype(np.int64)
    df["PUBCOV"] = np.asarray(y, dtype=bool).astype(np.int64)
    missing = [c for c in ACS_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"ACSPublicCoverage output lacks columns {missing}")
    frame = pd.DataFrame(index=pd.RangeIndex(len(df)))
    cats: dict[str, dict[int, str]] = {}
    for c in ACS_COLUMNS:
        codes, classes = label_encode(df[c].to_numpy(dtype=np.float64))
        frame[c] = codes
        if c in _BINARY_LABELS:
            cats[c] = {i: _BINARY_LABELS[c][int(v)] for i, v in enumerate(classes.tolist())}
        else:
            cats[c] = {i: _fmt(v) for i, v in enumerate(classes.tolist())}
    return frame, cats


def make_acs_coverage(
    frame: pd.DataFrame,
    categories: dict[str, dict[int, str]] | None = None,
    *,
    source: str = "extract",
    state: str = "TX",
    year: int = 2018,
    files: list[str] | None = None,
    note: str = "",
) -> Dataset:
    """Wrap a coded ACS public-coverage frame into a :class:`Dataset`.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns :data:`ACS_COLUMNS`, integer codes.
    categories : dict, optional
        Code labels; inferred for the extract when omitted.
    source, state, year : str, str, int
        Recorded in the description.
    files : list of str, optional
        Files the data came from.
    note : str
        Extra description text.

    Returns
    -------
    Dataset
    """
    if categories is None:
        categories = _extract_categories(frame)
    domains = domains_of(frame)
    sensitive = {c: domains[c] for c in ("DIS", "AGEP", "SEX", "SCHL")}
    return Dataset(
        name="acs_coverage",
        frame=frame,
        target="PUBCOV",
        protected="DIS",
        sensitive=sensitive,
        domains=domains,
        categories=categories,
        numeric=[],
        description=(
            f"ACS PUMS 1-Year person records, {state} {year}, folktables task "
            "ACSPublicCoverage (Ding et al. 2021: AGEP < 65, PINCP <= 30,000, missing values "
            "set to 0) as preprocessed by Arcolezi et al. (2023): DEAR, DEYE, DREM and PINCP "
            "deleted; SEX (1 = male), DIS (1 = with a disability) and RAC1P (1 = Black) "
            "binarised (inferred from the extract's prevalences); every column LabelEncoded; "
            "the constant ST kept. Target PUBCOV (1 = public health coverage). Protected DIS: "
            "the authors' code treats DIS = 1 (with a disability) as the privileged group a_1. "
            f"Source: {source}. {note}"
        ).strip(),
        citation="arcolezi2023, ding2021folktables",
        license="ACS PUMS: public domain (US Census Bureau); authors' extract MIT "
        "(github.com/hharcolezi/ldp-fairness-impact)",
        source="https://www.census.gov/programs-surveys/acs/microdata.html via folktables",
        files=list(files or []),
    )


def _default_root() -> Path:
    data = config.data_dir()
    if data is not None:
        return data / "folktables"
    return Path(pooch.os_cache("ldpfair")) / "folktables"


def _pums_file(root: Path, state: str, year: int) -> Path:
    from folktables.load_acs import _STATE_CODES

    name = f"psam_p{_STATE_CODES[state]}.csv" if year >= 2017 else f"ss{str(year)[-2:]}p{state.lower()}.csv"
    return root / str(year) / "1-Year" / name


@register(
    "acs_coverage",
    summary="ACS public coverage, Texas 2018, 98,739 rows (Arcolezi et al. extract or folktables)",
    paper=("arcolezi2023",),
    choices={"source": ("extract", "folktables"), "state": STATES, "download": (False, True)},
)
def load_acs_coverage(
    source: str = "extract",
    state: str = "TX",
    year: int = 2018,
    root_dir: str | os.PathLike[str] | None = None,
    download: bool = False,
) -> Dataset:
    """Load ``acs_coverage`` from the authors' extract or through folktables.

    Parameters
    ----------
    source : {"extract", "folktables"}
        The extract is Texas 2018 only.
    state : str
        Two-letter state code (folktables source).
    year : int
        Survey year, 2014 or later (folktables source).
    root_dir : path-like, optional
        folktables data root; default ``$LDPFAIR_DATA_DIR/folktables`` or the
        ldpfair cache.
    download : bool
        Let folktables download the PUMS file from the Census Bureau if missing.

    Returns
    -------
    Dataset
    """
    if isinstance(year, bool) or not isinstance(year, int | np.integer) or year < 2014:
        raise ValueError(f"invalid year={year!r}; valid: an integer >= 2014")
    if source == "extract":
        if (state, int(year)) != ("TX", 2018):
            raise ValueError(
                f"source='extract' is Texas 2018 only (got state={state!r}, year={year!r}); "
                "use source='folktables' for other states or years"
            )
        rel = "arcolezi2023/db_ACSCoverage.csv"
        frame = read_codes_csv(fetch(rel), ACS_COLUMNS, ACS_DOMAINS)
        return make_acs_coverage(frame, source="extract", files=[rel])
    if source != "folktables":
        raise ValueError(f"invalid source={source!r}; valid: 'extract', 'folktables'")
    from folktables import ACSDataSource, ACSPublicCoverage

    root = Path(root_dir).expanduser() if root_dir is not None else _default_root()
    data_source = ACSDataSource(
        survey_year=str(int(year)), horizon="1-Year", survey="person", root_dir=str(root)
    )
    pums = _pums_file(root, state, int(year))
    if not download and not pums.is_file():  # checked here: folktables would mkdir first
        raise FileNotFoundError(
            f"ACS PUMS file for {state} {year} not found: {pums}. Pass download=True "
            "(network access to www2.census.gov) or root_dir= a folder holding "
            "<year>/1-Year/<file> (default: $LDPFAIR_DATA_DIR/folktables or the ldpfair cache)."
        )
    py_state = random.getstate()  # folktables calls random.seed(); leave global state as found
    try:
        raw = data_source.get_data(states=[state], download=download)
    except FileNotFoundError as exc:
        raise FileNotFoundError(
            f"{exc} Expected file: {_pums_file(root, state, int(year))}; pass download=True "
            "(network access to www2.census.gov) or root_dir= a folder holding it."
        ) from exc
    finally:
        random.setstate(py_state)
    features, target, _ = ACSPublicCoverage.df_to_pandas(raw)
    frame, cats = build_acs_coverage(features, target)
    digest = file_sha256(pums) if pums.is_file() else "unknown"
    return make_acs_coverage(
        frame,
        cats,
        source="folktables",
        state=state,
        year=int(year),
        files=[str(pums)],
        note=f"PUMS file sha256 {digest} (not in the ldpfair registry; not verified).",
    )
