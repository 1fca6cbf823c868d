"""Datasets from a file: TOML cards validated one line per problem, loaded through the checksummed path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair.datasets import load
from ldpfair.datasets.cards import card_of
from ldpfair.datasets.user_cards import card_options, read_card

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "law_school.toml"


def _write(tmp_path: Path, frame: pd.DataFrame, card: str) -> Path:
    frame.to_csv(tmp_path / "t.csv", index=False)
    path = tmp_path / "card.toml"
    path.write_text(card)
    return path


GOOD = ('name = "toy"\nfile = "t.csv"\ntarget = "y"\nfavourable = "good"\nprotected = "g"\n'
        'privileged = "a"\ncategorical = ["city"]\n')


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"x": [1.0, 2.0, 3.0, np.nan, 5.0], "city": ["p", "q", "p", "q", "r"],
                         "g": ["a", "b", "a", "b", "a"], "y": ["good", "bad", "good", "bad", "bad"]})


def test_a_card_loads_with_codes_labels_and_dropped_rows(tmp_path):
    path = _write(tmp_path, _frame(), GOOD)
    opts = card_options(path)
    ds = load("file_card", **opts)
    assert ds.n == 4 and "1 of 5 rows with a missing value dropped" in ds.description
    assert ds.y.tolist() == [1, 0, 1, 0] and ds.a.tolist() == [1, 0, 1, 1]
    assert ds.domains == {"g": 2, "city": 3, "y": 2} and ds.numeric == ["x"]
    assert card_of(ds)["group_sizes"] == {"g=not a": 1, "g=a": 3}
    (tmp_path / "t.csv").write_text((tmp_path / "t.csv").read_text().replace("5.0", "6.0"))
    with pytest.raises(ValueError, match="changed"):  # the declared digest pins the table
        load("file_card", **opts)


@pytest.mark.parametrize("frame_edit, card_edit, messages", [
    (lambda f: f.drop(columns="g"), None, ["missing column 'g'"]),
    (lambda f: f.assign(y="good"), None, ["target 'y' has one class only"]),
    (lambda f: f.assign(g="a"), None, ["protected attribute 'g' has a single value"]),
    (lambda f: f.assign(z=["u"] * 5), None, ["feature 'z' is not numeric and not declared categorical"]),
    (lambda f: f.assign(y="good", g="a"), None, ["one class only", "single value"]),
    (None, lambda c: c.replace('target = "y"\n', ""), ["missing key 'target'"]),
    (None, lambda c: c + 'colour = "x"\n', ["unknown key 'colour'"]),
    (None, lambda c: c + 'sha256 = "00"\n', ["not the card's 00"]),
])
def test_bad_cards_get_one_line_per_problem(tmp_path, frame_edit, card_edit, messages):
    frame = frame_edit(_frame()) if frame_edit else _frame()
    card = card_edit(GOOD) if card_edit else GOOD
    with pytest.raises(ValueError) as info:
        read_card(_write(tmp_path, frame, card))
    lines = str(info.value).splitlines()
    assert len(lines) == len(messages)
    for line, message in zip(lines, messages, strict=True):
        assert message in line and line.startswith("dataset card card.toml")


@pytest.mark.data
def test_example_card_reads_a_registry_file_and_enters_the_synthesis():
    card, _ = read_card(EXAMPLE)
    assert card.files == ["fairness-datasets/law_school_clean.csv"]
    from ldpfair.papers.synthesis import SPEC

    grids = SPEC.experiments("quick", datasets=[str(EXAMPLE), "german"], mechanisms=["GRR"])
    assert list(grids) == ["law_school", "german"]
    spec = grids["law_school"].datasets[0]
    assert spec.name == "file_card" and spec.protected == "race" and spec.label == "law_school"
    with pytest.raises(ValueError, match="unknown dataset 'nowhere'"):
        SPEC.parameters["datasets"].check(["nowhere"], "datasets")
