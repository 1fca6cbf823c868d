import sys
import types

import pandas as pd
import pytest

from ldpfair import cli, papers
from ldpfair import experiments as ex


def draw(n, rng):
    return {"x": float(rng.random(n).sum())}


@pytest.fixture
def fake_paper(monkeypatch, tmp_path):
    sweep = ex.Sweep(draw, params={"n": [3, 4]}, seeds=2, name="draws")
    mod = types.ModuleType("ldpfair.papers.xu2019")
    mod.PROFILES = {"quick": {"draws": sweep}, "paper": {"draws": sweep}}
    monkeypatch.setitem(sys.modules, "ldpfair.papers.xu2019", mod)
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path))
    return sweep, tmp_path


def test_unknown_paper():
    with pytest.raises(ValueError, match="unknown paper 'nope'; valid: arcolezi2023"):
        papers.module("nope")


def test_status_and_verify_with_committed_results(fake_paper, capsys):
    sweep, root = fake_paper
    st = papers.status("xu2019")
    assert st.loc[0, ["present", "total"]].tolist() == [0, 4]
    assert papers.verify("xu2019").loc[0, "checked"] == 0  # nothing committed: nothing to check
    ex.save_results(ex.run(sweep, progress=False), root / "xu2019" / "draws", grid=sweep)
    assert papers.status("xu2019").loc[0, "present"] == 4
    assert papers.verify("xu2019", n_cells=3).loc[0, "checked"] == 3
    assert cli.main(["results", "verify", "--paper", "xu2019"]) == 0
    assert "identical to the committed results" in capsys.readouterr().out
    # a committed value that the code no longer produces fails verification
    path = root / "xu2019" / "draws.csv.gz"
    df = pd.read_csv(path)
    df["x"] += 1.0
    df.to_csv(path, index=False)
    table = papers.verify("xu2019", n_cells=1)  # an edited file: its checksum no longer matches
    assert table.loc[0, "problems"] == 1 and "sha256" in table.attrs["problems"][0]
    ex.stamp_results(path)  # even re-stamped, the recomputation tells
    table = papers.verify("xu2019", n_cells=1, seed=0)
    assert table.loc[0, "problems"] >= 1
    assert all("column x: committed" in p for p in table.attrs["problems"])
