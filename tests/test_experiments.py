"""Experiment engine: grids, keys, determinism, cache, committed results, profiles."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold, train_test_split

from ldpfair import experiments as ex
from ldpfair.datasets import Dataset
from ldpfair.experiments import engine


def make_dataset(n: int = 400, seed: int = 0) -> Dataset:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = rng.integers(0, 3, n)
    c = rng.integers(0, 4, n)
    x = rng.normal(size=n)
    logit = 0.9 * a - 0.4 * b + 0.3 * c + x
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    frame = pd.DataFrame({"a": a, "b": b, "c": c, "x": x, "y": y})
    return Dataset(name="toy", frame=frame, target="y", protected="a",
                   sensitive={"a": 2, "b": 3}, domains={"a": 2, "b": 3, "c": 4, "y": 2},
                   numeric=["x"])


TOY = ex.DatasetSpec("toy", dataset=make_dataset())
LGBM = ex.ModelSpec("lightgbm", {"n_estimators": 8, "num_leaves": 7})


def small_grid(**kw) -> ex.Grid:
    base = dict(datasets=TOY, models=[LGBM, ex.ModelSpec("logistic_regression")],
                privatizations=[None, ex.PrivSpec("GRR", split="uniform"), ex.PrivSpec("OUE")],
                epsilons=[0.5, 4.0], seeds=2, name="toy")
    base.update(kw)
    return ex.Grid(**base)


def values(df: pd.DataFrame) -> pd.DataFrame:
    return df[ex.metric_columns(df)].reset_index(drop=True)


def test_grid_tasks_and_keys():
    g = small_grid()
    tasks = g.tasks()
    # 2 models x (1 NonDP + 2 mechanisms x 2 epsilons) x 2 seeds
    assert len(tasks) == 2 * (1 + 2 * 2) * 2
    assert len({t.key for t in tasks}) == len(tasks)
    # keys ignore labels but see every option
    relabelled = ex.Grid(datasets=ex.DatasetSpec("toy", dataset=TOY.dataset, label="other"),
                         models=ex.ModelSpec("logistic_regression", label="LR"),
                         privatizations=ex.PrivSpec("GRR", split="uniform", label="kRR"),
                         epsilons=[0.5], seeds=[0])
    same = [t for t in tasks if t.model.model == "logistic_regression"
            and t.privatization.name == "GRR" and t.epsilon == 0.5 and t.seed == 0]
    assert relabelled.tasks()[0].key == same[0].key
    changed = ex.Grid(datasets=TOY, models="lr", privatizations=ex.PrivSpec("GRR"),
                      epsilons=[0.5], seeds=[0])
    assert changed.tasks()[0].key != same[0].key  # split k_based vs uniform


def test_grid_validation():
    with pytest.raises(ValueError, match="unknown protocol"):
        ex.PrivSpec("XYZ")
    with pytest.raises(ValueError, match="split"):
        ex.PrivSpec("GRR", split="equal")
    with pytest.raises(ValueError, match="epsilons"):
        ex.Grid(datasets=TOY, privatizations="GRR", epsilons=[])
    with pytest.raises(ValueError, match="epsilons"):
        ex.Grid(datasets=TOY, privatizations="GRR", epsilons=[-1.0])
    with pytest.raises(ValueError, match="unknown model"):
        ex.ModelSpec("svm")
    with pytest.raises(ValueError, match="test_size"):
        ex.holdout(1.5)


def test_seed_split_matches_authors_train_test_split():
    g = ex.Grid(datasets=TOY, models="lr", seeds=[3, 7],
                evaluation=ex.holdout(0.2, split_random_state="seed", model_random_state="seed"))
    ds = TOY.dataset
    for task in g.tasks():
        train, test = engine._split(task, ds)
        ref_train, ref_test = train_test_split(np.arange(ds.n), test_size=0.2, shuffle=True,
                                               stratify=ds.y, random_state=task.seed)
        np.testing.assert_array_equal(train, ref_train)
        np.testing.assert_array_equal(test, ref_test)
        assert task.model_random_state() == task.seed
    gk = ex.Grid(datasets=TOY, models="lr", seeds=[5],
                 evaluation=ex.kfold(4, split_random_state="seed"))
    ref = list(StratifiedKFold(4, shuffle=True, random_state=5).split(np.zeros(ds.n), ds.y))
    for task in gk.tasks():
        np.testing.assert_array_equal(engine._split(task, ds)[1], ref[task.fold][1])


def test_same_partition_and_model_seed_across_mechanisms():
    tasks = small_grid().tasks()
    by_seed: dict = {}
    for t in tasks:
        by_seed.setdefault((t.model.model, t.seed), set()).add(
            (t.split_random_state(), t.model_random_state()))
    assert all(len(v) == 1 for v in by_seed.values())
    assert len({t.mechanism_seed().entropy for t in tasks}) == len(tasks)


def test_run_tidy_and_deterministic_across_n_jobs_and_order():
    g = small_grid()
    one = ex.run(g, n_jobs=1, progress=False)
    two = ex.run(g, n_jobs=2, progress=False)
    assert len(one) == len(g.tasks())
    assert list(one["key"]) == [t.key for t in g.tasks()]
    pd.testing.assert_frame_equal(values(one), values(two))
    # order does not matter either: run the tasks backwards, one by one
    rev = {t.key: engine.run_task(t) for t in reversed(g.tasks()[:6])}
    for i, t in enumerate(g.tasks()[:6]):
        for col in ex.metric_columns(one):
            a, b = one.loc[i, col], rev[t.key][col]
            assert (pd.isna(a) and pd.isna(b)) or a == b, col
    # sensible content
    assert set(one["mechanism"]) == {"NonDP", "GRR", "OUE"}
    assert one.loc[one.mechanism == "NonDP", "epsilon"].isna().all()
    assert (one["n_test"] == 80).all() and (one["n_train"] == 320).all()
    assert one["acc"].between(0, 1).all()
    grr = one[one.mechanism == "GRR"]
    assert grr["train_Delta_Z"].notna().all()  # GRR one-hot output reveals Z
    assert one.loc[one.mechanism == "OUE", "train_Delta_Z"].isna().all()
    assert {"t_fit", "t_total", "warnings", "Delta_SP", "DI", "SD", "RD", "soft_SP"} <= set(one)
    assert one.attrs["coverage"] == {"present": len(one), "total": len(one)}


def test_kfold_rows_cover_every_row_once():
    g = ex.Grid(datasets=TOY, models=ex.ModelSpec("random_forest", {"n_estimators": 5}),
                privatizations=[None, ex.PrivSpec("GRR", mode="combined", output="values")],
                epsilons=[2.0], seeds=1, evaluation=ex.kfold(4))
    df = ex.run(g, progress=False)
    assert len(df) == 8
    assert sorted(df["fold"].unique()) == [0, 1, 2, 3]
    assert df.groupby("mechanism")["n_test"].sum().eq(400).all()


def test_privatized_test_groups():
    g = ex.Grid(datasets=TOY, models="lr",
                privatizations=ex.PrivSpec("GRR", sensitive=["a"], apply_to="train+test",
                                           output="values"),
                epsilons=[0.1], seeds=1, evaluation=ex.holdout(groups="privatized"))
    priv = ex.run(g, progress=False)
    orig = ex.run(ex.Grid(datasets=TOY, models="lr",
                          privatizations=ex.PrivSpec("GRR", sensitive=["a"],
                                                     apply_to="train+test", output="values"),
                          epsilons=[0.1], seeds=1), progress=False)
    assert priv.loc[0, "n_0"] + priv.loc[0, "n_1"] == 80
    assert priv.loc[0, "n_0"] != orig.loc[0, "n_0"]  # groups from noisy A at eps 0.1
    bad = ex.Grid(datasets=TOY, models="lr", privatizations=ex.PrivSpec("OUE", sensitive=["a"]),
                  epsilons=[1.0], seeds=1, evaluation=ex.holdout(groups="privatized"))
    with pytest.raises(ValueError, match="privatized"):
        ex.run(bad, progress=False)


def test_cache_resume_and_corruption(tmp_path, monkeypatch):
    g = small_grid(models=ex.ModelSpec("logistic_regression"))
    tasks = g.tasks()
    cache = tmp_path / "cache"
    first = ex.run(g, tasks=tasks[:4], cache=cache, progress=False)  # an "interrupted" run
    assert len(first) == 4
    assert ex.coverage(g, cache) == {"present": 4, "total": len(tasks)}
    partial = ex.run(g, cache=cache, compute=False, progress=False)
    assert partial.attrs["coverage"] == {"present": 4, "total": len(tasks)}
    assert len(partial) == 4

    calls = []
    real = engine.run_task
    monkeypatch.setattr(engine, "run_task", lambda t: calls.append(t.key) or real(t))
    full = ex.run(g, cache=cache, progress=False)
    assert len(calls) == len(tasks) - 4  # only the missing cells were computed
    assert not list(cache.rglob("*.tmp"))

    # a truncated file and a file of another schema are ignored and recomputed
    p0 = ex.Cache(cache).path(tasks[0].key)
    p0.write_text(p0.read_text()[:40])
    p1 = ex.Cache(cache).path(tasks[1].key)
    rec = json.loads(p1.read_text())
    rec["schema"] = -1
    p1.write_text(json.dumps(rec))
    calls.clear()
    again = ex.run(g, cache=cache, progress=False)
    assert sorted(calls) == sorted([tasks[0].key, tasks[1].key])
    pd.testing.assert_frame_equal(values(again), values(full))
    cached = ex.run(g, cache=cache, compute=False, progress=False)
    pd.testing.assert_frame_equal(values(cached), values(full))  # exact JSON round trip


def test_save_load_verify_results(tmp_path):
    g = small_grid(models=ex.ModelSpec("logistic_regression"), seeds=1)
    df = ex.run(g, progress=False)
    csv, meta = ex.save_results(df.iloc[:-1], tmp_path / "toy", grid=g, wall_time=1.0)
    assert csv.name == "toy.csv.gz" and meta.name == "toy.meta.json"
    info = json.loads(meta.read_text())
    assert {"code_version", "git_commit", "date", "wall_time_s", "machine", "grid"} <= set(info)
    loaded, cov = ex.load_results(g, tmp_path / "toy")
    assert cov == {"present": len(df) - 1, "total": len(df)}
    pd.testing.assert_frame_equal(values(loaded), values(df.iloc[:-1]), check_dtype=False)
    assert "4 of 5" in ex.coverage_note(cov)
    assert info["sha256"] == ex.results.file_sha256(csv) and info["n_rows"] == len(df) - 1
    fresh = ex.verify_results(g, tmp_path / "toy", n_cells=2, complete=False)
    assert len(fresh) >= 2
    with pytest.raises(AssertionError, match="1 of 5 tasks of the grid are missing"):
        ex.verify_results(g, tmp_path / "toy", n_cells=2)
    # tamper with one committed value: verification must fail
    tampered = df.copy()
    tampered["acc"] = tampered["acc"] + 1e-12
    ex.save_results(tampered, tmp_path / "bad", grid=g)
    with pytest.raises(AssertionError, match="column acc: committed"):
        ex.verify_results(g, tmp_path / "bad", n_cells=1)
    empty, cov0 = ex.load_results(g, tmp_path / "missing")
    assert cov0["present"] == 0 and empty.empty


def test_profiles_paper_reads_committed_only(tmp_path, monkeypatch):
    quick = small_grid(models=ex.ModelSpec("logistic_regression"), seeds=1, epsilons=[1.0])
    paper = small_grid(models=ex.ModelSpec("logistic_regression"), seeds=2, epsilons=[1.0])
    grids = {"quick": quick, "paper": paper}
    monkeypatch.delenv("LDPFAIR_COMPUTE", raising=False)
    computed = ex.run_profile(grids, "paper", results=tmp_path / "r", compute=True,
                              progress=False)
    assert (tmp_path / "r.csv.gz").exists()
    monkeypatch.setattr(engine, "run_task", lambda t: pytest.fail("computed during render"))
    shown = ex.run_profile(grids, "paper", results=tmp_path / "r")
    assert shown.attrs["coverage"] == {"present": len(computed), "total": len(computed)}
    with pytest.raises(ValueError, match="profile"):
        ex.run_profile(grids, "full")


def test_dask_backend_matches_loky():
    """Any joblib backend works: a dask.distributed LocalCluster gives loky's numbers."""
    distributed = pytest.importorskip("dask.distributed")
    from joblib import parallel_config

    g = small_grid(seeds=1, epsilons=[1.0])
    loky = ex.run(g, n_jobs=2, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster), parallel_config("dask"):
        dask = ex.run(g, n_jobs=2, progress=False)
    assert len(dask) == len(g.tasks())
    pd.testing.assert_frame_equal(values(loky), values(dask))


@pytest.mark.data
def test_adult26k_cell_has_the_authors_test_size():
    g = ex.Grid(datasets="adult26k", models=ex.ModelSpec("lightgbm", {"n_estimators": 10}),
                privatizations=[None, ex.PrivSpec("GRR", split="uniform")], epsilons=[1.0],
                seeds=[0], evaluation=ex.holdout(0.2, split_random_state="seed"))
    df = ex.run(g, progress=False)
    assert (df["n_test"] == 9170).all()  # facts_arcolezi2023 section 2
    assert df["n_features"].nunique() == 1
    assert (df["n_0"] + df["n_1"] == 9170).all()


@pytest.mark.data
def test_acs_coverage_cell_keeps_the_constant_state_column():
    from ldpfair.datasets import load
    from ldpfair.papers.arcolezi2023.experiments import SENSITIVE

    ds = load("acs_coverage")
    assert ds.domains["ST"] == 1  # all Texas: a constant feature, one column of ones
    g = ex.Grid(datasets="acs_coverage", models=ex.ModelSpec("lightgbm", {"n_estimators": 5}),
                privatizations=[None, ex.PrivSpec("RAPPOR", sensitive=SENSITIVE["acs_coverage"],
                                                  split="k_based")],
                epsilons=[1.0], seeds=[0], evaluation=ex.holdout(0.2, split_random_state="seed"))
    df = ex.run(g, progress=False)
    assert len(df) == 2 and (df["n_test"] == 19_748).all()
    width = sum(k for c, k in ds.domains.items() if c != ds.target)
    assert (df["n_features"] == width).all()


def test_thread_limit_set_once_per_process_and_restored(monkeypatch):
    import threadpoolctl

    def threads():
        return sorted((d["filepath"], d["num_threads"]) for d in threadpoolctl.threadpool_info())

    g = small_grid(models=LGBM)
    ex.run(g, n_jobs=1, progress=False)  # imports everything the tasks need
    before = threads()
    calls = []
    real = threadpoolctl.threadpool_limits

    def counting(*args, **kwargs):
        calls.append(kwargs.get("limits"))
        return real(*args, **kwargs)

    monkeypatch.setattr(threadpoolctl, "threadpool_limits", counting)
    one = ex.run(g, n_jobs=1, progress=False)
    assert len(one) == len(g.tasks()) > 2
    assert calls == [1]  # once for the run, not once per task
    assert threads() == before  # and undone when the run returns
    limit = engine._ThreadLimit()
    limit.set(1)
    limit.set(1)
    assert calls == [1, 1]  # the second set changes nothing: no second scan
    assert all(n == 1 for _, n in threads())
    limit.restore()
    assert threads() == before
    # a lone run_task limits for its own call only, and gives the same row
    row = engine.run_task(g.tasks()[1])
    assert calls == [1, 1, 1] and threads() == before
    for col in ex.metric_columns(one):
        a, b = one.loc[1, col], row[col]
        assert (pd.isna(a) and pd.isna(b)) or a == b, col


def test_run_profile_completes_the_paper_profile_under_ldpfair_run(tmp_path, monkeypatch):
    from ldpfair.experiments import profiles

    small = small_grid(models=ex.ModelSpec("logistic_regression"), epsilons=[0.5], seeds=1)
    wider = small_grid(models=ex.ModelSpec("logistic_regression"), epsilons=[0.5, 4.0], seeds=1)
    path = tmp_path / "results" / "toy" / "wide"
    ex.save_results(ex.run(small, progress=False), path, grid=small)
    monkeypatch.delenv(profiles.RUN_LEDGER_ENV, raising=False)
    # a book build: committed cells only, nothing computed
    monkeypatch.setattr(engine, "run_task", lambda t: pytest.fail("computed during render"))
    book = ex.run_profile({"paper": wider}, "paper", results=path)
    assert book.attrs["coverage"] == {"present": len(small.tasks()), "total": len(wider.tasks())}
    monkeypatch.undo()
    # `ldpfair run`: the committed cells are read, the others computed, and both counted
    ledger = tmp_path / "ledger.jsonl"
    monkeypatch.setenv(profiles.RUN_LEDGER_ENV, str(ledger))
    computed = []
    real = engine.run_task
    monkeypatch.setattr(engine, "run_task", lambda t: computed.append(t.key) or real(t))
    frame = ex.run_profile({"paper": wider}, "paper", results=path, cache=tmp_path / "cache")
    n_small, n_wide = len(small.tasks()), len(wider.tasks())
    assert sorted(computed) == sorted({t.key for t in wider.tasks()} - {t.key for t in small.tasks()})
    assert list(frame["key"]) == [t.key for t in wider.tasks()]
    assert frame.attrs["coverage"] == {"present": n_wide, "total": n_wide, "committed": n_small,
                                       "computed_now": n_wide - n_small}
    assert "computed now" in ex.coverage_note(frame.attrs["coverage"])
    fresh = ex.run(wider, progress=False).set_index("key")
    cols = [c for c in ex.metric_columns(frame) if c != "warnings"]
    pd.testing.assert_frame_equal(frame.set_index("key")[cols], fresh.loc[frame["key"], cols],
                                  check_dtype=False)
    ex.run_profile({"paper": small}, "paper", results=path)  # complete: read only
    assert profiles.provenance_summary("toy", ledger) == [
        f"toy: {2 * n_small:,} cells from committed results, 0 from the cache, {n_wide - n_small:,} computed",
        f"  wide: {n_small:,} from committed results, 0 from the cache, {n_wide - n_small:,} computed",
    ]
    # a rerun reads the cells computed by the first one from the cache: counted as such
    again = tmp_path / "again.jsonl"
    monkeypatch.setenv(profiles.RUN_LEDGER_ENV, str(again))
    ex.run_profile({"paper": wider}, "paper", results=path, cache=tmp_path / "cache")
    assert profiles.provenance_summary("toy", again)[0] == (
        f"toy: {n_small:,} cells from committed results, {n_wide - n_small:,} from the cache, 0 computed")
    assert profiles.provenance_summary("toy", tmp_path / "none.jsonl") == [
        "toy: no experiment results were read or computed"]


def balanced_error(y_true, y_pred, *, sensitive_features, scores, labels, privileged):
    """A chapter's own metric bundle: the balanced error rate per group."""
    from sklearn.metrics import balanced_accuracy_score

    y, p, a = (np.asarray(v) for v in (y_true, y_pred, sensitive_features))
    return {f"ber_{g}": 1.0 - balanced_accuracy_score(y[a == g], p[a == g]) for g in labels}


def test_a_grid_declares_its_metric_bundle():
    """A declared bundle is computed instead of the default and keys the task; the default keeps the keys."""
    from ldpfair.identity import versioned

    bundle = versioned("1", name="tests.balanced_error")(balanced_error)
    default = ex.Grid(datasets=TOY, models="lr", seeds=[0], evaluation=ex.holdout(0.3))
    own = ex.Grid(datasets=TOY, models="lr", seeds=[0], evaluation=ex.holdout(0.3, metrics=bundle))
    assert "metrics" not in default.tasks()[0].config["evaluation"]  # committed results keep their keys
    assert own.tasks()[0].config["evaluation"]["metrics"] == "callable:tests.balanced_error:1"
    assert own.tasks()[0].key != default.tasks()[0].key
    a, b = ex.run(default, progress=False), ex.run(own, progress=False)
    assert {"ber_0", "ber_1"} <= set(b.columns) and "ber_0" not in a.columns
    assert "acc" in a.columns and "acc" not in b.columns and "SP_a" not in b.columns
    assert 0.0 <= b["ber_0"].iloc[0] <= 0.5 and 0.0 <= b["ber_1"].iloc[0] <= 0.5
    assert (a["n_test"] == b["n_test"]).all()  # same split: the bundle replaces the metrics only
    with pytest.raises(TypeError, match="metrics must be a metric bundle"):
        ex.holdout(0.3, metrics="accuracy")


def test_task_keys_assembled_from_fragments_are_config_keys():
    """The fast key (shared JSON fragments) is byte for byte the key of the full configuration."""
    from dataclasses import replace

    from ldpfair.experiments.grid import config_key

    grids = [small_grid(), small_grid(evaluation=ex.kfold(3), epsilons=[1e300, 1e-3], seeds=[0, 7]),
             ex.Grid(datasets=TOY, models="lr", privatizations=[None, ex.PrivSpec("OUE", sensitive=["a"],
                     options={"k_max": 3})], epsilons=[2.5], evaluation=ex.holdout(0.25, privileged=0))]
    for g in grids:
        for t in g.tasks():
            assert t.fragments is not None
            assert t.key == config_key(t.config) == replace(t, fragments=None).key
        first = g.tasks()  # built once: a new list of the same tasks
        assert first is not g.tasks() and all(a is b for a, b in zip(first, g.tasks(), strict=True))


@pytest.mark.parametrize("value", [None, True, False, 0, -3, 2**70, 0.1, 1e-300, 1e300, -0.0, 4.0,
                                   float("inf"), float("nan"), np.float64(0.5)])
def test_scalar_json_is_canonical_json(value):
    from ldpfair.experiments.grid import _scalar_json, canonical_json

    assert _scalar_json(value) == canonical_json(value)
