"""`ldpfair results compute`'s engine: plan, resumable recomputation, and the dask backend."""

from __future__ import annotations

import pandas as pd
import pytest

from ldpfair.datasets import data_available
from ldpfair.experiments import TIMING_COLUMNS, load_results, run
from ldpfair.experiments import recompute as rc

needs_data = pytest.mark.skipif(not data_available(),
                                reason="dataset files not reachable (set LDPFAIR_DATA_DIR)")


def _small_grid():
    from ldpfair.papers.arcolezi2023 import SPEC

    return SPEC.experiments("quick", protocols=["GRR", "SS"], splits=["uniform"], epsilons=[1.0],
                            seeds=[0, 1], appendix=False)["lsac"]


def _values(frame: pd.DataFrame) -> pd.DataFrame:
    drop = [c for c in (*TIMING_COLUMNS, "warnings") if c in frame.columns]
    return frame.drop(columns=drop).reset_index(drop=True)


def test_arguments_are_checked():
    with pytest.raises(ValueError, match="unknown paper"):
        rc.plan(["nopaper"])
    with pytest.raises(ValueError, match="no declared experiment 'nothing'"):
        rc.plan(["xu2019"], "nothing")
    with pytest.raises(ValueError, match="n_jobs"):
        rc.recompute(["xu2019"], n_jobs=0)
    with pytest.raises(ValueError, match="not both"), rc.backend(scheduler="tcp://x", local_cluster=1):
        pass
    with pytest.raises(ValueError, match="local_cluster"), rc.backend(local_cluster=0):
        pass


def test_plan_counts_every_declared_experiment():
    table = rc.plan()
    assert {"arcolezi2023", "makhlouf2024", "ghoukasian2025", "hamman2023", "xu2019"} <= set(table["paper"])
    assert (table["committed"] <= table["cells"]).all()
    assert (table["to compute"] == table["cells"] - table["committed"]).all()
    forced = rc.plan(["xu2019"], force=True)
    assert (forced["to compute"] == forced["cells"]).all() and (forced["core-hours"] > 0).all()


@needs_data
@pytest.mark.slow
def test_local_cluster_rows_are_identical_to_one_process(tmp_path):
    grid = _small_grid()
    one = run(grid, n_jobs=1, progress=False)
    with rc.backend(local_cluster=2) as what:
        assert "LocalCluster" in what
        two = run(grid, n_jobs=2, progress=False, cache=tmp_path / "cache")
    pd.testing.assert_frame_equal(_values(one), _values(two))


@needs_data
@pytest.mark.slow
def test_recompute_fills_the_missing_cells_and_resumes(tmp_path, monkeypatch):
    grid = _small_grid()
    path = tmp_path / "results" / "demo"
    monkeypatch.setattr(rc, "_experiments", lambda papers, experiment: [("demo", "demo", grid, path)])
    # one committed cell: only the others are computed, and the file ends complete, in grid order
    first = run(grid, n_jobs=1, progress=False, tasks=grid.tasks()[:1])
    from ldpfair.experiments import save_results

    save_results(first, path, grid=grid)
    assert rc.plan()["to compute"].tolist() == [len(grid.tasks()) - 1]
    out = rc.recompute(n_jobs=1, cache=tmp_path / "cache", progress=False)
    assert out["computed"].tolist() == [len(grid.tasks()) - 1] and out["written"].tolist() == [True]
    frame, cov = load_results(grid, path)
    assert cov["present"] == cov["total"] and frame["key"].tolist() == [t.key for t in grid.tasks()]
    full = run(grid, n_jobs=1, progress=False)
    pd.testing.assert_frame_equal(_values(frame)[_values(full).columns], _values(full), check_dtype=False)
    again = rc.recompute(n_jobs=1, cache=tmp_path / "cache", progress=False)
    assert again["computed"].tolist() == [0] and again["written"].tolist() == [False]


def test_cli_dry_run_prints_the_plan(capsys):
    from ldpfair import cli

    assert cli.main(["results", "compute", "xu2019", "--experiment", "table1", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "table1" in out and "cells to compute" in out and "core-hours" in out
    assert cli.main(["results", "compute", "xu2091", "--dry-run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("ldpfair results: error: unknown paper")
