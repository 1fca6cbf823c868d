"""Tests of the UCI loaders (Adult, German credit, Student math, Bank)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair import datasets
from ldpfair.datasets import adult, bank_marketing, build, german_credit, student

# ---------------------------------------------------------------------------
# fixtures in the raw formats

ADULT_TRAIN = (
    "\n".join(
        [
            "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, "
            "White, Male, 2174, 0, 40, United-States, <=50K",
            "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, "
            "White, Male, 0, 0, 13, United-States, >50K",
            "38, ?, 215646, HS-grad, 9, Divorced, ?, Not-in-family, Black, Female, 0, 0, 40, ?, <=50K",
            "53, Private, 234721, 11th, 7, Married-civ-spouse, Handlers-cleaners, Wife, "
            "Black, Female, 0, 0, 40, United-States, >50K",
            "28, Private, 338409, Bachelors, 13, Married-civ-spouse, Prof-specialty, Wife, "
            "Asian-Pac-Islander, Female, 0, 0, 40, Cuba, <=50K",
            "37, Private, 284582, Masters, 14, Married-civ-spouse, Exec-managerial, Own-child, "
            "White, Female, 0, 1902, 80, United-States, >50K",
        ]
    )
    + "\n\n"
)
ADULT_TEST = (
    "|1x3 Cross validator\n"
    + "\n".join(
        [
            "25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, "
            "Black, Male, 0, 0, 40, United-States, <=50K.",
            "38, Private, 89814, HS-grad, 9, Married-civ-spouse, Farming-fishing, Husband, "
            "White, Male, 0, 0, 50, United-States, >50K.",
            "44, Private, 160323, Some-college, 10, Married-civ-spouse, Machine-op-inspct, Unmarried, "
            "Other, Male, 7688, 0, 40, United-States, >50K.",
        ]
    )
    + "\n"
)

GERMAN = """\
A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201 1
A12 48 A32 A410 5951 A61 A73 2 A92 A101 2 A121 22 A143 A152 1 A173 1 A191 A201 2
A14 12 A34 A46 2096 A61 A74 2 A91 A101 3 A121 25 A143 A152 1 A172 2 A191 A201 1
A11 42 A32 A49 7882 A61 A74 2 A94 A103 4 A122 26 A143 A153 1 A173 2 A191 A201 2
"""

STUDENT = """\
school;sex;age;address;G1;G2;G3
"GP";"F";18;"U";"5";"6";6
"GP";"M";17;"U";"12";"10";10
"MS";"F";15;"R";"7";"8";9
"GP";"M";16;"U";"15";"14";15
"""

BANK = """\
age,job,marital,balance,y
58,management,married,2143,no
25,technician,single,29,yes
26,admin.,single,-3,yes
30,technician,married,0,no
"""


@pytest.fixture
def raw_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Write every fixture under its registry name and point the loaders' fetch at them."""
    files = {
        "uci-adult/adult.data": ADULT_TRAIN,
        "uci-adult/adult.test": ADULT_TEST,
        "uci-german/german.data": GERMAN,
        "uci-student/student-mat.csv": STUDENT,
        "fairness-datasets/bank-full.csv": BANK,
    }
    for name, text in files.items():
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for module in (adult, german_credit, student, bank_marketing):
        monkeypatch.setattr(module, "fetch", lambda name: tmp_path / name)
    return tmp_path


def _label(ds: datasets.Dataset, col: str) -> list[str]:
    """Decode a categorical column back to its labels."""
    return [ds.categories[col][c] for c in ds.frame[col]]


def _check_card(ds: datasets.Dataset) -> None:
    """Every categorical column has codes 0..k-1 and a label per code; the card is filled."""
    for col, k in ds.domains.items():
        codes = ds.frame[col].to_numpy()
        assert codes.min() >= 0 and codes.max() < k, col
        assert sorted(ds.categories[col]) == list(range(k)), col
    assert set(ds.domains) | set(ds.numeric) == set(ds.frame.columns)
    assert not set(ds.domains) & set(ds.numeric)
    assert list(ds.sensitive)[0] == ds.protected
    for field in ("description", "citation", "license", "source"):
        assert getattr(ds, field), field


# ---------------------------------------------------------------------------
# Adult


def test_read_adult_parses_both_formats(raw_dir: Path) -> None:
    train = adult.read_adult(raw_dir / "uci-adult/adult.data")
    test = adult.read_adult(raw_dir / "uci-adult/adult.test")
    assert len(train) == 6 and len(test) == 3  # blank line and '|' header skipped
    assert list(train.columns) == adult.ADULT_COLUMNS
    assert test["income"].tolist() == ["<=50K", ">50K", ">50K"]  # trailing '.' removed
    assert train.loc[2, "workclass"] == "?" and train.loc[2, "native_country"] == "?"
    assert train["age"].dtype == np.int64 and train["age"].tolist()[:2] == [39, 50]


@pytest.mark.parametrize(
    "line, match",
    [
        ("39, State-gov, 77516, Bachelors, 13, Never-married\n", "fields"),
        ("x9, State-gov, 7, B, 13, N, A, N, White, Male, 0, 0, 40, US, <=50K\n", "age"),
        ("39, State-gov, 7, B, 13, N, A, N, White, Male, 0, 0, 40, US, 50K\n", "income"),
    ],
)
def test_read_adult_rejects_malformed(tmp_path: Path, line: str, match: str) -> None:
    p = tmp_path / "bad.data"
    p.write_text(ADULT_TRAIN.splitlines()[0] + "\n" + line)
    with pytest.raises(ValueError, match=match):
        adult.read_adult(p)


def test_adult_fairprojection_on_fixture(raw_dir: Path) -> None:
    ds = datasets.load("adult_uci", variant="fairprojection")
    # train: 5 White/Black rows (Asian dropped); test: 2 (Other dropped)
    assert ds.n == 7
    assert list(ds.frame.columns) == [
        "age", "education_num", "marital_status", "relationship", "race", "sex",
        "capital_gain", "capital_loss", "hours_per_week", "income",
    ]  # fmt: skip
    assert ds.protected == "race" and ds.sensitive == {"race": 2}
    assert ds.frame["race"].tolist() == [1, 1, 0, 0, 1, 0, 1]  # White = 1
    assert ds.frame["sex"].tolist() == [1, 1, 0, 0, 0, 1, 1]  # Male = 1
    assert ds.y.tolist() == [0, 1, 0, 1, 1, 0, 1]  # '>50K.' of adult.test -> 1
    assert ds.categories["race"] == {0: "Black", 1: "White"}
    assert ds.files == ["uci-adult/adult.data", "uci-adult/adult.test"]
    _check_card(ds)


def test_adult_mozannar_follows_shap_coding(raw_dir: Path) -> None:
    ds = datasets.load("adult_uci", variant="mozannar")
    assert ds.n == 6  # adult.data only, every race, '?' rows kept
    assert "education" not in ds.frame and "fnlwgt" not in ds.frame
    assert ds.protected == "sex" and ds.a.tolist() == [1, 1, 0, 0, 0, 0]
    # '?' sorts first, as pandas category codes do
    assert ds.categories["workclass"][0] == "?"
    assert _label(ds, "workclass")[2] == "?"
    # shap's fixed relationship codes
    assert ds.frame["relationship"].tolist() == [0, 4, 0, 5, 5, 3]
    assert ds.domains["relationship"] == 6
    _check_card(ds)


def test_adult_hamman_keeps_all_attributes(raw_dir: Path) -> None:
    ds = datasets.load("adult_uci", variant="hamman")
    assert ds.n == 7
    assert len(ds.features) == 14  # all 14 attributes; race among them, protected
    assert ds.protected == "race" and ds.a.tolist() == [1, 1, 0, 0, 1, 0, 1]
    assert "?" in ds.categories["occupation"].values()
    _check_card(ds)


def test_adult_xu2019_drops_missing_and_onehot(raw_dir: Path) -> None:
    codes = datasets.load("adult_uci", variant="xu2019")
    assert codes.n == 8  # 9 rows, one with '?'
    assert codes.protected == "sex" and codes.a.tolist() == [1, 1, 0, 0, 0, 1, 1, 1]
    _check_card(codes)
    hot = datasets.load("adult_uci", variant="xu2019", encoding="onehot")
    assert hot.n == codes.n and hot.options["encoding"] == "onehot"
    np.testing.assert_array_equal(hot.y, codes.y)
    np.testing.assert_array_equal(hot.a, codes.a)
    frame = hot.frame
    for col in ["workclass", "education", "race", "native_country"]:
        dummies = [c for c in frame.columns if c.startswith(col + "=")]
        assert len(dummies) == codes.domains[col]
        np.testing.assert_array_equal(frame[dummies].sum(axis=1), 1)  # exactly one level
        lab = _label(codes, col)
        for d in dummies:  # the dummy is 1 exactly where the label matches
            np.testing.assert_array_equal(
                frame[d].to_numpy(), (np.array(lab) == d.split("=", 1)[1]).astype(int)
            )
    for col in hot.numeric:
        x = frame[col].to_numpy()
        assert x.min() == 0.0 and x.max() == 1.0
    raw_age = codes.frame["age"].to_numpy()
    np.testing.assert_allclose(frame["age"], (raw_age - raw_age.min()) / (raw_age.max() - raw_age.min()))
    n_dummies = sum(codes.domains[c] for c in codes.domains if c not in ("sex", "income"))
    assert frame.shape[1] == n_dummies + len(codes.numeric) + 2
    _check_card(hot)


def test_adult_option_errors(raw_dir: Path) -> None:
    with pytest.raises(ValueError, match="variant"):
        datasets.load("adult_uci", variant="bogus")
    with pytest.raises(ValueError, match="xu2019"):
        datasets.load("adult_uci", variant="hamman", encoding="onehot")


# ---------------------------------------------------------------------------
# German credit


def test_german_fairbalance_on_fixture(raw_dir: Path) -> None:
    ds = datasets.load("german")
    assert ds.n == 4 and "personal_status" not in ds.frame
    assert ds.frame["sex"].tolist() == [1, 0, 1, 1]  # A93, A92, A91, A94
    assert ds.frame["age"].tolist() == [1, 0, 0, 1]  # 67, 22, 25, 26: > 25 -> 1
    assert ds.y.tolist() == [1, 0, 1, 0]  # credit 1 (good) -> 1
    assert ds.protected == "age" and ds.sensitive == {"age": 2, "sex": 2}
    # UCI code order with A410 after A49, labelled from german.doc
    assert ds.categories["purpose"] == {0: "radio/television", 1: "education", 2: "business",
                                        3: "others"}  # fmt: skip
    assert "age" not in ds.numeric and "credit_amount" in ds.numeric
    _check_card(ds)


def test_german_hamman_on_fixture(raw_dir: Path) -> None:
    ds = datasets.load("german", variant="hamman")
    assert ds.protected == "sex" and ds.sensitive == {"sex": 2}
    assert ds.a.tolist() == [1, 0, 1, 1]
    assert ds.frame["age"].tolist() == [67, 22, 25, 26] and "age" in ds.numeric
    _check_card(ds)


@pytest.mark.parametrize(
    "line, match",
    [
        ("A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201\n", "21"),
        ("A19 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201 1\n",
         "status"),
        ("A11 6 A34 A43 1169 A65 A75 4 A93 A101 4 A121 67 A143 A152 2 A173 1 A192 A201 3\n",
         "credit"),
    ],
)  # fmt: skip
def test_read_german_rejects_malformed(tmp_path: Path, line: str, match: str) -> None:
    p = tmp_path / "german.data"
    p.write_text(line)
    with pytest.raises(ValueError, match=match):
        german_credit.read_german(p)


# ---------------------------------------------------------------------------
# Student and Bank


def test_student_on_fixture(raw_dir: Path) -> None:
    ds = datasets.load("student_math")
    assert ds.n == 4 and "G3" not in ds.frame
    assert ds.y.tolist() == [0, 1, 0, 1]  # G3 = 6, 10, 9, 15: >= 10 -> 1
    assert ds.a.tolist() == [0, 1, 0, 1]  # M = 1
    assert ds.frame["G1"].tolist() == [5, 12, 7, 15]  # quoted numbers read as numbers
    assert {"G1", "G2", "age"} <= set(ds.numeric)
    assert ds.categories["address"] == {0: "R", 1: "U"}
    _check_card(ds)


def test_bank_on_fixture_both_separators(raw_dir: Path) -> None:
    ds = datasets.load("bank")
    assert ds.a.tolist() == [1, 0, 1, 1]  # age 58, 25, 26, 30: > 25 -> 1
    assert ds.y.tolist() == [0, 1, 1, 0]
    assert ds.numeric == ["balance"]
    _check_card(ds)
    semi = raw_dir / "bank.csv"
    semi.write_text(BANK.replace(",", ";"))
    expected = bank_marketing.read_bank(raw_dir / bank_marketing._BANK_FILE)
    pd.testing.assert_frame_equal(bank_marketing.read_bank(semi), expected)


def test_build_dataset_rejects_unknown_value() -> None:
    raw = pd.DataFrame({"a": ["x", "y"], "t": ["no", "maybe"]})
    with pytest.raises(ValueError, match="'t'.*maybe"):
        build.build_dataset("toy", raw, categorical={"a": None, "t": ["no", "yes"]}, numeric=[],
                            target="t", protected="a", sensitive=["a"])  # fmt: skip
    with pytest.raises(ValueError, match="exactly once"):
        build.build_dataset("toy", raw, categorical={"t": None}, numeric=[], target="t",
                            protected="t", sensitive=["t"])  # fmt: skip


# ---------------------------------------------------------------------------
# the real files


@pytest.mark.data
@pytest.mark.parametrize(
    "variant, n, white_or_male, rate",
    [
        ("fairprojection", 46447, 0.899, 0.241),
        ("mozannar", 32561, 0.669, 0.241),
        ("hamman", 46447, 0.899, 0.241),
        ("xu2019", 45222, 0.675, 0.248),
    ],
)
def test_real_adult(variant: str, n: int, white_or_male: float, rate: float) -> None:
    ds = datasets.load("adult_uci", variant=variant)
    assert ds.n == n
    assert ds.a.mean() == pytest.approx(white_or_male, abs=5e-4)
    assert ds.y.mean() == pytest.approx(rate, abs=5e-4)
    _check_card(ds)
    if variant == "fairprojection":
        assert ds.domains == {"marital_status": 7, "relationship": 6, "race": 2, "sex": 2,
                              "income": 2}  # fmt: skip
    if variant == "mozannar":
        assert len(ds.features) == 12  # 11 model features + sex
        assert ds.domains["native_country"] == 42 and ds.domains["workclass"] == 9
    if variant == "xu2019":
        assert ds.domains["workclass"] == 7 and ds.domains["native_country"] == 41


@pytest.mark.data
def test_real_adult_xu2019_onehot() -> None:
    ds = datasets.load("adult_uci", variant="xu2019", encoding="onehot")
    assert ds.n == 45222
    assert len(ds.features) - 1 == 102  # unprotected features (paper: 40)
    assert "102" in ds.description and "40" in ds.description


@pytest.mark.data
def test_real_german() -> None:
    fb = datasets.load("german")
    assert fb.n == 1000 and fb.y.sum() == 700
    assert fb.frame["age"].sum() == 810 and fb.frame["sex"].sum() == 690
    hm = datasets.load("german", variant="hamman")
    assert (hm.a == 1).sum() == 690 and (hm.a == 0).sum() == 310  # paper: N1 = 690, N0 = 310
    _check_card(fb)
    _check_card(hm)


@pytest.mark.data
def test_real_student_and_bank() -> None:
    st = datasets.load("student_math")
    assert st.n == 395 and st.y.sum() == 265 and st.a.sum() == 187
    bk = datasets.load("bank")
    assert bk.n == 40004 and bk.y.sum() == 4667
    assert bk.domains["job"] == 12 and bk.domains["month"] == 12
    _check_card(st)
    _check_card(bk)
