"""papermill reads every parameter of every chapter's ``parameters`` cell, without a warning.

papermill's parser skips (with "Unable to parse line ...") any line holding a second
``=``, for instance a generated comment such as ``>= 0``: ``ldpfair run`` then printed
that warning on every run of makhlouf2024, and papermill's parameter listing lost the
parameter.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from papermill.translators import PythonTranslator

from ldpfair.experiments.notebooks import DECLARATIONS

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PAPERS = sorted(p.stem for p in NOTEBOOKS.glob("*.md") if not p.name.startswith("_"))


def parameters_source(text: str) -> str:
    start = text.index(":tags: [parameters]")
    return text[start + len(":tags: [parameters]"):text.index("```", start)]


@pytest.mark.parametrize("paper", PAPERS)
def test_papermill_reads_every_declared_parameter_silently(paper, caplog):
    source = parameters_source((NOTEBOOKS / f"{paper}.md").read_text(encoding="utf-8"))
    with caplog.at_level(logging.WARNING, logger="papermill"):
        found = {p.name for p in PythonTranslator.inspect({"source": source})}
    assert not [r.getMessage() for r in caplog.records], "papermill cannot parse a parameters line"
    assert found == set(DECLARATIONS[paper])


def test_a_comment_with_a_second_equals_sign_is_what_papermill_skips(caplog):
    with caplog.at_level(logging.WARNING, logger="papermill"):
        found = {p.name for p in PythonTranslator.inspect({"source": "a = 1  # >= 0\nb = 2  # at least 0\n"})}
    assert found == {"b"} and "Unable to parse line 1" in caplog.text
