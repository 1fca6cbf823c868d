"""ghoukasian2025, Fig. 6: readings of the authors' OPT post-processor (their class ``_asym``).

The authors' OPT branch of Fig. 6 replaced Mozannar et al.'s step 2
(:class:`~ldpfair.interventions.PrivateEqualizedOdds`) by another class of which
only this is known: its variables are indexed by ``A``; its equalized-odds
constraints bound gaps across ``Z``; it clips ``beta`` and falls back to a corner
solution if the LP fails; it predicts by mixing with the posterior ``P(A | Z_test)``.
:class:`AsymReading` names one value for each unknown, :func:`fit_asym` is the
post-processor of a reading and :func:`explore_asym` evaluates readings on the
chapter's own splits (those of the committed ``fig6`` OPT runs), judged by
:func:`~ldpfair.papers.ghoukasian2025.checks.two_step_checks` against the
committed RR runs (:func:`judge_readings`).

The post-processor of a reading. Write ``M[z, a] = P(Z=z | A=a)``, ``pi`` the prior of
``A`` and ``post[z, a] = M[z, a] pi[a] / sum_a' M[z, a'] pi[a']`` its posterior. The LP
variables are ``t[a, yhat] = P(Ytilde=1 | A=a, Yhat=yhat)`` in ``[0, 1]``; at test time
``Ytilde ~ Bernoulli(R[Z, Yhat])`` with ``R = post @ t`` (the mixing). Unknowns:

``objective``
    ``"error"``: Mozannar et al.'s objective with ``t`` in place of ``g``,
    ``sum [P(yhat, a, Y=0) - P(yhat, a, Y=1)] t[a, yhat]`` over the de-biased (clipped)
    joint; ``"error_z"``: the error of the deployed rule ``R`` against the labels,
    estimated from the raw ``P(Yhat, Z, Y)``.
``beta_clip``
    ``beta[y, a] = P(Yhat=1 | Y=y, A=a)``, the ratio of the de-biased (unclipped) cells,
    clipped into ``[0, 1]`` (``"unit"``), ``[alpha, 1 - alpha]`` (``"alpha"``) or not
    (``"none"``).
``fallback``
    The corner solution used when a de-biased cell ``P(A=a, Y=y)`` is <= 0 (``beta``
    undefined, only where the gaps need it) or the LP fails: ``t`` = the base rate
    ``P(Y=1)`` (``"base_rate"``), ``t[a, yhat] = yhat`` (``"identity"``) or the majority
    label (``"majority"``).
``prior``
    ``pi``: the training rows' share of ``A`` (``"train"``, known to the authors, who fit
    OPT's ``(p, q)`` on it) or ``(1/2, 1/2)`` (``"uniform"``).
``gaps``
    ``"debiased"``: ``|gamma[y, 1] - gamma[y, 0]| <= alpha`` with ``gamma[y, a] =
    (1 - beta[y, a]) t[a, 0] + beta[y, a] t[a, 1]`` (the gap across ``Z`` of an
    ``A``-indexed rule is the gap across ``A`` times the posterior contrast, so de-biasing
    it bounds the gap across ``A``); ``"raw_z"``: the gap across ``Z`` of the deployed rule
    ``R``, ``(1 - b[y, z]) R[z, 0] + b[y, z] R[z, 1]`` with the raw ``b[y, z] =
    P(Yhat=1 | Y=y, Z=z)``, bounded by ``alpha``.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, fields

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from ..._validation import check_choice
from ...interventions import PrivateEqualizedOdds
from ...interventions.private_postprocessing import equalized_odds_from_proba

__all__ = ["ASYM_UNKNOWNS", "ASYM_EXPLORATION", "AsymReading", "AsymFit", "fit_asym", "asym_readings",
           "asym_split_metrics", "explore_asym", "judge_readings", "asym_finding"]

#: The unknowns of the authors' ``_asym`` class and the values tried for each (first = base reading).
ASYM_UNKNOWNS: dict[str, tuple[str, ...]] = {
    "objective": ("error", "error_z"),
    "beta_clip": ("unit", "alpha", "none"),
    "fallback": ("base_rate", "identity", "majority"),
    "prior": ("train", "uniform"),
    "gaps": ("debiased", "raw_z"),
}


@dataclass(frozen=True)
class AsymReading:
    """One value for each unknown of :data:`ASYM_UNKNOWNS` (defaults: the base reading)."""

    objective: str = "error"
    beta_clip: str = "unit"
    fallback: str = "base_rate"
    prior: str = "train"
    gaps: str = "debiased"

    def __post_init__(self) -> None:
        for f in fields(self):
            check_choice(getattr(self, f.name), ASYM_UNKNOWNS[f.name], f.name)

    @property
    def label(self) -> str:
        """Short name, ``objective/beta_clip/fallback/prior/gaps``."""
        return "/".join(str(v) for v in asdict(self).values())


@dataclass(frozen=True)
class AsymFit:
    """A fitted reading: ``t[a, yhat]``, ``posterior[z, a]``, the deployed ``rule[z, yhat]``.

    ``fallback_used`` says whether the corner solution replaced the LP's;
    ``gamma_lp`` holds the constrained rates (``[y, group]``) the LP saw.
    """

    t: np.ndarray
    posterior: np.ndarray
    rule: np.ndarray
    fallback_used: bool
    gamma_lp: np.ndarray

    def predict_proba(self, y_hat: np.ndarray, z: np.ndarray) -> np.ndarray:
        """``P(Ytilde=1) = sum_a P(A=a | Z=z) t[a, yhat]`` (the authors' mixing)."""
        return self.rule[np.asarray(z), np.asarray(y_hat)]

    def predict_proba_true(self, y_hat: np.ndarray, a: np.ndarray) -> np.ndarray:
        """``P(Ytilde=1) = t[a, yhat]`` on the true attribute (no mixing)."""
        return self.t[np.asarray(a), np.asarray(y_hat)]


def _posterior(M: np.ndarray, prior_a1: float) -> np.ndarray:
    pi = np.array([1.0 - prior_a1, prior_a1])
    joint = M * pi[None, :]
    return joint / joint.sum(axis=1, keepdims=True)


def _corner(kind: str, base_rate: float) -> np.ndarray:
    if kind == "base_rate":
        return np.full((2, 2), base_rate)
    if kind == "identity":
        return np.tile(np.array([0.0, 1.0]), (2, 1))
    return np.full((2, 2), float(base_rate >= 0.5))


def _beta(pe: PrivateEqualizedOdds, clip: str, alpha: float) -> np.ndarray | None:
    """``beta[y, a]`` from the de-biased unclipped cells, clipped as ``clip``; None if undefined."""
    cell = pe.joint_raw_.sum(axis=0)  # [a, y]
    if np.any(cell <= 0):
        return None
    beta = (pe.joint_raw_[1] / cell).T
    if clip == "unit":
        return np.clip(beta, 0.0, 1.0)
    if clip == "alpha":
        return np.clip(beta, alpha, 1.0 - alpha)
    return beta


def _rate_rows(b: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Rows over ``x = t.ravel()`` of ``(1 - b[y, g]) r[g, 0] + b[y, g] r[g, 1]`` with ``r = W @ t``."""
    # r[g, yhat] = sum_a W[g, a] t[a, yhat] -> row over x index (a, yhat')
    R = np.einsum("ga,hk->ghak", W, np.eye(2)).reshape(2, 2, 4)  # [g, yhat, x]
    return (1.0 - b)[:, :, None] * R[None, :, 0, :] + b[:, :, None] * R[None, :, 1, :]  # [y, g, x]


def fit_asym(y_hat: np.ndarray, z: np.ndarray, y: np.ndarray, p: float, q: float, prior_a1: float,
             reading: AsymReading, alpha: float = 1e-4) -> AsymFit:
    """Fit one reading of the authors' ``_asym`` post-processor on the step-2 sample.

    Parameters
    ----------
    y_hat, z, y : ndarray of 0/1, shape (n,)
        Step-1 predictions, privatised attribute and labels of the step-2 sample.
    p, q : float
        The mechanism ``P(Z=0 | A=0)``, ``P(Z=1 | A=1)`` (``p + q > 1``).
    prior_a1 : float
        ``P(A=1)`` of the training rows (used by ``prior="train"``).
    reading : AsymReading
        The values of the unknowns (module docstring).
    alpha : float
        Constraint slack (the authors' ``alpha_n = 1e-4``).

    Returns
    -------
    AsymFit
    """
    if not 0.0 < prior_a1 < 1.0:
        raise ValueError(f"prior_a1 must be in (0, 1), got {prior_a1!r}")
    pe = PrivateEqualizedOdds(p, q, alpha=alpha).fit(y_hat, z, y)  # validation and de-biased estimates
    M = pe.M_
    post = _posterior(M, prior_a1 if reading.prior == "train" else 0.5)
    base_rate = float(np.mean(y))
    if reading.gaps == "debiased":
        beta = _beta(pe, reading.beta_clip, alpha)
        rows = None if beta is None else _rate_rows(beta, np.eye(2))
    else:
        jp = pe.joint_private_  # [yhat, z, y]
        b = (jp[1] / jp.sum(axis=0)).T  # [y, z]: raw P(Yhat=1 | Y=y, Z=z)
        rows = _rate_rows(b, post)
    if reading.objective == "error":
        c = (pe.joint_[:, :, 0] - pe.joint_[:, :, 1]).T.reshape(-1)  # [a, yhat]
    else:
        d = (pe.joint_private_[:, :, 0] - pe.joint_private_[:, :, 1]).T  # [z, yhat]
        c = np.einsum("zh,za->ah", d, post).reshape(-1)
    t = None
    if rows is not None:
        diff = rows[:, 1, :] - rows[:, 0, :]
        res = linprog(c, A_ub=np.concatenate([diff, -diff]), b_ub=np.full(4, alpha), bounds=(0.0, 1.0),
                      method="highs")
        if res.status == 0:
            t = np.clip(res.x, 0.0, 1.0).reshape(2, 2)
    fallback = t is None
    if t is None:
        t = _corner(reading.fallback, base_rate)
    gamma = np.full((2, 2), np.nan) if rows is None else (rows @ t.reshape(-1))
    rule = np.clip(post @ t, 0.0, 1.0)  # a convex mix of [0, 1] values, up to rounding
    return AsymFit(t=t, posterior=post, rule=rule, fallback_used=fallback, gamma_lp=gamma)


def asym_readings(kind: str = "grid") -> list[AsymReading]:
    """Readings to try: every combination (``"grid"``) or one unknown at a time from the base (``"oat"``)."""
    check_choice(kind, ("grid", "oat"), "kind")
    if kind == "grid":
        return [AsymReading(*vals) for vals in itertools.product(*ASYM_UNKNOWNS.values())]
    out = [AsymReading()]
    for name, values in ASYM_UNKNOWNS.items():
        out += [AsymReading(**{name: v}) for v in values[1:]]
    return out


def asym_split_metrics(split: dict, readings: list[AsymReading], alpha: float = 1e-4) -> list[dict]:
    """Metrics of each reading on one split of :func:`~.baselines.two_step_split` (true test attribute).

    Returns one dict per reading: ``reading``, ``acc`` and ``Delta_EOd`` (mixing with
    the posterior of ``Z_test``, the authors' prediction), ``acc_true_a`` and
    ``Delta_EOd_true_a`` (``t`` on the true test attribute) and ``fallback_used``.
    """
    y, a, s2, test = split["y"], split["a"], split["s2"], split["test"]
    prior_a1 = float(np.mean(a[split["train"]]))
    yt, at = y[test], a[test]
    out = []
    for r in readings:
        fit = fit_asym(split["yhat2"], split["z2"], y[s2], split["p"], split["q"], prior_a1, r, alpha)
        m = equalized_odds_from_proba(fit.predict_proba(split["yhat_test"], split["z_test"]), yt, at)
        m_true = equalized_odds_from_proba(fit.predict_proba_true(split["yhat_test"], at), yt, at)
        out.append({"reading": r.label, **asdict(r), "acc": m["acc"], "Delta_EOd": m["Delta_EOd"],
                    "acc_true_a": m_true["acc"], "Delta_EOd_true_a": m_true["Delta_EOd"],
                    "fallback_used": float(fit.fallback_used)})
    return out


def explore_asym(readings: list[AsymReading], *, datasets: tuple[str, ...] = ("adult", "lsac"),
                 epsilons: tuple[float, ...] | None = None, seeds: int = 20) -> pd.DataFrame:
    """Every reading on the splits of the committed ``fig6`` OPT runs (same tasks, same generators).

    Each split is rebuilt with its task's generator (:func:`~.baselines.two_step_split`),
    so step 1 is the committed run's; the column ``acc_mozannar`` (Mozannar et al.'s step
    2 on the true attribute) equals the committed ``acc`` of that run.

    Returns
    -------
    DataFrame
        One row per (dataset, epsilon, seed, reading), ``mechanism = "OPT"``.
    """
    from .baselines import two_step_split
    from .experiments import build_baselines

    sweep = build_baselines("paper", seeds=seeds)["fig6"]
    rows = []
    for task in sweep.tasks():
        prm = task.params
        if prm["mechanism"] != "OPT" or prm["dataset"] not in datasets:
            continue
        if epsilons is not None and prm["epsilon"] not in epsilons:
            continue
        split = two_step_split(prm["dataset"], "OPT", prm["epsilon"], rng=task.rng())
        pe = PrivateEqualizedOdds(split["p"], split["q"], alpha=1e-4).fit(
            split["yhat2"], split["z2"], split["y"][split["s2"]])
        test = split["test"]
        moz = equalized_odds_from_proba(pe.predict_proba(split["yhat_test"], split["a"][test]),
                                        split["y"][test], split["a"][test])
        for row in asym_split_metrics(split, readings):
            rows.append({"dataset": prm["dataset"], "mechanism": "OPT", "epsilon": prm["epsilon"],
                         "seed": task.seed, "acc_mozannar": moz["acc"], **row})
    return pd.DataFrame(rows)


def judge_readings(explored: pd.DataFrame, rr: pd.DataFrame, *,
                   opt_columns: tuple[str, str] = ("acc", "Delta_EOd"),
                   rr_columns: tuple[str, str] = ("acc", "Delta_EOd")) -> pd.DataFrame:
    """Each reading's OPT rows against the RR rows, judged by :func:`~.checks.two_step_checks`.

    Parameters
    ----------
    explored : DataFrame
        :func:`explore_asym`'s rows.
    rr : DataFrame
        RR rows with ``dataset, mechanism, epsilon, seed`` and ``rr_columns`` (the committed ``fig6``).
    opt_columns, rr_columns : (str, str)
        The accuracy and ``Delta_EOd`` columns judged: OPT's (default: mixing with the
        posterior; ``("acc_true_a", "Delta_EOd_true_a")``: ``t`` on the true attribute) and
        RR's (default: true test attribute; ``("acc_private_test", "Delta_EOd_private_test")``:
        the authors' RR branch).

    Returns
    -------
    DataFrame
        One row per reading: the unknowns, ``adult_held`` / ``lsac_held`` (statements
        held, as ``k/n``), ``all_held`` and the mean OPT - RR differences of accuracy and
        ``Delta_EOd`` at each epsilon (``d_acc@<eps>_<dataset>``, ``d_eod@<eps>_<dataset>``).
    """
    from .checks import two_step_checks

    keys = ["dataset", "mechanism", "epsilon", "seed"]
    rr = rr[rr["mechanism"] == "RR"]
    rr = rr[rr["seed"].isin(set(explored["seed"])) & rr["dataset"].isin(set(explored["dataset"]))]
    rr = rr[keys + list(rr_columns)].rename(columns={rr_columns[0]: "acc", rr_columns[1]: "Delta_EOd"})
    rr_mean = rr.groupby(["dataset", "epsilon"])[["acc", "Delta_EOd"]].mean()
    out = []
    for label, part in explored.groupby("reading", sort=False):
        part = part.drop(columns=[c for c in ("acc", "Delta_EOd") if c not in opt_columns])
        part = part.rename(columns={opt_columns[0]: "acc", opt_columns[1]: "Delta_EOd"})
        frame = pd.concat([part[keys + ["acc", "Delta_EOd"]], rr])
        _, checks = two_step_checks(frame)
        row: dict = {"reading": label, **{k: part[k].iloc[0] for k in ASYM_UNKNOWNS}}
        for ds in ("adult", "lsac"):
            held = [v for k, v in checks.items() if k.lower().startswith(ds)]
            row[f"{ds}_held"] = f"{sum(held)}/{len(held)}"
        row["all_held"] = bool(checks) and all(checks.values())
        row["fallback_share"] = float(part["fallback_used"].mean())
        mean = part.groupby(["dataset", "epsilon"])[["acc", "Delta_EOd"]].mean()
        for (ds, eps), v in mean.iterrows():
            row[f"d_acc@{eps:g}_{ds}"] = float(v["acc"] - rr_mean.at[(ds, eps), "acc"])
            row[f"d_eod@{eps:g}_{ds}"] = float(v["Delta_EOd"] - rr_mean.at[(ds, eps), "Delta_EOd"])
        out.append(row)
    return pd.DataFrame(out)


#: What ``judge_readings(explore_asym(asym_readings("grid"), seeds=20), committed fig6)`` gave
#: (recorded; rerun those two calls to recompute it, about 3 CPU minutes): every one of the
#: 72 readings (16 distinct outcomes: the fallback never fired, the beta clip does not enter
#: the gaps across Z) holds the same statements of :func:`~.checks.two_step_checks`;
#: ``base`` holds the base reading's mean (acc, Delta_EOd) of OPT and of the committed RR
#: runs per epsilon, and ``eps_lower`` the epsilons where a reading's OPT Delta_EOd is below RR's.
#: The verdicts are the same with ``rr_columns`` = the authors' RR branch (privatised test
#: attribute) and with ``opt_columns`` = ``t`` on the true test attribute.
ASYM_EXPLORATION: dict = {
    "readings": 72, "distinct": 16, "fallback_share": 0.0,
    "held": {"adult": "1/2", "lsac": "1/2"},
    "failed": {"adult": "OPT Delta_EOd < RR at every eps >= 4",
               "lsac": "OPT Delta_EOd < RR at most eps"},
    "eps_lower": {"adult_ge4": "{10} (10 distinct outcomes) or at none (6)", "lsac": "{2, 10}"},
    "base": {
        "adult": {0.5: (0.8104, 0.0528, 0.7720, 0.0450), 1: (0.8140, 0.0436, 0.7918, 0.0536),
                  2: (0.8044, 0.0343, 0.8052, 0.0409), 4: (0.8077, 0.0345, 0.8094, 0.0275),
                  8: (0.8084, 0.0373, 0.8118, 0.0263), 10: (0.8071, 0.0341, 0.8087, 0.0343)},
        "lsac": {0.5: (0.9493, 0.0008, 0.9493, 0.0001), 1: (0.9494, 0.0059, 0.9492, 0.0043),
                 2: (0.9492, 0.0025, 0.9494, 0.0068), 4: (0.9494, 0.0074, 0.9492, 0.0048),
                 8: (0.9494, 0.0061, 0.9492, 0.0043), 10: (0.9494, 0.0038, 0.9494, 0.0062)},
    },
}


def asym_finding(summary: dict | None = None) -> str:
    """One paragraph: the readings of ``_asym`` tried and what they give (:data:`ASYM_EXPLORATION`)."""
    s = ASYM_EXPLORATION if summary is None else summary
    tried = "; ".join(f"{k} in {{{', '.join(v)}}}" for k, v in ASYM_UNKNOWNS.items())
    ad, ls = s["base"]["adult"], s["base"]["lsac"]

    def pair(d: dict, eps: tuple[float, ...], i: int) -> str:
        opt = "/".join(f"{d[e][i]:.3f}" for e in eps)
        return opt + " vs RR " + "/".join(f"{d[e][i + 2]:.3f}" for e in eps)

    held, failed, lower = s["held"], s["failed"], s["eps_lower"]
    parts = [
        f"Rebuilt as readings ({tried}; {s['readings']} combinations, {s['distinct']} distinct outcomes, "
        "the corner fallback never fired): every reading holds Adult "
        f"{held['adult']} and LSAC {held['lsac']} of the statements",
        f"it fails Adult's '{failed['adult']}' (OPT lower only at eps in {lower['adult_ge4']}) and "
        f"LSAC's '{failed['lsac']}' (OPT lower at eps in {lower['lsac']})",
        "the same verdicts against the authors' RR branch (privatised test attribute) and with t "
        "applied to the true test attribute. The base reading (error objective, beta clipped into "
        "[0, 1], base-rate fallback, training prior, de-biased gaps) makes OPT more accurate than RR "
        f"on Adult at small eps and as accurate at large eps (accuracy at eps = 0.5/1: "
        f"{pair(ad, (0.5, 1), 0)}; at 4/8/10: {pair(ad, (4, 8, 10), 0)}) but not fairer "
        f"(Delta_EOd at eps = 4/8/10: {pair(ad, (4, 8, 10), 1)})",
        f"on LSAC, Delta_EOd at 0.5/.../10: {pair(ls, (0.5, 1, 2, 4, 8, 10), 1)}",
    ]
    return "; ".join(parts)
