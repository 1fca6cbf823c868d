"""Reproduction scoreboard: what each chapter reproduces, computed from the committed results.

Convention (for chapter authors)
--------------------------------
A paper module ``ldpfair/papers/<paper>.py`` MAY expose two functions without
required arguments; the book's *Reproduction scoreboard* page calls them:

``scoreboard() -> pandas.DataFrame``
    One row per figure and table of the paper, in the paper's order, with columns

    - ``item``: as the paper names it (``"Table 1"``, ``"Figure 2"``, ``"Theorem 2"``);
    - ``label``: where it is in the chapter: a MyST target that ``{ref}`` resolves (a
      figure's ``name``, a ``(label)=`` target), or ``"#<heading-anchor>"`` for a
      section of the chapter (GitHub-style slug of the heading, e.g. ``"#table-1"``);
    - ``status``: one of :data:`STATUSES`, **computed** from the committed results
      with :func:`item_status` (never typed): ``"not yet"`` when the results are
      missing, otherwise the verdict of the item's checks (all pass: reproduced,
      some: partly, none: not reproduced);
    - ``evidence`` (optional): one line saying what was checked, with numbers.

    Use :func:`committed` to read the committed results (it never computes) and
    :func:`cell_agrees` / :func:`item_status` to judge them.

``committed_claims() -> list[ldpfair.reporting.Claim]``
    The paper's claims checked on the committed paper-profile results (the same
    :class:`~ldpfair.reporting.Claim` objects the chapter shows). A zero-argument
    ``claims()`` is accepted as well.

A paper without these functions (or without a module) appears with one row
``"not yet reproduced"``. :func:`scoreboard` and :func:`claims_overview` gather
all five papers; :func:`scoreboard_markdown` renders the page's table with links.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from .reporting import Claim, verdict
from .verdicts import ITEM_COLUMNS, NO_CAUSE, STATUSES, VERDICTS

__all__ = [
    "STATUSES",
    "COLUMNS",
    "cell_agrees",
    "item_status",
    "results_status",
    "committed",
    "paper_scoreboard",
    "paper_claims",
    "scoreboard",
    "claims_overview",
    "summary",
    "scoreboard_markdown",
    "published_checks",
]

#: Required columns of a paper's ``scoreboard()``.
COLUMNS: tuple[str, str, str] = ("item", "label", "status")
_ICON = {"reproduced": "✅", "partly": "🟡", "not reproduced": "❌", "verified": "☑", "new result": "✳",
         "not yet": "⏳"}


def cell_agrees(
    ours_mean: float,
    ours_std: float,
    ours_n: int,
    paper_mean: float,
    paper_std: float | None = None,
    paper_n: int | None = None,
    *,
    level: float = 0.95,
    atol: float = 0.0,
) -> bool:
    """Whether a published mean agrees with ours.

    The difference of the means must lie within the two-sided Welch interval of
    the difference at ``level`` (the paper's std and n when published, else only
    ours) widened by ``atol`` (e.g. the rounding of the published numbers). NaN
    inputs (a cell we do not have) do not agree.
    """
    values = [ours_mean, ours_std, paper_mean]
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values) or ours_n < 1:
        return False
    var = (ours_std**2) / ours_n if ours_n > 1 else 0.0
    dof = max(ours_n - 1, 1)
    if paper_std is not None and paper_n and not math.isnan(paper_std):
        vp = paper_std**2 / paper_n
        num = (var + vp) ** 2
        den = (var**2 / max(ours_n - 1, 1)) + (vp**2 / max(paper_n - 1, 1))
        dof = num / den if den > 0 else dof
        var += vp
    half = stats.t.ppf(0.5 + level / 2, dof) * math.sqrt(var)
    return bool(abs(ours_mean - paper_mean) <= half + atol)


def item_status(checks: Mapping[str, bool] | Iterable[bool], *, present: int | None = None,
                total: int | None = None) -> str:
    """Status of a figure or table: ``"not yet"`` without results, else the checks' verdict.

    Parameters
    ----------
    checks : mapping or iterable of bool
        The item's checks on the committed results.
    present : int, optional
        Number of committed result rows; 0 means "not yet".
    total : int, optional
        Number of rows the paper profile declares. While ``0 < present < total``
        (a computation still in progress) the item is at best ``"partly"``
        reproduced: a missing run counts as a failed check.
    """
    values = list(checks.values()) if isinstance(checks, Mapping) else list(checks)
    if present == 0 or not values:
        return "not yet"
    if present is not None and total is not None and present < total:
        values.append(False)
    return verdict(values)


def results_status(checks: Mapping[str, bool] | Iterable[bool], frame: pd.DataFrame) -> str:
    """:func:`item_status` of an item drawn from one committed results frame.

    ``present`` and ``total`` are read from ``frame.attrs["coverage"]`` (as
    :func:`committed` and :func:`ldpfair.experiments.run` set it).
    """
    cov = frame.attrs["coverage"]
    return item_status(checks, present=int(cov["present"]), total=int(cov["total"]))


def committed(paper: str, name: str) -> pd.DataFrame:
    """Committed paper-profile results ``results/<paper>/<name>`` of a declared experiment.

    Never computes: missing cells are simply absent (``attrs["coverage"]`` says how
    many are present; an empty frame when nothing is committed).
    """
    from .experiments import load_results
    from .papers import declared

    for p, n, grid, path in declared("paper", paper):
        if p == paper and n == name:
            frame, cov = load_results(grid, path)
            frame.attrs["coverage"] = cov
            return frame
    raise ValueError(f"{paper} declares no paper-profile experiment {name!r}")


def _call(fn: Callable[[], Any], what: str) -> Any:
    required = [p for p in inspect.signature(fn).parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if required:
        return None
    return fn()


def paper_scoreboard(paper: str) -> pd.DataFrame:
    """The validated ``scoreboard()`` of one paper (a "not yet reproduced" row without one).

    Raises
    ------
    ValueError
        If the paper's scoreboard lacks a column of :data:`COLUMNS` or uses an
        unknown status.
    """
    from .papers import module

    mod = module(paper)
    fn = getattr(mod, "scoreboard", None) if mod is not None else None
    table = _call(fn, "scoreboard") if callable(fn) else None
    if table is None:
        return pd.DataFrame([{"item": "all figures and tables", "label": paper, "status": "not yet",
                              "evidence": "not yet reproduced"}])
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{paper}.scoreboard() lacks columns {missing}; required: {list(COLUMNS)}")
    bad = sorted(set(table["status"]) - set(STATUSES))
    if bad:
        raise ValueError(f"{paper}.scoreboard() has unknown statuses {bad}; valid: {list(STATUSES)}")
    table = table.copy()
    # rows not (yet) made by ldpfair.verdicts.score_item: fill the ledger columns
    defaults = {"evidence": "", "share": float("nan"), "numbers": 0, "reason": "", "cause_label": ""}
    for col, val in defaults.items():
        if col not in table.columns:
            table[col] = val
    if "cause" not in table.columns:
        bad = table["status"].isin(["partly", "not reproduced"])
        table["cause"] = np.where(bad, "unexplained", NO_CAUSE)
        table.loc[bad, "reason"] = "no cause recorded yet"
    return table[list(ITEM_COLUMNS)].reset_index(drop=True)


def paper_claims(paper: str) -> list[Claim]:
    """The claims of one paper checked on its committed results (empty when it has none yet)."""
    from .papers import module

    mod = module(paper)
    if mod is None:
        return []
    for name in ("committed_claims", "claims"):
        fn = getattr(mod, name, None)
        if callable(fn):
            out = _call(fn, name)
            if out is not None:
                return list(out)
    return []


def scoreboard(papers: Sequence[str] | None = None) -> pd.DataFrame:
    """Every paper's scoreboard in one frame (columns ``paper`` + :data:`COLUMNS` + ``evidence``)."""
    from .papers import PAPERS

    frames = [paper_scoreboard(p).assign(paper=p) for p in (papers or PAPERS)]
    return pd.concat(frames, ignore_index=True)[["paper", *ITEM_COLUMNS]]


def claims_overview(papers: Sequence[str] | None = None) -> pd.DataFrame:
    """Every paper's claims: paper, claim, statement, checks passed, verdict."""
    from .papers import PAPERS

    rows = []
    for p in papers or PAPERS:
        for c in paper_claims(p):
            passed = sum(bool(v) for v in c.checks.values())
            rows.append({"paper": p, "claim": c.id, "statement": c.statement,
                         "checks passed": f"{passed}/{len(c.checks)}", "verdict": c.verdict})
    return pd.DataFrame(rows, columns=["paper", "claim", "statement", "checks passed", "verdict"])


def summary(board: pd.DataFrame, claims: pd.DataFrame) -> pd.DataFrame:
    """Per paper: how many items and claims have each status."""
    rows = []
    for p in dict.fromkeys(board["paper"]):
        b = board[board["paper"] == p]
        c = claims[claims["paper"] == p] if len(claims) else claims
        row: dict[str, Any] = {"paper": p}
        for s in STATUSES:
            row[f"items {s}"] = int((b["status"] == s).sum())
        for s in VERDICTS:
            row[f"claims {s}"] = int((c["verdict"] == s).sum()) if len(c) else 0
        rows.append(row)
    return pd.DataFrame(rows)


def _escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _link(item: str, label: str, paper: str, chapter: Callable[[str], str]) -> str:
    if label.startswith("#"):
        return f"[{_escape(item)}]({chapter(paper)}{label})"
    if label == paper:
        return f"{{doc}}`{_escape(item)} <{chapter(paper).removesuffix('.md')}>`"
    return f"{{ref}}`{_escape(item)} <{label}>`"


def scoreboard_markdown(
    board: pd.DataFrame,
    claims: pd.DataFrame | None = None,
    *,
    chapter: Callable[[str], str] = lambda p: f"../notebooks/{p}.md",
    titles: Mapping[str, str] | None = None,
) -> str:
    """The scoreboard as MyST Markdown: one table per paper, items linked to the chapter.

    Parameters
    ----------
    board : DataFrame
        Output of :func:`scoreboard`.
    claims : DataFrame, optional
        Output of :func:`claims_overview`; a paper's claims follow its table.
    chapter : callable
        Paper name -> path of its chapter relative to the page showing the table.
    titles : mapping, optional
        Paper name -> heading (default: the paper name).
    """
    out: list[str] = []
    for p in dict.fromkeys(board["paper"]):
        b = board[board["paper"] == p]
        title = (titles or {}).get(p, p)
        out.append(f"### {title}\n")
        out.append(f"Chapter: {{doc}}`{chapter(p).removesuffix('.md')}`\n")
        out.append("| item | status | evidence |\n|---|---|---|")
        for r in b.itertuples(index=False):
            out.append(f"| {_link(r.item, r.label, p, chapter)} | {_ICON[r.status]} {r.status} | "
                       f"{_escape(r.evidence)} |")
        out.append("")
        c = claims[claims["paper"] == p] if claims is not None and len(claims) else None
        if c is not None and len(c):
            out.append("| claim | statement | checks passed | verdict |\n|---|---|---|---|")
            for r in c.itertuples(index=False):
                out.append(f"| {_escape(r.claim)} | {_escape(r.statement)} | {r[3]} | "
                           f"{_ICON[r.verdict]} {r.verdict} |")
            out.append("")
        elif claims is not None:
            out.append("*No claims checked yet.*\n")
    return "\n".join(out)


def _as_float(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return float("nan")


def published_checks(
    results: pd.DataFrame,
    paper: pd.DataFrame,
    by: Sequence[str],
    metrics: Sequence[str],
    *,
    paper_n: int | None = None,
    level: float = 0.95,
    atol: float = 0.0,
) -> dict[str, bool]:
    """One check per published cell and metric: whether the published mean agrees with ours.

    Parameters
    ----------
    results : DataFrame
        Our tidy per-run results.
    paper : DataFrame
        Published values: the ``by`` columns, each metric, and optionally ``<metric>_std``.
    by, metrics : sequence of str
        Identifying columns and metrics.
    paper_n : int, optional
        Number of runs behind the published means (enables the paper's std in the interval).
    level, atol
        As in :func:`cell_agrees`.
    """
    by, metrics = list(by), list(metrics)
    g = results.groupby(by)[metrics] if len(results) else None
    checks: dict[str, bool] = {}
    for row in paper.itertuples(index=False):
        r = row._asdict()
        key = tuple(r[c] for c in by)
        name = ", ".join(str(k) for k in key)
        for m in metrics:
            ok = False
            if g is not None:
                vals = np.array([])
                for k in (key, key[0]) if len(key) == 1 else (key,):
                    try:
                        vals = g.get_group(k)[m].to_numpy(float)
                        break
                    except KeyError:
                        continue
                vals = vals[~np.isnan(vals)]
                if len(vals):
                    ok = cell_agrees(float(vals.mean()), float(vals.std(ddof=1)) if len(vals) > 1 else 0.0,
                                     len(vals), _as_float(r[m]), _as_float(r.get(f"{m}_std")),
                                     paper_n, level=level, atol=atol)
            checks[f"{name}: {m}"] = ok
    return checks
