"""Attacks on the grader: each runs in bubblewrap and gets 0 or its honest score; the key never changes."""

from __future__ import annotations

import csv
import hashlib
import io
import shutil
import socket
import textwrap
from pathlib import Path

import nbformat
import pytest
from test_classroom import CHAPTER

from ldpfair import classroom
from ldpfair.classroom import sandbox

pytestmark = pytest.mark.skipif(sandbox.bwrap() is None, reason="bubblewrap (bwrap) is not installed")

#: Every route to the key tried in the issue: the grader's command line (/proc/<pid>/cmdline), a file
#: search for *_solutions.ipynb, a pre_run_cell hook reading the hidden tests, replacing run_checks;
#: whatever it finds it binds, and it rewrites every key it sees.
STEAL = textwrap.dedent('''\
    import ast, glob, json, os
    import ldpfair.classroom.checks as _c
    _found = {}
    def _from_key(path):
        try:
            nb = json.load(open(path))
            for e in nb["metadata"]["ldpfair"]["exercises"]:
                for a in e["graded"]["answers"]:
                    _found[a["name"]] = a["expected"]
                    a["expected"] = "corrupted"
            with open(path, "w") as fh:
                json.dump(nb, fh)
        except Exception:
            pass
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                args = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\\0")
            except OSError:
                continue
            for a in args:
                if a.endswith(b".ipynb"):
                    _from_key(os.path.join(os.readlink(f"/proc/{pid}/cwd"), a.decode()))
    import subprocess
    for line in open("/proc/self/mounts"):  # uncover what the sandbox hid (needs CAP_SYS_ADMIN)
        if line.split()[2] == "tmpfs":
            subprocess.run(["umount", "-l", line.split()[1]], capture_output=True)
    for root in ("/tmp", os.path.expanduser("~"), os.getcwd(), "/home", "/root"):
        for path in glob.glob(os.path.join(root, "**", "*_solutions.ipynb"), recursive=True):
            _from_key(path)
    globals().update(_found)
    def _peek(info):
        src = info.raw_cell or ""
        if "_run_checks(globals(), " in src:
            specs = ast.literal_eval(src.split("_run_checks(globals(), ", 1)[1].rsplit(")))", 1)[0])
            get_ipython().user_ns.update({s["name"]: s["expected"] for s in specs})
    get_ipython().events.register("pre_run_cell", _peek)
    _c.run_checks = lambda env, specs: [{"name": s["name"], "points": float(s.get("points", 1)),
                                         "score": float(s.get("points", 1)), "message": ""} for s in specs]
    ''')

KILL_PARENT = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nos.kill(-1, signal.SIGKILL)\n"
SWALLOW = ("import time\nwhile True:\n    try:\n        time.sleep(0.05)\n"
           "    except KeyboardInterrupt:\n        pass\n")
IGNORE_SIGINT = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass\n"
FORK_BOMB = ("import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n")
MEMORY_BOMB = "hog = []\nwhile True:\n    hog.append(bytearray(2**28))\n"


@pytest.fixture
def course(tmp_path: Path):
    """A tiny chapter exported to ``course/`` (student copy and key), with the key's digest."""
    path = tmp_path / "notebooks" / "tiny.md"
    path.parent.mkdir()
    path.write_text(CHAPTER)
    result = classroom.export_assignment(path, "1,2", output=tmp_path / "course", otter=False)
    return result, hashlib.sha256(result.key.read_bytes()).hexdigest()


def _submission(source: Path, out: Path, cell: str, *, at_end: bool = True) -> Path:
    nb = nbformat.read(source, 4)
    new = nbformat.v4.new_code_cell(cell)
    nb.cells = [*nb.cells, new] if at_end else [new, *nb.cells]
    out.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, out)
    return out


def _unchanged(result, digest: str) -> None:
    assert hashlib.sha256(result.key.read_bytes()).hexdigest() == digest


def test_stealing_the_key_gets_zero_and_leaves_it_intact(course, tmp_path):
    result, digest = course
    cheat = _submission(result.student, tmp_path / "subs" / "cheat.ipynb", STEAL)
    honest = _submission(result.key, tmp_path / "subs" / "honest.ipynb", "print('done')")
    key, (g_cheat, g_honest) = classroom.grade([cheat, honest], result.key, timeout=60)
    assert g_cheat.score == 0, classroom.format_grade(g_cheat, key)
    assert g_honest.score == key.possible, classroom.format_grade(g_honest, key)
    _unchanged(result, digest)


@pytest.mark.slow
def test_the_same_theft_succeeds_without_the_sandbox(course, tmp_path):
    """The attack is real: unsandboxed (trusted submissions only), it gets full marks and corrupts the key."""
    result, _ = course
    copy = tmp_path / "copy"
    shutil.copytree(result.key.parent, copy)
    cheat = _submission(copy / "tiny_assignment.ipynb", tmp_path / "subs" / "cheat.ipynb", STEAL)
    key, (g_cheat,) = classroom.grade([cheat], copy / "tiny_solutions.ipynb", timeout=60, sandboxed=False)
    assert g_cheat.score == key.possible, classroom.format_grade(g_cheat, key)


@pytest.mark.slow
@pytest.mark.parametrize("attack", [KILL_PARENT, SWALLOW, IGNORE_SIGINT, FORK_BOMB, MEMORY_BOMB],
                         ids=["sigkill-parent", "swallow-interrupt", "ignore-sigint", "fork-bomb",
                              "memory-bomb"])
def test_runaway_cells_keep_the_answers_bound_before(attack, course, tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "GRACE", 3.0)
    result, digest = course
    bomb = _submission(result.key, tmp_path / "subs" / "bomb.ipynb", attack)
    honest = _submission(result.key, tmp_path / "subs" / "honest.ipynb", "print('done')")
    key, (g_bomb, g_honest) = classroom.grade([bomb, honest], result.key, timeout=15)
    assert g_bomb.score == key.possible, classroom.format_grade(g_bomb, key)
    assert g_honest.score == key.possible, classroom.format_grade(g_honest, key)
    rows = classroom.grades_csv([g_bomb, g_honest], key).splitlines()
    assert len(rows) == 3
    _unchanged(result, digest)


@pytest.mark.slow
def test_no_network(course, tmp_path):
    """A server on the grader's loopback is out of reach: a submission that reaches it loses its points."""
    result, digest = course
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    cell = (f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=3)\n"
            "    SOLUTION_ONE = -1\nexcept OSError:\n    pass\n")
    try:
        sub = _submission(result.key, tmp_path / "subs" / "net.ipynb", cell)
        key, (g,) = classroom.grade([sub], result.key, timeout=30)
        key, (g_open,) = classroom.grade([sub], result.key, timeout=30, sandboxed=False)
    finally:
        server.close()
    assert g.score == key.possible, classroom.format_grade(g, key)
    assert g_open.score < key.possible  # the same cell reaches the server outside the sandbox
    _unchanged(result, digest)


def test_grade_refuses_without_bubblewrap(course, monkeypatch):
    result, _ = course
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    with pytest.raises(ValueError, match=r"install it \(apt-get install bubblewrap\) or pass --unsandboxed"):
        classroom.grade([result.student], result.key)


def test_gradebook_and_feedback(course, tmp_path):
    result, _ = course
    nb = nbformat.read(result.key, 4)
    nb.metadata["ldpfair"]["student"] = "s-042"
    nb.cells.append(nbformat.v4.new_code_cell("SOLUTION_TWO = 7.25\nraise ValueError('after the answers')"))
    (tmp_path / "subs").mkdir()
    nbformat.write(nb, tmp_path / "subs" / "anna.ipynb")
    key, grades = classroom.grade([tmp_path / "subs" / "anna.ipynb"], result.key, timeout=60)
    (row,) = csv.DictReader(io.StringIO(classroom.grades_csv(grades, key)))
    assert row["student"] == "s-042" and row["submitted"].endswith("Z") and row["ex1.manual1"] == ""
    assert row["score"] == "3" and row["ex2.SOLUTION_TWO"] == "0" and row["ex1.SOLUTION_ONE"] == "2"
    assert row["status"] == "exercise 2 raised ValueError: after the answers"
    (quiet,) = classroom.write_feedback(grades, key, tmp_path / "fb")
    (loud,) = classroom.write_feedback(grades, key, tmp_path / "fb2", show_expected=True)
    assert quiet.name == "s-042.txt"
    assert "SOLUTION_TWO (0 / 1): SOLUTION_TWO: the value is not right, got 7.25" in quiet.read_text()
    assert "122" not in quiet.read_text() and "expected 122 ± 0.5, got 7.25" in loud.read_text()


@pytest.mark.slow
def test_an_answers_file_made_a_fifo_does_not_hang_the_grader(course, tmp_path):
    result, digest = course
    cell = ("import os\nget_ipython().events.callbacks['post_run_cell'].clear()\n"
            "os.remove('/tmp/work/answers.json')\nos.mkfifo('/tmp/work/answers.json')\n")
    fifo = _submission(result.key, tmp_path / "subs" / "fifo.ipynb", cell)
    honest = _submission(result.key, tmp_path / "subs" / "honest.ipynb", "print('done')")
    key, (g_fifo, g_honest) = classroom.grade([fifo, honest], result.key, timeout=30)
    assert g_fifo.score == 0 and g_honest.score == key.possible
    _unchanged(result, digest)
