"""The authors' runs read once: :func:`ldpfair.datasets.reference.compact_table`."""

from __future__ import annotations

import pickle

import pandas as pd
import pytest

from ldpfair.datasets import reference


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LDPFAIR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(reference, "_COMPACT", {})
    return tmp_path / "cache" / "reference"


def _builder(calls: list[int], value: float = 1.5):
    def build() -> pd.DataFrame:
        calls.append(1)
        return pd.DataFrame({"x": [value, 2.0], "name": ["a", "b"]})
    return build


def test_built_once_then_read_from_its_checksummed_file(cache, monkeypatch):
    calls: list[int] = []
    first = reference.compact_table("makhlouf2024/", ("S1_0.44",), _builder(calls))
    assert calls == [1]
    pkl = list(cache.glob("makhlouf2024-*.pkl"))
    assert len(pkl) == 1 and pkl[0].with_suffix(".sha256").is_file()
    first.loc[0, "x"] = -1.0  # a copy: the caller's edits do not reach the table
    again = reference.compact_table("makhlouf2024/", ("S1_0.44",), _builder(calls))
    assert calls == [1] and again["x"].tolist() == [1.5, 2.0]
    monkeypatch.setattr(reference, "_COMPACT", {})  # another process: from the file
    other = reference.compact_table("makhlouf2024/", ("S1_0.44",), _builder(calls))
    assert calls == [1] and other.equals(again)
    # other arguments, another file
    reference.compact_table("makhlouf2024/", ("compas_3",), _builder(calls))
    assert calls == [1, 1] and len(list(cache.glob("makhlouf2024-*.pkl"))) == 2


def test_an_edited_or_damaged_file_is_rebuilt_from_the_sources(cache, monkeypatch):
    calls: list[int] = []
    reference.compact_table("arcolezi2023/", ("lsac",), _builder(calls))
    (pkl,) = cache.glob("arcolezi2023-*.pkl")
    forged = pd.DataFrame({"x": [9.0, 9.0], "name": ["a", "b"]})
    pkl.write_bytes(pickle.dumps(forged))  # edited without its checksum
    monkeypatch.setattr(reference, "_COMPACT", {})
    out = reference.compact_table("arcolezi2023/", ("lsac",), _builder(calls))
    assert calls == [1, 1] and out["x"].tolist() == [1.5, 2.0]
    pkl.write_bytes(b"not a pickle")
    pkl.with_suffix(".sha256").write_text("0" * 64 + "\n")
    monkeypatch.setattr(reference, "_COMPACT", {})
    out = reference.compact_table("arcolezi2023/", ("lsac",), _builder(calls))
    assert calls == [1, 1, 1] and out["x"].tolist() == [1.5, 2.0]


@pytest.mark.data
def test_the_compact_authors_runs_are_the_files_rows(cache):
    from ldpfair.papers.arcolezi2023 import authors as arc
    from ldpfair.papers.makhlouf2024 import authors as mk

    names = ["compas_3", "adult_27260"]
    assert mk.authors_runs(names).equals(mk._authors_read(names))
    assert mk.authors_runs(names).equals(mk._authors_read(names))  # the second, from the compact file
    args = ("lsac", False, ("GRR", "SS"), ("uniform",), (1.0, 8.0))
    arc._authors_cached.cache_clear()
    assert arc._authors_cached(*args).equals(arc._authors_read(*args))


def test_the_fast_reader_of_the_arcolezi_files_is_the_public_reader():
    """``_authors_read`` parses only the seed and metric columns: the same frame as ``read_arcolezi2023``."""
    import numpy as np

    from ldpfair.papers.arcolezi2023 import authors as arc

    args = ("adult26k", True, ("GRR", "RAPPOR", "THE"), ("uniform", "k_based"), (0.25, 1.0, 50.0))
    cols = ["acc", "f1", "auc", "recall", "DI", "SPD", "EOD", "OAD"]
    base = reference.read_arcolezi2023_nonprivate("adult26k")
    parts = [pd.DataFrame({"mechanism": "NonDP", "split": None, "epsilon": np.nan,
                           "seed": base["seed"].to_numpy()}).join(base[cols])]
    for p in args[2]:
        for s in args[3]:
            for e in args[4]:
                df = reference.read_arcolezi2023("adult26k", p, s, e, appendix=True)
                parts.append(pd.DataFrame({"mechanism": p, "split": s, "epsilon": e,
                                           "seed": df["seed"].to_numpy()}).join(df[cols]))
    expected = pd.concat(parts, ignore_index=True).rename(columns={"auc": "auc_labels"})
    expected.insert(0, "dataset", "adult26k")
    expected[list(arc.METRICS)] = expected[list(arc.METRICS)].astype(np.float64)
    pd.testing.assert_frame_equal(arc._authors_read(*args), expected, check_exact=True)
