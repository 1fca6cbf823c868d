"""The tables of the hamman2023 chapter as a reader sees them (:mod:`ldpfair.tables`).

Each function takes what :mod:`ldpfair.papers.hamman2023.checks`,
:mod:`~ldpfair.papers.hamman2023.forensics` or :func:`ldpfair.reporting.side_by_side`
computes and returns a :class:`ldpfair.tables.Table`: human labels (N₀ for ``n0``,
"Avg. SP err (×10⁻³)" for ``avg_sp_err_e3``), the paper's precision, agreement as
✓ / ✗ with a legend, missing values as an em dash, key columns first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pandas as pd

from ... import attacks
from ...datasets import cards
from ...reporting import Claim, claims_table
from ...tables import Table, checks, comparison, table

__all__ = ["LABELS", "data_cards", "coverage", "attacks_table", "sensitivities", "published",
           "accuracy", "claims", "regressions", "readings", "best_readings", "reading_cells",
           "table1_readings", "implied", "per_cell", "clipping"]

#: Labels of the chapter's internal column names.
LABELS: dict[str, str] = {
    "n0": "N\u2080", "N0": "N\u2080", "m": "m", "n": "n", "epsilon": "\u03b5", "mechanism": "mechanism",
    "avg_sp_err_e3": "Avg. SP err (\u00d710\u207b\u00b3)", "leakage": "leakage (%)",
    "recovered": "recovered (of 1,000)", "median err (ours)": "median err ours (\u00d710\u207b\u00b3)",
}
_DIGITS: dict[str, int | str] = {"epsilon": "g", "default": 1}


def data_cards(specs: Sequence[tuple[str, Mapping[str, object]]]) -> Table:
    """The data cards of the chapter's datasets (:func:`ldpfair.datasets.cards.data_cards_table`)."""
    frame = cards.data_cards_table(list(specs))
    # no target (the synthetic attributes only): no rate by group either
    frame.loc[frame["target"] == "(none)", "P(Y=1) by group"] = None
    return table(frame, key="dataset", text=["options", "sensitive", "P(Y=1) by group"],
                 columns=["options", "n", "protected", "sensitive", "target", "P(Y=1)", "P(Y=1) by group"],
                 caption="Datasets of the chapter, computed from the loaded data.")


def coverage(res: Mapping[str, pd.DataFrame], note: Callable[[Mapping[str, int]], str]) -> Table:
    """Cells present per experiment, and which basis-pursuit solver answered its runs.

    ``note`` is :func:`ldpfair.experiments.coverage_note`. The solver column counts the
    runs by ``bp_solver`` (:func:`ldpfair.attacks.solve_basis_pursuit`): ``certified``
    (proved optimal), ``linear system`` (``m >= n``: one feasible point), or a fallback.
    """
    names = {"certified": "certified", "lstsq": "linear system", "lars": "LARS (fallback)",
             "highs": "HiGHS (fallback)"}

    def solvers(frame: pd.DataFrame) -> str:
        if "bp_solver" not in frame:
            return "(no basis pursuit)"
        counts = frame["bp_solver"].value_counts()
        return ", ".join(f"{names.get(str(k), str(k))} {int(c):,}" for k, c in counts.items())

    rows = pd.DataFrame([{"results": k, "present": v.attrs["coverage"]["present"],
                          "total": v.attrs["coverage"]["total"], "solver": solvers(v),
                          "note": note(v.attrs["coverage"])}
                         for k, v in res.items()])
    return table(rows, key="results", text=["solver", "note"],
                 labels={"results": "experiment", "present": "cells present", "total": "cells",
                         "solver": "basis pursuit solved by"},
                 caption="Coverage of the committed results of each experiment.")


def attacks_table(frame: pd.DataFrame, caption: str) -> Table:
    """The exact attacks of the chapter's first cell (columns attack, queries, correct)."""
    return table(frame, key="attack", text="attack", labels={"correct": "people identified"},
                 caption=caption)


def sensitivities(settings: Sequence[tuple[int, int, int]], epsilon: float = 100.0) -> Table:
    """Sensitivities of ``m`` SP queries and the noise scales at ``epsilon`` per ``(n, N0, m)``."""
    rows = []
    for n, n0, m in settings:
        ss = attacks.smooth_sensitivity_sp(n - n0, n0, m, epsilon / (6 * m))
        glob = attacks.global_sensitivity_sp(n, m)
        rows.append({"n": n, "N0": n0, "m": m, "global (Thm 4)": glob,
                     "local": attacks.local_sensitivity_sp(n - n0, n0, m), "smooth, \u03b2 = \u03b5/6m": ss,
                     "Laplace scale \u0394/\u03b5": glob / epsilon,
                     "Cauchy scale 6S/\u03b5": 6 * ss / epsilon})
    return table(pd.DataFrame(rows), key=["n", "N0", "m"], labels=LABELS, digits=3,
                 caption=f"Sensitivities of m SP queries and the noise scales at \u03b5 = {epsilon:g}.")


def published(sbs: pd.DataFrame, on: Sequence[str], metrics: Sequence[str], caption: str, *,
              digits: int | Mapping[str, int | str] = 1, extra: Sequence[str] = ()) -> Table:
    """A table of the paper (:func:`ldpfair.reporting.side_by_side`): paper, ours ± 95% CI, agreement."""
    dig: dict[str, int | str] = dict(_DIGITS)
    dig.update(digits if isinstance(digits, Mapping) else {"default": digits})
    return comparison(sbs, list(on), list(metrics), labels=LABELS, digits=dig, extra=extra, caption=caption,
                      agreement_legend="\u2713 the paper's value lies in our 95% interval (widened by half "
                                       "its last printed digit), \u2717 it does not, \u2014 no result of "
                                       "ours.")


def accuracy(acc: pd.DataFrame, paper: Mapping[str, Sequence[float]]) -> Table:
    """Accuracy of the base models and of their perturbed copies, ours next to ``paper``.

    ``acc`` has one row per dataset (``base_accuracy``, ``models_mean``, ``models_sd``);
    ``paper`` maps a dataset to its three printed values (NaN where not printed).
    """
    rows = []
    names = {"base_accuracy": "base model accuracy (%)", "models_mean": "40 perturbed models, mean (%)",
             "models_sd": "40 perturbed models, SD"}
    for ds, printed in paper.items():
        ours = acc.loc[acc["dataset"] == ds, list(names)].iloc[0]
        for (col, what), p in zip(names.items(), printed, strict=True):
            rows.append({"dataset": ds.capitalize(), "quantity": what, "paper": p, "ours": float(ours[col])})
    return table(pd.DataFrame(rows), key=["dataset", "quantity"], digits=2,
                 caption="Accuracy of the base models and of their perturbed copies on the held-out split.")


def claims(found: Sequence[Claim]) -> Table:
    """The claims of the paper checked on our results (:func:`hamman2023.claims`)."""
    return table(claims_table(found), key="claim", badges="verdict", details=["statement", "evidence"],
                 columns=["verdict", "checks passed"], caption="The paper's claims checked on our results.")


def regressions(regs: Mapping[str, pd.DataFrame]) -> Table:
    """Least squares of log(paper / ours) (:func:`.forensics.regression_table`)."""
    frame = pd.concat({k: v.assign(R2=v.attrs["r2"], cells=v.attrs["cells"]) for k, v in regs.items()},
                      names=["paper / ours", "row"]).reset_index(level="row", drop=True).reset_index()
    digits: dict[str, int | str] = {c: ".3g" for c in ("coef",) if c in frame.columns}
    digits.update({c: ".2g" for c in ("se",) if c in frame.columns})
    digits.update({"R2": 2, "default": 3})
    return table(frame, key=["paper / ours", "term"], digits=digits,
                 labels={"R2": "R\u00b2", "coef": "coefficient", "se": "standard error"},
                 caption="Least squares of log(paper / ours) on the logs of the settings: 'factor' is "
                         "exp(intercept), the other rows slopes with standard errors. 'conceal, median' uses "
                         "our mean of per-run median errors, robust to the Cauchy tail.")


def readings(frame: pd.DataFrame, order: Sequence[str], statistics: Sequence[str]) -> Table:
    """Published error cells (of 64) reproduced by each reading (rows) and statistic (columns)."""
    counts = frame.pivot_table(index="reading", columns="statistic", values="total").reindex(
        index=list(order), columns=list(statistics))
    return table(counts.rename_axis(columns=None).reset_index(), key="reading", digits="int",
                 caption="Published error cells (of 64) reproduced by each reading (rows) and statistic "
                         "(columns).")


def best_readings(frame: pd.DataFrame, meaning: Mapping[str, str]) -> Table:
    """Every reading with its best statistic (most cells, then smallest spread)."""
    best = frame.sort_values(["total", "spread"], ascending=[False, True])
    best = best.groupby("reading", sort=False).head(1)
    best = best.assign(meaning=best["reading"].map(meaning))
    return table(best, key="reading", details="meaning",
                 columns=["statistic", "conceal", "laplace", "total", "median_ratio", "spread"],
                 digits={"median_ratio": ".3g", "spread": 2, "default": "int"},
                 labels={"conceal": "conceal cells (of 52)", "laplace": "Laplace cells (of 12)",
                         "total": "cells (of 64)", "median_ratio": "median paper / simulated",
                         "spread": "spread (log\u2081\u2080 IQR)"},
                 caption="Every reading tried, with its best statistic: agreeing Attribute-Conceal cells, "
                         "Laplace cells, and the median and interquartile spread (log10) of paper / "
                         "simulated median.")


def reading_cells(per_cell: pd.DataFrame, reading: str, statistic: str) -> Table:
    """Tables 1-4 cell by cell: the paper, the closest reading and Theorem 5 with the paper's statistic."""
    keys = ["table", "n", "m", "n0", "epsilon", "mechanism"]
    sel = per_cell[(per_cell["reading"] == reading) & (per_cell["statistic"] == statistic)]
    t5 = per_cell[(per_cell["reading"] == "theorem5") & (per_cell["statistic"] == "mean")]
    var = sel[keys + ["paper", "sim_median", "agrees"]].merge(
        t5[keys + ["sim_median"]].rename(columns={"sim_median": "theorem5_mean"}), on=keys)
    for c in ("paper", "sim_median", "theorem5_mean"):
        var[c] = 1000 * var[c]
    var["agrees"] = var["agrees"].astype(bool)
    return table(var, key=keys, agreement="agrees", digits={"epsilon": "g", "default": ".3g"},
                 labels={**LABELS, "paper": "paper (\u00d710\u207b\u00b3)",
                         "sim_median": f"{reading}, {statistic}", "theorem5_mean": "Theorem 5, mean"},
                 agreement_legend="\u2713 the paper's value lies in the 95% range of the reading's simulated "
                                  "statistic, \u2717 it does not.",
                 caption="Tables 1-4, Avg. SP err (×10⁻³): the paper, the closest reading (median of its "
                         "simulated statistic) and Theorem 5 with the paper's statistic.")


def table1_readings(summary: pd.DataFrame, paper: pd.DataFrame) -> Table:
    """Table 1 recomputed under the readings closest to the published errors, next to the paper.

    ``summary`` is :func:`ldpfair.reporting.summarise` of the ``table1_reading`` results
    (``rms_sp_err_mean``, ``leakage_mean`` per ``noise_reading``); ``paper`` is
    :data:`ldpfair.papers.hamman2023.checks.PAPER_TABLE1`.
    """
    key = ["n", "m", "epsilon", "mechanism"]
    s = summary.assign(rms_sp_err_e3=1000 * summary["rms_sp_err_mean"])
    piv = s.pivot_table(index=key, columns="noise_reading", values=["rms_sp_err_e3", "leakage_mean"])
    what = {"rms_sp_err_e3": "RMS err", "leakage_mean": "leakage"}
    piv.columns = [f"{what[a]} ({b})" for a, b in piv.columns]
    out = piv.reset_index().merge(paper.rename(columns={"avg_sp_err_e3": "paper err",
                                                        "leakage": "paper leakage"}), on=key, how="left")
    cols = [c for c in out.columns if c not in key]
    cols = sorted(cols, key=lambda c: (not c.startswith("paper"), "leakage" in c, c))
    return table(out, key=key, columns=cols, labels=LABELS, digits={"epsilon": "g", "default": 2},
                 caption="Table 1 recomputed under the two readings closest to the published errors (RMS "
                         "error ×10⁻³ and leakage, means over runs) next to the paper.")


def implied(imp: pd.DataFrame) -> Table:
    """Per cell: the scale of Theorem 5, the scale the published error implies, and the privacy loss."""
    frame = imp.assign(loss_over_eps=imp["loss"] / imp["epsilon"], dp=imp["dp"].astype(bool)).drop(
        columns=["loss"])
    keys = [c for c in ("table", "n", "m", "N0", "epsilon", "mechanism") if c in frame.columns]
    digits: dict[str, int | str] = {c: ".3g" for c in ("paper_err", "theorem_scale", "implied_scale",
                                                         "factor", "loss_over_eps")}
    digits.update({"epsilon": "g"})
    if "N0" in frame.columns:
        digits["N0"] = "int"
    return checks(frame, key=keys, marks=["dp"], digits=digits,
                  labels={**LABELS, "paper_err": "paper err", "theorem_scale": "scale (Thm 5)",
                          "implied_scale": "implied scale", "factor": "Thm 5 / implied",
                          "loss_over_eps": "privacy loss / \u03b5", "dp": "\u03b5-DP"},
                  legend_marks="\u2713 \u03b5-DP on the neighbouring pair, \u2717 not (privacy loss / "
                               "\u03b5 > 1).",
                  caption="Per cell: the scale of Theorem 5 (Theorem 4 for Laplace), the scale the published "
                          "error implies, their ratio, and the privacy loss of the neighbouring pair "
                          "over \u03b5.")



def per_cell(ct: pd.DataFrame) -> Table:
    """Every published finite-epsilon error: implied privacy loss, each reading's ratio, the label.

    ``ct`` is :func:`ldpfair.papers.hamman2023.cells.committed_cell_table`.
    """
    ratios = [c for c in ct.columns if c.startswith("ratio ")]
    frame = ct.assign(loss_over_eps=ct["loss"] / ct["epsilon"], paper_e3=1000 * ct["paper"])
    cols = ["paper_e3", "loss_over_eps", *ratios, "lands", "label"]
    digits: dict[str, int | str] = {c: ".3g" for c in ("paper_e3", "loss_over_eps", *ratios)}
    digits.update({"epsilon": "g", "N0": "int"})
    return table(frame, key=["item", "n", "m", "N0", "epsilon", "mechanism"], columns=cols, digits=digits,
                 labels={**LABELS, "item": "item", "paper_e3": "paper err ×10⁻³",
                         "loss_over_eps": "privacy loss / ε", "lands": "readings that land",
                         **{c: c.removeprefix("ratio ") for c in ratios}},
                 caption="Every published finite-ε query error (Tables 1-4 and the errors quoted for Figs. "
                         "1b, 3, 4b): the privacy loss its implied noise allows on the neighbouring pair, "
                         "over ε (above 1: not ε-DP); paper / simulated statistic under each reading of "
                         "the noise scale (the median of the errors for Attribute-Conceal, the mean for "
                         "Laplace); the readings whose 95% range holds the published value; the label.")


def clipping(comparison_: Mapping[str, pd.DataFrame]) -> Table:
    """Table 1's noiseless leakage under unclipped and clipped perturbed models.

    ``comparison_`` is :func:`ldpfair.papers.hamman2023.forensics.clipping_comparison`;
    the legend line gives each reading's count of agreeing Table 1 numbers.
    """
    rows = comparison_["noiseless"].assign(full_recovery=lambda d: 100 * d["full_recovery"])
    counts = comparison_["counts"]
    per = counts.pivot(index="variant", columns="metric", values="agree")
    of = int(counts["of"].iloc[0]) if len(counts) else 0
    legend = [f"Table 1 numbers that agree, {v}: errors {int(r['avg_sp_err_e3'])} of {of}, leakage "
              f"{int(r['leakage'])} of {of}." for v, r in per.iterrows()]
    return checks(rows, marks="agrees", key=["variant", "n", "m"],
                  columns=["paper", "ours", "runs", "full_recovery", "agrees"], pm={"ours": "halfwidth"},
                  labels={**LABELS, "variant": "models", "paper": "paper (%)", "ours": "ours (%)",
                          "full_recovery": "runs at 100% (%)", "agrees": "agrees"},
                  digits={"paper": 0, "ours": 1, "full_recovery": 0, "runs": "int", "default": 1},
                  legend_marks="\u2713 the paper's value lies in our 95% interval (widened by its printed "
                               "precision), \u2717 it does not.",
                  legend=legend,
                  caption="Table 1, noiseless leakage (%): perturbed models unclipped (the text, our "
                          "default) and clipped to [0, 1] (our first reading).")
