"""synthesis: whether the five papers' claims hold beyond their own datasets.

A new experiment, not a reproduction. Every dataset of the book with a binary
protected attribute (eight) x every local mechanism of the book (GRR, BLH, OLH,
RAPPOR, OUE, SS, THE) plus ghoukasian2025's optimal mechanism (OPT, closed form
for k = 2) x epsilon in {0.5, 1, 2, 4, 8} x 10 seeds, plus the non-private
baseline. Only the protected attribute of the training set is collected under
LDP; the test set is clean. One model for every dataset: LightGBM with fixed
hyperparameters (:data:`LGBM_PARAMS`, chosen for cost, not tuned). One
stratified 80/20 split per seed (``random_state = seed`` for the split and the
model, as arcolezi2023).

:func:`build` declares the grids (one per dataset, so that each dataset's
results are committed on their own); :func:`chapter_results` reads them;
:func:`deltas` pairs every private run with the non-private run of its seed;
:func:`generalisation` tests the papers' claims on every dataset;
:func:`leaderboard` ranks the mechanisms. The figures are in
:mod:`ldpfair.papers.synthesis_figures` and the mechanism cards in
:mod:`ldpfair.papers.synthesis_cards`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..experiments import DatasetSpec, Grid, ModelSpec, PrivSpec, holdout
from ..ldp import PROTOCOLS, opt_factory

__all__ = [
    "DATASETS",
    "EPSILONS",
    "LGBM_PARAMS",
    "MECHANISMS",
    "PROFILES",
    "CLAIMS",
    "DATASET_LABELS",
    "FAIRNESS",
    "UTILITY",
    "build",
    "chapter_results",
    "claim_checks",
    "combine",
    "cost",
    "deltas",
    "generalisation",
    "headline",
    "leaderboard",
    "means",
]

#: result name -> (registry name, loader options, protected attribute, where the choice comes from)
DATASETS: dict[str, tuple[str, dict[str, Any], str, str]] = {
    "adult": ("adult26k", {"protected": "gender"}, "gender", "arcolezi2023, ghoukasian2025"),
    "acs_coverage": ("acs_coverage", {}, "DIS", "arcolezi2023"),
    "lsac": ("lsac", {"protected": "race1"}, "race1", "arcolezi2023"),
    "compas": ("compas_makhlouf", {"threshold": 3}, "race", "makhlouf2024"),
    "german": ("german", {"variant": "fairbalance"}, "age", "ghoukasian2025 (FairBalance)"),
    "bank": ("bank", {}, "age", "ghoukasian2025 (FairBalance)"),
    "student_math": ("student_math", {}, "sex", "ghoukasian2025 (FairBalance)"),
    "dutch": ("dutch", {}, "sex", "xu2019"),
}
#: Human labels of the datasets.
DATASET_LABELS: dict[str, str] = {
    "adult": "Adult", "acs_coverage": "ACSCoverage", "lsac": "LSAC", "compas": "COMPAS",
    "german": "German", "bank": "Bank", "student_math": "Student Math", "dutch": "Dutch",
}
#: The private mechanisms, in the order of the tables (OPT last).
MECHANISMS: tuple[str, ...] = (*PROTOCOLS, "OPT")
EPSILONS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
#: One LightGBM for every dataset, chosen for cost (not tuned): 50 trees of at most 15 leaves.
LGBM_PARAMS: dict[str, Any] = {"n_estimators": 50, "num_leaves": 15, "learning_rate": 0.1}
#: Fairness metrics (signed gaps and ratio) and utility metrics of the chapter.
FAIRNESS: tuple[str, ...] = ("SPD", "EOD", "OAD", "DI")
UTILITY: tuple[str, ...] = ("acc", "auc_scores")

_PROFILE_DEFAULTS: dict[str, dict[str, Any]] = {
    "paper": {"datasets": tuple(DATASETS), "mechanisms": MECHANISMS, "epsilons": EPSILONS, "seeds": 10},
    "quick": {"datasets": ("compas", "german"), "mechanisms": ("GRR", "SS", "OPT"), "epsilons": (1.0, 4.0),
              "seeds": 2},
}


def _priv(mechanism: str, protected: str) -> PrivSpec:
    if mechanism == "OPT":
        return PrivSpec(opt_factory, sensitive=(protected,), needs_y=True, label="OPT")
    if mechanism in PROTOCOLS:
        return PrivSpec(mechanism, sensitive=(protected,), label=mechanism)
    raise ValueError(f"unknown mechanism {mechanism!r}; valid: {', '.join(MECHANISMS)}")


def build(
    profile: str = "paper",
    *,
    datasets: Sequence[str] | None = None,
    mechanisms: Sequence[str] | None = None,
    epsilons: Sequence[float] | None = None,
    seeds: int | Sequence[int] | None = None,
    model_params: Mapping[str, Any] | None = None,
) -> dict[str, Grid]:
    """Declare the benchmark: one engine grid per dataset.

    Parameters
    ----------
    profile : {"paper", "quick"}
        ``paper``: 8 datasets x 8 mechanisms x 5 epsilons x 10 seeds (+ NonDP);
        ``quick``: COMPAS and German, GRR, SS and OPT, epsilon in {1, 4}, 2 seeds.
    datasets : sequence of str, optional
        Keys of :data:`DATASETS`.
    mechanisms : sequence of str, optional
        Subset of :data:`MECHANISMS` (NonDP is always included).
    epsilons : sequence of float, optional
    seeds : int or sequence of int, optional
    model_params : mapping, optional
        LightGBM hyperparameters replacing :data:`LGBM_PARAMS`.

    Returns
    -------
    dict of str to Grid
        Keyed by dataset.
    """
    if profile not in _PROFILE_DEFAULTS:
        raise ValueError(f"unknown profile {profile!r}; valid: {', '.join(_PROFILE_DEFAULTS)}")
    d = _PROFILE_DEFAULTS[profile]
    datasets = tuple(d["datasets"] if datasets is None else datasets)
    mechanisms = tuple(d["mechanisms"] if mechanisms is None else mechanisms)
    unknown = [ds for ds in datasets if ds not in DATASETS]
    if unknown:
        raise ValueError(f"unknown dataset(s) {unknown}; valid: {', '.join(DATASETS)}")
    bad = [m for m in mechanisms if m not in MECHANISMS]
    if bad:
        raise ValueError(f"unknown mechanism(s) {bad}; valid: {', '.join(MECHANISMS)}")
    params = dict(LGBM_PARAMS if model_params is None else model_params)
    evaluation = holdout(0.2, split_random_state="seed", model_random_state="seed")
    grids = {}
    for key in datasets:
        name, options, protected, _ = DATASETS[key]
        privs: list[PrivSpec | None] = [None]
        privs += [_priv(m, protected) for m in mechanisms]
        grids[key] = Grid(
            datasets=DatasetSpec(name, options=options, protected=protected, label=key),
            models=ModelSpec("lightgbm", params),
            privatizations=privs,
            epsilons=tuple(d["epsilons"] if epsilons is None else epsilons),
            seeds=d["seeds"] if seeds is None else seeds,
            evaluation=evaluation,
            name=f"synthesis-{key}",
        )
    return grids


#: The declared experiments of each profile (committed under ``results/synthesis/<dataset>``).
PROFILES: dict[str, dict[str, Grid]] = {"quick": build("quick"), "paper": build("paper")}


# --------------------------------------------------------------------------- results
def chapter_results(
    profile: str = "paper", *, n_jobs: int | None = 1, **overrides: Any
) -> dict[str, pd.DataFrame]:
    """Results of the benchmark for ``profile``, keyed by dataset.

    ``"paper"`` reads the committed files ``results/synthesis/<dataset>.csv.gz`` (never
    computes unless ``LDPFAIR_COMPUTE=1``); ``"quick"`` computes. Every frame has
    ``attrs["coverage"]`` (cells present / declared).

    Parameters
    ----------
    profile : {"paper", "quick"}
    n_jobs : int or None
        Workers when computing.
    **overrides
        Keyword arguments of :func:`build`.
    """
    from . import results

    return results("synthesis", build(profile, **overrides), profile, n_jobs=n_jobs)


def combine(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """One tidy frame of every dataset's results (empty datasets are left out)."""
    parts = [f for f in frames.values() if f is not None and len(f)]
    if not parts:
        return pd.DataFrame(columns=["dataset", "mechanism", "epsilon", "seed"])
    return pd.concat(parts, ignore_index=True)


def _check_frame(frame: pd.DataFrame) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame of tidy results, got {type(frame).__name__}")
    need = {"dataset", "mechanism", "epsilon", "seed", "acc", *FAIRNESS}
    missing = sorted(need - set(frame.columns))
    if missing:
        raise ValueError(f"frame lacks the columns {missing}; pass tidy results of :func:`build`'s grids")


def deltas(frame: pd.DataFrame) -> pd.DataFrame:
    """Pair every private run with the non-private run of the same dataset and seed.

    Returns one row per (dataset, mechanism, epsilon, seed) with, for every metric
    ``m`` of :data:`FAIRNESS` and :data:`UTILITY`, ``d_m`` = private - NonDP, and the
    fairness gains ``gain_SPD``, ``gain_EOD``, ``gain_OAD`` = ``|m(NonDP)| - |m(private)|``
    and ``gain_DI`` = ``|1 - DI(NonDP)| - |1 - DI(private)|`` (positive: fairer than
    NonDP), their mean over SPD, EOD and OAD (``fairness_gain``) and the accuracy
    loss ``utility_loss`` = acc(NonDP) - acc(private). Seeds without a NonDP run are
    dropped.
    """
    _check_frame(frame)
    metrics = [m for m in (*FAIRNESS, *UTILITY) if m in frame.columns]
    base = frame[frame["mechanism"] == "NonDP"].set_index(["dataset", "seed"])[metrics]
    priv = frame[frame["mechanism"] != "NonDP"]
    keys = ["dataset", "mechanism", "epsilon", "seed"]
    b = base.reindex(pd.MultiIndex.from_frame(priv[["dataset", "seed"]])).to_numpy(dtype=float)
    p = priv[metrics].to_numpy(dtype=float)
    out = priv[keys].reset_index(drop=True).copy()
    for j, m in enumerate(metrics):
        out[f"d_{m}"] = p[:, j] - b[:, j]
    for j, m in enumerate(metrics):
        if m in ("SPD", "EOD", "OAD"):
            out[f"gain_{m}"] = np.abs(b[:, j]) - np.abs(p[:, j])
        elif m == "DI":
            out["gain_DI"] = np.abs(1 - b[:, j]) - np.abs(1 - p[:, j])
    out["fairness_gain"] = out[["gain_SPD", "gain_EOD", "gain_OAD"]].mean(axis=1)
    out["utility_loss"] = -out["d_acc"]
    return out[~np.isnan(b).all(axis=1)].reset_index(drop=True)


def means(frame: pd.DataFrame, metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Means over seeds per (dataset, mechanism, epsilon); NonDP has epsilon NaN."""
    _check_frame(frame)
    cols = [c for c in (metrics or (*FAIRNESS, *UTILITY, "Delta_SP", "Delta_EO")) if c in frame.columns]
    return frame.groupby(["dataset", "mechanism", "epsilon"], dropna=False)[cols].mean().reset_index()


# --------------------------------------------------------------------------- claims
#: The papers' claims this grid can test: id -> (paper, the claim, the check made on each dataset).
CLAIMS: dict[str, tuple[str, str, str]] = {
    "RQ1 fairness": ("arcolezi2023", "LDP on the protected attribute slightly improves fairness.",
                     "more than half of the (protocol, epsilon, metric in DI/SPD/EOD) cells of the seven "
                     "protocols are fairer than NonDP (seed means; |1 - DI|, |SPD|, |EOD|)"),
    "RQ1 utility": ("arcolezi2023", "... at a negligible utility cost (~1%).",
                    "mean loss over the seven protocols' cells at most 1.5 points in accuracy and in AUC"),
    "RQ3": ("arcolezi2023", "GRR and SS give the best trade-off; BLH the worst utility.",
            "BLH has the lowest mean accuracy of the seven protocols, GRR and SS are in the top three"),
    "Obs1": ("makhlouf2024", "More privacy (smaller epsilon) leads to less disparity.",
             "GRR: |SPD| at epsilon 0.5 below |SPD| at epsilon 8"),
    "A": ("makhlouf2024", "LDP obfuscation is an efficient way to reduce disparity.",
          "GRR at epsilon 0.5: |SPD|, |EOD|, |OAD| below NonDP for at least two of the three, "
          "and Obs1 holds"),
    "V-A vs GRR": ("ghoukasian2025", "OPT lowers both fairness gaps relative to GRR at comparable accuracy.",
                   "OPT's mean Delta_SP and Delta_EO below GRR's at every epsilon >= 1, "
                   "accuracy within 1 point at every epsilon"),
    "V-A vs SS": ("ghoukasian2025", "OPT lowers both fairness gaps relative to SS at comparable accuracy.",
                  "as against GRR, with SS"),
}
_RQ_PROTOCOLS = PROTOCOLS


def _rank_text(order: list[str], names: Sequence[str]) -> str:
    return ", ".join(f"{n} {order.index(n) + 1}/{len(order)}" for n in names if n in order)


def claim_checks(frame: pd.DataFrame) -> pd.DataFrame:
    """Test every claim of :data:`CLAIMS` on every dataset of ``frame``.

    Returns
    -------
    pandas.DataFrame
        One row per (claim, dataset) with columns ``claim, paper, dataset, holds``
        (bool, or NaN where the dataset lacks the cells the check needs), ``value``
        (the check's headline number) and ``text`` (the number as shown in the table).
    """
    m = means(frame)
    rows: list[dict[str, Any]] = []

    def add(claim: str, ds: str, holds: bool | None, value: float, text: str) -> None:
        rows.append({"claim": claim, "paper": CLAIMS[claim][0], "dataset": ds,
                     "holds": np.nan if holds is None else bool(holds), "value": float(value), "text": text})

    for ds, md in m.groupby("dataset", sort=False):
        base = md[md["mechanism"] == "NonDP"]
        if base.empty:
            continue
        b = base.iloc[0]
        priv = md[md["mechanism"].isin(_RQ_PROTOCOLS)]
        # RQ1 fairness
        if len(priv):
            fairer = np.concatenate([
                np.abs(1 - priv["DI"].to_numpy()) < abs(1 - b["DI"]),
                np.abs(priv["SPD"].to_numpy()) < abs(b["SPD"]),
                np.abs(priv["EOD"].to_numpy()) < abs(b["EOD"]),
            ])
            share = float(fairer.mean())
            add("RQ1 fairness", ds, share > 0.5, share, f"{share:.0%} of {fairer.size} cells fairer")
            loss = max(float(b["acc"] - priv["acc"].mean()),
                       float(b["auc_scores"] - priv["auc_scores"].mean()))
            add("RQ1 utility", ds, loss <= 0.015, loss, f"largest mean loss {100 * loss:.2f} pt")
            acc = priv.groupby("mechanism")["acc"].mean().sort_values(ascending=False)
            order = list(acc.index)
            ok = None
            if len(order) > 3 and {"BLH", "GRR", "SS"} <= set(order):
                ok = order[-1] == "BLH" and "GRR" in order[:3] and "SS" in order[:3]
            add("RQ3", ds, ok, float(order.index("BLH") + 1) if "BLH" in order else np.nan,
                _rank_text(order, ("BLH", "GRR", "SS")))
        grr = md[md["mechanism"] == "GRR"].set_index("epsilon")
        if {0.5, 8.0} <= set(grr.index):
            lo, hi = abs(float(grr.at[0.5, "SPD"])), abs(float(grr.at[8.0, "SPD"]))
            obs1 = lo < hi
            add("Obs1", ds, obs1, lo - hi, f"|SPD| {hi:.3f} → {lo:.3f}")
            below = [abs(float(grr.at[0.5, k])) < abs(float(b[k])) for k in ("SPD", "EOD", "OAD")]
            add("A", ds, sum(below) >= 2 and obs1, float(sum(below)),
                f"{sum(below)}/3 below NonDP" + ("" if obs1 else ", Obs1 fails"))
        opt = md[md["mechanism"] == "OPT"].set_index("epsilon")
        for other in ("GRR", "SS"):
            o = md[md["mechanism"] == other].set_index("epsilon")
            eps = sorted(set(opt.index) & set(o.index))
            large = [e for e in eps if e >= 1.0]
            if not large:
                continue
            sp = sum(opt.at[e, "Delta_SP"] < o.at[e, "Delta_SP"] for e in large)
            eo = sum(opt.at[e, "Delta_EO"] < o.at[e, "Delta_EO"] for e in large)
            gap = max(abs(float(opt.at[e, "acc"] - o.at[e, "acc"])) for e in eps)
            add(f"V-A vs {other}", ds, sp == len(large) and eo == len(large) and gap <= 0.01,
                float(sp + eo) / (2 * len(large)), f"SP {sp}/{len(large)}, EO {eo}/{len(large)}, "
                f"Δacc ≤ {100 * gap:.2f} pt")
    return pd.DataFrame(rows, columns=["claim", "paper", "dataset", "holds", "value", "text"])


def generalisation(checks: pd.DataFrame) -> pd.DataFrame:
    """The generalisation table: one row per claim, one column per dataset, and the share where it holds.

    Cells read ``holds (<number>)`` / ``does not hold (<number>)``; ``—`` where the
    dataset has no results. The ``holds on`` column gives ``n/N`` over the datasets
    with results.
    """
    cols = [DATASET_LABELS.get(d, d) for d in DATASETS if d in set(checks["dataset"])]
    rows = []
    for claim, (paper, statement, _) in CLAIMS.items():
        c = checks[checks["claim"] == claim].set_index("dataset")
        row: dict[str, Any] = {"paper": paper, "claim": claim, "statement": statement}
        n = held = 0
        for d in DATASETS:
            label = DATASET_LABELS.get(d, d)
            if label not in cols:
                continue
            if d not in c.index or pd.isna(c.at[d, "holds"]):
                row[label] = "—"
                continue
            h = bool(c.at[d, "holds"])
            n += 1
            held += h
            row[label] = ("holds" if h else "does not hold") + f" ({c.at[d, 'text']})"
        row["holds on"] = f"{held}/{n}" if n else "—"
        row["share"] = held / n if n else np.nan
        rows.append(row)
    return pd.DataFrame(rows, columns=["paper", "claim", "statement", *cols, "holds on", "share"])


def headline(table: pd.DataFrame) -> str:
    """One clause per claim: on how many datasets with results it holds (for the closing note)."""
    return "; ".join(f"{p} {c}: {h}" for p, c, h in zip(table["paper"], table["claim"], table["holds on"],
                                                              strict=True))


# --------------------------------------------------------------------------- leaderboard
def _t_quantile(level: float, df: int) -> float:
    from scipy import stats

    return float(stats.t.ppf(0.5 + level / 2, df)) if df > 0 else np.nan


def leaderboard(frame: pd.DataFrame, *, max_loss: float = 0.005, level: float = 0.95) -> pd.DataFrame:
    """Rank the mechanisms by fairness gain at matched utility loss.

    On each dataset, each mechanism is taken at its *most private* epsilon whose mean
    accuracy loss against NonDP (over seeds) is at most ``max_loss`` (the largest
    epsilon of the grid if none is); its fairness gain there (:func:`deltas`'s
    ``fairness_gain``, mean over |SPD|, |EOD|, |OAD|, in points) is averaged over
    the datasets. The confidence interval is over seeds: each seed's gain averaged
    over datasets, then a t interval on those per-seed averages.

    Parameters
    ----------
    frame : pandas.DataFrame
        Tidy results (:func:`combine`).
    max_loss : float
        Matched utility loss (accuracy, as a fraction; default half a point).
    level : float
        Confidence level of the interval, in (0, 1).

    Returns
    -------
    pandas.DataFrame
        One row per mechanism, best first: ``mechanism, gain, ci_low, ci_high,
        mean_rank`` (mean over datasets of the rank by gain), ``wins`` (datasets where it
        ranks first), ``epsilon_median`` (median matched epsilon), ``datasets``.
    """
    if not (isinstance(max_loss, (int, float)) and np.isfinite(max_loss) and max_loss >= 0):
        raise ValueError(f"max_loss must be a finite number >= 0, got {max_loss!r}")
    if not (isinstance(level, float) and 0 < level < 1):
        raise ValueError(f"level must be a float in (0, 1), got {level!r}")
    d = deltas(frame)
    cols = ["mechanism", "gain", "ci_low", "ci_high", "mean_rank", "wins", "epsilon_median", "datasets"]
    if d.empty:
        return pd.DataFrame(columns=cols)
    cell = (d.groupby(["dataset", "mechanism", "epsilon"])[["utility_loss", "fairness_gain"]]
            .mean().reset_index())
    chosen = []
    for (ds, mech), g in cell.groupby(["dataset", "mechanism"]):
        g = g.sort_values("epsilon")
        ok = g[g["utility_loss"] <= max_loss]
        eps = float(ok["epsilon"].iloc[0]) if len(ok) else float(g["epsilon"].iloc[-1])
        chosen.append({"dataset": ds, "mechanism": mech, "epsilon": eps})
    ch = pd.DataFrame(chosen)
    sel = d.merge(ch, on=["dataset", "mechanism", "epsilon"])
    per_ds = sel.groupby(["dataset", "mechanism"])["fairness_gain"].mean().unstack("mechanism")
    ranks = per_ds.rank(axis=1, ascending=False)
    per_seed = sel.groupby(["mechanism", "seed"])["fairness_gain"].mean().unstack("seed")
    rows = []
    for mech in per_ds.columns:
        s = per_seed.loc[mech].dropna().to_numpy()
        mean = float(per_ds[mech].mean())
        half = (_t_quantile(level, s.size - 1) * float(s.std(ddof=1)) / np.sqrt(s.size)
                if s.size > 1 else np.nan)
        rows.append({"mechanism": mech, "gain": mean, "ci_low": mean - half, "ci_high": mean + half,
                     "mean_rank": float(ranks[mech].mean()), "wins": int((ranks[mech] == 1).sum()),
                     "epsilon_median": float(ch.loc[ch["mechanism"] == mech, "epsilon"].median()),
                     "datasets": int(per_ds[mech].notna().sum())})
    return pd.DataFrame(rows, columns=cols).sort_values("gain", ascending=False).reset_index(drop=True)


# --------------------------------------------------------------------------- cost
def cost(frames: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Measured compute cost per dataset: cells, core-seconds (sum of per-task times) and core-hours."""
    rows = []
    for key, f in frames.items():
        n = 0 if f is None else len(f)
        sec = float(f["t_total"].sum()) if n and "t_total" in f.columns else 0.0
        cov = getattr(f, "attrs", {}).get("coverage", {}) if f is not None else {}
        rows.append({"dataset": DATASET_LABELS.get(key, key), "cells": n, "declared": cov.get("total", n),
                     "core_seconds": sec, "seconds_per_cell": sec / n if n else np.nan})
    out = pd.DataFrame(rows, columns=["dataset", "cells", "declared", "core_seconds", "seconds_per_cell"])
    out["core_hours"] = out["core_seconds"] / 3600
    return out


# --------------------------------------------------------------------------- scoreboard
def scoreboard() -> pd.DataFrame:
    """The chapter's rows of the book's scoreboard: status "new result" (no paper to reproduce).

    Computed from the committed results (never computes): the evidence gives the
    coverage and, for the generalisation table, on how many datasets each claim holds.
    """
    from ..verdicts import ITEM_COLUMNS, NO_CAUSE

    frames = chapter_results("paper")
    present = sum(int(f.attrs.get("coverage", {}).get("present", len(f))) for f in frames.values())
    total = sum(int(f.attrs.get("coverage", {}).get("total", 0)) for f in frames.values())
    frame = combine(frames)
    status = "new result" if present else "not yet"
    gen = headline(generalisation(claim_checks(frame))) if present else "no committed results"
    board = leaderboard(frame) if present else pd.DataFrame()
    best = (f"best at matched accuracy loss: {board['mechanism'].iloc[0]}" if len(board) else "no results")
    rows = [
        {"item": "Benchmark (8 datasets x 9 mechanisms)", "label": "#the-benchmark",
         "evidence": f"{present} of {total} cells committed"},
        {"item": "Do the claims generalise?", "label": "#do-the-claims-generalise", "evidence": gen},
        {"item": "Leaderboard", "label": "#leaderboard", "evidence": best},
    ]
    for r in rows:
        r.update({"status": status, "share": np.nan, "numbers": 0, "cause": NO_CAUSE, "reason": "",
                  "cause_label": ""})
    return pd.DataFrame(rows)[list(ITEM_COLUMNS)]
