"""hamman2023 computes through the engine: its declarations are the committed results' tasks."""

import hashlib

import pandas as pd

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


def test_the_chapter_has_no_compute_of_its_own():
    """Every paper-profile experiment is computed by `ldpfair results compute hamman2023` (the engine)."""
    from ldpfair.experiments.recompute import plan
    from ldpfair.papers.hamman2023 import experiments

    assert not hasattr(experiments, "compute")
    table = plan(["hamman2023"])
    assert table["experiment"].tolist() == list(COMMITTED_KEYS)
    assert (table["to compute"] == 0).all() and (table["committed"] == table["cells"]).all()
