"""Assignments: exercises parsed from a chapter, graded answers, export with hidden tests, local grading."""

from __future__ import annotations

import csv
import io
import os
import stat
import textwrap
from pathlib import Path

import nbformat
import pytest
from fixtures_submissions import _wrong as _wrong_value  # a line its hidden test rejects

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

    ```{code-cell} ipython3
    :tags: [graded, remove-input]

    from ldpfair.classroom import answer, graded, manual

    graded(answer("SOLUTION_ONE", "integer", points=2, doc="twice x"),
           manual("Why twice?", rubric="Because the prompt says so.", points=1))
    ```

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

    ```{code-cell} ipython3
    :tags: [graded]

    from ldpfair.classroom import answer, graded

    graded(answer("SOLUTION_TWO", "number", abs=0.5, points=1), answer("WORDS", "set"))
    ```

    ```{solution-start} tiny-ex2
    ```

    ```{code-cell} ipython3
    SOLUTION_TWO = base + body_value
    WORDS = {"a", "b"}
    from pathlib import Path
    Path("figures").mkdir(exist_ok=True)
    Path("figures/x.txt").write_text("a figure")
    print("answer", SOLUTION_TWO)
    ```

    ```{solution-end}
    ```

    ```{exercise} Explain
    :label: tiny-ex3

    Why?
    ```

    ```{code-cell} ipython3
    :tags: [graded]

    from ldpfair.classroom import answer, graded

    graded(answer("FLAG", "bool"))
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


def _tagged(nb, tag):
    return [c for c in nb.cells if tag in c.metadata.get("tags", [])]


def test_parse_exercises(chapter):
    ex = classroom.parse_exercises(chapter)
    assert [(e.number, e.label, e.title) for e in ex] == [
        (1, "tiny-ex1", "Double it"), (2, "tiny-ex2", ""), (3, "tiny-ex3", "Explain")]
    assert "print(2 * 0)" in ex[0].prompt and ":label:" not in ex[0].prompt
    assert [k for k, _, _ in ex[0].solution] == ["markdown", "code"]
    assert ex[0].has_code and ex[1].has_code and not ex[2].has_code
    assert ex[2].solution[0][1] == "Because the text says so."
    assert [a.name for a in ex[0].graded.answers] == ["SOLUTION_ONE"] and ex[0].graded.points == 2
    assert ex[0].graded.manual_points == 1 and ex[1].graded.points == 2
    assert "2 points" in ex[0].graded.markdown() and "graded by hand" in ex[0].graded.markdown()


def test_student_has_no_solution_and_key_has_all(chapter):
    student, key = classroom.build_assignment(chapter)
    s, k = _sources(student), _sources(key)
    for fragment in ("SOLUTION_ONE = 2", "SOLUTION_TWO = base", "The answer is one line",
                     "Because the text says so", "solution-start", "solution-end",
                     "Because the prompt says so"):
        assert fragment not in s
    for fragment in ("SOLUTION_ONE = 2", "SOLUTION_TWO = base", "The answer is one line",
                     "Because the text says so", "Because the prompt says so"):
        assert fragment in k
    assert "solution-start" not in k and "{exercise}" not in k and "graded(" not in s + k
    answers = _tagged(student, "answer")
    assert [c.source.splitlines()[0] for c in answers] == [
        f"# Exercise {i}: your answer here" for i in (1, 2, 3)]
    assert "SOLUTION_ONE = ...  # twice x" in answers[0].source
    assert len(_tagged(student, "public-test")) == 3 and not _tagged(student, "hidden-test")
    assert len(_tagged(key, "hidden-test")) == 3 and not _tagged(key, "public-test")
    params = _tagged(student, "parameters")
    assert len(params) == 1 and params[0].source.strip() == "x = 21"
    # the chapter is kept (full context), MyST-only syntax flattened
    assert "body_value = x + 1" in s and "(tiny)=" not in s and "{cite:t}" not in s
    assert "Intro text citing Xu et al. (2019)." in s  # cited as in the book (references.bib)
    assert all("solution" in c.metadata["tags"] for c in key.cells if "SOLUTION_ONE = 2" in c.source)
    meta = student.metadata["ldpfair"]
    assert meta["assignment"] == "tiny" and [e["number"] for e in meta["exercises"]] == [1, 2, 3]
    nbformat.validate(student)
    nbformat.validate(key)


def test_selection_and_setup_context(chapter):
    student, key = classroom.build_assignment(chapter, "2", context="setup")
    s, k = _sources(student), _sources(key)
    assert "### Exercise 2" in s and "Exercise 1" not in s and "Exercise 3" not in s
    assert "SOLUTION_ONE = 2" not in k and "SOLUTION_TWO = base" in k
    assert "base = 100" in s and "x = 21" in s and "body_value = x + 1" not in s
    assert [e.number for e in classroom.select_exercises(classroom.parse_exercises(chapter),
                                                          ["tiny-ex3", "1"])] == [1, 3]
    with pytest.raises(ValueError, match="exercise 1 .tiny-ex1. is selected twice"):
        classroom.select_exercises(classroom.parse_exercises(chapter), ["tiny-ex1", 1])
    for bad in ("4", "0", "tiny-ex9", ""):
        with pytest.raises(ValueError, match="exercise"):
            classroom.build_assignment(chapter, bad)
    with pytest.raises(ValueError, match="context"):
        classroom.build_assignment(chapter, context="everything")


def test_myst_markup_is_converted_for_jupyter(tmp_path):
    path = tmp_path / "m.md"
    path.write_text(CHAPTER.replace("Intro text citing {cite:t}`xu2019`.",
                                    ":::{note} Careful\nRead {doc}`the guide <guide>` and {ref}`tiny`.\n:::"))
    student, _ = classroom.build_assignment(path)
    s = _sources(student)
    # one converter for the book's downloads, ``ldpfair run`` and assignments (myst_to_jupyter)
    assert "> **Note: Careful**" in s
    assert "> Read [the guide](https://github.com/ldpfair/ldpfair/blob/main/notebooks/guide.md) and " \
           "[tiny](#tiny)." in s and '<a id="tiny"></a>' in s
    assert ":::" not in s and "{doc}" not in s and "{ref}" not in s


@pytest.mark.parametrize("source, match", [
    ('graded(answer("x", "number"), answer("x", "integer"))', "used twice"),
    ('graded(manual("Why?", rubric="r"))', "at least one autograded"),
    ('graded(answer("x", "weird"))', "kind must be one of"),
    ('graded(answer("1x", "number"))', "identifier"),
    ('graded(answer("x", "number", points=-1))', "points"),
    ('graded(answer("x", "choice", options=(1,)))', "two options"),
    ('graded(answer("x", "table"))', "columns"),
    ('x = 1', "must end with a graded"),
    ('1 +', "not valid Python"),
])
def test_bad_declarations(source, match):
    with pytest.raises(ValueError, match=match):
        classroom.parse_declaration(source)


def _spec(**kw):
    return {**classroom.answer(kw.pop("name", "v"), kw.pop("kind"), **{k: v for k, v in kw.items()
                                                                       if k != "expected"}).to_dict(),
            "expected": kw.get("expected")}


def test_checks_each_kind():
    import pandas as pd

    from ldpfair.classroom.checks import check, check_public, to_json

    ok = [
        (_spec(kind="number", abs=0.01, expected=0.5), 0.505),
        (_spec(kind="number", rel=0.1, expected=10.0), 10.9),
        (_spec(kind="integer", expected=3), 3),
        (_spec(kind="bool", expected=True), True),
        (_spec(kind="text", expected="GRR"), " grr "),
        (_spec(kind="choice", options=(0, 0.25), expected=0.25), 0.25),
        (_spec(kind="set", abs=1e-9, expected=[0.1, 0.9]), {0.9, 0.1}),
        (_spec(kind="sequence", abs=0.1, length=2, expected=[1.0, 2.0]), (1.05, 1.95)),
    ]
    bad = [
        (_spec(kind="number", abs=0.01, expected=0.5), 0.52, "expected 0.5 ± 0.01, got 0.52"),
        (_spec(kind="number", expected=0.5), "0.5", "should be a finite real number"),
        (_spec(kind="integer", expected=3), 3.0, "should be an integer"),
        (_spec(kind="bool", expected=True), 1, "should be True or False"),
        (_spec(kind="choice", options=(0, 0.25), expected=0.25), 0, "expected 0.25, got 0"),
        (_spec(kind="choice", options=(0, 0.25), expected=0.25), 0.3, "should be one of"),
        (_spec(kind="set", expected=["a", "b"]), {"a", "c"}, "'c' is not expected"),
        (_spec(kind="sequence", length=2, expected=[1, 2]), [2, 1], "value 0: expected 1, got 2"),
        (_spec(kind="sequence", length=2, expected=[1, 2]), [1, 2, 3], "should hold 2 values"),
        (_spec(kind="number", expected=1.0), ..., "is still `...`"),
    ]
    for spec, value in ok:
        check({"v": value}, spec)
        check_public({"v": value}, spec)
    for spec, value, message in bad:
        with pytest.raises(AssertionError, match=message.replace("(", r"\(").replace("?", r"\?")):
            check({"v": value}, spec)
    with pytest.raises(AssertionError, match="v is not defined"):
        check({}, _spec(kind="number", expected=1.0))
    table_spec = _spec(kind="table", columns=("ones",), key="protocol", abs=0)
    key_df = pd.DataFrame({"protocol": ["GRR", "OUE"], "ones": [1, 0]})
    table_spec["expected"] = to_json(key_df, table_spec)
    check({"v": key_df.iloc[::-1]}, table_spec)  # row order does not matter
    check({"v": key_df.set_index("protocol")}, table_spec)  # the key may be the index
    with pytest.raises(AssertionError, match="column 'ones', row 'OUE': expected 0, got 5"):
        check({"v": key_df.assign(ones=[1, 5])}, table_spec)
    with pytest.raises(AssertionError, match="should have the columns 'ones'"):
        check_public({"v": key_df.drop(columns="ones")}, table_spec)


def _broken_copy(key_path: Path, out: Path) -> dict:
    """The key with exercise 1 raising in every solution cell and one answer of exercise 2 wrong."""
    nb = nbformat.read(key_path, 4)
    exercises = nb.metadata["ldpfair"]["exercises"]
    assert len(exercises) >= 2, (f"{key_path.name}: {len(exercises)} exercise(s); a chapter needs two graded "
                                 "exercises (one raising, one answered wrongly; book/adding_a_paper.md)")
    first, second = exercises[0]["number"], exercises[1]["number"]
    wrong = exercises[1]["graded"]["answers"][0]
    last = None
    for i, c in enumerate(nb.cells):
        number = c.metadata.get("ldpfair", {}).get("exercise")
        if "solution" in c.metadata.get("tags", []):
            if number == first:
                c.source = 'raise RuntimeError("deliberately broken")\n' + c.source
            elif number == second:
                last = i
    nb.cells.insert(last + 1, nbformat.v4.new_code_cell(_wrong_value(wrong),
                                                        metadata={"ldpfair": {"exercise": second}}))
    nbformat.write(nb, out)
    return {"first": first, "second": second, "wrong": wrong}


def _by_exercise(grade):
    out: dict[int, float] = {}
    for a in grade.answers:
        out[a.exercise] = out.get(a.exercise, 0.0) + a.score
    return out


def _check_grading(key_path: Path, student_path: Path, tmp_path: Path, timeout: float = 600) -> dict:
    """Key: full marks; blank student copy: 0; exercise 1 raising and one wrong answer: exactly those lost."""
    broken = _broken_copy(key_path, tmp_path / "broken.ipynb")
    key, (g_key, g_blank, g_broken) = classroom.grade(
        [key_path, student_path, tmp_path / "broken.ipynb"], key_path, timeout=timeout, jobs=3)
    assert key.possible > 0
    assert g_key.score == key.possible, classroom.format_grade(g_key, key)
    assert g_blank.score == 0, classroom.format_grade(g_blank, key)
    full = {e["number"]: sum(a["points"] for a in e["graded"]["answers"]) for e in key.exercises}
    got = _by_exercise(g_broken)
    second = full[broken["second"]] - broken["wrong"]["points"]
    expected = {**full, broken["first"]: 0.0, broken["second"]: second}
    assert got == expected, classroom.format_grade(g_broken, key)
    lines = [a.message for a in g_broken.answers if a.exercise == broken["first"]]
    assert all("deliberately broken" in m for m in lines), lines
    wrong_line = next(a.message for a in g_broken.answers if a.name == broken["wrong"]["name"])
    assert wrong_line.startswith(broken["wrong"]["name"]) and "expected" in wrong_line
    return {"key": g_key, "blank": g_blank, "broken": g_broken}


def test_export_and_grade_tiny(chapter, tmp_path, capsys):
    out = tmp_path / "out"
    result = classroom.export_assignment(chapter, "1,2", output=out, otter=False)
    assert sorted(p.name for p in out.iterdir()) == ["tiny_assignment.ipynb", "tiny_solutions.ipynb"]
    for path in (result.student, result.key):  # an ordinary file under the umask, not mkstemp's 0600
        mask = os.umask(0)
        os.umask(mask)
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    key = nbformat.read(result.key, 4)
    hidden = "\n".join(c.source for c in _tagged(key, "hidden-test"))
    assert "'expected': 42" in hidden and "'expected': 122" in hidden and "'expected': ['a', 'b']" in hidden
    outputs = "".join(o.get("text", "") for c in key.cells for o in c.get("outputs", []))
    assert "answer 42" in outputs and "answer 122" in outputs  # executed, outputs saved
    graded = _check_grading(result.key, result.student, tmp_path)
    assert graded["broken"].status == "exercise 1 raised RuntimeError: deliberately broken"
    # the rubric is in the key, the open question counted apart
    assert "Because the prompt says so" in _sources(key)
    k = classroom.load_key(result.key)
    assert k.possible == 4 and k.manual_points == 1
    text = classroom.format_grade(graded["blank"], k)
    assert "score: 0 / 4 (+ 1 point graded by hand)" in text and "SOLUTION_ONE is still `...`" in text


def test_export_refuses_a_key_that_does_not_bind_its_answers(chapter, tmp_path):
    with pytest.raises(ValueError, match="does not bind its graded answers: FLAG"):
        classroom.export_assignment(chapter, "3", output=tmp_path / "o", otter=False)
    assert not (tmp_path / "o").exists()


def test_grader_survives_timeouts_and_damage(chapter, tmp_path):
    result = classroom.export_assignment(chapter, "1,2", output=tmp_path / "out", otter=False)
    nb = nbformat.read(result.key, 4)
    first = next(c for c in nb.cells if "solution" in c.metadata.get("tags", []))
    first.source = "import time\ntime.sleep(60)\n" + first.source
    nbformat.write(nb, tmp_path / "slow.ipynb")
    (tmp_path / "damaged.ipynb").write_text("{not json")
    key, (slow, damaged) = classroom.grade([tmp_path / "slow.ipynb", tmp_path / "damaged.ipynb"], result.key,
                                           timeout=8)
    assert slow.score == 0 and "time limit" in slow.status
    assert all("time limit" in a.message for a in slow.answers)
    assert damaged.score == 0 and "not a readable notebook" in damaged.status
    rows = list(csv.DictReader(io.StringIO(classroom.grades_csv([slow, damaged], key))))
    assert [r["score"] for r in rows] == ["0", "0"] and rows[0]["possible"] == "4"
    assert set(rows[0]) >= {"ex1.SOLUTION_ONE", "ex2.SOLUTION_TWO", "ex2.WORDS"}


def test_cli(chapter, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["assignment", str(chapter), "--exercises", "1,2", "-o", str(out), "--no-otter",
                 "--context", "full"]) == 0
    student = nbformat.read(out / "tiny_assignment.ipynb", 4)
    assert "Exercise 3" not in _sources(student) and "Exercise 2" in _sources(student)
    assert not (out / "figures").exists() and not (tmp_path / "figures").exists()
    capsys.readouterr()
    gradebook = tmp_path / "g.csv"
    assert main(["assignment", "grade", str(out / "tiny_solutions.ipynb"), "--csv", str(gradebook)]) == 0
    printed = capsys.readouterr().out
    assert "score: 4 / 4" in printed and "gradebook:" in printed
    assert list(csv.DictReader(gradebook.open()))[0]["score"] == "4"
    assert main(["assignment", str(chapter), "--list"]) == 0
    assert "tiny-ex2" in capsys.readouterr().out
    for argv, message in [
        (["assignment", "grade"], "needs one or more submissions"),
        (["assignment", "grade", str(tmp_path / "nope.ipynb")], "does not exist"),
        (["assignment", "grade", str(out / "tiny_assignment.ipynb"), "--key", str(tmp_path / "k.ipynb")],
         "does not exist"),
        (["assignment", "grade", str(out / "tiny_assignment.ipynb"), "--key", str(chapter)],
         "not a readable notebook"),
        (["assignment", "grade", str(out / "tiny_assignment.ipynb"), "--csv", "x.txt"], "must name a .csv"),
        (["assignment", str(chapter), "--csv", "x.csv"], "--csv is an option of"),
        (["assignment", str(chapter), "extra.ipynb"], "unexpected argument"),
        (["assignment", "grade", str(out / "tiny_assignment.ipynb"), "--jobs", "0"], "--jobs must be"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)
    empty = tmp_path / "empty.md"
    empty.write_text(CHAPTER.split("## Exercises")[0])
    assert main(["assignment", str(empty), "-o", str(tmp_path / "none")]) == 2
    assert "no exercises yet" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()  # nothing written


_BAD_SECONDS = [["--timeout", t] for t in ("-5", "0", "-0.5", "nan", "inf", "abc", "", "1e999")] + [
    ["--timeout=-inf"]]  # (``--timeout -inf`` reads as a missing value: "expected one argument")


@pytest.mark.parametrize("sub", ["export", "list", "grade"])
def test_cli_refuses_bad_timeouts_and_repeated_arguments(sub, chapter, tmp_path, capsys):
    """Every ``ldpfair assignment`` subcommand: one line, exit 2, nothing run or written (issue #36)."""
    out = tmp_path / "out"
    sub_argv = {"export": [str(chapter), "-o", str(out), "--no-otter"],
                "list": [str(chapter), "--list"],
                "grade": ["grade", str(chapter)]}[sub]
    cases = [(t, "--timeout: must be a positive, finite number of seconds") for t in _BAD_SECONDS]
    cases += [(["--timeout", "5", "--timeout", "6"], "--timeout: given twice")]
    if sub == "grade":
        cases += [(["--key", "a.ipynb", "--key", "b.ipynb"], "--key: given twice"),
                  (["--csv", "a.csv", "--csv", "b.csv"], "--csv: given twice"),
                  (["-j", "1", "-j", "2"], "--jobs/-j: given twice"),
                  ([str(chapter.parent / ".." / "notebooks" / "tiny.md")], "is given twice")]
    else:
        cases += [(["-e", "1", "-e", "2"], "--exercises/-e: given twice"),
                  (["-e", "1,tiny-ex1"], "is selected twice"),
                  (["-e", "2,2"], "is selected twice"),
                  (["--context", "full", "--context", "setup"], "--context: given twice"),
                  (["-o", str(out), "-o", str(tmp_path / "other")], "-o/--output: given twice"),
                  ([str(chapter)], f"unrecognized arguments: {chapter}")]  # the paper given twice, late
    for extra, message in cases:
        argv = ["assignment", *sub_argv, *extra]
        try:
            rc = main(argv)
        except SystemExit as stop:  # argparse's own errors exit (one line: cli.OneLineParser)
            rc = stop.code
        assert rc == 2, argv
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)
    if sub != "grade":  # the paper given twice, in a row
        assert main(["assignment", str(chapter), *sub_argv]) == 2
        err = capsys.readouterr().err
        assert "unexpected argument" in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists() and not (tmp_path / "other").exists()


@pytest.mark.parametrize("bad", [-5, 0, float("nan"), float("inf"), True, "10"])
def test_api_refuses_bad_timeouts_before_writing(bad, chapter, tmp_path):
    with pytest.raises(ValueError, match="timeout must be a positive, finite number of seconds"):
        classroom.export_assignment(chapter, output=tmp_path / "out", otter=False, timeout=bad)
    assert not (tmp_path / "out").exists()
    with pytest.raises(ValueError, match="--timeout must be a positive, finite number"):
        classroom.grade([chapter], chapter, timeout=bad)
    assert classroom.run.check_timeout(2) == 2.0


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
    graded_cell = "```{code-cell} ipython3\n:tags: [graded]\n\ngraded(answer('x', 'number'))\n```\n\n"
    with pytest.raises(ValueError, match="must sit between an exercise"):
        classroom.parse_exercises(write(graded_cell))
    with pytest.raises(ValueError, match="two cells tagged"):
        classroom.parse_exercises(write("```{exercise}\n:label: a\n\nQ\n```\n\n" + graded_cell * 2))


def test_book_chapters_follow_the_convention():
    """Every exercise of every chapter parses and has at least one autograded answer."""
    books = sorted((ROOT / "notebooks").glob("*.md"))
    assert books
    count = 0
    for path in books:
        for e in classroom.parse_exercises(path):  # raises on a malformed exercise/solution/declaration
            assert e.graded is not None and e.graded.answers, e.label
            assert e.has_code, e.label
            count += path.stem != "_template"
    from ldpfair.papers import PAPERS  # derived from the registry: a new chapter needs no edit here

    lacking = [p for p in PAPERS if not classroom.parse_exercises(ROOT / "notebooks" / f"{p}.md")]
    assert not lacking, f"chapters without a graded exercise: {lacking}; add one (book/adding_a_paper.md)"
    assert count >= len(PAPERS), f"{count} exercises for {len(PAPERS)} chapters; each chapter needs one"
    exercises = classroom.parse_exercises(ROOT / "notebooks" / "xu2019.md")
    student, key = classroom.build_assignment(ROOT / "notebooks" / "xu2019.md")
    s = _sources(student)
    assert not any("solution" in c.metadata.get("tags", []) for c in student.cells)
    for e in exercises:
        for _, src, _ in e.solution:
            assert src.strip() and src not in s, e.label
            assert src in _sources(key)


CHAPTERS = list(__import__("ldpfair.papers", fromlist=["PAPERS"]).PAPERS)  # the registry's chapters


@pytest.mark.slow
@pytest.mark.data
@pytest.mark.parametrize("paper", CHAPTERS)
def test_every_chapter_grades_its_key_fully_and_its_blank_copy_zero(paper, tmp_path):
    """The chapter's short assignment (setup context): key, blank copy, a broken copy (see _check_grading)."""
    result = classroom.export_assignment(paper, output=tmp_path / paper, context="setup", otter=False)
    _check_grading(result.key, result.student, tmp_path)
    leaks = _printed_values(classroom.load_key(result.key), result.student)
    assert not leaks, f"the handout states graded values: {leaks}"


#: A graded value that the handout shows for another reason (checked by hand).
COINCIDENCES = {"opt_q=0.5"}  # ghoukasian2025's prompt lists the proportion p0 = 0.5 to try, not q*


def _printed_values(key, handout: Path) -> list[str]:
    """Every graded value (a number at 3 to 6 significant digits, or a string) the handout's text shows."""
    import re

    nb = nbformat.read(handout, 4)
    text = "\n".join(c.source for c in nb.cells) + "\n".join(
        str(o.get("text", "")) for c in nb.cells for o in c.get("outputs", []))
    found = []
    for spec in key.specs:
        if spec["kind"] in ("choice", "bool"):
            continue  # the options are shown by design
        values = spec["expected"]
        if isinstance(values, dict):  # a table
            values = [v for col in values["columns"].values() for v in col]
        for v in values if isinstance(values, list) else [values]:
            if isinstance(v, bool) or v is None:
                continue
            if isinstance(v, int | float):
                if float(v).is_integer() and abs(v) < 1000:
                    continue  # small integers appear everywhere (loop bounds, indices)
                forms = {f"{float(v):.{d}g}" for d in range(3, 7)}
                forms |= {str(int(v))} if float(v).is_integer() else set()
            elif isinstance(v, str) and len(v) > 3:
                forms = {v}
            else:
                continue
            for form in forms:
                if re.search(rf"(?<![\w.]){re.escape(form)}(?![\w])", text):
                    if f"{spec['name']}={form}" not in COINCIDENCES:
                        found.append(f"{spec['name']}={form}")
    return found


def test_handout_leaks_no_rubric_reason_or_key_name(chapter, tmp_path):
    result = classroom.export_assignment(chapter, "1,2", output=tmp_path / "out", otter=False)
    text = result.student.read_text()
    assert "Because the prompt says so" not in text and "tiny_solutions" not in text
    meta = nbformat.read(result.student, 4).metadata["ldpfair"]
    assert meta["exercises"][0]["graded"]["manual"] == [{"question": "Why twice?", "points": 1}]
    assert "Because the prompt says so" in result.key.read_text()  # the rubric stays in the key


def test_a_second_export_into_the_same_folder_is_refused_unless_forced(chapter, tmp_path):
    out = tmp_path / "out"
    result = classroom.export_assignment(chapter, "1", output=out, otter=False)
    before = result.key.read_bytes()
    with pytest.raises(ValueError, match=r"already holds an export \(tiny_assignment.ipynb, "
                                         r"tiny_solutions.ipynb\); pass --force"):
        classroom.export_assignment(chapter, "1,2", output=out, otter=False)
    assert result.key.read_bytes() == before
    classroom.export_assignment(chapter, "1,2", output=out, otter=False, force=True)
    assert len(classroom.load_key(result.key).exercises) == 2


def test_messages_show_enough_digits_and_float32_within_tolerance_is_right():
    import numpy as np

    from ldpfair.classroom.checks import judge

    exact = 0.6224593312018546
    spec = {"name": "Q", "kind": "number", "rel": 1e-9, "expected": exact}
    single = float(np.float32(exact))
    assert judge({"value": single}, spec) == "Q: expected 0.6224593 ± 6.2e-10, got 0.6224594"
    assert judge({"value": single}, {**spec, "rel": 1e-6}) == ""
    assert judge({"value": exact * (1 + 1e-10)}, spec) == ""
    assert classroom.answer("Q", "number", rel=1e-9).tolerance() == "± 1e-09 relative"
