"""synthesis: the chapter's tables and findings, as the book shows them.

Every table goes through :func:`ldpfair.tables.table` (human labels, the chapter's
precision, no index column, long text wrapped instead of cut) and every finding is a
Markdown sentence computed here, so the notebook only calls these functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from ...datasets import cards as data_cards
from ...experiments import coverage_note
from ...tables import Table, table
from . import checks
from .experiments import dataset_entry, dataset_label

__all__ = ["has_budget", "datasets_table", "dataset_options_table",
           "coverage", "cost_table", "leaderboard_table",
           "generalisation_table", "claims_table", "mechanism_cards_table", "summary"]


def has_budget(results: pd.DataFrame, epsilon: float) -> bool:
    """Whether ``results`` (combined, :func:`analysis.combine`) hold a private mechanism at ``epsilon``."""
    if results.empty:
        return False
    present = results.loc[results["mechanism"] != "NonDP", "epsilon"].astype(float)
    return bool(np.isclose(present, epsilon).any())


def datasets_table(keys: Iterable[str]) -> Table:
    """The data card of each dataset of the grid (:func:`ldpfair.datasets.cards.data_cards_table`)."""
    frame = data_cards.data_cards_table([(dataset_entry(k)[0], dataset_entry(k)[1]) for k in keys])
    long_text = [c for c in ("options", "attributes", "sensitive", "P(Y=1) by group", "source", "license",
                             "citation") if c in frame.columns]
    return table(frame, key="dataset", text=long_text, caption="The datasets, as loaded.")


def dataset_options_table(keys: Iterable[str]) -> Table:
    """How each dataset is loaded: registry name, options, protected attribute, the paper it follows."""
    frame = pd.DataFrame([
        {"dataset": dataset_label(k), "registry name": dataset_entry(k)[0],
         "options": ", ".join(f"{o}={v!r}" for o, v in dataset_entry(k)[1].items()) or "defaults",
         "protected attribute": dataset_entry(k)[2], "as in": dataset_entry(k)[3]} for k in keys])
    return table(frame, key="dataset", text=["options", "as in"], caption="How each dataset is loaded.")


def coverage(frames: Mapping[str, pd.DataFrame]) -> str:
    """One Markdown line per dataset: how many of its declared cells are present."""
    return "\n\n".join(f"{dataset_label(key)}: {coverage_note(df.attrs['coverage'])}"
                       for key, df in frames.items())


def cost_table(cost: pd.DataFrame) -> Table:
    """Measured compute cost per dataset (:func:`.analysis.cost`)."""
    return table(cost, key="dataset", digits={"core_seconds": 0, "seconds_per_cell": 2, "core_hours": 3},
                 labels={"core_seconds": "core-seconds", "seconds_per_cell": "seconds per cell",
                         "core_hours": "core-hours"},
                 caption="Measured cost of the cells, per dataset.")


def leaderboard_table(board: pd.DataFrame) -> Table | str:
    """The leaderboard (:func:`.analysis.leaderboard`), gains in points."""
    if board.empty:
        return "no results in this profile"
    shown = board.assign(gain=100 * board["gain"], ci_low=100 * board["ci_low"],
                         ci_high=100 * board["ci_high"])
    return table(shown, key="mechanism",
                 digits={"gain": 2, "ci_low": 2, "ci_high": 2, "mean_rank": 1, "epsilon_median": "g"},
                 labels={"mechanism": "mechanism", "gain": "gain (pt)",
                         "ci_low": "95% CI low", "ci_high": "95% CI high",
                         "mean_rank": "mean rank", "epsilon_median": "median ε"},
                 caption="Fairness gain at matched accuracy loss, mean over the datasets.")


def generalisation_table(gen: pd.DataFrame) -> Table:
    """On which datasets each claim holds (:func:`.checks.generalisation`)."""
    cols = [c for c in gen.columns if c not in ("statement", "share")]
    per_dataset = [c for c in cols if c not in ("paper", "claim", "holds on")]
    return table(gen[cols], key=["paper", "claim"], text=per_dataset,
                 caption="Each claim on each dataset with results.")


def claims_table() -> Table:
    """The papers' claims this grid can test (:data:`.checks.CLAIMS`)."""
    frame = pd.DataFrame([{"claim": k, "paper": v[0], "statement": v[1], "check on each dataset": v[2]}
                          for k, v in checks.CLAIMS.items()])
    return table(frame, key="claim", text=["statement", "check on each dataset"],
                 caption="The claims checked on every dataset.")


def mechanism_cards_table(mc: pd.DataFrame) -> Table:
    """The mechanism cards (:func:`.cards.cards`): variance exact and simulated, bits, level, speed."""
    return table(mc, key=["mechanism", "epsilon"],
                 digits={"epsilon": "g", "var_exact": ".4g", "var_simulated": ".4g", "var_se": ".2g",
                         "z": "+.2f", "level": 4, "audit_lower_bound": 4, "users_per_s": ".3g",
                         "bits": "g"},
                 labels={"mechanism": "mechanism", "var_exact": "n Var (exact)",
                         "var_simulated": "n Var (simulated)", "var_se": "s.e.",
                         "bits": "bits / report", "level": "privacy level", "users_per_s": "users / s",
                         "audit_lower_bound": "audit lower bound"},
                 caption="The mechanism cards.")


def summary(frames: Mapping[str, pd.DataFrame], gen: pd.DataFrame, results: pd.DataFrame, cost: pd.DataFrame,
            profile: str) -> str:
    """The chapter's findings in Markdown: coverage, where each claim generalises, measured cost."""
    cov = [f.attrs["coverage"] for f in frames.values()]
    present, total = sum(c["present"] for c in cov), sum(c["total"] for c in cov)
    with_results = [dataset_label(k) for k, f in frames.items() if len(f)]
    lines = [f"**Coverage.** {present} of {total} cells ({len(with_results)} of {len(frames)} datasets: "
             f"{', '.join(with_results) or 'none'}).", ""]
    if len(gen) and len(results):
        lines.append("**Do the claims generalise?** On how many of the datasets with results each claim "
                     "holds:")
        lines.append("")
        for r in gen.to_dict("records"):
            held = r["holds on"]
            fails = [c for c in gen.columns if isinstance(r.get(c), str) and r[c].startswith("does not")]
            where = f" (does not hold on {', '.join(fails)})" if fails else ""
            lines.append(f"- {r['paper']} {r['claim']}: " + (f"holds on {held}{where}" if held != "—"
                                                             else "not testable with this profile's grid"))
        lines.append("")
    hours = float(cost["core_hours"].sum())
    what = "committed" if profile == "paper" else "computed"
    lines.append(f"**Measured cost.** {hours:.2f} core-hours for the {int(cost['cells'].sum())} {what} cells "
                 f"({float(cost['seconds_per_cell'].mean()):.2f} core-seconds per cell on average over the "
                 "datasets).")
    return "\n".join(lines)
