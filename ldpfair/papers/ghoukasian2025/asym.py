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
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from ..._validation import check_choice
from ...identity import versioned
from ...interventions import PrivateEqualizedOdds
from ...interventions.private_postprocessing import equalized_odds_from_proba

__all__ = ["ASYM_UNKNOWNS", "AsymReading", "AsymFit", "fit_asym", "asym_readings", "asym_split_metrics",
           "asym_cell", "explored_from_cells", "explore_asym", "judge_readings", "asym_exploration",
           "asym_finding"]

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


def _fig6_opt_generator(dataset: str, epsilon: float, seed: int) -> np.random.Generator:
    """The generator of the committed ``fig6`` OPT task ``(dataset, epsilon, seed)``.

    A sweep task's generator depends only on its function's identity, its parameters and
    its seed, so it is the same in every profile that declares the task.
    """
    from ...experiments import Sweep
    from .baselines import two_step_cell

    params = {"dataset": dataset, "mechanism": "OPT", "epsilon": float(epsilon)}
    return Sweep(two_step_cell, [params], seeds=[int(seed)]).tasks()[0].rng()


@versioned("1", name="ldpfair.papers.ghoukasian2025.asym.asym_cell")
def asym_cell(dataset: str, epsilon: float, fig6_seed: int, *, rng: np.random.Generator) -> dict[str, float]:
    """Every reading of :func:`asym_readings` ``("grid")`` on one split of the committed Fig. 6 OPT runs.

    The split, the privatisation and step 1 are those of the ``fig6`` OPT task
    ``(dataset, epsilon, fig6_seed)``, rebuilt with that task's generator
    (``rng``, the sweep's own, is not used), so the readings are paired with the
    committed runs.

    Returns
    -------
    dict
        ``acc_mozannar`` (Mozannar et al.'s step 2 on the true attribute: the committed
        run's ``acc``) and, for the ``i``-th reading, ``acc_i`` and ``eod_i`` (mixing
        with the posterior of ``Z_test``), ``acc_true_i`` and ``eod_true_i`` (``t`` on
        the true test attribute) and ``fallback_i``.
    """
    return _split_readings(dataset, epsilon, fig6_seed, asym_readings("grid"))


def _split_readings(dataset: str, epsilon: float, fig6_seed: int,
                    readings: list[AsymReading]) -> dict[str, float]:
    """:func:`asym_cell`'s columns for ``readings`` (``i``: the position in ``readings``)."""
    from .baselines import two_step_split

    generator = _fig6_opt_generator(dataset, epsilon, fig6_seed)
    split = two_step_split(dataset, "OPT", float(epsilon), rng=generator)
    pe = PrivateEqualizedOdds(split["p"], split["q"], alpha=1e-4).fit(
        split["yhat2"], split["z2"], split["y"][split["s2"]])
    test = split["test"]
    yt, at = split["y"][test], split["a"][test]
    out = {"acc_mozannar": equalized_odds_from_proba(pe.predict_proba(split["yhat_test"], at), yt, at)["acc"]}
    for i, row in enumerate(asym_split_metrics(split, readings)):
        out.update({f"acc_{i}": row["acc"], f"eod_{i}": row["Delta_EOd"], f"acc_true_{i}": row["acc_true_a"],
                    f"eod_true_{i}": row["Delta_EOd_true_a"], f"fallback_{i}": row["fallback_used"]})
    return out


def explored_from_cells(cells: pd.DataFrame, readings: list[AsymReading] | None = None) -> pd.DataFrame:
    """:func:`asym_cell` rows (one per split) as one row per (split, reading).

    ``readings``: those the cells' columns ``acc_i``, ... belong to, in order (default:
    :func:`asym_readings` ``("grid")``, what :func:`asym_cell` computes).

    Returns
    -------
    DataFrame
        ``dataset, mechanism ("OPT"), epsilon, seed`` (the Fig. 6 seed), ``acc_mozannar``,
        ``reading`` and its unknowns, ``acc, Delta_EOd, acc_true_a, Delta_EOd_true_a,
        fallback_used``.
    """
    parts = []
    for i, r in enumerate(asym_readings("grid") if readings is None else readings):
        part = pd.DataFrame({
            "dataset": cells["dataset"].to_numpy(), "mechanism": "OPT",
            "epsilon": cells["epsilon"].to_numpy(),
            "seed": cells["fig6_seed"].to_numpy(), "acc_mozannar": cells["acc_mozannar"].to_numpy(),
            "reading": r.label, **asdict(r),
            "acc": cells[f"acc_{i}"].to_numpy(), "Delta_EOd": cells[f"eod_{i}"].to_numpy(),
            "acc_true_a": cells[f"acc_true_{i}"].to_numpy(),
            "Delta_EOd_true_a": cells[f"eod_true_{i}"].to_numpy(),
            "fallback_used": cells[f"fallback_{i}"].to_numpy()})
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def explore_asym(readings: list[AsymReading], *, datasets: tuple[str, ...] = ("adult", "lsac"),
                 epsilons: tuple[float, ...] | None = None, seeds: int = 20) -> pd.DataFrame:
    """``readings`` on the committed Fig. 6 OPT splits, computed here (not read), as :func:`asym_cell`.

    Returns
    -------
    DataFrame
        As :func:`explored_from_cells`.
    """
    from .baselines import TWO_STEP_EPSILONS

    cells = [{"dataset": ds, "epsilon": float(e), "fig6_seed": s,
              **_split_readings(ds, float(e), s, readings)}
             for ds in datasets for e in (epsilons or TWO_STEP_EPSILONS) for s in range(seeds)]
    return explored_from_cells(pd.DataFrame(cells), readings)


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
    from .statements import two_step_from_means

    keys = ["dataset", "mechanism", "epsilon", "seed"]
    metrics = ["acc", "Delta_EOd"]
    rr = rr[rr["mechanism"] == "RR"]
    rr = rr[rr["seed"].isin(set(explored["seed"])) & rr["dataset"].isin(set(explored["dataset"]))]
    rr = rr[keys + list(rr_columns)].rename(columns={rr_columns[0]: "acc", rr_columns[1]: "Delta_EOd"})
    rr_mean = rr.groupby(["dataset", "epsilon"])[metrics].mean()
    rr_acc, rr_eod = rr_mean["acc"].to_dict(), rr_mean["Delta_EOd"].to_dict()  # looked up per reading
    # two_step_checks of each reading's rows with the RR rows, from means taken once: a group's mean
    # depends on its own rows only (in their order), so these are the numbers it computed
    rr_by = rr.groupby(keys[:3])[metrics].mean()
    explored = explored.drop(columns=[c for c in metrics if c not in opt_columns])
    explored = explored.rename(columns={opt_columns[0]: "acc", opt_columns[1]: "Delta_EOd"})
    opt_by = explored.groupby(["reading", *keys[:3]])[metrics].mean()
    # every reading's grouped numbers at once (a group's mean is that of its own rows, in order)
    by_reading = explored.groupby("reading", sort=False)
    first = by_reading[list(ASYM_UNKNOWNS)].first()
    fallback = by_reading["fallback_used"].mean()
    means = explored.groupby(["reading", "dataset", "epsilon"], sort=True)[["acc", "Delta_EOd"]].mean()
    out = []
    for label in by_reading.groups:
        _, checks = two_step_from_means(pd.concat([opt_by.loc[label], rr_by]).sort_index())
        row: dict = {"reading": label, **{k: first.at[label, k] for k in ASYM_UNKNOWNS}}
        for ds in ("adult", "lsac"):
            held = [v for k, v in checks.items() if k.lower().startswith(ds)]
            row[f"{ds}_held"] = f"{sum(held)}/{len(held)}"
        row["all_held"] = bool(checks) and all(checks.values())
        row.update({f"check: {k}": bool(v) for k, v in checks.items()})
        row["fallback_share"] = float(fallback.at[label])
        mean = means.loc[label]
        for (ds, eps), acc, eod in zip(mean.index, mean["acc"].to_numpy(), mean["Delta_EOd"].to_numpy(),
                                       strict=True):
            row[f"d_acc@{eps:g}_{ds}"] = float(acc - rr_acc[(ds, eps)])
            row[f"d_eod@{eps:g}_{ds}"] = float(eod - rr_eod[(ds, eps)])
        out.append(row)
    return pd.DataFrame(out)


def asym_exploration(cells: pd.DataFrame, fig6: pd.DataFrame) -> dict[str, Any]:
    """What the readings give on the committed splits: the summary :func:`asym_finding` states.

    Parameters
    ----------
    cells : DataFrame
        The committed ``fig6_asym`` rows (:func:`asym_cell`).
    fig6 : DataFrame
        The committed ``fig6`` rows (the RR runs the readings are judged against).

    Returns
    -------
    dict
        ``readings`` and ``distinct`` (readings with different numbers), ``fallback_share``,
        ``held`` (per dataset, the statements held, as ``k/n`` or a range), ``failed`` (the
        statements no reading holds), ``eps_lower`` (per dataset, the epsilons where OPT's
        ``Delta_EOd`` is below RR's, with the number of readings: Adult at eps >= 4),
        ``same_other_comparisons`` (the same statements held against the authors' RR branch
        and with ``t`` on the true attribute) and ``base`` (the base reading's mean
        ``(acc, Delta_EOd)`` of OPT and RR per dataset and epsilon).
    """
    explored = explored_from_cells(cells)
    judged = judge_readings(explored, fig6)
    checks = [c for c in judged.columns if c.startswith("check: ")]
    other = [judge_readings(explored, fig6, rr_columns=("acc_private_test", "Delta_EOd_private_test")),
             judge_readings(explored, fig6, opt_columns=("acc_true_a", "Delta_EOd_true_a"))]
    same = all(o[checks].equals(judged[checks]) for o in other)
    vectors = explored.groupby("reading", sort=False)[["acc", "Delta_EOd"]].agg(tuple)
    lower: dict[str, dict[str, int]] = {}
    for ds, at_least in (("adult", 4.0), ("lsac", 0.0)):
        cols = [c for c in judged.columns if c.startswith("d_eod@") and c.endswith(f"_{ds}")
                and float(c[6:].split("_")[0]) >= at_least]
        below = judged[cols].to_numpy() < 0
        names = [c[6:].split("_")[0] for c in cols]
        sets = pd.Series([", ".join(n for n, b in zip(names, row, strict=True) if b) or "none"
                          for row in below])
        lower[ds] = {str(k): int(v) for k, v in sets.value_counts().items()}
    base_label = AsymReading().label
    rr = fig6[fig6["mechanism"] == "RR"].groupby(["dataset", "epsilon"])[["acc", "Delta_EOd"]].mean()
    opt = (explored[explored["reading"] == base_label]
           .groupby(["dataset", "epsilon"])[["acc", "Delta_EOd"]].mean())
    base = {ds: {float(e): (float(opt.at[(ds, e), "acc"]), float(opt.at[(ds, e), "Delta_EOd"]),
                            float(rr.at[(ds, e), "acc"]), float(rr.at[(ds, e), "Delta_EOd"]))
                 for e in opt.loc[ds].index}
            for ds in opt.index.get_level_values(0).unique()}

    def span(v: pd.Series) -> str:
        return v.iloc[0] if v.nunique() == 1 else f"{v.min()} to {v.max()}"

    return {"readings": len(judged), "distinct": int(vectors.astype(str).agg("|".join, axis=1).nunique()),
            "fallback_share": float(explored["fallback_used"].mean()),
            "held": {ds: span(judged[f"{ds}_held"]) for ds in ("adult", "lsac")},
            "failed": [c.removeprefix("check: ") for c in checks if not judged[c].any()],
            "eps_lower": lower, "same_other_comparisons": bool(same), "base": base}


def asym_finding(summary: dict[str, Any]) -> str:
    """One paragraph: the readings of ``_asym`` tried and what they give (:func:`asym_exploration`)."""
    s = summary
    tried = "; ".join(f"{k} in {{{', '.join(v)}}}" for k, v in ASYM_UNKNOWNS.items())
    ad, ls = s["base"].get("adult", {}), s["base"].get("lsac", {})

    def pair(d: dict, eps: tuple[float, ...], i: int) -> str:
        eps = tuple(e for e in eps if e in d)
        opt = "/".join(f"{d[e][i]:.3f}" for e in eps)
        return opt + " vs RR " + "/".join(f"{d[e][i + 2]:.3f}" for e in eps)

    def lower(ds: str) -> str:
        return "; ".join(("none" if k == "none" else f"{{{k}}}") + f" in {n}"
                         for k, n in s["eps_lower"].get(ds, {}).items())

    fallback = ("the corner fallback never fired" if s["fallback_share"] == 0
                else f"the corner fallback fired in {s['fallback_share']:.1%} of the fits")
    failed = "; ".join(f"'{f}'" for f in s["failed"]) or "none"
    parts = [
        f"Rebuilt as readings ({tried}; {s['readings']} combinations, {s['distinct']} with different "
        f"numbers, {fallback}) on the committed splits: the readings hold Adult {s['held']['adult']} and "
        f"LSAC {s['held']['lsac']} of the statements; no reading holds {failed} (epsilons where OPT's "
        f"Delta_EOd is below RR's, with the number of readings: Adult, eps >= 4: {lower('adult')}; "
        f"LSAC: {lower('lsac')})",
        ("the same statements hold" if s["same_other_comparisons"] else "other statements hold")
        + " against the authors' RR branch (privatised test attribute) and with t applied to the true "
        "test attribute",
    ]
    if ad:
        parts.append("the base reading (error objective, beta clipped into [0, 1], base-rate fallback, "
                     "training prior, de-biased gaps) gives on Adult accuracy at eps = 0.5/1 "
                     f"{pair(ad, (0.5, 1.0), 0)} and at 4/8/10 {pair(ad, (4.0, 8.0, 10.0), 0)}, Delta_EOd "
                     f"at eps = 4/8/10 {pair(ad, (4.0, 8.0, 10.0), 1)}")
    if ls:
        parts.append(f"on LSAC Delta_EOd at every eps {pair(ls, tuple(sorted(ls)), 1)}")
    return "; ".join(parts)
