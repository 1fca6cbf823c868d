import pytest

from ldpfair import __version__, cli
from ldpfair.datasets import registry


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["--version", "extra"], ["--version", "run", "xu2019"]])
def test_version_takes_no_argument(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--version takes no other argument" in err


def test_no_command_prints_help_and_fails(capsys):
    assert cli.main([]) == 2
    assert "usage: ldpfair" in capsys.readouterr().out


def test_unknown_command_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["frobnicate"])
    assert exc.value.code == 2


def test_data_where_counts_the_files_present(monkeypatch, tmp_path, capsys):
    (tmp_path / "uci-adult").mkdir()
    (tmp_path / "uci-adult" / "adult.data").write_text("x")
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(tmp_path))
    assert cli.main(["data", "where"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("data: ") and f"; 1 of {len(registry.files())} registered files present)" in line


def test_results_compute_refuses_a_paper_given_twice(capsys):
    assert cli.main(["results", "compute", "xu2019", "xu2019", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "paper(s) given twice: xu2019" in err
