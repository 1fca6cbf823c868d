"""The chapters stay narrative: computation lives in ``ldpfair/papers/<paper>/`` (issue #36).

Each paper notebook has at most :data:`MAX_CODE_LINES` lines of code, counted as the
issue counted them: every line between a ``{code-cell}`` fence and its closing fence,
options (``:tags:``) and blank lines included. Captions and alt text are therefore
Markdown of the chapter (``{glue:figure}``, :func:`ldpfair.style.figure`), not options of
a code cell. The pivots, pairings
and loops that built tables and sentences are functions of the chapter's package, and
findings before the exercises are shown as Markdown (``ldpfair.tables.show``), never
``print``ed: a printed line is plain text in the book.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PAPER_NOTEBOOKS = sorted(p for p in NOTEBOOKS.glob("*.md") if not p.name.startswith("_"))
#: The most code lines a chapter's notebook may have.
MAX_CODE_LINES = 200
#: How many printed lines before the exercises each chapter still has (findings not yet Markdown).
#: Empty once every chapter shows its findings through its package.
KNOWN_PRINTS: dict[str, int] = {}


def cell_lines(text: str) -> int:
    """Every line inside the ``{code-cell}`` blocks of ``text``: options and blank lines included."""
    n, inside = 0, False
    for line in text.splitlines():
        if not inside:
            inside = line.startswith("```{code-cell}")
        elif line.rstrip() == "```":
            inside = False
        else:
            n += 1
    return n


def code_cells(text: str) -> list[list[str]]:
    """The code lines of each ``{code-cell}`` block (options and blank lines left out)."""
    cells: list[list[str]] = []
    current: list[str] | None = None
    options = False
    for line in text.splitlines():
        if current is None:
            if line.startswith("```{code-cell}"):
                current, options = [], True
            continue
        if line.rstrip() == "```":
            cells.append(current)
            current = None
        elif options and line.startswith(":"):
            continue
        else:
            options = False
            if line.strip():
                current.append(line)
    return cells


def before_exercises(text: str) -> str:
    match = re.search(r"^#+ Exercises?\b", text, flags=re.MULTILINE)
    return text[:match.start()] if match else text


@pytest.mark.parametrize("path", PAPER_NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_has_at_most_200_code_lines(path):
    n = cell_lines(path.read_text(encoding="utf-8"))
    assert n <= MAX_CODE_LINES, (f"{path.name}: {n} lines in code cells (at most {MAX_CODE_LINES}); move "
                                 f"tables and findings into ldpfair/papers/{path.stem}/ and captions into "
                                 "the chapter's Markdown ({glue:figure})")


@pytest.mark.parametrize("path", PAPER_NOTEBOOKS, ids=lambda p: p.stem)
def test_findings_are_not_printed(path):
    cells = code_cells(before_exercises(path.read_text(encoding="utf-8")))
    prints = [line.strip() for cell in cells for line in cell if re.search(r"\bprint\(", line)
              and "in this profile" not in line]  # saying that a profile lacks a figure is no finding
    assert len(prints) <= KNOWN_PRINTS.get(path.stem, 0), (
        f"{path.name} prints findings as plain text; show them as Markdown from ldpfair.papers.{path.stem}:\n"
        + "\n".join(prints))


def test_the_counter_skips_options_blank_lines_and_prose():
    text = ("# Title\n\nprose = 1\n\n```{code-cell} ipython3\n:tags: [hide-input]\n:mystnb:\n:  figure:\n"
            ":    caption: |\n:      words\n\nx = 1\n\ny = {\n    'a': 1}\n```\n\n"
            "```{code-cell}\nz = 2\n```\n## Exercises\n```{code-cell}\nprint(z)\n```\n")
    assert code_cells(text) == [["x = 1", "y = {", "    'a': 1}"], ["z = 2"], ["print(z)"]]
    assert cell_lines(text) == 10 + 1 + 1  # the first cell: options, blank lines and code; then one line each
    assert code_cells(before_exercises(text)) == [["x = 1", "y = {", "    'a': 1}"], ["z = 2"]]
