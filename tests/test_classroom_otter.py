"""The Otter route: one handout for both graders, a zip that carries what grading needs, equal points."""

from __future__ import annotations

import ast
import json
import zipfile
from pathlib import Path

import nbformat
import pytest
from fixtures_submissions import KINDS, install_wheel, ldpfair_points, otter_points, write_submissions
from test_classroom import CHAPTER

from ldpfair import classroom
from ldpfair.classroom import otter as otter_route
from ldpfair.classroom.checks import check

pytest.importorskip("otter")


@pytest.fixture
def chapter(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.md"
    path.write_text(CHAPTER)
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory):
    """The tiny chapter's exercises 1-2 exported once for this module, with the Otter zip."""
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "tiny.md").write_text(CHAPTER)
    return classroom.export_assignment(folder / "tiny.md", "1,2", output=folder / "out", time_limit=20)


def _zip_text(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n).decode() for n in zf.namelist()
                if not n.endswith(".whl") and "ldpfair-files" not in n}


def test_handout_carries_otters_assignment_name(tiny):
    from otter.nbmeta_config import NBMetadataConfig

    handout = nbformat.read(tiny.student, 4)
    assert NBMetadataConfig.from_notebook(handout).assignment_name == "tiny"
    config = json.loads(_zip_text(tiny.autograder)["otter_config.json"])
    assert config["assignment_name"] == "tiny"
    key = nbformat.read(tiny.key, 4)
    assert "otter" not in key.metadata  # the key is never a submission
    # the handout needs nothing but ldpfair: no cell imports otter
    sources = "\n".join(c.source for c in handout.cells if c.cell_type == "code")
    assert "otter" not in sources


def test_open_questions_are_marked_for_otters_pdf(tiny):
    handout = nbformat.read(tiny.student, 4)
    text = [c.source for c in handout.cells]
    begin = next(i for i, t in enumerate(text) if t.startswith("<!-- BEGIN QUESTION -->"))
    assert "Why twice?" in text[begin] and "1 point, graded by hand" in text[begin]
    assert "open-answer" in handout.cells[begin + 1].metadata["tags"]
    assert text[begin + 2] == "<!-- END QUESTION -->"
    assert sum(t.count("BEGIN QUESTION") for t in text) == 1  # one open question in exercises 1-2
    assert "Because the prompt says so" not in "\n".join(text)  # the rubric stays in the key
    config = json.loads(_zip_text(tiny.autograder)["otter_config.json"])
    assert config["pdf"] is True and config["filtering"] is True


def test_zip_carries_python_311_the_wheel_and_a_time_limit(tiny):
    files = _zip_text(tiny.autograder)
    with zipfile.ZipFile(tiny.autograder) as zf:
        wheels = [n for n in zf.namelist() if n.endswith(".whl")]
        assert len(wheels) == 1 and wheels[0].startswith("files/ldpfair-")
        import io

        with zipfile.ZipFile(io.BytesIO(zf.read(wheels[0]))) as wheel:
            names = wheel.namelist()
    assert "ldpfair/classroom/otter_plugin.py" in names and "ldpfair/datasets/registry_data.json" in names
    env = files["environment.yml"]
    assert "python=3.11" in env and "python=3.13" not in env
    assert f"/autograder/source/files/{wheels[0].split('/')[-1]}" in env
    assert "ldpfair[classroom]" not in env and "numpy==" in env and "pandas==" in env
    config = json.loads(files["otter_config.json"])
    (plugin,) = config["plugins"]
    assert plugin[otter_route.PLUGIN]["time_limit"] == 20


def test_tests_hold_the_values_in_plain_python_and_the_handout_none(tiny):
    from otter.test_files import ExceptionTestFile

    files = _zip_text(tiny.autograder)
    tests = {n: s for n, s in files.items() if n.startswith("tests/")}
    assert sorted(tests) == ["tests/tiny_ex1.py", "tests/tiny_ex2.py"]
    for source in tests.values():
        imported = {(n.module or "") if isinstance(n, ast.ImportFrom) else a.name
                    for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import | ast.ImportFrom)
                    for a in n.names}
        assert not any(m.startswith("ldpfair") for m in imported), imported
        assert imported <= {"__future__", "math", "numbers", "collections.abc", "typing", "otter.test_files"}
    parsed = ExceptionTestFile.from_string(tests["tests/tiny_ex2.py"], "tiny_ex2.py")
    assert parsed.name == "tiny_ex2"
    assert [(c.name, c.points, c.hidden) for c in parsed.test_cases] == [
        ("SOLUTION_TWO", 1.0, True), ("WORDS", 1.0, True)]
    assert "'expected': 122" in tests["tests/tiny_ex2.py"]
    handout = tiny.student.read_text()
    assert "122" not in handout and "'expected'" not in handout


CASES = [
    ({"name": "v", "kind": "number", "abs": 0.01, "expected": 0.5}, [0.505, 0.52, "0.5", float("nan"), ...]),
    ({"name": "v", "kind": "number", "rel": 1e-9, "expected": 0.6224593312018546},
     [0.6224593312018546, 0.6224594, __import__("numpy").float32(0.6224593312018546)]),
    ({"name": "v", "kind": "integer", "expected": 3}, [3, 3.0, __import__("numpy").int64(3), 4, True]),
    ({"name": "v", "kind": "bool", "expected": True}, [True, 1, False, __import__("numpy").bool_(True)]),
    ({"name": "v", "kind": "text", "expected": "GRR"}, [" grr ", "OUE", 3]),
    ({"name": "v", "kind": "choice", "options": [0, 0.25], "expected": 0.25}, [0.25, 0, 0.3]),
    ({"name": "v", "kind": "set", "abs": 1e-9, "expected": [0.1, 0.9]},
     [{0.9, 0.1}, [0.1], {0.1, 0.8}, "ab"]),
    ({"name": "v", "kind": "sequence", "length": 2, "expected": [1, 2]}, [(1, 2), [2, 1], [1, 2, 3]]),
]


@pytest.mark.parametrize(("spec", "values"), CASES)
def test_the_zips_plain_python_agrees_with_ldpfairs_checks(spec, values):
    """Every value: the generated Otter case passes exactly when ldpfair's check does, with its message."""
    source = otter_route.otter_test_source("p", 1, [{**spec, "points": 2, "doc": "d", "why": "w"}])
    test = otter_route_case(source)
    outcomes = set()
    for env in [*({"v": v} for v in values), {}]:
        expected = _outcome(check, env, spec)
        assert _outcome(test.call_func, env) == expected, (spec, env)
        outcomes.add(expected is None)
    assert outcomes == {True, False}  # each spec has values that pass and values that fail


def otter_route_case(source: str):
    from otter.test_files import ExceptionTestFile

    (case,) = ExceptionTestFile.from_string(source, "p_ex1.py").test_cases
    return case.body


def test_table_answers_agree_too():
    import pandas as pd

    spec = {"name": "v", "kind": "table", "columns": ["ones"], "key": "protocol", "abs": 0,
            "expected": {"index": ["GRR", "OUE"], "columns": {"ones": [1, 0]}}}
    df = pd.DataFrame({"protocol": ["GRR", "OUE"], "ones": [1, 0]})
    case = otter_route_case(otter_route.otter_test_source("p", 1, [spec]))
    for value in (df, df.iloc[::-1], df.assign(ones=[1, 5]), df.drop(columns="ones"), [1, 0]):
        assert _outcome(check, {"v": value}, spec) == _outcome(case.call_func, {"v": value})


def _outcome(fn, *args):
    try:
        fn(*args)
    except AssertionError as exc:
        return str(exc)
    return None


def test_a_bad_time_limit_is_one_line_before_anything_runs(chapter, tmp_path):
    for bad in (0, -1, float("inf"), True, "600"):
        with pytest.raises(ValueError, match=r"^time_limit must be a positive, finite number of seconds"):
            classroom.export_assignment(chapter, "1", output=tmp_path / "o", time_limit=bad)
    assert not (tmp_path / "o").exists()


@pytest.mark.slow
def test_otter_and_ldpfair_agree_on_a_runaway_loop_and_the_tiny_chapter(tiny, tmp_path):
    """The plugin's time limit: answers bound before a runaway cell count under both graders."""
    subs = write_submissions(tiny.student, tiny.key, tmp_path / "subs")
    loop = nbformat.read(subs["right"], 4)
    at = next(i for i, c in enumerate(loop.cells) if c.metadata.get("ldpfair", {}).get("exercise") == 2)
    loop.cells.insert(at, nbformat.v4.new_code_cell("while True:\n    pass\n"))
    nbformat.write(loop, tmp_path / "subs" / "loop.ipynb")
    subs["loop"] = tmp_path / "subs" / "loop.ipynb"
    key, grades = classroom.grade(list(subs.values()), tiny.key, timeout=20, jobs=2)
    site = install_wheel(tiny.autograder, tmp_path / "site")  # the kernel imports the zip's ldpfair
    table = {kind: (otter_points(tiny.autograder, path, site=site), ldpfair_points(g, "tiny"))
             for (kind, path), g in zip(subs.items(), grades, strict=True)}
    for kind, (otter_pts, ldpfair_pts) in table.items():
        assert otter_pts == ldpfair_pts, (kind, table)
    assert table["right"][0] == {"tiny_ex1": 2.0, "tiny_ex2": 2.0}
    assert table["loop"][0] == {"tiny_ex1": 2.0, "tiny_ex2": 0.0}  # stopped by the limit, ex1 kept
    assert table["blank"][0] == {"tiny_ex1": 0.0, "tiny_ex2": 0.0}


@pytest.mark.slow
@pytest.mark.data
def test_otter_and_ldpfair_give_the_same_points_on_seven_kinds(tmp_path):
    """makhlouf2024: `otter run -a ZIP` (the zip's ldpfair wheel, reading only the files the zip bundles)
    and `ldpfair assignment grade` give the same points per exercise to each kind."""
    from concurrent.futures import ThreadPoolExecutor

    result = classroom.export_assignment("makhlouf2024", output=tmp_path / "mk", context="setup")
    subs = write_submissions(result.student, result.key, tmp_path / "subs")
    assert tuple(subs) == KINDS
    key, grades = classroom.grade(list(subs.values()), result.key, jobs=2)
    site = install_wheel(result.autograder, tmp_path / "site")
    with ThreadPoolExecutor(max_workers=2) as pool:
        otter = list(pool.map(lambda p: otter_points(result.autograder, p, site=site), subs.values()))
    table = {kind: (o, ldpfair_points(g, "makhlouf2024"))
             for kind, o, g in zip(subs, otter, grades, strict=True)}
    for kind, (otter_pts, ldpfair_pts) in table.items():
        assert otter_pts == ldpfair_pts, (kind, table)
    total = {kind: sum(o.values()) for kind, (o, _) in table.items()}
    assert total["right"] == total["other_route"] == total["raises_after"] == key.possible
    assert total["blank"] == 0
    assert 0 < total["wrong"] < key.possible and 0 < total["wrong_type"] < key.possible
    assert 0 < total["raising"] < key.possible


def test_a_raising_key_is_named_at_the_same_cell_with_and_without_the_zip(chapter, tmp_path):
    chapter.write_text(CHAPTER.replace("SOLUTION_ONE = 2 * x", 'raise RuntimeError("broken key")'))
    lines = []
    for otter in (False, True):
        with pytest.raises(ValueError, match=r"^the solution key raised in cell \d+ \(exercise 1\): "
                                             r"RuntimeError: broken key$") as info:
            classroom.export_assignment(chapter, "1,2", output=tmp_path / f"o{otter}", otter=otter)
        lines.append(str(info.value))
    assert lines[0] == lines[1]


def test_the_zip_bundles_the_files_the_key_opened_by_collection(tmp_path, monkeypatch):
    from ldpfair.classroom.export import bundled_files

    data, results = tmp_path / "data", tmp_path / "results"
    (data / "uci-adult").mkdir(parents=True)
    (results / "xu2019").mkdir(parents=True)
    (data / "uci-adult" / "adult.data").write_text("x")
    (results / "xu2019" / "table1.csv.gz").write_text("y")
    (tmp_path / "elsewhere.txt").write_text("z")
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(data))
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(results))
    opened = [str(data / "uci-adult" / "adult.data"), str(results / "xu2019" / "table1.csv.gz"),
              str(tmp_path / "elsewhere.txt"), str(data / "missing.csv"), "/proc/cpuinfo"]
    assert bundled_files(opened) == {"data/uci-adult/adult.data": data / "uci-adult" / "adult.data",
                                     "results/xu2019/table1.csv.gz": results / "xu2019" / "table1.csv.gz"}


@pytest.mark.slow
def test_no_pdf_without_open_questions(chapter, tmp_path):
    """Exercise 2 alone has no open question: the zip asks for no PDF (its filter would keep nothing)."""
    result = classroom.export_assignment(chapter, "2", output=tmp_path / "o")
    config = json.loads(_zip_text(result.autograder)["otter_config.json"])
    assert config["pdf"] is False and config["filtering"] is False
    assert "BEGIN QUESTION" not in result.student.read_text()


def test_without_a_checkout_the_zip_is_refused_in_one_line(chapter, tmp_path, monkeypatch):
    """An installed ldpfair (no pyproject.toml to build the wheel from): said before anything runs."""
    def no_checkout():
        raise ValueError("the Otter autograder needs ldpfair's source checkout to build its wheel; ldpfair "
                         "is imported from /site-packages, which has no pyproject.toml")

    monkeypatch.setattr(otter_route, "checkout", no_checkout)
    with pytest.raises(ValueError, match="needs ldpfair's source checkout"):
        classroom.export_assignment(chapter, "1", output=tmp_path / "o", otter=True)
    assert not (tmp_path / "o").exists()
    result = classroom.export_assignment(chapter, "1", output=tmp_path / "o")
    assert result.autograder is None and result.note.startswith("note: no Otter autograder was written: ")
    assert result.student.is_file() and result.key.is_file()
