"""The synthesis chapter's checks: the five papers' claims tested on every dataset, and the scoreboard rows.

:data:`CLAIMS` lists the papers' claims this grid can test; :func:`claim_checks`
tests each on every dataset, :func:`generalisation` tabulates them and
:func:`headline` summarises them; :func:`scoreboard` gives the chapter's rows
(status "new result": there is no paper to reproduce).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...ldp import PROTOCOLS
from .analysis import combine, leaderboard, means
from .experiments import PROFILES, dataset_label, dataset_order, declare

__all__ = ["CLAIMS", "claim_checks", "generalisation", "headline", "scoreboard"]


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
    cols = [dataset_label(d) for d in dataset_order() if d in set(checks["dataset"])]
    rows = []
    for claim, (paper, statement, _) in CLAIMS.items():
        c = checks[checks["claim"] == claim].set_index("dataset")
        row: dict[str, Any] = {"paper": paper, "claim": claim, "statement": statement}
        n = held = 0
        for d in dataset_order():
            label = dataset_label(d)
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


# --------------------------------------------------------------------------- scoreboard
def scoreboard() -> pd.DataFrame:
    """The chapter's rows of the book's scoreboard: status "new result" (no paper to reproduce).

    Computed from the committed results (never computes): the evidence gives the
    coverage and, for the generalisation table, on how many datasets each claim holds.
    """
    from ...verdicts import ITEM_COLUMNS, NO_CAUSE, chance
    from .. import committed

    frames = {name: committed("synthesis", name) for name in declare(PROFILES["paper"])}
    present = sum(int(f.attrs.get("coverage", {}).get("present", len(f))) for f in frames.values())
    total = sum(int(f.attrs.get("coverage", {}).get("total", 0)) for f in frames.values())
    frame = combine(frames)
    status = "new result" if present else "not yet"
    gen = headline(generalisation(claim_checks(frame))) if present else "no committed results"
    board = leaderboard(frame) if present else pd.DataFrame()
    best = (f"best at matched accuracy loss: {board['mechanism'].iloc[0]}" if len(board) else "no results")
    rows: list[dict[str, Any]] = [
        {"item": "Benchmark (8 datasets x 9 mechanisms)", "label": "#the-benchmark",
         "evidence": f"{present} of {total} cells committed"},
        {"item": "Do the claims generalise?", "label": "#do-the-claims-generalise", "evidence": gen},
        {"item": "Leaderboard", "label": "#leaderboard", "evidence": best},
    ]
    for r in rows:
        r.update({"status": status, "share": np.nan, "numbers": 0, "verifications": 0, "disagreeing": 0,
                  "covered": 0, "cause": NO_CAUSE, "reason": "", "cause_label": "", "summary": "",
                  "listing": (), **chance(0, 0)})
    return pd.DataFrame(rows)[list(ITEM_COLUMNS)]
