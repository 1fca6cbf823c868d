"""``ldpfair run``: parameters cell parsing, validation before execution, papermill run."""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import nbformat
import pytest

from ldpfair import cli
from ldpfair.experiments import notebooks as nbk

NOTEBOOK = '''---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# Tiny

```{code-cell} ipython3
:tags: [parameters]

profile = "paper"  # which grid
n = 3
eps = 1.0
names = ["a", "b"]
```

```{code-cell} ipython3
import json, os
os.makedirs("figures", exist_ok=True)
with open("figures/params.json", "w") as fh:
    json.dump({"profile": profile, "n": n, "eps": eps, "names": names}, fh)
n * 2
```
'''


@pytest.fixture
def book(tmp_path):
    folder = tmp_path / "nbs"
    folder.mkdir()
    (folder / "tiny.md").write_text(NOTEBOOK)
    (folder / "notes.md").write_text("# not a notebook\n")
    return folder


def test_read_parameters(book):
    assert nbk.read_parameters(book / "tiny.md") == {
        "profile": "paper", "n": 3, "eps": 1.0, "names": ["a", "b"]}
    bad = book / "bad.md"
    bad.write_text(NOTEBOOK.replace("n = 3", "n = len('abc')"))
    with pytest.raises(ValueError, match="not a literal"):
        nbk.read_parameters(bad)


def test_validate_parameters():
    d = {"profile": "paper", "n": 3, "eps": 1.0, "names": ["a"]}
    assert nbk.validate_parameters(d, {"n": "5", "eps": "2", "profile": "quick"}) == {
        "n": 5, "eps": 2.0, "profile": "quick"}
    assert nbk.validate_parameters(d, {"names": "['x', 'y']"}) == {"names": ["x", "y"]}
    with pytest.raises(ValueError, match=r"unknown parameter 'm' .*valid: profile, n, eps, names"):
        nbk.validate_parameters(d, {"m": "1"})
    with pytest.raises(ValueError, match="expects int"):
        nbk.validate_parameters(d, {"n": "2.5"})
    with pytest.raises(ValueError, match="expects float"):
        nbk.validate_parameters(d, {"eps": "big"})
    with pytest.raises(ValueError, match="profile"):
        nbk.validate_parameters(d, {"profile": "full"})


def test_list(book, capsys):
    assert cli.main(["run", "--list", "--notebooks", str(book)]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and "n = 3 (int)" in out and "notes" not in out


def test_rejected_before_running(book, tmp_path, capsys):
    out = tmp_path / "out" / "tiny.ipynb"
    rc = cli.main(["run", "tiny", "--notebooks", str(book), "-p", "nn", "4", "-o", str(out)])
    assert rc == 2
    err = capsys.readouterr().err
    assert "unknown parameter 'nn' (did you mean 'n'?)" in err and "valid: profile, n, eps, names" in err
    rc = cli.main(["run", "tiny", "--notebooks", str(book), "-p", "n", "'x'", "-o", str(out)])
    assert rc == 2 and "expects int" in capsys.readouterr().err
    rc = cli.main(["run", "nope", "--notebooks", str(book)])
    assert rc == 2 and "available" in capsys.readouterr().err
    assert not out.parent.exists()  # nothing ran


def test_run_executes_with_parameters(book, tmp_path, capsys):
    out = tmp_path / "runs" / "tiny" / "tiny.ipynb"
    rc = cli.main(["run", "tiny", "--notebooks", str(book), "--profile", "quick",
                   "-p", "n", "5", "-p", "names", "['z']", "-o", str(out)])
    assert rc == 0, capsys.readouterr().err
    params = json.loads((out.parent / "tiny_files" / "figures" / "params.json").read_text())
    assert params == {"profile": "quick", "n": 5, "eps": 1.0, "names": ["z"]}
    # a second run with another output does not overwrite the first one's figures
    other = out.parent / "other.ipynb"
    assert cli.main(["run", "tiny", "--notebooks", str(book), "-p", "n", "7", "-o", str(other)]) == 0
    assert json.loads((out.parent / "tiny_files" / "figures" / "params.json").read_text())["n"] == 5
    assert json.loads((out.parent / "other_files" / "figures" / "params.json").read_text())["n"] == 7
    nb = nbformat.read(out, as_version=4)
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1 and "n = 5" in injected[0].source
    assert nb.cells[-1].outputs[0]["data"]["text/plain"] == "10"


PROVENANCE_NOTEBOOK = '''---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

```{code-cell} ipython3
:tags: [parameters]

epsilons = [1.0]
results = ""
```

```{code-cell} ipython3
import numpy as np
import pandas as pd
from ldpfair import experiments as ex
from ldpfair.datasets import Dataset

rng = np.random.default_rng(0)
a, b = rng.integers(0, 2, 300), rng.integers(0, 3, 300)
y = (rng.random(300) < 0.3 + 0.3 * a).astype(np.int64)
toy = Dataset(name="toy", frame=pd.DataFrame({"a": a, "b": b, "y": y}), target="y", protected="a",
              sensitive={"a": 2}, domains={"a": 2, "b": 3, "y": 2})
grid = ex.Grid(datasets=ex.DatasetSpec("toy", dataset=toy), models=ex.ModelSpec("logistic_regression"),
               privatizations=ex.PrivSpec("GRR"), epsilons=epsilons, seeds=2, name="toy")
frame = ex.run_profile({"paper": grid}, "paper", results=results, progress=False)
ex.coverage_note(frame.attrs["coverage"])
```
'''


def test_run_says_which_cells_are_committed_and_computes_the_others(tmp_path, capsys):
    folder = tmp_path / "nbs"
    folder.mkdir()
    (folder / "prov.md").write_text(PROVENANCE_NOTEBOOK)
    committed = tmp_path / "results" / "prov" / "toy"
    # commit the epsilon = 1 cells by running the notebook's paper profile with LDPFAIR_COMPUTE
    code = PROVENANCE_NOTEBOOK.split("```{code-cell} ipython3\n")[2].split("```")[0]
    exec(code.replace('"paper", results=results', '"paper", results=RESULTS, compute=True'),
         {"epsilons": [1.0], "RESULTS": committed})
    assert (committed.parent / "toy.csv.gz").is_file()
    out = tmp_path / "run.ipynb"
    rc = cli.main(["run", "--notebook", str(folder / "prov.md"), "-p", "epsilons", "[1.0, 4.0]",
                   "-p", "results", repr(str(committed)), "-o", str(out)])
    captured = capsys.readouterr()
    assert rc == 0, captured.err
    assert "prov: 2 cells from committed results, 0 from the cache, 2 computed" in captured.out.splitlines()
    nb = nbformat.read(out, as_version=4)
    assert "2 of 4 cells from the committed results, 2 computed now" in str(nb.cells[-1].outputs)
    # the committed grid itself: everything read, nothing computed
    assert cli.main(["run", "--notebook", str(folder / "prov.md"), "-p", "results",
                     repr(str(committed)), "-o", str(tmp_path / "again.ipynb")]) == 0
    assert ("prov: 2 cells from committed results, 0 from the cache, 0 computed"
            in capsys.readouterr().out.splitlines())



def test_run_list_names_one_paper_and_hides_underscored_notebooks(book, capsys):
    (book / "_skeleton.md").write_text(NOTEBOOK)
    (book / "other.md").write_text(NOTEBOOK)
    assert cli.main(["run", "--list", "--notebooks", str(book)]) == 0
    out = capsys.readouterr().out
    assert "other" in out and "tiny" in out and "_skeleton" not in out
    assert cli.main(["run", "--list", "tiny", "--notebooks", str(book)]) == 0
    out = capsys.readouterr().out
    assert "tiny" in out and "other" not in out
    assert cli.main(["run", "--list", "nope", "--notebooks", str(book)]) == 2
    assert cli.main(["run", "_skeleton", "--notebooks", str(book)]) == 2
    assert capsys.readouterr().err.rstrip().endswith(": other, tiny")


def test_failed_run_names_its_partial_notebook_and_keeps_the_output(book, tmp_path, capfd):
    (book / "boom.md").write_text(NOTEBOOK.replace("n * 2", "raise RuntimeError('boom')"))
    out = tmp_path / "boom.ipynb"
    out.write_text("previous")
    rc = cli.main(["run", "boom", "--notebooks", str(book), "-o", str(out)])
    err = capfd.readouterr().err
    assert rc == 1
    assert "failed in cell 2: RuntimeError: boom" in err
    partial = tmp_path / "boom.failed.ipynb"
    assert f"the partially executed notebook: {partial}" in err
    assert out.read_text() == "previous"  # only a complete notebook replaces the output
    assert "boom" in str(nbformat.read(partial, as_version=4).cells[-1].outputs)
    assert not list(tmp_path.glob(".*partial*"))  # no temporary file left behind
    assert "without encryption" not in err  # the kernel talks over IPC


def test_an_existing_output_is_replaced_and_said_so(book, tmp_path, capsys):
    out = tmp_path / "tiny.ipynb"
    assert cli.main(["run", "tiny", "--notebooks", str(book), "-o", str(out)]) == 0
    assert "replaced" not in capsys.readouterr().out
    assert cli.main(["run", "tiny", "--notebooks", str(book), "-o", str(out)]) == 0
    assert f"executed notebook: {out} (replaced the previous one)" in capsys.readouterr().out
    assert nbformat.read(out, as_version=4).cells[-1].outputs
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask  # as any new file, not mkstemp's 0600


MYST = """(sec-a)=
# Title

As {cite:t}`xu2019` and {cite:p}`arcolezi2023,xu2019` show; see {ref}`below <sec-a>`,
{ref}`elsewhere`, {doc}`the scoreboard <../book/scoreboard>` and {math}`x^2`.

:::{admonition} Did it reproduce?
:class: verdict-box

**Yes**, mostly.
:::

```{exercise} A title
:label: ex-1

Do it.
```

```{glue:figure} curve
:name: fig-curve
:alt: A curve.

**A curve**, drawn.
```
"""


def test_myst_markup_is_converted_for_plain_jupyter():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(MYST),
        nbformat.v4.new_code_cell("x = 1\n# {cite:t}`xu2019` stays in code"),
    ])
    nb.cells[1].outputs = [nbformat.v4.new_output("display_data", data={
        "text/markdown": ":::{note}\nA {doc}`page <p>`.\n:::"})]
    nbk.myst_to_jupyter(nb, doc_base="https://x/")
    md = nb.cells[0].source
    assert md.startswith('<a id="sec-a"></a>\n# Title')
    assert "As Xu et al. (2019) and (Arcolezi et al. 2023; Xu et al. 2019) show" in md
    assert "see [below](#sec-a),\nelsewhere, [the scoreboard](https://x/book/scoreboard.md) and $x^2$." in md
    assert "> **Did it reproduce?**\n>\n> **Yes**, mostly." in md
    assert '<a id="ex-1"></a>\n> **Exercise: A title**\n>\n> Do it.' in md
    assert md.endswith('<a id="fig-curve"></a>\n> **A curve**, drawn.\n')  # the figure: the output above
    assert ":::" not in md and "{" not in md.replace("$x^2$", "")
    assert "{cite:t}" in nb.cells[1].source
    assert nb.cells[1].outputs[0]["data"]["text/markdown"] == "> **Note**\n>\n> A [page](https://x/notebooks/p.md)."


def _papers():
    from ldpfair.papers import PAPERS

    return PAPERS


@pytest.mark.parametrize("paper", _papers())
def test_parameters_cell_comments_are_generated_from_the_declaration(paper):
    path = nbk.notebooks_dir() / f"{paper}.md"
    assert nbk.read_parameters(path).keys() == nbk.DECLARATIONS[paper].keys()
    assert not nbk.sync_parameters_cell(path, write=False), (
        f"the parameters cell of {path} differs from its declaration: run "
        f"ldpfair.experiments.notebooks.sync_parameters_cell({str(path)!r})")


def _first_cells(paper: str) -> str:
    """The lines of the notebook's setup cell that check its parameters (import and call)."""
    import jupytext

    nb = jupytext.read(nbk.notebooks_dir() / f"{paper}.md")
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    lines = [ln for ln in code.splitlines() if "check_notebook" in ln]
    return "\n".join(ln.strip() for ln in lines)


def _enumerable():
    from ldpfair.experiments.notebooks import DECLARATIONS

    for paper in _papers():
        for name, d in DECLARATIONS[paper].items():
            for value in d.values or ():
                yield pytest.param(paper, name, value, id=f"{paper}-{name}-{value}")


@pytest.mark.parametrize(("paper", "name", "value"), list(_enumerable()))
def test_every_declared_value_passes_the_cli_and_the_notebooks_first_cells(paper, name, value):
    defaults = nbk.read_parameters(nbk.notebooks_dir() / f"{paper}.md")
    # the CLI: validation and the grid builder
    got = nbk.validate_parameters(defaults, {name: repr(value)}, paper=paper)
    assert got == {name: value}
    # the notebook: its parameters cell, the injected value, its own check
    namespace = {**defaults, name: value}
    exec(compile(_first_cells(paper), f"{paper}-first-cells", "exec"), namespace)  # noqa: S102


@pytest.mark.parametrize("paper", _papers())
def test_every_notebook_checks_its_parameters_with_the_declaration(paper):
    assert _first_cells(paper).splitlines() == [
        "from ldpfair.experiments.notebooks import check_notebook",
        f'check_notebook("{paper}", globals())  # the declaration `ldpfair run` checks too']


def test_the_xu2019_notebook_checks_its_parameters_with_the_declaration():
    first = _first_cells("xu2019")
    assert 'check_notebook("xu2019", globals())' in first
    namespace = {**nbk.read_parameters(nbk.notebooks_dir() / "xu2019.md"), "reading": "v0+zhang"}
    with pytest.raises(ValueError, match="parameter 'reading' must be one of 'paper', 'paper-zhang', 'v0'"):
        exec(compile(first, "xu2019-first-cells", "exec"), namespace)  # noqa: S102
    namespace["reading"], namespace["features"] = "paper-zhang", "counts"
    exec(compile(first, "xu2019-first-cells", "exec"), namespace)  # noqa: S102
    assert ast.literal_eval(repr(namespace["features"])) == "counts"


def test_book_kernels_get_absolute_paths_and_ipc(tmp_path, monkeypatch, capfd):
    pytest.importorskip("myst_nb")
    from myst_nb.core.execute import direct

    (tmp_path / "caller").mkdir()
    (tmp_path / "kernel").mkdir()
    monkeypatch.chdir(tmp_path / "caller")
    monkeypatch.setenv("LDPFAIR_DATA_DIR", "../data")
    nbk.prepare_book_kernels()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from ldpfair import config; print(config.data_dir())")])
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    result = direct.single_nb_execution(nb, cwd=str(tmp_path / "kernel"), timeout=120, allow_errors=False)
    assert result.err is None
    assert nb.cells[0].outputs[0]["text"].strip() == str(tmp_path / "data")
    assert "without encryption" not in capfd.readouterr().err


def test_readme_states_what_ldpfair_run_does():
    import re

    readme = (nbk.config._REPO / "README.md").read_text(encoding="utf-8")
    assert "`OUT_files/figures/<paper>/`" in readme  # where a chapter's style.savefig writes
    assert "12 from the\ncache, 56 computed" in readme  # the run summary's wording
    assert not re.search(r"\d\s+core-hours", readme), "compute the cost (--dry-run), do not type it"
    assert "<!-- durations -->" in readme or re.search(r"\d+ (s|min)\b.*2-core", readme)


def _downloads_extension():
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "book" / "_ext" / "ldpfair_downloads.py"
    spec = importlib.util.spec_from_file_location("ldpfair_downloads_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_MYST_ONLY = re.compile(
    r":::\{|```\{|\{(?:doc|ref|numref|eq|cite(?::\w+)?|math|term|abbr)\}`|^\([\w:.-]+\)=\s*$", re.M)


def test_book_download_of_a_chapter_has_no_myst_only_markup(tmp_path):
    """The .ipynb the book offers for download shows no raw MyST in plain Jupyter (issue #36)."""
    ext = _downloads_extension()
    source = nbk.notebooks_dir() / "xu2019.md"
    raw = source.read_text(encoding="utf-8")
    assert _MYST_ONLY.search(raw), "the chapter has no MyST-only markup left to test the conversion on"
    target = tmp_path / "xu2019.ipynb"
    ext._write_ipynb(source, target)
    nb = nbformat.read(target, as_version=4)
    nbformat.validate(nb)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    found = sorted({m.group(0).strip() for m in _MYST_ONLY.finditer(markdown)})
    assert not found, f"MyST-only markup left in the download: {found}"
    assert "> **" in markdown and "](" in markdown  # directives became quotes, roles links
    assert any("parameters" in (c.metadata.get("tags") or []) for c in nb.cells if c.cell_type == "code")
    assert "jupytext" not in nb.metadata


def test_a_run_killed_outright_leaves_a_temporary_file_that_a_later_run_sweeps(book, tmp_path):
    """``kill -9`` cannot clean up; the hidden file names its process, and execute() sweeps it first."""
    import signal
    import subprocess
    import sys
    import time

    (book / "slow.md").write_text(NOTEBOOK.replace("n * 2", "__import__('time').sleep(60)"))
    out = tmp_path / "slow.ipynb"
    cli_main = "import sys; from ldpfair.cli import main; sys.exit(main())"
    proc = subprocess.Popen([sys.executable, "-c", cli_main, "run", "slow", "--notebooks", str(book),
                             "-o", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".slow.pid*.partial.ipynb")) and time.monotonic() < deadline:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    left = list(tmp_path.glob(".slow.pid*.partial.ipynb"))
    assert left and not out.exists()  # what kill -9 leaves: the hidden temporary file only
    live = tmp_path / f".slow.pid{os.getpid()}.x.partial.ipynb"  # a run still going: left alone
    live.write_text("{}")
    assert nbk._sweep_partials(out) == left
    assert not any(p.exists() for p in left) and live.exists()
