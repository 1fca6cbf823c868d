"""Makhlouf et al. (2024): the authors' per-run aggregation of the engine's per-fold rows.

:func:`aggregate_runs` (``faithful=True``: SP/OA/PRP fold means, EO/PE from the last
fold only, precision 0 when nothing is predicted positive; ``faithful=False``: fold
means, NaN-aware), :func:`summary` over runs, and :func:`chapter_runs`, both from the
results of :meth:`SPEC.results <ldpfair.papers.contract.PaperSpec.results>`. Groups
"maj"/"min" are protected = 1/0 as coded and disparities are signed ``maj - min``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ... import config

__all__ = ["DISPARITY", "RATES", "aggregate_runs", "chapter_runs", "committed_chapter_runs", "summary"]

#: paper's rate name -> engine's per-group column prefix
RATES: dict[str, str] = {"SP": "SR", "EO": "TPR", "PE": "FPR", "OA": "ACC", "PRP": "PPV"}
#: rate -> disparity name of the paper
DISPARITY: dict[str, str] = {"SP": "SD", "EO": "EOD", "PE": "PED", "OA": "OAD", "PRP": "PRD"}
_KEYS = ["data", "setting", "epsilon", "seed"]


def aggregate_runs(results: pd.DataFrame, faithful: bool = True) -> pd.DataFrame:
    """Aggregate the engine's per-fold rows into one row per run, as the authors' code did.

    Parameters
    ----------
    results : pandas.DataFrame
        Tidy rows of :func:`ldpfair.experiments.run` (one per fold).
    faithful : bool
        ``True`` (the authors' executed code): SP, OA, PRP and accuracy are fold
        means, **EO and PE are taken from the last fold only**, and a group with no
        positive prediction has precision 0 (scikit-learn's ``precision_score``).
        ``False`` (corrected): every rate is the mean over folds, ignoring folds
        where it is undefined (NaN).

    Returns
    -------
    pandas.DataFrame
        Columns ``data, setting, epsilon`` (``inf`` for noLDP), ``seed``,
        ``<R>_maj, <R>_min`` for R in SP, EO, PE, OA, PRP (maj = protected 1,
        min = protected 0 as coded), the disparities SD, EOD, PED, OAD, PRD
        (maj - min) and ``acc``.
    """
    if not isinstance(faithful, bool):
        raise TypeError(f"faithful must be a bool, got {faithful!r}")
    need = ["dataset", "mechanism", "epsilon", "seed", "fold", "acc"] + [
        f"{p}_{g}" for p in RATES.values() for g in (0, 1)]
    missing = [c for c in need if c not in results.columns]
    if missing:
        raise ValueError(f"results lack columns {missing}")
    frame = pd.DataFrame({
        "data": results["dataset"].astype(str).to_numpy(),
        "setting": results["mechanism"].astype(str).to_numpy(),
        "epsilon": results["epsilon"].astype(np.float64).fillna(math.inf).to_numpy(),
        "seed": results["seed"].to_numpy(),
        "fold": results["fold"].to_numpy(),
        "acc": results["acc"].astype(np.float64).to_numpy(),
    })
    for rate, prefix in RATES.items():
        for g, code in (("maj", 1), ("min", 0)):
            v = results[f"{prefix}_{code}"].astype(np.float64).to_numpy()
            if faithful and rate == "PRP":
                v = np.nan_to_num(v, nan=0.0)
            frame[f"{rate}_{g}"] = v
    rate_cols = [f"{r}_{g}" for r in RATES for g in ("maj", "min")]
    out = frame.groupby(_KEYS, sort=False)[[*rate_cols, "acc"]].mean()
    if faithful:
        last = frame.loc[frame["fold"].to_numpy() == frame["fold"].max()].set_index(_KEYS)
        for col in ("EO_maj", "EO_min", "PE_maj", "PE_min"):
            out[col] = last[col].reindex(out.index)
    for rate, d in DISPARITY.items():
        out[d] = out[f"{rate}_maj"] - out[f"{rate}_min"]
    return out.reset_index()


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Mean and standard deviation (ddof=0, as the authors) over runs per data, setting, epsilon."""
    metrics = [c for c in runs.columns if c not in _KEYS]
    g = runs.groupby(["data", "setting", "epsilon"], sort=False)[metrics]
    mean, std = g.mean(), g.std(ddof=0)
    out = mean.join(std.add_suffix("_std"))
    out["n_runs"] = g.size()
    return out.reset_index()


def chapter_runs(results: Mapping[str, pd.DataFrame],
                 faithful: bool = True) -> tuple[pd.DataFrame | None, pd.DataFrame]:
    """Per-run aggregates and their summary, as the chapter shows them.

    Parameters
    ----------
    results : mapping of str to pandas.DataFrame
        Tidy per-fold results per result name (``SPEC.results(profile, ...)``).
    faithful : bool
        As in :func:`aggregate_runs`.

    Returns
    -------
    tuple
        ``(runs, summary)``: :func:`aggregate_runs` of the present results (``None`` when
        nothing is present) and :func:`summary` of those runs (an empty frame with the
        key columns when nothing is present).
    """
    present = [v for v in results.values() if len(v)]
    if not present:
        return None, pd.DataFrame(columns=["data", "setting", "epsilon"])
    runs = aggregate_runs(pd.concat(present, ignore_index=True), faithful=faithful)
    return runs, summary(runs)


#: :func:`committed_chapter_runs` of this process, keyed on the results files' names, times and sizes.
_COMMITTED: dict[tuple, tuple[pd.DataFrame | None, pd.DataFrame]] = {}


def committed_chapter_runs(data: tuple[str, ...], faithful: bool = True) -> tuple[pd.DataFrame | None,
                                                                                   pd.DataFrame]:
    """:func:`chapter_runs` of the committed paper-profile results of ``data``, once per process.

    The scoreboard and the claims both read them; the aggregate is kept while no file
    under the paper's results folder changes its name, modification time or size, and is
    never kept when ``LDPFAIR_COMPUTE`` is on (the call may rewrite the files). Each
    call returns copies.
    """
    from . import SPEC

    if config.compute():
        return chapter_runs(SPEC.results("paper", data=data), faithful)
    folder = config.results_dir("makhlouf2024")
    files = sorted(folder.rglob("*")) if folder.is_dir() else []
    stats = tuple((str(f), st.st_mtime_ns, st.st_size) for f in files for st in (f.stat(),))
    key = (data, faithful, str(folder), stats)
    if key not in _COMMITTED:
        _COMMITTED.clear()
        _COMMITTED[key] = chapter_runs(SPEC.results("paper", data=data), faithful)
    runs, summ = _COMMITTED[key]
    return (None if runs is None else runs.copy()), summ.copy()
