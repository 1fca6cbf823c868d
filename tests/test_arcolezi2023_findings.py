"""arcolezi2023 chapter helpers: Fig. 1 as the chapter's table, Figs. 2-13 saved and glued (issue #36)."""

from __future__ import annotations

import matplotlib
import pandas as pd
import pytest

from ldpfair.ldp import PROTOCOLS
from ldpfair.papers.arcolezi2023 import example, figures
from ldpfair.papers.arcolezi2023 import experiments as exp

matplotlib.use("Agg")


def test_figure1_is_the_worked_example_with_the_chapters_caption():
    t = example.figure1(3, 2.0)
    raw = example.worked_example(3, 5, 2.0, rng=2023)
    assert list(t.frame["protocol"]) == list(PROTOCOLS)
    # every cell is the worked example's (same draws: the seed is the chapter's, 2023)
    assert t.frame.drop(columns="protocol").to_numpy().tolist() == \
        raw.drop(columns="protocol").astype(str).to_numpy().tolist()
    assert t.caption == ("Figure 1. The race of one Adult user (k = 5, true value 3) at ε = 2: client-side "
                         "encoding, the report sent, and the server-side vector the model is trained on.")
    with pytest.raises(ValueError, match="value"):
        example.figure1(5, 1.0)


def _results(experiment: str, seeds: int) -> pd.DataFrame:
    """A small tidy frame of every dataset for one experiment: NonDP and GRR at two budgets."""
    rows = []
    for ds in exp.DATASETS:
        for seed in range(seeds):
            rows.append({"dataset": ds, "mechanism": "NonDP", "split": None, "epsilon": float("nan"),
                         "seed": seed, **{m: 0.5 for m in ("DI", "SPD", "EOD", "OAD", "acc", "f1",
                                                            "auc_labels", "recall")}})
            for split in ("uniform", "k_based"):
                for eps in (1.0, 8.0):
                    rows.append({"dataset": ds, "mechanism": "GRR", "split": split, "epsilon": eps,
                                 "seed": seed, **{m: 0.4 + 0.01 * seed for m in
                                                  ("DI", "SPD", "EOD", "OAD", "acc", "f1", "auc_labels",
                                                   "recall")}})
    return pd.DataFrame(rows).assign(experiment=experiment)


def test_glue_figures_draws_each_figure_from_its_experiment_and_saves_it(tmp_path, monkeypatch):
    from ldpfair import style

    main, theirs_main = _results("main", 2), _results("main", 4)
    app, theirs_app = _results("appendix", 3), _results("appendix", 4)
    glued = []
    monkeypatch.setattr("myst_nb.glue", lambda key, obj, display=True: glued.append((key, obj)))
    figures.glue_figures([4, 10, 11], main, app, theirs_main, theirs_app, folder=tmp_path)
    keys = ["arcolezi2023_fig4", "arcolezi2023_fig10", "arcolezi2023_fig11"]
    assert [k for k, _ in glued] == keys and all(obj.data[:4] == b"\x89PNG" for _, obj in glued)
    for key in keys:
        assert (tmp_path / f"{key}.png").stat().st_size > 0 and (tmp_path / f"{key}.pdf").exists()
    made = {}  # what each figure is drawn from
    monkeypatch.setattr(style, "figures", lambda makers, folder, n_jobs=1: made.update(makers))
    figures.glue_figures([4, 10, 11], main, app, theirs_main, theirs_app, folder=tmp_path)
    drawn = [make() for make in made.values()]
    titles = [next(ax.get_title() for ax in fig.axes if ax.get_title()) for fig in drawn]
    # Fig. 4 is the main experiment's LSAC (2 of 4 seeds), Figs. 10-11 the appendix's (3 of 4)
    assert titles == ["LSAC (2 of 4 seeds): uniform split", "LSAC (3 of 4 seeds): uniform split",
                      "Adult (3 of 4 seeds): uniform split"]
    assert [ax.get_ylabel() for ax in drawn[2].axes[::2]] == ["accuracy", "F1", "AUC (hard labels)",
                                                              "recall"]
    # no results of ours: the authors' runs are the curves
    figures.glue_figures([2], main.iloc[:0], app, theirs_main, theirs_app, folder=tmp_path)
    assert next(ax.get_title() for ax in made["arcolezi2023_fig2"]().axes if ax.get_title()) == \
        "Adult, authors' runs: uniform split"
    with pytest.raises(ValueError, match="no Figure 14"):
        figures.glue_figures([14], main, app, theirs_main, theirs_app, folder=tmp_path)
