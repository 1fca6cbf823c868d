"""Issue 25 at the command line: one-line errors, declared notebook parameters, tamper-evident results."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from ldpfair import cli
from ldpfair.experiments import notebooks as nbk
from ldpfair.experiments.notebooks import DECLARATIONS

ROOT = Path(__file__).resolve().parents[1]


def ldpfair(*args: str, env: dict[str, str] | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ldpfair.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          timeout=timeout)


def assert_one_line_error(proc: subprocess.CompletedProcess, rc: int, *needles: str) -> None:
    assert proc.returncode == rc, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert lines and all(line.startswith("ldpfair") and ": error: " in line for line in lines), lines
    for needle in needles:
        assert needle in proc.stderr, proc.stderr


# ----------------------------------------------------------------------------- declared parameters
@pytest.mark.parametrize("paper", sorted(DECLARATIONS))
def test_every_notebook_parameter_is_declared_and_its_default_valid(paper):
    defaults = nbk.read_parameters(ROOT / "notebooks" / f"{paper}.md")
    assert list(DECLARATIONS[paper]) == list(defaults)
    for name, value in defaults.items():
        assert DECLARATIONS[paper][name].check(value, name) == value


BAD = [
    ("epsilons", '"abc"', "must be None"),
    ("epsilons", "[1,2", "cannot parse '[1,2'"),
    ("epsilons", "[0.5, 0]", "(0, inf)"),
    ("epsilons", "[1e-300]", "too small"),
    ("seeds", "-3", "a number of seeds >= 1"),
    ("seeds", "[2, 2]", "a seed is repeated"),
    ("datasets", "lsac", "cannot parse 'lsac'"),
    ("datasets", '["lsca"]', "did you mean 'lsac'?"),
    ("protocols", '["GRR", "oue"]', "did you mean 'OUE'?"),
    ("n_jobs", "0", "n_jobs"),
    ("n_jobs", "1000000", "n_jobs"),
    ("n_jobs", "'2'", "n_jobs"),
    ("profile", "quik", "did you mean 'quick'?"),
    ("appendix", "1", "True or False"),
    ("fig1_value", "7", "an integer from 0 to 4"),
    ("epsilonz", "[1]", "did you mean 'epsilons'?"),
]


@pytest.mark.parametrize(("name", "value", "needle"), BAD)
def test_bad_parameter_fails_in_validation(name, value, needle):
    defaults = nbk.read_parameters(ROOT / "notebooks" / "arcolezi2023.md")
    with pytest.raises(ValueError, match=None) as info:
        nbk.validate_parameters(defaults, {name: value}, paper="arcolezi2023")
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_good_parameters_pass_the_grid_builder_and_a_bad_combination_does_not(monkeypatch):
    defaults = nbk.read_parameters(ROOT / "notebooks" / "ghoukasian2025.md")
    ok = nbk.validate_parameters(defaults, {"figures": '["fig2"]', "seeds": "3", "epsilons": "[1, 2.5]"},
                                 paper="ghoukasian2025")
    assert ok == {"figures": ["fig2"], "seeds": 3, "epsilons": [1.0, 2.5]}
    import dataclasses

    from ldpfair import papers

    def refuse(profile):
        raise ValueError("no such figure for these mechanisms")

    refusing = dataclasses.replace(papers.spec("ghoukasian2025"), declare=refuse)
    monkeypatch.setattr(papers, "spec", lambda paper: refusing)
    with pytest.raises(ValueError, match="refused by its grid builder: no such figure"):
        nbk.validate_parameters(defaults, {"seeds": "3"}, paper="ghoukasian2025")


def test_bad_parameter_is_refused_before_anything_heavy_is_imported(tmp_path):
    """The CLI refuses a bad value without importing the engine, a chapter's figures or checks, or a kernel.

    The declarations come from the chapter's cheap ``experiments`` module (its SPEC).
    """
    out = tmp_path / "o.ipynb"
    code = (
        "import sys\nfrom ldpfair import cli\n"
        f"rc = cli.main(['run', 'arcolezi2023', '-o', {str(out)!r}, '-p', 'seeds', '-3'])\n"
        "heavy = [m for m in ('sklearn', 'papermill', 'matplotlib', 'ldpfair.experiments.engine', "
        "'ldpfair.papers.arcolezi2023.figures', 'ldpfair.papers.arcolezi2023.checks') if m in sys.modules]\n"
        "print(rc, heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert proc.stdout.strip() == "2 []", (proc.stdout, proc.stderr)
    assert "parameter 'seeds' must be" in proc.stderr
    assert not out.exists() and not (tmp_path / "o_files").exists()


def test_list_prints_meaning_and_domain(capsys):
    assert cli.main(["run", "--list"]) == 0
    out = capsys.readouterr().out
    assert "epsilons = None: privacy budgets" in out
    assert "valid: None (the profile's budgets, paper: 0.25 ... 50) or a non-empty list" in out


# ----------------------------------------------------------------------------- one-line CLI errors
def test_cli_failures_are_one_line(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    probes = [
        (["run", "xu2019", "--prepare-only", "-o", str(afile / "x.ipynb")], 2, "is a file"),
        (["run", "xu2019", "--prepare-only", "-o", str(tmp_path / "x.txt")], 2, ".ipynb"),
        (["run", "--notebook", str(tmp_path), "--prepare-only"], 2, "is a folder"),
        (["run", "xu2091"], 2, "did you mean 'xu2019'?"),
        (["run", "xu2019", "-p", "reading", "paper-zang", "--prepare-only", "-o", str(tmp_path / "y.ipynb")],
         2, "did you mean 'paper-zhang'?"),
        (["results", "verify", "--cells", "-1"], 2, "--cells: expected an integer >= 1"),
        (["results", "verify", "--cells", "0"], 2, "--cells: expected an integer >= 1"),
        (["results", "verify", "--n-jobs", "0"], 2, "--n-jobs"),
        (["results", "verify", "--paper", "xu2091"], 2, "did you mean 'xu2019'?"),
        (["results", "stamp", "xu2091"], 2, "did you mean 'xu2019'?"),
        (["data", "verify", "--collection", "nope"], 2, "invalid choice"),
        (["nosuchcommand"], 2, "invalid choice"),
    ]
    for args, rc, needle in probes:
        assert_one_line_error(ldpfair(*args), rc, needle)
    assert not (tmp_path / "y_files").exists()


def test_data_verify_reports_every_file_even_unreadable_ones(monkeypatch, capsys):
    from ldpfair.datasets import registry

    real = registry.file_sha256
    seen = []

    def flaky(path):
        seen.append(path)
        if len(seen) == 1:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(registry, "file_sha256", flaky)
    rc = cli.main(["data", "verify", "--collection", "reference"])
    out, err = capsys.readouterr()
    n = len(registry.get_registry("reference").entries)
    present = sum(registry.get_registry("reference").path(k).is_file()
                  for k in registry.get_registry("reference").entries)
    assert rc == 1 and "unreadable" in out and "Permission denied" in out
    assert len(seen) == present and f"{n - 1} of {n} files ok" in out if present == n else True
    assert err.count("\n") == 1 and "ldpfair data: error:" in err


# ----------------------------------------------------------------------------- results verify
@pytest.fixture()
def results_copy(tmp_path):
    dst = tmp_path / "results"
    shutil.copytree(ROOT / "results" / "xu2019", dst / "xu2019")
    return dst


def _tamper(csv: Path, how: str) -> None:
    frame = pd.read_csv(csv)
    if how == "values":
        frame.loc[frame.index[2:], "accuracy"] = 0.5  # 278 of 280 rows
    elif how == "delete":
        frame = frame.iloc[10:]
    elif how == "duplicate":
        frame = pd.concat([frame, frame.iloc[[3]]])
    if how in ("values", "delete", "duplicate"):
        frame.to_csv(csv, index=False, compression={"method": "gzip", "mtime": 0})
    elif how == "truncate":
        csv.write_bytes(csv.read_bytes()[:200])
    elif how == "not_gzip":
        csv.write_text("key,acc\n")


@pytest.mark.parametrize("how", ["values", "delete", "duplicate", "truncate", "not_gzip"])
def test_results_verify_fails_on_each_tampering(results_copy, how):
    csv = results_copy / "xu2019" / "table1.csv.gz"
    _tamper(csv, how)
    proc = ldpfair("results", "verify", "--paper", "xu2019", "--seed", "1",
                   env={"LDPFAIR_RESULTS_DIR": str(results_copy)})
    assert_one_line_error(proc, 1, str(csv), "sha256")


def test_results_stamp_refuses_an_edited_file_unless_trusted(results_copy):
    csv = results_copy / "xu2019" / "table1.csv.gz"
    _tamper(csv, "values")
    env = {"LDPFAIR_RESULTS_DIR": str(results_copy)}
    refused = ldpfair("results", "stamp", "xu2019", env=env)
    assert_one_line_error(refused, 1, str(csv), "no longer match the content digest", "--trust")
    trusted = ldpfair("results", "stamp", "xu2019", "--trust", env=env)
    assert trusted.returncode == 0 and f"{csv}: 700 rows" in trusted.stdout and "(trusted)" in trusted.stdout
    meta = json.loads((results_copy / "xu2019" / "table1.meta.json").read_text())
    assert "trusted" in meta["content"]  # verify recomputes all its cells (tests/test_integrity.py)


@pytest.mark.parametrize("gone", ["table1.csv.gz", "table1.meta.json"])
def test_results_status_fails_on_a_missing_file_or_meta(results_copy, gone):
    (results_copy / "xu2019" / gone).unlink()
    proc = ldpfair("results", "status", "--paper", "xu2019",
                   env={"LDPFAIR_RESULTS_DIR": str(results_copy)})
    assert_one_line_error(proc, 1, str(results_copy / "xu2019" / gone), "missing")
    assert proc.stderr.count("\n") == 1


def test_results_verify_fails_on_a_missing_file(results_copy):
    (results_copy / "xu2019" / "table1.csv.gz").unlink()
    proc = ldpfair("results", "verify", "--paper", "xu2019", "--seed", "1",
                   env={"LDPFAIR_RESULTS_DIR": str(results_copy)})
    assert_one_line_error(proc, 1, str(results_copy / "xu2019" / "table1.csv.gz"), "missing")


def test_results_verify_and_status_fail_on_an_empty_results_folder(tmp_path):
    env = {"LDPFAIR_RESULTS_DIR": str(tmp_path)}
    for action in (("verify", "--seed", "1"), ("status",)):
        proc = ldpfair("results", *action, env=env)
        assert_one_line_error(proc, 1, str(tmp_path / "xu2019" / "table1.csv.gz"), "missing")
        assert "verified" not in proc.stdout


def test_the_paper_profile_names_a_missing_file_and_the_scoreboard_says_not_yet(results_copy, monkeypatch):
    from ldpfair.experiments.results import ResultsIntegrityError
    from ldpfair.papers import spec
    from ldpfair.scoreboard import paper_scoreboard

    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(results_copy))
    monkeypatch.delenv("LDPFAIR_COMPUTE", raising=False)
    assert paper_scoreboard("xu2019").set_index("item").at["Figure 1", "status"] != "not yet"
    (results_copy / "xu2019" / "fig1.csv.gz").unlink()
    with pytest.raises(ResultsIntegrityError, match="fig1.csv.gz: missing"):
        spec("xu2019").results("paper")
    # the scoreboard never judges without the file: the item it feeds is "not yet" (its contract)
    assert paper_scoreboard("xu2019").set_index("item").at["Figure 1", "status"] == "not yet"
