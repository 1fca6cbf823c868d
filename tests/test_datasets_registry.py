"""Tests of the checksummed file registry and the ``ldpfair data`` command."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair import cli
from ldpfair.datasets import registry
from ldpfair.datasets.registry import ChecksumError, FileEntry, FileRegistry

SHARED = Path(os.environ.get("LDPFAIR_DATA_DIR", "/nonexistent"))


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


@pytest.fixture
def offline(tmp_path, monkeypatch):
    """An empty offline data folder used by the package registry."""
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(tmp_path))
    return tmp_path


def test_package_registry_entries_are_wellformed():
    data = registry.files("data")
    assert len(data) == 22
    assert "arcolezi2023/db_LSAC.csv" in data
    for e in data.values():
        assert len(e.sha256) == 64 and int(e.sha256, 16) >= 0
        assert e.url.startswith("https://raw.githubusercontent.com/")
        assert e.size > 0
    ref = registry.files("reference")
    assert len(ref) == 802
    assert all(len(e.sha256) == 64 for e in ref.values())


@pytest.mark.data
def test_package_registry_matches_shared_registry():
    shared = json.loads((SHARED / "registry.json").read_text())
    ours = registry.files("data")
    assert {e["file"]: (e["url"], e["sha256"], e["size"]) for e in shared} == {
        n: (e.url, e.sha256, e.size) for n, e in ours.items()
    }


def test_offline_missing_file_message(offline):
    name = "arcolezi2023/db_LSAC.csv"
    with pytest.raises(FileNotFoundError) as ei:
        registry.fetch(name)
    msg = str(ei.value)
    assert name in msg
    assert str(offline) in msg
    assert registry.files()[name].url in msg
    assert "LDPFAIR_DATA_DIR" in msg
    assert "ldpfair data fetch" in msg
    assert not registry.data_available()


def test_offline_checksum_mismatch_refused(offline):
    name = "uci-german/german.data"
    p = offline / name
    p.parent.mkdir(parents=True)
    p.write_bytes(b"1 2 3\n")
    with pytest.raises(ChecksumError) as ei:
        registry.fetch(name)
    msg = str(ei.value)
    assert name in msg
    assert registry.files()[name].sha256 in msg and _sha(b"1 2 3\n") in msg
    report = {s.name: s for s in registry.verify("data")}
    assert report[name].status == "mismatch"
    assert report["uci-adult/adult.data"].status == "missing"


def test_offline_valid_file_returned(tmp_path, monkeypatch):
    content = b"a,b\n1,2\n"
    reg = FileRegistry(
        "t", [FileEntry("x/f.csv", "https://example.invalid/f.csv", _sha(content), 8)], env="LDPF_T1"
    )
    monkeypatch.setenv("LDPF_T1", str(tmp_path))
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "f.csv").write_bytes(content)
    assert reg.available()
    assert reg.fetch("x/f.csv") == tmp_path / "x" / "f.csv"
    # modify the file: the hash cache is keyed on (path, mtime, size) so it is re-hashed
    (tmp_path / "x" / "f.csv").write_bytes(b"a,b\n1,3\n")
    with pytest.raises(ChecksumError):
        reg.fetch("x/f.csv")


def test_unknown_file_and_collection():
    with pytest.raises(ValueError, match="unknown data file"):
        registry.fetch("no/such.csv")
    with pytest.raises(ValueError, match="valid: data, reference"):
        registry.fetch("uci-adult/adult.data", collection="bogus")


class _FakeDownloader:
    """A pooch downloader writing fixed bytes, counting its calls."""

    def __init__(self, content: bytes) -> None:
        self.content = content
        self.calls = 0

    def __call__(self, url, output_file, pooch_obj, check_only=False):  # noqa: ARG002
        self.calls += 1
        if hasattr(output_file, "write"):
            output_file.write(self.content)
        else:
            Path(output_file).write_bytes(self.content)


def test_pooch_cache_downloads_and_refetches_corrupt_copy(tmp_path, monkeypatch):
    monkeypatch.delenv("LDPF_T2", raising=False)
    content = b"col\n1\n2\n"
    dl = _FakeDownloader(content)
    reg = FileRegistry(
        "t",
        [FileEntry("d/f.csv", "https://example.invalid/d/f.csv", _sha(content), len(content))],
        env="LDPF_T2",
        cache_dir=tmp_path / "cache",
        downloader=dl,
    )
    assert not reg.available()
    p = reg.fetch("d/f.csv")
    assert p == tmp_path / "cache" / "d" / "f.csv" and p.read_bytes() == content
    assert dl.calls == 1
    assert reg.fetch("d/f.csv") == p and dl.calls == 1  # valid cached copy: no download
    p.write_bytes(b"corrupt!")
    assert reg.fetch("d/f.csv").read_bytes() == content
    assert dl.calls == 2
    assert reg.available()


def test_pooch_download_with_wrong_hash_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("LDPF_T3", raising=False)
    reg = FileRegistry(
        "t",
        [FileEntry("f.csv", "https://example.invalid/f.csv", _sha(b"good"), 4)],
        env="LDPF_T3",
        cache_dir=tmp_path,
        downloader=_FakeDownloader(b"evil"),
        retries=0,
    )
    with pytest.raises(ChecksumError, match="f.csv"):
        reg.fetch("f.csv")
    assert not (tmp_path / "f.csv").exists()


def test_download_failure_is_file_not_found(tmp_path, monkeypatch):
    monkeypatch.delenv("LDPF_T4", raising=False)

    def failing(url, output_file, pooch_obj, check_only=False):  # noqa: ARG001
        raise ConnectionError("no network")

    reg = FileRegistry(
        "t",
        [FileEntry("f.csv", "https://example.invalid/f.csv", _sha(b"good"), 4)],
        env="LDPF_T4",
        cache_dir=tmp_path,
        downloader=failing,
        retries=0,
    )
    with pytest.raises(FileNotFoundError, match=r"example\.invalid.*LDPF_T4"):
        reg.fetch("f.csv")


def test_reference_dir_defaults_next_to_data_dir(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "reference").mkdir()
    monkeypatch.setenv("LDPFAIR_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("LDPFAIR_REFERENCE_DIR", raising=False)
    w = registry.where()
    assert w["reference"]["folder"] == str(tmp_path / "reference")
    monkeypatch.setenv("LDPFAIR_REFERENCE_DIR", str(tmp_path / "elsewhere"))
    assert registry.where()["reference"]["folder"] == str(tmp_path / "elsewhere")


def test_cli_where_verify_list(offline, capsys):
    assert cli.main(["data", "where"]) == 0
    out = capsys.readouterr().out
    assert str(offline) in out and "LDPFAIR_DATA_DIR" in out
    assert cli.main(["data", "verify"]) == 1
    out = capsys.readouterr().out
    assert "missing" in out and "0 of 22 files ok" in out
    assert cli.main(["data", "fetch", "uci-adult/adult.data"]) == 1  # failed work, not usage
    assert "ldpfair data fetch" in capsys.readouterr().err
    assert cli.main(["data", "list", "--files"]) == 0
    out = capsys.readouterr().out
    assert "uci-adult/adult.data" in out


@pytest.mark.data
def test_cli_verify_real_data(capsys):
    assert cli.main(["data", "verify"]) == 0
    assert "22 of 22 files ok" in capsys.readouterr().out


def test_cli_list_shows_datasets_and_options(capsys):
    assert cli.main(["data", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("adult26k", "lsac", "acs_coverage", "synthetic_makhlouf", "compas_makhlouf"):
        assert name in out
    assert "--protected='gender'  ('gender' | 'race' | 'race_gender')" in out
    assert "makhlouf2024" in out


# ---------------------------------------------------------------------------
# data cards and the authors' reference tables


def test_reference_readers_validate_arguments():
    from ldpfair.datasets import reference

    with pytest.raises(ValueError, match="valid: 0.25, 0.5, 1"):
        reference.read_arcolezi2023("adult", "GRR", "uniform", 3)
    with pytest.raises(ValueError, match="'RAPPOR'"):
        reference.read_arcolezi2023("adult", "rappor", "uniform", 1)
    with pytest.raises(ValueError, match="k_based"):
        reference.read_arcolezi2023("adult", "GRR", "kbased", 1)
    with pytest.raises(ValueError, match="'combsLDP'"):
        reference.read_makhlouf2024("compas_3", "both")
    with pytest.raises(ValueError, match="compas_1"):
        reference.read_makhlouf2024("compas_2", "sLDP")


REF = registry.get_registry("reference")


@pytest.mark.skipif(not REF.available(), reason="reference result files not reachable")
def test_reference_readers_real():
    from ldpfair.datasets import reference

    a = reference.read_arcolezi2023("lsac", "RAPPOR", "k_based", 0.5)
    b = reference.read_arcolezi2023("LSAC", "SUE", "k_based", 0.5)
    pd.testing.assert_frame_equal(a, b)
    assert len(a) == 20 and list(a["seed"]) == list(range(20))
    assert (a[["tn", "fp", "fn", "tp"]].sum(axis=1) == 4_086).all()  # LSAC test size
    assert (a["protocol"] == "RAPPOR").all() and (a["epsilon"] == 0.5).all()
    app = reference.read_arcolezi2023("adult26k", "GRR", "uniform", 50, appendix=True)
    assert (app[["tn", "fp", "fn", "tp"]].sum(axis=1) == 9_170).all()
    npv = reference.read_arcolezi2023_nonprivate("acs_coverage")
    assert len(npv) == 20 and (npv[["tn", "fp", "fn", "tp"]].sum(axis=1) == 19_748).all()
    m = reference.read_makhlouf2024("compas_3", "combLDP")
    assert len(m) == 180 and m["Seed_num"].max() == 19
    assert sorted(m["epsilon"].unique()) == [0.1, 0.5, 1, 2, 3, 4, 5, 8, 16]
    n = reference.read_makhlouf2024("S1_0.6", "NoLDP")
    assert len(n) == 20 and np.isinf(n["epsilon"]).all()


@pytest.mark.data
def test_data_cards():
    from ldpfair.datasets.cards import data_card, data_cards_table

    c = data_card("compas_makhlouf", threshold=1)
    assert c["n"] == 5_915 and c["paper"] == ["makhlouf2024"]
    assert abs(c["base_rate"] - 0.757) < 5e-4
    assert abs(c["base_rate_by_group"]["race=African-American"] - 0.845) < 5e-4
    assert sum(c["group_sizes"].values()) == c["n"]
    assert c["attributes"]["age_cat"] == 3 and c["citation"].startswith("makhlouf2024")
    t = data_cards_table(["lsac", ("adult_makhlouf", {"threshold": 50000}), {"name": "acs_coverage"}])
    assert list(t["n"]) == [20_427, 45_849, 98_739]
    assert list(t["P(Y=1)"]) == [0.949, 0.247, 0.186]
    with pytest.raises(TypeError):
        data_cards_table([3])
