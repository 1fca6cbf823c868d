"""Per-student variants (issue #43, item 4): declared parameters, draws, stamps, grading per variant."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
import textwrap
from pathlib import Path

import nbformat
import pytest
from test_classroom import _printed_values

from ldpfair import classroom
from ldpfair.classroom import variants
from ldpfair.classroom.variants import Vary, draw_variants, parse_variants, read_students, stamp
from ldpfair.cli import main

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

    # A tiny chapter with variants

    ```{code-cell} ipython3
    :tags: [parameters]

    x = 21
    ```

    ## Exercises

    ```{exercise} Scale it
    :label: tiny-ex1

    Compute `mult * x + offset`.
    ```

    ```{code-cell} ipython3
    :tags: [variant, remove-cell]

    from ldpfair.classroom import vary

    mult = vary(2, values=[2, 3, 4, 5, 6, 7], doc="the multiplier")
    offset = vary(0, values=range(10), doc="the offset")
    ```

    ```{code-cell} ipython3
    :tags: [graded, remove-input]

    from ldpfair.classroom import answer, graded

    graded(answer("SCALED", "integer", points=2, doc="mult * x + offset"))
    ```

    ```{solution-start} tiny-ex1
    ```

    ```{code-cell} ipython3
    SCALED = mult * x + offset
    ```

    ```{solution-end}
    ```

    ```{exercise} Fixed
    :label: tiny-ex2

    Bind `x + 1`.
    ```

    ```{code-cell} ipython3
    :tags: [graded]

    from ldpfair.classroom import answer, graded

    graded(answer("PLUS", "integer"))
    ```

    ```{solution-start} tiny-ex2
    ```

    ```{code-cell} ipython3
    PLUS = x + 1
    ```

    ```{solution-end}
    ```
    ''')


@pytest.fixture
def chapter(tmp_path: Path) -> Path:
    path = tmp_path / "notebooks" / "tiny.md"
    path.parent.mkdir()
    path.write_text(CHAPTER)
    return path


def _specs() -> list[Vary]:
    return [Vary("mult", 2, (2, 3, 4, 5, 6, 7)), Vary("offset", 0, tuple(range(10)))]


def test_exercises_declare_their_variant_parameters(chapter):
    ex1, ex2 = classroom.list_exercises(chapter)
    assert [v.name for v in ex1.variables] == ["mult", "offset"] and ex2.variables == ()
    assert ex1.variables[0].pool == [3, 4, 5, 6, 7]  # the book's value is never drawn


def test_every_chapter_declares_variants_that_parse():
    """Every chapter's variant cells parse; at least three chapters vary at least one exercise each."""
    varied = {}
    for paper in classroom.exercises_table()["paper"].unique():
        exs = classroom.list_exercises(paper)
        varied[paper] = sum(bool(e.variables) for e in exs)
        for e in exs:
            for v in e.variables:
                assert v.pool and v.default not in v.pool, (paper, v)
    assert sum(n > 0 for n in varied.values()) >= 3, varied


@pytest.mark.parametrize(("source", "message"), [
    ("mult = 3", "only `NAME = vary(default"),
    ("mult = vary(2, values=[2])", "at least one value besides the default"),
    ("mult = vary(2, values=[{1: 2}])", "values must be numbers, strings"),
    ("mult = vary(2, values=[float('nan')])", "NameError"),
    ("mult = vary(2, values=[3])\nmult = vary(2, values=[4])", "declared twice"),
    ("mult = vary(2, values=[", "not valid Python"),
    ("from ldpfair.classroom import vary", "declares no parameter"),
])
def test_bad_variant_declarations_get_one_line(source, message):
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        parse_variants(source, "cell")
    assert "\n" not in str(err.value)


def test_draws_are_reproducible_from_the_seed_and_avoid_the_books_values():
    specs = _specs()
    a, b, c = draw_variants(specs, 10, 7), draw_variants(specs, 10, 7), draw_variants(specs, 10, 8)
    assert a == b and a != c
    assert all(v["mult"] != 2 and v["offset"] != 0 for v in a)
    assert len({(v["mult"], v["offset"]) for v in a}) == 10  # ten different variants
    assert sorted(v["mult"] for v in a[:5]) == [3, 4, 5, 6, 7]  # every value used before any repeats


@pytest.mark.parametrize("bad", [0, -1, True, 2.5])
def test_bad_variant_counts_are_refused(bad):
    with pytest.raises(ValueError, match="must be an integer >= 1"):
        draw_variants(_specs(), bad, 1)


def test_handouts_carry_their_variants_values(chapter):
    student, key = classroom.build_assignment(chapter, paper="tiny",
                                              variant=("v03", {"mult": 5, "offset": 4}))
    for nb in (student, key):
        params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
        assert "x = 21" in params.source and "mult = 5\noffset = 4" in params.source
        assert "variant v03" in params.source
    prompt = next(c.source for c in student.cells if "### Exercise 1" in c.source)
    assert "`mult = 5`" in prompt and "`offset = 4`" in prompt
    book, _ = classroom.build_assignment(chapter, paper="tiny")  # the plain export: the book's values
    params = next(c.source for c in book.cells if "parameters" in c.metadata.get("tags", []))
    assert "mult = 2\noffset = 0" in params and "book's values" in params


def _manifest(tmp_path: Path, students: dict[str, str] | None = None) -> variants.Variants:
    secret = "ab" * 32
    return variants.Variants(tmp_path / "tiny_variants.json", "tiny", 1, secret,
                             {"v01": {"parameters": {"mult": 3}, "key": "k1"},
                              "v02": {"parameters": {"mult": 4}, "key": "k2"}}, students or {})


def _meta(m: variants.Variants, vid: str) -> dict:
    params = m.variants[vid]["parameters"]
    return {"variant": {"id": vid, "parameters": dict(params), "stamp": stamp(m.secret, "tiny", vid, params)}}


def test_the_stamp_verifies_only_as_issued(tmp_path):
    m = _manifest(tmp_path, students={"ann": "v01"})
    assert m.check(_meta(m, "v01"), "ann") == ("v01", "")
    assert m.check(_meta(m, "v02"), "bob") == ("v02", "")  # a student not in the list: any valid stamp
    edited = _meta(m, "v01")
    edited["variant"]["id"] = "v02"
    assert "does not verify" in m.check(edited, "bob")[1]
    edited = _meta(m, "v01")
    edited["variant"]["parameters"] = {"mult": 4}
    assert "does not verify" in m.check(edited, "bob")[1]
    assert "stamp missing" in m.check({}, "bob")[1]
    assert "does not have" in m.check({"variant": {"id": "v09", "parameters": {}, "stamp": "00"}}, "x")[1]
    assert "was given variant v01" in m.check(_meta(m, "v02"), "ann")[1]  # a classmate's valid stamp
    other = variants.Variants(m.path, "tiny", 1, "cd" * 32, m.variants)  # another secret
    assert "does not verify" in other.check(_meta(m, "v01"), "bob")[1]


@pytest.mark.parametrize(("text", "message"), [
    (None, "does not exist"),
    ("\n# nobody\n", "lists no student id"),
    ("ann\nbob\nann\n", "line 3: student 'ann' is listed twice"),
    ("ann\n../evil\n", "line 2: '../evil' is not a valid student id"),
])
def test_bad_students_files_get_one_line(tmp_path, text, message):
    path = tmp_path / "students.txt"
    if text is not None:
        path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        read_students(path)
    assert "\n" not in str(err.value)


def test_students_file_ids(tmp_path):
    path = tmp_path / "students.txt"
    path.write_text("ann  # first\n\nbob\ncarl.d@uni\n")
    assert read_students(path) == ["ann", "bob", "carl.d@uni"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--variants", "0"], "--variants: must be an integer >= 1"),
    (["--variants", "two"], "--variants: must be an integer >= 1"),
    (["--students", "nobody.txt"], "students file 'nobody.txt' does not exist"),
    (["--seed", "-3", "--variants", "2"], "--seed: must be an integer >= 0"),
    (["--seed", "3"], "--seed draws variants"),
    (["-e", "2", "--variants", "2"], "declare no variant parameters"),
])
def test_cli_refuses_bad_variant_input_in_one_line(chapter, tmp_path, capsys, extra, message):
    out = tmp_path / "out"
    try:
        rc = main(["assignment", str(chapter), "-o", str(out), "--no-otter", *extra])
    except SystemExit as stop:
        rc = stop.code
    err = capsys.readouterr().err
    assert rc == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert not out.exists()


def test_grade_refuses_export_options(tmp_path, capsys):
    assert main(["assignment", "grade", str(tmp_path / "a.ipynb"), "--variants", "2"]) == 2
    assert "--variants is an option of the export" in capsys.readouterr().err


# --- executing notebooks (slow) -----------------------------------------------------------------------

def _submission(key_path: Path, handout: Path, dest: Path, student: str) -> Path:
    """The variant's key (right answers) carrying the handout's metadata (its stamp), as a student's file."""
    nb = nbformat.read(key_path, 4)
    nb.metadata["ldpfair"] = copy.deepcopy(nbformat.read(handout, 4).metadata["ldpfair"])
    nb.metadata["ldpfair"]["student"] = student
    nbformat.write(nb, dest)
    return dest


@pytest.mark.slow
def test_variants_are_graded_against_their_own_key(chapter, tmp_path, capsys):
    out, subs = tmp_path / "out", tmp_path / "subs"
    subs.mkdir()
    assert main(["assignment", str(chapter), "--variants", "3", "--seed", "43", "-o", str(out)]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "tiny_variants.json").read_text())
    assert (out / "tiny_variants.json").stat().st_mode & 0o077 == 0  # the secret: the instructor's only
    keys = {vid: classroom.load_key(out / r["key"]) for vid, r in manifest["variants"].items()}
    expected = {vid: {s["name"]: s["expected"] for s in k.specs} for vid, k in keys.items()}
    params = {vid: r["parameters"] for vid, r in manifest["variants"].items()}
    assert len({json.dumps(p, sort_keys=True) for p in params.values()}) == 3  # variants differ in parameters
    assert len({e["SCALED"] for e in expected.values()}) == 3  # ... and in the expected answer
    assert {e["SCALED"] for e in expected.values()} == {p["mult"] * 21 + p["offset"] for p in params.values()}
    assert all(e["PLUS"] == 22 for e in expected.values())  # no parameter: the same answer
    handout = {vid: out / "handouts" / f"tiny_{vid}_assignment.ipynb" for vid in keys}
    for vid, path in handout.items():
        nb = nbformat.read(path, 4)
        text = json.dumps(nb)
        assert manifest["secret"] not in text and "expected" not in text
        assert nb.metadata["ldpfair"]["variant"]["id"] == vid and f"**Variant {vid}**" in nb.cells[0].source
    right = _submission(out / manifest["variants"]["v01"]["key"], handout["v01"], subs / "ann.ipynb", "ann")
    edited = nbformat.read(right, 4)  # the same notebook, its stamp edited to v02
    edited.metadata["ldpfair"]["variant"].update(id="v02", parameters=params["v02"])
    edited.metadata["ldpfair"]["student"] = "bob"
    nbformat.write(edited, subs / "bob.ipynb")
    removed = nbformat.read(right, 4)  # the same notebook, its stamp removed
    del removed.metadata["ldpfair"]["variant"]
    removed.metadata["ldpfair"]["student"] = "cat"
    nbformat.write(removed, subs / "cat.ipynb")
    wrong = _submission(out / manifest["variants"]["v01"]["key"], handout["v02"], subs / "dan.ipynb", "dan")
    gradebook = tmp_path / "grades.csv"
    assert main(["assignment", "grade", *(str(p) for p in sorted(subs.iterdir())), "--key",
                 str(out / "tiny_variants.json"), "--csv", str(gradebook), "--feedback",
                 str(tmp_path / "fb"), "--unsandboxed"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(io.StringIO(gradebook.read_text()))}
    assert (rows["ann"]["score"], rows["ann"]["variant"], rows["ann"]["status"]) == ("3", "v01", "graded")
    assert rows["bob"]["score"] == "0" and "variant stamp does not verify" in rows["bob"]["status"]
    assert rows["cat"]["score"] == "0" and "variant stamp missing" in rows["cat"]["status"]
    assert (rows["dan"]["score"], rows["dan"]["variant"]) == ("1", "v02")  # v01's answer is wrong for v02
    assert wrong.exists()
    feedback = (tmp_path / "fb" / "bob.txt").read_text().splitlines()
    assert "variant stamp does not verify" in feedback[0] and "score: 0 / 3" in feedback[-1]


@pytest.mark.slow
def test_students_get_one_stamped_handout_each_and_a_classmates_stamp_is_refused(chapter, tmp_path, capsys):
    roster = tmp_path / "students.txt"
    roster.write_text("ann\nbob\ncat\n")
    out = tmp_path / "out"
    assert main(["assignment", str(chapter), "--students", str(roster), "--seed", "5", "-o", str(out)]) == 0
    capsys.readouterr()
    manifest = json.loads((out / "tiny_variants.json").read_text())
    assert sorted(manifest["students"]) == ["ann", "bob", "cat"]
    assert len(set(manifest["students"].values())) == 3  # one variant each
    again = tmp_path / "again"  # the same seed: the same draws and the same assignment of students
    assert main(["assignment", str(chapter), "--students", str(roster), "--seed", "5", "-o", str(again)]) == 0
    manifest2 = json.loads((again / "tiny_variants.json").read_text())
    assert manifest2["students"] == manifest["students"]
    assert {v: r["parameters"] for v, r in manifest2["variants"].items()} == \
        {v: r["parameters"] for v, r in manifest["variants"].items()}
    ann_vid, bob_vid = manifest["students"]["ann"], manifest["students"]["bob"]
    subs = tmp_path / "subs"
    subs.mkdir()
    _submission(out / manifest["variants"][ann_vid]["key"], out / "handouts" / "ann.ipynb",
                subs / "ann.ipynb", "ann")
    # ann hands in bob's variant, solved, with bob's (valid) stamp
    _submission(out / manifest["variants"][bob_vid]["key"], out / "handouts" / "bob.ipynb",
                subs / "ann2.ipynb", "ann")
    key, grades = classroom.grade([subs / "ann.ipynb", subs / "ann2.ipynb"], out, sandboxed=False)
    assert grades[0].score == 3 and grades[0].variant == ann_vid
    assert grades[1].score == 0 and f"student ann was given variant {ann_vid}" in grades[1].status
    assert main(["assignment", str(chapter), "--students", str(roster), "-o", str(out)]) == 2  # no --force
    assert "already holds variants" in capsys.readouterr().err


@pytest.mark.slow
def test_a_variant_is_graded_in_the_sandbox(chapter, tmp_path):
    from ldpfair.classroom import sandbox

    if sandbox.bwrap() is None:
        pytest.skip("bubblewrap (bwrap) is not installed")
    result = classroom.export_variants(chapter, 2, seed=1, output=tmp_path / "out")
    sub = _submission(result.keys["v02"], result.handouts[1], tmp_path / "s.ipynb", "s")
    _, grades = classroom.grade([sub], result.manifest)
    assert grades[0].score == 3 and grades[0].variant == "v02", grades[0].status


@pytest.mark.slow
@pytest.mark.data
def test_a_chapters_variants_differ_in_expected_answers(tmp_path):
    """hamman2023's quick exercises: two variants, different parameters, different keys."""
    result = classroom.export_variants("hamman2023", 2, seed=43, exercises="1,3", output=tmp_path / "out")
    a, b = (classroom.load_key(p) for p in result.keys.values())
    assert [s["name"] for s in a.specs] == [s["name"] for s in b.specs]  # the same questions ...
    answers = [{s["name"]: s["expected"] for s in k.specs} for k in (a, b)]
    assert answers[0] != answers[1]  # ... other answers
    for key_path, handout in zip(result.keys.values(), result.handouts, strict=True):
        leaks = _printed_values(classroom.load_key(key_path), handout)
        assert not leaks, f"{handout.name} states graded values: {leaks}"
    params = [json.dumps(r["parameters"], sort_keys=True) for r in
              json.loads(result.manifest.read_text())["variants"].values()]
    assert params[0] != params[1]


def test_a_graded_cell_may_declare_its_variant_parameters(chapter):
    source = ('from ldpfair.classroom import answer, graded, vary\n\n'
              'step = vary(1, values=[2, 3], doc="the step")\ngraded(answer("PLUS", "integer"))\n')
    assert [v.name for v in parse_variants(source, "cell", graded=True)] == ["step"]
    assert parse_variants('graded(answer("PLUS", "integer"))', "cell", graded=True) == ()
    text = chapter.read_text().replace('graded(answer("PLUS", "integer"))',
                                       'step = vary(1, values=[2, 3])\ngraded(answer("PLUS", "integer"))')
    chapter.write_text(text)
    assert [v.name for v in classroom.list_exercises(chapter)[1].variables] == ["step"]
    chapter.write_text(text.replace("step = vary(1", "mult = vary(1"))  # a name another exercise declares
    with pytest.raises(ValueError, match="variant parameter 'mult' of 'tiny-ex2' is declared twice"):
        classroom.list_exercises(chapter)
