"""A dataset from a file: a CSV or Parquet table described by a small TOML card.

The card (``card.toml``)::

    name = "law_school"                    # optional; default: the card's file stem
    registry = "fairness-datasets/law_school_clean.csv"  # a file of the data registry, or
    # file = "data/my_table.csv"           # a path (relative to the card)
    # sha256 = "..."                       # optional for ``file``: the file's sha256
    target = "pass_bar"                    # the outcome column
    favourable = 1.0                       # its favourable value (coded 1, every other value 0)
    protected = "race"                     # the protected attribute
    privileged = "White"                   # its privileged value (coded 1, every other value 0)
    categorical = ["race"]                 # non-numeric or categorical feature columns
    features = []                          # optional: the feature columns to keep (default: all)
    description = "..."                    # optional data-card text
    citation = ""                          # optional
    license = ""                           # optional

A registry file is read through :func:`ldpfair.datasets.fetch` (sha256-checked
against the registry), a ``file`` through the same hash (checked against
``sha256`` when the card gives one). :func:`read_card` validates the card and the
table, naming every problem on its own line (missing column, one class only,
protected attribute with a single value, non-numeric feature not declared
categorical). Rows with a missing value in a kept column are dropped (the data
card says how many). The dataset is the registry's ``file_card`` loader, so the
experiment engine loads it, keys its cells (by the card's path and both files'
sha256) and caches them like any other dataset.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .core import Dataset, register
from .registry import fetch, file_sha256

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

__all__ = ["CARD_KEYS", "Card", "card_options", "load_card", "read_card"]

#: Keys a card may hold.
#: A card's ``name``: a plain name, never a path (``../../evil``) nor empty.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
#: The fewest rows a card's table may have (a 2-row table has no train and test rows of both classes).
MIN_ROWS = 5

CARD_KEYS = ("name", "registry", "file", "sha256", "target", "favourable", "protected", "privileged",
             "categorical", "features", "description", "citation", "license", "separator")


@dataclass(frozen=True)
class Card:
    """A validated dataset card and where its table is."""

    path: Path
    name: str
    table: Path
    target: str
    favourable: Any
    protected: str
    privileged: Any
    categorical: tuple[str, ...]
    features: tuple[str, ...]
    description: str = ""
    citation: str = ""
    license: str = ""
    source: str = ""
    separator: str = ","
    files: list[str] = field(default_factory=list)


def _read_table(path: Path, separator: str) -> pd.DataFrame:
    if path.suffix.lower() in (".parquet", ".pq"):
        return pd.read_parquet(path)
    return pd.read_csv(path, sep=separator)


def read_card(card: str | Path) -> tuple[Card, pd.DataFrame]:
    """Read and validate a card and its table; ``ValueError`` with one line per problem."""
    path = Path(card).expanduser().resolve()
    if not path.is_file():
        raise ValueError(f"dataset card {str(card)!r} does not exist")
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"dataset card {str(path)!r} is not valid TOML: {exc}") from None
    where = f"dataset card {path.name}"
    valid = ", ".join(CARD_KEYS)
    problems = [f"{where}: unknown key {k!r} (valid: {valid})" for k in raw if k not in CARD_KEYS]
    for key in ("target", "favourable", "protected", "privileged"):
        if key not in raw:
            problems.append(f"{where}: missing key {key!r}")
    if ("registry" in raw) == ("file" in raw):
        problems.append(f"{where}: give exactly one of 'registry' (a data-registry file) or 'file' (a path)")
    for key in ("categorical", "features"):
        if key in raw and not (isinstance(raw[key], list) and all(isinstance(c, str) for c in raw[key])):
            problems.append(f"{where}: {key!r} must be a list of column names")
    if "name" in raw and not (isinstance(raw["name"], str) and _NAME.fullmatch(raw["name"])):
        problems.append(f"{where}: 'name' must be a plain name (letters, digits, '_', '-', '.', starting "
                        f"with a letter or digit, at most 64 characters), got {raw['name']!r}")
    if problems:
        raise ValueError("\n".join(problems))
    files: list[str] = []
    if "registry" in raw:
        table = fetch(str(raw["registry"]))  # sha256-checked against the registry
        files = [str(raw["registry"])]
        source = f"data registry file {raw['registry']}"
    else:
        table = (path.parent / str(raw["file"])).resolve()
        if not table.is_file():
            raise ValueError(f"{where}: its file {str(table)!r} does not exist")
        if "sha256" in raw and file_sha256(table) != str(raw["sha256"]).lower():
            raise ValueError(f"{where}: {table.name} has sha256 {file_sha256(table)}, "
                             f"not the card's {raw['sha256']}")
        source = str(table)
    sep = str(raw.get("separator", ","))
    try:
        frame = _read_table(table, sep)
    except Exception as exc:  # noqa: BLE001 - any reader failure is one line
        raise ValueError(f"{where}: cannot read {table.name}: {type(exc).__name__}: {exc}") from None
    c = Card(path, str(raw.get("name", path.stem)), table, str(raw["target"]), raw["favourable"],
             str(raw["protected"]), raw["privileged"], tuple(raw.get("categorical", ())),
             tuple(raw.get("features", ())), str(raw.get("description", "")), str(raw.get("citation", "")),
             str(raw.get("license", "")), source, sep, files)
    _check(c, frame, where)
    return c, frame


def _check(c: Card, frame: pd.DataFrame, where: str) -> None:
    cols = set(frame.columns)
    problems = []
    if len(frame) < MIN_ROWS:
        problems.append(f"{where}: {c.table.name} has {len(frame)} rows; a dataset needs at least "
                        f"{MIN_ROWS} (train and test rows of both classes)")
    wanted = [c.target, c.protected, *c.categorical, *c.features]
    for col in dict.fromkeys(wanted):
        if col not in cols:
            problems.append(f"{where}: missing column {col!r} in {c.table.name}")
    if c.target in cols:
        y = frame[c.target].dropna()
        if not (y == c.favourable).any():
            problems.append(f"{where}: target {c.target!r} never takes its favourable value {c.favourable!r}")
        elif (y == c.favourable).all():
            problems.append(f"{where}: target {c.target!r} has one class only ({c.favourable!r})")
    if c.protected in cols:
        a = frame[c.protected].dropna()
        if a.nunique() < 2:
            problems.append(f"{where}: protected attribute {c.protected!r} has a single value")
        elif not (a == c.privileged).any():
            problems.append(f"{where}: protected attribute {c.protected!r} never takes its privileged value "
                            f"{c.privileged!r}")
    for col in _features(c, frame):
        if col in cols and col not in c.categorical and col != c.protected:
            if not pd.api.types.is_numeric_dtype(frame[col]):
                problems.append(f"{where}: feature {col!r} is not numeric and not declared categorical")
            elif not pd.api.types.is_bool_dtype(frame[col]):
                values = frame[col].to_numpy(dtype=float, na_value=np.nan)
                bad = np.flatnonzero(np.isinf(values))
                if bad.size:
                    problems.append(f"{where}: numeric feature {col!r} has {bad.size} infinite value(s), "
                                    f"e.g. in data row {int(bad[0]) + 1}; valid: finite numbers (or an "
                                    "empty cell for a missing value)")
    if problems:
        raise ValueError("\n".join(problems))


def _features(c: Card, frame: pd.DataFrame) -> list[str]:
    keep = list(c.features) if c.features else [col for col in frame.columns if col != c.target]
    if c.protected not in keep:
        keep.append(c.protected)
    return [col for col in keep if col != c.target]


def card_options(card: str | Path) -> dict[str, str]:
    """The loader options of a card: its absolute path and the sha256 of the card and of its table."""
    c, _ = read_card(card)
    return {"card": str(c.path), "card_sha256": file_sha256(c.path), "sha256": file_sha256(c.table)}


@register("file_card", summary="a CSV or Parquet file described by a TOML card (option card=PATH)")
def load_card(card: str = "", card_sha256: str = "", sha256: str = "") -> Dataset:
    """Load the dataset of a card (see the module docstring); the digests, when given, must match."""
    if not card:
        raise ValueError("dataset 'file_card' needs the option card=PATH (a TOML dataset card)")
    c, frame = read_card(card)
    if card_sha256 and file_sha256(c.path) != card_sha256:
        raise ValueError(f"dataset card {c.path.name} changed since its cells were declared (sha256 differs)")
    if sha256 and file_sha256(c.table) != sha256:
        raise ValueError(f"the table {c.table.name} of dataset card {c.path.name} changed (sha256 differs)")
    feats = _features(c, frame)
    frame = frame[[*feats, c.target]]
    n0 = len(frame)
    frame = frame.dropna().reset_index(drop=True)
    out = pd.DataFrame(index=frame.index)
    categories: dict[str, dict[int, str]] = {}
    domains: dict[str, int] = {}
    numeric: list[str] = []
    for col in feats:
        if col == c.protected:
            out[col] = (frame[col] == c.privileged).astype(np.int64)
            categories[col] = {0: f"not {c.privileged}", 1: str(c.privileged)}
            domains[col] = 2
        elif col in c.categorical:
            codes, uniques = pd.factorize(frame[col], sort=True)
            out[col] = codes.astype(np.int64)
            categories[col] = {i: str(u) for i, u in enumerate(uniques)}
            domains[col] = len(uniques)
        else:
            out[col] = frame[col].astype(float)
            numeric.append(col)
    out[c.target] = (frame[c.target] == c.favourable).astype(np.int64)
    categories[c.target] = {0: f"not {c.favourable}", 1: str(c.favourable)}
    domains[c.target] = 2
    text = c.description or f"User dataset from {c.source}."
    dropped = n0 - len(frame)
    text += (f" Target {c.target} = {c.favourable!r} coded 1; "
             f"{c.protected} = {c.privileged!r} (privileged) coded 1.")
    if dropped:
        text += f" {dropped} of {n0} rows with a missing value dropped."
    return Dataset(name="file_card", frame=out, target=c.target, protected=c.protected,
                   sensitive={c.protected: 2}, domains=domains, categories=categories, numeric=numeric,
                   description=text, citation=c.citation, license=c.license, source=c.source, files=c.files)
