"""ghoukasian2025: the cell functions of Fig. 6 (Mozannar et al.'s two-step method) and Tables I-II.

Each experiment is a :class:`~ldpfair.experiments.Sweep` over one cell function
(declared in :mod:`ldpfair.papers.ghoukasian2025.experiments`):

- :func:`two_step_cell` (Fig. 6): logistic regression, 75/25 split (stratified on
  Y), the training part halved into S1 (step 1: exponentiated gradient for
  equalized odds on the privatised attribute Z) and S2 (step 2: de-biased
  equalized-odds post-processing for the mechanism (p, q)); RR or OPT privatise A
  on S1 and S2; metrics on the test rows with the true attribute.
- :func:`fairprojection_cell` (Table I): gradient boosting (scikit-learn
  defaults, ``random_state=42``), 70/30 split with ``random_state = trial``; the
  base model, FairProjection (SP and MEO constraints, every tolerance of the
  authors' grid) and OPT at epsilon = 1 (the training attribute privatised by
  Theorem 2, no projection), all on the same split.
- :func:`fairbalance_cell` (Table II): logistic regression, 70/30 split
  stratified by (sensitive groups, Y); plain, FairBalance-weighted and
  OPT-privatised training.

:func:`long_fairprojection` and :func:`long_fairbalance` reshape the committed
wide results to one row per method; :mod:`ldpfair.papers.ghoukasian2025.tables`
compares them with the published tables.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pandas as pd

from ..._validation import check_choice
from ...identity import versioned

__all__ = [
    "TWO_STEP_EPSILONS",
    "FP_TOLERANCES",
    "two_step_data",
    "two_step_split",
    "two_step_cell",
    "fairprojection_data",
    "fairprojection_cell",
    "fairbalance_data",
    "fairbalance_cell",
    "long_fairprojection",
    "long_fairbalance",
    "FB_DATASETS",
]

#: Fig. 6's epsilon grid (the authors' notebook).
TWO_STEP_EPSILONS: tuple[float, ...] = (0.5, 1, 2, 4, 8, 10)
#: FairProjection's tolerance grid (the authors' MP_tol grid plus 0.2, their COMPAS choice).
FP_TOLERANCES: tuple[float, ...] = (0.0, 0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.5, 1.0)


def _rr(epsilon: float) -> tuple[float, float]:
    keep = float(np.exp(epsilon) / (1 + np.exp(epsilon)))
    return keep, keep


def _privatise_binary(a: np.ndarray, p: float, q: float, rng: np.random.Generator) -> np.ndarray:
    """Z from A through the channel P(Z=0|A=0) = p, P(Z=1|A=1) = q (vectorised)."""
    keep = np.where(a == 0, p, q)
    return np.where(rng.random(a.shape[0]) < keep, a, 1 - a).astype(np.int64)


def _mechanism(mechanism: str, epsilon: float, a_train: np.ndarray) -> tuple[float, float]:
    from ...ldp import optimal_binary_parameters

    if mechanism == "RR":
        return _rr(epsilon)
    counts = np.bincount(a_train, minlength=2)
    return optimal_binary_parameters(counts, epsilon)


def _stratified_split(strata: np.ndarray, test_size: float, rng: np.random.Generator
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Per stratum, ``floor(test_size * n_s)`` random rows go to the test part (vectorised)."""
    n: int = strata.shape[0]
    key = rng.random(n)
    order = np.lexsort((key, strata))
    s_sorted = strata[order]
    starts = np.r_[0, np.flatnonzero(np.diff(s_sorted)) + 1]
    sizes = np.diff(np.r_[starts, n])
    rank = np.arange(n) - np.repeat(starts, sizes)
    n_test = np.floor(test_size * sizes).astype(np.int64)
    is_test = rank < np.repeat(n_test, sizes)
    test = np.sort(order[is_test])
    train = np.sort(order[~is_test])
    return train, test


# --------------------------------------------------------------------------- Fig. 6
@functools.lru_cache(maxsize=4)
def two_step_data(dataset: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standardised features, labels and the binary attribute (gender) of Fig. 6.

    ``adult``: UCI adult.data (32,561 rows) as Mozannar et al.'s notebook: 11
    columns (education and fnlwgt dropped, categoricals as integer codes),
    sex removed from the features. ``lsac``: the authors' db_LSAC.csv with the 5
    other columns. Features are standardised on all rows, as the authors.
    """
    from ... import datasets

    check_choice(dataset, ("adult", "lsac"), "dataset")
    if dataset == "adult":
        ds = datasets.load("adult_uci", variant="mozannar", encoding="codes")
        attr = "sex"
    else:
        ds = datasets.load("lsac", source="extract", protected="gender")
        attr = "gender"
    cols = [c for c in ds.frame.columns if c not in (attr, ds.target)]
    x = ds.frame[cols].to_numpy(dtype=np.float64)
    sd = x.std(axis=0)
    x = (x - x.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    return x, ds.y.astype(np.int64), ds.frame[attr].to_numpy().astype(np.int64)


def two_step_split(dataset: str, mechanism: str, epsilon: float, *, rng: np.random.Generator
                   ) -> dict[str, Any]:
    """The data, split, privatised attributes and step-1 predictions of one Fig. 6 split.

    What :func:`two_step_cell` (and the readings of the authors' OPT post-processor,
    :mod:`ldpfair.papers.ghoukasian2025.asym`) post-process: the draws of ``rng`` are
    the cell's, in the cell's order (split, S1/S2 halves, Z on S1, S2 and test, step 1's
    randomised predictions on S2, then on the test rows).

    Returns
    -------
    dict
        ``x, y, a`` (all rows), ``train, s1, s2, test`` (row indices), ``p, q`` (the
        mechanism), ``z1, z2, z_test``, ``step1`` (the fitted exponentiated gradient),
        ``yhat2`` and ``yhat_test`` (its binary predictions on S2 and the test rows).
    """
    from ...interventions import ExponentiatedGradientEO

    check_choice(mechanism, ("RR", "OPT"), "mechanism")
    x, y, a = two_step_data(dataset)
    train, test = _stratified_split(y, 0.25, rng)
    s1_local, s2_local = _stratified_split(y[train], 0.5, rng)
    s1, s2 = train[s1_local], train[s2_local]
    p, q = _mechanism(mechanism, epsilon, a[train])
    z1 = _privatise_binary(a[s1], p, q, rng)
    z2 = _privatise_binary(a[s2], p, q, rng)
    z_test = _privatise_binary(a[test], p, q, rng)
    step1 = ExponentiatedGradientEO(eps=0.001, max_iter=50).fit(x[s1], y[s1], sensitive_features=z1)
    yhat2 = step1.predict(x[s2], rng=rng)
    yhat_test = step1.predict(x[test], rng=rng)
    return {"x": x, "y": y, "a": a, "train": train, "s1": s1, "s2": s2, "test": test, "p": p, "q": q,
            "z1": z1, "z2": z2, "z_test": z_test, "step1": step1, "yhat2": yhat2, "yhat_test": yhat_test}


@versioned("355feca33267", name="ldpfair.papers.ghoukasian2025_baselines.two_step_cell")
def two_step_cell(dataset: str, mechanism: str, epsilon: float, *, rng: np.random.Generator
                  ) -> dict[str, float]:
    """One split of Fig. 6: Mozannar et al.'s two-step method with RR or OPT.

    Returns the expected accuracy and equalized-odds gap of the randomised
    derived predictor on the test rows, with the true attribute (``acc``,
    ``Delta_EOd``; the paper's protocol) and with a privatised test attribute
    (``acc_private_test``, ``Delta_EOd_private_test``; what the authors' RR branch
    did), plus the step-1 classifier's (``acc_step1``, ``Delta_EOd_step1``) and
    the mechanism ``p, q``. The split and step 1 are :func:`two_step_split`'s.
    """
    from ...interventions import PrivateEqualizedOdds
    from ...interventions.private_postprocessing import equalized_odds_from_proba

    d = two_step_split(dataset, mechanism, epsilon, rng=rng)
    y, a, s2, test, p, q = d["y"], d["a"], d["s2"], d["test"], d["p"], d["q"]
    post = PrivateEqualizedOdds(p, q, alpha=1e-4).fit(d["yhat2"], d["z2"], y[s2])
    yhat_test = d["yhat_test"]
    out: dict[str, float] = {"p": p, "q": q}
    m = equalized_odds_from_proba(post.predict_proba(yhat_test, a[test]), y[test], a[test])
    out.update(acc=m["acc"], Delta_EOd=m["Delta_EOd"])
    m = equalized_odds_from_proba(post.predict_proba_private(yhat_test, d["z_test"]), y[test], a[test])
    out.update(acc_private_test=m["acc"], Delta_EOd_private_test=m["Delta_EOd"])
    m = equalized_odds_from_proba(d["step1"].predict_proba(d["x"][test])[:, 1], y[test], a[test])
    out.update(acc_step1=m["acc"], Delta_EOd_step1=m["Delta_EOd"])
    return out


# --------------------------------------------------------------------------- Table I
@functools.lru_cache(maxsize=4)
def fairprojection_data(dataset: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Features (the attribute included, as the authors), labels, attribute and its column.

    ``adult``: UCI Adult (adult.data + adult.test, White/Black only, 46,447 rows;
    marital status and relationship one-hot; attribute race, White = 1).
    ``compas``: ProPublica COMPAS (African-American/Caucasian, 5,278 rows; label
    is_recid; attribute race, Caucasian = 1).
    """
    from ... import datasets
    from ...encoding import encode_frame

    check_choice(dataset, ("adult", "compas"), "dataset")
    if dataset == "adult":
        ds = datasets.load("adult_uci", variant="fairprojection")
    else:
        ds = datasets.load("compas_fairprojection")
    attr = ds.protected
    cols = [c for c in ds.frame.columns if c != ds.target]
    onehot = {c: k for c, k in ds.domains.items() if c in cols and k > 2}
    plain = [c for c in cols if c not in onehot]
    frame = ds.frame
    x_plain = frame[plain].to_numpy(dtype=np.float64)
    if onehot:
        x_oh, _ = encode_frame(frame, list(onehot), onehot)
        x = np.hstack([x_plain, x_oh.astype(np.float64)])
    else:
        x = x_plain
    return x, ds.y.astype(np.int64), frame[attr].to_numpy().astype(np.int64), plain.index(attr)


def _gbm(seed: int) -> Any:
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(random_state=seed)


def _scores_metrics(y: np.ndarray, pred: np.ndarray, a: np.ndarray) -> dict[str, float]:
    from ...metrics import max_gap_metrics

    m = max_gap_metrics(y, pred, sensitive_features=a)
    return {"acc": float(np.mean(y == pred)), "Delta_SP": m["Delta_SP"], "Delta_MEO": m["Delta_MEO"],
            "Delta_EO": m["Delta_EO"]}


@versioned("ce027c2821c6", name="ldpfair.papers.ghoukasian2025_baselines.fairprojection_cell")
def fairprojection_cell(dataset: str, trial: int, *, rng: np.random.Generator) -> dict[str, float]:
    """One trial of Table I: base GBM, FairProjection (SP, MEO; every tolerance), OPT at eps = 1.

    Returns flat keys ``<method>__<metric>`` with methods ``base``, ``OPT``,
    ``FP-sp-<tol>`` and ``FP-meo-<tol>`` (tolerances of :data:`FP_TOLERANCES`,
    KL projection) and metrics ``acc, Delta_SP, Delta_MEO, Delta_EO``.
    """
    from sklearn.model_selection import train_test_split

    from ...interventions import FairProjection
    from ...ldp import optimal_binary

    x, y, a, col = fairprojection_data(dataset)
    idx = np.arange(y.shape[0])
    train, test = train_test_split(idx, test_size=0.3, random_state=int(trial))
    out: dict[str, float] = {}
    base = _gbm(42).fit(x[train], y[train])
    s_train = base.predict_proba(x[train])[:, 1]
    s_test = base.predict_proba(x[test])[:, 1]
    pred = (s_test > 0.5).astype(np.int64)
    out.update({f"base__{k}": v for k, v in _scores_metrics(y[test], pred, a[test]).items()})
    for constraint in ("sp", "meo"):
        for tol in FP_TOLERANCES:
            fp = FairProjection(constraint=constraint, tolerance=tol, divergence="kl")
            fp.fit(s_train, a[train], y[train])
            pred = fp.predict(s_test, a[test]).astype(np.int64)
            m = _scores_metrics(y[test], pred, a[test])
            out.update({f"FP-{constraint}-{tol:g}__{k}": v for k, v in m.items()})
    mech = optimal_binary(np.bincount(a[train], minlength=2), 1.0)
    z = mech.perturb(a[train], rng)
    x_priv = x[train].copy()
    x_priv[:, col] = z
    opt = _gbm(42).fit(x_priv, y[train])
    pred = opt.predict(x[test]).astype(np.int64)
    out.update({f"OPT__{k}": v for k, v in _scores_metrics(y[test], pred, a[test]).items()})
    return out


def long_fairprojection(results: pd.DataFrame) -> pd.DataFrame:
    """Table I results from wide ``<method>__<metric>`` columns to one row per (trial, method)."""
    keys = [c for c in results.columns if "__" in c]
    long = results.melt(id_vars=["dataset", "trial"], value_vars=keys, var_name="key")
    long[["method", "metric"]] = long["key"].str.split("__", n=1, expand=True)
    out = long.pivot_table(index=["dataset", "trial", "method"], columns="metric", values="value")
    out = out.reset_index()
    out.columns.name = None
    return out


# --------------------------------------------------------------------------- Table II
#: Table II's datasets, in the paper's order.
FB_DATASETS: tuple[str, ...] = ("bank", "math", "german")


@functools.lru_cache(maxsize=8)
def fairbalance_data(dataset: str, groups: str = "authors") -> dict[str, Any]:
    """Table II data: frame columns split into one-hot / scaled, labels and sensitive columns.

    ``groups="authors"``: the authors' code (German: age and sex, groups = their
    tuple, OPT on age); ``groups="paper"``: the paper text (German: sex only).
    Bank and Math have one attribute either way (age > 25; sex).
    """
    from ... import datasets

    check_choice(dataset, FB_DATASETS, "dataset")
    check_choice(groups, ("authors", "paper"), "groups")
    name = {"bank": "bank", "math": "student_math", "german": "german"}[dataset]
    ds = datasets.load(name, **({"variant": "fairbalance"} if dataset == "german" else {}))
    if dataset == "german":
        sensitive = ["age", "sex"] if groups == "authors" else ["sex"]
    else:
        sensitive = [ds.protected]
    cols = [c for c in ds.frame.columns if c != ds.target]
    categorical = [c for c in cols if c in ds.domains and c not in ds.numeric]
    numeric = [c for c in cols if c not in categorical]
    return {"frame": ds.frame, "y": ds.y.astype(np.int64), "sensitive": sensitive,
            "categorical": categorical, "numeric": numeric, "domains": dict(ds.domains)}


def _design(d: dict[str, Any], rows: np.ndarray, train: np.ndarray, replace: dict[str, np.ndarray]
            ) -> np.ndarray:
    """One-hot categoricals, numeric columns standardised with the training rows' statistics."""
    from ...encoding import one_hot

    frame = d["frame"]
    parts = []
    for c in d["categorical"]:
        codes = replace[c] if c in replace else frame[c].to_numpy()[rows].astype(np.int64)
        parts.append(one_hot(codes, d["domains"][c]).astype(np.float64))
    if d["numeric"]:
        xn = frame[d["numeric"]].to_numpy(dtype=np.float64)
        mu, sd = xn[train].mean(axis=0), xn[train].std(axis=0)
        parts.append((xn[rows] - mu) / np.where(sd > 0, sd, 1.0))
    return np.hstack(parts)


@versioned("982b670b6516", name="ldpfair.papers.ghoukasian2025_baselines.fairbalance_cell")
def fairbalance_cell(dataset: str, groups: str, *, rng: np.random.Generator) -> dict[str, float]:
    """One trial of Table II: plain LR, FairBalance-weighted LR and OPT (eps = 1) LR.

    Metrics over the sensitive groups (the tuple of the sensitive columns), on the
    test rows: ``acc``, ``Delta_EO`` (max - min TPR: FairBalance's mEOD),
    ``Delta_AOD`` (max - min of (TPR + FPR)/2: FairBalance's mAOD, what the
    authors' code reported as Delta_MEO) and ``Delta_MEO`` (the paper's
    definition: max over pairs of (|dTPR| + |dFPR|)/2), as ``<method>__<metric>``.
    """
    from sklearn.linear_model import LogisticRegression

    from ...interventions import fairbalance_weights
    from ...ldp import optimal_binary
    from ...metrics import max_gap_average_odds, max_gap_metrics

    d = fairbalance_data(dataset, groups)
    y = d["y"]
    frame = d["frame"]
    sens = np.column_stack([frame[c].to_numpy().astype(np.int64) for c in d["sensitive"]])
    radix = np.array([d["domains"][c] for c in d["sensitive"]])
    mult = np.r_[np.cumprod(radix[::-1])[::-1][1:], 1]
    group = sens @ mult
    train, test = _stratified_split(group * 2 + y, 0.3, rng)
    first = d["sensitive"][0]
    out: dict[str, float] = {}
    variants: list[tuple[str, dict[str, np.ndarray], np.ndarray | None]] = [
        ("LR", {}, None),
        ("FairBalance", {}, fairbalance_weights(sens[train], y[train])),
    ]
    a_first = frame[first].to_numpy().astype(np.int64)[train]
    mech = optimal_binary(np.bincount(a_first, minlength=2), 1.0)
    variants.append(("OPT", {first: mech.perturb(a_first, rng)}, None))
    x_test = _design(d, test, train, {})
    for method, replace, weights in variants:
        x_train = _design(d, train, train, replace)
        model = LogisticRegression(max_iter=100000).fit(x_train, y[train], sample_weight=weights)
        pred = model.predict(x_test).astype(np.int64)
        g = group[test]
        m = max_gap_metrics(y[test], pred, sensitive_features=g)
        out[f"{method}__acc"] = float(np.mean(pred == y[test]))
        out[f"{method}__Delta_EO"] = m["Delta_EO"]
        out[f"{method}__Delta_MEO"] = m["Delta_MEO"]
        out[f"{method}__Delta_AOD"] = max_gap_average_odds(y[test], pred, sensitive_features=g)
    return out


def long_fairbalance(results: pd.DataFrame) -> pd.DataFrame:
    """Table II results from wide columns to one row per (dataset, groups, trial, method)."""
    keys = [c for c in results.columns if "__" in c]
    long = results.melt(id_vars=["dataset", "groups", "seed"], value_vars=keys, var_name="key")
    long[["method", "metric"]] = long["key"].str.split("__", n=1, expand=True)
    out = long.pivot_table(index=["dataset", "groups", "seed", "method"], columns="metric",
                           values="value").reset_index()
    out.columns.name = None
    return out
