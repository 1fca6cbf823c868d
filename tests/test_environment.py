"""The locked environment and drift naming (issue 39): lock files, `results verify --env`,
`ldpfair doctor`, the lock recorded by new results, and a verify error that names the package."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from packaging.requirements import Requirement

from ldpfair import environment as env
from ldpfair import experiments as ex
from ldpfair import papers
from ldpfair.cli import main
from ldpfair.papers import _cli as results_cli

tomllib = pytest.importorskip("tomllib")

ROOT = Path(__file__).resolve().parents[1]
LOCKS = {"book": ROOT / "requirements" / "lock-book.txt", "dev": ROOT / "requirements" / "lock-dev.txt",
         "binder": ROOT / "binder" / "requirements.txt"}
#: What the issue asks the lock to hold at the committed results' versions.
HELD = ("numpy", "scipy", "scikit-learn", "lightgbm", "numba", "pandas")


def _committed_versions() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for meta in ROOT.glob("results/*/*.meta.json"):
        for lib, ver in (json.loads(meta.read_text()).get("libraries") or {}).items():
            out.setdefault(env._canonical(lib), set()).add(str(ver))
    return out


# ----------------------------------------------------------------------------- the lock files
@pytest.mark.parametrize("which", sorted(LOCKS))
def test_lock_pins_the_committed_results_versions(which):
    pins = env.parse_lock(LOCKS[which])
    committed = _committed_versions()
    assert set(HELD) <= set(committed), "every held library is recorded by some results file"
    for lib, versions in committed.items():
        if lib in ("python", "ldpfair"):
            continue
        assert len(versions) == 1, f"results/ records several {lib} versions: {versions}"
        assert pins.get(lib) == next(iter(versions)), f"{LOCKS[which].name}: {lib}"
    held = dict(line.split("==") for line in (ROOT / "requirements" / "pins.in").read_text().splitlines()
                if line and not line.startswith("#"))
    assert {"jupyter-book", "sphinx"} <= set(held)
    for lib, ver in held.items():
        assert pins[lib] == ver, f"{LOCKS[which].name}: {lib} is held at {ver} by requirements/pins.in"
    assert "ldpfair" not in pins  # the project itself is installed with --no-deps -e .


@pytest.mark.parametrize("which", sorted(LOCKS))
def test_every_locked_package_is_hashed(which):
    """pip's hash-checking mode is all or nothing: one unhashed pin fails the whole install."""
    text = LOCKS[which].read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 2)[2])  # after the 2 header lines
    entries = [e for e in entries if e.strip() and not e.startswith("#")]
    assert len(entries) == len(env.parse_lock(LOCKS[which])) > 50
    unhashed = [e.split()[0] for e in entries if "--hash=sha256:" not in e]
    assert not unhashed


def test_locks_satisfy_pyproject_and_agree_with_each_other():
    """A pyproject.toml change without a re-lock (`bash requirements/lock.sh`) fails here, offline."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]

    def wanted(extra: str) -> list[Requirement]:
        reqs = [Requirement(r) for r in project["dependencies"]]
        todo, seen = [extra], set()
        while todo:
            name = todo.pop()
            seen.add(name)
            for r in map(Requirement, extras[name]):
                if env._canonical(r.name) == "ldpfair":
                    todo += [e for e in r.extras if e not in seen]
                else:
                    reqs.append(r)
        return reqs

    book, dev, binder = (env.parse_lock(LOCKS[k]) for k in ("book", "dev", "binder"))
    for lock, extra in ((book, "book"), (dev, "dev"), (binder, "book")):
        for req in wanted(extra):
            if req.marker is not None and not req.marker.evaluate({"python_version": "3.11",
                                                                   "python_full_version": "3.11.0"}):
                continue  # not installed on the locked Python (e.g. tomli, Python < 3.11 only)
            name = env._canonical(req.name)
            assert name in lock, f"{name} ({extra} extra) is not locked: run bash requirements/lock.sh"
            assert req.specifier.contains(lock[name], prereleases=True), (name, lock[name], str(req))
    assert "otter-grader" in dev and "jupyterlab" in binder
    for other in (dev, binder):
        assert {k: v for k, v in other.items() if k in book} == book


def test_parse_lock_refuses_a_range(tmp_path):
    lock = tmp_path / "lock.txt"
    lock.write_text("numpy==2.4.6 \\\n    --hash=sha256:00\n    # via x\nscipy>=1.11\n")
    with pytest.raises(ValueError, match=r"lock.txt:4: not an exact pin .*scipy>=1.11"):
        env.parse_lock(lock)
    lock.write_text("numpy==2.4.6 \\\n    --hash=sha256:00\nScikit_Learn==1.9.1\n")
    assert env.parse_lock(lock) == {"numpy": "2.4.6", "scikit-learn": "1.9.1"}


# ----------------------------------------------------------------------------- drift naming
def _meta(**libraries: str) -> dict:
    installed = {lib: env.installed_version(lib) for lib in ("numpy", "pandas", "lightgbm")}
    return {"libraries": {**installed, "ldpfair": "0.0.0", **libraries},
            "machine": {"blas": env.blas_kernels()}}


def test_compare_names_only_the_package_that_differs():
    assert env.compare(_meta()) == []  # ldpfair's own version is not a drift
    lgbm = env.installed_version("lightgbm")
    diffs = env.compare(_meta(lightgbm="0.0.1"))
    assert diffs == [env.Difference("lightgbm", "0.0.1", lgbm)]
    assert env.describe_differences(diffs) == f"lightgbm 0.0.1 when committed, {lgbm} installed"
    meta = _meta(**{"not-a-package": "1.0"})
    meta["machine"]["blas"] = ["openblas:Prescott"]
    named = {d.package: d for d in env.compare(meta)}
    assert named["not-a-package"].installed == "missing"
    assert named["BLAS"].committed == "openblas:Prescott"
    assert "no recorded library" in env.describe_differences([])


def noisy(n, method, rng):
    return {"mean": float(rng.normal(0.0, 1.0 if method == "a" else 2.0, size=n).mean())}


@pytest.fixture()
def toy(tmp_path):
    sw = ex.Sweep(noisy, params={"n": [10, 20], "method": ["a", "b"]}, seeds=2, name="toy")
    ex.save_results(ex.run(sw, progress=False), tmp_path / "toy" / "toy", grid=sw)  # paper toy, file toy
    return sw, tmp_path / "toy" / "toy"


def _drift(path: Path, lightgbm: str, values: bool = True) -> None:
    """Record another lightgbm version (and change the committed values), then re-stamp."""
    csv, meta_path = path.with_name("toy.csv.gz"), path.with_name("toy.meta.json")
    if values:
        frame = pd.read_csv(csv)
        frame["mean"] = frame["mean"] + 1.0
        frame.to_csv(csv, index=False, compression={"method": "gzip", "mtime": 0})
    meta = json.loads(meta_path.read_text())
    meta["libraries"]["lightgbm"] = lightgbm
    meta_path.write_text(json.dumps(meta))
    ex.stamp_results(csv, trust=values)  # edited values need --trust (verify then recomputes every cell)


def test_verify_error_names_the_package_and_both_versions(toy, monkeypatch, capsys):
    sw, path = toy
    monkeypatch.setattr(papers, "declared", lambda profile, paper=None: iter([("toy", "toy", sw, path)]))
    assert main(["results", "verify", "--cells", "1", "--seed", "0"]) == 0
    _drift(path, "0.0.1")
    capsys.readouterr()
    assert main(["results", "verify", "--cells", "1", "--seed", "0"]) == 1
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert "BLAS kernel set" not in captured.out  # a library is named: no guess about the kernels
    lgbm = env.installed_version("lightgbm")
    named = [line for line in err if "values differ" in line]
    n_cells = len(sw.tasks())  # a trust-stamped file: every cell recomputed, every one differs
    assert named == [f"ldpfair results: error: {path}.csv.gz: values differ on {n_cells} cells; "
                     f"lightgbm 0.0.1 when committed, {lgbm} installed"]


def test_identical_values_under_another_version_are_noted(toy, monkeypatch, capsys):
    sw, path = toy
    monkeypatch.setattr(papers, "declared", lambda profile, paper=None: iter([("toy", "toy", sw, path)]))
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(path.parents[1]))
    assert main(["results", "verify", "--cells", "1", "--seed", "0"]) == 0
    assert "note:" not in capsys.readouterr().out
    _drift(path, "0.0.1", values=False)
    assert main(["results", "verify", "--cells", "1", "--seed", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "note: identical although the environment differs from the one recorded: "
        f"lightgbm 0.0.1 when committed, {env.installed_version('lightgbm')} installed")


def test_drift_line_needs_a_differing_value(toy):
    _, path = toy
    assert env.drift_line(path, [f"{path}.csv.gz: 1 of 8 tasks of the grid are missing"]) == []
    line = env.drift_line(path, [f"{path}.csv.gz: cell abc column mean: committed 1.0, recomputed 2.0"])
    assert line == [f"{path}.csv.gz: values differ on 1 cell; "
                    "no recorded library version or BLAS kernel differs from this environment"]


# ----------------------------------------------------------------------------- --env, doctor, lock
def test_environment_table_flags_what_differs():
    metas = {"a": _meta(), "b": _meta(lightgbm="0.0.1"), "c": {"libraries": {"numpy": "1.0"}}}
    table = env.environment_table(metas).set_index("package")
    assert table.loc["lightgbm", "agree"] == "NO" and "0.0.1 (1 files)" in table.loc["lightgbm", "committed"]
    assert table.loc["pandas", "agree"] == "yes" and table.loc["pandas", "files"] == 2
    assert table.loc["numpy", "files"] == 3 and table.loc["numpy", "agree"] == "NO"
    assert table.loc["BLAS", "agree"] == "yes" and table.index[-1] == "BLAS"
    assert "ldpfair" not in table.index
    assert table.loc["numpy", "locked"] == env.parse_lock(LOCKS["book"])["numpy"]


def test_verify_env_prints_the_table_without_recomputing(monkeypatch, capsys):
    monkeypatch.setattr(results_cli, "verify", lambda *a, **k: pytest.fail("--env recomputed"))
    assert main(["results", "verify", "--env", "--paper", "xu2019"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["package", "committed", "locked", "installed", "files", "agree"]
    rows = {line.split()[0]: line.split() for line in out[1:]}
    assert {"numpy", "scikit-learn", "lightgbm", "pandas"} <= set(rows)
    n_files = len(list((ROOT / "results" / "xu2019").glob("*.meta.json")))
    assert rows["numpy"][1] == next(iter(_committed_versions()["numpy"])) and rows["numpy"][4] == str(n_files)


def test_doctor_reports_environment_kernels_lock_and_data(capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    for expected in ("ldpfair ", "python 3.", "lock: requirements/lock-book.txt sha256",
                     "kernels (threadpoolctl):", "data and reference folders:", "  data: ",
                     "  reference: ", "LDPFAIR_DATA_DIR", f"numpy {env.installed_version('numpy')}"):
        assert expected in out
    assert re.search(r"^  blas: \S+ .* kernel \S+, \d+ threads", out, re.M)


def test_new_results_record_the_lock_and_status_says_which(toy, tmp_path):
    _, path = toy
    meta = env.read_meta(path)
    assert meta["lock"]["sha256"] == env.lock_sha256() == env.lock_sha256(LOCKS["book"])
    assert meta["lock"]["file"] == "requirements/lock-book.txt"
    assert env.lock_state(meta).startswith("current lock")
    assert env.lock_state({k: v for k, v in meta.items() if k != "lock"}) == "before the lock"
    other = {**meta, "lock": {"sha256": "ab" * 32, "differs": []}}
    assert env.lock_state(other) == "other lock (sha256 abababab)"
    assert env.lock_state({**meta, "lock": {"sha256": env.lock_sha256(), "differs": ["numpy 1 2"]}}) \
        == "current lock (not as locked)"
    assert env.lock_sha256(tmp_path / "nothing.txt") is None


def test_results_status_shows_the_lock_column():
    table = papers.status("xu2019")
    assert list(table.columns) == ["paper", "results", "present", "total", "committed", "lock", "file"]
    metas = {str(m)[: -len(".meta.json")] + ".csv.gz": env.read_meta(m)
             for m in (ROOT / "results" / "xu2019").glob("*.meta.json")}
    for row in table.itertuples():  # committed files: the recorded lock, checked against git
        assert row.committed == "as committed"
        assert row.lock == env.lock_state(metas[str(Path(row.file).resolve())])
