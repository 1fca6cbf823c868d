"""ghoukasian2025: the chapter's tables and findings, as the book shows them.

One function per table (a :class:`ldpfair.tables.Table`, or ``None`` when the profile
has no results for it) and per finding (a Markdown sentence computed from the
results), so the notebook only calls them: the pivots, pairings and sentences live
here and are tested like the rest of the package.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ...datasets import cards
from ...experiments import coverage_note
from ...reporting import claims_table as _claims_frame
from ...tables import Table, table
from . import asym, baselines, checks, kary, report, tables, theory
from .experiments import LGBM_FIGURES

__all__ = ["GAPS", "DATASET_SPECS", "coverage", "data_cards", "theorem2_finding", "lemma1_table",
           "kary_check_table", "nondp_table", "dprime_table", "zeta_checks_table", "zeta1_paired_table",
           "seed_sensitivity", "kary_causes", "quoted_numbers", "two_step_finding", "readings",
           "trials_table", "trial_agreement", "table1_readings", "fairprojection_finding",
           "authors_tolerance_table", "table2_readings_table", "long_tables", "chapter_results",
           "table1_book", "table2_book", "claims_table", "fairprojection_evidence"]

#: Labels of the accuracy and the gaps.
GAPS = {"acc": "accuracy", "Delta_SP": "ΔSP", "Delta_EO": "ΔEO", "Delta_MEO": "ΔMEO"}
#: The datasets of the chapter, as the data cards load them.
DATASET_SPECS: tuple[tuple[str, dict[str, str]], ...] = (
    ("adult26k", {"protected": "gender"}),
    ("adult26k", {"protected": "race"}),
    ("adult26k", {"protected": "race_gender"}),
    ("lsac", {"protected": "gender"}),
    ("lsac", {"protected": "fam_inc"}),
    ("adult_uci", {"variant": "fairprojection"}),
    ("adult_uci", {"variant": "mozannar"}),
    ("compas_fairprojection", {}),
    ("bank", {}),
    ("student_math", {}),
    ("german", {"variant": "fairbalance"}),
)


def _lines(lines: list[str]) -> str:
    return "\n\n".join(lines)


def coverage(frames: Mapping[str, pd.DataFrame]) -> str:
    """One Markdown line per experiment: how many of its declared cells are present."""
    return _lines([f"{name}: {coverage_note(df.attrs['coverage'])}" for name, df in frames.items()])


def data_cards() -> Table:
    """The datasets, as loaded (:data:`DATASET_SPECS`)."""
    return table(cards.data_cards_table(list(DATASET_SPECS)), key="dataset",
                 columns=["n", "protected", "target", "P(Y=1)", "P(Y=1) by group"],
                 text=["P(Y=1) by group"], caption="The datasets, as loaded.")


def theorem2_finding(thm2: pd.DataFrame) -> str:
    """Theorem 2's closed form against the brute force, and RR's ratio over OPT's."""
    return (f"largest \\|closed form - brute force\\| = {thm2['gap'].abs().max():.2e} over {len(thm2)} "
            f"instances; RR's ratio / OPT's: median {np.median(thm2['ratio_rr'] / thm2['ratio_closed']):.2f}")


def lemma1_table(lem1: pd.DataFrame) -> Table:
    """Lemma 1: Delta'(GRR)/Delta' per number of groups k."""
    by_k = lem1.assign(k=lem1["k"].astype(int)).groupby("k")["ratio"].agg(["count", "min", "median", "max"])
    return table(by_k.reset_index(), key="k", digits={"min": 4, "median": 4, "max": 6},
                 labels={"count": "instances", "min": "smallest", "median": "median", "max": "largest"},
                 caption="Δ′(GRR)/Δ′ per number of groups k.")


def kary_check_table() -> Table:
    """Program (9)/(10) on the full datasets: ours next to the independent check."""
    ours, independent = theory.kary_summary(), theory.FACTS_KARY_CHECK
    names = {"zeta_min": "smallest feasible ζ", "zeta_grr": "GRR's ζ", "delta_orig": "Δ original",
             "delta_grr": "Δ GRR", "delta_opt_zeta_min": "Δ OPT at smallest ζ",
             "delta_opt_plus_05": "Δ OPT at smallest ζ + 0.05"}
    side = pd.DataFrame([{"case": f"{r.dataset}, {r.protected}", "epsilon": r.epsilon, "quantity": label,
                          "ours": getattr(r, c), "check": getattr(chk, c)}
                         for r, chk in zip(ours.itertuples(index=False), independent.itertuples(index=False),
                                           strict=True) for c, label in names.items()])
    return table(side, key=["case", "epsilon", "quantity"], digits={"ours": 4, "check": "g", "epsilon": "g"},
                 labels={"check": "independent check"}, caption="Program (9)/(10) on the full datasets.")


def nondp_table(lgbm: Mapping[str, pd.DataFrame]) -> Table | None:
    """Non-private LightGBM per figure, mean over seeds."""
    nondp = [df[df["mechanism"] == "NonDP"][["acc", "Delta_SP", "Delta_EO"]].mean().rename(name)
             for name, df in lgbm.items() if len(df)]
    if not nondp:
        return None
    return table(pd.DataFrame(nondp).rename_axis("figure"), key="figure", labels=GAPS,
                 caption="Non-private LightGBM, mean over seeds.")


def dprime_table(lgbm: Mapping[str, pd.DataFrame]) -> Table | None:
    """Delta' of the training data per figure and epsilon: original and privatised by each mechanism."""
    rows = []
    for name, df in lgbm.items():
        if df.empty:
            continue
        priv = df[df["mechanism"] != "NonDP"]
        t = priv.pivot_table(index="epsilon", columns="mechanism", values="train_Delta_prime_Z",
                             aggfunc="mean")
        t.insert(0, "original", float(df["train_Delta_prime"].mean()))
        t.insert(0, "figure", name)
        rows.append(t.reset_index())
    if not rows:
        return None
    dprime = pd.concat(rows, ignore_index=True)
    dprime.columns.name = None
    return table(dprime, key=["figure", "epsilon"], digits={"epsilon": "g", "default": 3},
                 labels={"GRR": "GRR / RR"}, caption="Δ′ of the training data, original and privatised.")


def zeta_checks_table(zeta_table: pd.DataFrame) -> Table | None:
    """Figs. 3-5's trend checks with OPT at three values of zeta (:func:`.kary.kary_zeta_table`)."""
    if not len(zeta_table):
        return None
    zt = zeta_table.assign(checks=[f"{int(p)}/{int(c)}" for p, c in
                                   zip(zeta_table["checks passed"], zeta_table["checks"], strict=True)],
                           failed=zeta_table["failed"].replace("", None))
    return table(zt, key=["figure", "zeta"], digits={"epsilon": "g", "default": 3},
                 columns=["seeds", "checks", "failed", "epsilon", "Delta_SP OPT", "Delta_SP GRR",
                          "Delta_EO OPT", "Delta_EO GRR", "acc OPT", "acc GRR", "data Delta' OPT",
                          "data Delta' GRR"],
                 labels={"zeta": "ζ", "failed": "OPT not below GRR", "epsilon": "largest ε",
                         "Delta_SP OPT": "ΔSP OPT", "Delta_SP GRR": "ΔSP GRR", "Delta_EO OPT": "ΔEO OPT",
                         "Delta_EO GRR": "ΔEO GRR", "acc OPT": "accuracy OPT", "acc GRR": "accuracy GRR",
                         "data Delta' OPT": "data Δ′ OPT", "data Delta' GRR": "data Δ′ GRR"},
                 caption="Figs. 3-5's trend checks with OPT at three values of ζ.")


def _grr_on_seeds(df: pd.DataFrame, seeds: set) -> pd.DataFrame:
    return df[(df["mechanism"] == "GRR") & df["seed"].isin(seeds)]


def zeta1_paired_table(lgbm: Mapping[str, pd.DataFrame], variants: Mapping[str, pd.DataFrame]
                       ) -> Table | None:
    """OPT at zeta = 1 minus GRR, paired on the seed, for Figs. 3-5 (:func:`.report.paired_gaps`)."""
    pairs = []
    for fig in ("fig3", "fig4", "fig5"):
        v, df = variants.get(f"{fig}_zeta_1", pd.DataFrame()), lgbm.get(fig, pd.DataFrame())
        if len(v) and len(df):
            pairs.append(report.paired_gaps(v, _grr_on_seeds(df, set(v["seed"]))).assign(figure=fig))
    if not pairs:
        return None
    return table(pd.concat(pairs, ignore_index=True), key=["figure", "epsilon", "gap"],
                 digits={"epsilon": "g", "seeds": "int", "default": 4},
                 pm={"OPT − GRR": "±"}, columns=["seeds", "OPT", "GRR", "OPT − GRR", "sd", "OPT below"],
                 labels={"OPT − GRR": "OPT − GRR (± 95%)", "sd": "per-seed sd of the difference",
                         "OPT below": "interval below 0"},
                 caption="OPT at ζ = 1 minus GRR, paired on the seed.")


def seed_sensitivity(lgbm: Mapping[str, pd.DataFrame], variants: Mapping[str, pd.DataFrame]) -> str:
    """Fig. 3's Delta_EO difference at epsilon = 2 on the first 10 seeds and on all of them."""
    v3, df3 = variants.get("fig3_zeta_1", pd.DataFrame()), lgbm.get("fig3", pd.DataFrame())
    if not (len(v3) and len(df3)):
        return ""
    lines = []
    for n in (10, int(v3["seed"].nunique())):
        d = report.paired_gaps(v3[v3["seed"] < n], df3[(df3["mechanism"] == "GRR") & (df3["seed"] < n)])
        d = d[(d["gap"] == "ΔEO") & (d["epsilon"] == 2.0)].iloc[0]
        lines.append(f"Fig. 3, ΔEO at ε = 2, seeds 0-{n - 1}: OPT − GRR = {d['OPT − GRR']:+.4f} "
                     f"± {d['±']:.4f}")
    return _lines(lines)


def kary_causes(zeta_table: pd.DataFrame, lgbm: Mapping[str, pd.DataFrame]) -> str:
    """The cause of each k-ary figure's outcome (:func:`.kary.kary_cause`), one paragraph per figure.

    Each figure's cause is decided against the checks the paper's zeta fails on that
    figure (:func:`.checks.lgbm_checks` on its runs).
    """
    figs = sorted(set(zeta_table["figure"])) if len(zeta_table) else []
    causes = {fig: kary.kary_cause(zeta_table, fig, checks.lgbm_checks(lgbm.get(fig, pd.DataFrame()), fig)[1])
              for fig in figs}
    return _lines([f"{fig} ({c.kind}): {c.text}" for fig, c in causes.items()])


def quoted_numbers(lgbm: Mapping[str, pd.DataFrame]) -> tuple[str, Table | None, str]:
    """Section V-A's quoted numbers: the evidence, the table of checks, and the point estimates."""
    if not all(f in lgbm and len(lgbm[f]) for f in ("fig1", "fig2")):
        return "Figs. 1-2 are not in this profile", None, ""
    evidence, found = report.quoted_number_checks(dict(lgbm))
    shown = table(pd.DataFrame({"check": list(found), "holds": list(found.values())}), key="check",
                  text="check", caption="The quoted numbers of Section V-A, paired 95% intervals.")
    points = [f"point estimates: {checks.halving_checks(lgbm[fig], fig, factor)[0]}"
              for fig, factor in (("fig2", 0.6), ("fig1", -1))]
    return evidence, shown, _lines(points + [checks.va_epsilons(dict(lgbm))])


def two_step_finding(fig6: pd.DataFrame) -> str:
    """Section V-B's statements on Fig. 6, as evidence."""
    return checks.two_step_checks(fig6)[0] if len(fig6) else "no Figure 6 results in this profile"


def readings(asym_cells: pd.DataFrame, fig6: pd.DataFrame) -> tuple[Table | str, str]:
    """OPT minus RR on Adult under the base reading and each one-unknown change (points), and the finding.

    Returns the table (or why there is none) and :func:`.checks.readings_text` as a sentence.
    """
    if asym_cells.empty or fig6.empty:
        return "no Figure 6 readings in this profile", ""
    judged = asym.judge_readings(asym.explored_from_cells(asym_cells), fig6)
    one_at_a_time = {r.label for r in asym.asym_readings("oat")}
    base_reading = asym.AsymReading()
    shown = judged[judged["reading"].isin(one_at_a_time)].copy()
    shown["reading"] = [
        ", ".join(f"{k} = {row[k]}" for k in asym.ASYM_UNKNOWNS if row[k] != getattr(base_reading, k))
        or "base reading" for _, row in shown.iterrows()]
    eps_shown = [e for e in (0.5, 1.0, 4.0, 8.0, 10.0) if f"d_eod@{e:g}_adult" in shown.columns]
    held = "; ".join(f"{ds} {', '.join(sorted(set(shown[f'{ds.lower()}_held'])))}"
                     for ds in ("Adult", "LSAC"))
    cols = {"reading": "reading"}
    cols.update({f"d_acc@{e:g}_adult": f"acc ε={e:g}" for e in eps_shown if e <= 1})
    cols.update({f"d_eod@{e:g}_adult": f"ΔEOd ε={e:g}" for e in eps_shown if e >= 4})
    shown = shown[list(cols)].rename(columns=cols)
    pct = list(shown.columns[1:])
    shown[pct] = 100 * shown[pct]
    return (table(shown, key="reading", text=["reading"], digits={c: 2 for c in pct},
                  caption="Readings of the authors' OPT post-processor (the base reading, then one unknown "
                          f"changed): OPT minus RR on Adult, in points. Statements held: {held}."),
            checks.readings_text(asym_cells, fig6) + ".")


_Frames = dict[str, pd.DataFrame]


def chapter_results(results: Mapping[str, pd.DataFrame]) -> tuple[_Frames, _Frames, _Frames, pd.DataFrame,
                                                                   pd.DataFrame]:
    """The chapter's results by part: ``lgbm, base, variants, t1_long, t2_long``.

    Parameters
    ----------
    results : mapping
        Every experiment's frame, as ``SPEC.results`` returns them.

    Returns
    -------
    lgbm : dict
        Figs. 1-5 (the experiments of :data:`.experiments.LGBM_FIGURES` that ran).
    base : dict
        ``fig6``, ``fig6_asym``, ``table1`` and ``table2``.
    variants : dict
        The rest: the k-ary re-runs of OPT at other values of zeta.
    t1_long, t2_long : DataFrame
        Tables I and II's runs, one row per run and metric (:func:`long_tables`).
    """
    lgbm = {name: df for name, df in results.items() if name in LGBM_FIGURES}
    base = {name: results[name] for name in ("fig6", "fig6_asym", "table1", "table2")}
    variants = {name: df for name, df in results.items() if name not in lgbm and name not in base}
    return (lgbm, base, variants, *long_tables(base))


def long_tables(base: Mapping[str, pd.DataFrame]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Tables I and II's runs in the long shape (empty frames when the profile has none)."""
    t1 = baselines.long_fairprojection(base["table1"]) if len(base["table1"]) else pd.DataFrame()
    t2 = baselines.long_fairbalance(base["table2"]) if len(base["table2"]) else pd.DataFrame()
    return t1, t2


def trials_table(t1_long: pd.DataFrame, t2_long: pd.DataFrame) -> Table | None:
    """The spread behind the published half-widths: our sd over the paper's ± and the runs it implies."""
    if t1_long.empty or t2_long.empty:
        return None
    trials, implied = report.trial_count_evidence(
        {"Table I": tables.table1_runs(t1_long, "authors"), "Table II": tables.table2_runs(t2_long)},
        {"Table I": tables.PAPER_TABLE1, "Table II": tables.PAPER_TABLE2},
        {"Table I": ["acc", "Delta_SP", "Delta_MEO"], "Table II": ["acc", "Delta_EO", "Delta_MEO"]})
    expected = report.implied_trials(1.0)
    med = trials.groupby("table", sort=False)["sd / ±"].median()
    return table(med.rename("median of our sd / paper's ±").reset_index()
                 .assign(**{f"expected, {n} runs": v for n, v in expected.items()},
                         implied=[f"{implied[t]} runs" for t in med.index]),
                 key="table", digits=2, caption="The spread behind the published half-widths.")


def trial_agreement(t1_long: pd.DataFrame, t2_long: pd.DataFrame) -> str:
    """How many published numbers of Tables I-II agree if the paper averaged 30 or 10 runs."""
    if t1_long.empty or t2_long.empty:
        return ""
    lines = []
    for n in (30, 10):
        a1 = tables.table1_agreement(t1_long, "authors", paper_n=n)
        a2 = tables.table2_agreement(t2_long, paper_n=n)
        lines.append(f"paper_n = {n}: Table I {int(a1['agrees'].sum())}/{len(a1)}, "
                     f"Table II {int(a2['agrees'].sum())}/{len(a2)} numbers agree")
    return _lines(lines)


def table1_readings(t1_long: pd.DataFrame) -> str:
    """How many of Table I's published numbers agree under each FairProjection reading."""
    if t1_long.empty:
        return "no Table I results in this profile"
    return _lines([f"reading {reading!r}: {int(a['agrees'].sum())}/{len(a)} published numbers agree"
                   for reading in tables.FP_READINGS for a in [tables.table1_agreement(t1_long, reading)]])


def fairprojection_finding(t1_long: pd.DataFrame) -> tuple[Table, str]:
    """The FairProjection finding's checks (a table) and its evidence."""
    evidence, found = tables.fairprojection_finding(t1_long)
    return (table(pd.DataFrame({"check": list(found), "holds": list(found.values())}), key="check",
                  text="check", caption="The finding's checks."), evidence)


def fairprojection_evidence(t1_long: pd.DataFrame) -> tuple[Table | str, ...]:
    """The FairProjection finding as the chapter shows it: checks, evidence, the published row.

    Its checks and evidence (:func:`fairprojection_finding`), then the published row beside
    our unprojected model (:func:`authors_tolerance_table`); empty when the profile has no
    Table I results.
    """
    if t1_long.empty:
        return ()
    return (*fairprojection_finding(t1_long), authors_tolerance_table(t1_long))


def authors_tolerance_table(t1_long: pd.DataFrame) -> Table:
    """The published FairProjection row next to our unprojected model (percent)."""
    return table(tables.authors_tolerance_table(t1_long), key=["dataset", "row"], digits=1, labels=GAPS,
                 text="row", caption="The published FairProjection row and our unprojected model (percent).")


def table2_readings_table(t2_long: pd.DataFrame) -> Table | None:
    """Table II under each reading of the groups and of the Delta_MEO column."""
    if t2_long.empty:
        return None
    return table(tables.table2_readings(t2_long), key=["German groups", "Delta_MEO column"],
                 labels={"Delta_MEO column": "ΔMEO column", "agree": "numbers agreeing",
                         "numbers": "published numbers", "Delta_MEO agree": "ΔMEO agreeing",
                         "German agree": "German agreeing"},
                 caption="Table II under each reading.")


#: Captions of Table I's book tables, per FairProjection reading.
_TABLE1_CAPTIONS = {"authors": "Table I, FairProjection at the authors' tolerances (percent).",
                    "binding": "Table I, FairProjection at a binding tolerance (percent)."}
#: Table II's book tables: the readings (``groups``, ``meo`` of :func:`.tables.table2`) and caption.
_TABLE2_READINGS = {"authors": (("authors", "aod"), "Table II, the authors' readings (percent)."),
                    "paper": (("paper", "paper"), "Table II, the paper's definitions (percent).")}


def table1_book(t1_long: pd.DataFrame, reading: str = "authors") -> Table | None:
    """Table I under a FairProjection ``reading`` beside the published numbers, as the book shows it.

    Parameters
    ----------
    t1_long : DataFrame
        Table I's runs (:func:`long_tables`).
    reading : {"authors", "binding"}
        FairProjection's tolerance (:func:`.tables.table1`).

    Returns
    -------
    Table or None
        Accuracy, Delta_SP and Delta_MEO in percent, ours, the paper's and the difference
        per dataset, method and tolerance; ``None`` when the profile has no Table I results.
    """
    if reading not in _TABLE1_CAPTIONS:
        raise ValueError(f"reading must be one of {', '.join(map(repr, _TABLE1_CAPTIONS))}, got {reading!r}")
    if t1_long.empty:
        return None
    return report.book_table(tables.table1(t1_long, reading), ["dataset", "method", "tolerance"],
                             ["acc", "Delta_SP", "Delta_MEO"], _TABLE1_CAPTIONS[reading])


def table2_book(t2_long: pd.DataFrame, reading: str = "authors") -> Table | None:
    """Table II under the authors' readings or the paper's definitions, as the book shows it.

    Parameters
    ----------
    t2_long : DataFrame
        Table II's runs (:func:`long_tables`).
    reading : {"authors", "paper"}
        ``"authors"``: German over age x sex, "Delta_MEO" = the average-odds gap (what
        produced the published numbers); ``"paper"``: German over sex only and Delta_MEO
        as the paper defines it.

    Returns
    -------
    Table or None
        Accuracy, Delta_EO and Delta_MEO in percent beside the published numbers;
        ``None`` when the profile has no Table II results.
    """
    if reading not in _TABLE2_READINGS:
        raise ValueError(f"reading must be one of {', '.join(map(repr, _TABLE2_READINGS))}, got {reading!r}")
    if t2_long.empty:
        return None
    (groups, meo), caption = _TABLE2_READINGS[reading]
    return report.book_table(tables.table2(t2_long, groups, meo), ["dataset", "method"],
                             ["acc", "Delta_EO", "Delta_MEO"], caption)


def claims_table(lgbm: Mapping[str, pd.DataFrame], base: Mapping[str, pd.DataFrame], t1_long: pd.DataFrame,
                 t2_long: pd.DataFrame, thm2: pd.DataFrame, lem1: pd.DataFrame,
                 variants: Mapping[str, pd.DataFrame]) -> Table:
    """The paper's claims on these results (:func:`.checks.claims`): verdict, checks passed and cause.

    Parameters
    ----------
    lgbm, base, variants, t1_long, t2_long : mapping or DataFrame
        The chapter's results (:func:`chapter_results`).
    thm2, lem1 : DataFrame
        Theorem 2's and Lemma 1's numerical checks (:mod:`.theory`).
    """
    claims = checks.claims(dict(lgbm), base["fig6"], t1_long, t2_long, theorem2=thm2, lemma1=lem1,
                           variants=dict(variants), fig6_asym=base["fig6_asym"])
    ct = _claims_frame(claims).assign(cause=[c.cause.kind if c.cause else None for c in claims])
    return table(ct, key="claim", badges="verdict", details=["statement", "evidence"],
                 columns=["verdict", "checks passed", "cause"], caption="The paper's claims on our results.")
