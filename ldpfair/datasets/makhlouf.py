"""Datasets of Makhlouf et al. (2024): ``synthetic_makhlouf``, ``compas_makhlouf``, ``adult_makhlouf``.

Conventions of this paper (kept so that frames equal the authors' files):

* ``Y = 1`` is the *positive* class of the paper. For COMPAS it means a violent
  decile score above the threshold (high risk), so "favourable" is the paper's
  wording, not a value judgement.
* The paper calls **privileged** the group with the larger rate of ``Y = 1``.
  That is ``A = 1`` in Synthetic dataset 1 and Adult (male), but ``A = 0``
  (African-American) for COMPAS, whose race codes follow LabelEncoder
  (African-American 0, Caucasian 1), and ``A = 0`` for Synthetic dataset 2.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_choice, check_count, check_member, check_real, check_rng
from .arcolezi import domains_of, label_encode, read_codes_csv
from .core import Dataset, register
from .registry import fetch

__all__ = [
    "ADULT_MAKHLOUF_COLUMNS",
    "COMPAS_COLUMNS",
    "SYNTHETIC_FILES",
    "build_compas",
    "generate_synthetic",
    "make_synthetic",
]

_MAKHLOUF_SOURCE = "https://github.com/KarimaMakhlouf/Impact_of_LDP_on_Fairness"

# ---------------------------------------------------------------------------
# Synthetic dataset

#: quantile -> authors' file (thresholds 0.44, 0.52, 0.6 of min-max scaled Y).
SYNTHETIC_FILES = {
    0.25: "makhlouf2024/S1_0.44.csv",
    0.5: "makhlouf2024/S1_0.52.csv",
    0.75: "makhlouf2024/S1_0.6.csv",
}
_P_C = 0.35
_P_A_GIVEN_C = (0.55, 0.75)
_P_M_GIVEN_A = ((0.5, 0.4, 0.1), (0.35, 0.4, 0.25))  # the authors' code (paper Fig. 2 swaps them)
_GAMMA, _ALPHA, _BETA = 0.5, 0.75, 0.6


def generate_synthetic(
    n: int, quantile: float, rng: np.random.Generator, variant: int = 1
) -> tuple[pd.DataFrame, float]:
    """Draw the synthetic dataset of Makhlouf et al. (vectorised).

    ``C ~ B(0.35)``; ``A | C ~ B(0.55)`` if ``C = 0`` else ``B(0.75)``;
    ``M | A ~ M(0.5, 0.4, 0.1)`` if ``A = 0`` else ``M(0.35, 0.4, 0.25)`` (as the
    authors' code); ``Y = 0.5 C + s 0.75 A + 0.6 M + N(0, 1)`` with ``s = +1``
    (variant 1) or ``s = -1`` (variant 2). ``Y`` is min-max scaled and
    ``Y_bin = 1`` iff ``Y > quantile(Y, q)`` (linear interpolation).

    Parameters
    ----------
    n : int
        Number of rows (>= 2).
    quantile : float
        Quantile used as threshold, in (0, 1).
    rng : numpy.random.Generator
        Source of randomness.
    variant : {1, 2}
        1: Synthetic dataset 1 (A = 1 privileged). 2: the sign of A's effect on Y
        is flipped, so A = 0 is privileged; C, A, M are drawn exactly as in variant 1.

    Returns
    -------
    frame : pandas.DataFrame
        Columns C, A, M, Y (int64).
    threshold : float
        The threshold on scaled Y.
    """
    n = check_count(n, "n", minimum=2)
    quantile = check_real(quantile, "quantile", low=0.0, high=1.0, low_open=True, high_open=True)
    variant = int(check_member(variant, (1, 2), "variant"))  # type: ignore[call-overload]
    rng = check_rng(rng)
    c = rng.random(n) < _P_C
    a = rng.random(n) < np.where(c, _P_A_GIVEN_C[1], _P_A_GIVEN_C[0])
    cum = np.cumsum(np.asarray(_P_M_GIVEN_A), axis=1)  # (2, 3)
    u = rng.random(n)
    cum_a = cum[a.astype(np.int64)]
    m = (u >= cum_a[:, 0]).astype(np.int64) + (u >= cum_a[:, 1]).astype(np.int64)
    sign = 1.0 if variant == 1 else -1.0
    y = _GAMMA * c + sign * _ALPHA * a + _BETA * m + rng.standard_normal(n)
    y = (y - y.min()) / (y.max() - y.min())
    th = float(np.quantile(y, quantile))
    frame = pd.DataFrame(
        {
            "C": c.astype(np.int64),
            "A": a.astype(np.int64),
            "M": m,
            "Y": (y > th).astype(np.int64),
        }
    )
    return frame, th


def make_synthetic(frame: pd.DataFrame, *, options: dict, threshold: float | None) -> Dataset:
    """Wrap a synthetic frame (columns C, A, M, Y) into a :class:`Dataset`."""
    variant = options.get("variant", 1)
    th = "" if threshold is None else f" Threshold on scaled Y: {threshold:.4f}."
    return Dataset(
        name="synthetic_makhlouf",
        frame=frame,
        target="Y",
        protected="A",
        sensitive={"A": 2, "C": 2, "M": 3},
        domains={"C": 2, "A": 2, "M": 3, "Y": 2},
        categories={
            "C": {0: "0", 1: "1"},
            "A": {0: "0", 1: "1"},
            "M": {0: "0", 1: "1", 2: "2"},
            "Y": {0: "0", 1: "1"},
        },
        numeric=[],
        description=(
            "Synthetic dataset of Makhlouf et al. (2024), Fig. 2 causal model with the "
            "authors' code parameters: C ~ B(0.35); A ~ B(0.55) if C = 0, B(0.75) if C = 1; "
            "M ~ M(0.5, 0.4, 0.1) if A = 0 and M(0.35, 0.4, 0.25) if A = 1 (the paper's Fig. 2 "
            "states the reverse); Y = 0.5 C + 0.75 A + 0.6 M + N(0, 1), min-max scaled, "
            f"Y_bin = 1 iff Y > its {options.get('quantile')} quantile, so "
            f"P(Y=1) = {1 - float(options.get('quantile', 0.5)):g}. "
            + (
                "Variant 1 (Synthetic dataset 1): A = 1 is privileged."
                if variant == 1
                else "Variant 2 (Synthetic dataset 2, Appendix A.1, not published by the "
                "authors): defined by ldpfair as variant 1 with Y = 0.5 C - 0.75 A + 0.6 M + "
                "N(0, 1), so only the distribution of Y changes and A = 0 is privileged "
                "(higher P(Y=1))."
            )
            + f" Source: {options.get('source', 'generate')}.{th}"
        ),
        citation="makhlouf2024",
        license="generated by ldpfair (MIT); authors' files from " + _MAKHLOUF_SOURCE,
        source=_MAKHLOUF_SOURCE,
        options=dict(options),
        files=[SYNTHETIC_FILES[options["quantile"]]] if options.get("source") == "authors" else [],
    )


@register(
    "synthetic_makhlouf",
    summary="Synthetic C, A, M -> Y data of Makhlouf et al. (generated, 100,000 rows)",
    paper=("makhlouf2024",),
    choices={
        "quantile": (0.25, 0.5, 0.75),
        "variant": (1, 2),
        "source": ("generate", "authors"),
    },
)
def load_synthetic_makhlouf(
    n: int = 100_000,
    quantile: float = 0.5,
    seed: int | np.random.SeedSequence | np.random.Generator = 0,
    variant: int = 1,
    source: str = "generate",
) -> Dataset:
    """Generate the synthetic dataset, or read the authors' ``S1_*.csv`` (``source="authors"``).

    Parameters
    ----------
    n : int
        Rows (the authors' files have 100,000).
    quantile : {0.25, 0.5, 0.75}
        Threshold quantile; P(Y=1) = 1 - quantile.
    seed : int, SeedSequence or Generator
        Seed of the generator (``check_rng``).
    variant : {1, 2}
        Synthetic dataset 1 or 2 (see :func:`generate_synthetic`).
    source : {"generate", "authors"}
        "authors" reads the published files (variant 1, n = 100,000 only).

    Returns
    -------
    Dataset
    """
    n = check_count(n, "n", minimum=2)
    opts = {"n": n, "quantile": quantile, "seed": seed, "variant": variant, "source": source}
    if source == "authors":
        if variant != 1 or n != 100_000:
            raise ValueError(
                f"source='authors' has only variant=1 with n=100000 (got variant={variant!r}, n={n!r})"
            )
        frame = read_codes_csv(
            fetch(SYNTHETIC_FILES[quantile]), ("C", "A", "M", "Y"), {"C": 2, "A": 2, "M": 3, "Y": 2}
        )
        return make_synthetic(frame, options=opts, threshold=None)
    if source != "generate":
        raise ValueError(f"invalid source={source!r}; valid: 'generate', 'authors'")
    frame, th = generate_synthetic(n, quantile, check_rng(seed, "seed"), variant)
    return make_synthetic(frame, options=opts, threshold=th)


# ---------------------------------------------------------------------------
# COMPAS

COMPAS_COLUMNS = ("sex", "race", "age_cat", "priors_count", "v_decile_score")
_COMPAS_RACES = ("African-American", "Caucasian")


def build_compas(
    raw: pd.DataFrame, threshold: int = 3, date_filter: str = "authors"
) -> tuple[pd.DataFrame, dict[str, dict[int, str]]]:
    """Apply the authors' COMPAS preprocessing to ProPublica's two-year table.

    Parameters
    ----------
    raw : pandas.DataFrame
        ``compas-scores-two-years.csv`` as read by pandas.
    threshold : int
        ``Y = 1`` iff ``v_decile_score > threshold``; an integer from 0 to 10
        (``True`` and ``3.0`` are refused).
    date_filter : {"authors", "corrected"}
        "authors": ``days <= 30 OR days >= -30`` (only drops missing
        ``days_b_screening_arrest``; 5,915 rows); "corrected": ``AND`` (5,278 rows).

    Returns
    -------
    frame : pandas.DataFrame
        Columns :data:`COMPAS_COLUMNS` (the target keeps the name ``v_decile_score``).
    categories : dict
        Code labels.
    """
    threshold = check_count(threshold, "threshold", minimum=0, maximum=10, why=" (a violent decile score)")
    check_choice(date_filter, ("authors", "corrected"), "date_filter")
    missing = [
        c
        for c in ("sex", "race", "age_cat", "priors_count", "v_decile_score", "days_b_screening_arrest")
        if c not in raw.columns
    ]
    if missing:
        raise ValueError(f"raw COMPAS table lacks columns {missing}")
    days = raw["days_b_screening_arrest"].to_numpy(dtype=np.float64)
    with np.errstate(invalid="ignore"):
        keep = (days <= 30) | (days >= -30) if date_filter == "authors" else (days <= 30) & (days >= -30)
    df = raw.loc[keep]
    df = df.loc[df["race"].isin(_COMPAS_RACES).to_numpy()]
    frame = pd.DataFrame(index=pd.RangeIndex(len(df)))
    cats: dict[str, dict[int, str]] = {}
    for c in ("sex", "race", "age_cat"):
        codes, classes = label_encode(df[c].astype(str))
        frame[c] = codes
        cats[c] = {i: str(v) for i, v in enumerate(classes.tolist())}
    frame["priors_count"] = (df["priors_count"].to_numpy(dtype=np.int64) > 2).astype(np.int64)
    cats["priors_count"] = {0: "<= 2", 1: "> 2"}
    frame["v_decile_score"] = (df["v_decile_score"].to_numpy(dtype=np.int64) > threshold).astype(np.int64)
    cats["v_decile_score"] = {0: f"<= {threshold}", 1: f"> {threshold}"}
    return frame, cats


_COMPAS_LABELS = {
    "sex": {0: "Female", 1: "Male"},
    "race": {0: "African-American", 1: "Caucasian"},
    "age_cat": {0: "25 - 45", 1: "Greater than 45", 2: "Less than 25"},
    "priors_count": {0: "<= 2", 1: "> 2"},
}


@register(
    "compas_makhlouf",
    summary="COMPAS (ProPublica) with the violent decile score thresholded, 5,915 rows",
    paper=("makhlouf2024",),
    choices={"threshold": (1, 3, 5), "date_filter": ("authors", "corrected")},
)
def load_compas_makhlouf(threshold: int = 3, date_filter: str = "authors") -> Dataset:
    """Build ``compas_makhlouf`` from ProPublica's raw table (see :func:`build_compas`)."""
    rel = "propublica-compas/compas-scores-two-years.csv"
    raw = pd.read_csv(fetch(rel), low_memory=False)
    frame, cats = build_compas(raw, threshold, date_filter)
    if list(cats["race"].values()) != list(_COMPAS_LABELS["race"].values()):
        raise ValueError(f"unexpected race categories {cats['race']}")
    domains = domains_of(frame)
    return Dataset(
        name="compas_makhlouf",
        frame=frame,
        target="v_decile_score",
        protected="race",
        sensitive={c: domains[c] for c in ("race", "sex", "age_cat")},
        domains=domains,
        categories=cats,
        numeric=[],
        description=(
            "ProPublica COMPAS two-year data (Broward County 2013-2014) as preprocessed by "
            "Makhlouf et al. (2024): screening-date filter "
            + (
                "as in the authors' code (days <= 30 OR days >= -30, which only drops missing "
                "days_b_screening_arrest)"
                if date_filter == "authors"
                else "corrected to -30 <= days <= 30"
            )
            + "; African-American and Caucasian only; sex, race, age_cat LabelEncoded "
            "(race: African-American 0, Caucasian 1); priors_count = 1 iff > 2; target "
            f"v_decile_score = 1 iff the violent decile score > {threshold} (the paper's "
            "positive class; high risk). The group with more Y = 1, called privileged in "
            "the paper, is race = 0 (African-American)."
        ),
        citation="makhlouf2024, angwin2016compas",
        license="ProPublica compas-analysis repository (no explicit licence; public records)",
        source="https://github.com/propublica/compas-analysis",
        files=[rel],
    )


# ---------------------------------------------------------------------------
# Adult (reconstructed, all binarised)

ADULT_MAKHLOUF_COLUMNS = (
    "age", "workclass", "education_num", "maritalstatus", "nativecountry", "hoursperweek",
    "gender", "race", "income",
)  # fmt: skip
_ADULT_M_LABELS = {
    "age": {0: "< median", 1: ">= median"},
    "workclass": {0: "other", 1: "Private"},
    "education_num": {0: "< 9", 1: ">= 9"},
    "maritalstatus": {0: "not married", 1: "married"},
    "nativecountry": {0: "other", 1: "United-States"},
    "hoursperweek": {0: "<= median", 1: "> median"},
    "gender": {0: "Female", 1: "Male"},
    "race": {0: "non-White", 1: "White"},
}


@register(
    "adult_makhlouf",
    summary="Reconstructed Adult, all attributes binarised, 45,849 rows (Makhlouf et al.)",
    paper=("makhlouf2024",),
    choices={"threshold": (10000, 27260, 50000)},
)
def load_adult_makhlouf(threshold: int = 27260) -> Dataset:
    """Load the authors' binarised Adult extract for an income ``threshold``."""
    rel = f"makhlouf2024/adult_{threshold}.csv"
    frame = read_codes_csv(fetch(rel), ADULT_MAKHLOUF_COLUMNS, dict.fromkeys(ADULT_MAKHLOUF_COLUMNS, 2))
    cats = {c: dict(v) for c, v in _ADULT_M_LABELS.items()}
    cats["income"] = {0: f"<= {threshold}", 1: f"> {threshold}"}
    domains = domains_of(frame)
    return Dataset(
        name="adult_makhlouf",
        frame=frame,
        target="income",
        protected="gender",
        sensitive={c: domains[c] for c in ("gender", "age", "race", "maritalstatus", "nativecountry")},
        domains=domains,
        categories=cats,
        numeric=[],
        description=(
            "Reconstructed Adult (Ding et al. 2021) as preprocessed by Makhlouf et al. (2024): "
            "rows with '?' dropped (45,849 rows; the paper's 32,561 is wrong for this code); "
            "every attribute binarised (age >= median, workclass Private, education_num >= 9, "
            "married, United-States, hours-per-week > median, Male, White = 1); target income "
            f"> {threshold} (1 = favourable). Protected gender (Male = 1, privileged)."
        ),
        citation="makhlouf2024, ding2021folktables",
        license="authors' extract from " + _MAKHLOUF_SOURCE + "; underlying data US Census",
        source=_MAKHLOUF_SOURCE,
        files=[rel],
    )
