"""Integrity and error paths (issue 25): committed results, the engine's cache, tiny budgets."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ldpfair import experiments as ex
from ldpfair import papers
from ldpfair.experiments.results import ResultsIntegrityError
from ldpfair.experiments.verification import VerificationError


def noisy(n, method, rng):
    x = rng.normal(0.0, 1.0 if method == "a" else 2.0, size=n)
    return {"mean": float(x.mean()), "max": float(x.max())}


def sweep() -> ex.Sweep:
    return ex.Sweep(noisy, params={"n": [10, 20, 30], "method": ["a", "b"]}, seeds=2, name="toy")


@pytest.fixture()
def committed(tmp_path):
    sw = sweep()
    df = ex.run(sw, progress=False)
    ex.save_results(df, tmp_path / "toy", grid=sw)
    return sw, tmp_path / "toy", tmp_path / "toy.csv.gz"


def rewrite(csv: Path, frame: pd.DataFrame) -> None:
    frame.to_csv(csv, index=False, compression={"method": "gzip", "mtime": 0})


# ----------------------------------------------------------------------------- committed results
def test_save_records_checksum_and_verify_passes(committed):
    sw, path, csv = committed
    meta = json.loads(path.with_name("toy.meta.json").read_text())
    assert meta["sha256"] == ex.results.file_sha256(csv) and meta["n_rows"] == 12
    fresh = ex.verify_results(sw, path, n_cells=1, seed=3)
    assert set(fresh["method"]) == {"a", "b"}  # one cell per method at least
    every = ex.verify_results(sw, path, all_cells=True)
    assert len(every) == 12


@pytest.mark.parametrize("tamper", ["values", "delete", "duplicate", "truncate", "not_gzip", "no_meta",
                                    "unstamped"])
def test_every_tampering_is_refused_with_one_line(committed, tamper):
    sw, path, csv = committed
    frame = pd.read_csv(csv)
    meta_path = path.with_name("toy.meta.json")
    if tamper == "values":
        frame.loc[frame.index[1:], "mean"] = 0.5
        rewrite(csv, frame)
    elif tamper == "delete":
        rewrite(csv, frame.iloc[:-3])
    elif tamper == "duplicate":
        rewrite(csv, pd.concat([frame, frame.iloc[[0]]]))
    elif tamper == "truncate":
        csv.write_bytes(csv.read_bytes()[:60])
    elif tamper == "not_gzip":
        csv.write_text("key,mean\nabc,1\n")
    elif tamper == "no_meta":
        meta_path.unlink()
    elif tamper == "unstamped":
        meta = json.loads(meta_path.read_text())
        del meta["sha256"]
        meta_path.write_text(json.dumps(meta))
    for call in (lambda: ex.load_results(sw, path), lambda: ex.verify_results(sw, path, n_cells=1)):
        with pytest.raises(ResultsIntegrityError) as info:
            call()
        message = str(info.value)
        assert "\n" not in message and str(csv) in message


def _tampered(frame: pd.DataFrame, tamper: str) -> pd.DataFrame:
    frame = frame.copy()
    if tamper == "value":
        frame.loc[frame.index[4], "mean"] = 0.5  # one value
    elif tamper == "dropped":
        frame = frame.iloc[:-3]
    elif tamper == "foreign":
        extra = frame.iloc[[0]].copy()
        extra["key"] = "f" * 64
        frame = pd.concat([frame, extra])
    elif tamper == "renamed":
        frame = frame.rename(columns={"max": "maximum"})
    elif tamper == "duplicate":
        frame = pd.concat([frame, frame.iloc[[0]]])
    return frame


def _force_stamp(csv: Path) -> None:
    """Re-record sha256 and row count by hand, as the old `stamp` did for any file."""
    meta_path = csv.with_name(csv.name.replace(".csv.gz", ".meta.json"))
    meta = json.loads(meta_path.read_text())
    meta.update(sha256=ex.results.file_sha256(csv), n_rows=len(pd.read_csv(csv)))
    meta_path.write_text(json.dumps(meta))


@pytest.mark.parametrize("tamper", ["value", "dropped", "foreign", "renamed", "duplicate"])
def test_stamp_refuses_rows_that_no_longer_match_their_digest(committed, tamper):
    sw, path, csv = committed
    rewrite(csv, _tampered(pd.read_csv(csv), tamper))
    with pytest.raises(ResultsIntegrityError) as info:
        ex.stamp_results(csv)
    message = str(info.value)
    assert "\n" not in message and str(csv) in message and "not stamped" in message
    assert ("duplicate" if tamper == "duplicate" else "no longer match") in message


@pytest.mark.parametrize("tamper", ["value", "dropped", "foreign", "renamed"])
def test_restamped_tampering_is_refused_by_every_load(committed, tamper):
    """Checksum and row count re-recorded (by hand, or an old stamp): the content digest still tells."""
    sw, path, csv = committed
    rewrite(csv, _tampered(pd.read_csv(csv), tamper))
    _force_stamp(csv)
    expected = {"value": "values or keys edited", "dropped": "9 rows now, 12 when it was written",
                "foreign": "13 rows now, 12 when it was written",
                "renamed": "missing ['max'], not recorded ['maximum']"}[tamper]
    for call in (lambda: ex.load_results(sw, path), lambda: ex.verify_results(sw, path, n_cells=1),
                 lambda: ex.check_results_file(csv)):
        with pytest.raises(ResultsIntegrityError, match=re.escape(expected)) as info:
            call()
        assert "\n" not in str(info.value) and str(csv) in str(info.value)


def test_a_foreign_row_with_a_recomputed_digest_is_refused_by_the_key_check(committed):
    """Even with the whole content record forged, a row that is not a task of the grid is refused."""
    sw, path, csv = committed
    rewrite(csv, _tampered(pd.read_csv(csv), "foreign"))
    meta_path = path.with_name("toy.meta.json")
    meta = json.loads(meta_path.read_text())
    meta.update(sha256=ex.results.file_sha256(csv), n_rows=13,
                content=ex.results.content_record(csv, ex.results._parse_csv(csv)))
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ResultsIntegrityError, match="1 row.s. are not tasks of grid 'toy'"):
        ex.load_results(sw, path)


@pytest.mark.parametrize("tamper", ["dropped", "foreign", "renamed"])
def test_trust_stamped_tampering_fails_verify(committed, tamper):
    sw, path, csv = committed
    rewrite(csv, _tampered(pd.read_csv(csv), tamper))
    assert ex.stamp_results(csv, trust=True)["trusted"]
    expected = {"dropped": "3 of 12 tasks of the grid are missing", "foreign": "are not tasks of grid 'toy'",
                "renamed": "column 'max' missing from the committed results"}[tamper]
    with pytest.raises((VerificationError, ResultsIntegrityError), match=expected):
        ex.verify_results(sw, path, n_cells=1, seed=0)


def test_trusted_stamp_is_recorded_and_verify_then_recomputes_every_cell(committed):
    sw, path, csv = committed
    rewrite(csv, _tampered(pd.read_csv(csv), "value"))
    stamped = ex.stamp_results(csv, trust=True)
    assert stamped["trusted"]
    meta = json.loads(path.with_name("toy.meta.json").read_text())
    assert meta["content"]["trusted"]["previous_digest"] != meta["content"]["digest"]
    ex.load_results(sw, path)  # accepted as it is: the reader asked for it
    for seed in range(4):  # whatever the sample seed, the edited cell is recomputed
        with pytest.raises(VerificationError, match="column mean: committed 0.5"):
            ex.verify_results(sw, path, n_cells=1, seed=seed)


def test_swapped_files_with_their_metadata_are_refused(tmp_path):
    sw = sweep()
    other = ex.Sweep(noisy, params={"n": [10, 20, 30], "method": ["a", "b"]}, seeds=[5, 6], name="other")
    ex.save_results(ex.run(sw, progress=False), tmp_path / "toy", grid=sw)
    ex.save_results(ex.run(other, progress=False), tmp_path / "other", grid=other)
    for suffix in (".csv.gz", ".meta.json"):
        a, b = tmp_path / f"toy{suffix}", tmp_path / f"other{suffix}"
        a.rename(tmp_path / "swap")
        b.rename(a)
        (tmp_path / "swap").rename(b)
    with pytest.raises(ResultsIntegrityError, match="describes 'other.csv.gz', not this file"):
        ex.load_results(sw, tmp_path / "toy")
    # the content's file name edited as well: the grid it names is still another experiment
    meta_path = tmp_path / "toy.meta.json"
    meta = json.loads(meta_path.read_text())
    meta["content"]["file"] = "toy.csv.gz"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ResultsIntegrityError, match="names another experiment than 'toy' .name 'other'"):
        ex.load_results(sw, tmp_path / "toy")
    with pytest.raises(ResultsIntegrityError, match="names another experiment"):
        ex.verify_results(sw, tmp_path / "toy", n_cells=1)


def test_an_edited_function_version_in_the_metadata_is_refused(committed):
    sw, path, csv = committed
    meta_path = path.with_name("toy.meta.json")
    meta = json.loads(meta_path.read_text())
    meta["grid"]["func"] = meta["grid"]["func"][:-4] + "0000"
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ResultsIntegrityError, match="names another experiment than 'toy' .func") as info:
        ex.load_results(sw, path)
    assert str(csv) in str(info.value)


def test_a_file_without_content_is_refused_and_stamped_only_while_its_sha256_holds(committed, tmp_path):
    sw, path, csv = committed
    meta_path = path.with_name("toy.meta.json")
    meta = json.loads(meta_path.read_text())
    del meta["content"]
    meta_path.write_text(json.dumps(meta))
    with pytest.raises(ResultsIntegrityError, match="records no content digest"):
        ex.load_results(sw, path)
    ex.stamp_results(csv)  # the sha256 still matches: the rows are the engine's
    assert ex.load_results(sw, path)[1] == {"present": 12, "total": 12}
    meta = json.loads(meta_path.read_text())
    del meta["content"]
    meta_path.write_text(json.dumps(meta))
    rewrite(csv, _tampered(pd.read_csv(csv), "value"))
    with pytest.raises(ResultsIntegrityError, match="no longer matches its sha256.*; not stamped"):
        ex.stamp_results(csv, cache=tmp_path / "no cache")


def test_the_digest_ignores_row_and_column_order_but_not_values_or_names(committed):
    _, _, csv = committed
    frame = ex.results._parse_csv(csv)
    digest = ex.results.rows_digest(frame)
    assert ex.results.rows_digest(frame.iloc[::-1][frame.columns[::-1]]) == digest
    nudged = frame["mean"].where(frame.index != 3, np.nextafter(frame["mean"][3], 9))
    for changed in (frame.assign(mean=nudged), frame.rename(columns={"mean": "Mean"}), frame.iloc[1:]):
        assert ex.results.rows_digest(changed) != digest
    # rows reordered in the file: a restamp is accepted (same content), the load too
    rewrite(csv, pd.read_csv(csv).iloc[::-1])
    ex.stamp_results(csv)
    assert ex.load_results(sweep(), csv)[1]["present"] == 12


def test_an_edited_cache_entry_does_not_flow_into_the_results(tmp_path, committed):
    """A cache entry edited with its checksum: stamp takes no evidence from it, the writer recomputes it."""
    sw, path, csv = committed
    cache = ex.Cache(tmp_path / "cache")
    good = ex.run(sw, cache=cache.root, progress=False)
    task = sw.tasks()[4]
    p = cache.path(task.key)
    record = json.loads(p.read_text())
    record["row"]["mean"] = 0.5
    record["row_sha256"] = ex.cache.row_checksum(record["row"])
    p.write_text(json.dumps(record))
    assert cache.get(task.key)["mean"] == 0.5  # the checksum alone cannot tell
    # the file edited to agree with the forged entry: stamp still refuses (the digest decides)
    committed_bytes = csv.read_bytes()
    rewrite(csv, _tampered(pd.read_csv(csv), "value"))
    with pytest.raises(ResultsIntegrityError, match="0 of its 12 rows differ from their cache entries"):
        ex.stamp_results(csv, cache=cache.root)
    with pytest.raises(ResultsIntegrityError, match="sha256"):
        ex.load_results(sw, path)
    csv.write_bytes(committed_bytes)
    # the engine writes the file again from the cache: the doubtful row is recomputed
    ex.run_profile({"paper": sw}, "paper", results=path, cache=cache.root, compute=True, progress=False)
    loaded, _ = ex.load_results(sw, path)
    assert loaded.set_index("key").loc[task.key, "mean"] == good.set_index("key").loc[task.key, "mean"] != 0.5
    ex.verify_results(sw, path, all_cells=True)


def test_verify_sample_changes_with_the_seed_and_is_reproducible(committed):
    sw, path, _ = committed
    # base=None: no git comparison (test_integrity_git covers it)
    draws = {seed: tuple(ex.verify_results(sw, path, n_cells=3, seed=seed, base=None)["key"])
             for seed in range(6)}
    assert len(set(draws.values())) > 1
    assert tuple(ex.verify_results(sw, path, n_cells=3, seed=4, base=None)["key"]) == draws[4]
    with pytest.raises(ValueError, match="n_cells must be an integer >= 1"):
        ex.verify_results(sw, path, n_cells=0)


# ----------------------------------------------------------------------------- engine cache
def test_hand_edited_cache_row_is_recomputed(tmp_path):
    sw = sweep()
    cache = tmp_path / "cache"
    first = ex.run(sw, cache=cache, progress=False)
    task = sw.tasks()[0]
    p = ex.Cache(cache).path(task.key)
    record = json.loads(p.read_text())
    record["row"]["mean"] = 123.0
    p.write_text(json.dumps(record))
    assert ex.Cache(cache).get(task.key) is None
    again = ex.run(sw, cache=cache, progress=False)
    assert again["mean"].iloc[0] == first["mean"].iloc[0] != 123.0
    assert ex.Cache(cache).get(task.key)["mean"] == first["mean"].iloc[0]


def test_cache_and_n_jobs_are_checked_before_computing(tmp_path, monkeypatch):
    sw = sweep()
    calls = []
    monkeypatch.setattr(ex.engine, "run_task", lambda t: calls.append(t) or {"mean": 0.0})
    afile = tmp_path / "file"
    afile.write_text("x")
    for cache in (afile, afile / "sub"):
        with pytest.raises(ValueError, match="is a file"):
            ex.run(sw, cache=cache, progress=False)
    for bad, err in (("2", TypeError), (2.5, TypeError), (0, ValueError), (10**6, ValueError),
                     (True, TypeError)):
        with pytest.raises(err, match="n_jobs must be None, an integer"):
            ex.run(sw, n_jobs=bad, progress=False)
    assert calls == []


SLOW = """
import os, sys, time
from pathlib import Path
from ldpfair import experiments as ex

LOG = Path(os.environ["H25_LOG"])

def slow(i, rng):
    with open(LOG, "a") as fh:
        fh.write(f"{i} {os.getpid()}\\n")
    time.sleep(float(os.environ.get("H25_SLEEP", "0.3")))
    return {"value": float(rng.random())}

if __name__ == "__main__":
    sw = ex.Sweep(slow, params={"i": list(range(int(sys.argv[2])))}, seeds=1, name="slow")
    df = ex.run(sw, cache=sys.argv[1], n_jobs=int(sys.argv[3]), progress=False)
    print(len(df), df["value"].sum())
"""


def _script(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    script = tmp_path / "slowrun.py"
    script.write_text(textwrap.dedent(SLOW))
    env = {**os.environ, "H25_LOG": str(tmp_path / "log.txt"),
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).resolve().parents[1])])}
    return script, env


def test_concurrent_runs_on_one_cache_compute_each_cell_once(tmp_path):
    script, env = _script(tmp_path)
    cache, n = tmp_path / "cache", 12
    procs = [subprocess.Popen([sys.executable, str(script), str(cache), str(n), "1"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    assert outs[0][0] == outs[1][0]  # both return every cell, identical
    lines = (tmp_path / "log.txt").read_text().split()
    cells = lines[0::2]
    assert sorted(cells, key=int) == [str(i) for i in range(n)]  # each cell computed once
    assert len(set(lines[1::2])) == 2  # and the work was shared
    assert not list(cache.rglob("*.claim"))


def test_stale_claim_is_taken_over(tmp_path):
    store = ex.Cache(tmp_path / "c")
    key = "ab" + "0" * 62
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    path = store.claim_path(key)
    path.parent.mkdir(parents=True)
    import socket

    path.write_text(json.dumps({"host": socket.gethostname(), "pid": int(dead), "time": 0}))
    assert store.claim_is_stale(key)
    assert store.claim(key)
    assert not ex.Cache(tmp_path / "c").claim_is_stale(key)  # now held by this live process
    store.release(key)
    assert not path.exists()


def test_workers_end_with_their_parent(tmp_path):
    script, env = _script(tmp_path)
    env["H25_SLEEP"] = "2.0"
    cache = tmp_path / "cache"
    proc = subprocess.Popen([sys.executable, str(script), str(cache), "40", "2"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    log = tmp_path / "log.txt"
    deadline = time.monotonic() + 60
    while (not log.exists() or len(log.read_text().split()) < 6) and time.monotonic() < deadline:
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    at_kill = len(log.read_text().split()) // 2
    time.sleep(8.0)  # orphan workers would go on with the cells they had already received
    after = len(log.read_text().split()) // 2
    print("cells started after the kill:", after - at_kill)
    assert after - at_kill <= 1  # at most a cell started in the second before the workers noticed


# ----------------------------------------------------------------------------- mechanisms
@pytest.mark.parametrize("name", ["GRR", "OUE", "RAPPOR", "OLH", "BLH", "SS", "THE"])
@pytest.mark.parametrize("epsilon", [1e-300, 5e-17, 1.2e-16, 3e-16])
def test_tiny_epsilon_is_refused_or_finite(name, epsilon):
    from ldpfair.ldp import make_protocol

    try:
        proto = make_protocol(name, 4, epsilon)
    except ValueError as exc:
        assert "epsilon" in str(exc) and "too small" in str(exc)
        return
    assert proto.p > proto.q
    reports = proto.perturb(np.zeros(50, dtype=np.int64), np.random.default_rng(0))
    assert np.isfinite(proto.estimate(reports)).all() and np.isfinite(proto.variance(50))


def test_unary_encoding_checks_memory_before_allocating():
    from ldpfair.ldp import OUE

    with pytest.raises(ValueError, match=r"would need [0-9.]+ GiB"):
        OUE(10**7, 1.0).perturb(np.zeros(10**6, dtype=np.int64), np.random.default_rng(0))


def test_results_gzip_is_deterministic(committed):
    sw, path, csv = committed
    before = csv.read_bytes()
    ex.save_results(ex.load_results(sw, path)[0], path, grid=sw)
    assert gzip.decompress(csv.read_bytes()) == gzip.decompress(before)


# ----------------------------------------------------------------------------- metrics and groups
Y = [1, 0, 1, 0, 1, 1]
P = [1, 0, 0, 0, 1, 1]


@pytest.mark.parametrize("groups", [[0, 0, 1, 1, np.nan, np.nan], [0, 0, 1, 1, None, 1],
                                    np.array(["a", "b", None, "a", "b", "a"], dtype=object),
                                    pd.Series([0, 1, pd.NA, 1, 0, 1], dtype="Int64")])
def test_missing_group_labels_are_refused_by_every_metric(groups):
    from ldpfair import metrics as m

    calls = [
        lambda: m.group_rates(Y, P, sensitive_features=groups),
        lambda: m.evaluate(Y, P, sensitive_features=groups),
        lambda: m.max_gap_statistical_parity(P, sensitive_features=groups),
        lambda: m.max_gap_metrics(Y, P, sensitive_features=groups),
        lambda: m.data_unfairness(Y, sensitive_features=groups),
        lambda: m.statistical_parity_difference(P, sensitive_features=groups),
        lambda: m.privileged_vs_rest_metrics(Y, P, sensitive_features=groups),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"sensitive_features holds \d missing value\(s\)"):
            call()


def test_a_single_present_group_is_not_perfectly_fair():
    from ldpfair import metrics as m
    from ldpfair.metrics import UndefinedRateWarning

    one = [0] * 6
    for call in (lambda: m.max_gap_statistical_parity(P, sensitive_features=one),
                 lambda: m.max_gap_equal_opportunity(Y, P, sensitive_features=one),
                 lambda: m.max_gap_mean_equalized_odds(Y, P, sensitive_features=one),
                 lambda: m.data_unfairness(Y, sensitive_features=one),
                 lambda: m.data_unfairness_pairwise(Y, sensitive_features=one),
                 lambda: m.max_gap_metrics(Y, P, sensitive_features=one)["Delta_SP"]):
        with pytest.warns(UndefinedRateWarning, match="at least two groups"):
            assert np.isnan(call())
    # with labels= the absent group is named, and the result is NaN as well
    with pytest.warns(UndefinedRateWarning, match="group 1 is empty"):
        assert np.isnan(m.max_gap_statistical_parity(P, sensitive_features=one, labels=[0, 1]))
    # two present groups: a real number
    assert m.max_gap_statistical_parity(P, sensitive_features=[0, 0, 0, 1, 1, 1]) == pytest.approx(1 / 3)


def test_privileged_matching_no_row_is_named_and_lengths_name_the_callers_arguments():
    from ldpfair import metrics as m
    from ldpfair.metrics import UndefinedRateWarning

    with pytest.warns(UndefinedRateWarning, match=r"privileged=1 matches no row .*\[0, 2\]"):
        assert np.isnan(m.statistical_parity_difference(P, sensitive_features=[0, 0, 2, 2, 2, 2]))
    with pytest.raises(ValueError, match="sensitive_features has 3 entries but y_pred has 2"):
        m.statistical_parity_difference([1, 0], sensitive_features=[0, 1, 1])
    with pytest.raises(ValueError, match="sensitive_features has 3 entries but scores has 2"):
        m.soft_statistical_parity([0.1, 0.5], sensitive_features=[0, 1, 1])
    with pytest.raises(ValueError, match="sensitive_features has 3 entries but y has 2"):
        m.data_unfairness([1, 0], sensitive_features=[0, 1, 1])


def test_recomputed_cells_reads_the_metadata_and_refuses_a_key_list_without_a_reason(tmp_path):
    from ldpfair.experiments import recomputed_cells

    (tmp_path / "a.meta.json").write_text(json.dumps({"n_rows": 10, "recomputed_cells": ["k1", "k2"],
                                                      "recomputed_why": "kernels"}))
    (tmp_path / "b.meta.json").write_text(json.dumps({"n_rows": 5}))  # nothing recomputed: no row
    out = recomputed_cells(tmp_path)
    assert out.to_dict("records") == [{"file": "a", "rows": 10, "recomputed": 2, "why": "kernels"}]
    (tmp_path / "c.meta.json").write_text(json.dumps({"n_rows": 5, "recomputed_cells": ["k"]}))
    with pytest.raises(ResultsIntegrityError, match="c.meta.json: recomputed_cells must be a list"):
        recomputed_cells(tmp_path)
    with pytest.raises(FileNotFoundError, match="is not a folder of results"):
        recomputed_cells(tmp_path / "missing")


@pytest.mark.parametrize("paper", papers.PAPERS)
def test_every_recomputed_cell_is_a_committed_cell(paper):
    from ldpfair.experiments import recomputed_cells
    from ldpfair.experiments.notebooks import results_dir

    folder = results_dir(paper)
    for rec in recomputed_cells(folder).itertuples():
        keys = set(pd.read_csv(folder / f"{rec.file}.csv.gz", usecols=["key"])["key"])
        listed = json.loads((folder / f"{rec.file}.meta.json").read_text())["recomputed_cells"]
        assert len(set(listed)) == rec.recomputed and set(listed) <= keys, rec.file


def test_file_sha256_once_per_file_version(tmp_path):
    from ldpfair.experiments import results_files as rf

    path = tmp_path / "f.bin"
    path.write_bytes(b"a" * 10)
    assert rf.file_sha256(path) == hashlib.sha256(b"a" * 10).hexdigest()
    key = next(k for k in rf._SHA256 if k[0] == str(path.resolve()))
    rf._SHA256[key] = "memo"  # the same version of the file is not read again
    assert rf.file_sha256(path) == "memo"
    path.write_bytes(b"b" * 10)  # rewritten in place, same size: another mtime and ctime, hashed again
    assert rf.file_sha256(path) == hashlib.sha256(b"b" * 10).hexdigest()
