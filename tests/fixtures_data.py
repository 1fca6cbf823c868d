"""Helpers writing small fixture files in the raw formats the dataset loaders read."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

# ---------------------------------------------------------------------------
# ACS PUMS person file (folktables reads <root>/<year>/1-Year/psam_p<FIPS>.csv)

PUMS_COLUMNS = [
    "RT", "SERIALNO", "SPORDER", "PUMA", "ST", "PWGTP", "AGEP", "CIT", "MIL", "SCHL", "MAR",
    "SEX", "DIS", "ESP", "MIG", "ANC", "NATIVITY", "DEAR", "DEYE", "DREM", "PINCP", "ESR",
    "FER", "RAC1P", "PUBCOV",
]  # fmt: skip


def pums_rows(n: int, rng: np.random.Generator) -> pd.DataFrame:
    """Random PUMS-like person records (values in the real code ranges, with NaN blanks)."""
    age = rng.integers(0, 90, n)
    df = pd.DataFrame(
        {
            "RT": "P",
            "SERIALNO": [f"2018GQ{i:07d}" for i in range(n)],
            "SPORDER": 1,
            "PUMA": 100,
            "ST": 48,
            "PWGTP": rng.integers(1, 100, n),
            "AGEP": age,
            "CIT": rng.integers(1, 6, n),
            "MIL": np.where(age < 17, np.nan, rng.integers(1, 5, n)),
            "SCHL": np.where(age < 3, np.nan, rng.integers(1, 25, n)),
            "MAR": rng.integers(1, 6, n),
            "SEX": rng.integers(1, 3, n),
            "DIS": rng.integers(1, 3, n),
            "ESP": np.where(rng.random(n) < 0.7, np.nan, rng.integers(1, 9, n)),
            "MIG": np.where(age < 1, np.nan, rng.integers(1, 4, n)),
            "ANC": rng.choice([1, 2, 3, 4, 8], n),
            "NATIVITY": rng.integers(1, 3, n),
            "DEAR": rng.integers(1, 3, n),
            "DEYE": rng.integers(1, 3, n),
            "DREM": np.where(age < 5, np.nan, rng.integers(1, 3, n)),
            "PINCP": np.where(age < 15, np.nan, rng.integers(-5000, 60000, n)),
            "ESR": np.where(age < 16, np.nan, rng.integers(1, 7, n)),
            "FER": np.where(rng.random(n) < 0.5, np.nan, rng.integers(1, 3, n)),
            "RAC1P": rng.integers(1, 10, n),
            "PUBCOV": rng.integers(1, 3, n),
        }
    )
    return df[PUMS_COLUMNS]


def write_pums(root: Path, frame: pd.DataFrame, *, state_fips: str = "48", year: int = 2018) -> Path:
    """Write ``frame`` where folktables looks for the 1-Year person file."""
    d = Path(root) / str(year) / "1-Year"
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"psam_p{state_fips}.csv"
    frame.to_csv(path, index=False, float_format="%.0f")
    return path


# ---------------------------------------------------------------------------
# LSAC raw bar_pass_prediction.csv (39 columns)

LSAC_RAW_COLUMNS = (
    "decile1b,decile3,ID,decile1,sex,race,cluster,lsat,ugpa,zfygpa,DOB_yr,grad,zgpa,bar1,"
    "bar1_yr,bar2,bar2_yr,fulltime,fam_inc,age,gender,parttime,male,race1,race2,Dropout,"
    "other,asian,black,hisp,pass_bar,bar,bar_passed,tier,index6040,indxgrp,indxgrp2,"
    "dnn_bar_pass_prediction,gpa"
).split(",")


def lsac_raw_rows(n: int, rng: np.random.Generator) -> pd.DataFrame:
    """Random rows in the raw LSAC format; some rows have NaN in an unused column."""
    df = pd.DataFrame({c: rng.integers(0, 10, n).astype(float) for c in LSAC_RAW_COLUMNS})
    df["lsat"] = rng.choice([11.0, 12.5, 13.5, 20.0, 30.5, 31.5, 47.0], n)
    df["ugpa"] = rng.choice([1.5, 1.75, 2.2, 2.25, 3.25, 3.7, 3.75, 4.0], n)
    df["gender"] = rng.choice(["female", "male"], n)
    df["race1"] = rng.choice(["black", "white", "hisp", "asian", "other"], n)
    df["fam_inc"] = rng.integers(1, 6, n).astype(float)
    df["fulltime"] = rng.integers(1, 3, n).astype(float)
    df["pass_bar"] = rng.integers(0, 2, n)
    df["grad"] = "Y"
    df.loc[rng.random(n) < 0.2, "decile1b"] = np.nan  # unused column: row still dropped
    df.loc[rng.random(n) < 0.05, "lsat"] = np.nan
    return df[LSAC_RAW_COLUMNS]


# ---------------------------------------------------------------------------
# ProPublica compas-scores-two-years.csv (note the duplicated decile_score header)

COMPAS_HEADER = (
    "id,name,first,last,compas_screening_date,sex,dob,age,age_cat,race,juv_fel_count,"
    "decile_score,juv_misd_count,juv_other_count,priors_count,days_b_screening_arrest,"
    "c_jail_in,c_jail_out,c_case_number,c_offense_date,c_arrest_date,c_days_from_compas,"
    "c_charge_degree,c_charge_desc,is_recid,r_case_number,r_charge_degree,r_days_from_arrest,"
    "r_offense_date,r_charge_desc,r_jail_in,r_jail_out,violent_recid,is_violent_recid,"
    "vr_case_number,vr_charge_degree,vr_offense_date,vr_charge_desc,type_of_assessment,"
    "decile_score,score_text,screening_date,v_type_of_assessment,v_decile_score,v_score_text,"
    "v_screening_date,in_custody,out_custody,priors_count,start,end,event,two_year_recid"
)


def compas_raw_text(rows: list[dict]) -> str:
    """CSV text in the ProPublica layout; each row gives sex, race, age_cat, priors_count,
    days_b_screening_arrest (None = blank) and v_decile_score; other cells are filler."""
    cols = COMPAS_HEADER.split(",")
    lines = [COMPAS_HEADER]
    for i, r in enumerate(rows):
        cells = {c: "0" for c in cols}
        cells.update(
            id=str(i + 1),
            name="a b",
            sex=r["sex"],
            age_cat=r["age_cat"],
            race=r["race"],
            priors_count=str(r["priors_count"]),
            days_b_screening_arrest="" if r["days"] is None else str(r["days"]),
            v_decile_score=str(r["v_decile_score"]),
        )
        out = []
        seen: set[str] = set()
        for c in cols:  # duplicated headers: fill the first occurrence, zero the second
            out.append(cells[c] if c not in seen else "0")
            seen.add(c)
        lines.append(",".join(out))
    return "\n".join(lines) + "\n"
