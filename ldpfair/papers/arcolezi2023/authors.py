"""arcolezi2023's published per-seed results and their cell-by-cell agreement with ours.

The authors published every run (``results/<dataset>/<protocol>/<split>/...``);
:func:`authors_results` reads them into the layout of our tidy results and
:func:`agreement_with_authors` compares the two sides by the book's verdict
rules (:mod:`ldpfair.verdicts`), paired on the 20 seeds both sides share.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...ldp import PROTOCOLS
from .experiments import DATASETS, EPSILONS, FAIRNESS, SENSITIVE, SPLITS, UTILITY

__all__ = ["CELL", "METRICS", "agreement_summary", "agreement_with_authors", "authors_results", "cells"]

#: Every metric of the authors' result files, under our names.
METRICS: tuple[str, ...] = (*UTILITY, *FAIRNESS)


def authors_results(
    datasets: Sequence[str] = DATASETS,
    *,
    appendix: bool = False,
    protocols: Sequence[str] = PROTOCOLS,
    splits: Sequence[str] = SPLITS,
    epsilons: Sequence[float] = EPSILONS,
) -> pd.DataFrame:
    """The authors' per-seed results in the layout of our tidy results.

    Columns ``dataset`` (ldpfair name), ``mechanism`` (the paper's protocol names,
    ``NonDP`` for the baseline), ``split`` (None for NonDP), ``epsilon`` (NaN for
    NonDP), ``seed`` and the metrics ``acc, f1, auc_labels`` (their ``auc``, from
    hard labels), ``recall, DI, SPD, EOD, OAD``. The NonDP rows are the authors'
    non-private runs, which their appendix figures reuse as well.

    Parameters
    ----------
    datasets : sequence of str
        ldpfair dataset names.
    appendix : bool
        The appendix experiment's files (``Appendix_*``).
    protocols, splits, epsilons : sequences
        Cells to read.
    """
    frames = [_authors_cached(ds, bool(appendix), tuple(protocols), tuple(splits),
                              tuple(float(e) for e in epsilons)) for ds in datasets]
    return pd.concat(frames, ignore_index=True).copy() if frames else pd.DataFrame()


@functools.lru_cache(maxsize=16)
def _authors_cached(ds: str, appendix: bool, protocols: tuple[str, ...], splits: tuple[str, ...],
                    epsilons: tuple[float, ...]) -> pd.DataFrame:
    from ...datasets.reference import compact_table

    if ds not in SENSITIVE:
        raise ValueError(f"invalid dataset={ds!r}; valid: {', '.join(SENSITIVE)}")
    return compact_table("arcolezi2023/", (ds, appendix, protocols, splits, epsilons),
                         lambda: _authors_read(ds, appendix, protocols, splits, epsilons))


def _authors_read(ds: str, appendix: bool, protocols: tuple[str, ...], splits: tuple[str, ...],
                  epsilons: tuple[float, ...]) -> pd.DataFrame:
    """Read the authors' files of one dataset (one per protocol, split and epsilon).

    Only the seed and metric columns of each file are parsed; the cell columns are
    built once for all files.
    """
    from ...datasets.reference import arcolezi2023_file, read_arcolezi2023_nonprivate

    base = read_arcolezi2023_nonprivate(ds)
    cells: list[tuple[str, str | None, float]] = [("NonDP", None, np.nan)]
    frames = [base[["seed", *_AUTHOR_COLS]]]
    for p in protocols:
        for s in splits:
            for e in epsilons:
                path = arcolezi2023_file(ds, p, s, e, appendix=appendix)
                frames.append(pd.read_csv(path, usecols=["seed", *_AUTHOR_COLS])[["seed", *_AUTHOR_COLS]])
                cells.append((p, s, float(e)))
    sizes = [len(f) for f in frames]
    values = pd.concat(frames, ignore_index=True)
    out = pd.DataFrame({"dataset": ds,
                        "mechanism": np.repeat([c[0] for c in cells], sizes),
                        "split": pd.Series(np.repeat(np.array([c[1] for c in cells], dtype=object), sizes),
                                           dtype=object),
                        "epsilon": np.repeat([c[2] for c in cells], sizes).astype(np.float64),
                        "seed": values["seed"].to_numpy()})
    out = out.join(values[_AUTHOR_COLS].rename(columns={"auc": "auc_labels"}))
    for c in METRICS:
        out[c] = out[c].astype(np.float64)
    return out


_AUTHOR_COLS = ["acc", "f1", "auc", "recall", "DI", "SPD", "EOD", "OAD"]
#: The columns naming a cell of the experiment (NonDP: no split, no epsilon).
CELL: list[str] = ["dataset", "mechanism", "split", "epsilon"]


def cells(df: pd.DataFrame) -> pd.DataFrame:
    """Cell columns without missing keys (NonDP: split "none", epsilon inf) for grouping and merging."""
    out = df.copy()
    out["split"] = out["split"].astype(object).where(out["split"].notna(), "none").astype(str)
    out["epsilon"] = out["epsilon"].astype(np.float64).fillna(np.inf)
    return out


def agreement_with_authors(
    ours: pd.DataFrame,
    authors: pd.DataFrame,
    metrics: Sequence[str] = METRICS,
    *,
    paired: bool = True,
    level: float = 0.95,
) -> pd.DataFrame:
    """Our per-seed results against the authors', cell by cell, by the book's verdict rules.

    Both sides use the same 20 seeds, and a seed fixes the same stratified
    train/test split on both sides, so by default the test is **paired** on the
    seeds (:func:`ldpfair.verdicts.compare_runs`): a cell agrees when the mean of
    the per-seed differences lies within its Student-t 95% interval. ``paired=False``
    uses the Welch interval of the two means instead (wider: it ignores the shared
    splits). A cell of the authors' that is missing on our side does not agree.

    Returns
    -------
    pandas.DataFrame
        One row per cell and metric: the cell columns (NonDP: split ``"none"``,
        epsilon ``inf``), ``metric, ours, theirs, diff, halfwidth, n_runs, test, agrees``;
        empty when either side is.
    """
    from ...verdicts import compare_runs

    metrics = [m for m in metrics if m in ours.columns and m in authors.columns]
    cols = ["metric", "ours", "theirs", "diff", "halfwidth", "n_runs", "test", "agrees"]
    if ours.empty or authors.empty or not metrics:
        return pd.DataFrame(columns=[*CELL, *cols])
    out = compare_runs(cells(ours), cells(authors), CELL, metrics, pair_on="seed" if paired else None,
                       level=level)
    return out.rename(columns={"paper": "theirs"})[[*CELL, *cols]]


def agreement_summary(table: pd.DataFrame, by: Sequence[str] = ("dataset", "metric")) -> pd.DataFrame:
    """Share of agreeing cells per group of :func:`agreement_with_authors`'s table (and ``n`` cells)."""
    by = list(by)
    if table.empty:
        return pd.DataFrame(columns=[*by, "cells", "share agreeing"])
    g = table.groupby(by, sort=False)["agrees"]
    return pd.DataFrame({"cells": g.size(), "share agreeing": g.mean()}).reset_index()
