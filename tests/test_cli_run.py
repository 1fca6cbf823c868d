"""``ldpfair run``: parameters cell parsing, validation before execution, papermill run."""

from __future__ import annotations

import json

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
    assert "prov: 2 cells from committed results, 2 computed" in captured.out.splitlines()
    nb = nbformat.read(out, as_version=4)
    assert "2 of 4 cells from the committed results, 2 computed now" in str(nb.cells[-1].outputs)
    # the committed grid itself: everything read, nothing computed
    assert cli.main(["run", "--notebook", str(folder / "prov.md"), "-p", "results",
                     repr(str(committed)), "-o", str(tmp_path / "again.ipynb")]) == 0
    assert "prov: 2 cells from committed results, 0 computed" in capsys.readouterr().out.splitlines()
