"""Five implementations of one k = 2 channel land in one group of the bench leaderboard (issue #44)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ldpfair.cli import main

pytest.importorskip("statsmodels")  # pure-ldp imports it
pytest.importorskip("pure_ldp")
pytest.importorskip("multi_freq_ldpy")
FIXTURES = Path(__file__).resolve().parent / "fixtures_thirdparty.py"


@pytest.mark.slow
@pytest.mark.data
def test_same_channel_five_ways_on_real_data_is_one_group(tmp_path, capsys):
    # built-in GRR and SS (the profile's baselines), pure-ldp DE, multi-freq-ldpy GRR and SS: at k = 2
    # all five are randomised response with p = e^eps / (e^eps + 1); quick profile, COMPAS and German
    argv = ["bench", "--profile", "quick", "-o", str(tmp_path / "bench.ipynb")]
    for name in ("PureDE", "MfGRR", "MfSS"):
        argv += ["--mechanism", f"{FIXTURES}:{name}"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "real values) ..." in out  # the run's protected column went through each audit
    board = pd.read_csv(tmp_path / "bench_files" / "leaderboard.csv")
    five = {"GRR", "SS", "PureDE", "MfGRR", "MfSS"}
    assert five <= set(board["mechanism"])
    groups = board.groupby("group")["mechanism"].apply(set).tolist()
    assert any(five <= g for g in groups), groups
    assert "ranks are not significant within a group" in out
