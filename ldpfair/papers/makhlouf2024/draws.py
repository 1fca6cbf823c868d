"""Makhlouf et al. (2024): Synthetic dataset 1 from the authors' files and from regenerated draws.

The committed grids hold, next to the authors' ``S1_*.csv`` files, regenerated draws
of Synthetic 1 (``S1_<t>_draw<k>``): :func:`draw_runs` reads them in place of the
authors' data, :func:`agreement_by_source` and :func:`draw_claims` compare the two,
and :func:`synthetic_cells` shows why they differ (cells with P(Y=1) near 0.5).

The claims over many more draws are checked without fitting forests.

Synthetic dataset 1 has three discrete features, so the data are 12 cells (C, A, M)
and a forest trained on 90,000 rows predicts, for each test cell, the majority label
of the training rows that *report* that cell. With k-RR applied to the training
rows' sensitive attributes (channel ``Q``), the reported cell ``c'`` holds
``sum_c p(c) Q(c, c')`` of the rows, of which ``sum_c p(c) P(Y=1|c) Q(c, c')`` are
positive; the prediction for test cell ``c`` is 1 iff that share exceeds 1/2. This
**population (Bayes) forest** gives every group rate of every setting and epsilon
from the cell frequencies alone, in milliseconds: :func:`population_summary`. It
ignores the run-to-run noise of the forest (bootstrap, folds, k-RR draws), so it is
checked against the forests on the authors' files and on draw 0 before it is used
to count which claims survive in many draws (:func:`claims_over_draws`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .aggregate import DISPARITY, summary
from .checks import fig6_trends, figure_agreement
from .claims import claims
from .experiments import EPSILONS, SETTINGS

__all__ = ["agreement_by_source", "available_draws", "claims_over_draws", "draw_claims", "draw_runs",
           "fig6_over_draws", "grr_channel", "population_gap", "population_rates", "population_summary",
           "synthetic_cells"]

_DOMAINS = {"A": 2, "C": 2, "M": 3}
_ORDER = ("A", "C", "M")


def draw_runs(runs: pd.DataFrame, draw: int | None) -> pd.DataFrame:
    """``runs`` with Synthetic 1 taken from regenerated draw ``draw`` (``None``: the authors' files).

    The rows of ``S1_<t>_draw<k>`` are renamed ``S1_<t>`` so that every function of the
    chapter (figures, claims, agreement) reads them in place of the authors' data.
    """
    base = ~runs["data"].astype(str).str.contains("_draw")
    if draw is None:
        return runs[base].reset_index(drop=True)
    suffix = f"_draw{int(draw)}"
    sel = runs["data"].astype(str).str.endswith(suffix)
    if not sel.any():
        raise ValueError(f"invalid draw={draw!r}: no committed runs of S1_*{suffix}")
    keep = runs[base & ~runs["data"].astype(str).str.startswith("S1_")]
    swapped = runs[sel].assign(data=runs.loc[sel, "data"].str.removesuffix(suffix))
    return pd.concat([keep, swapped], ignore_index=True)


def available_draws(runs: pd.DataFrame) -> list[int]:
    """The regenerated draws of Synthetic 1 present in ``runs`` (all three thresholds)."""
    data = set(runs["data"].astype(str))
    return [k for k in sorted({int(d.rsplit("_draw", 1)[1]) for d in data if "_draw" in d})
            if all(f"{b}_draw{k}" in data for b in ("S1_0.44", "S1_0.52", "S1_0.6"))]


def agreement_by_source(runs: pd.DataFrame, authors: pd.DataFrame,
                        items: Sequence[str] = ("Figure 3a", "Figure 4a", "Figure 7")) -> pd.DataFrame:
    """Share of each synthetic figure's plotted means that agree with the authors' runs, per data source.

    Rows: ``items``; columns: ``authors' files`` and ``draw k`` for every available draw
    (:func:`available_draws`), each the share of :func:`figure_agreement`.
    """
    out = pd.DataFrame(index=list(items))
    for d in [None, *available_draws(runs)]:
        name = "authors' files" if d is None else f"draw {d}"
        r = draw_runs(runs, d)
        if not r["data"].isin(["S1_0.44", "S1_0.52", "S1_0.6"]).any():
            continue
        out[name] = [float(figure_agreement(r, authors, it)["agrees"].mean()) for it in items]
    return out


def draw_claims(runs: pd.DataFrame, draws: Sequence[int | None]) -> pd.DataFrame:
    """Verdict and share of passing checks of every claim, per synthetic source.

    Returns one row per claim with a column ``<source>`` (verdict) and
    ``<source> share`` per entry of ``draws`` (``authors`` for ``None``, ``draw k``).
    """
    out: dict[str, dict[str, Any]] = {}
    for d in draws:
        name = "authors" if d is None else f"draw {d}"
        for c in claims(summary(draw_runs(runs, d))):
            row = out.setdefault(c.id, {"claim": c.id})
            row[name] = c.verdict
            row[f"{name} share"] = float(np.mean([bool(v) for v in c.checks.values()]))
    return pd.DataFrame(list(out.values()))


def synthetic_cells(n_draws: int = 20, n: int = 100_000) -> pd.DataFrame:
    """P(Y=1 | C, A, M) of each of the 12 cells in the authors' files and in regenerated draws.

    The forest predicts the majority label of each cell, so a cell with P(Y=1) near 0.5
    decides the noLDP rates. Draw ``k`` is the loader's ``seed=k`` (draw 0 = ``S1_*_draw0``).

    Returns
    -------
    pandas.DataFrame
        Columns ``variant, quantile, source, draw, cell, n, p`` (``cell`` = ``"C A M"``).
    """
    from ...datasets import load

    if isinstance(n_draws, bool) or not isinstance(n_draws, int) or n_draws < 1:
        raise ValueError(f"invalid n_draws={n_draws!r}; valid: a positive integer")
    rows = []

    def cells(frame: pd.DataFrame, **labels: Any) -> None:
        g = frame.groupby(["C", "A", "M"])["Y"].agg(["size", "mean"])
        for (c, a, m), r in g.iterrows():
            rows.append({**labels, "cell": f"{c} {a} {m}", "n": int(r["size"]), "p": float(r["mean"])})

    for q in (0.25, 0.5, 0.75):
        cells(load("synthetic_makhlouf", quantile=q, variant=1, source="authors").frame,
              variant=1, quantile=q, source="authors", draw=-1)
        for v in (1, 2):
            for k in range(n_draws):
                frame = load("synthetic_makhlouf", quantile=q, variant=v, n=n, seed=k,
                             source="generate").frame
                cells(frame, variant=v, quantile=q, source="generate", draw=k)
    return pd.DataFrame(rows)


def grr_channel(k: int, eps: float) -> np.ndarray:
    """The k x k channel of k-RR (GRR) at budget ``eps``: keep w.p. e^eps / (e^eps + k - 1)."""
    if k < 2:
        raise ValueError(f"invalid k={k!r}; valid: an integer >= 2")
    if not eps > 0:
        raise ValueError(f"invalid eps={eps!r}; valid: a positive number")
    q = 1.0 / (math.exp(eps) + k - 1)
    out = np.full((k, k), q)
    np.fill_diagonal(out, math.exp(eps) * q)
    return out


def _channel(setting: str, eps: float) -> np.ndarray:
    """12 x 12 channel over the cells (A, C, M) in :data:`_ORDER`, C-order."""
    eye = {a: np.eye(k) for a, k in _DOMAINS.items()}
    if setting == "noLDP":
        mats = [eye[a] for a in _ORDER]
    elif setting == "sLDP":
        mats = [grr_channel(2, eps), eye["C"], eye["M"]]
    elif setting == "combLDP":
        return grr_channel(int(np.prod(list(_DOMAINS.values()))), eps)
    elif setting == "indLDP":
        total = sum(_DOMAINS.values())
        mats = [grr_channel(_DOMAINS[a], eps * _DOMAINS[a] / total) for a in _ORDER]
    else:
        raise ValueError(f"invalid setting={setting!r}; valid: {', '.join(SETTINGS)}")
    out: np.ndarray = mats[0]
    for m in mats[1:]:
        out = np.kron(out, m)
    return out


def population_rates(frame: pd.DataFrame, setting: str, eps: float) -> dict[str, float]:
    """Group rates of the population forest for one setting and epsilon.

    Parameters
    ----------
    frame : pandas.DataFrame
        Columns A, C, M, Y (Synthetic dataset 1 or 2).
    setting : {"noLDP", "sLDP", "combLDP", "indLDP"}
    eps : float
        Budget (ignored for noLDP).

    Returns
    -------
    dict
        ``<R>_maj, <R>_min`` for R in SP, EO, PE, OA, PRP (maj = A 1), the disparities
        and ``acc``; precision is 0 for a group with no positive prediction (the
        authors' ``precision_score``).
    """
    return _rates_of_cells(_cell_frequencies(frame), setting, eps)


def _cell_frequencies(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``P(cell)``, ``P(cell, Y=1)`` and the A value of every cell of A x C x M, in product order."""
    cells = list(itertools.product(*(range(_DOMAINS[a]) for a in _ORDER)))
    idx = pd.MultiIndex.from_tuples(cells, names=list(_ORDER))
    g = frame.groupby(list(_ORDER))["Y"].agg(["size", "sum"]).reindex(idx, fill_value=0)
    p = g["size"].to_numpy(float) / len(frame)
    p1 = g["sum"].to_numpy(float) / len(frame)  # P(cell, Y=1)
    return p, p1, np.array([c[0] for c in cells])


def _rates_of_cells(freq: tuple[np.ndarray, np.ndarray, np.ndarray], setting: str,
                    eps: float) -> dict[str, float]:
    """:func:`population_rates` from the cell frequencies of :func:`_cell_frequencies`."""
    p, p1, a = freq
    q = _channel(setting, eps)
    pred = (p1 @ q > 0.5 * (p @ q)).astype(float)  # majority label of the rows reporting each cell
    out: dict[str, float] = {}
    for grp, val in (("maj", 1), ("min", 0)):
        s = a == val
        n, pos, neg = p[s].sum(), p1[s].sum(), (p - p1)[s].sum()
        tp, fp = (p1 * pred)[s].sum(), ((p - p1) * pred)[s].sum()
        out[f"SP_{grp}"] = (tp + fp) / n
        out[f"EO_{grp}"] = tp / pos if pos > 0 else np.nan
        out[f"PE_{grp}"] = fp / neg if neg > 0 else np.nan
        out[f"OA_{grp}"] = (tp + neg - fp) / n
        out[f"PRP_{grp}"] = tp / (tp + fp) if tp + fp > 0 else 0.0
    for rate, d in DISPARITY.items():
        out[d] = out[f"{rate}_maj"] - out[f"{rate}_min"]
    out["acc"] = float((p1 * pred).sum() + ((p - p1) * (1 - pred)).sum())
    return out


def population_summary(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`population_rates` of every setting and epsilon, as rows of a chapter summary.

    ``frames`` maps result names (``S1_0.44`` ...) to data; epsilon is ``inf`` for noLDP.
    """
    rows = []
    for name, frame in frames.items():
        freq = _cell_frequencies(frame)  # once per data set, not per setting and epsilon
        rows.append({"data": name, "setting": "noLDP", "epsilon": math.inf,
                     **_rates_of_cells(freq, "noLDP", math.inf)})
        for s in SETTINGS[1:]:
            for e in EPSILONS:
                rows.append({"data": name, "setting": s, "epsilon": e, **_rates_of_cells(freq, s, e)})
    return pd.DataFrame(rows)


def claims_over_draws(summ: pd.DataFrame, n_draws: int = 20,
                      seeds: Sequence[int] | None = None) -> pd.DataFrame:
    """Verdict of every claim with Synthetic 1 from the population forest of each draw.

    Parameters
    ----------
    summ : pandas.DataFrame
        Summary of our forests (COMPAS, Adult and Synthetic 2 are taken from it).
    n_draws : int
        Regenerated draws (loader seeds ``0 .. n_draws - 1``), unless ``seeds`` is given.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``authors' files`` (population forest on the authors' files),
        then one column per draw, ``survives``: the share of draws whose verdict
        equals the one on the authors' files, and ``checks changed``: the mean number of
        the claim's checks whose outcome differs from the authors' files.
    """
    from ...datasets import load

    seeds = list(range(n_draws)) if seeds is None else list(seeds)
    other = summ[~summ["data"].astype(str).str.startswith("S1_")]
    quantiles = {"S1_0.44": 0.25, "S1_0.52": 0.5, "S1_0.6": 0.75}
    cols: dict[str, dict[str, str]] = {}
    checks: dict[str, dict[str, dict[str, bool]]] = {}
    for label, kw in [("authors' files", {"source": "authors"})] + [
            (f"draw {k}", {"source": "generate", "seed": k, "n": 100_000}) for k in seeds]:
        frames = {name: load("synthetic_makhlouf", quantile=q, variant=1, **kw).frame
                  for name, q in quantiles.items()}
        ps = pd.concat([other, population_summary(frames)], ignore_index=True)
        found = claims(ps)
        cols[label] = {c.id: c.verdict for c in found}
        checks[label] = {c.id: dict(c.checks) for c in found}
    out = pd.DataFrame(cols)
    draws = [c for c in out.columns if c.startswith("draw")]
    out["survives"] = out[draws].eq(out["authors' files"], axis=0).mean(axis=1)
    ref = checks["authors' files"]
    out["checks changed"] = [
        float(np.mean([sum(checks[d][c][k] != v for k, v in ref[c].items()) for d in draws]))
        if draws else np.nan for c in out.index]
    return out.rename_axis("claim").reset_index()


def fig6_over_draws(n_draws: int = 20) -> pd.DataFrame:
    """Share of regenerated Synthetic 2 draws (population forest) in which each Fig. 6 statement holds.

    Returns one row per statement of :func:`~ldpfair.papers.makhlouf2024.checks.fig6_trends`
    (its numbers dropped from the name) with ``holds`` = the share of draws ``0 .. n_draws - 1``.
    """
    from ...datasets import load

    if isinstance(n_draws, bool) or not isinstance(n_draws, int) or n_draws < 1:
        raise ValueError(f"invalid n_draws={n_draws!r}; valid: a positive integer")
    tally: dict[str, list[bool]] = {}
    for k in range(n_draws):
        frames = {f"S2_Q{i + 1}": load("synthetic_makhlouf", quantile=q, variant=2, source="generate",
                                       seed=k, n=100_000).frame
                  for i, q in enumerate((0.25, 0.5, 0.75))}
        for name, ok in fig6_trends(population_summary(frames)).items():
            tally.setdefault(name.split(" (")[0], []).append(ok)
    return pd.DataFrame([{"statement": k, "holds": float(np.mean(v))} for k, v in tally.items()])


def population_gap(authors: pd.DataFrame) -> pd.Series:
    """|population forest - the authors' forests| of every group-rate mean on the authors' S1 files.

    Parameters
    ----------
    authors : pandas.DataFrame
        The authors' per-run results (:func:`~ldpfair.papers.makhlouf2024.authors.authors_runs`).

    Returns
    -------
    pandas.Series
        One absolute difference per (result, setting, epsilon, rate) of Synthetic 1.
    """
    from ...datasets import load

    s1 = {"S1_0.44": 0.25, "S1_0.52": 0.5, "S1_0.6": 0.75}
    pop = population_summary({n: load("synthetic_makhlouf", quantile=q, variant=1, source="authors").frame
                              for n, q in s1.items()})
    rate_cols = [f"{r}_{g}" for r in DISPARITY for g in ("maj", "min")]
    vs = pop.merge(summary(authors[authors["data"].str.startswith("S1")]),
                   on=["data", "setting", "epsilon"], suffixes=("_pop", "_forest"))
    return pd.concat([(vs[f"{c}_pop"] - vs[f"{c}_forest"]).abs() for c in rate_cols])
