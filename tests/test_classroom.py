"""Assignment export: exercises parsed from a chapter, student notebook without solutions, key runs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import nbformat
import pytest

from ldpfair import classroom
from ldpfair.cli import main

ROOT = Path(__file__).resolve().parents[1]

CHAPTER = textwrap.dedent('''\
    ---
    jupytext:
      text_representation:
        extension: .md
        format_name: myst
        format_version: 0.13
    kernelspec:
      display_name: Python 3
      language: python
      name: python3
    ---

    (tiny)=
    # A tiny chapter

    Intro text citing {cite:t}`xu2019`.

    ```{code-cell} ipython3
    :tags: [parameters]

    x = 21
    ```

    ```{code-cell} ipython3
    :tags: [remove-cell]

    base = 100
    ```

    ## Body

    ```{code-cell} ipython3
    body_value = x + 1
    ```

    ## Exercises

    ````{exercise} Double it
    :label: tiny-ex1

    Print twice `x`. For example:

    ```python
    print(2 * 0)
    ```
    ````

    ```{solution-start} tiny-ex1
    :class: dropdown
    ```

    The answer is one line.

    ```{code-cell} ipython3
    SOLUTION_ONE = 2 * x
    print("answer", SOLUTION_ONE)
    ```

    ```{solution-end}
    ```

    ```{exercise}
    :label: tiny-ex2

    Add `base` and the body value.
    ```

    ```{solution-start} tiny-ex2
    ```

    ```{code-cell} ipython3
    SOLUTION_TWO = base + body_value
    print("answer", SOLUTION_TWO)
    ```

    ```{solution-end}
    ```

    ```{exercise} Explain
    :label: tiny-ex3

    Why?
    ```

    ```{solution} tiny-ex3
    Because the text says so.
    ```
    ''')


@pytest.fixture
def chapter(tmp_path: Path) -> Path:
    path = tmp_path / "notebooks" / "tiny.md"
    path.parent.mkdir()
    path.write_text(CHAPTER)
    return path


def _sources(nb) -> str:
    return "\n".join(c.source for c in nb.cells)


def test_parse_exercises(chapter):
    ex = classroom.parse_exercises(chapter)
    assert [(e.number, e.label, e.title) for e in ex] == [
        (1, "tiny-ex1", "Double it"), (2, "tiny-ex2", ""), (3, "tiny-ex3", "Explain")]
    assert "print(2 * 0)" in ex[0].prompt and ":label:" not in ex[0].prompt
    assert [k for k, _, _ in ex[0].solution] == ["markdown", "code"]
    assert ex[0].has_code and ex[1].has_code and not ex[2].has_code
    assert ex[2].solution[0][1] == "Because the text says so."


def test_student_has_no_solution_and_key_has_all(chapter):
    student, key = classroom.build_assignment(chapter)
    s, k = _sources(student), _sources(key)
    for fragment in ("SOLUTION_ONE", "SOLUTION_TWO", "The answer is one line", "Because the text says so",
                     "solution-start", "solution-end"):
        assert fragment not in s
    for fragment in ("SOLUTION_ONE", "SOLUTION_TWO", "The answer is one line", "Because the text says so"):
        assert fragment in k
    assert "solution-start" not in k and "{exercise}" not in k
    answers = [c for c in student.cells if "answer" in c.metadata.get("tags", [])]
    assert [c.source.splitlines()[0] for c in answers] == [
        f"# Exercise {i}: your answer here" for i in (1, 2, 3)]
    params = [c for c in student.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and params[0].source.strip() == "x = 21"
    # the chapter is kept (full context), MyST-only syntax flattened
    assert "body_value = x + 1" in s and "(tiny)=" not in s and "{cite:t}" not in s and "xu2019" in s
    assert all("solution" in c.metadata["tags"] for c in key.cells if "SOLUTION" in c.source)
    nbformat.validate(student)
    nbformat.validate(key)


def test_selection_and_setup_context(chapter):
    student, key = classroom.build_assignment(chapter, "2", context="setup")
    s, k = _sources(student), _sources(key)
    assert "### Exercise 2" in s and "Exercise 1" not in s and "Exercise 3" not in s
    assert "SOLUTION_ONE" not in k and "SOLUTION_TWO" in k
    assert "base = 100" in s and "x = 21" in s and "body_value = x + 1" not in s
    assert [e.number for e in classroom.select_exercises(classroom.parse_exercises(chapter),
                                                          ["tiny-ex3", 1, "1"])] == [1, 3]
    for bad in ("4", "0", "tiny-ex9", ""):
        with pytest.raises(ValueError, match="exercise"):
            classroom.build_assignment(chapter, bad)
    with pytest.raises(ValueError, match="context"):
        classroom.build_assignment(chapter, context="everything")


def test_key_executes_and_student_runs(chapter, tmp_path):
    student_path, key_path = classroom.export_assignment(chapter, output=tmp_path / "out")
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["tiny_assignment.ipynb", "tiny_solutions.ipynb"]
    key = classroom.execute_notebook(key_path, timeout=60)
    outputs = "".join(o.get("text", "") for c in key.cells if c.cell_type == "code"
                      for o in c.get("outputs", []))
    assert "answer 42" in outputs and "answer 122" in outputs
    assert nbformat.read(key_path, 4).cells == key.cells  # saved with its outputs
    classroom.execute_notebook(student_path, timeout=60, write=False)  # the prompts run (empty answers)


def test_malformed_chapters(tmp_path):
    def write(body: str) -> Path:
        p = tmp_path / "bad.md"
        p.write_text(CHAPTER.split("## Exercises")[0] + textwrap.dedent(body))
        return p

    with pytest.raises(ValueError, match="no exercises yet"):
        classroom.build_assignment(write(""))
    with pytest.raises(ValueError, match="not the label of an exercise"):
        classroom.parse_exercises(write("```{solution-start} nope\n```\n\n```{solution-end}\n```\n"))
    with pytest.raises(ValueError, match="no solution-end"):
        classroom.parse_exercises(write("```{exercise}\n:label: a\n\nQ\n```\n\n```{solution-start} a\n```\n"))
    with pytest.raises(ValueError, match="no :label:"):
        classroom.parse_exercises(write("```{exercise} T\nQ\n```\n"))
    with pytest.raises(ValueError, match="used twice"):
        classroom.parse_exercises(write("```{exercise}\n:label: a\n\nQ\n```\n\n" * 2))


def test_cli(chapter, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["assignment", str(chapter), "--exercises", "1,3", "-o", str(out)]) == 0
    student = nbformat.read(out / "tiny_assignment.ipynb", 4)
    assert "Exercise 2" not in _sources(student) and "Exercise 3" in _sources(student)
    assert main(["assignment", str(chapter), "--list"]) == 0
    assert "tiny-ex2" in capsys.readouterr().out
    empty = tmp_path / "empty.md"
    empty.write_text(CHAPTER.split("## Exercises")[0])
    assert main(["assignment", str(empty), "-o", str(tmp_path / "none")]) == 2
    assert "no exercises yet" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()  # nothing written


def test_book_chapters_follow_the_convention():
    """Every paper notebook parses; xu2019's student notebook holds none of its solution code."""
    books = sorted((ROOT / "notebooks").glob("*.md"))
    assert books
    for path in books:
        classroom.parse_exercises(path)  # raises on a malformed exercise/solution
    exercises = classroom.parse_exercises(ROOT / "notebooks" / "xu2019.md")
    assert len(exercises) >= 3 and all(e.has_code for e in exercises)
    student, key = classroom.build_assignment(ROOT / "notebooks" / "xu2019.md")
    s = _sources(student)
    assert not any("solution" in c.metadata.get("tags", []) for c in student.cells)
    for e in exercises:
        for _, src, _ in e.solution:
            assert src.strip() and src not in s, e.label
            assert src in _sources(key)
