"""arcolezi2023: the chapter's tables and findings, as the book shows them.

One function per table (a :class:`ldpfair.tables.Table`) and per finding (a
Markdown sentence computed from the results): the pivots over datasets and sources,
the agreement with the authors' runs and the sentences live here, and the notebook
only calls them.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from ...datasets import cards
from ...experiments import coverage_note
from ...ldp import split_budget
from ...tables import Table, label, long, table
from . import authors, checks, tables
from . import experiments as exp

__all__ = ["NAMES", "NONPRIVATE_METRICS", "coverage", "split_table", "data_cards", "nonprivate_table",
           "quoted_numbers_table", "agreement", "claims", "rq3_evidence", "appendix_subsets",
           "hyperparameters"]

#: Dataset registry name -> the paper's name (adult26k -> Adult, ...).
NAMES = exp.PAPER_NAMES
#: Metrics of the NonDP baseline table, in the order shown.
NONPRIVATE_METRICS = ("acc", "f1", "auc_labels", "auc_scores", "recall", "DI", "SPD", "EOD", "OAD")


def coverage(results: Mapping[str, pd.DataFrame], profile: str) -> tuple[str, Table]:
    """How many cells (setting x seed) of the profile are present: a sentence per file, and a table."""
    cov = pd.DataFrame([{"results": k, **v.attrs["coverage"]} for k, v in results.items()])
    if profile == "paper":
        lines = [coverage_note({"present": int(cov["present"].sum()), "total": int(cov["total"].sum())})]
        lines += [f"{name}: {coverage_note(df.attrs['coverage'])}" for name, df in results.items()]
    else:
        lines = [f"{profile} profile: {int(cov['present'].sum())} cells computed."]
    return "\n\n".join(lines), table(
        cov, key="results", labels={"results": "results file", "present": "cells present", "total": "cells"},
        caption=f"Cells (setting x seed) of the {profile} profile present.")


def split_table(epsilon: float = 1.0) -> Table:
    """The budget of each Adult attribute under the uniform and the k-based split."""
    ks = {"gender": 2, "race": 5, "native-country": 41, "age": 74}
    frame = pd.DataFrame({split: split_budget(epsilon, list(ks.values()), split)
                          for split in ("uniform", "k_based")},
                         index=pd.Index([f"{a} ({k})" for a, k in ks.items()], name="attribute (k)"))
    return table(frame, key="attribute (k)", labels={"uniform": "uniform εj", "k_based": "k-based εj"},
                 caption=f"Budget per attribute at ε = {epsilon:g} (Adult).")


def data_cards() -> Table:
    """The datasets, as loaded, under the paper's names."""
    frame = cards.data_cards_table([(name, {}) for name in exp.DATASETS])
    frame["dataset"] = frame["dataset"].map(NAMES)
    return table(frame, key="dataset", columns=["n", "protected", "sensitive", "target", "P(Y=1)",
                                                 "P(Y=1) by group"],
                 text=["sensitive", "P(Y=1) by group"], labels={"sensitive": "sensitive attributes (k)"},
                 caption="The datasets, as loaded.")


def _ours_of(frame: pd.DataFrame, ds: str) -> pd.DataFrame:
    return frame[frame["dataset"] == ds] if len(frame) else frame


def nonprivate_table(main: pd.DataFrame, authors_main: pd.DataFrame) -> Table:
    """The NonDP baseline per metric, dataset and source (the authors' runs and ours), mean over seeds."""
    ours = ({ds: _ours_of(main, ds) for ds in exp.DATASETS if len(_ours_of(main, ds))} if len(main) else {})
    base_ours = (tables.nonprivate_table(ours, list(NONPRIVATE_METRICS)) if len(main)
                 else pd.DataFrame(columns=["dataset"]))
    base_auth = tables.nonprivate_table({ds: authors_main[authors_main["dataset"] == ds]
                                         for ds in exp.DATASETS},
                                        [m for m in NONPRIVATE_METRICS if m != "auc_scores"])
    both = pd.concat([base_auth.assign(source="authors"), base_ours.assign(source="ours")], ignore_index=True)
    both = long(both.assign(dataset=both["dataset"].map(NAMES)), ["dataset", "source"],
                [m for m in NONPRIVATE_METRICS if m in both.columns])
    wide = both.pivot_table(index="metric", columns=["dataset", "source"], values="value", sort=False,
                            dropna=False).rename(index=label)
    return table(wide.reindex(columns=[d for d in NAMES.values() if d in wide.columns.get_level_values(0)],
                              level=0), key="metric", digits=3,
                 caption="NonDP baseline: mean over seeds, the authors' runs and ours.",
                 legend="AUC (scores): from predicted probabilities, recorded by ldpfair only (the "
                        "authors kept hard labels).")


def quoted_numbers_table(main: pd.DataFrame) -> Table:
    """The numbers Section 5.2 quotes and ours (:func:`.checks.quoted_numbers`)."""
    return table(checks.quoted_numbers(main), key="quantity",
                 columns=["paper", "ours", "diff", "tolerance", "agrees"],
                 digits={"paper": "g", "tolerance": "g", "default": 3}, agreement="agrees", text="quantity",
                 labels={"diff": "ours − paper"},
                 agreement_legend="✓: within the tolerance of the printed precision, ✗: not.",
                 caption="Numbers quoted in Section 5.2 and ours (—: our cells are not present yet).")


def agreement(main: pd.DataFrame, app: pd.DataFrame, authors_main: pd.DataFrame, authors_app: pd.DataFrame
              ) -> tuple[str, Table | None]:
    """How many (cell, metric) pairs agree with the authors' runs: a sentence, and the share per cell."""
    agree = pd.concat([authors.agreement_with_authors(main, authors_main).assign(experiment="main"),
                       authors.agreement_with_authors(app, authors_app).assign(experiment="appendix")],
                      ignore_index=True)
    if agree.empty:
        return "No results of ours present yet: nothing to compare.", None
    summary = authors.agreement_summary(agree, ["experiment", "dataset", "metric"])
    summary["dataset"] = summary["dataset"].map(NAMES)
    share = summary.pivot_table(index="metric", columns=["experiment", "dataset"], values="share agreeing",
                                sort=False).rename(index=label)
    share = share.reindex(columns=[(e, d) for e in ("main", "appendix") for d in NAMES.values()
                                   if (e, d) in share.columns])
    sentence = (f"{agree['agrees'].mean():.0%} of {len(agree)} (cell, metric) pairs agree within the 95% "
                "interval.")
    return sentence, table(share, key="metric", digits="%",
                           caption="Share of agreeing cells per metric, experiment and dataset.")


def claims(main: pd.DataFrame, app: pd.DataFrame, authors_main: pd.DataFrame, authors_app: pd.DataFrame
           ) -> tuple[Table, pd.DataFrame]:
    """RQ1-RQ3, the quoted numbers and the appendix on our runs and the authors': the table, and theirs."""
    ours = checks.claims_frame(checks.claims(main, app))
    theirs = checks.claims_frame(checks.claims(authors_main, authors_app))
    both = ours.merge(theirs[["claim", "checks passed", "verdict"]], on="claim",
                      suffixes=("", " (authors' runs)"))
    return table(both, key="claim", badges=["verdict", "verdict (authors' runs)"],
                 details=["statement", "evidence"],
                 columns=["verdict", "checks passed", "verdict (authors' runs)",
                          "checks passed (authors' runs)"],
                 caption="RQ1-RQ3, the quoted numbers and the appendix, checked on our runs and on the "
                         "authors'."), theirs


def rq3_evidence(their_claims: pd.DataFrame) -> str:
    """RQ3's evidence on the authors' runs, one Markdown list item per statement."""
    evidence = their_claims.set_index("claim").loc["RQ3", "evidence"]
    return "\n".join(f"- {line}" for line in evidence.split("; "))


def appendix_subsets(n_seeds: int = 20) -> Table:
    """The sensitive attributes of each seed in the appendix experiment."""
    subsets = pd.DataFrame({NAMES[ds]: [", ".join(exp.appendix_sensitive(ds, s)) for s in range(n_seeds)]
                            for ds in exp.DATASETS}).rename_axis("seed")
    return table(subsets, key="seed", text=list(NAMES.values()),
                 caption="Sensitive attributes of each seed in the appendix experiment.")


def hyperparameters(run_tuning: bool, datasets: list[str] | None = None, *, evals: int = 100,
                    selection: str = "validation", threads: int = 1) -> tuple[str, Table]:
    """The LightGBM hyperparameters: found by the search (``run_tuning``), else the authors' tuned ones."""
    if run_tuning:
        from .tuning import tune

        rows = []
        for ds in (datasets or exp.DATASETS):
            res = tune(ds, n_evals=evals, selection=selection, seed=42, threads=threads)
            rows.append({"dataset": ds, **res.best_params, "score": res.best_score,
                         "test score": res.test_score,
                         **{f"authors' {k}": v for k, v in exp.HYPERPARAMETERS[ds].items()}})
        return "", table(pd.DataFrame(rows), key="dataset", caption="Hyperparameters found by the search.")
    hyper = pd.DataFrame(exp.HYPERPARAMETERS).T.rename_axis("dataset").rename(index=NAMES)
    return ("Hyperparameter search not run (run_tuning = False): the authors' hyperparameters are used:",
            table(hyper, key="dataset", digits={"learning_rate": 4},
                  caption="The authors' tuned LightGBM hyperparameters."))
