"""xu2019: the chapter's tables and findings, as the book shows them.

The data cards and encodings, the coverage of the profile, Tables 1-2 next to the
paper's numbers and the sentence under Fig. 1: one function each, so the notebook
only calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from ...datasets import cards
from ...datasets.xu2019 import encoding_diff, n_attributes
from ...experiments import coverage_note
from ...tables import Table, table
from . import checks, tables
from . import experiments as paper

__all__ = ["DATASET_SPECS", "data_cards", "encodings_table", "encoding_diffs", "coverage", "table1",
           "other_encodings", "table2", "figure1_finding"]

#: The two data sets, as the data cards load them.
DATASET_SPECS: tuple[tuple[str, dict[str, str]], ...] = (("adult_uci", {"variant": "xu2019"}), ("dutch", {}))
#: The number of features the paper reports for each data set.
PAPER_D = {"adult": 40, "dutch": 35}


def data_cards() -> Table:
    """The two data sets, computed from the loaded data."""
    return table(cards.data_cards_table(list(DATASET_SPECS)), key="dataset",
                 columns=["n", "attributes", "protected", "target", "P(Y=1)", "P(Y=1) by group"],
                 caption="The two data sets, computed from the loaded data.")


def _encoding_row(ds: str) -> dict[str, Any]:
    X, y, _, cols = paper.load_xy(ds, "onehot")
    return {"dataset": ds, "paper": PAPER_D[ds],
            **{f: paper.load_xy(ds, f)[0].shape[1] for f in paper.FEATURES},
            "attributes": n_attributes(cols), "max feature sum": float(X.sum(axis=1).max()),
            "majority share": float(max(y.mean(), 1 - y.mean()))}


def encodings_table() -> Table:
    """Feature counts: the paper's and our three encodings, with what bounds the sensitivity."""
    return table(pd.DataFrame([_encoding_row(ds) for ds in paper.DATASETS]), key="dataset",
                 labels={"paper": "paper's d", "onehot": "onehot d", "compact": "compact d",
                         "counts": "counts d"},
                 digits={"max feature sum": "int", "majority share": 4},
                 caption="Feature counts: the paper's and our three encodings; the number of source "
                         "attributes, the largest feature sum of a one-hot record and the majority-class "
                         "share.")


def encoding_diffs() -> tuple[Table, Table]:
    """The attributes encoded differently: Adult onehot vs compact/counts, Dutch compact vs counts."""
    return (table(encoding_diff("adult", "onehot", "compact"), key="attribute",
                  caption="Adult: attributes whose columns differ between onehot and compact/counts "
                          "(0: dropped)."),
            table(encoding_diff("dutch", "compact", "counts"), key="attribute",
                  caption="Dutch: the two attributes encoded differently by compact (37) and counts (35)."))


def coverage(res: Mapping[str, pd.DataFrame]) -> str:
    """One Markdown line per experiment: how many of its declared cells are present."""
    return "\n\n".join(f"{name}: {coverage_note(df.attrs['coverage'])}" for name, df in res.items())


def table1(t1: pd.DataFrame, shown: str, reading: str) -> Table:
    """Table 1 with the ``shown`` encoding next to the paper's numbers."""
    return tables.table(t1[t1.features == shown], checks.PAPER_TABLE1, ["dataset", "method"], caption=(
        f"Table 1. Accuracy and risk difference (mean ± std over runs), ε = 1, ε_f = ε/2 ({shown} features, "
        f"reading '{reading}'). Trimmed: share of fits where directions of negative curvature were left "
        "after the remedy's ridge and were trimmed."))


def other_encodings(t1: pd.DataFrame, shown: str) -> list[Table | str]:
    """Table 1 with each other encoding present (or why there is none)."""
    other = [f for f in paper.FEATURES if f != shown and f in set(t1.features)]
    return [tables.table(t1[t1.features == f], checks.PAPER_TABLE1, ["dataset", "method"],
                         caption=f"Table 1 with {f} features.") for f in other] or [
        "one encoding only (the quick profile, or reading v0)"]


def table2(t2: pd.DataFrame, shown: str, reading: str) -> Table:
    """Table 2 with the ``shown`` encoding next to the paper's numbers."""
    caption = (f"Table 2. Accuracy and risk difference for ε in {{0.1, 1, 10, 100}} ({shown} features, "
               f"ε_f = ε/2, reading '{reading}').")
    return tables.table(t2[t2.features == shown], checks.PAPER_TABLE2, ["dataset", "method", "epsilon"],
                        caption=caption)


def figure1_finding() -> str:
    """What the paper says of Fig. 1 and what our committed runs show (the scoreboard's evidence)."""
    sb = checks.scoreboard().set_index("item").loc["Figure 1"]
    return ("The paper reports (Fig. 1) that accuracy rises with $\\varepsilon_f/\\varepsilon$ and that RD "
            "rises too but stays below 0.05; the figure's values are not tabulated, so only the trends are "
            "compared. "
            f"Ours ({checks.SCOREBOARD_FEATURES} features, adopted reading): {sb['evidence']}.")
