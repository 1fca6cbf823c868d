"""Issue 48: a results file that differs from its committed version is recomputed whole.

The digests in a ``.meta.json`` are plain SHA-256 values anyone can recompute; these tests
forge a committed file the way an adversary would (one value edited, then ``sha256``,
``n_rows`` and ``content`` recomputed with the public ``content_record``; the ``trusted``
mark removed; a ``lock`` entry added by hand) and check that ``verify`` refuses each, from
git and not from the metadata.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from ldpfair import papers
from ldpfair.cli import main
from ldpfair.environment import LOCK_FILE, derived_lock_state, lock_record
from ldpfair.experiments import committed
from ldpfair.experiments.results import content_record, file_sha256
from ldpfair.experiments.results_files import _parse_csv
from ldpfair.experiments.verification import VerificationError, verify_results

ROOT = Path(__file__).resolve().parents[1]
PAPER, NAME = "hamman2023", "fig1"  # 400 cells, about 2 s of CPU to recompute whole

pytestmark = pytest.mark.skipif(committed.checkout_root() is None, reason="needs the git checkout")


@pytest.fixture
def copy(tmp_path, monkeypatch):
    """The committed results of PAPER in a results folder elsewhere (LDPFAIR_RESULTS_DIR)."""
    shutil.copytree(ROOT / "results" / PAPER, tmp_path / "results" / PAPER)
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path / "results"))
    return tmp_path / "results" / PAPER / NAME


def grid_of(name: str = NAME):
    return next(g for p, n, g, _ in papers.declared("paper", PAPER) if n == name)


def forge(path: Path, *, untrust: bool = False) -> None:
    """Edit one value and recompute every digest the metadata records, as a forger would."""
    csv, meta_path = path.with_name(f"{path.name}.csv.gz"), path.with_name(f"{path.name}.meta.json")
    frame = _parse_csv(csv)
    frame.loc[0, "avg_sp_err"] += 0.125
    frame.to_csv(csv, index=False, compression={"method": "gzip", "mtime": 0})
    frame = _parse_csv(csv)
    meta = json.loads(meta_path.read_text())
    meta.update(sha256=file_sha256(csv), n_rows=len(frame), content=content_record(csv, frame))
    if untrust:
        meta["content"].pop("trusted", None)
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True))


def test_blob_id_is_gits():
    path = ROOT / "results" / PAPER / f"{NAME}.meta.json"
    out = subprocess.run(["git", "hash-object", str(path)], capture_output=True, text=True, check=True)
    assert committed.blob_id(path) == out.stdout.strip()


def test_committed_copy_elsewhere_matches_by_relative_path(copy):
    assert committed.relative_name(copy.with_name(f"{NAME}.csv.gz")) == f"results/{PAPER}/{NAME}.csv.gz"
    assert committed.changed_results(copy) is None


def test_changed_file_meta_or_new_file_are_named(copy):
    meta = copy.with_name(f"{NAME}.meta.json")
    meta.write_text(meta.read_text() + " ")  # one byte more in the metadata alone
    assert committed.changed_results(copy) == committed.DIFFERS
    new = copy.with_name("extra")
    shutil.copy(copy.with_name(f"{NAME}.csv.gz"), new.with_name("extra.csv.gz"))
    shutil.copy(meta, new.with_name("extra.meta.json"))
    assert committed.changed_results(new) == committed.NOT_COMMITTED


def test_outside_git_cannot_tell(copy, monkeypatch):
    monkeypatch.setattr(committed, "checkout_root", lambda: None)
    with pytest.raises(LookupError, match="cannot tell"):
        committed.changed_results(copy)
    fresh = verify_results(grid_of("accuracy"), copy.with_name("accuracy"), seed=1)
    assert fresh.attrs["git"] is False and fresh.attrs["whole"] is None


def test_a_bad_base_is_one_line_exit_2(capsys):
    assert main(["results", "verify", "--paper", PAPER, "--base", "no-such-rev"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "names no commit" in err[0]


@pytest.mark.slow
def test_forged_file_with_recomputed_digests_is_refused(copy):
    forge(copy)
    grid = grid_of()
    assert len(verify_results(grid_of("accuracy"), copy.with_name("accuracy"), seed=1)) == 2  # others pass
    with pytest.raises(VerificationError) as info:
        verify_results(grid, copy, seed=1)
    first = info.value.problems[0]
    assert first.endswith(f"{NAME}.csv.gz: differs from the committed version (HEAD): recomputed whole, "
                          "and it does not reproduce")
    assert any("avg_sp_err" in p for p in info.value.problems)
    assert info.value.whole == committed.DIFFERS
    assert papers.status(PAPER).set_index("results").loc[NAME, "committed"] == committed.DIFFERS


@pytest.mark.slow
def test_removed_trusted_mark_grants_nothing(copy):
    forge(copy, untrust=True)
    meta = json.loads(copy.with_name(f"{NAME}.meta.json").read_text())
    assert "trusted" not in meta["content"]
    with pytest.raises(VerificationError, match="differs from the committed version"):
        verify_results(grid_of(), copy, seed=3)


def test_lock_entry_added_by_hand_is_refused(copy):
    meta_path = copy.with_name(f"{NAME}.meta.json")
    meta = json.loads(meta_path.read_text())
    assert "lock" not in meta  # computed before the lock
    meta["lock"] = lock_record()
    problem = committed.lock_claim_problem(meta, "f", LOCK_FILE)
    assert problem is not None and "it was computed at had no lock file" in problem
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True))
    assert derived_lock_state(meta_path) == f"unknown ({committed.DIFFERS})"
    table = papers.status(PAPER).set_index("results")
    assert table.loc[NAME, "lock"] != "current lock" and table.loc["accuracy", "committed"] == "as committed"


@pytest.mark.slow
def test_lock_entry_added_by_hand_fails_verify(copy, capsys):
    meta_path = copy.with_name(f"{NAME}.meta.json")
    meta = json.loads(meta_path.read_text())
    meta["lock"] = lock_record()
    meta_path.write_text(json.dumps(meta, indent=2, sort_keys=True))
    with pytest.raises(VerificationError) as info:
        verify_results(grid_of(), copy, seed=1)
    problems = info.value.problems
    assert len(problems) == 1 and "a lock entry it was not computed under" in problems[0]


def test_committed_change_since_a_base_is_recomputed_whole(copy):
    """CI: a file changed by the commits since --base differs from its version there."""
    log = subprocess.run(["git", "log", "--format=%H", "-2", "--", f"results/{PAPER}/{NAME}.meta.json"],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout.split()
    if len(log) < 2:
        pytest.skip("the file changed only once in this history")
    assert committed.changed_results(copy, "HEAD") is None
    assert committed.changed_results(copy, f"{log[0]}^") in (committed.DIFFERS, committed.NOT_COMMITTED)


def test_status_marks_nothing_on_the_committed_results():
    table = papers.status("xu2019")
    assert set(table["committed"]) == {"as committed"}
    assert isinstance(table, pd.DataFrame)


def test_verify_outside_git_says_it_cannot_tell(copy, monkeypatch, capsys):
    monkeypatch.setattr(committed, "checkout_root", lambda: None)
    one = [(PAPER, "accuracy", grid_of("accuracy"), copy.with_name("accuracy"))]
    monkeypatch.setattr(papers, "declared", lambda profile, paper=None: iter(one))
    assert main(["results", "verify", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "note: not in a git checkout (or the results folder is not the checkout's): cannot tell" in out
