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
    assert cli.main([]) == 2  # a usage error: the help on stderr, nothing on stdout
    captured = capsys.readouterr()
    assert "usage: ldpfair" in captured.err and captured.out == ""


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


def test_every_chapter_declares_registered_data_files():
    from ldpfair.datasets.chapters import CHAPTER_FILES, chapter_files
    from ldpfair.papers import PAPERS

    assert set(CHAPTER_FILES) <= set(PAPERS), "CHAPTER_FILES names a chapter that is not registered"
    assert all(CHAPTER_FILES.values())
    for paper in PAPERS:  # a new chapter declares its files in its SPEC (PaperSpec(data_files=...))
        files = chapter_files(paper)
        unknown = set(files) - set(registry.files())
        assert not unknown, f"{paper} reads unregistered files {sorted(unknown)}: register them first"
        assert len(set(files)) == len(files), f"{paper} lists a data file twice"


def _only(files, folder):
    from ldpfair import config

    source = config.data_dir()
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).symlink_to(source / name)


def test_data_list_paper_says_which_files_and_which_are_present(monkeypatch, tmp_path, capsys):
    (tmp_path / "uci-adult").mkdir()
    (tmp_path / "uci-adult" / "adult.data").write_text("x")
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(tmp_path))
    assert cli.main(["data", "list", "--paper", "xu2019"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"xu2019 reads 3 data files (1 present in {tmp_path}):"
    assert out[1].split()[:2] == ["present", "uci-adult/adult.data"]
    assert [line.split()[:2] for line in out[2:]] == [["MISSING", "uci-adult/adult.test"],
                                                      ["MISSING", "fairness-datasets/dutch.csv"]]
    assert cli.main(["data", "list", "--paper", "xu2018"]) == 2
    assert "did you mean 'xu2019'" in capsys.readouterr().err


@pytest.mark.data
@pytest.mark.parametrize(("paper", "specs"), [
    ("xu2019", [("adult_uci", {"variant": "xu2019"}), ("dutch", {})]),
    ("hamman2023", [("adult_uci", {"variant": "hamman"}), ("german", {"variant": "hamman"})]),
])
def test_a_chapters_datasets_load_from_its_declared_files_alone(paper, specs, monkeypatch, tmp_path):
    from ldpfair.datasets import load
    from ldpfair.datasets.chapters import chapter_files

    _only(chapter_files(paper), tmp_path)
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(tmp_path))
    for name, options in specs:
        assert set(load(name, **options).files) <= set(chapter_files(paper))


def test_a_chapters_verdict_box_judges_only_its_paper_without_the_books_memo(monkeypatch):
    from ldpfair import scoreboard

    calls = []

    class Stop(Exception):
        pass

    def fake(papers=None, *, cached_only=False):
        calls.append((papers, cached_only))
        if cached_only:
            return None
        raise Stop

    monkeypatch.setattr(scoreboard, "computed", fake)
    with pytest.raises(Stop):
        scoreboard.verdict_box("xu2019")
    assert calls == [(None, True), (("xu2019",), False)]
