"""hamman2023: every published error cell judged on its own (implied privacy loss, readings, label).

A published query error is judged by two computations, both on the paper's own number:

- **implied privacy loss** (:func:`implied_loss`): the scale of the stated noise family
  that the published error implies (paper / median of ``|Z|``, the most favourable to
  privacy among the statistics tried, :func:`.forensics.implied_scales`) and the privacy
  loss of the cell's ``m`` answers with that scale on an explicit pair of neighbouring
  test sets (one disadvantaged person joins the advantaged group, ``m`` models accept
  only that person). Where it exceeds epsilon the number was not produced by an
  epsilon-DP mechanism of that family: a **paper error**;
- **readings** (:func:`reading_ratios`): the sampling distribution of the cell's
  statistic under each reading of the noise scale (:data:`ldpfair.attacks.NOISE_READINGS`),
  with our runs' group sizes; a reading *lands* when the published value lies in its
  central 95% range plus half a unit of the printed digit. The statistic is fixed in
  advance by the noise, not chosen by the match: the median of the ``runs x m`` absolute
  errors for Attribute-Conceal (Cauchy: no mean, so a mean has no valid interval), the
  mean for the Laplace baseline (as the paper's "Avg.").

Label of a cell (:func:`cell_table`): ``paper error`` where the implied loss exceeds
epsilon; else ``explained`` where a reading lands on it (Theorem 5's own noise counts:
with the median in place of the paper's average over the ``m`` answers, which our runs'
comparison uses, the statistic is itself the variant); else ``unexplained``.
epsilon = infinity cells (error 0 = 0 by construction) are not
listed: they are verifications.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ... import attacks
from . import forensics as fx

__all__ = [
    "DEFAULT_READING",
    "QUOTED",
    "LABELS",
    "cell_statistic",
    "implied_loss",
    "quoted_cells",
    "all_cells",
    "reading_ratios",
    "cell_table",
    "committed_cell_table",
    "label_counts",
    "SUMMARY",
    "summaries",
]

#: The default reading (the mechanisms as Theorems 4-5 state them).
DEFAULT_READING = "theorem5"
#: Labels of a cell.
LABELS = ("paper error", "explained", "unexplained")
#: The errors the text quotes for figures: item -> (result, selector, value, printed decimals of x 1e-3).
QUOTED: dict[str, dict[str, Any]] = {
    "Figure 1": {"result": "fig1", "m": 40, "epsilon": 100.0, "value": 7.41e-4, "decimals": 3},
    "Figure 3": {"result": None, "m": 60, "epsilon": 100.0, "value": 0.0601, "decimals": 1,
                 "groups": [(990, 10)]},
    "Figure 4": {"result": "fig4", "m": 800, "epsilon": 1000.0, "value": 4.78e-4, "decimals": 3},
}


def cell_statistic(mechanism: str) -> str:
    """The statistic a cell's errors are compared by, fixed by the noise the paper names.

    ``"median"`` for Attribute-Conceal (Cauchy noise has no mean), ``"mean"`` for the
    Laplace baseline.
    """
    if mechanism not in ("conceal", "laplace"):
        raise ValueError(f"mechanism must be 'conceal' or 'laplace', got {mechanism!r}")
    return "median" if mechanism == "conceal" else "mean"


def implied_loss(paper_err: float, n1: int, n0: int, m: int, mechanism: str) -> tuple[float, float]:
    """The scale a published error implies and the privacy loss of ``m`` answers with it.

    Cauchy (Attribute-Conceal): scale ``paper_err`` (the median of ``|Z|`` is 1) and loss
    ``m * 2 asinh(s / (2 b))`` with ``s = 1/(N1+1) + 1/N0``, the shift of every answer when
    one disadvantaged person joins the advantaged group (:func:`.forensics.cauchy_shift_loss`);
    Laplace: scale ``paper_err / ln 2`` and loss ``m * Delta_1 / b``.

    Returns
    -------
    (float, float)
        ``(implied scale, privacy loss)``.
    """
    if not paper_err > 0:
        raise ValueError(f"paper_err must be > 0 (a finite-epsilon error), got {paper_err!r}")
    if mechanism == "conceal":
        b = float(paper_err)
        return b, m * float(fx.cauchy_shift_loss(attacks.local_sensitivity_sp(n1, n0), b))
    if mechanism == "laplace":
        b = float(paper_err) / math.log(2.0)
        return b, m * attacks.global_sensitivity_sp(n1 + n0) / b
    raise ValueError(f"mechanism must be 'conceal' or 'laplace', got {mechanism!r}")


def quoted_cells(results: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The errors the text quotes for Figs. 1b, 3 and 4b, in the schema of :func:`.forensics.published_cells`.

    Group sizes are those of our committed runs of the setting (Fig. 3: the text's
    ``N1 = 990, N0 = 10``).
    """
    rows = []
    for item, q in QUOTED.items():
        if q["result"] is None:
            groups = list(q["groups"])
        else:
            f = results[q["result"]]
            sel = f[(f["m"] == q["m"]) & (f["epsilon"] == q["epsilon"]) & (f["mechanism"] == "conceal")]
            groups = list(zip(sel["N1"].astype(int), sel["N0"].astype(int), strict=True))
        n1 = float(np.mean([g[0] for g in groups]))
        n0 = float(np.mean([g[1] for g in groups]))
        rows.append({"table": item, "n": int(round(n1 + n0)), "m": int(q["m"]), "n0": int(round(n0)),
                     "epsilon": float(q["epsilon"]), "mechanism": "conceal", "paper_err": float(q["value"]),
                     "decimals": int(q["decimals"]), "groups": groups, "N1": n1, "N0": n0})
    return pd.DataFrame(rows)


def _decimals(table: str, value_e3: float, default: int) -> int:
    from .published import _DECIMAL_EXCEPTIONS

    return int(_DECIMAL_EXCEPTIONS.get((table, float(value_e3)), default))


def all_cells(results: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every finite-epsilon published error of Tables 1-4 and the quoted errors of Figs. 1, 3, 4.

    Tables' cells come from :func:`.forensics.published_cells` with each number's printed
    decimals (the table's, or its exception).
    """
    tab = fx.published_cells(dict(results))
    tab["decimals"] = [_decimals(t, round(v * 1000, 6), d)
                       for t, v, d in zip(tab["table"], tab["paper_err"], tab["decimals"], strict=True)]
    cols = ["table", "n", "m", "n0", "epsilon", "mechanism", "paper_err", "decimals", "groups", "N1", "N0"]
    return pd.concat([tab[cols], quoted_cells(results)[cols]], ignore_index=True)


def reading_ratios(cell: Mapping[str, Any], *, reps: int = 200, seed: int = 2023,
                   index: int = 0) -> pd.DataFrame:
    """Every reading's sampling distribution of the cell's statistic (:func:`cell_statistic`).

    Returns
    -------
    pandas.DataFrame
        One row per reading: ``reading, statistic, sim_median, lo, hi`` (central 95%
        range over ``reps`` replications), ``ratio`` (paper / sim_median) and ``lands``
        (the published value inside the range widened by half a printed unit).
    """
    stat = cell_statistic(str(cell["mechanism"]))
    rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
    sims = fx.simulate_cell(cell["groups"], int(cell["m"]), float(cell["epsilon"]), str(cell["mechanism"]),
                            list(attacks.NOISE_READINGS), rng, reps=reps)
    prec = 0.5 * 10.0 ** (-int(cell["decimals"])) / 1000.0
    paper = float(cell["paper_err"])
    rows = []
    for reading, stats_ in sims.items():
        v = stats_[stat]
        lo, hi = (float(x) for x in np.quantile(v, [0.025, 0.975]))
        med = float(np.median(v))
        rows.append({"reading": reading, "statistic": stat, "sim_median": med, "lo": lo, "hi": hi,
                     "ratio": paper / med, "lands": bool(lo - prec <= paper <= hi + prec)})
    return pd.DataFrame(rows)


def cell_table(results: Mapping[str, pd.DataFrame], *, reps: int = 200, seed: int = 2023) -> pd.DataFrame:
    """The per-cell judgement of every published finite-epsilon error (module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per cell: ``item, n, m, N0, epsilon, mechanism, paper`` (the published
        error), ``implied_scale, loss`` (:func:`implied_loss`), ``not_dp`` (loss > epsilon),
        ``ratio <reading>`` (paper / that reading's simulated statistic) for every reading,
        ``lands`` (the readings that land, comma-separated),
        ``default_lands`` and ``label`` (:data:`LABELS`).
    """
    cells = all_cells(results)
    rows = []
    for i, c in enumerate(cells.to_dict("records")):
        n1, n0 = int(round(c["N1"])), int(round(c["N0"]))
        scale, loss = implied_loss(c["paper_err"], n1, n0, int(c["m"]), str(c["mechanism"]))
        rr = reading_ratios(c, reps=reps, seed=seed, index=i)
        landing = [r for r, ok in zip(rr["reading"], rr["lands"], strict=True) if ok]
        not_dp = bool(loss > c["epsilon"])
        label = "paper error" if not_dp else ("explained" if landing else "unexplained")
        rows.append({"item": c["table"], "n": int(c["n"]), "n0": int(c["n0"]), "m": int(c["m"]),
                     "N0": float(c["N0"]),
                     "epsilon": float(c["epsilon"]), "mechanism": c["mechanism"],
                     "paper": float(c["paper_err"]),
                     "decimals": int(c["decimals"]), "statistic": cell_statistic(str(c["mechanism"])),
                     "implied_scale": scale, "loss": loss, "not_dp": not_dp,
                     **{f"ratio {r}": float(x) for r, x in zip(rr["reading"], rr["ratio"], strict=True)},
                     "default_lands": bool(rr.loc[rr["reading"] == DEFAULT_READING, "lands"].iloc[0]),
                     "lands": ", ".join(landing), "label": label})
    return pd.DataFrame(rows)


#: File of the committed per-cell table, under ``results/hamman2023/``.
SUMMARY = "forensics_percell"


def summaries(*, reps: int = 200, seed: int = 2023) -> dict[str, pd.DataFrame]:
    """:func:`cell_table` on the committed results, as the chapter's derived table :data:`SUMMARY`.

    Declared in the chapter's ``SPEC`` (:class:`ldpfair.papers.contract.Derived`): the
    engine writes ``results/hamman2023/forensics_percell.csv.gz`` (``ldpfair results compute
    hamman2023``, about two minutes on one core) and verifies it; the chapter and the
    scoreboard read it with :func:`committed_cell_table`.
    """
    from .published import committed_results

    return {SUMMARY: cell_table(committed_results(), reps=reps, seed=seed)}


@functools.lru_cache(maxsize=1)
def _committed_cell_table() -> pd.DataFrame:
    from ...config import results_dir
    from ...experiments.results import check_results_file

    path = results_dir("hamman2023") / f"{SUMMARY}.csv.gz"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run ldpfair results compute hamman2023")
    frame = check_results_file(path, require_key=False)
    frame["lands"] = frame["lands"].fillna("").astype(str)
    return frame


def committed_cell_table() -> pd.DataFrame:
    """The committed :func:`cell_table` (:func:`summaries`), checked against its recorded sha256 (a copy)."""
    return _committed_cell_table().copy()


def label_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Cells per item and label (columns :data:`LABELS`, plus ``cells``)."""
    out = (table.groupby(["item", "label"]).size().unstack("label", fill_value=0)
           .reindex(columns=list(LABELS), fill_value=0))
    out["cells"] = out.sum(axis=1)
    return out.reset_index()
