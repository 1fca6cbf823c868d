"""Makhlouf et al. (2024): the published numbers against ours, the claims and the scoreboard.

The committed results are read through ``SPEC.results("paper", ...)``
(:func:`committed_runs`). Every scoreboard row is made by :func:`ldpfair.verdicts.score_item`:

* Figs. 3-5, 7-8 (no number is printed; the authors published their per-run
  results): every plotted mean (group rates, or disparities for Fig. 4, and the
  noLDP baselines) against the authors' 20 runs of the same cell with
  :func:`ldpfair.verdicts.compare_runs`. The authors seeded nothing (no
  ``random_state`` anywhere), so no run of theirs shares a split or a forest with
  one of ours: the comparison is **Welch** (``pair_on=None``), not paired;
* Table 1: the printed sizes and synthetic thresholds with
  :func:`ldpfair.verdicts.compare_published` (printed precision only), the printed
  attribute lists and skews as trends;
* Figs. 1-2 (diagrams): ``verified`` against the code and the authors' data;
* Fig. 6 (Synthetic 2, no data or numbers of the authors): the paper's statements
  about it (footnote 11: Obs6 and Obs7 inverted) as trends.

The claims themselves are :func:`ldpfair.papers.makhlouf2024.claims.claims`;
:func:`committed_claims` attaches the ledger causes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ... import verdicts
from ...experiments import PrivSpec
from .aggregate import DISPARITY, committed_chapter_runs, summary
from .authors import authors_runs
from .claims import change, claims
from .experiments import DATA, EPSILONS, build, dataset_spec, privatizations
from .figures import fig3_sources

__all__ = [
    "FIGURES",
    "PAPER_DATA",
    "PRINTED_THRESHOLDS",
    "S2_FILES",
    "UCI_ADULT_TRAIN",
    "authors_claims",
    "claim_cause_checks",
    "claim_causes",
    "committed_claims",
    "direction_gap",
    "committed_runs",
    "fig6_trends",
    "figure12_checks",
    "figure_agreement",
    "figure_agreement_shares",
    "figure_cells",
    "s2_check",
    "s2_missing",
    "scoreboard",
    "synthetic_thresholds",
    "table1",
    "table1_cause_checks",
    "table1_comparison",
    "table1_published",
]

_ROWS = ("SP", "EO", "PE", "OA", "PRP")
_RATES = tuple(f"{r}_{g}" for r in _ROWS for g in ("maj", "min"))
_THREE = ("sLDP", "combLDP", "indLDP")

#: item -> (chapter label, kind, data): kind "fig3" (family), "fig4" (one file) or "thresholds".
FIGURES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "Figure 3a": ("fig-makhlouf2024-3a", "fig3", ("synthetic",)),
    "Figure 3b": ("fig-makhlouf2024-3b", "fig3", ("compas",)),
    "Figure 3c": ("fig-makhlouf2024-3c", "fig3", ("adult",)),
    "Figure 4a": ("fig-makhlouf2024-4a", "fig4", ("S1_0.52",)),
    "Figure 4b": ("fig-makhlouf2024-4b", "fig4", ("compas_3",)),
    "Figure 4c": ("fig-makhlouf2024-4c", "fig4", ("adult_27260",)),
    "Figure 5": ("fig-makhlouf2024-5", "thresholds", ("adult_10000", "adult_27260", "adult_50000")),
    "Figure 7": ("fig-makhlouf2024-7", "thresholds", ("S1_0.44", "S1_0.52", "S1_0.6")),
    "Figure 8": ("fig-makhlouf2024-8", "thresholds", ("compas_1", "compas_3", "compas_5")),
}


def figure_cells(item: str, mixed: bool = True) -> list[tuple[str, str, tuple[str, ...]]]:
    """The plotted means of ``item``: ``[(data, setting, metrics)]`` (noLDP rows are the baselines).

    Parameters
    ----------
    item : str
        A key of :data:`FIGURES`.
    mixed : bool
        Fig. 3 with the authors' mixed-threshold rows (:func:`~ldpfair.papers.makhlouf2024.fig3_sources`).
    """
    if item not in FIGURES:
        raise ValueError(f"invalid item={item!r}; valid: {', '.join(FIGURES)}")
    _, kind, data = FIGURES[item]
    cells: dict[tuple[str, str], list[str]] = {}

    def add(d: str, s: str, metrics: Sequence[str]) -> None:
        cur = cells.setdefault((d, s), [])
        cur.extend(m for m in metrics if m not in cur)

    if kind == "fig3":
        for rate, panels in fig3_sources(data[0], mixed).items():
            for setting, (pts, band) in panels.items():
                add(pts, setting, (f"{rate}_maj", f"{rate}_min"))
                add(band, "noLDP", (f"{rate}_maj", f"{rate}_min"))
    elif kind == "fig4":
        for s in ("noLDP", "combLDP", "indLDP"):
            add(data[0], s, tuple(DISPARITY.values()))
    else:
        for d in data:
            for s in ("noLDP", *_THREE):
                add(d, s, _RATES)
    return [(d, s, tuple(m)) for (d, s), m in cells.items()]


def figure_agreement(runs: pd.DataFrame, authors: pd.DataFrame, item: str, *,
                     mixed: bool = True) -> pd.DataFrame:
    """Every plotted mean of ``item`` against the authors' runs (Welch 95%, :func:`verdicts.compare_runs`).

    Returns one row per (data, setting, epsilon, metric) with ``ours, paper, diff,
    halfwidth, n_runs, test, agrees`` (``paper`` = the authors' mean).
    """
    frames = []
    on = ["data", "setting", "epsilon"]
    for d, s, metrics in figure_cells(item, mixed):
        mine = runs[(runs["data"] == d) & (runs["setting"] == s)]
        theirs = authors[(authors["data"] == d) & (authors["setting"] == s)]
        frames.append(verdicts.compare_runs(mine, theirs, on, list(metrics), pair_on=None))
    return pd.concat(frames, ignore_index=True)


def figure_agreement_shares(runs: pd.DataFrame, authors: pd.DataFrame, *, mixed: bool = True) -> pd.DataFrame:
    """Share of each figure's plotted means that agree with the authors' runs (:func:`figure_agreement`).

    Returns one row per item of :data:`FIGURES`: ``figure, means, agree`` (the share).
    """
    rows = []
    for item in FIGURES:
        ag = figure_agreement(runs, authors, item, mixed=mixed)
        rows.append({"figure": item, "means": len(ag), "agree": ag["agrees"].mean()})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- Table 1
def table1(synthetic_seed: int = 0, synthetic_source: str = "authors") -> pd.DataFrame:
    """Table 1 computed from the data: size, attributes, thresholds and outcome rates per group.

    ``synthetic_seed`` and ``synthetic_source`` are those of
    :func:`~ldpfair.papers.makhlouf2024.experiments.dataset_spec`.
    """
    from ...datasets import load

    rows = []
    for name in ("S1_0.44", "S1_0.52", "S1_0.6", "S2_Q1", "S2_Q2", "S2_Q3",
                 "compas_1", "compas_3", "compas_5", "adult_10000", "adult_27260", "adult_50000"):
        spec = dataset_spec(name, synthetic_seed, synthetic_source)
        ds = load(spec.name, **spec.options)
        _, _, protected, sensitive, q = DATA[name]
        y = ds.y
        a = ds.frame[protected].to_numpy()
        thr = {"S1": ("Y quantile " + str(spec.options.get("quantile"))), "S2": (
            "Y quantile " + str(spec.options.get("quantile")))}.get(name[:2])
        if thr is None:
            thr = f"{ds.target} > {spec.options['threshold']}"
        rows.append({
            "result": name, "dataset": ds.name, "n": len(y), "protected": protected,
            "sensitive (k)": ", ".join(f"{c} ({ds.domains[c]})" for c in sensitive),
            "features": len(ds.features), "threshold": f"τ{q}: {thr}",
            "P(Y=1)": float(y.mean()), "P(Y=1|A=1)": float(y[a == 1].mean()),
            "P(Y=1|A=0)": float(y[a == 0].mean()),
            "distinct rows": int(ds.frame[ds.features].drop_duplicates().shape[0]),
        })
    return pd.DataFrame(rows)


def table1_published() -> pd.DataFrame:
    """The numbers printed in the paper's Table 1 (``decimals`` = printed decimals in ``unit``)."""
    return pd.DataFrame([
        {"quantity": "Synthetic n", "unit": 1000, "paper": 100.0, "decimals": 0},
        {"quantity": "Compas n", "unit": 1, "paper": 5915.0, "decimals": 0},
        {"quantity": "Adult n", "unit": 1, "paper": 32561.0, "decimals": 0},
    ])


#: Synthetic thresholds printed in Table 1 (on min-max scaled Y) per quantile.
PRINTED_THRESHOLDS: dict[float, float] = {0.25: 0.44, 0.5: 0.52, 0.75: 0.6}


def synthetic_thresholds(n_draws: int = 20) -> pd.DataFrame:
    """Threshold on min-max scaled Y of regenerated draws ``0 .. n_draws - 1`` per quantile.

    The authors' files store Y binarised, so their thresholds survive only in the file
    names (``S1_<round(threshold, 2)>``); min-max scaling makes the threshold depend on
    the draw's two most extreme values, so it varies from draw to draw.
    """
    from ..._validation import check_rng
    from ...datasets.makhlouf import generate_synthetic

    rows = [{"quantile": q, "draw": k,
             "threshold": generate_synthetic(100_000, q, check_rng(k, "seed"))[1]}  # the loader's seeding
            for q in PRINTED_THRESHOLDS for k in range(n_draws)]
    return pd.DataFrame(rows)


def table1_comparison(t1: pd.DataFrame | None = None) -> pd.DataFrame:
    """Table 1's printed sizes against the data (:func:`verdicts.compare_published`).

    Sizes come from the data the grids use: the authors' files (Synthetic 1, Adult) and
    COMPAS rebuilt from ProPublica's file as the authors' code does.
    """
    t1 = table1() if t1 is None else t1
    n_of = dict(zip(t1["result"], t1["n"], strict=True))
    ours = {"Synthetic n": n_of["S1_0.52"], "Compas n": n_of["compas_3"], "Adult n": n_of["adult_27260"]}
    frames = []
    for r in table1_published().to_dict("records"):
        mine = pd.DataFrame({"quantity": [r["quantity"]], "value": [ours[r["quantity"]] / r["unit"]]})
        pub = pd.DataFrame({"quantity": [r["quantity"]], "value": [r["paper"]]})
        frames.append(verdicts.compare_published(mine, pub, "quantity", "value", decimals=int(r["decimals"])))
    return pd.concat(frames, ignore_index=True).drop(columns="metric")


def _table1_trends(t1: pd.DataFrame) -> dict[str, bool]:
    """Table 1's attribute lists, skews (τQ1 to 1, τQ2 balanced, τQ3 to 0) and synthetic thresholds."""
    printed = {"S1": {"A", "C", "M"}, "compas": {"race", "sex", "age_cat"},
               "adult": {"gender", "age", "race", "maritalstatus", "nativecountry"}}
    out = {}
    for name, (_, _, _, sensitive, q) in DATA.items():
        if name not in set(t1["result"]):
            continue
        fam = name.split("_")[0]
        if fam in printed:
            out[f"{name}: sensitive attributes as printed"] = set(sensitive) == printed[fam]
        p = float(t1.loc[t1["result"] == name, "P(Y=1)"].iloc[0])
        ok = {"Q1": p > 0.55, "Q2": 0.45 <= p <= 0.55, "Q3": p < 0.45}[q]
        skew = {"Q1": "skewed to 1", "Q2": "balanced", "Q3": "skewed to 0"}[q]
        out[f"{name}: P(Y=1) = {p:.3f} is {skew}"] = ok
    th = synthetic_thresholds()
    for quantile, threshold in PRINTED_THRESHOLDS.items():
        t = th.loc[th["quantile"] == quantile, "threshold"]
        out[f"Synthetic threshold {threshold:g} within the range of 20 draws "
            f"[{t.min():.3f}, {t.max():.3f}]"] = bool(t.min() - 0.005 <= threshold <= t.max() + 0.005)
    return out


# --------------------------------------------------------------------------- Figs. 1, 2, 6
def _sensitive(spec: PrivSpec) -> tuple[str, ...]:
    """The attributes ``spec`` privatises (every LDP setting of the chapter names them)."""
    if spec.sensitive is None:
        raise ValueError(f"privatization {spec!r} names no sensitive attributes")
    return spec.sensitive


def figure12_checks() -> dict[str, dict[str, bool]]:
    """Checks that the two diagrams describe what the code and the authors' data do.

    Fig. 1: the settings drawn are those the grids run. Fig. 2: the parameters drawn
    (the authors' code) are those of ldpfair's generator and of the authors' file
    ``S1_0.52.csv`` (empirical frequencies within 4 standard errors).
    """
    from ...datasets import load
    from ...datasets.makhlouf import _P_A_GIVEN_C, _P_C, _P_M_GIVEN_A

    fig1 = {}
    for name in ("S1_0.52", "compas_3", "adult_27260"):
        _, _, protected, sensitive, _ = DATA[name]
        p = {x.name: x for x in privatizations(name)}
        fig1[f"{name}: sLDP = GRR on the protected attribute only"] = (
            p["sLDP"].protocol == "GRR" and tuple(_sensitive(p["sLDP"])) == (protected,))
        fig1[f"{name}: combLDP = GRR on the product of all sensitive attributes"] = (
            p["combLDP"].mode == "combined" and set(_sensitive(p["combLDP"])) == set(sensitive))
        fig1[f"{name}: indLDP = GRR per attribute, k-based split"] = (
            p["indLDP"].mode == "independent" and p["indLDP"].split == "k_based"
            and set(_sensitive(p["indLDP"])) == set(sensitive))
        grid = build("quick", data=[name])[name]
        fig1[f"{name}: LDP on training folds, audit on original test groups"] = (
            all(x.apply_to == "train" for x in p.values() if x.protocol)
            and grid.evaluation.config().get("groups") == "original")
    fig2 = {}
    for source in ("generate", "authors"):
        f = load("synthetic_makhlouf", quantile=0.5, variant=1, source=source).frame
        c, a, m = (f[k].to_numpy() for k in ("C", "A", "M"))
        tests = [("P(C=1)", c == 1, np.ones_like(c, bool), _P_C)]
        for cv in (0, 1):
            tests.append((f"P(A=1|C={cv})", a == 1, c == cv, _P_A_GIVEN_C[cv]))
        for av in (0, 1):
            for mv in range(3):
                tests.append((f"P(M={mv}|A={av})", m == mv, a == av, _P_M_GIVEN_A[av][mv]))
        for label, event, cond, p0 in tests:
            k = int(cond.sum())
            se = math.sqrt(p0 * (1 - p0) / k)
            fig2[f"{source}: {label} = {p0}"] = bool(abs(event[cond].mean() - p0) <= 4 * se)
    return {"Figure 1": fig1, "Figure 2": fig2}


def fig6_trends(summ: pd.DataFrame) -> dict[str, bool]:
    """The paper's statements about Fig. 6 (footnote 11: Obs6 and Obs7 inverted, A = 0 privileged).

    Accuracy drops more for the unprivileged A = 1 at τQ1 and τQ2 and for the
    privileged A = 0 at τQ3; the positive rate rises more for A = 1 at τQ1, τQ2 and
    falls more for A = 0 at τQ3 (noLDP -> epsilon 0.1, every setting).
    """
    out: dict[str, bool] = {}
    for d, q in (("S2_Q1", "Q1"), ("S2_Q2", "Q2"), ("S2_Q3", "Q3")):
        for s in _THREE:
            oa_maj, oa_min = change(summ, d, s, "OA_maj"), change(summ, d, s, "OA_min")
            sp_maj, sp_min = change(summ, d, s, "SP_maj"), change(summ, d, s, "SP_min")
            if q in ("Q1", "Q2"):
                out[f"{d} {s}: OA drops more for A=1 ({oa_maj:+.3f}, {oa_min:+.3f})"] = bool(oa_maj < oa_min)
                out[f"{d} {s}: SP rises more for A=1 ({sp_maj:+.3f}, {sp_min:+.3f})"] = bool(sp_maj > sp_min)
            else:
                out[f"{d} {s}: OA drops more for A=0 ({oa_min:+.3f}, {oa_maj:+.3f})"] = bool(oa_min < oa_maj)
                out[f"{d} {s}: SP falls more for A=0 ({sp_min:+.3f}, {sp_maj:+.3f})"] = bool(sp_min < sp_maj)
    return out


# --------------------------------------------------------------------------- scoreboard
#: The nine result files the paper's figures plot (the authors' Synthetic 1 files by default).
PAPER_DATA: tuple[str, ...] = ("S1_0.44", "S1_0.52", "S1_0.6", "compas_1", "compas_3", "compas_5",
                               "adult_10000", "adult_27260", "adult_50000")

#: The authors' result files of Synthetic 2, had they been published (none is: Fig. 6 has no numbers).
S2_FILES = "makhlouf2024/Synthetic/S2_*_results.csv"
#: The size of UCI Adult's training split (adult.data), the n the paper prints for Adult.
UCI_ADULT_TRAIN = 32561


def table1_cause_checks(t1: pd.DataFrame, cmp: pd.DataFrame) -> list[verdicts.Check]:
    """The ``"paper"`` check of Table 1: the printed Adult n is not the size of the data behind the numbers.

    Every Adult number of the paper was computed from the authors' ``adult_*`` files;
    the check holds when all three have one size that differs from the printed n
    (which is :data:`UCI_ADULT_TRAIN`, UCI Adult's training split).
    """
    sizes = {int(n) for r, n in zip(t1["result"], t1["n"], strict=True) if str(r).startswith("adult_")}
    row = cmp[cmp["quantity"] == "Adult n"]
    printed = float(row["paper"].iloc[0]) if len(row) else float("nan")
    (n_files,) = sizes if len(sizes) == 1 else (None,)
    holds = n_files is not None and printed == UCI_ADULT_TRAIN and n_files != printed
    return [verdicts.Check(
        "Table 1 prints the size of UCI Adult's training split, not of the data behind the Adult numbers",
        holds, f"printed n = {printed:,.0f} (UCI adult.data has {UCI_ADULT_TRAIN:,} rows); the authors' "
        f"adult_*.csv files, from which every Adult number of the paper was computed, have "
        f"{', '.join(f'{n:,}' for n in sorted(sizes))} rows", "paper", covers=("Adult n",))]


def s2_missing() -> bool:
    """Whether the authors' reference folder holds no Synthetic 2 result file (:data:`S2_FILES`)."""
    from ... import config

    ref = config.reference_dir()
    if ref is None or not (ref / "makhlouf2024").is_dir():
        return False  # without the authors' folder nothing is shown missing
    return not any((ref / "makhlouf2024").rglob("S2_*"))


def s2_check(covers: Sequence[str]) -> verdicts.Check:
    """The ``"data"`` check of what only Synthetic 2 can decide: the authors published none of it."""
    return verdicts.Check(
        "The authors published no code, data or results of Synthetic 2", s2_missing(),
        "their folder has Synthetic 1, COMPAS and Adult result files and no S2 file, so whether their "
        "construction of Synthetic 2 differs from ldpfair's (e.g. the sign of A's effect) cannot be checked",
        "data", covers=tuple(covers), source=S2_FILES)


def committed_runs(faithful: bool = True) -> tuple[pd.DataFrame | None, pd.DataFrame]:
    """Runs and summary of the committed results the scoreboard and the claims read.

    The results of :data:`PAPER_DATA` and Synthetic 2 (``SPEC.results("paper", data=...)``,
    never computed unless ``LDPFAIR_COMPUTE`` says so), aggregated by
    :func:`~ldpfair.papers.makhlouf2024.aggregate.chapter_runs` with ``faithful``.
    """
    return committed_chapter_runs((*PAPER_DATA, "S2_Q1", "S2_Q2", "S2_Q3"), faithful)


def _runs_per_file() -> int:
    return 20 * (1 + 3 * len(EPSILONS))


def scoreboard(runs: pd.DataFrame | None = None, summ: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every target item of the paper, each row made by :func:`ldpfair.verdicts.score_item`.

    Parameters
    ----------
    runs, summ : pandas.DataFrame, optional
        Per-run aggregates and their summary (default: the committed paper-profile results
        of :data:`PAPER_DATA` and Synthetic 2, faithful aggregation).
    """
    if runs is None or summ is None:
        runs, summ = committed_runs()
    if runs is None:
        runs = pd.DataFrame(columns=["data", "setting", "epsilon", "seed"])
    authors = authors_runs(list(PAPER_DATA))
    rows = []
    t1 = table1()
    cmp = table1_comparison(t1)
    bad = cmp.loc[~cmp["agrees"], "quantity"].tolist()
    t1_trends = _table1_trends(t1)
    rows.append(verdicts.score_item(
        "Table 1", "#table-1", agrees=cmp["agrees"], trends=t1_trends,
        cause=verdicts.decide_cause([*bad, *verdicts.failing(t1_trends)], table1_cause_checks(t1, cmp),
                                    "#table-1"),
        evidence=(f"{int(cmp['agrees'].sum())} of {len(cmp)} printed dataset sizes agree at the "
                  f"printed precision (not: {', '.join(bad) or 'none'}); attribute lists, skews and "
                  "synthetic thresholds (within 20 regenerated draws) as printed")))
    for item, checks in figure12_checks().items():
        rows.append(verdicts.score_item(
            item, f"fig-makhlouf2024-{item[-1]}", verified=checks,
            evidence=f"{sum(checks.values())} of {len(checks)} checks of the diagram against the code "
                     "and the authors' data pass"))
    for item, (label, _kind, _data) in FIGURES.items():
        names = sorted({d for d, _, _ in figure_cells(item)})
        present = int(runs["data"].isin(names).sum())
        ag = figure_agreement(runs, authors, item)
        share = float(ag["agrees"].mean()) if len(ag) else float("nan")
        total = _runs_per_file() * len(names)
        note = ""
        if present < total:
            runs_of = runs[runs["data"].isin(names)].groupby("data")["seed"].nunique()
            short = ", ".join(f"{d} {int(k)} runs" for d, k in runs_of.items() if k < 20)
            note = (f"Only part of the 20 runs is committed ({short}; the rest did not fit this session's "
                    f"compute budget); the committed runs agree with the authors' in {share:.0%} of "
                    f"{len(ag)} plotted means")
        cause = verdicts.decide_cause(_ids(ag[~ag["agrees"]]), [], "makhlouf2024-agreement", note=note)
        rows.append(verdicts.score_item(
            item, label, agrees=ag["agrees"], present=present, total=total, cause=cause,
            evidence=(f"{share:.0%} of {len(ag)} plotted means (data, setting, epsilon, rate) within the "
                      "Welch 95% interval of the authors' 20 runs")))
    trends = fig6_trends(summ)
    rows.append(verdicts.score_item(
        "Figure 6", "fig-makhlouf2024-6", trends=trends, present=int(runs["data"].str.startswith("S2").sum()),
        total=3 * _runs_per_file(),
        cause=verdicts.decide_cause(verdicts.failing(trends), [s2_check(verdicts.failing(trends))],
                                    "makhlouf2024-draws"),
        evidence=(f"{sum(trends.values())} of {len(trends)} of the paper's statements on Synthetic 2 "
                  "(footnote 11) hold; no published numbers (generated data, seed 0)")))
    order = ["Table 1", "Figure 1", "Figure 2", "Figure 3a", "Figure 3b", "Figure 3c", "Figure 4a",
             "Figure 4b", "Figure 4c", "Figure 5", "Figure 6", "Figure 7", "Figure 8"]
    out = pd.DataFrame(rows)
    return out.set_index("item").loc[order].reset_index()[list(verdicts.ITEM_COLUMNS)]


_CLAIMS = "makhlouf2024-claims"


def _ids(rows: pd.DataFrame) -> list[str]:
    """Ids of plotted means (data, setting, epsilon, metric) for the ledger."""
    return [f"{r.data} {r.setting} eps {r.epsilon:g} {r.metric}" for r in rows.itertuples(index=False)]


def _s2(check: str) -> bool:
    """Whether a claim check is decided on Synthetic 2 (no run of the authors exists)."""
    return check.startswith("S2_")


_OBS5_KEY = re.compile(r"^(?P<d>\S+): comb = ind at eps 0\.1 \(TOST, margin [0-9.]+\)$")
_DIRECTION_KEY = re.compile(r"^(?P<d>\S+?)(?: (?P<s>\w+LDP))?: (?P<col>OA|SP) (?P<verb>drops|rises|falls) "
                            r"more for (?P<g>maj|min)$")


def direction_gap(runs: pd.DataFrame, data: str, setting: str, col: str) -> tuple[float, float, float]:
    """Change from noLDP to eps 0.1 of ``col`` for min minus that for maj, with its Welch 95% interval.

    Per run, ``<col>_min - <col>_maj`` at eps 0.1 (``setting``) and at the noLDP baseline;
    the difference of their means is the gap and its Welch interval (the runs of the two
    cells are independent). NaN where either cell has fewer than two runs.
    """
    from scipy import stats

    def per_run(s: str, eps: float) -> np.ndarray:
        sel = runs[(runs["data"] == data) & (runs["setting"] == s) & np.isclose(runs["epsilon"], eps)]
        return (sel[f"{col}_min"] - sel[f"{col}_maj"]).to_numpy(dtype=float)

    x, y = per_run(setting, 0.1), per_run("noLDP", math.inf)
    x, y = x[np.isfinite(x)], y[np.isfinite(y)]
    if x.size < 2 or y.size < 2:
        return float("nan"), float("nan"), float("nan")
    vx, vy = x.var(ddof=1) / x.size, y.var(ddof=1) / y.size
    gap, se = float(x.mean() - y.mean()), math.sqrt(vx + vy)
    if se == 0:
        return gap, gap, gap
    dof = (vx + vy) ** 2 / (vx**2 / (x.size - 1) + vy**2 / (y.size - 1))
    half = float(stats.t.ppf(0.975, dof)) * se
    return gap, gap - half, gap + half


def _reversal(k: str, runs: pd.DataFrame | None) -> tuple[bool, str] | None:
    """For a direction check (min vs maj), whether the authors' runs show the opposite direction.

    A difference whose 95% interval contains 0 is never a reversal. ``None`` when ``k`` is not
    a direction check.
    """
    m = _DIRECTION_KEY.match(k)
    if m is None:
        return None
    if runs is None:
        return False, "the authors' per-run results were not given, so no interval was computed"
    gap, lo, hi = direction_gap(runs, m["d"], m["s"] or "combLDP", m["col"])
    # the claim: min's change below maj's (min moves down more, or maj up more) or above it
    claim_negative = (m["verb"] in ("drops", "falls")) == (m["g"] == "min")
    shown = bool(lo > 0) if claim_negative else bool(hi < 0)
    words = (f"on the authors' runs, change min - change maj {gap:+.4f}, 95% interval "
             f"[{lo:+.4f}, {hi:+.4f}]")
    return shown, words + ("" if shown else ": it contains 0 or has the claimed sign, so no reversal "
                                            "is shown")


def claim_cause_checks(ours: Any, theirs: Any | None, *, their_summary: pd.DataFrame | None = None,
                       their_runs: pd.DataFrame | None = None) -> list[verdicts.Check]:
    """Per failing check of a claim of ours, whether it fails on the authors' own runs too.

    One ``"paper"`` check per failing check on the authors' data (it holds when the
    same check, computed by the same function, fails on the authors' per-run
    results: that part of the claim does not hold on the paper's own runs), and
    one ``"data"`` check for the failing checks only Synthetic 2 can decide
    (:func:`s2_check`). Two checks need more than a failure:

    - Obs5's "comb = ind" (an equivalence test) is a paper error only where it fails on
      the authors' runs (``their_summary``) at every margin the paper's text supports
      (:data:`~ldpfair.papers.makhlouf2024.claims.OBS5_MARGINS`): a failure to show
      sameness at one margin is not a shown difference;
    - a direction (which group's accuracy or rate moves more) is a paper error only where
      the authors' per-run results (``their_runs``) show the opposite direction: a
      difference whose 95% interval contains 0 is never a reversal (:func:`direction_gap`).
    """
    from . import claims as cl

    out = []
    s2 = []
    for k in verdicts.failing(ours.checks):
        if _s2(k):
            s2.append(k)
            continue
        value = None if theirs is None else theirs.checks.get(k)
        computed = value is not None and value == value
        holds = bool(computed and not value)
        evidence = ("not computed on the authors' runs" if not computed else "" if holds else
                    "it holds on the authors' runs: false only on ours")
        obs5, turn = _OBS5_KEY.match(k), _reversal(k, their_runs)
        if holds and obs5 is not None:
            margins = cl.OBS5_MARGINS
            if their_summary is None:
                holds, evidence = False, "not computed at every margin the paper supports"
            else:
                same = {mg: cl.obs5_same(their_summary, obs5["d"], mg) for mg in margins}
                holds = not any(same.values())
                evidence = ("on the authors' runs, all five disparities the same at margin "
                            + ", ".join(f"{mg:g} {'yes' if v else 'no'}" for mg, v in same.items()))
        elif holds and turn is not None:
            holds, evidence = turn
        out.append(verdicts.Check(f"{k}, recomputed on the authors' own per-run results", holds, evidence,
                                  "paper", covers=(k,)))
    if s2:
        out.append(s2_check(s2))
    return out


def claim_causes(ours: Sequence[Any], theirs: Sequence[Any], *, their_summary: pd.DataFrame | None = None,
                 their_runs: pd.DataFrame | None = None) -> list[Any]:
    """Attach the computed cause (:func:`claim_cause_checks`) to each claim of ours not reproduced."""
    from dataclasses import replace

    by_id = {c.id: c for c in theirs}
    out = []
    for c in ours:
        if c.verdict != "reproduced":
            t = by_id.get(c.id)
            note = f"On the authors' per-run results: {t.evidence}" if t is not None else ""
            why = claim_cause_checks(c, t, their_summary=their_summary, their_runs=their_runs)
            c = replace(c, cause=verdicts.claim_cause(c.checks, why, _CLAIMS, note=note))
        out.append(c)
    return out


def authors_claims(summ: pd.DataFrame) -> list[Any]:
    """The claims checked on the authors' own per-run results (Synthetic 2 from ``summ``: none of theirs)."""
    theirs = summary(authors_runs(list(PAPER_DATA)))
    s2 = summ[summ["data"].astype(str).str.startswith("S2")]
    return claims(pd.concat([theirs, s2], ignore_index=True))


def committed_claims(faithful: bool = True) -> list[Any]:
    """The claims on the committed results (authors' synthetic files), with their computed causes.

    Each claim that is not reproduced gets :func:`claim_causes` against the same claims
    on the authors' own per-run results (:func:`authors_claims`).
    """
    _, summ = committed_runs(faithful)
    ours = claims(summ)
    if all(c.verdict == "reproduced" for c in ours):
        return ours
    runs = authors_runs(list(PAPER_DATA))
    return claim_causes(ours, authors_claims(summ), their_summary=summary(runs), their_runs=runs)
