"""Reproduction scoreboard and discrepancy ledger, computed from the committed results.

Every chapter's :class:`~ldpfair.papers.contract.PaperSpec` (``ldpfair.papers.<paper>.SPEC``)
gives two functions without arguments; the book's *Reproduction scoreboard* page calls them:

``SPEC.scoreboard() -> pandas.DataFrame``
    One row per figure and table of the paper, in the paper's order, each made by
    :func:`ldpfair.verdicts.score_item` (columns :data:`ldpfair.verdicts.ITEM_COLUMNS`):

    - ``item``: as the paper names it (``"Table 1"``, ``"Figure 2"``, ``"Theorem 2"``);
    - ``label``: where it is in the chapter: a MyST target that ``{ref}`` resolves (a
      figure's ``name``, a ``(label)=`` target), or ``"#<heading-anchor>"`` for a
      section of the chapter (GitHub-style slug of the heading, e.g. ``"#table-1"``);
    - ``status`` and ``share``: **computed** from the committed results by the rules
      of :mod:`ldpfair.verdicts` (never typed);
    - ``cause``, ``reason``, ``cause_label``: the discrepancy ledger entry of an item
      that is not reproduced (``-`` otherwise);
    - ``evidence``: one line saying what was checked, with numbers.

    Chapters read the committed results with :func:`ldpfair.papers.committed` (it never computes).

``SPEC.claims() -> list[ldpfair.reporting.Claim]``
    The paper's claims checked on the committed paper-profile results (the same
    :class:`~ldpfair.reporting.Claim` objects the chapter shows), each claim that is
    not reproduced with its ``cause``.

This module only aggregates over the registry (:data:`ldpfair.papers.PAPERS`): it
names no paper. :func:`scoreboard` and :func:`claims_overview` gather every
chapter; :func:`ledger` lists every discrepancy; :func:`scoreboard_markdown`,
:func:`ledger_markdown`, :func:`verdict_box` and :func:`landing_summary` render them
for the book.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, overload

import numpy as np
import pandas as pd

from . import config
from .reporting import Claim
from .verdict_text import _by_chance, _count, _coverage, _escape, _link, _share, badge, rules_markdown
from .verdicts import (
    CAUSES,
    CHANCE_COLUMNS,
    ITEM_COLUMNS,
    NO_CAUSE,
    NO_CAUSE_RECORDED,
    STATUSES,
    VERDICTS,
    chance,
    chance_words,
    check_ledger,
    failing,
)

__all__ = [
    "CLAIM_VERDICTS",
    "STATUSES",
    "COLUMNS",
    "badge",
    "check_complete",
    "claims_overview",
    "claims_overview_of",
    "computed",
    "evidence_markdown",
    "landing_summary",
    "ledger",
    "ledger_markdown",
    "paper_claims",
    "paper_scoreboard",
    "rules_markdown",
    "scoreboard",
    "scoreboard_markdown",
    "summary",
    "verdict_box",
    "verdict_counts",
]

#: Verdicts of a claim: those of :data:`ldpfair.verdicts.VERDICTS`, and "verified" for a claim
#: checked against our own code or by brute force only (``Claim(verified=True)``).
CLAIM_VERDICTS: tuple[str, ...] = (*VERDICTS, "verified")
#: Required columns of a paper's ``scoreboard()``.
COLUMNS: tuple[str, str, str] = ("item", "label", "status")


def _raise_missing(paper: str) -> None:
    """Raise one line naming the first missing results file of ``paper``'s declared experiments."""
    from .experiments.results import ResultsIntegrityError
    from .papers import declared
    from .papers.running import missing_file

    for p, name, _, path in declared("paper", paper):
        line = missing_file(p, name, path)
        if line:
            raise ResultsIntegrityError(line) from None


def paper_scoreboard(paper: str) -> pd.DataFrame:
    """The validated ``scoreboard()`` of one paper (a "not yet reproduced" row without one).

    Raises
    ------
    ValueError
        If the paper's scoreboard lacks a column of :data:`COLUMNS` or uses an
        unknown status.
    """
    from .papers import spec

    try:
        table = spec(paper).scoreboard()
    except KeyError:  # a column of an empty frame: a declared results file is missing
        _raise_missing(paper)
        raise
    missing = [c for c in COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{paper}.scoreboard() lacks columns {missing}; required: {list(COLUMNS)}")
    bad = sorted(set(table["status"]) - set(STATUSES))
    if bad:
        raise ValueError(f"{paper}.scoreboard() has unknown statuses {bad}; valid: {list(STATUSES)}")
    table = table.copy()
    # rows not (yet) made by ldpfair.verdicts.score_item: fill the ledger columns
    defaults = {"evidence": "", "share": float("nan"), "numbers": 0, "verifications": 0, "disagreeing": 0,
                "covered": 0, "reason": "", "cause_label": "", "summary": ""}
    if "listing" not in table.columns:
        table["listing"] = [()] * len(table)
    for col, val in defaults.items():
        if col not in table.columns:
            table[col] = val
    if any(c not in table.columns for c in CHANCE_COLUMNS):
        odds = [chance(int(r["numbers"]), int(r["disagreeing"])) for r in table.to_dict("records")]
        for c in CHANCE_COLUMNS:
            table[c] = [o[c] for o in odds]
    if "cause" not in table.columns:
        bad = table["status"].isin(["partly", "not reproduced"])
        table["cause"] = np.where(bad, "unexplained", NO_CAUSE)
        table.loc[bad, "reason"] = NO_CAUSE_RECORDED
    return table[list(ITEM_COLUMNS)].reset_index(drop=True)


def paper_claims(paper: str) -> list[Claim]:
    """The claims of one paper checked on its committed results (``SPEC.claims()``)."""
    from .papers import spec

    return list(spec(paper).claims())


def scoreboard(papers: Sequence[str] | None = None) -> pd.DataFrame:
    """Every paper's scoreboard in one frame (columns ``paper`` + :data:`COLUMNS` + ``evidence``)."""
    from .papers import PAPERS

    frames = [paper_scoreboard(p).assign(paper=p) for p in (papers or PAPERS)]
    return pd.concat(frames, ignore_index=True)[["paper", *ITEM_COLUMNS]]


@overload
def computed(papers: Sequence[str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]: ...
@overload
def computed(papers: Sequence[str] | None = None, *,
             cached_only: bool) -> tuple[pd.DataFrame, pd.DataFrame] | None: ...
def computed(papers: Sequence[str] | None = None, *,
             cached_only: bool = False) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """:func:`scoreboard` and :func:`claims_overview`, memoised on disk for one book build.

    With ``cached_only`` the memo is returned when there is one, else ``None``
    (nothing is computed).

    Several pages of the book show the same verdicts (the scoreboard, the ledger,
    the landing page and each chapter's verdict box). The pair is stored under
    ``<cache>/scoreboard/<key>.pkl`` where the key hashes every source file of
    ``ldpfair``, every committed results file and the reference folder's path, so
    any change to the code or to the results recomputes it. The cache folder is
    ``$LDPFAIR_CACHE`` or ``.ldpfair_cache`` in the repository.
    """
    import hashlib
    import os
    import pickle
    import tempfile
    from pathlib import Path

    from .papers import PAPERS

    papers = list(papers or PAPERS)
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(repr((papers, str(config.reference_dir() or ""),
                             str(config.data_dir() or ""))).encode())
    for base, pattern in ((root / "ldpfair", "**/*.py"), (root / "ldpfair", "**/*.json"),
                          (root / "results", "**/*")):
        for f in sorted(base.glob(pattern)):
            if f.is_file():
                h.update(str(f.relative_to(root)).encode())
                h.update(f.read_bytes())
    folder = config.task_cache_dir() / "scoreboard"
    path = folder / f"{h.hexdigest()[:32]}.pkl"
    if path.is_file():
        try:
            with path.open("rb") as fh:
                board, claims = pickle.load(fh)
            return board, claims
        except (OSError, pickle.UnpicklingError, EOFError, ValueError):
            pass  # a damaged memo is recomputed
    if cached_only:
        return None
    board, claims = scoreboard(papers), claims_overview(papers)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((board, claims), fh)
        os.replace(tmp, path)
    except OSError:
        pass  # read-only checkout: no memo, same result
    return board, claims


def claims_overview(papers: Sequence[str] | None = None) -> pd.DataFrame:
    """Every paper's claims (:func:`claims_overview_of` of each paper's ``SPEC.claims()``)."""
    from .papers import PAPERS

    return claims_overview_of({p: paper_claims(p) for p in papers or PAPERS})


def claims_overview_of(claims: Mapping[str, Sequence[Claim]]) -> pd.DataFrame:
    """Claims by paper as rows: paper, claim, statement, checks passed, share, verdict, coverage, cause.

    A claim's ``disagreeing`` are its failing checks; ``covered`` how many of them its
    cause covers (:func:`ldpfair.verdicts.decide_cause`).

    Raises
    ------
    ValueError
        If a claim's decided cause accounts for another number of disagreements than
        the claim's failing checks.
    """
    rows = []
    for p, items in claims.items():
        for c in items:
            passed = sum(bool(v) and v == v for v in c.checks.values())
            n_fail = len(failing(c.checks))
            v = c.verdict
            discrepant = v in ("partly", "not reproduced")
            cause = c.cause if discrepant else None
            covered = 0
            if discrepant and cause is None:
                kind, reason, label, summary = "unexplained", NO_CAUSE_RECORDED, "", NO_CAUSE_RECORDED
            else:
                kind, reason, label, summary = ((cause.kind, cause.text, cause.label, cause.summary)
                                                if cause is not None else (NO_CAUSE, "", "", ""))
            listing = cause.listing() if cause is not None else ()
            if cause is not None and cause.decided:
                if cause.disagreeing != n_fail:
                    raise ValueError(f"{p} claim {c.id}: the cause accounts for {cause.disagreeing} "
                                     f"disagreements, the claim has {n_fail} failing checks")
                covered = cause.covered
            rows.append({"paper": p, "claim": c.id, "statement": c.statement,
                         "checks passed": f"{passed}/{len(c.checks)}",
                         "share": passed / len(c.checks) if c.checks else float("nan"), "verdict": v,
                         "disagreeing": n_fail, "covered": covered,
                         "cause": kind, "reason": reason, "cause_label": label,
                         "summary": summary, "listing": listing,
                         # a self-check (verified claim) is exact: chance gives none
                         **chance(0 if c.verified else len(c.checks), 0 if c.verified else n_fail)})
    return pd.DataFrame(rows, columns=_CLAIM_COLUMNS)


_CLAIM_COLUMNS = ["paper", "claim", "statement", "checks passed", "share", "verdict", "disagreeing",
                  "covered", "cause", "reason", "cause_label", "summary", "listing", *CHANCE_COLUMNS]


def summary(board: pd.DataFrame, claims: pd.DataFrame) -> pd.DataFrame:
    """Per paper: how many items have each status and how many claims each verdict."""
    rows = []
    for p in dict.fromkeys(board["paper"]):
        b = board[board["paper"] == p]
        c = claims[claims["paper"] == p] if len(claims) else claims
        row: dict[str, Any] = {"paper": p}
        for s in STATUSES:
            row[f"items {s}"] = int((b["status"] == s).sum())
        for s in CLAIM_VERDICTS:
            row[f"claims {s}"] = int((c["verdict"] == s).sum()) if len(c) else 0
        rows.append(row)
    return pd.DataFrame(rows)


def ledger(board: pd.DataFrame, claims: pd.DataFrame | None = None) -> pd.DataFrame:
    """The discrepancy ledger: one row per item or claim that is not reproduced.

    Parameters
    ----------
    board : DataFrame
        Output of :func:`scoreboard`.
    claims : DataFrame, optional
        Output of :func:`claims_overview`.

    Returns
    -------
    pandas.DataFrame
        Columns ``paper, kind`` (``"item"`` or ``"claim"``), ``item, status, share,
        disagreeing, covered, cause, reason, label`` (where the chapter shows the evidence; the item's own
        place when the cause names none).
    """
    rows = []

    def extra(r: Mapping[str, Any]) -> dict[str, Any]:
        n = int(r.get("compared", r.get("numbers", 0)) or 0)
        odds = {c: r[c] for c in CHANCE_COLUMNS} if all(c in r for c in CHANCE_COLUMNS) else \
            chance(n, min(int(r.get("disagreeing", 0)), n))
        return {"summary": r.get("summary") or r["reason"], "listing": r.get("listing") or (), **odds}

    for r in board.to_dict("records"):
        if r["status"] in ("partly", "not reproduced"):
            rows.append({"paper": r["paper"], "kind": "item", "item": r["item"], "status": r["status"],
                         "share": r["share"], "disagreeing": int(r.get("disagreeing", 0)),
                         "covered": int(r.get("covered", 0)), "cause": r["cause"], "reason": r["reason"],
                         "label": r["cause_label"] or r["label"], **extra(r)})
    for r in (claims.to_dict("records") if claims is not None else []):
        if r["verdict"] in ("partly", "not reproduced"):
            rows.append({"paper": r["paper"], "kind": "claim", "item": r["claim"], "status": r["verdict"],
                         "share": r["share"], "disagreeing": int(r.get("disagreeing", 0)),
                         "covered": int(r.get("covered", 0)), "cause": r["cause"], "reason": r["reason"],
                         "label": r["cause_label"] or "#claims", **extra(r)})
    return pd.DataFrame(rows, columns=_LEDGER_COLUMNS)


_LEDGER_COLUMNS = ["paper", "kind", "item", "status", "share", "disagreeing", "covered", "cause", "reason",
                   "label", "summary", "listing", *CHANCE_COLUMNS]


def check_complete(board: pd.DataFrame, claims: pd.DataFrame | None = None) -> None:
    """Raise ``ValueError`` unless every discrepancy (item or claim) has a recorded cause.

    Wraps :func:`ldpfair.verdicts.check_ledger` and also rejects the placeholder
    cause that a row gets when its paper recorded none.
    """
    cols = ["paper", "item", "status", "disagreeing", "covered", "cause", "reason"]
    frames = [board.reindex(columns=cols, fill_value=0)]
    if claims is not None and len(claims):
        frames.append(claims.rename(columns={"claim": "item", "verdict": "status"}).reindex(
            columns=cols, fill_value=0))
    both = pd.concat(frames, ignore_index=True)
    check_ledger(both)
    missing = both[both["reason"] == NO_CAUSE_RECORDED]
    if len(missing):
        names = ", ".join(f"{r.paper} {r.item}" for r in missing.itertuples())
        raise ValueError(f"discrepancies without a recorded cause: {names}")


# --------------------------------------------------------------------------- rendering
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
        out.append("| item | status | agree | verif. | covered | by chance | cause | evidence |\n"
                   "|---|---|---|---|---|---|---|---|")
        for r in b.itertuples(index=False):
            out.append(f"| {_link(r.item, r.label, p, chapter)} | {badge(r.status)} | {_share(r.share)} | "
                       f"{_count(r.verifications)} | {_coverage(r)} | {_by_chance(r)} | {_escape(r.cause)} | "
                       f"{_escape(r.evidence)} |")
        out.append("")
        c = claims[claims["paper"] == p] if claims is not None and len(claims) else None
        if c is not None and len(c):
            out.append("| claim | statement | checks passed | verdict | covered | by chance | cause |\n"
                       "|---|---|---|---|---|---|---|")
            for r in c.itertuples(index=False):
                out.append(f"| {_escape(r.claim)} | {_escape(r.statement)} | {r[3]} | "
                           f"{badge(r.verdict)} | {_coverage(r)} | {_by_chance(r)} | {_escape(r.cause)} |")
            out.append("")
        elif claims is not None:
            out.append("*No claims checked yet.*\n")
    return "\n".join(out)


def ledger_markdown(
    table: pd.DataFrame,
    *,
    chapter: Callable[[str], str] = lambda p: f"../notebooks/{p}.md",
    titles: Mapping[str, str] | None = None,
) -> str:
    """The discrepancy ledger as MyST Markdown, grouped by paper, each entry linked to its evidence.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`ledger`.
    chapter, titles
        As in :func:`scoreboard_markdown`.
    """
    out: list[str] = []
    counts = table["cause"].value_counts()
    out.append("**Causes:** " + ", ".join(f"{counts.get(c, 0)} {c}" for c in CAUSES) + "\n")
    for p in dict.fromkeys(table["paper"]):
        t = table[table["paper"] == p]
        out.append(f"### {(titles or {}).get(p, p)}\n")
        for r in t.itertuples(index=False):
            what = f"{r.kind} {r.item}" if r.kind == "claim" else r.item
            done = (f"{int(r.covered)} of {int(r.disagreeing)} disagreements explained" if r.disagreeing
                    else "no disagreement counted")
            reason = str(r.reason)
            if reason.startswith(done + "."):  # the cause's own text already says it
                reason = reason[len(done) + 1:].lstrip()
            odds = chance_words(int(r.compared), int(r.disagreeing)) if int(r.compared or 0) else ""
            out.append(f"- **{_link(what, r.label, p, chapter)}** {badge(r.status)} "
                       f"(agree: {_share(r.share)}; {done}) — {badge(r.cause)} {_escape(reason)}"
                       + (f" *Chance:* {odds}" if odds else ""))
        out.append("")
    if table.empty:
        out.append("*No discrepancies: every item and claim is reproduced or verified.*")
    return "\n".join(out)


def verdict_counts(board: pd.DataFrame, claims: pd.DataFrame | None = None) -> dict[str, int]:
    """Items per status and claims per verdict (keys ``items <status>``, ``claims <verdict>``)."""
    out = {f"items {s}": int((board["status"] == s).sum()) for s in STATUSES}
    for s in CLAIM_VERDICTS:
        out[f"claims {s}"] = int((claims["verdict"] == s).sum()) if claims is not None and len(claims) else 0
    return out


def _count_line(counts: Mapping[str, int], kind: str, statuses: Sequence[str]) -> str:
    parts = [f"{counts[f'{kind} {s}']} {badge(s)}" for s in statuses if counts.get(f"{kind} {s}")]
    return ", ".join(parts) or "none"


def verdict_box(paper: str, *, board: pd.DataFrame | None = None,
                claims: pd.DataFrame | None = None) -> str:
    """The verdict box opening a chapter: counts by status and the cause of each discrepancy.

    Computed from the committed paper-profile results (:func:`paper_scoreboard`,
    :func:`paper_claims`); each discrepancy links down to the chapter section that
    shows its evidence. Returns MyST Markdown (a ``verdict-box`` admonition).
    """
    if board is None or claims is None:
        # the whole book's verdicts when a build has memoised them, else this paper's only (a chapter
        # run alone reads only its own data files)
        all_board, all_claims = computed(cached_only=True) or computed((paper,))
        board = all_board[all_board["paper"] == paper] if board is None else board
        claims = all_claims[all_claims["paper"] == paper] if claims is None else claims
    counts = verdict_counts(board, claims)
    led = ledger(board, claims)
    lines = [":::{admonition} Did it reproduce?", ":class: verdict-box", "",
             f"**Figures and tables:** {_count_line(counts, 'items', STATUSES)}. ",
             f"**Claims:** {_count_line(counts, 'claims', CLAIM_VERDICTS)}.", ""]
    if len(led):
        lines.append("Not reproduced, and why:\n")
        for r in led.itertuples(index=False):
            target = r.label if r.label.startswith("#") else None
            name = f"claim {r.item}" if r.kind == "claim" else r.item
            link = f"[{_escape(name)}]({target})" if target else f"{{ref}}`{_escape(name)} <{r.label}>`"
            why = _escape(str(r.summary).strip())
            odds = chance_words(int(r.compared), int(r.disagreeing)) if int(r.compared or 0) else ""
            lines.append(f"- {link}: {badge(r.status)}, {badge(r.cause)}: {why}"
                         + (f" {odds}" if odds else "")
                         + f" ([cell by cell](#{EVIDENCE_ANCHOR}))")
    else:
        lines.append("Every figure, table and claim compared with the paper is reproduced.")
    lines += ["", "Computed from the committed results by the book's verdict rules "
              "(see {doc}`the scoreboard <../book/scoreboard>`).", ":::"]
    return "\n".join(lines)


#: Heading of a chapter's evidence section (:func:`evidence_markdown`) and its anchor.
EVIDENCE_HEADING: str = "Evidence of the verdicts"
EVIDENCE_ANCHOR: str = "evidence-of-the-verdicts"


def evidence_markdown(paper: str, *, board: pd.DataFrame | None = None,
                      claims: pd.DataFrame | None = None) -> str:
    """Each discrepancy's cause cell by cell, in collapsible tables: the section the verdict box links to.

    One dropdown per item or claim not reproduced: the one-sentence cause, what
    chance alone gives, a table of every covered part (kind, what shows it, the
    disagreements it covers, each named) and the ones not covered, then the cause's
    full text. Returns MyST Markdown.
    """
    if board is None or claims is None:
        all_board, all_claims = computed(cached_only=True) or computed((paper,))
        board = all_board[all_board["paper"] == paper] if board is None else board
        claims = all_claims[all_claims["paper"] == paper] if claims is None else claims
    led = ledger(board, claims)
    if led.empty:
        return "Every figure, table and claim compared with the paper is reproduced: no discrepancy to show."
    out = []
    for r in led.itertuples(index=False):
        name = f"claim {r.item}" if r.kind == "claim" else r.item
        out += [f":::{{dropdown}} {_escape(name)}: {r.status}, {r.cause} ({_coverage(r)} covered)", ""]
        out.append(_escape(str(r.summary)) + " " + chance_words(int(r.compared), int(r.disagreeing)))
        out.append("")
        if r.listing:
            out += ["| part | what shows it | disagreements | count |", "|---|---|---|---|"]
            for kind, what, ids in r.listing:
                out.append(f"| {kind} | {_escape(what)} | {_escape(', '.join(ids))} | {len(ids)} |")
            out.append("")
        out += [f"**Full cause.** {_escape(r.reason)}", "", ":::", ""]
    return "\n".join(out)


def landing_summary(board: pd.DataFrame, claims: pd.DataFrame | None = None, *,
                    titles: Mapping[str, str] | None = None,
                    chapter: Callable[[str], str] = lambda p: f"../notebooks/{p}.md") -> str:
    """The five-paper summary of the landing page as a MyST Markdown table."""
    out = ["| paper | figures and tables | claims | discrepancies by cause |", "|---|---|---|---|"]
    for p in dict.fromkeys(board["paper"]):
        b = board[board["paper"] == p]
        c = claims[claims["paper"] == p] if claims is not None and len(claims) else None
        counts = verdict_counts(b, c)
        led = ledger(b, c)
        causes = ", ".join(f"{n} {k}" for k, n in led["cause"].value_counts().items()) or "none"
        doc = chapter(p).removesuffix(".md")
        link = f"{{doc}}`{_escape(titles[p])} <{doc}>`" if titles and p in titles else f"{{doc}}`{doc}`"
        out.append(f"| {link} | {_count_line(counts, 'items', STATUSES)} | "
                   f"{_count_line(counts, 'claims', CLAIM_VERDICTS)} | {causes} |")
    return "\n".join(out)
