"""makhlouf2024: the authors' per-run results and the numbers quoted in the paper's text.

:func:`authors_runs` reads the authors' per-run files in the layout of
:func:`ldpfair.papers.makhlouf2024.aggregate.aggregate_runs`; :func:`agreement_with_authors`
compares ours with them cell by cell; :func:`paper_numbers` and
:func:`quoted_numbers` hold the paper's quoted numbers next to ours.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .aggregate import DISPARITY, RATES

__all__ = ["authors_runs", "agreement_with_authors", "paper_numbers", "quoted_numbers"]

_AUTHORS_SETTING = {"NoLDP": "noLDP", "sLDP": "sLDP", "combsLDP": "combLDP", "indsLDP": "indLDP"}


def authors_runs(data: Sequence[str]) -> pd.DataFrame:
    """The authors' per-run results in the layout of :func:`.aggregate.aggregate_runs`.

    Parameters
    ----------
    data : sequence of str
        The authors' file names (``S1_0.44``, ``compas_3``, ``adult_27260``...).
        Read once (:func:`ldpfair.datasets.reference.compact_table`).
    """
    from ...datasets.reference import compact_table

    names = tuple(data)
    return compact_table("makhlouf2024/", names, lambda: _authors_read(names))


def _authors_read(data: Sequence[str]) -> pd.DataFrame:
    """Read the authors' four files (one per setting) of every name in ``data``."""
    from ...datasets.reference import read_makhlouf2024

    frames = []
    for d in data:
        for setting, ours in _AUTHORS_SETTING.items():
            df = read_makhlouf2024(d, setting)
            out = pd.DataFrame({"data": d, "setting": ours, "epsilon": df["epsilon"].to_numpy(),
                                "seed": df["Seed_num"].to_numpy()})
            for rate in RATES:
                for g in ("maj", "min"):
                    out[f"{rate}_{g}"] = df[f"{rate}_{g}"].astype(np.float64).to_numpy()
            out["acc"] = df["Acc"].astype(np.float64).to_numpy()
            for rate, dname in DISPARITY.items():
                out[dname] = out[f"{rate}_maj"] - out[f"{rate}_min"]
            frames.append(out)
    return pd.concat(frames, ignore_index=True)


def agreement_with_authors(runs: pd.DataFrame, authors: pd.DataFrame,
                           metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Welch comparison of our runs with the authors' runs per (data, setting, epsilon, metric).

    The authors seeded nothing, so no run of theirs shares a split with one of ours:
    :func:`ldpfair.verdicts.compare_runs` with ``pair_on=None`` (Welch 95% interval of
    the two means). Every cell of the authors' is a row; one missing on our side does
    not agree (``n_runs = 0``, test ``"missing"``).

    Returns
    -------
    pandas.DataFrame
        One row per cell and metric: ``data, setting, epsilon, metric, ours, theirs, diff,
        halfwidth, n_runs, test, agrees`` (``theirs`` = the authors' mean).
    """
    from ...verdicts import compare_runs

    metrics = list(metrics or [*DISPARITY.values(), "acc"])
    on = ["data", "setting", "epsilon"]
    out = compare_runs(runs, authors, on, metrics, pair_on=None)
    return out.rename(columns={"paper": "theirs"})[
        [*on, "metric", "ours", "theirs", "diff", "halfwidth", "n_runs", "test", "agrees"]]


def paper_numbers() -> pd.DataFrame:
    """Numbers quoted in the paper's text (signed maj - min; the paper quotes Compas SD unsigned)."""
    return pd.DataFrame([
        {"claim": "Obs1", "data": "compas_1", "setting": "sLDP", "epsilon": 16.0, "metric": "SD",
         "paper": -0.23},
        {"claim": "Obs1", "data": "compas_1", "setting": "sLDP", "epsilon": 0.1, "metric": "SD",
         "paper": -0.15},
        {"claim": "Obs1", "data": "compas_1", "setting": "combLDP", "epsilon": 0.1, "metric": "SD",
         "paper": 0.0},
        {"claim": "Obs4", "data": "compas_3", "setting": "indLDP", "epsilon": 4.0, "metric": "EOD",
         "paper": -0.09},
        {"claim": "Obs4", "data": "compas_3", "setting": "combLDP", "epsilon": 4.0, "metric": "EOD",
         "paper": -0.27},
        {"claim": "Obs4", "data": "adult_27260", "setting": "indLDP", "epsilon": 8.0, "metric": "EOD",
         "paper": 0.43},
        {"claim": "Obs4", "data": "adult_27260", "setting": "combLDP", "epsilon": 8.0, "metric": "EOD",
         "paper": 0.38},
    ])


def quoted_numbers(runs: pd.DataFrame, authors: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's quoted numbers next to ours (:func:`ldpfair.verdicts.compare_welch`).

    Our mean's Student-t 95% interval plus the printed precision (two decimals: 0.005;
    the "0" of Obs1 is read as 0.00, the stricter reading) decides ``agrees``.
    """
    from ...verdicts import compare_welch

    rows = []
    for r in paper_numbers().itertuples(index=False):
        sel = runs.loc[(runs["data"] == r.data) & (runs["setting"] == r.setting)
                       & np.isclose(runs["epsilon"], r.epsilon), r.metric]
        c = compare_welch(sel, r.paper, decimals=2)
        row = {"claim": r.claim, "data": r.data, "setting": r.setting, "epsilon": r.epsilon,
               "metric": r.metric, "paper": r.paper, "ours": c["ours"], "ours ±": c["halfwidth"],
               "diff": c["diff"], "agrees": c["agrees"]}
        if authors is not None:
            a = authors.loc[(authors["data"] == r.data) & (authors["setting"] == r.setting)
                            & np.isclose(authors["epsilon"], r.epsilon), r.metric]
            row["authors' runs"] = a.mean() if len(a) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)
