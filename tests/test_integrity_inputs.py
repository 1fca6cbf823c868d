"""Issue 48: the last silent or unclear inputs get one clear line (or the right result)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair import environment as env
from ldpfair.cli import EXIT_PIPE, main
from ldpfair.datasets.user_cards import read_card
from ldpfair.experiments.results_files import ResultsIntegrityError
from ldpfair.ldp import GRR, OUE

ROOT = Path(__file__).resolve().parents[1]


def one_error_line(capsys, rc: int, got: int, *needles: str) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert got == rc and len(err) == 1 and "Traceback" not in err[0], (got, err)
    for needle in needles:
        assert needle in err[0], err
    return err[0]


# ----------------------------------------------------------------------------- results verify --env
def test_verify_env_on_an_empty_folder_fails_with_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path))
    got = main(["results", "verify", "--env", "--paper", "xu2019"])
    one_error_line(capsys, 1, got, "no results metadata", str(tmp_path / "xu2019"))


@pytest.mark.parametrize("extra", [["--all"], ["--seed", "3"], ["--base", "HEAD^"]])
def test_verify_env_refuses_options_it_would_ignore(extra, capsys):
    got = main(["results", "verify", "--env", "--paper", "xu2019", *extra])
    one_error_line(capsys, 2, got, f"drop {extra[0]}")


def test_a_blas_string_is_one_kernel_not_letters():
    meta = {"machine": {"blas": "openblas:Haswell"}, "libraries": {}}
    diffs = env.compare(meta, installed={}, kernels=["openblas:SkylakeX"])
    assert [str(d) for d in diffs] == ["BLAS openblas:Haswell when committed, openblas:SkylakeX installed"]
    table = env.environment_table({"a": meta}).set_index("package")
    shown = table.loc["BLAS", "committed"]
    assert "openblas:Haswell" in shown and ", o, " not in shown


def test_a_damaged_meta_names_its_file(tmp_path):
    meta = tmp_path / "x.meta.json"
    meta.write_text('{"sha256": ')
    with pytest.raises(ResultsIntegrityError, match=r"x\.meta\.json: not readable JSON metadata"):
        env.read_meta(meta)


def test_doctor_reports_a_lock_line_that_is_no_exact_pin(tmp_path, monkeypatch, capsys):
    lock = tmp_path / "lock.txt"
    lock.write_text("numpy>=1\n")
    monkeypatch.setattr(env, "lock_path", lambda: lock)
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "lock: " in out and "not an exact pin (name==version): 'numpy>=1'" in out
    assert "kernels (threadpoolctl):" in out and "results: " in out  # the report went on


# ----------------------------------------------------------------------------- dataset cards
def _card(tmp_path: Path, frame: pd.DataFrame, name: str = "toy") -> Path:
    frame.to_csv(tmp_path / "t.csv", index=False)
    path = tmp_path / "card.toml"
    path.write_text(f'name = {json.dumps(name)}\nfile = "t.csv"\ntarget = "y"\nfavourable = "good"\n'
                    'protected = "g"\nprivileged = "a"\n')
    return path


def _frame(n: int = 6) -> pd.DataFrame:
    return pd.DataFrame({"x": np.arange(n, dtype=float), "g": ["a", "b"] * (n // 2),
                         "y": ["good", "bad", "bad"] * (n // 3)})


@pytest.mark.parametrize("name", ["../../evil", "", "a/b", ".hidden"])
def test_a_card_name_must_be_a_plain_name(tmp_path, name):
    with pytest.raises(ValueError, match="'name' must be a plain name") as info:
        read_card(_card(tmp_path, _frame(), name))
    assert len(str(info.value).splitlines()) == 1


def test_a_plain_card_name_is_kept(tmp_path):
    card, _ = read_card(_card(tmp_path, _frame(), "law_school-2"))
    assert card.name == "law_school-2"


def test_inf_in_a_numeric_feature_is_refused(tmp_path):
    frame = _frame()
    frame.loc[3, "x"] = np.inf
    with pytest.raises(ValueError, match=r"feature 'x' has 1 infinite value\(s\), e.g. in data row 4"):
        read_card(_card(tmp_path, frame))


def test_a_two_row_table_is_refused(tmp_path):
    frame = pd.DataFrame({"x": [1.0, 2.0], "g": ["a", "b"], "y": ["good", "bad"]})
    with pytest.raises(ValueError, match="has 2 rows; a dataset needs at least 5"):
        read_card(_card(tmp_path, frame))


# ----------------------------------------------------------------------------- command line
def _cli(*args: str, pipe_to: str | None = None) -> subprocess.CompletedProcess:
    environ = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "ldpfair.cli", *args]
    if pipe_to is None:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=environ, timeout=300)
    script = " ".join(map(str, cmd)) + f" | {pipe_to}; echo rc=${{PIPESTATUS[0]}} >&2"
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=ROOT, env=environ,
                          timeout=300)


def test_run_list_into_head_ends_silently():
    proc = _cli("run", "--list", pipe_to="head -2")
    assert len(proc.stdout.splitlines()) == 2
    assert "BrokenPipe" not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [f"rc={EXIT_PIPE}"]


def test_no_command_is_a_usage_error_on_stderr(capsys):
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("usage: ldpfair")
    assert captured.err.strip().splitlines()[-1] == "ldpfair: error: name a command (see the list above)"


def test_run_with_an_unknown_kernel_names_the_installed_ones(capsys, tmp_path):
    got = main(["run", "xu2019", "--kernel", "nosuchkernel", "-o", str(tmp_path / "o.ipynb")])
    one_error_line(capsys, 2, got, "--kernel 'nosuchkernel': no such Jupyter kernel", "installed: ")
    assert not (tmp_path / "o.ipynb").exists()


def test_compute_with_an_unwritable_cache_fails_first(capsys, monkeypatch):
    from ldpfair.experiments import recompute

    monkeypatch.setattr(recompute, "plan", lambda *a, **k: pytest.fail("planned before the cache check"))
    got = main(["results", "compute", "xu2019", "--cache", "/proc/nocache"])
    one_error_line(capsys, 2, got, "--cache '/proc/nocache': cannot be created or written")


# ----------------------------------------------------------------------------- protocol arguments
def test_a_boolean_domain_size_is_called_a_boolean():
    with pytest.raises(TypeError, match="k must be an integer >= 2, got the boolean True"):
        GRR(k=True, epsilon=1.0)


@pytest.mark.parametrize("call", [
    lambda: GRR(k=4, epsilon=1.0).perturb([[1, 2], [3]], np.random.default_rng(0)),
    lambda: OUE(k=4, epsilon=1.0).estimate([[1, 0, 0, 0], [1]]),
])
def test_a_ragged_list_of_lists_gets_one_line(call):
    with pytest.raises(ValueError, match="must be a rectangular array .* ragged list of lists") as info:
        call()
    assert "inhomogeneous" not in str(info.value)
