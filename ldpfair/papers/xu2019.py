"""Xu, Yuan & Wu (2019): Tables 1-2 and Fig. 1, declared as sweeps.

Every cell is one call of :func:`fit_evaluate` ``(dataset, features, method,
epsilon, eps_f_ratio, run)``: it loads the data once per process, draws the
``run``-th random 80/20 train/test split (the paper does not state its split;
the split depends on ``run`` only, so every method of a run sees the same
split and comparisons are paired), fits one estimator of
:mod:`ldpfair.functional` and returns accuracy and risk difference on the test
part together with the bookkeeping of the spectral-trimming remedy.

``features`` chooses the encoding: ``"onehot"`` is the registry's
(``encoding="onehot"``: every level of every categorical attribute, 102 Adult
and 59 Dutch columns); ``"compact"`` is our documented alternative close to the
paper's 40 and 35 features (Adult: the 6 numeric attributes and one-hot
workclass, marital status, occupation and relationship = 40 columns; Dutch: the
ordered attributes age, education level and household size as scaled codes, the
binary previous-residence attribute as one column, the rest one-hot = 37
columns).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .. import verdicts
from .._validation import check_choice
from ..experiments import Sweep
from ..functional import PFLR, FairLR, PFLRStar, PrivLR, TaylorLR, lr_sensitivity, pflr_sensitivity
from ..reporting import Claim
from ..verdicts import Cause

__all__ = [
    "DATASETS",
    "FEATURES",
    "METHODS",
    "PRIVATE_METHODS",
    "load_xy",
    "split_indices",
    "make_estimator",
    "fit_evaluate",
    "build",
    "PROFILES",
    "PAPER_TABLE1",
    "PAPER_TABLE2",
    "table",
    "noise_variance",
    "claims",
    "remedy_summary",
]

DATASETS = ("adult", "dutch")
FEATURES = ("onehot", "compact")
#: The paper's methods; how each is implemented is set by a reading (:data:`READINGS`).
METHODS = ("LR", "FairLR", "PrivLR", "PFLR", "PFLR*")
PRIVATE_METHODS = ("PrivLR", "PFLR", "PFLR*")
#: Options of a reading: ``lr`` ("taylor": the minimiser of the Taylor objective, Eq. 5; "sklearn":
#: scikit-learn's ``LogisticRegression``), ``fairlr`` (:data:`ldpfair.functional.FAIRLR_OBJECTIVES`),
#: ``remedy``, ``lam2_noise`` (as in :class:`ldpfair.functional.PrivLR`), ``rule`` (PFLR's line 3),
#: ``linear_noise`` (PFLR*'s degree-1 noise) and ``alpha`` (weight of the fairness term in PFLR and
#: PFLR*).
READING_KEYS = ("lr", "fairlr", "remedy", "lam2_noise", "rule", "linear_noise", "alpha")
_V0 = {"lr": "sklearn", "fairlr": "exact", "remedy": "trim", "lam2_noise": "full", "rule": "signed",
       "linear_noise": "f", "alpha": 1.0}
_PAPER = {"lr": "taylor", "fairlr": "taylor", "remedy": "zhang", "lam2_noise": "full", "rule": "abs",
          "linear_noise": "g", "alpha": 1.0}
#: Readings of the paper. ``"paper"`` (the default) is the combination that matches the most published
#: means (the chapter's readings table); ``"v0"`` is our first reading (exact LR and FairLR, spectral
#: trimming without ridge, the signed PFLR shift, PFLR*'s degree-1 noise as in Algorithm 2). The others
#: change one option of ``"v0"`` or of ``"paper"`` (the readings table; the baselines LR and FairLR of a
#: reading are computed once per ``lr``/``fairlr`` option, in ``table1``).
READINGS: dict[str, dict[str, Any]] = {
    "paper": _PAPER,
    "v0": _V0,
    "v0+zhang": {**_V0, "remedy": "zhang"},
    "v0+upper": {**_V0, "lam2_noise": "upper"},
    "v0+abs": {**_V0, "rule": "abs"},
    "v0+g": {**_V0, "linear_noise": "g"},
    "paper-zhang": {**_PAPER, "remedy": "trim"},
    "paper+upper": {**_PAPER, "lam2_noise": "upper"},
    "paper-abs": {**_PAPER, "rule": "signed"},
    "paper-g": {**_PAPER, "linear_noise": "f"},
    "paper+alpha0.5": {**_PAPER, "alpha": 0.5},
}
_ADULT_COMPACT = ("workclass=", "marital_status=", "occupation=", "relationship=")
_DUTCH_ORDERED = ("age", "edu_level", "household_size")


@functools.lru_cache(maxsize=8)
def load_xy(
    dataset: str, features: str = "onehot"
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...]]:
    """Features in [0, 1], labels, protected attribute and column names of a dataset (cached).

    Parameters
    ----------
    dataset : {"adult", "dutch"}
    features : {"onehot", "compact"}

    Returns
    -------
    X : ndarray (n, d) float64, y : ndarray (n,) int, s : ndarray (n,) int, columns : tuple of str
    """
    from .. import datasets

    check_choice(dataset, DATASETS, "dataset")
    check_choice(features, FEATURES, "features")
    if dataset == "adult":
        ds = datasets.load("adult_uci", variant="xu2019", encoding="onehot")
        frame = ds.frame.drop(columns=[ds.target, ds.protected])
        if features == "compact":
            keep = [c for c in frame.columns if c in ds.numeric or c.startswith(_ADULT_COMPACT)]
            frame = frame[keep]
        X = frame.to_numpy(np.float64)
    else:
        if features == "onehot":
            ds = datasets.load("dutch", encoding="onehot")
            frame = ds.frame.drop(columns=[ds.target, ds.protected])
        else:
            ds = datasets.load("dutch", encoding="codes")
            cols: dict[str, np.ndarray] = {}
            for c in ds.frame.columns:
                if c in (ds.target, ds.protected):
                    continue
                v = ds.frame[c].to_numpy()
                k = ds.domains[c]
                if c in _DUTCH_ORDERED or k == 2:
                    cols[c] = v / (k - 1)
                else:
                    for code, label in ds.categories[c].items():
                        cols[f"{c}={label}"] = (v == code).astype(np.float64)
            frame = pd.DataFrame(cols)
        X = frame.to_numpy(np.float64)
    y = ds.frame[ds.target].to_numpy(np.int64)
    s = ds.frame[ds.protected].to_numpy(np.int64)
    return X, y, s, tuple(frame.columns)


def _split(n: int, run: int, test_size: float = 0.2) -> tuple[np.ndarray, np.ndarray]:
    perm = np.random.default_rng(np.random.SeedSequence([2019, int(run)])).permutation(n)
    n_test = int(round(test_size * n))
    return perm[n_test:], perm[:n_test]


def split_indices(n: int, run: int) -> tuple[np.ndarray, np.ndarray]:
    """Train and test row indices of the ``run``-th random 80/20 split (as every cell uses)."""
    return _split(n, run)


def make_estimator(method: str, epsilon: float | None, eps_f_ratio: float, rng: np.random.Generator,
                   reading: str = "paper") -> Any:
    """The estimator of ``method`` under ``reading`` (``epsilon`` ignored by the non-private ones)."""
    from sklearn.linear_model import LogisticRegression

    check_choice(method, METHODS, "method")
    check_choice(reading, tuple(READINGS), "reading")
    r = READINGS[reading]
    if method in PRIVATE_METHODS and epsilon is None:
        raise ValueError(f"method {method!r} needs an epsilon")
    common = {"remedy": r["remedy"], "lam2_noise": r["lam2_noise"], "random_state": rng}
    if method == "LR":
        return LogisticRegression(max_iter=5000) if r["lr"] == "sklearn" else TaylorLR()
    if method == "FairLR":
        return FairLR(objective=r["fairlr"])
    if method == "PrivLR":
        return PrivLR(epsilon, **common)
    if method == "PFLR":
        return PFLR(epsilon, alpha=r["alpha"], rule=r["rule"], **common)
    return PFLRStar(epsilon, eps_f_ratio=eps_f_ratio, alpha=r["alpha"], linear_noise=r["linear_noise"],
                    **common)


def fit_evaluate(
    dataset: str, features: str, method: str, epsilon: float | None, eps_f_ratio: float, run: int,
    rng: np.random.Generator, reading: str = "paper",
) -> dict[str, Any]:
    """One cell: fit ``method`` (under ``reading``) on the ``run``-th 80/20 split, evaluate on its test part.

    Returns
    -------
    dict
        ``accuracy``, ``rd`` (risk difference, Eq. 9), ``pos_rate_s1``/``pos_rate_s0``
        (test selection rates), ``d`` (features), ``remedy_triggered`` (1 when the
        noisy objective was unbounded below, i.e. its quadratic form had a negative
        eigenvalue after the remedy's ridge, and spectral trimming removed directions
        of negative curvature, else 0), ``n_negative`` (how many), ``n_trimmed``,
        ``min_eig_noisy`` (smallest eigenvalue of the symmetrised noisy form before any
        ridge) and ``min_eig_clean`` (the same without noise; NaN for non-private
        methods).
    """
    X, y, s, _ = load_xy(dataset, features)
    tr, te = _split(len(y), run)
    model = make_estimator(method, epsilon, eps_f_ratio, rng, reading)
    if type(model).__name__ == "LogisticRegression":
        model.fit(X[tr], y[tr])
    else:
        model.fit(X[tr], y[tr], sensitive_features=s[tr])
    pred = model.predict(X[te])
    p1, p0 = float(pred[s[te] == 1].mean()), float(pred[s[te] == 0].mean())
    return {
        "accuracy": float(np.mean(pred == y[te])),
        "rd": abs(p1 - p0),
        "pos_rate_s1": p1,
        "pos_rate_s0": p0,
        "d": int(X.shape[1]),
        "remedy_triggered": int(bool(getattr(model, "remedy_triggered_", False))),
        "n_negative": int(getattr(model, "n_negative_", 0)),
        "n_trimmed": int(getattr(model, "n_trimmed_", 0)),
        **_eigen_summary(model, X[tr]),
    }


def _eigen_summary(model: Any, X: np.ndarray) -> dict[str, float]:
    """Smallest eigenvalues of the noisy (before the ridge) and the noiseless quadratic forms."""
    ev = getattr(model, "eigenvalues_", None)
    if ev is None or not hasattr(model, "regularization_"):
        return {"min_eig_noisy": float("nan"), "min_eig_clean": float("nan")}
    clean = np.linalg.eigvalsh((X.T @ X) / 8.0)
    return {"min_eig_noisy": float(ev.min() - model.regularization_), "min_eig_clean": float(clean.min())}


#: Epsilons of the convergence study (``inf`` = no noise).
CONVERGENCE_EPSILONS = (0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, float("inf"))


def build(
    profile: str = "paper",
    *,
    datasets: Sequence[str] = DATASETS,
    features: Sequence[str] = FEATURES,
    runs: int | None = None,
    epsilons: Sequence[float] = (0.1, 1.0, 10.0, 100.0),
    ratios: Sequence[float] | None = None,
) -> dict[str, Sweep]:
    """The sweeps of one profile: ``table1``, ``table2``, ``fig1``, ``convergence`` and ``readings``.

    ``table1``/``table2``/``fig1`` use the adopted reading ``"paper"`` with both feature
    encodings, and (tables only) the first reading ``"v0"`` with compact features.
    ``convergence``: the private methods under both readings for ε from 0.1 to 10^6
    and ∞ (compact features). ``readings``: the private methods under every reading of
    :data:`READINGS` on the cells of Table 2 (compact features).

    Parameters
    ----------
    profile : {"quick", "paper"}
        ``paper``: 10 runs, every epsilon and split ratio of the paper, both feature
        encodings. ``quick``: 2 runs, epsilon in {1, 10}, 5 ratios, one-hot only, the
        readings ``"paper"`` and ``"v0"`` only.
    datasets, features, runs, epsilons, ratios
        Overrides.
    """
    check_choice(profile, ("quick", "paper"), "profile")
    quick = profile == "quick"
    if quick:
        features = ("onehot",) if tuple(features) == FEATURES else tuple(features)
        epsilons = (1.0, 10.0) if tuple(epsilons) == (0.1, 1.0, 10.0, 100.0) else tuple(epsilons)
    n_runs = runs if runs is not None else (2 if quick else 10)
    if ratios is None:
        ratios = (0.05, 0.25, 0.5, 0.75, 0.95) if quick else tuple(round(0.05 * k, 2) for k in range(1, 20))
    run_ids = list(range(n_runs))
    v0_feats = [f for f in features if f == "compact"] or list(features)[:1]
    cells = [("paper", f) for f in features] + [("v0", f) for f in v0_feats]
    t1 = [
        {"dataset": ds, "features": f, "method": m, "epsilon": None if m not in PRIVATE_METHODS else 1.0,
         "eps_f_ratio": 0.5, "run": r, "reading": rd}
        for rd, f in cells for ds in datasets for m in METHODS for r in run_ids
    ]
    t2 = [
        {"dataset": ds, "features": f, "method": m, "epsilon": float(e), "eps_f_ratio": 0.5, "run": r,
         "reading": rd}
        for rd, f in cells for ds in datasets for m in PRIVATE_METHODS for e in epsilons for r in run_ids
    ]
    f1 = [
        {"dataset": "adult", "features": f, "method": "PFLR*", "epsilon": 10.0, "eps_f_ratio": float(q),
         "run": r, "reading": "paper"}
        for f in features for q in ratios for r in run_ids
    ]
    conv_eps = (1.0, 100.0, 1e6, float("inf")) if quick else CONVERGENCE_EPSILONS
    f_conv = v0_feats[0]
    conv = [
        {"dataset": ds, "features": f_conv, "method": m, "epsilon": float(e), "eps_f_ratio": 0.5, "run": r,
         "reading": rd}
        for rd in ("paper", "v0") for ds in datasets for m in PRIVATE_METHODS for e in conv_eps
        for r in run_ids
    ]
    names = ("paper", "v0") if quick else tuple(READINGS)
    rdg = [
        {"dataset": ds, "features": f_conv, "method": m, "epsilon": float(e), "eps_f_ratio": 0.5, "run": r,
         "reading": rd}
        for rd in names for ds in datasets for m in PRIVATE_METHODS for e in epsilons for r in run_ids
    ]
    return {
        "table1": Sweep(fit_evaluate, t1, seeds=1, name="xu2019_table1"),
        "table2": Sweep(fit_evaluate, t2, seeds=1, name="xu2019_table2"),
        "fig1": Sweep(fit_evaluate, f1, seeds=1, name="xu2019_fig1"),
        "convergence": Sweep(fit_evaluate, conv, seeds=1, name="xu2019_convergence"),
        "readings": Sweep(fit_evaluate, rdg, seeds=1, name="xu2019_readings"),
    }


PROFILES: dict[str, dict[str, Sweep]] = {"quick": build("quick"), "paper": build("paper")}

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


# --------------------------------------------------------------------------- tables and claims
def _fmt(mean: float, std: float) -> str:
    return "—" if mean != mean else f"{mean:.4f} ± {std:.4f}"


def table(results: pd.DataFrame, paper: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Our mean ± std next to the paper's, with differences of the means.

    Parameters
    ----------
    results : DataFrame
        Tidy sweep results (one row per run).
    paper : DataFrame
        :data:`PAPER_TABLE1` or :data:`PAPER_TABLE2`.
    by : sequence of str
        Identifying columns (e.g. ``["dataset", "method"]``).
    """
    by = list(by)
    g = results.groupby(by, sort=False)[["accuracy", "rd", "remedy_triggered"]]
    ours = g.mean().join(g.std(ddof=1), rsuffix="_std").reset_index()
    keys = [c for c in by if c in paper.columns]
    merged = ours.merge(paper, on=keys, how="left", suffixes=("", "_paper"))
    out = merged[by].copy()
    for m, label in (("accuracy", "accuracy"), ("rd", "RD")):
        out[f"{label} (ours)"] = [_fmt(a, b) for a, b in zip(merged[m], merged[f"{m}_std"], strict=True)]
        out[f"{label} (paper)"] = [_fmt(a, b) for a, b in
                                   zip(merged[f"{m}_paper"], merged[f"{m}_std_paper"], strict=True)]
        out[f"{label} diff"] = (merged[m] - merged[f"{m}_paper"]).round(4)
    out["remedy"] = merged["remedy_triggered"].map(lambda v: f"{v:.0%}")
    return out


def noise_variance(method: str, d: int, epsilon: float, eps_f_ratio: float = 0.5) -> float:
    """Total variance of the Laplace noise a method adds to its ``d + d^2`` coefficients.

    PrivLR: ``2 (d^2 + d) (Delta_f / epsilon)^2``; PFLR: the same with
    ``Delta = d^2/4 + 3d``; PFLR*: ``2 (d^2 + d) (Delta_f / epsilon_f)^2`` plus the
    variance ``2 d (2d / epsilon_g)^2`` of the noisy shift ``mu`` (which the paper's
    law-of-total-variance argument omits).
    """
    check_choice(method, ("PrivLR", "PFLR", "PFLR*"), "method")
    if method == "PrivLR":
        return 2 * (d**2 + d) * (lr_sensitivity(d) / epsilon) ** 2
    if method == "PFLR":
        return 2 * (d**2 + d) * (pflr_sensitivity(d) / epsilon) ** 2
    eps_f, eps_g = eps_f_ratio * epsilon, (1 - eps_f_ratio) * epsilon
    return 2 * (d**2 + d) * (lr_sensitivity(d) / eps_f) ** 2 + 2 * d * (2 * d / eps_g) ** 2


def _welch_greater(a: np.ndarray, b: np.ndarray) -> float:
    """One-sided Welch t-test p-value of mean(a) > mean(b)."""
    if len(a) < 2 or len(b) < 2:
        return float("nan")
    return float(stats.ttest_ind(a, b, equal_var=False, alternative="greater").pvalue)


def _of(frame: pd.DataFrame, features: str, reading: str) -> pd.DataFrame:
    """Rows of one feature encoding and reading (frames without a ``reading`` column are ``"v0"``)."""
    rd = frame["reading"] if "reading" in frame else pd.Series("v0", index=frame.index)
    return frame[(frame["features"] == features) & (rd == reading)]


def claims(table1: pd.DataFrame, table2: pd.DataFrame, features: str, reading: str = "paper") -> list[Claim]:
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
    out.append(Claim("C1", "PFLR* adds less noise than PFLR and is significantly more accurate at small "
                     "ε (ε = 0.1, 1; t-test p < 0.05).", "; ".join(ev), checks,
                     cause=Cause("paper error",
                                 "With the paper's split ε_f = ε/2 PFLR*'s objective noise has scale "
                                 "2Δ_f/ε against PFLR's (Δ_f + 2d)/ε, more for every d > 4; the paper's own "
                                 "condition ε_f ≥ (Δ_f/Δ_f~)ε (0.85 at d = 40) is not met by its default. "
                                 "The accuracy part fails on Adult, where PFLR* converges to an "
                                 "overshooting model.", "#claims")))

    # C2: both reach RD < 0.05 (Table 1, eps = 1).
    checks, ev = {}, []
    for ds in ds_present:
        for m in ("PFLR", "PFLR*"):
            v = float(rd.get((ds, m), np.nan))
            checks[f"{ds} {m} RD<0.05"] = bool(v < 0.05)
            ev.append(f"{ds} {m}: RD {v:.3f}")
    out.append(Claim("C2", "PFLR and PFLR* both achieve fairness: RD < 0.05 at ε = 1 (Table 1).",
                     "; ".join(ev), checks,
                     cause=Cause("unexplained",
                                 "On Adult PFLR's and PFLR*'s RD at ε = 1 exceed 0.05 (0.087 and 0.069 under "
                                 "the adopted reading, 0.118 and 0.122 under v0): the fairness shift with "
                                 "α = 1 overshoots on Adult; Dutch is below 0.05.",
                                 "why-pflr-did-not-recover")))

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
                     "; ".join(ev), checks,
                     cause=Cause("unexplained",
                                 "PrivLR at ε = 1 has a run-to-run spread of 0.05-0.1 (paper's std 0.046-"
                                 "0.061), so a loss measured on 10 runs has a wide interval; where it "
                                 "misses, no reading of the readings table moves PrivLR (only the remedy "
                                 "touches it).",
                                 "why-pflr-did-not-recover")))
    # a cause belongs to the ledger only where the claim is not reproduced
    return [c if c.verdict != "reproduced" else dataclasses.replace(c, cause=None) for c in out]


#: An eigenvalue below ``-INDEFINITE_TOL`` counts as negative (the noiseless forms are singular, their
#: zero eigenvalues come out as about -1e-12 by rounding; the largest are about 1e4).
INDEFINITE_TOL = 1e-6


def remedy_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per reading, method and epsilon: how often the noisy quadratic form was indefinite.

    ``indefinite``: share of fits whose symmetrised noisy form had a negative
    eigenvalue below ``-INDEFINITE_TOL`` (the objective is unbounded below without a
    remedy); ``trimmed``:
    share where directions of negative curvature were left *after* the remedy's ridge
    and spectral trimming removed them (the ``remedy_triggered`` flag); ``min eig``:
    mean smallest eigenvalue of the noisy form, next to that of the noiseless form.
    """
    priv = frame[frame["method"].isin(PRIVATE_METHODS)]
    g = priv.groupby(["reading", "dataset", "method", "epsilon"], sort=True)
    out = pd.DataFrame({
        "fits": g.size(),
        "indefinite": g["min_eig_noisy"].apply(lambda v: float((v < -INDEFINITE_TOL).mean())),
        "trimmed": g["remedy_triggered"].mean(),
        "min eig (noisy)": g["min_eig_noisy"].mean(),
        "min eig (noiseless)": g["min_eig_clean"].mean(),
        "accuracy": g["accuracy"].mean(),
        "rd": g["rd"].mean(),
    })
    return out.reset_index()


# --------------------------------------------------------------------------- agreement with the paper
#: Printed decimals of the paper's Tables 1-2 (four everywhere).
PAPER_DECIMALS = 4
#: Runs behind each published mean and std.
PAPER_RUNS = 10


def published_agreement(table1: pd.DataFrame, table2: pd.DataFrame, features: str = "compact",
                        reading: str = "paper") -> pd.DataFrame:
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


def readings_table(readings: pd.DataFrame, table1: pd.DataFrame) -> pd.DataFrame:
    """Published means matched by every reading of :data:`READINGS` (compact features).

    The private methods of each reading come from the ``readings`` sweep (their
    ε = 1 cells also play Table 1); LR and FairLR come from ``table1``, from the
    reading (``"paper"`` or ``"v0"``) with the same ``lr``/``fairlr`` options. Two
    extra rows swap the baselines of ``"paper"`` and ``"v0"``.

    Returns
    -------
    DataFrame
        ``reading``, its options, ``Table 1`` (of 20), ``Table 2`` (of 48), ``total`` (of 68)
        and the share of noisy forms that were indefinite at ε = 100.
    """
    base = {"taylor": _of(table1, "compact", "paper"), "sklearn": _of(table1, "compact", "v0")}
    rows = []
    combos = [(name, READINGS[name]["lr"]) for name in READINGS]
    combos += [("paper", "sklearn"), ("v0", "taylor")]
    for name, lr in combos:
        priv = readings[readings["reading"] == name]
        if not len(priv):
            continue
        bl = base[lr]
        bl = bl[~bl["method"].isin(PRIVATE_METHODS)]
        t1 = pd.concat([bl, priv[priv["epsilon"] == 1.0]], ignore_index=True)
        t2 = priv.assign(features="compact")
        agree = published_agreement(t1.assign(features="compact", reading=name), t2, "compact", name)
        opts = {**READINGS[name], **({"lr": lr, "fairlr": "taylor" if lr == "taylor" else "exact"})}
        at100 = priv[priv["epsilon"] == 100.0]
        rows.append({"reading": name if lr == READINGS[name]["lr"] else f"{name} (baselines: {lr})",
                     **{k: opts[k] for k in READING_KEYS},
                     "Table 1": int(agree.loc[agree["table"] == "Table 1", "agrees"].sum()),
                     "Table 2": int(agree.loc[agree["table"] == "Table 2", "agrees"].sum()),
                     "total": int(agree["agrees"].sum()),
                     "indefinite at ε=100": float((at100["min_eig_noisy"] < -INDEFINITE_TOL).mean()),
                     "trimmed at ε=100": float(at100["remedy_triggered"].mean())})
    return pd.DataFrame(rows).sort_values("total", ascending=False, kind="stable").reset_index(drop=True)


# --------------------------------------------------------------------------- scoreboard
#: Encoding judged on the book's scoreboard (the one the chapter prints next to the paper's numbers).
SCOREBOARD_FEATURES = "compact"
#: Reading judged on the book's scoreboard (the adopted default).
SCOREBOARD_READING = "paper"

_CAUSE_T1 = Cause(
    "unexplained",
    "15 of 20 agree under the adopted reading (9 under v0). Misses: Adult PFLR* (0.70 / RD 0.07 against "
    "0.755 / 0.005) and PFLR accuracy, where the fairness shift overshoots on Adult; Dutch PFLR accuracy "
    "(0.54 against 0.63), where the literal |.| rule collapses; Adult FairLR accuracy (0.817 against "
    "0.774 ± 0.052). No reading of the 11 tried fits both data sets.",
    "why-pflr-did-not-recover",
)
_CAUSE_T2 = Cause(
    "unexplained",
    "31 of 48 agree (25 under v0). Adult PFLR* (8 misses) converges to its noiseless limit, which with "
    "α = 1 overshoots (accuracy 0.70, RD 0.30 favouring women) while the paper has 0.75-0.79 / RD ≤ 0.03; "
    "Dutch PFLR under the literal |.| rule stays at 0.54-0.57 (paper 0.63-0.77) while the signed shift "
    "fits Dutch and overshoots Adult; no reading of the 11 tried fits both.",
    "why-pflr-did-not-recover",
)
_CAUSE_F1 = Cause(
    "unexplained",
    "Same cause as Table 2's Adult PFLR*: at ε = 10 our PFLR* on Adult is near its overshooting noiseless "
    "limit (RD 0.10-0.28 over the splits, accuracy flat at 0.62-0.70), so RD never stays below 0.05 and "
    "accuracy does not rise with ε_f/ε.",
    "why-pflr-did-not-recover",
)


def _committed_tables() -> dict[str, pd.DataFrame]:
    from ..scoreboard import committed

    return {name: committed("xu2019", name) for name in ("table1", "table2", "fig1")}


def scoreboard() -> pd.DataFrame:
    """Status of Tables 1-2 and Fig. 1 from the committed results, by the book's verdict rules.

    Tables: one check per published mean (accuracy and RD of each dataset, method and
    ε): ``ldpfair.verdicts.compare_published`` (Welch 95% against the paper's std over
    10 runs, plus the fourth printed decimal), adopted reading, compact features.
    Fig. 1 (no published values): the paper's trends, accuracy and RD rising with the
    split ratio (Spearman, p < 0.05) and RD below 0.05 at every ratio.
    """
    t = _committed_tables()
    rows = []
    for item, label, name, cause in (("Table 1", "#table-1", "table1", _CAUSE_T1),
                                     ("Table 2", "fig-xu2019-table2", "table2", _CAUSE_T2)):
        cov = t[name].attrs.get("coverage", {}) if len(t[name]) else {}
        if not len(t[name]):
            rows.append(verdicts.score_item(item, label, agrees=[], present=0))
            continue
        other = t["table1"] if name == "table2" else t["table2"]
        agree = published_agreement(t["table1"] if name == "table1" else other,
                                    t["table2"] if name == "table2" else other,
                                    SCOREBOARD_FEATURES, SCOREBOARD_READING)
        agree = agree[agree["table"] == item]
        rows.append(verdicts.score_item(
            item, label, agrees=agree["agrees"].tolist(), present=cov.get("present"), total=cov.get("total"),
            cause=cause,
            evidence=f"{int(agree['agrees'].sum())}/{len(agree)} published means agree with ours "
                     f"({SCOREBOARD_FEATURES} features, reading '{SCOREBOARD_READING}'; Welch 95% + printed "
                     "precision)"))
    f1 = t["fig1"]
    if len(f1):
        f1 = _of(f1, SCOREBOARD_FEATURES, SCOREBOARD_READING)
        acc = stats.spearmanr(f1["eps_f_ratio"], f1["accuracy"])
        rdc = stats.spearmanr(f1["eps_f_ratio"], f1["rd"])
        rd_max = float(f1.groupby("eps_f_ratio")["rd"].mean().max())
        trends = {"accuracy rises": bool(acc.statistic > 0 and acc.pvalue < 0.05),
                  "RD rises": bool(rdc.statistic > 0 and rdc.pvalue < 0.05),
                  "RD < 0.05 at every ratio": rd_max < 0.05}
        cov = t["fig1"].attrs.get("coverage", {})
        rows.append(verdicts.score_item(
            "Figure 1", "fig-xu2019-1", trends=trends, present=cov.get("present"), total=cov.get("total"),
            cause=_CAUSE_F1,
            evidence=f"Spearman ρ(ratio, accuracy) = {acc.statistic:.2f}, "
                     f"ρ(ratio, RD) = {rdc.statistic:.2f}; largest mean RD {rd_max:.3f} "
                     f"({SCOREBOARD_FEATURES} features)"))
    else:
        rows.append(verdicts.score_item("Figure 1", "fig-xu2019-1", trends={}, present=0))
    return pd.DataFrame(rows, columns=list(verdicts.ITEM_COLUMNS))


def committed_claims() -> list[Claim]:
    """The chapter's claims (:func:`claims`) on the committed results, as the scoreboard shows them."""
    from ..scoreboard import committed

    t1, t2 = committed("xu2019", "table1"), committed("xu2019", "table2")
    if not len(t1) or not len(t2):
        return []
    return claims(t1, t2, SCOREBOARD_FEATURES, SCOREBOARD_READING)


__all__ += ["INDEFINITE_TOL", "READINGS", "READING_KEYS", "CONVERGENCE_EPSILONS", "PAPER_DECIMALS",
            "PAPER_RUNS", "SCOREBOARD_FEATURES", "SCOREBOARD_READING", "published_agreement",
            "readings_table", "scoreboard", "committed_claims"]
