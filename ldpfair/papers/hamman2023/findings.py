"""hamman2023: the chapter's tables of the paper and its findings, as the book shows them.

The pairing of our summaries with the published Tables 1-4 (:func:`published_table`),
the exact attacks of Section 3 (:func:`exact_attacks_table`) and the sentences under
Figs. 1 and 3 live here; the notebook only calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ... import attacks
from ...reporting import side_by_side, summarise
from ...tables import Table, table
from . import published, tables

__all__ = ["PUBLISHED", "exact_attacks_table", "figure1_finding", "figure3_finding", "published_table"]

#: Each published table: (key columns, metrics compared, caption).
PUBLISHED: dict[str, tuple[list[str], list[str], str]] = {
    "table1": (["n", "m", "epsilon", "mechanism"], ["avg_sp_err_e3", "leakage"],
               "Table 1. Adult: Avg. SP err (×10⁻³) and leakage (%), Attribute-Conceal (conceal) and "
               "Laplace; ours are means over runs ± 95% CI half-widths."),
    "table2": (["n", "n0", "m"], ["avg_sp_err_e3", "leakage"],
               "Table 2. Synthetic, ε = 100: Avg. SP err (×10⁻³) and leakage (%)."),
    "table3": (["n", "n0", "epsilon"], ["avg_sp_err_e3", "leakage"],
               "Table 3. Synthetic: Avg. SP err (×10⁻³) and leakage (%) against ε (m = 500 for "
               "n = 1000, m = 1000 for n = 10000: the paper gives no m)."),
    "table4": (["m", "epsilon"], ["avg_sp_err_e3", "recovered"],
               "Table 4. German credit: Avg. SP err (×10⁻³) and number of recovered attributes "
               "(of 1,000)."),
}


def published_table(res: Mapping[str, pd.DataFrame], name: str) -> Table:
    """Published Table ``name`` (``"table1"`` .. ``"table4"``) next to ours (means ± 95% CI half-widths).

    Table 1 also shows our median error (the paper's Avg. SP err read as a median).
    """
    on, metrics, caption = PUBLISHED[name]
    paper = getattr(published, f"PAPER_{name.upper()}")
    extra = ["median_sp_err_e3"] if name == "table1" else []
    ours = summarise(res[name], on, [*metrics[:1], *extra, *metrics[1:]])
    sbs = side_by_side(ours, paper, on, metrics, tolerance={m: 0.05 if m == "avg_sp_err_e3" else 0.5
                                                            for m in metrics})
    if name != "table1":
        return tables.published(sbs, on, metrics, caption=caption)
    sbs["median err (ours)"] = sbs.merge(ours, on=on, how="left")["median_sp_err_e3_mean"].to_numpy()
    return tables.published(sbs, on, metrics, digits=2, extra=["median err (ours)"], caption=caption)


def exact_attacks_table(n: int = 300, n0: int = 30, seed: int = 0) -> Table:
    """Example 1, Algorithm 1 and Theorem 3 on ``n`` people of whom ``n0`` are in group 0 (exact answers)."""
    rng = np.random.default_rng(seed)
    a = np.ones(n, dtype=int)
    a[rng.choice(n, n0, replace=False)] = 0
    h0 = (rng.random(n) < 0.3).astype(float)
    example1 = [attacks.reveal_single(attacks.sp_queries(attacks.single_query_model(n, j), a)[0])[0]
                for j in range(n)]
    flips = attacks.flip_models(h0)
    alg1 = attacks.reveal_linear(flips, attacks.sp_queries(flips, a))
    labels, used = attacks.absolute_sp_partition(lambda M: attacks.sp_queries(M, a, absolute=True), n)
    return table(pd.DataFrame({
        "attack": ["Example 1 (one query per target)", f"Algorithm 1 (m = n = {n})",
                   "Theorem 3 (|SP|, partition)"],
        "queries": [n, flips.shape[0], used],
        "people identified": [int(np.sum(np.array(example1) == a)), int(np.sum(alg1.a_hat == a)),
                              int(np.sum(labels.astype(bool) == (a == a[0])))],
    }), key="attack", caption=f"Exact attacks on {n} people (N0 = {n0}).")


def _errors(ex: Mapping[str, Any]) -> np.ndarray:
    return np.abs(np.asarray(ex["sp_answered"]) - np.asarray(ex["sp"]))


def figure1_finding(ex1: Mapping[str, Any]) -> str:
    """Fig. 1(b): the answers' error against the paper's, and the leakage with and without noise."""
    err = _errors(ex1)
    return (f"Panel (b): average |error| of the answers {np.mean(err):.4f}, median {np.median(err):.4f} "
            f"(paper: 7.41e-4); leakage {float(ex1['leakage_clean']):.0f}% from exact and "
            f"{float(ex1['leakage_private']):.0f}% from concealed answers.")


def figure3_finding(ex3: Mapping[str, Any]) -> str:
    """Fig. 3: the leakage with and without noise, the answers' median error against the paper's average."""
    return (f"Leakage from exact answers {float(ex3['leakage_clean']):.0f}%, from concealed answers "
            f"{float(ex3['leakage_private']):.0f}%; median |error| of the answers "
            f"{np.median(_errors(ex3)):.4f} (paper: average error 0.0601).")
