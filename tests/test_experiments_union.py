"""GridUnion: several grids used as one (run, run_profile, save/load/verify results)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from ldpfair import experiments as ex
from ldpfair.datasets import Dataset
from ldpfair.experiments.union import GridUnion


def make_dataset(n: int = 300, seed: int = 0) -> Dataset:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = rng.integers(0, 3, n)
    c = rng.integers(0, 4, n)
    logit = 0.9 * a - 0.4 * b + 0.3 * c
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    frame = pd.DataFrame({"a": a, "b": b, "c": c, "y": y})
    return Dataset(name="toy", frame=frame, target="y", protected="a", sensitive={"a": 2, "b": 3},
                   domains={"a": 2, "b": 3, "c": 4, "y": 2})


TOY = ex.DatasetSpec("toy", dataset=make_dataset())
LR = ex.ModelSpec("logistic_regression")


def part(seed: int, sensitive: tuple[str, ...]) -> ex.Grid:
    return ex.Grid(datasets=TOY, models=LR,
                   privatizations=[None, ex.PrivSpec("GRR", sensitive=sensitive, split="uniform")],
                   epsilons=[1.0], seeds=[seed], evaluation=ex.holdout(0.25), name=f"p{seed}")


def union() -> GridUnion:
    return GridUnion([part(0, ("a",)), part(1, ("a", "b"))], name="u")


def test_tasks_are_the_parts_tasks_with_keys_unchanged():
    u = union()
    tasks = u.tasks()
    expected = part(0, ("a",)).tasks() + part(1, ("a", "b")).tasks()
    assert [t.key for t in tasks] == [t.key for t in expected]
    assert [t.index for t in tasks] == list(range(len(expected)))
    assert len(u) == len(expected) == 4
    d = u.describe()
    assert d["name"] == "u" and d["n_tasks"] == 4 and len(d["parts"]) == 2
    json.dumps(d)
    # per-seed sensitive sets are kept
    assert tasks[1].privatization.sensitive == ("a",) and tasks[3].privatization.sensitive == ("a", "b")


def test_duplicate_task_and_bad_parts_refused():
    with pytest.raises(ValueError, match="repeats a task"):
        GridUnion([part(0, ("a",)), part(0, ("a",))], name="dup").tasks()
    with pytest.raises(ValueError, match="at least one"):
        GridUnion([], name="empty")
    with pytest.raises(TypeError, match="Grid"):
        GridUnion([part(0, ("a",)), "grid"], name="bad")
    with pytest.raises(TypeError, match="sequence"):
        GridUnion(part(0, ("a",)), name="bad")


def test_run_matches_running_parts_and_results_round_trip(tmp_path):
    u = union()
    df = ex.run(u, n_jobs=1, progress=False)
    alone = pd.concat([ex.run(p, n_jobs=1, progress=False) for p in u.parts], ignore_index=True)
    cols = [c for c in ex.metric_columns(df) if c not in ex.TIMING_COLUMNS]
    pd.testing.assert_frame_equal(df[cols], alone[cols])
    assert df.attrs["coverage"] == {"present": 4, "total": 4}

    path = tmp_path / "u"
    ex.save_results(df.iloc[:3], path, grid=u)
    meta = json.loads((tmp_path / "u.meta.json").read_text())
    assert meta["grid"]["n_tasks"] == 4
    loaded, cov = ex.load_results(u, path)
    assert cov == {"present": 3, "total": 4}
    assert loaded["key"].tolist() == df["key"].iloc[:3].tolist()
    fresh = ex.verify_results(u, path, n_cells=2, complete=False)
    assert len(fresh) == 2
    # a tampered value is detected
    bad = df.iloc[:3].copy()
    bad.loc[bad.index[0], "acc"] = bad["acc"].iloc[0] + 0.5
    ex.save_results(bad, tmp_path / "bad", grid=u)  # a new file (over `path` the row would be recomputed)
    with pytest.raises(AssertionError, match="differ"):
        ex.verify_results(u, tmp_path / "bad", n_cells=3, complete=False)


def test_run_profile_accepts_a_union(tmp_path):
    u = union()
    quick = ex.run_profile({"quick": u, "paper": u}, "quick", progress=False)
    assert len(quick) == 4
    paper = ex.run_profile({"quick": u, "paper": u}, "paper", results=tmp_path / "none", progress=False)
    assert paper.empty and paper.attrs["coverage"] == {"present": 0, "total": 4}
