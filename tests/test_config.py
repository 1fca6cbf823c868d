"""Tests of :mod:`ldpfair.config` (the ``LDPFAIR_*`` environment variables)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ldpfair import cli, config

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ldpfair"
NAMES = [v.name for v in config.VARIABLES]
FOLDERS = [v for v in config.VARIABLES if v.kind == "folder"]
FILES = [v for v in config.VARIABLES if v.kind == "file"]
FLAGS = [v for v in config.VARIABLES if v.kind == "flag"]


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)


def _read(var: config.Variable) -> object:
    return getattr(config, var.accessor)()


def test_every_variable_has_its_accessor_and_constant() -> None:
    assert len(set(NAMES)) == len(NAMES) and all(n.startswith("LDPFAIR_") for n in NAMES)
    for var in config.VARIABLES:
        assert callable(getattr(config, var.accessor)), var.accessor
        assert var.accessor in config.__all__
        assert var.kind in ("folder", "file", "flag", "choice")
        assert var.name in {getattr(config, c) for c in dir(config) if c.isupper() and
                            isinstance(getattr(config, c), str)}


def test_every_name_the_package_mentions_is_declared() -> None:
    mentioned = set()
    for f in PACKAGE.rglob("*.py"):
        mentioned |= set(re.findall(r"LDPFAIR_[A-Z_]*[A-Z]", f.read_text(encoding="utf-8")))
    assert mentioned - set(NAMES) == set()


def test_no_environment_read_outside_config() -> None:
    readers = set()
    for f in PACKAGE.rglob("*.py"):
        rel = f.relative_to(PACKAGE).as_posix()
        if re.search(r"os\.environ|getenv\(", f.read_text(encoding="utf-8")):
            readers.add(rel)
    assert readers == {"config.py"}


def test_defaults_when_unset_or_empty(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no ./notebooks here
    expected = {
        "data_dir": None, "reference_dir": None, "download_cache_dir": None,
        "task_cache_dir": ROOT / ".ldpfair_cache", "results_root": ROOT / "results",
        "notebooks_dir": ROOT / "notebooks", "compute": False, "run_ledger": None,
        "figure_log": None, "figure_files": True, "debug": False, "blas_kernels": "Haswell",
    }
    assert set(expected) == {v.accessor for v in config.VARIABLES}
    for var in config.VARIABLES:
        assert _read(var) == expected[var.accessor], var.name
        monkeypatch.setenv(var.name, "")
        assert _read(var) == expected[var.accessor], var.name


def test_notebooks_default_prefers_the_working_folder(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path)
    assert config.notebooks_dir() == Path("notebooks")


@pytest.mark.parametrize("var", FOLDERS + FILES, ids=lambda v: v.name)
def test_paths_are_read_at_call_time(var: config.Variable, monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: Path) -> None:
    target = tmp_path / "somewhere"
    monkeypatch.setenv(var.name, str(target))
    assert _read(var) == target
    monkeypatch.setenv(var.name, "~/x")
    assert _read(var) == Path.home() / "x"


@pytest.mark.parametrize("var", FLAGS, ids=lambda v: v.name)
def test_flags(var: config.Variable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(var.name, "1")
    assert _read(var) is True
    monkeypatch.setenv(var.name, "0")
    assert _read(var) is False
    for bad in ("yes", "true", " 1", "2"):
        monkeypatch.setenv(var.name, bad)
        with pytest.raises(ValueError, match=rf"{var.name}={bad!r} is not valid; valid: 1 \(on\) or 0"):
            _read(var)


@pytest.mark.parametrize("var", FOLDERS + FILES, ids=lambda v: v.name)
def test_bad_paths(var: config.Variable, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(var.name, f" {tmp_path}")
    with pytest.raises(ValueError, match=rf"{var.name}=.* is not valid \(leading or trailing white space\)"):
        _read(var)
    if var.kind == "folder":
        wrong, other = tmp_path / "f.txt", "file"
        wrong.touch()
    else:
        wrong, other = tmp_path, "folder"
    monkeypatch.setenv(var.name, str(wrong))
    match = rf"{var.name}=.* \(it names a {other}\); valid: a path to a {var.kind}"
    with pytest.raises(ValueError, match=match):
        _read(var)


def test_path_from_env_takes_any_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LDPF_TEST_X", str(tmp_path))
    assert config.path_from_env("LDPF_TEST_X") == tmp_path
    with pytest.raises(ValueError, match="it names a folder"):
        config.path_from_env("LDPF_TEST_X", "file")
    with pytest.raises(ValueError, match="kind must be 'folder' or 'file'"):
        config.path_from_env("LDPF_TEST_X", "dir")


def test_exported_sets_and_restores(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with config.exported(config.RUN_LEDGER, tmp_path / "a.jsonl"):
        assert config.run_ledger() == tmp_path / "a.jsonl"
    assert config.RUN_LEDGER not in os.environ
    monkeypatch.setenv(config.RESULTS_DIR, str(tmp_path / "kept"))
    with config.exported(config.RESULTS_DIR, tmp_path / "new", override=False):
        assert config.results_root() == tmp_path / "kept"
    with config.exported(config.RESULTS_DIR, tmp_path / "new"):
        assert config.results_root() == tmp_path / "new"
    assert os.environ[config.RESULTS_DIR] == str(tmp_path / "kept")
    with pytest.raises(ValueError, match="unknown variable 'LDPFAIR_NOPE'"):
        with config.exported("LDPFAIR_NOPE", "1"):
            pass


def test_how_to_use_shows_the_table() -> None:
    page = (ROOT / "book" / "how_to_use.md").read_text(encoding="utf-8")
    assert config.markdown_table() in page
    assert config.markdown_table().count("\n") == len(config.VARIABLES) + 2


def test_cli_refuses_a_bad_debug_flag_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(config.DEBUG, "yes")
    assert cli.main(["data", "where"]) == cli.EXIT_USAGE
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "LDPFAIR_DEBUG='yes' is not valid" in err


def _kernels_in_fresh_python(code: str, **env: str) -> str:
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "LDPFAIR_BLAS_KERNELS")}
    out = subprocess.run([sys.executable, "-c", code + "\nfrom threadpoolctl import threadpool_info\n"
                          "print([i['architecture'] for i in threadpool_info() if i['user_api'] == 'blas'])"],
                         capture_output=True, text=True, env={**clean, **env}, check=True)
    return out.stdout.strip()


@pytest.mark.skipif(not config._has_avx2(), reason="the processor has no AVX2")
def test_importing_ldpfair_first_selects_the_haswell_kernels() -> None:
    assert _kernels_in_fresh_python("import ldpfair, numpy") == "['Haswell']"
    # an explicit choice wins, and numpy imported first keeps OpenBLAS's own choice
    chosen = _kernels_in_fresh_python("import ldpfair, numpy", OPENBLAS_CORETYPE="Sandybridge")
    assert chosen == "['Sandybridge']"
    native = _kernels_in_fresh_python("import numpy, ldpfair")
    assert _kernels_in_fresh_python("import ldpfair, numpy", LDPFAIR_BLAS_KERNELS="native") == native


def test_blas_kernels_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LDPFAIR_BLAS_KERNELS", raising=False)
    assert config.blas_kernels() == "Haswell"
    monkeypatch.setenv("LDPFAIR_BLAS_KERNELS", "native")
    assert config.blas_kernels() == "native"
    monkeypatch.setenv("LDPFAIR_BLAS_KERNELS", "AVX512")
    with pytest.raises(ValueError, match="'AVX512' is not valid; valid: Haswell or native"):
        config.blas_kernels()


@pytest.mark.parametrize("var", FOLDERS + FILES, ids=lambda v: v.name)
def test_a_relative_path_is_resolved_against_the_callers_folder_once(
        var: config.Variable, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setenv(var.name, "../shared/x")
    assert config.path_from_env(var.name, var.kind) == tmp_path / "shared" / "x"
    # exported absolute: a kernel started later in another folder reads the same place
    assert os.environ[var.name] == str(tmp_path / "shared" / "x")
    monkeypatch.chdir(tmp_path)
    assert config.path_from_env(var.name, var.kind) == tmp_path / "shared" / "x"


def test_absolute_paths_rewrites_every_relative_path_variable(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.DATA_DIR, "data")
    monkeypatch.setenv(config.RESULTS_DIR, str(tmp_path / "results"))
    monkeypatch.setenv(config.CACHE, " bad ")  # invalid: left for its accessor to refuse
    assert config.absolute_paths() == {config.DATA_DIR: str(tmp_path / "data")}
    assert os.environ[config.CACHE] == " bad "
    with pytest.raises(ValueError, match="LDPFAIR_CACHE"):
        config.task_cache_dir()
