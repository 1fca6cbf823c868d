"""hamman2023: the published numbers, their comparison with ours, the claims and the scoreboard.

Every verdict is made by :mod:`ldpfair.verdicts` (one set of rules) on the committed
paper-profile results (:func:`committed_results`): the published Tables 1-4 number by
number (:func:`published_comparison`), the errors the text quotes for Figs. 1b, 3 and 4b
(:func:`quoted_errors`), the claims (:func:`claims`) and one scoreboard row per figure
and table (:func:`scoreboard`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from ... import attacks, verdicts
from ...reporting import Claim
from .experiments import example, m_rule
from .published import (
    _BY,
    _METRIC_NAMES,
    INF,
    PAPER_NUMBERS,
    PAPER_TABLE1,
    PAPER_TABLE2,
    PAPER_TABLE3,
    PAPER_TABLE4,
    _compare_table,
    _fmt,
    committed_results,
    number_id,
    published_comparison,
    with_units,
)

__all__ = [
    "PAPER_TABLE1",
    "PAPER_TABLE2",
    "PAPER_TABLE3",
    "PAPER_TABLE4",
    "PAPER_NUMBERS",
    "ERRORS_LABEL",
    "with_units",
    "committed_results",
    "claims",
    "committed_claims",
    "published_comparison",
    "quoted_errors",
    "forensic_summary",
    "number_id",
    "error_checks",
    "leakage_checks",
    "table1_reading_comparison",
    "TEXT_READING",
    "TEXT_SENTENCE",
    "leakage_regression",
    "scoreboard",
]


class _Coverage(TypedDict):
    """Cells present and declared of one experiment (``present``, ``total`` of ``score_item``)."""

    present: int
    total: int


def claims(res: Mapping[str, pd.DataFrame]) -> list[Claim]:
    """The issue's claims, checked on the results ``{name: tidy frame}``."""
    out = []
    ex = [example("synthetic", s) for s in range(1)]
    # C1: a single query reveals a targeted individual's group
    rng = np.random.default_rng(0)
    a = np.ones(500, dtype=np.int64)
    a[rng.choice(500, 50, replace=False)] = 0
    ok = all(attacks.reveal_single(attacks.sp_queries(attacks.single_query_model(500, j), a)[0])[0]
             == a[j] for j in range(500))
    h0 = (rng.random(500) < 0.3).astype(float)

    def revealed_double(j: int) -> int:
        sp1, sp2 = attacks.sp_queries(attacks.double_query_models(h0, j), a)
        return attacks.reveal_double(sp1, sp2, h0[j])

    ok2 = all(revealed_double(j) == a[j] for j in range(500))
    out.append(Claim("single query", "A single SP query (Example 1), or two queries of realistic models "
                     "(Example 2), reveals a targeted individual's group.",
                     f"Every one of 500 individuals (N0 = 50) identified by Example 1: {('no', 'yes')[ok]}; "
                     f"by Example 2: {('no', 'yes')[ok2]}.", {"example 1": ok, "example 2": ok2},
                     verified=True))
    # C2: O(N0 log(n/N0)) queries reconstruct all
    f2 = res["fig2"]
    t1 = res["table1"]
    noiseless = t1[(t1["epsilon"] == INF)]
    full = noiseless.groupby(["n", "m"])["leakage"].mean()
    f1 = res["fig1"]
    f1n = f1[f1["epsilon"] == INF].groupby("m")["leakage"].mean()
    m_full = int(f1n[f1n >= 100.0].index.min()) if (f1n >= 100.0).any() else None
    n0_adult = float(noiseless.loc[noiseless["n"] == 100, "N0"].mean())
    bound = m_rule(100, max(1, round(n0_adult)), c=3.0)
    checks = {"Fig. 3 (n=1000, N0=10, m=60) noiseless recovery exact": bool(ex[0]["leakage_clean"] == 100),
              f"Fig. 1a: 100% mean leakage by m <= 3 N0 ln(n/N0) = {bound}":
                  bool(m_full is not None and m_full <= bound)}
    if (1000, 400) in full.index:
        checks["Table 1: Adult n=1000, m=400 noiseless leakage 100%"] = bool(full[(1000, 400)] >= 99.99)
    clipped = res.get("table1_clipped")
    clip_full = (clipped[~np.isfinite(clipped["epsilon"].astype(float))].groupby(["n", "m"])["leakage"].mean()
                 if clipped is not None and len(clipped) else pd.Series(dtype=float))
    cause2 = None
    if not all(checks.values()):
        cause2 = verdicts.claim_cause(checks, [verdicts.Check(
            "Perturbed models clipped to [0, 1] (the variant table1_clipped) instead of unclipped (the text)",
            False,
            "noiseless leakage clipped: "
            + (", ".join(f"n={n}, m={m}: {v:.1f}%" for (n, m), v in clip_full.items()) or "not committed")
            + "; the authors' base model, split and test draws are not published", "tried")], "#table-1")
    out.append(Claim("O(N0 log(n/N0)) queries", "Compressed sensing reconstructs every attribute from "
                     "m = O(N0 log(n/N0)) queries.",
                     "Noiseless leakage (mean over runs): "
                     + ", ".join(f"n={n}, m={m}: {v:.1f}%" for (n, m), v in full.items())
                     + f"; Fig. 1a: first m with 100% mean leakage at n = 100: {m_full}.", checks, cause2,
                     verified=True))
    del f2
    # C3: conceal far lower error than Laplace at similar leakage
    finite = t1[np.isfinite(t1["epsilon"])]
    g = finite.groupby(["n", "m", "epsilon", "mechanism"])[["avg_sp_err", "leakage"]].mean().unstack()
    ratio = g[("avg_sp_err", "laplace")] / g[("avg_sp_err", "conceal")]
    dleak = (g[("leakage", "conceal")] - g[("leakage", "laplace")]).abs()
    checks3 = {"conceal error lower in every cell": bool((ratio > 1).all()),
               "leakage within 10 points of Laplace in every cell": bool((dleak <= 10).all())}
    sizes = finite.groupby(["n", "m", "epsilon"])[["N1", "N0"]].mean().round().astype(int)
    larger = {r: sum(attacks.noise_scale(n1, n0, m, e, "conceal", r)[0]
                     > attacks.noise_scale(n1, n0, m, e, "laplace", r)[0]
                     for (n, m, e), (n1, n0) in sizes.iterrows())
              for r in ("theorem5", "per_query_no_factor6")}
    cause3 = None
    if not all(checks3.values()):
        cause3 = verdicts.claim_cause(checks3, [verdicts.Check(
            "By the paper's own Theorems 4-5 (its scales at the settings of Table 1) the Cauchy scale 6S/eps "
            "exceeds the Laplace scale Delta/eps in some cells, so Attribute-Conceal cannot have the lower "
            "error there", bool(larger["theorem5"] > 0),
            f"Cauchy scale above the Laplace scale in {larger['theorem5']} of {len(sizes)} Table 1 cells "
            f"(N0 of about 10 at n = 100); under the reading 'per query, no factor 6' (not epsilon-DP) in "
            f"{larger['per_query_no_factor6']} of {len(sizes)}", "paper",
            covers=("conceal error lower in every cell",))], ERRORS_LABEL)
    out.append(Claim("conceal vs Laplace", "Attribute-Conceal has far lower query error than the Laplace "
                     "mechanism at similar leakage (Table 1).",
                     f"Laplace/Conceal error ratio {ratio.min():.1f}-{ratio.max():.1f} over "
                     f"{len(ratio)} cells; |leakage difference| up to {dleak.max():.1f} points; Cauchy scale "
                     f"above the Laplace scale in {larger['theorem5']} of {len(sizes)} cells.", checks3,
                     cause3))
    return out


# --------------------------------------------------------------------------- chapter results
def committed_claims() -> list[Claim]:
    """The claims checked on the committed paper-profile results (for the scoreboard)."""
    return claims(committed_results())


# --------------------------------------------------------------------------- scoreboard
#: Where the chapter shows the forensic evidence on the query errors.
ERRORS_LABEL = "hamman2023-errors"


def quoted_errors(res: Mapping[str, pd.DataFrame] | None = None, runs: int = 10) -> pd.DataFrame:
    """The average errors the paper quotes for Figs. 1b, 3 and 4b against ours.

    Fig. 1b (Adult, n = 100, m = 40, eps = 100) and Fig. 4b (German, m = 800,
    eps = 1000) against our committed runs of those settings; Fig. 3 (synthetic,
    N1 = 990, N0 = 10, m = 60, eps = 100: no committed sweep) against ``runs`` runs of the
    Attribute-Conceal noise drawn with seed 2023 (the error does not depend on the models).
    Each run's average error is Cauchy-distributed (no mean), so the median over runs
    is compared, with its order-statistic interval (:func:`ldpfair.verdicts.compare_median`).
    Values are in units of 1e-4 (Figs. 1b, 4b) or 1 (Fig. 3), with the quoted decimals.
    """
    res = committed_results() if res is None else res
    f1 = res["fig1"]
    f1 = f1[(f1["m"] == 40) & (f1["epsilon"] == 100.0) & (f1["mechanism"] == "conceal")]["avg_sp_err"] * 1e4
    f4 = res["fig4"]
    f4 = f4[(f4["m"] == 800) & (f4["epsilon"] == 1000.0) & (f4["mechanism"] == "conceal")]["avg_sp_err"] * 1e4
    rng = np.random.default_rng(np.random.SeedSequence([2023, 3]))
    scale, _ = attacks.noise_scale(990, 10, 60, 100.0, "conceal")
    f3 = (scale * np.abs(rng.standard_cauchy((runs, 60)))).mean(axis=1)
    rows = []
    quoted = (("Figure 1", f1, PAPER_NUMBERS["fig1b_avg_sp_err"] * 1e4, 2, "1e-4"),
              ("Figure 3", f3, PAPER_NUMBERS["fig3_avg_sp_err"], 4, "1"),
              ("Figure 4", f4, PAPER_NUMBERS["fig4b_avg_sp_err"] * 1e4, 2, "1e-4"))
    for item, ours, paper, dec, unit in quoted:
        rows.append({"item": item, "unit": unit, "id": number_id(item, "avg_sp_err_e3", {}),
                     **verdicts.compare_median(np.asarray(ours, dtype=float), paper, decimals=dec)})
    return pd.DataFrame(rows)


def forensic_summary() -> dict[str, Any]:
    """Headline numbers of the committed forensic summaries (:mod:`.forensics`, :mod:`.cells`)."""
    from . import cells as fc
    from . import forensics as fx

    tab = fx.load("forensics_readings")
    ct = fc.committed_cell_table()
    reading, statistic, share = fx.best_reading(tab)
    top = tab[(tab["reading"] == reading) & (tab["statistic"] == statistic)].iloc[0]
    t5 = tab[(tab["reading"] == "theorem5")]
    tables = ct[ct["item"].str.startswith("Table")]
    return {"reading": reading, "statistic": statistic, "share": share, "best": int(top["total"]),
            "cells": int(top["cells"]), "theorem5_best": int(t5["total"].max()),
            "not_dp": int(tables["not_dp"].sum()),
            "below_theorem": int((tables["ratio theorem5"] < 1).sum()), "implied_cells": len(tables),
            "labels": {k: int(v) for k, v in ct["label"].value_counts().items()}}


# --------------------------------------------------------------------------- causes (computed checks)
def _cell_ids(ct: pd.DataFrame) -> list[str]:
    recs = ct.to_dict("records")
    return [number_id(it, "avg_sp_err_e3", r) for it, r in zip(ct["item"], recs, strict=True)]


#: The noise reading of each table and figure, fixed in advance from the paper's text (never by the
#: match): Appendix A.7, "To demonstrate the effectiveness Attribute-Conceal in protecting the
#: protected attribute, we use the mechanism in Theorem 5 to achieve ϵ-DP (see Algorithm 3)",
#: with Algorithm 3's own line "This algorithm is based on Theorem 5" and Section 5's Laplace
#: baseline, the Laplace mechanism at the global sensitivity. Every item reads ``"theorem5"``.
TEXT_READING: dict[str, str] = dict.fromkeys(
    ("Figure 1", "Figure 3", "Figure 4", "Table 1", "Table 2", "Table 3", "Table 4"), "theorem5")
#: The sentence of the paper that fixes :data:`TEXT_READING`.
TEXT_SENTENCE: str = ("“To demonstrate the effectiveness Attribute-Conceal in protecting the protected "
                      "attribute, we use the mechanism in Theorem 5 to achieve ϵ-DP (see Algorithm 3).” "
                      "(Appendix A.7; Algorithm 3: “This algorithm is based on Theorem 5”)")


def error_checks(item: str, ct: pd.DataFrame | None = None,
                 agrees: Mapping[str, bool] | None = None) -> list[verdicts.Check]:
    """The computed checks on an item's published finite-epsilon errors (:mod:`.cells`).

    - ``"paper"``: the cells whose published error implies a privacy loss above epsilon
      on an explicit neighbouring pair (not epsilon-DP, so not produced by the stated
      mechanism), computed on the paper's own numbers;
    - ``"variant"``: only the item's reading fixed in advance from the paper's text
      (:data:`TEXT_READING`), judged by the default comparison's own statistic (the
      median of the per-run average errors for Attribute-Conceal, the mean for Laplace):
      a reading covers a cell only then. Every item's text reading is Theorem 5, the
      noise of our runs, so under that statistic it is the default comparison itself
      and covers none of the cells the default fails;
    - ``"tried"``: the other readings, as exploration: chosen cell by cell under another
      statistic (the pooled median of the errors), they cover nothing.
    """
    from . import cells as fc

    ct = fc.committed_cell_table() if ct is None else ct
    ct = ct[ct["item"] == item].reset_index(drop=True)
    ids = _cell_ids(ct)
    out: list[verdicts.Check] = []
    if not len(ct):
        return out
    bad = ct["not_dp"].astype(bool).to_numpy()
    loss = ct["loss"].to_numpy(dtype=float)
    eps = ct["epsilon"].to_numpy(dtype=float)
    lo, hi = (float(loss[bad].min()), float(loss[bad].max())) if bad.any() else (math.nan, math.nan)
    out.append(verdicts.Check(
        "The published error implies a privacy loss above epsilon on an explicit pair of neighbouring "
        "test sets (one disadvantaged person joins the advantaged group and every one of the m answers "
        "moves by 1/(N1+1) + 1/N0): not epsilon-DP, so not produced by the stated mechanism",
        bool(bad.any()),
        f"{int(bad.sum())} of {len(ct)} finite-epsilon cells; implied loss "
        + (f"{lo:,.1f} to {hi:,.1f} against epsilon {_fmt(eps[bad].min())} to {_fmt(eps[bad].max())}"
           if bad.any() else "at most epsilon in every cell")
        + (f"; {int((~bad).sum())} cells at most epsilon (loss {loss[~bad].min():,.1f} to "
           f"{loss[~bad].max():,.1f})" if (~bad).any() else ""),
        "paper", covers=tuple(i for i, b in zip(ids, bad, strict=True) if b)))
    rest = [k for k, b in enumerate(bad) if not b]
    if not rest:
        return out
    default = {ids[k]: bool(agrees[ids[k]]) if agrees is not None and ids[k] in agrees
               else bool(ct["default_lands"].iloc[k]) for k in rest}
    text = TEXT_READING.get(item, fc.DEFAULT_READING)
    if text != fc.DEFAULT_READING:  # no item's text reads another noise today; refuse rather than guess
        raise ValueError(f"{item}: the text reading {text!r} needs its own simulation under the default "
                         f"statistic; only {fc.DEFAULT_READING!r} (our runs' noise) is supported")
    # Theorem 5 under the default comparison's statistic is the default comparison: the same agreements
    out.append(verdicts.variant_check(
        f"Noise reading {text!r}, the one the paper's text states, judged by the default comparison's "
        "statistic", source=f"noise_reading={text!r}", default=default, variant=dict(default),
        evidence=f"fixed in advance from {TEXT_SENTENCE}; our runs use this noise, so it agrees where "
                 "the default does"))
    explored = []
    for reading in attacks.NOISE_READINGS:
        if reading == text:
            continue
        hits = [ids[k] for k in rest if reading in str(ct["lands"].iloc[k]).split(", ")
                and not default[ids[k]]]
        explored.append(f"{reading} lands on {len(hits)} of the {sum(not v for v in default.values())} "
                        f"failing cells at most epsilon (paper / simulated "
                        f"{ct[f'ratio {reading}'].median():.3g}, median over cells)")
    out.append(verdicts.Check(
        f"Exploration: the other {len(explored)} readings of the noise scale, under the pooled median of "
        "the errors (chosen cell by cell, not fixed in advance: they cover nothing)", False,
        "; ".join(explored), "tried"))
    return out


def leakage_checks(item: str, cmp: pd.DataFrame, res: Mapping[str, pd.DataFrame]) -> list[verdicts.Check]:
    """The computed checks on an item's leakage / recovered-attribute numbers.

    Table 1: the perturbed models clipped to [0, 1] (the committed variant
    ``table1_clipped``), judged by the same comparison as the default. Every table: the
    least squares of ``log(paper / ours)`` on the logs of ``n, m, N0, epsilon`` (a
    ``"tried"`` check: a diagnostic, it reproduces nothing).
    """
    other = cmp[cmp["metric"] != "avg_sp_err_e3"]
    out: list[verdicts.Check] = []
    if not len(other):
        return out
    metric = str(other["metric"].iloc[0])
    if item == "Table 1" and "table1_clipped" in res and len(res["table1_clipped"]):
        clipped = published_comparison({**res, "table1": res["table1_clipped"]})["Table 1"]
        clipped = clipped[clipped["metric"] == metric]
        out.append(verdicts.variant_check(
            "Perturbed models clipped to [0, 1] (Algorithm 2 read with clipping)",
            source="clip_models=True (experiment table1_clipped)",
            default=dict(zip(other["id"], other["agrees"].astype(bool), strict=True)),
            variant=dict(zip(clipped["id"], clipped["agrees"].astype(bool), strict=True)),
            evidence=f"{int(clipped['agrees'].sum())} of {len(clipped)} {metric} numbers agree clipped, "
                     f"{int(other['agrees'].sum())} unclipped"))
    if item == "Table 1" and "table1_reading" in res and len(res["table1_reading"]):
        fin, under = table1_reading_comparison(res, other)
        for reading, vr in under.items():
            chk = verdicts.variant_check(
                f"Leakage recomputed with the noise reading {reading!r} (finite-epsilon cells; the models "
                "of that experiment are clipped to [0, 1])", source=f"noise_reading={reading!r}",
                default=dict(zip(fin["id"], fin["agrees"].astype(bool), strict=True)),
                variant=dict(zip(vr["id"], vr["agrees"].astype(bool), strict=True)),
                evidence=f"{int(vr['agrees'].sum())} of {len(vr)} leakage numbers agree under it, "
                         f"{int(fin['agrees'].sum())} under Theorem 5")
            if reading != TEXT_READING.get(item, "theorem5"):  # not the text's reading: exploration only
                chk = verdicts.Check(f"Exploration: {chk.statement}, not the reading the paper's text "
                                     "states", chk.holds, chk.evidence, "tried", source=chk.source)
            out.append(chk)
    reg = leakage_regression(item, res)
    if reg is not None:
        terms = ", ".join(f"{t} {c:+.2f} ± {se:.2f}" for t, c, se in
                          zip(reg["term"], reg["coef"], reg["se"], strict=True) if t != "factor")
        out.append(verdicts.Check(
            f"Regression of log(paper / ours) of the {metric} on the logs of the settings", False,
            f"{reg.attrs['cells']} cells: factor {reg['coef'].iloc[0]:.3g}, {terms or 'no varying setting'}; "
            f"R² {reg.attrs['r2']:.2f}, residual sd {reg.attrs['resid_sd']:.2f} (log scale)", "tried"))
    return out


def table1_reading_comparison(res: Mapping[str, pd.DataFrame], table1: pd.DataFrame | None = None,
                              ) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """Table 1's finite-epsilon leakage numbers against our runs: Theorem 5 and each noise reading.

    Parameters
    ----------
    res : mapping of str to pandas.DataFrame
        The results (:func:`committed_results` or a profile's), with ``table1`` and, for
        the readings, ``table1_reading`` (absent or empty: no readings).
    table1 : pandas.DataFrame, optional
        Table 1's comparison (:func:`published_comparison`), reused when given.

    Returns
    -------
    default : pandas.DataFrame
        The finite-epsilon leakage rows of Table 1's comparison (the runs under Theorem 5).
    readings : dict of str to pandas.DataFrame
        Per ``noise_reading`` (sorted), the same numbers compared with the runs of
        ``table1_reading`` under that reading (:func:`~.published._compare_table`).
    """
    if table1 is None:
        table1 = _compare_table("Table 1", res["table1"], PAPER_TABLE1, _BY["Table 1"], ["leakage"])
    leak = table1[table1["metric"] == "leakage"]
    default = leak[np.isfinite(leak["epsilon"].astype(float))]
    t1r = res.get("table1_reading")
    if t1r is None or not len(t1r):
        return default, {}
    pub = PAPER_TABLE1[np.isfinite(PAPER_TABLE1["epsilon"].astype(float))]
    return default, {str(reading): _compare_table("Table 1", g, pub, _BY["Table 1"], ["leakage"])
                     for reading, g in t1r.groupby("noise_reading", sort=True)}


def leakage_regression(item: str, res: Mapping[str, pd.DataFrame]) -> pd.DataFrame | None:
    """:func:`.forensics.ratio_regression` of an item's published leakage (Table 4: recovered) on settings.

    Finite-epsilon cells only (Attribute-Conceal and, in Table 1, Laplace), covariates
    ``n, m, N0, epsilon`` (those that vary). None when fewer than three cells.
    """
    from . import forensics as fx

    cells = fx.published_cells(dict(res))
    cells = cells[cells["table"] == item].reset_index(drop=True)
    if item == "Table 4":
        t4 = res["table4"]
        ours = [float(t4.loc[(t4["m"] == m) & (t4["epsilon"] == e), "recovered"].mean())
                for m, e in zip(cells["m"], cells["epsilon"], strict=True)]
        paper = PAPER_TABLE4.set_index(["m", "epsilon"])["recovered"]
        pub = [float(paper[(m, e)]) for m, e in zip(cells["m"], cells["epsilon"], strict=True)]
    else:
        ours, pub = list(cells["ours_leakage"]), list(cells["paper_leakage"])
    if len(cells) < 3:
        return None
    return fx.ratio_regression(pub, ours, cells[["n", "m", "N0", "epsilon"]])


def _item_cause(item: str, cmp: pd.DataFrame, res: Mapping[str, pd.DataFrame],
                trends: Mapping[str, bool] | None = None) -> verdicts.Cause:
    """The cause of an item's disagreements, decided by :func:`ldpfair.verdicts.decide_cause`."""
    dis = [i for i, a, c in zip(cmp["id"], cmp["agrees"], cmp["construction"], strict=True)
           if not a and not c]
    dis += verdicts.failing(trends or {})
    agrees = dict(zip(cmp["id"], cmp["agrees"].astype(bool), strict=True))
    checks = error_checks(item, agrees=agrees) + leakage_checks(item, cmp, res)
    return verdicts.decide_cause(dis, checks, ERRORS_LABEL)


def scoreboard() -> pd.DataFrame:
    """Status of Figs. 1-4 and Tables 1-4 by :mod:`ldpfair.verdicts`, from the committed results.

    Tables: every published number against our runs (:func:`published_comparison`:
    Attribute-Conceal errors by the median and its order-statistic interval, the rest
    by Welch; printed precision the only slack; epsilon = infinity errors are
    verifications). Figures: the error the paper quotes (:func:`quoted_errors`) and the
    behaviour the paper shows (trends). Causes: :func:`ldpfair.verdicts.decide_cause` on
    the computed checks of :func:`error_checks` and :func:`leakage_checks`.
    """
    from scipy import stats

    res = committed_results()
    cmp = published_comparison(res)
    quoted = quoted_errors(res).set_index("item")
    rows = []

    def cov(name: str) -> _Coverage:
        c = res[name].attrs["coverage"]
        return {"present": int(c["present"]), "total": int(c["total"])}

    for item, name in (("Table 1", "table1"), ("Table 2", "table2"), ("Table 3", "table3"),
                       ("Table 4", "table4")):
        c = cmp[item]
        ev = "; ".join(f"{_METRIC_NAMES[m]}: {int(g.loc[~g['construction'], 'agrees'].sum())}/"
                       f"{int((~g['construction']).sum())} published numbers agree"
                       + (f" (+{int(g['construction'].sum())} equal by construction)"
                          if g["construction"].any() else "")
                       for m, g in c.groupby("metric", sort=False))
        rows.append(verdicts.score_item(item, f"#{item.lower().replace(' ', '-')}", agrees=c["agrees"],
                                        construction=c["construction"], cause=_item_cause(item, c, res),
                                        evidence=ev, **cov(name)))

    def quoted_part(item: str) -> tuple[pd.DataFrame, str]:
        q = quoted.loc[item]
        frame = pd.DataFrame([{"id": q["id"], "agrees": bool(q["agrees"]), "construction": False,
                               "metric": "avg_sp_err_e3"}])
        return frame, (f"quoted average error {q['paper']:.4g} (x {q['unit']}), ours (median of "
                       f"{int(q['n_runs'])} runs) {q['ours']:.4g}, "
                       f"95% interval {q['low']:.4g} to {q['high']:.4g}")

    f1 = res["fig1"]
    clean = f1[~np.isfinite(f1["epsilon"])].groupby("m")["leakage"].mean()
    noisy = f1[np.isfinite(f1["epsilon"])]
    q1, qev = quoted_part("Figure 1")
    trends = {"noiseless leakage reaches 100%": bool(clean.max() >= 100.0 - 1e-9),
              "concealed leakage below 80% on average": bool(noisy["leakage"].mean() < 80)}
    rows.append(verdicts.score_item(
        "Figure 1", "fig-hamman2023-1", agrees=q1["agrees"], trends=trends, **cov("fig1"),
        cause=_item_cause("Figure 1", q1, res, trends),
        evidence=f"{qev}; noiseless mean leakage up to {clean.max():.1f}%; concealed "
                 f"{noisy['leakage'].mean():.1f}%"))
    f2 = res["fig2"]
    rho = stats.spearmanr(f2["epsilon"], f2["avg_sp_err"]).statistic
    top = f2.groupby(["n", "n0", "epsilon"])["leakage"].mean().max()
    trends2 = {"error falls as epsilon grows (Spearman < 0)": bool(rho < 0),
               "leakage below 90% in every cell": bool(top < 90)}
    rows.append(verdicts.score_item(
        "Figure 2", "fig-hamman2023-2", **cov("fig2"), trends=trends2,
        cause=verdicts.decide_cause(verdicts.failing(trends2), [], "fig-hamman2023-2"),
        evidence=f"no quoted number; Spearman ρ(epsilon, error) = {rho:.2f}; largest mean leakage "
                 f"{top:.1f}%"))
    ex = example("synthetic")
    q3, qev = quoted_part("Figure 3")
    trends3 = {"noiseless reconstruction exact": bool(float(ex["leakage_clean"]) >= 100.0)}
    rows.append(verdicts.score_item(
        "Figure 3", "fig-hamman2023-3", agrees=q3["agrees"], trends=trends3,
        cause=_item_cause("Figure 3", q3, res, trends3),
        evidence=f"{qev}; leakage {float(ex['leakage_clean']):.0f}% from exact answers, "
                 f"{float(ex['leakage_private']):.0f}% from concealed answers"))
    f4 = res["fig4"]
    clean = f4[~np.isfinite(f4["epsilon"])].groupby("m")["recovered"].mean()
    noisy4 = f4[np.isfinite(f4["epsilon"])]["recovered"].mean()
    q4, qev = quoted_part("Figure 4")
    trends4 = {"noiseless recovery reaches all 1000": bool(clean.max() >= 1000 - 1e-9),
               "concealed recovery far from full (< 800)": bool(noisy4 < 800)}
    rows.append(verdicts.score_item(
        "Figure 4", "fig-hamman2023-4", agrees=q4["agrees"], **cov("fig4"), trends=trends4,
        cause=_item_cause("Figure 4", q4, res, trends4),
        evidence=f"{qev}; noiseless up to {clean.max():.0f} of 1000; concealed {noisy4:.0f} on average"))
    order = ["Figure 1", "Table 1", "Figure 2", "Table 2", "Table 3", "Figure 3", "Figure 4", "Table 4"]
    return pd.DataFrame(rows).set_index("item").loc[order].reset_index()
