"""The book's notebooks executed ahead, one per core, into MyST-NB's cache (book/_ext/ldpfair_execution.py).

The unit tests check what keys the cache; the slow test builds a small book three
times: from nothing (every notebook executed by the extension, none by MyST-NB), again
unchanged (every page from the cache), and after a change to a file that a notebook
reads but whose code cells stay the same (executed again: no stale output is served).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXT = ROOT / "book" / "_ext" / "ldpfair_execution.py"

pytest.importorskip("sphinx")
pytest.importorskip("jupyter_cache")


def _extension():
    spec = importlib.util.spec_from_file_location("ldpfair_execution_under_test", EXT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _git_repo(path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / ".gitignore").write_text("_build/\n", encoding="utf-8")


def test_the_key_covers_files_variables_and_nothing_ignored(tmp_path, monkeypatch):
    ext = _extension()
    _git_repo(tmp_path)
    (tmp_path / "data.txt").write_text("1", encoding="utf-8")
    (tmp_path / "page.md").write_text("# page", encoding="utf-8")
    monkeypatch.delenv("LDPFAIR_DATA_DIR", raising=False)
    first = ext.project_digest(tmp_path)
    assert first["files"] == 3  # .gitignore, data.txt, page.md (untracked files count: not yet committed)
    assert ext.project_digest(tmp_path)["sha256"] == first["sha256"]  # deterministic
    (tmp_path / "_build").mkdir()
    (tmp_path / "_build" / "out.html").write_text("x", encoding="utf-8")
    assert ext.project_digest(tmp_path)["sha256"] == first["sha256"]  # build outputs are not inputs
    (tmp_path / "data.txt").write_text("2", encoding="utf-8")
    changed = ext.project_digest(tmp_path)["sha256"]
    assert changed != first["sha256"]
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(tmp_path))
    assert ext.project_digest(tmp_path)["sha256"] != changed
    (tmp_path / "data.txt").rename(tmp_path / "moved.txt")  # a renamed file is another input
    assert ext.project_digest(tmp_path)["sha256"] != changed


def test_without_git_the_outputs_are_still_left_out(tmp_path, monkeypatch):
    ext = _extension()
    (tmp_path / "a.py").write_text("x = 1", encoding="utf-8")
    for skipped in ("_build", ".jupyter_cache", "runs", "venv"):
        (tmp_path / skipped).mkdir()
        (tmp_path / skipped / "f.txt").write_text("x", encoding="utf-8")
    monkeypatch.setenv("PATH", "")  # no git to ask
    assert [p.name for p in ext._project_files(tmp_path)] == ["a.py"]


NOTEBOOK = """\
---
jupytext:
  text_representation:
    format_name: myst
kernelspec:
  name: python3
  display_name: Python 3
---
# {title}

```{{code-cell}} ipython3
import os
from pathlib import Path
print("{title}", Path("value.txt").read_text().strip(), "pid", os.getppid())
```
"""


def _book(root: Path) -> None:
    _git_repo(root)
    (root / "book" / "_ext").mkdir(parents=True)
    shutil.copy(EXT, root / "book" / "_ext" / "ldpfair_execution.py")
    (root / "_config.yml").write_text(textwrap.dedent("""\
        title: t
        only_build_toc_files: true
        execute:
          execute_notebooks: cache
          timeout: 120
        sphinx:
          local_extensions:
            ldpfair_execution: book/_ext
        """), encoding="utf-8")
    (root / "_toc.yml").write_text("format: jb-book\nroot: intro\nchapters:\n- file: one\n- file: two\n",
                                   encoding="utf-8")
    (root / "intro.md").write_text("# Intro\n\nProse only.\n", encoding="utf-8")
    (root / "one.md").write_text(NOTEBOOK.format(title="one"), encoding="utf-8")
    (root / "two.md").write_text(NOTEBOOK.format(title="two"), encoding="utf-8")
    (root / "value.txt").write_text("first\n", encoding="utf-8")


def _build(root: Path) -> tuple[str, dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LDPFAIR_")}
    jb = shutil.which("jupyter-book", path=str(Path(sys.executable).parent)) or "jupyter-book"
    run = subprocess.run([jb, "build", str(root), "--all", "-W"],
                         capture_output=True, text=True, env=env, timeout=600)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log[-3000:]
    shown = {}
    for page in ("one", "two"):
        html = (root / "_build" / "html" / f"{page}.html").read_text(encoding="utf-8")
        shown[page] = re.search(rf"{page} (\w+) pid (\d+)", html).group(0)
    return log, shown


@pytest.mark.slow
def test_a_book_executes_ahead_reuses_unchanged_outputs_and_reruns_on_any_change(tmp_path):
    _book(tmp_path)
    log, first = _build(tmp_path)
    assert "[ldpfair] executing 2 notebooks" in log and "[ldpfair] 2 notebooks executed" in log
    assert "Executing notebook" not in log  # MyST-NB executed nothing itself
    assert log.count("Using cached notebook") == 2
    assert all("first" in line for line in first.values())
    assert not list(tmp_path.rglob("figures"))  # LDPFAIR_FIGURE_FILES=0 in the build

    log, again = _build(tmp_path)  # nothing changed: every page from the cache, same outputs
    assert "[ldpfair] all 2 notebooks are in the cache" in log and again == first

    (tmp_path / "value.txt").write_text("second\n", encoding="utf-8")  # no code cell changes
    log, third = _build(tmp_path)
    assert "every notebook runs again" in log and "[ldpfair] 2 notebooks executed" in log
    assert all("second" in line for line in third.values())


@pytest.mark.slow
def test_a_failing_notebook_fails_the_build_with_its_error(tmp_path):
    _book(tmp_path)
    page = tmp_path / "two.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace('print("two"', 'raise RuntimeError("boom")\nprint("two"'), encoding="utf-8")
    jb = shutil.which("jupyter-book", path=str(Path(sys.executable).parent)) or "jupyter-book"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LDPFAIR_")}
    run = subprocess.run([jb, "build", str(tmp_path), "--all", "-W"], capture_output=True, text=True, env=env,
                         timeout=600)
    log = re.sub(r"\x1b\[[0-9;]*m", "", run.stdout + run.stderr)  # without the colours
    assert run.returncode != 0
    assert "1 failed and run again by MyST-NB" in log and "RuntimeError: boom" in log
