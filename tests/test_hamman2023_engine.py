"""hamman2023 computes through the engine: its declarations are the committed results' tasks."""

import hashlib

import pandas as pd
import pytest

from ldpfair import papers

#: sha256 (first 16 hex digits) of the sorted task keys of each committed paper-profile file of
#: hamman2023, and their number, as committed before its own ``compute()`` was removed (#47).
COMMITTED_KEYS = {
    "accuracy": ("5694598e81b84985", 2),
    "fig1": ("d94b969d7d976084", 400),
    "table1": ("9ce3bd2de3ca435a", 320),
    "fig2": ("7fae8ac792389d3f", 2400),
    "table2": ("278740df708c44fd", 180),
    "table3": ("63393179b71d4682", 160),
    "fig4": ("953cb67ecf968ad4", 60),
    "table4": ("0efc51c40181ff8a", 30),
    "table1_reading": ("39ad663e6494e38f", 480),
    "table1_clipped": ("5c366787a9c39cf7", 320),
}


def _digest(keys):
    keys = sorted(keys)
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:16], len(keys)


def test_the_declared_tasks_are_the_committed_keys_unchanged():
    """The engine's declarations of hamman2023 give exactly the task keys committed before the change."""
    declared = {name: grid for _, name, grid, _ in papers.declared("paper", "hamman2023")}
    assert set(declared) == set(COMMITTED_KEYS)
    for name, grid in declared.items():
        assert _digest(t.key for t in grid.tasks()) == COMMITTED_KEYS[name], (
            f"{name}: the declared task keys changed; the committed results would be recomputed")


def test_the_committed_files_hold_those_keys():
    for _, name, _, path in papers.declared("paper", "hamman2023"):
        assert _digest(pd.read_csv(f"{path}.csv.gz", usecols=["key"])["key"]) == COMMITTED_KEYS[name], name


#: The chapter's derived tables (forensics of the published errors), computed by the engine too.
DERIVED = ("forensics_readings", "forensics_cells", "forensics_implied", "forensics_percell")


def test_the_chapter_has_no_compute_of_its_own():
    """Every committed file is computed by `ldpfair results compute hamman2023` (the engine)."""
    from ldpfair.experiments.recompute import plan
    from ldpfair.papers.hamman2023 import cells, experiments, forensics

    assert not any(hasattr(m, "compute") for m in (experiments, forensics, cells))
    table = plan(["hamman2023"])
    assert table["experiment"].tolist() == [*COMMITTED_KEYS, *DERIVED]
    assert (table["to compute"] == 0).all() and (table["committed"] == table["cells"]).all()
    from ldpfair.config import results_dir

    committed = {p.name.removesuffix(".csv.gz") for p in results_dir("hamman2023").glob("*.csv.gz")}
    assert committed == {*COMMITTED_KEYS, *DERIVED}, "every committed file is declared"
    forced = plan(["hamman2023"], "forensics_cells", force=True)  # its group is computed whole
    assert forced["experiment"].tolist() == list(DERIVED[:3]) and forced["to compute"].tolist() == [1, 1, 1]
    assert forced["core-hours"].iloc[0] > 0 and (forced["core-hours"].iloc[1:] == 0).all()


# -- derived tables: written, planned and verified by the engine ------------------------------------
FACTOR = {"x": 1.0}


def table(n: int = 3) -> dict[str, pd.DataFrame]:
    """A derived group of two tables (module-level, so that a Derived can name it)."""
    frame = pd.DataFrame({"i": range(n), "v": [FACTOR["x"] * (i + 0.1) / 3 for i in range(n)]})
    return {"one": frame, "two": frame.assign(w=frame["v"] * 2)}


def test_a_derived_group_is_written_checked_and_recomputed_whole(tmp_path, monkeypatch):
    from ldpfair.experiments import check_results_file
    from ldpfair.experiments import derived as dv
    from ldpfair.papers.contract import Derived

    group = Derived(("one", "two"), __name__, "table", {"n": 4})
    assert dv.missing_derived(group, tmp_path) == ["one", "two"]
    rows, problems = dv.verify_derived(group, tmp_path, base=None)
    assert [r["problems"] for r in rows] == [1, 1] and all("missing" in p for p in problems)
    assert dv.compute_derived(group, tmp_path)["written"]
    assert not dv.compute_derived(group, tmp_path)["computed"]  # present: nothing to do
    assert len(check_results_file(tmp_path / "one.csv.gz", require_key=False)) == 4
    rows, problems = dv.verify_derived(group, tmp_path, base=None)  # unchanged: checksums only
    assert not problems and [r["checked"] for r in rows] == [0, 0]
    rows, problems = dv.verify_derived(group, tmp_path, base=None, whole=True)  # --all: byte for byte
    assert not problems and [r["checked"] for r in rows] == [4, 4]
    monkeypatch.setitem(FACTOR, "x", 1.0 + 1e-15)  # the code now computes something else
    rows, problems = dv.verify_derived(group, tmp_path, base=None, whole=True)
    assert [r["problems"] for r in rows] == [1, 1] and "does not reproduce (line 2" in problems[0]
    (tmp_path / "two.csv.gz").write_bytes((tmp_path / "one.csv.gz").read_bytes())  # an edited file
    rows, problems = dv.verify_derived(group, tmp_path, base=None)
    assert rows[1]["problems"] == 1 and "two.csv.gz" in problems[0]
    with pytest.raises(ValueError, match="returned .'one', 'two'., declared .'one'."):
        Derived(("one",), __name__, "table").compute()
