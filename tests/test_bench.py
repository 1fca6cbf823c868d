"""``ldpfair bench``: user mechanisms and dataset cards through the synthesis chapter."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ldpfair.cli import main

ROOT = Path(__file__).resolve().parents[1]
MECH = f"{ROOT / 'examples' / 'tilted_rr.py'}:tilted_rr"
CARD = str(ROOT / "examples" / "law_school.toml")


def _one_line_error(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("ldpfair bench: error: ")
    return err


def test_leaky_mechanisms_are_refused_before_anything_runs(tmp_path, capsys):
    leaky = tmp_path / "leaky.py"
    leaky.write_text("import numpy as np\n\ndef rr(k, epsilon):\n"
                     "    return np.array([[0.95, 0.05], [0.05, 0.95]])\n")
    out = tmp_path / "out.ipynb"
    err = _one_line_error(capsys, ["bench", "--mechanism", f"{leaky}:rr", "-o", str(out)])
    assert "privacy audit refused" in err and "inputs (0, 1) and output 0" in err
    assert not out.exists() and not (tmp_path / "out_files").exists()
    err = _one_line_error(capsys, ["bench", "--mechanism", "no_such_pkg.mod:X", "-o", str(out)])
    assert "could not import module 'no_such_pkg.mod'" in err
    assert "--mechanism or --dataset" in _one_line_error(capsys, ["bench"])


@pytest.mark.slow
@pytest.mark.data
def test_bench_ranks_the_example_mechanism_on_the_example_card(tmp_path, capsys):
    out = tmp_path / "report.ipynb"
    argv = ["bench", "--mechanism", MECH, "--dataset", CARD, "--datasets", "german", "--epsilons", "4",
            "--seeds", "1", "--profile", "quick", "-o", str(out)]
    assert main(argv) == 0
    stdout = capsys.readouterr().out
    assert "admitted tilted_rr at epsilon=4: exact level 4" in stdout
    files = tmp_path / "report_files"
    board = pd.read_csv(files / "leaderboard.csv")
    assert set(board["mechanism"]) == {"GRR", "SS", "OPT", "tilted_rr"}
    assert (board["datasets"] == 2).all()  # german and the card's law_school
    cards = pd.read_csv(files / "mechanism_cards.csv")
    assert cards["audit_lower_bound"].iloc[0] <= cards["level"].iloc[0] == pytest.approx(4.0)
    text = json.dumps(json.loads(out.read_text()))
    assert "law_school" in text and "tilted_rr" in text
    assert (files / "figures" / "synthesis" / "leaderboard.png").exists()


def test_same_channel_five_ways_lands_in_one_group_and_the_note_says_so():
    import numpy as np

    from ldpfair.papers.synthesis import ranks

    rng = np.random.default_rng(44)
    rows = []
    for ds in ("adult", "german", "compas"):
        for seed in range(5):
            truth = rng.normal(2.0, 1.0)  # the same channel: the same gain up to seed noise
            for m in ("GRR", "SS", "pureDE", "mfGRR", "mfSS"):
                rows.append({"dataset": ds, "seed": seed, "mechanism": m,
                             "fairness_gain": truth + rng.normal(0, 0.3)})
            rows.append({"dataset": ds, "seed": seed, "mechanism": "NonDP-like",
                         "fairness_gain": -10 + rng.normal(0, 0.3)})
    board = ranks.rank_uncertainty(pd.DataFrame(rows), n_boot=500)
    groups = board.groupby("group")["mechanism"].apply(set).tolist()
    assert {"GRR", "SS", "pureDE", "mfGRR", "mfSS"} in groups and {"NonDP-like"} in groups
    assert (board["rank_low"] <= board["rank"]).all() and (board["rank"] <= board["rank_high"]).all()
    assert (board["gain_low"] <= board["gain_high"]).all()
    note = ranks.rank_note(board)
    assert note is not None and note.count("\n") == 0 and "not significant" in note
    assert ranks.rank_note(board[board["mechanism"] == "NonDP-like"]) is None


def test_sign_flip_p_is_exact_and_its_groups_keep_their_level():
    import numpy as np
    from scipy import stats

    from ldpfair.papers.synthesis import ranks

    rng = np.random.default_rng(7)
    # exact: every difference positive over m blocks gives p = 2 / 2^m (the two extreme patterns)
    assert ranks.sign_flip_p(np.ones(6), rng) == 2 / 64
    assert ranks.sign_flip_p(np.array([1.0, -1.0]), rng) == 1.0
    # under the null (exchangeable mechanisms) the test's p-values are valid: P(p <= 0.05) <= 0.05
    ps = np.array([ranks.sign_flip_p(rng.standard_t(3, 10), rng) for _ in range(600)])
    assert stats.binomtest(int((ps <= 0.05).sum()), 600, 0.05, alternative="greater").pvalue > 0.001
    # five implementations of one channel, 3 data sets x 5 seeds, heavy-tailed seed noise: one group in at
    # least 95% of runs (Bonferroni over the 4 comparisons with the leader)
    split = 0
    for r in range(200):
        rows = [{"dataset": ds, "seed": s, "mechanism": m, "fairness_gain": t + rng.standard_t(3) * 0.3}
                for ds in ("a", "b", "c") for s in range(5) for t in [rng.normal(2.0, 1.0)]
                for m in ("GRR", "SS", "pureDE", "mfGRR", "mfSS")]
        board = ranks.rank_uncertainty(pd.DataFrame(rows), n_boot=50, seed=r)
        split += board["group"].nunique() > 1
    assert stats.binomtest(split, 200, 0.05, alternative="greater").pvalue > 0.001, split
    # and it has power: one mechanism better by one noise unit in every block leads a group of its own
    rows = [{"dataset": ds, "seed": s, "mechanism": m,
             "fairness_gain": (1.0 if m == "Better" else 0.0) + rng.normal(0, 0.3)}
            for ds in ("a", "b", "c") for s in range(5) for m in ("Better", "GRR", "SS")]
    board = ranks.rank_uncertainty(pd.DataFrame(rows), n_boot=200)
    assert board.loc[board["mechanism"] == "Better", "group"].item() == 1
    assert set(board.loc[board["group"] == 2, "mechanism"]) == {"GRR", "SS"}
