"""load_results' memo on disk (ldpfair.experiments.loaded_memo): reused by a new process, never blindly."""

from __future__ import annotations

import pandas as pd
import pytest

from ldpfair import experiments as ex
from ldpfair.experiments import loaded_memo, results, results_files
from ldpfair.experiments.results import ResultsIntegrityError


def noisy(n, method, rng):
    x = rng.normal(0.0, 1.0 if method == "a" else 2.0, size=n)
    return {"mean": float(x.mean()), "max": float(x.max())}


def sweep(seeds=2) -> ex.Sweep:
    return ex.Sweep(noisy, params={"n": [10, 20, 30], "method": ["a", "b"]}, seeds=seeds, name="toy")


@pytest.fixture()
def committed(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPFAIR_CACHE", str(tmp_path / "cache"))
    sw = sweep()
    ex.save_results(ex.run(sw, progress=False), tmp_path / "toy", grid=sw)
    return sw, tmp_path / "toy", tmp_path / "toy.csv.gz"


def _new_process() -> None:
    """Forget what this process memoised, as a new process would."""
    results._LOADED.clear()
    results_files._PARSED.clear()
    results_files._SHA256.clear()


def _no_check(*args, **kwargs):
    raise AssertionError("the file was checked again")


def test_a_second_process_reads_the_checked_answer_from_disk(committed, monkeypatch):
    sw, path, _ = committed
    first, cov = ex.load_results(sw, path)
    assert list((path.parent / "cache" / "loaded").glob("*.pkl"))
    _new_process()
    monkeypatch.setattr(results, "_check_results_file", _no_check)
    again, cov2 = ex.load_results(sw, path)
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    assert cov2 == cov and again.attrs["coverage"] == cov and again.attrs["unknown_keys"] == []


def test_changed_bytes_miss_the_memo_and_are_refused(committed):
    sw, path, csv = committed
    ex.load_results(sw, path)
    frame = pd.read_csv(csv)
    frame.loc[0, "mean"] = frame.loc[0, "mean"] + 1.0
    frame.to_csv(csv, index=False, compression={"method": "gzip", "mtime": 0})
    _new_process()
    with pytest.raises(ResultsIntegrityError, match="sha256"):
        ex.load_results(sw, path)


def test_another_grid_misses_the_memo(committed):
    sw, path, _ = committed
    ex.load_results(sw, path)
    _new_process()
    other = sweep(seeds=3)  # one more seed: another experiment description, more tasks
    assert loaded_memo.memo_key("x", {}, sw) != loaded_memo.memo_key("x", {}, other)
    frame, cov = ex.load_results(other, path)
    assert cov == {"present": 12, "total": 18} and len(frame) == 12


def test_verification_never_reads_the_memo(committed, monkeypatch):
    sw, path, _ = committed
    ex.load_results(sw, path)
    _new_process()
    monkeypatch.setattr(loaded_memo, "read", _no_check)
    ex.verify_results(sw, path, n_cells=1)
