"""Xu, Yuan & Wu (2019): the published numbers, their agreement with ours, the claims and the scoreboard.

Every verdict is made by :mod:`ldpfair.verdicts` on the committed paper-profile results
(read with :func:`ldpfair.papers.committed`): each published mean of Tables 1-2
(:func:`published_agreement`), each reading of :data:`~.experiments.READINGS`
(:func:`readings_table`), the claims (:func:`claims`) and one scoreboard row per table
and figure (:func:`scoreboard`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from ... import verdicts
from ..._validation import check_choice
from ...reporting import Claim
from .diagnostics import INDEFINITE_TOL
from .experiments import (
    DEFAULT_READING,
    HELDOUT_DATASET,
    PRIVATE_METHODS,
    READING_KEYS,
    READINGS,
    SELECTION_DATASET,
    noise_variance,
)

__all__ = [
    "PAPER_TABLE1",
    "PAPER_TABLE2",
    "PAPER_DECIMALS",
    "PAPER_RUNS",
    "SCOREBOARD_FEATURES",
    "SCOREBOARD_READING",
    "TEXT_READING",
    "TEXT_SENTENCE",
    "default_rank",
    "tables_under",
    "claims",
    "committed_claims",
    "published_agreement",
    "readings_table",
    "heldout_selection",
    "PAPER_D",
    "scoreboard",
]

# --------------------------------------------------------------------------- published numbers
_T1 = {
    ("adult", "LR"): (0.8380, 0.0023, 0.1577, 0.0064),
    ("adult", "PrivLR"): (0.7238, 0.0612, 0.0502, 0.0581),
    ("adult", "FairLR"): (0.7739, 0.0521, 0.0095, 0.0071),
    ("adult", "PFLR"): (0.7400, 0.0182, 0.0213, 0.0258),
    ("adult", "PFLR*"): (0.7552, 0.0092, 0.0053, 0.0070),
    ("dutch", "LR"): (0.8164, 0.0048, 0.1747, 0.0033),
    ("dutch", "PrivLR"): (0.6412, 0.0458, 0.0739, 0.0574),
    ("dutch", "FairLR"): (0.7673, 0.0064, 0.0299, 0.0067),
    ("dutch", "PFLR"): (0.6278, 0.0408, 0.0206, 0.0204),
    ("dutch", "PFLR*"): (0.6482, 0.0188, 0.0430, 0.0265),
}
#: Table 1 of the paper (epsilon = 1, epsilon_f = epsilon / 2): mean and std over 10 runs.
PAPER_TABLE1 = pd.DataFrame(
    [{"dataset": d, "method": m, "accuracy": v[0], "accuracy_std": v[1], "rd": v[2], "rd_std": v[3]}
     for (d, m), v in _T1.items()]
)
_T2 = {
    "adult": {
        "PrivLR": [(0.6263, 0.1480, 0.0883, 0.0805), (0.7238, 0.0612, 0.0502, 0.0581),
                   (0.7270, 0.0877, 0.1459, 0.0798), (0.8295, 0.0032, 0.1624, 0.0116)],
        "PFLR": [(0.6172, 0.1187, 0.0351, 0.0493), (0.7400, 0.0182, 0.0213, 0.0258),
                 (0.7631, 0.0155, 0.0338, 0.0255), (0.7835, 0.0318, 0.0332, 0.0243)],
        "PFLR*": [(0.7491, 0.0040, 0.0028, 0.0039), (0.7552, 0.0092, 0.0053, 0.0070),
                  (0.7632, 0.0093, 0.0204, 0.0140), (0.7913, 0.0200, 0.0234, 0.0189)],
    },
    "dutch": {
        "PrivLR": [(0.5241, 0.0396, 0.0317, 0.0187), (0.6412, 0.0458, 0.0739, 0.0574),
                   (0.7239, 0.0902, 0.1346, 0.0563), (0.8154, 0.0042, 0.1687, 0.0054)],
        "PFLR": [(0.5069, 0.0459, 0.0441, 0.0245), (0.6278, 0.0408, 0.0206, 0.0204),
                 (0.7282, 0.0493, 0.0211, 0.0152), (0.7681, 0.0054, 0.0301, 0.0085)],
        "PFLR*": [(0.6158, 0.0239, 0.0516, 0.0204), (0.6482, 0.0188, 0.0460, 0.0265),
                  (0.7080, 0.0329, 0.0220, 0.0208), (0.7618, 0.0144, 0.0250, 0.0128)],
    },
}
#: Table 2 of the paper (epsilon_f = epsilon / 2 for PFLR*). Note Dutch PFLR* at epsilon = 1 has
#: RD 0.0460 here but 0.0430 in Table 1 (the paper's own inconsistency).
PAPER_TABLE2 = pd.DataFrame(
    [{"dataset": d, "method": m, "epsilon": e, "accuracy": v[0], "accuracy_std": v[1], "rd": v[2],
      "rd_std": v[3]}
     for d, per in _T2.items() for m, vals in per.items()
     for e, v in zip((0.1, 1.0, 10.0, 100.0), vals, strict=True)]
)


def _of(frame: pd.DataFrame, features: str, reading: str) -> pd.DataFrame:
    """Rows of one feature encoding and reading (frames without a ``reading`` column are ``"v0"``)."""
    rd = frame["reading"] if "reading" in frame else pd.Series("v0", index=frame.index)
    return frame[(frame["features"] == features) & (rd == reading)]


def _welch_greater(a: np.ndarray, b: np.ndarray) -> float:
    """One-sided Welch t-test p-value of mean(a) > mean(b)."""
    if len(a) < 2 or len(b) < 2:
        return float("nan")
    return float(stats.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue)


def claims(table1: pd.DataFrame, table2: pd.DataFrame, features: str,
           reading: str = DEFAULT_READING) -> list[Claim]:
    """The paper's claims, checked on our results for one feature encoding and reading.

    Parameters
    ----------
    table1, table2 : DataFrame
        Tidy results of the ``table1`` and ``table2`` sweeps.
    features : {"onehot", "compact"}
        Which encoding's results to judge.
    reading : str
        Which reading (:data:`READINGS`) to judge.
    """
    check_choice(reading, tuple(READINGS), "reading")
    t1 = _of(table1, features, reading)
    t2 = _of(table2, features, reading)
    acc = t1.groupby(["dataset", "method"])["accuracy"].mean()
    rd = t1.groupby(["dataset", "method"])["rd"].mean()
    ds_present = sorted(set(t1["dataset"]))
    out: list[Claim] = []

    # C1: PFLR* adds less noise than PFLR (analytic, at the paper's settings) and is more accurate at
    # small epsilon (t-test on our runs).
    d_of = t1.groupby("dataset")["d"].first()
    checks: dict[str, bool] = {}
    ev = []
    for ds in ds_present:
        d = int(d_of[ds])
        v_pflr, v_star = noise_variance("PFLR", d, 1.0), noise_variance("PFLR*", d, 1.0, 0.5)
        checks[f"{ds}: PFLR* noise variance < PFLR's (eps=1, eps_f=eps/2)"] = bool(v_star < v_pflr)
        ev.append(f"{ds} (d={d}): noise variance PFLR* / PFLR = {v_star / v_pflr:.2f}")
        for e in sorted(set(t2["epsilon"]) & {0.1, 1.0}):
            a = t2[(t2.dataset == ds) & (t2.epsilon == e) & (t2.method == "PFLR*")]["accuracy"].to_numpy()
            b = t2[(t2.dataset == ds) & (t2.epsilon == e) & (t2.method == "PFLR")]["accuracy"].to_numpy()
            p = _welch_greater(a, b)
            checks[f"{ds}, eps={e:g}: PFLR* more accurate (p<0.05)"] = bool(p < 0.05)
            ev.append(f"{ds}, ε={e:g}: acc PFLR* {a.mean():.3f} vs PFLR {b.mean():.3f} (p={p:.2g})")
    noise_checks = [k for k in checks if "noise variance" in k]
    paper_ratio = {ds: noise_variance("PFLR*", d, 1.0, 0.5) / noise_variance("PFLR", d, 1.0)
                   for ds, d in PAPER_D.items()}
    c1_checks = [verdicts.Check(
        "By the paper's own noise scales at its own settings (d = 40 Adult, 35 Dutch, epsilon = 1, "
        "epsilon_f = epsilon/2), PFLR*'s noise variance exceeds PFLR's: the 'less noise' part of the claim "
        "does not hold for the paper's mechanisms", bool(all(r > 1 for r in paper_ratio.values())),
        "; ".join(f"{ds}: PFLR* / PFLR variance {r:.2f}" for ds, r in paper_ratio.items())
        + "; the paper's own condition epsilon_f >= (Delta_f / Delta_f~) epsilon is not met by its split",
        "paper", covers=tuple(noise_checks))]
    out.append(Claim("C1", "PFLR* adds less noise than PFLR and is significantly more accurate at small "
                     "ε (ε = 0.1, 1; t-test p < 0.05).", "; ".join(ev), checks,
                     cause=verdicts.claim_cause(checks, c1_checks, "#claims")))

    # C2: both reach RD < 0.05 (Table 1, eps = 1).
    checks, ev = {}, []
    for ds in ds_present:
        for m in ("PFLR", "PFLR*"):
            v = float(rd.get((ds, m), np.nan))
            checks[f"{ds} {m} RD<0.05"] = bool(v < 0.05)
            ev.append(f"{ds} {m}: RD {v:.3f}")
    out.append(Claim("C2", "PFLR and PFLR* both achieve fairness: RD < 0.05 at ε = 1 (Table 1).",
                     "; ".join(ev), checks, cause=verdicts.claim_cause(checks, [], _LABEL)))

    # C3: PrivLR loses about 11% (Adult) and 17% (Dutch) accuracy at eps = 1 (paired per split).
    checks, ev = {}, []
    for ds, paper_loss in (("adult", 0.1142), ("dutch", 0.1752)):
        if ds not in ds_present:
            continue
        lr = t1[(t1.dataset == ds) & (t1.method == "LR")].set_index("run")["accuracy"]
        pv = t1[(t1.dataset == ds) & (t1.method == "PrivLR")].set_index("run")["accuracy"]
        loss = (lr - pv).dropna()
        cmp = verdicts.compare_welch(loss.to_numpy(), paper_loss, decimals=4)
        checks[f"{ds}: loss agrees with {paper_loss:.4f} (95% t interval)"] = bool(cmp["agrees"])
        ev.append(f"{ds}: PrivLR {acc[(ds, 'PrivLR')]:.4f} vs LR {acc[(ds, 'LR')]:.4f}: {loss.mean():.4f} "
                  f"lower ± {cmp['halfwidth']:.4f} (paper {paper_loss:.4f})")
    out.append(Claim("C3", "At ε = 1 PrivLR's accuracy is 11.42 (Adult) and 17.52 (Dutch) points below "
                     "LR's (Table 1; the paper writes 'decreases 11.42%').",
                     "; ".join(ev), checks, cause=verdicts.claim_cause(checks, [], _LABEL)))
    # a cause belongs to the ledger only where the claim is not reproduced
    return [c if c.verdict != "reproduced" else dataclasses.replace(c, cause=None) for c in out]


# --------------------------------------------------------------------------- agreement with the paper
#: Printed decimals of the paper's Tables 1-2 (four everywhere).
PAPER_DECIMALS = 4
#: Runs behind each published mean and std.
PAPER_RUNS = 10
#: The number of features the paper reports per data set (Sec. 4).
PAPER_D = {"adult": 40, "dutch": 35}


def published_agreement(table1: pd.DataFrame, table2: pd.DataFrame, features: str = "compact",
                        reading: str = DEFAULT_READING) -> pd.DataFrame:
    """Agreement of every published mean of Tables 1-2 with ours (``ldpfair.verdicts.compare_published``).

    Welch 95% interval of our 10 runs against the paper's mean and std over 10 runs,
    plus half a unit of the fourth printed decimal; nothing else.

    Returns
    -------
    DataFrame
        One row per published number (20 of Table 1, 48 of Table 2): ``table``,
        ``dataset``, ``method``, ``epsilon``, ``metric``, ``ours``, ``paper``, ``diff``,
        ``halfwidth``, ``agrees``...
    """
    t1 = verdicts.compare_published(_of(table1, features, reading), PAPER_TABLE1, ["dataset", "method"],
                                    ["accuracy", "rd"], decimals=PAPER_DECIMALS, paper_n=PAPER_RUNS)
    t2 = verdicts.compare_published(_of(table2, features, reading), PAPER_TABLE2,
                                    ["dataset", "method", "epsilon"], ["accuracy", "rd"],
                                    decimals=PAPER_DECIMALS, paper_n=PAPER_RUNS)
    t1.insert(0, "table", "Table 1")
    t1.insert(3, "epsilon", np.where(t1["method"].isin(PRIVATE_METHODS), 1.0, np.nan))
    t2.insert(0, "table", "Table 2")
    return pd.concat([t1, t2], ignore_index=True)


def readings_table(readings: pd.DataFrame, features: str | None = None) -> pd.DataFrame:
    """Published means matched by every reading of :data:`READINGS` (one encoding): exploratory.

    The counts are in-sample scores: the default reading is not chosen by them
    (it is the text's, :data:`TEXT_READING`; :func:`default_rank` says where it ranks).

    ``features`` defaults to ``"compact"`` where the sweep has it, else its one encoding
    (the quick profile runs one-hot features only).

    Every cell of a reading comes from the ``readings`` sweep: its LR and FairLR
    runs and its private methods (the ε = 1 cells also play Table 1).

    Returns
    -------
    DataFrame
        ``reading``, its options, ``Table 1`` (of 20), ``Table 2`` (of 48), ``adult`` and
        ``dutch`` (of 34 each), ``total`` (of 68), and the shares of noisy forms that
        were indefinite / still trimmed at ε = 100.
    """
    if features is None:
        present = list(dict.fromkeys(readings["features"]))
        features = "compact" if "compact" in present or not present else str(present[0])
    rows = []
    for name in READINGS:
        cells = readings[(readings["reading"] == name) & (readings["features"] == features)]
        if not len(cells) or not cells["method"].isin(["LR", "FairLR"]).any():
            continue
        t1 = cells[~cells["method"].isin(PRIVATE_METHODS) | (cells["epsilon"] == 1.0)]
        t2 = cells[cells["method"].isin(PRIVATE_METHODS)]
        agree = published_agreement(t1, t2, features, name)
        at100 = t2[t2["epsilon"] == 100.0]
        rows.append({"reading": name, **{k: READINGS[name][k] for k in READING_KEYS},
                     "Table 1": int(agree.loc[agree["table"] == "Table 1", "agrees"].sum()),
                     "Table 2": int(agree.loc[agree["table"] == "Table 2", "agrees"].sum()),
                     "adult": int(agree.loc[agree["dataset"] == "adult", "agrees"].sum()),
                     "dutch": int(agree.loc[agree["dataset"] == "dutch", "agrees"].sum()),
                     "total": int(agree["agrees"].sum()),
                     "indefinite at ε=100": float((at100["min_eig_noisy"] < -INDEFINITE_TOL).mean()),
                     "trimmed at ε=100": float(at100["remedy_triggered"].mean())})
    columns = ["reading", *READING_KEYS, "Table 1", "Table 2", "adult", "dutch", "total",
               "indefinite at ε=100", "trimmed at ε=100"]
    frame = pd.DataFrame(rows, columns=columns)  # empty (no reading with its baselines) in a small profile
    return frame.sort_values("total", ascending=False, kind="stable").reset_index(drop=True)


def heldout_selection(readings: pd.DataFrame, features: str | None = None, *,
                      select_on: str = SELECTION_DATASET, held_out: str = HELDOUT_DATASET) -> pd.DataFrame:
    """Exploration: the reading a selection by score on ``select_on`` picks, and its count on ``held_out``.

    Every reading of :data:`READINGS` is scored on the published means of
    ``select_on`` only (34 of Tables 1-2); the reading with the most is selected (ties:
    the order of :data:`READINGS`). The rule was written after both data sets' scores
    were visible, so its count on ``held_out`` is **not** a held-out result: it is shown
    as exploration, and the default is the text's reading (:data:`TEXT_READING`), not
    this selection. ``features`` as in :func:`readings_table` (compact where the sweep has it).

    Returns
    -------
    DataFrame
        One row per reading: ``reading``, ``selection`` (means matched on ``select_on``),
        ``held out`` (on ``held_out``), ``total``, ``selected`` (bool, one row).
        ``attrs``: ``selected``, ``in_sample``, ``held_out``, ``of`` (means per data set),
        ``select_on`` and ``held_out_dataset``.
    """
    rt = readings_table(readings, features)
    if not len(rt):
        raise ValueError("the readings sweep has no reading with its baselines: nothing to select from")
    order = {r: k for k, r in enumerate(READINGS)}
    rt = rt.assign(_order=rt["reading"].map(order))
    rt = rt.sort_values([select_on, "_order"], ascending=[False, True], kind="stable").reset_index(drop=True)
    out = pd.DataFrame({"reading": rt["reading"], "selection": rt[select_on], "held out": rt[held_out],
                        "total": rt["total"], "selected": [k == 0 for k in range(len(rt))]})
    of = len(PAPER_TABLE1[PAPER_TABLE1["dataset"] == select_on]) * 2 + len(
        PAPER_TABLE2[PAPER_TABLE2["dataset"] == select_on]) * 2
    out.attrs.update(selected=str(out["reading"].iloc[0]), in_sample=int(out["selection"].iloc[0]),
                     held_out=int(out["held out"].iloc[0]), of=int(of), select_on=select_on,
                     held_out_dataset=held_out)
    return out


# --------------------------------------------------------------------------- scoreboard
#: Encoding judged on the book's scoreboard (the one the chapter prints next to the paper's numbers).
SCOREBOARD_FEATURES = "compact"
#: The reading the paper's text states, the book's default for verdicts (never chosen by a score):
#: ``"paper"`` takes each option from the text (Taylor baselines, Eq. 12's penalty, Sec. 3.2's
#: degree-1 noise, PFLR*'s shift as a constraint) and, for an unbounded noisy objective, the remedy
#: of the functional mechanism the paper cites, Zhang et al. (2012, Sec. 5): :data:`TEXT_SENTENCE`.
TEXT_READING = "paper"
#: The sentence of the paper that fixes :data:`TEXT_READING`'s remedy.
TEXT_SENTENCE = ("“Functional mechanism [16] is a differentially private method designed for optimization "
                 "based models. It achieves ϵ-differential privacy by injecting noise into the objective "
                 "function of the model and returns privacy preserving parameter w̄ that minimizes the "
                 "perturbed objective function.” (Section 2; [16] is Zhang et al. 2012, whose Section 5 "
                 "regularises and trims an unbounded noisy objective)")
#: Reading judged on the book's scoreboard: the text's (:data:`TEXT_READING`).
SCOREBOARD_READING = TEXT_READING


def tables_under(reading: str, t: Mapping[str, pd.DataFrame],
                 features: str = "compact") -> tuple[pd.DataFrame, pd.DataFrame, dict[str, Any]]:
    """Our runs of Tables 1-2 under ``reading``: the committed tables if they hold it, else the sweep.

    The readings sweep (``t["readings"]``, compact features) runs every reading of
    :data:`READINGS` on the cells of both tables (its ε = 1 private cells also play
    Table 1), so no reading needs recomputing to be judged.

    Returns
    -------
    (table1, table2, coverage)
        Runs with the columns ``reading`` and ``features``; ``coverage`` of the source.
    """
    t1, t2 = t.get("table1", pd.DataFrame()), t.get("table2", pd.DataFrame())
    if all(len(f) and len(_of(f, features, reading)) for f in (t1, t2)):
        return t1, t2, dict(t1.attrs.get("coverage", {}))
    r = t.get("readings", pd.DataFrame())
    cells = r[(r["reading"] == reading) & (r["features"] == features)] if len(r) else r
    if not len(cells):
        return cells, cells, {"present": 0}
    return (cells[~cells["method"].isin(PRIVATE_METHODS) | (cells["epsilon"] == 1.0)],
            cells[cells["method"].isin(PRIVATE_METHODS)], dict(r.attrs.get("coverage", {})))


def default_rank(readings: pd.DataFrame, reading: str = TEXT_READING) -> dict[str, Any]:
    """Where the text's reading ranks among all readings, by the published means each matches.

    Returns ``{"of": readings, "<column>": (count, rank)}`` for ``adult``, ``dutch`` and
    ``total`` (rank 1 = most matched; ties share the best rank).
    """
    rt = readings_table(readings)
    if reading not in set(rt["reading"]):
        return {"of": len(rt)}
    me = rt.set_index("reading").loc[reading]
    out: dict[str, Any] = {"of": len(rt)}
    for col in ("adult", "dutch", "total"):
        out[col] = (int(me[col]), int((rt[col] > me[col]).sum()) + 1)
    return out

_LABEL = "why-pflr-did-not-recover"


def _cell_id(rec: dict) -> str:
    eps = rec.get("epsilon")
    e = "" if eps is None or eps != eps else f" at ε={float(eps):g}"
    metric = "RD" if rec["metric"] == "rd" else rec["metric"]
    return f"{rec['table']} {rec['dataset']} {rec['method']} {metric}{e}"


def _reading_agreements(readings: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """:func:`published_agreement` of every reading of the ``readings`` sweep but the scoreboard's."""
    out: dict[str, pd.DataFrame] = {}
    for name in READINGS:
        if name == SCOREBOARD_READING or not len(readings):
            continue
        cells = readings[readings["reading"] == name]
        if not len(cells) or not cells["method"].isin(["LR", "FairLR"]).any():
            continue
        t1 = cells[~cells["method"].isin(PRIVATE_METHODS) | (cells["epsilon"] == 1.0)]
        t2 = cells[cells["method"].isin(PRIVATE_METHODS)]
        out[name] = published_agreement(t1, t2, SCOREBOARD_FEATURES, name)
    return out


def _table_cause(item: str, agree: pd.DataFrame, by_reading: dict[str, pd.DataFrame]) -> verdicts.Cause:
    """The cause of a table's disagreements: :func:`ldpfair.verdicts.decide_cause` on the readings' checks.

    Each reading of the ``readings`` sweep (``by_reading``: :func:`_reading_agreements`) is a
    variant judged by the same comparison on the same published means
    (:func:`ldpfair.verdicts.variant_check`); those that cover nothing are listed as tried.
    """
    ids = [_cell_id(r) for r in agree.to_dict("records")]
    default = dict(zip(ids, agree["agrees"].astype(bool), strict=True))
    dis = [i for i, a in default.items() if not a]
    checks: list[verdicts.Check] = []
    tried = []
    for name, va in by_reading.items():
        va = va[va["table"] == item]
        variant = {_cell_id(r): bool(r["agrees"]) for r in va.to_dict("records")}
        if set(variant) != set(default):
            continue
        chk = verdicts.variant_check(f"Reading {name!r} (readings sweep)", source=f"reading={name!r}",
                                     default=default, variant=variant,
                                     evidence=f"{sum(variant.values())} of {len(variant)} agree")
        if chk.holds:
            checks.append(chk)
        else:
            tried.append(f"{name} ({sum(variant.values())} of {len(variant)})")
    if tried:
        checks.append(verdicts.Check("Readings that cover no disagreement without breaking an agreement "
                                     "(published means of the table matched)", False, ", ".join(tried),
                                     "tried"))
    return verdicts.decide_cause(dis, checks, _LABEL)


def _committed_tables() -> dict[str, pd.DataFrame]:
    from .. import committed

    return {name: committed("xu2019", name) for name in ("table1", "table2", "fig1", "readings")}


def scoreboard() -> pd.DataFrame:
    """Status of Tables 1-2 and Fig. 1 from the committed results, by the book's verdict rules.

    Tables: one check per published mean (accuracy and RD of each dataset, method and
    ε): ``ldpfair.verdicts.compare_published`` (Welch 95% against the paper's std over
    10 runs, plus the fourth printed decimal), the text's reading (:data:`TEXT_READING`), compact
    features.
    Fig. 1 (no published values): the paper's trends, accuracy and RD rising with the
    split ratio (Spearman, p < 0.05) and RD below 0.05 at every ratio.
    """
    t = _committed_tables()
    rows = []
    tab1, tab2, cov = tables_under(SCOREBOARD_READING, t, SCOREBOARD_FEATURES)
    both = None
    if len(tab1) and len(tab2):
        both = published_agreement(tab1, tab2, SCOREBOARD_FEATURES, SCOREBOARD_READING)
    by_reading = _reading_agreements(t["readings"]) if both is not None else {}
    for item, label in (("Table 1", "#table-1"), ("Table 2", "fig-xu2019-table2")):
        if both is None:
            rows.append(verdicts.score_item(item, label, agrees=[], present=0))
            continue
        agree = both[both["table"] == item]
        rows.append(verdicts.score_item(
            item, label, agrees=agree["agrees"].tolist(), present=cov.get("present"), total=cov.get("total"),
            cause=_table_cause(item, agree, by_reading),
            evidence=f"{int(agree['agrees'].sum())}/{len(agree)} published means agree with ours "
                     f"({SCOREBOARD_FEATURES} features, reading '{SCOREBOARD_READING}'; Welch 95% + printed "
                     "precision)"))
    f1 = _of(t["fig1"], SCOREBOARD_FEATURES, SCOREBOARD_READING) if len(t["fig1"]) else t["fig1"]
    if len(f1):
        acc = stats.spearmanr(f1["eps_f_ratio"], f1["accuracy"])
        rdc = stats.spearmanr(f1["eps_f_ratio"], f1["rd"])
        rd_max = float(f1.groupby("eps_f_ratio")["rd"].mean().max())
        trends = {"accuracy rises": bool(acc.statistic > 0 and acc.pvalue < 0.05),
                  "RD rises": bool(rdc.statistic > 0 and rdc.pvalue < 0.05),
                  "RD < 0.05 at every ratio": rd_max < 0.05}
        cov = t["fig1"].attrs.get("coverage", {})
        rows.append(verdicts.score_item(
            "Figure 1", "fig-xu2019-1", trends=trends, present=cov.get("present"), total=cov.get("total"),
            cause=verdicts.decide_cause(verdicts.failing(trends), [], "fig-xu2019-1"),
            evidence=f"Spearman ρ(ratio, accuracy) = {acc.statistic:.2f} (p = {acc.pvalue:.2g}), "
                     f"ρ(ratio, RD) = {rdc.statistic:.2f} (p = {rdc.pvalue:.2g}); largest mean RD "
                     f"{rd_max:.3f} ({SCOREBOARD_FEATURES} features); "
                     + "; ".join(f"{k}: {'yes' if v else 'no'}" for k, v in trends.items())))
    else:  # Fig. 1 is committed under another reading only: not yet judged under the text's
        held = sorted(set(t["fig1"]["reading"])) if len(t["fig1"]) else []
        rows.append(verdicts.score_item(
            "Figure 1", "fig-xu2019-1", trends={}, present=0,
            evidence=f"committed under reading {', '.join(map(repr, held)) or 'none'}, not under the text's "
                     f"reading {SCOREBOARD_READING!r}: to be computed"))
    return pd.DataFrame(rows, columns=list(verdicts.ITEM_COLUMNS))


def committed_claims() -> list[Claim]:
    """The chapter's claims (:func:`claims`) on the committed results, as the scoreboard shows them."""
    t1, t2, _ = tables_under(SCOREBOARD_READING, _committed_tables(), SCOREBOARD_FEATURES)
    if not len(t1) or not len(t2):
        return []
    return claims(t1, t2, SCOREBOARD_FEATURES, SCOREBOARD_READING)
