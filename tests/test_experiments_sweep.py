import numpy as np
import pandas as pd
import pytest

from ldpfair import experiments as ex


def noisy_mean(n, scale, rng):
    x = rng.normal(0.0, scale, size=n)
    return {"mean": float(x.mean()), "max": float(x.max())}


def bad_return(rng):
    return [1, 2]


def clashing(rng):
    return {"seed": 1.0}


def test_sweep_product_and_labels():
    sw = ex.Sweep(noisy_mean, params={"n": [10, 100], "scale": [1.0]}, seeds=2, name="demo")
    tasks = sw.tasks()
    assert len(sw) == len(tasks) == 4
    assert tasks[0].labels() == {"sweep": "demo", "n": 10, "scale": 1.0, "seed": 0}
    assert len({t.key for t in tasks}) == 4


def test_sweep_deterministic_across_jobs_and_order():
    sw = ex.Sweep(noisy_mean, params={"n": [50, 500], "scale": [0.5, 2.0]}, seeds=3)
    a = ex.run(sw, n_jobs=1, progress=False)
    b = ex.run(sw, n_jobs=2, progress=False)
    c = ex.run(sw, tasks=list(reversed(sw.tasks())), n_jobs=1, progress=False)
    cols = ["n", "scale", "seed", "mean", "max"]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    pd.testing.assert_frame_equal(
        a[cols].sort_values(cols[:3]).reset_index(drop=True),
        c[cols].sort_values(cols[:3]).reset_index(drop=True),
    )
    # different seeds, different numbers; the statistic behaves as it should
    assert a.groupby(["n", "scale"])["mean"].nunique().eq(3).all()
    assert a.loc[a.n == 500, "mean"].abs().mean() < a.loc[a.n == 50, "mean"].abs().mean() * 2


def test_sweep_cache_commit_and_verify(tmp_path):
    sw = ex.Sweep(noisy_mean, params=[{"n": 20, "scale": 1.0}, {"n": 30, "scale": 3.0}], seeds=2)
    df = ex.run(sw, cache=tmp_path / "cache", progress=False)
    again = ex.run(sw, cache=tmp_path / "cache", compute=False, progress=False)
    assert again.attrs["coverage"] == {"present": 4, "total": 4}
    ex.save_results(df, tmp_path / "res" / "demo", grid=sw)
    loaded, cov = ex.load_results(sw, tmp_path / "res" / "demo")
    assert cov == {"present": 4, "total": 4}
    assert loaded["n"].tolist() == [20, 20, 30, 30]
    np.testing.assert_array_equal(loaded["mean"].to_numpy(), df["mean"].to_numpy())
    ex.verify_results(sw, tmp_path / "res" / "demo", n_cells=2)
    # tamper with one committed value: verification must fail
    path = tmp_path / "res" / "demo.csv.gz"
    stored = pd.read_csv(path)
    stored.loc[0, "mean"] += 1e-12
    stored.to_csv(path, index=False)
    with pytest.raises(ex.results.ResultsIntegrityError, match="sha256"):  # edited by hand
        ex.verify_results(sw, tmp_path / "res" / "demo", n_cells=4)
    with pytest.raises(ex.results.ResultsIntegrityError, match="no longer match the content digest"):
        ex.results.stamp_results(path)
    ex.results.stamp_results(path, trust=True)  # accepted as it is: then every cell is recomputed
    with pytest.raises(AssertionError, match="differ"):
        ex.verify_results(sw, tmp_path / "res" / "demo", n_cells=4)


def test_sweep_validation():
    with pytest.raises(TypeError, match="callable"):
        ex.Sweep(3)
    with pytest.raises(TypeError, match="list of values"):
        ex.Sweep(noisy_mean, params={"n": 10})
    with pytest.raises(ValueError, match="'rng' is passed"):
        ex.Sweep(noisy_mean, params=[{"rng": 1}])
    with pytest.raises(TypeError, match="JSON scalar"):
        ex.Sweep(noisy_mean, params=[{"n": np.zeros(3)}])
    with pytest.raises(ValueError, match="seeds must be >= 1"):
        ex.Sweep(noisy_mean, seeds=0)
    with pytest.raises(TypeError, match="must return a mapping"):
        ex.run(ex.Sweep(bad_return), progress=False)
    with pytest.raises(ValueError, match="clash"):
        ex.run(ex.Sweep(clashing), progress=False)
