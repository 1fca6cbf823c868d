"""Tests of the Dutch, COMPAS and Hamman-synthetic loaders."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ldpfair import datasets
from ldpfair.datasets import others

DUTCH = """\
sex,age,household_position,household_size,prev_residence_place,citizenship,country_birth,edu_level,economic_status,cur_eco_activity,marital_status,occupation
male,6,1131,112,1,1,1,5,111,135,1,1
female,10,1122,113,1,1,1,2,111,122,2,0
female,4,1110,111,2,2,3,0,120,111,4,1
male,15,1220,126,1,3,2,4,112,139,3,0
"""

_COMPAS_HEADER = (
    "id,name,age,c_charge_degree,race,sex,priors_count,days_b_screening_arrest,is_recid,"
    "c_jail_in,c_jail_out,two_year_recid,priors_count.1"
)
_COMPAS_ROWS = [
    # kept, African-American: stay 2013-01-01 23:00 -> 2013-01-03 01:00 = 1 whole day
    "1,a,34,F,African-American,Male,0,-1,1,2013-01-01 23:00:00,2013-01-03 01:00:00,1,0",
    # kept, Caucasian, misdemeanour: stay 10 days
    "2,b,24,M,Caucasian,Female,4,30,0,2013-02-01 06:00:00,2013-02-11 07:00:00,0,4",
    # kept, Caucasian, boundary -30
    "3,c,41,F,Caucasian,Male,14,-30,1,2013-03-01 06:00:00,2013-03-01 07:00:00,1,14",
    # dropped by the filter: days 31, days -31, days missing, is_recid -1, charge O
    "4,d,20,F,Caucasian,Male,0,31,1,2013-01-01 00:00:00,2013-01-02 00:00:00,1,0",
    "5,e,20,F,Caucasian,Male,0,-31,1,2013-01-01 00:00:00,2013-01-02 00:00:00,1,0",
    "6,f,20,F,Caucasian,Male,0,,1,,,1,0",
    "7,g,20,F,Caucasian,Male,0,0,-1,2013-01-01 00:00:00,2013-01-02 00:00:00,0,0",
    "8,h,20,O,Caucasian,Male,0,0,1,2013-01-01 00:00:00,2013-01-02 00:00:00,1,0",
    # passes the filter, dropped by race
    "9,i,20,F,Hispanic,Male,0,0,1,2013-01-01 00:00:00,2013-01-02 00:00:00,1,0",
]
COMPAS = "\n".join([_COMPAS_HEADER, *_COMPAS_ROWS]) + "\n"


@pytest.fixture
def raw_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    files = {
        "fairness-datasets/dutch.csv": DUTCH,
        "propublica-compas/compas-scores-two-years.csv": COMPAS,
    }
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    monkeypatch.setattr(others, "fetch", lambda name: tmp_path / name)
    return tmp_path


def test_dutch_on_fixture(raw_dir: Path) -> None:
    ds = datasets.load("dutch")
    assert ds.n == 4 and ds.numeric == []
    assert ds.a.tolist() == [1, 0, 0, 1]  # male = 1
    assert ds.y.tolist() == [1, 0, 1, 0]
    assert ds.categories["occupation"] == {0: "low-level", 1: "high-level"}
    assert ds.frame["age"].tolist() == [1, 2, 0, 3]  # census codes 6, 10, 4, 15 in order
    assert ds.categories["age"] == {0: "4", 1: "6", 2: "10", 3: "15"}
    hot = datasets.load("dutch", encoding="onehot")
    n_dummies = sum(k for c, k in ds.domains.items() if c not in ("sex", "occupation"))
    assert hot.frame.shape == (4, n_dummies + 2)
    np.testing.assert_array_equal(hot.frame[[c for c in hot.frame if c.startswith("age=")]]
                                  .sum(axis=1), 1)  # fmt: skip
    assert hot.frame["age=10"].tolist() == [0, 1, 0, 0]


def test_read_dutch_rejects_bad_values(tmp_path: Path) -> None:
    p = tmp_path / "dutch.csv"
    p.write_text(DUTCH.replace("female,10", "woman,10"))
    with pytest.raises(ValueError, match="sex"):
        others.read_dutch(p)
    p.write_text(DUTCH.replace("111,135,1,1\n", "111,135,1,2\n"))
    with pytest.raises(ValueError, match="occupation"):
        others.read_dutch(p)
    p.write_text(DUTCH.replace(",occupation", ""))
    with pytest.raises(ValueError, match="occupation"):
        others.read_dutch(p)


def test_compas_fairprojection_on_fixture(raw_dir: Path) -> None:
    ds = datasets.load("compas_fairprojection")
    assert ds.n == 3  # rows 1-3; rows 4-8 fail the filter, row 9 is Hispanic
    assert list(ds.frame.columns) == [
        "age", "c_charge_degree", "race", "sex", "priors_count", "length_of_stay", "is_recid",
    ]  # fmt: skip
    assert ds.frame["length_of_stay"].tolist() == [1, 10, 0]
    assert ds.a.tolist() == [0, 1, 1]  # Caucasian = 1
    assert ds.frame["sex"].tolist() == [1, 0, 1]  # Male = 1
    assert ds.frame["c_charge_degree"].tolist() == [1, 0, 1]  # felony = 1
    assert ds.y.tolist() == [1, 0, 1]  # is_recid kept: 1 = recidivism
    assert ds.categories["is_recid"][1] == "recidivism"
    assert "UNFAVOURABLE" in ds.description
    for col, k in ds.domains.items():
        assert sorted(ds.categories[col]) == list(range(k))


def test_compas_missing_column(tmp_path: Path) -> None:
    p = tmp_path / "c.csv"
    p.write_text(COMPAS.replace("is_recid", "is_recidivist"))
    with pytest.raises(ValueError, match="is_recid"):
        others.read_compas(p)


# ---------------------------------------------------------------------------
# synthetic


def test_synthetic_counts_and_reproducible() -> None:
    ds = datasets.load("synthetic_hamman", n=1000, n0=10, seed=7)
    assert ds.n == 1000 and list(ds.frame.columns) == ["a"]
    assert (ds.a == 0).sum() == 10 and (ds.a == 1).sum() == 990
    assert ds.protected == "a" and ds.sensitive == {"a": 2} and ds.target == ""
    again = datasets.load("synthetic_hamman", n=1000, n0=10, seed=7)
    np.testing.assert_array_equal(ds.a, again.a)
    other = datasets.load("synthetic_hamman", n=1000, n0=10, seed=8)
    assert not np.array_equal(ds.a, other.a)
    gen = datasets.load("synthetic_hamman", n=50, n0=49, seed=np.random.default_rng(1))
    assert (gen.a == 0).sum() == 49


def test_synthetic_positions_uniform() -> None:
    rng = np.random.default_rng(2024)
    n, n0, reps = 10, 3, 4000
    zeros = np.zeros(n)
    for _ in range(reps):
        zeros += others.hamman_attributes(n, n0, rng) == 0
    freq = zeros / reps  # each position is in the minority w.p. n0 / n = 0.3
    sd = np.sqrt(0.3 * 0.7 / reps)
    np.testing.assert_allclose(freq, n0 / n, atol=5 * sd)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"n": 10, "n0": 0}, ValueError, "n0"),
        ({"n": 10, "n0": 10}, ValueError, "n0"),
        ({"n": 10, "n0": 11}, ValueError, "n0"),
        ({"n": 1, "n0": 1}, ValueError, "n must"),
        ({"n": 10.0, "n0": 2}, TypeError, "n must"),
        ({"n": 10, "n0": True}, TypeError, "n0"),
        ({"n": 10, "n0": 2, "seed": None}, (TypeError, ValueError), "seed|rng"),
    ],
)
def test_synthetic_validation(kwargs: dict, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        datasets.load("synthetic_hamman", **kwargs)


# ---------------------------------------------------------------------------
# the real files


@pytest.mark.data
def test_real_dutch() -> None:
    ds = datasets.load("dutch")
    assert ds.n == 60420
    assert ds.y.sum() == 28763 and ds.a.sum() == 30147
    assert ds.domains["age"] == 12 and ds.domains["cur_eco_activity"] == 12
    hot = datasets.load("dutch", encoding="onehot")
    assert len(hot.features) - 1 == 59  # unprotected features (paper: 35)
    assert "59" in hot.description and "35" in hot.description


@pytest.mark.data
def test_real_compas() -> None:
    ds = datasets.load("compas_fairprojection")
    assert ds.n == 5278
    assert ds.a.sum() == 2103  # Caucasian 39.8%
    assert ds.y.sum() == 2647
    assert ds.frame["length_of_stay"].min() == -1
