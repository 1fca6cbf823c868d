"""Causes of a discrepancy and the ledger: :class:`Check`, :func:`decide_cause`, :func:`check_ledger`.

A chapter computes checks; :func:`decide_cause` alone turns them into a cause. The
rules are stated in :mod:`ldpfair.verdicts`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["CAUSES", "CHECK_KINDS", "DEMONSTRATED", "NO_CAUSE", "NO_CAUSE_RECORDED", "SUMMARY_LIMIT", "Cause",
           "CausePart", "Check", "cause_summary", "check_ledger", "claim_cause", "decide_cause", "failing",
           "variant_check"]

#: Cause of a reproduced or verified item.
NO_CAUSE: str = "-"
#: Causes of a discrepancy (an item or claim that is not reproduced).
CAUSES: tuple[str, ...] = ("explained", "paper error", "data unavailable", "unexplained")
#: The reason a discrepancy gets when its chapter recorded no cause (the ledger test rejects it).
NO_CAUSE_RECORDED: str = "no cause recorded yet"
#: Causes that must cover every disagreement of their item (``covered == disagreeing``).
DEMONSTRATED: tuple[str, ...] = ("explained", "paper error", "data unavailable")
#: Kinds of a :class:`Check`: what it would demonstrate if it holds.
CHECK_KINDS: tuple[str, ...] = ("variant", "paper", "data", "tried")
#: The cause a holding check of each kind demonstrates ("tried" demonstrates none).
_KIND_CAUSE: dict[str, str] = {"variant": "explained", "paper": "paper error", "data": "data unavailable"}


@dataclass(frozen=True)
class Check:
    """One computed check behind a cause: the only thing a chapter gives :func:`decide_cause`.

    Parameters
    ----------
    statement : str
        One sentence: what was computed.
    holds : bool
        The computed outcome (a ``bool`` or numpy bool computed from results; ``None``
        or NaN is refused: a check that was not computed cannot hold).
    evidence : str
        The numbers behind it, in words.
    kind : str
        One of :data:`CHECK_KINDS`:

        - ``"variant"``: a switchable variant of the computation passes the item's
          checks that the default fails, under the same rule (build it with
          :func:`variant_check`, which computes ``holds`` and ``covers`` from both
          sides' checks); ``source`` names the variant's parameter value;
        - ``"paper"``: computed on the paper's own numbers or on the authors' own runs,
          it demonstrates the error for each disagreement it ``covers``;
        - ``"data"``: the data or code that produced the numbers does not exist;
          ``source`` names the missing file;
        - ``"tried"``: a reading that was tried and does not land (it covers nothing;
          it is listed in the text of an ``unexplained`` cause).
    covers : tuple of str
        Ids of the item's disagreements (published numbers or checks that do not
        agree) this check accounts for when it holds.
    source : str
        The variant's parameter value (``"variant"``) or the missing file (``"data"``).
    """

    statement: str
    holds: bool
    evidence: str
    kind: str
    covers: tuple[str, ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in CHECK_KINDS:
            raise ValueError(f"check kind must be one of {list(CHECK_KINDS)}, got {self.kind!r}")
        if not str(self.statement).strip():
            raise ValueError("a check needs a statement saying what was computed")
        h = self.holds
        if isinstance(h, float) or h is None or not isinstance(h, bool | np.bool_):
            raise ValueError(f"check {self.statement!r}: holds must be a computed bool, got {h!r}")
        object.__setattr__(self, "holds", bool(h))
        if isinstance(self.covers, str):
            raise ValueError(f"check {self.statement!r}: covers must be a sequence of ids, not one string")
        object.__setattr__(self, "covers", tuple(str(c) for c in self.covers))
        if self.kind in ("variant", "data") and not str(self.source).strip():
            what = "the variant's parameter value" if self.kind == "variant" else "the missing file"
            raise ValueError(f"a {self.kind!r} check names {what} in source: {self.statement!r}")

    @property
    def counts(self) -> bool:
        """Whether this check demonstrates a cause (it holds and is not merely ``"tried"``)."""
        return self.holds and self.kind != "tried"


def failing(checks: Mapping[str, Any]) -> list[str]:
    """The names of the checks that do not pass (NaN/None count as not passing): the disagreements."""
    return [str(k) for k, v in checks.items() if not (v is not None and v == v and bool(v))]


def variant_check(statement: str, *, source: str, default: Mapping[str, Any],
                  variant: Mapping[str, Any], evidence: str = "") -> Check:
    """A ``"variant"`` check: the variant judged by the same checks, under the same rule, as the default.

    Parameters
    ----------
    statement : str
        What the variant is.
    source : str
        Its parameter value.
    default, variant : mapping of str to bool
        The item's checks (or per-number agreements) under the default and under the
        variant, computed by the same function; the keys must be the same.
    evidence : str
        The numbers, in words.

    Returns
    -------
    Check
        ``covers`` the default's failing checks that the variant passes; ``holds``
        when it covers at least one and the variant fails none of the checks the
        default passes (a variant that breaks a passing check reproduces nothing:
        it moves the disagreement). A variant still failing one of the item's checks
        covers nothing for that check, so the item is then not ``explained``.
    """
    if set(default) != set(variant):
        raise ValueError(f"variant {source!r} is judged by other checks than the default: "
                         f"only default {sorted(set(default) - set(variant))}, "
                         f"only variant {sorted(set(variant) - set(default))}")
    d_fail, v_fail = set(failing(default)), set(failing(variant))
    broken = [k for k in default if k in v_fail and k not in d_fail]
    covers = tuple(k for k in default if k in d_fail and k not in v_fail)
    still = [k for k in default if k in d_fail and k in v_fail]
    words = [f"The variant passes {len(covers)} of the default's {len(d_fail)} failing checks"]
    if still:
        words.append("still fails " + "; ".join(still))
    if broken:
        words.append("fails what the default passes: " + "; ".join(broken))
    text = ". ".join(x for x in (evidence.strip().rstrip("."), ", ".join(words)) if x)
    return Check(statement, bool(covers) and not broken, text, "variant",
                 covers=covers if not broken else (), source=source)


@dataclass(frozen=True)
class CausePart:
    """The part of an item's disagreements one holding check accounts for (see :func:`decide_cause`)."""

    cause: str
    statement: str
    evidence: str
    covers: tuple[str, ...]
    source: str = ""


@dataclass(frozen=True)
class Cause:
    """Why an item or claim is not reproduced: made by :func:`decide_cause`, never by a chapter.

    Parameters
    ----------
    kind : str
        One of :data:`CAUSES`.
    text : str
        The cause and its evidence (for ``unexplained``: what was covered and what was tried).
    label : str
        Where the chapter shows the evidence: a MyST target or ``"#heading-anchor"``.
    disagreeing, covered : int
        How many of the item's published numbers or checks disagree, and how many of
        those a demonstrated cause covers.
    parts : tuple of CausePart
        The evidence of each covered part (mixed causes are listed per part).
    decided : bool
        True when made by :func:`decide_cause` from computed checks.
    summary : str
        The cause in one complete sentence (at most :data:`SUMMARY_LIMIT` characters
        where the counts allow, never cut), with the counts by kind: what a verdict box
        shows. Empty: the text.
    """

    kind: str
    text: str
    label: str = ""
    disagreeing: int = 0
    covered: int = 0
    parts: tuple[CausePart, ...] = ()
    decided: bool = False
    summary: str = ""
    uncovered: tuple[str, ...] = ()

    def listing(self) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
        """Cell by cell: ``(kind, what shows it, ids)`` per part, then ``("not covered", "", ids)``."""
        rows = [(p.cause, _clause(p.statement + (f", {p.source}" if p.source else "")), p.covers)
                for p in self.parts]
        if self.uncovered:
            rows.append(("not covered", "", self.uncovered))
        return tuple(rows)

    def __post_init__(self) -> None:
        if self.kind not in CAUSES:
            raise ValueError(f"cause kind must be one of {list(CAUSES)}, got {self.kind!r}")
        if not self.text.strip():
            raise ValueError("a cause needs a sentence saying what shows it "
                             "(or, if unexplained, what was tried)")
        if not 0 <= self.covered <= self.disagreeing and self.decided:
            raise ValueError(f"covered must be between 0 and disagreeing ({self.disagreeing}), "
                             f"got {self.covered}")
        if self.decided and self.kind != "unexplained" and not self.covered == self.disagreeing >= 1:
            raise ValueError(f"a cause {self.kind!r} covers every disagreement: "
                             f"{self.covered} of {self.disagreeing}")
        if not self.summary.strip():
            object.__setattr__(self, "summary", self.text.strip())


#: The longest a cause's one-sentence summary is made (longer only when the bare counts need it).
SUMMARY_LIMIT: int = 300
#: How a cause's covered disagreements are said in a summary.
_KIND_WORDS: dict[str, str] = {"explained": "explained by a variant",
                               "paper error": "shown to be errors of the paper",
                               "data unavailable": "lacking their data"}


def _clause(text: str) -> str:
    """A check's statement as a clause: one line, no final full stop."""
    return " ".join(str(text).split()).rstrip(".")


def cause_summary(n: int, parts: Sequence[CausePart], tried: Sequence[Check], *,
                  limit: int = SUMMARY_LIMIT) -> str:
    """One complete sentence saying how many of ``n`` disagreements each kind of cause covers.

    The parts' statements and what was tried are named while the sentence stays within
    ``limit`` characters; otherwise they give way to counts (the full list is in the
    cause's text and the chapter's evidence section). The sentence is never cut.
    """
    if not n:
        return "No published number or check of the item disagrees: the results are not all committed."
    k = sum(len(p.covers) for p in parts)
    by_kind: dict[str, list[CausePart]] = {}
    for p in parts:
        by_kind.setdefault(p.cause, []).append(p)

    def sentence(named: bool, tried_named: bool) -> str:
        bits = []
        for kind, ps in by_kind.items():
            m = sum(len(p.covers) for p in ps)
            what = f"{m} {_KIND_WORDS[kind]}"
            if named:
                what += " (" + "; ".join(_clause(p.statement + (f", {p.source}" if p.source else ""))
                                         for p in ps) + ")"
            bits.append(what)
        if k < n:
            rest = f"{n - k} not explained"
            if tried:
                rest += (" (tried: " + "; ".join(_clause(c.statement) for c in tried) + ")" if tried_named
                         else f" ({len(tried)} check{'s' if len(tried) > 1 else ''} tried)")
            bits.append(rest)
        return f"{k} of {n} disagreements explained: " + "; ".join(bits) + "."

    for named, tried_named in ((True, True), (True, False), (False, True), (False, False)):
        text = sentence(named, tried_named)
        if len(text) <= limit:
            return text
    return text


def _list(ids: Sequence[str], limit: int = 8) -> str:
    ids = list(ids)
    head = ", ".join(ids[:limit])
    return head + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def _sentence(text: str) -> str:
    """``text`` as a sentence: a final full stop, and a capital if it opens with a plain word.

    An opening identifier (``compas_3: ...``, ``fig3: ...``) keeps its case.
    """
    text = str(text).strip()
    if not text:
        return text
    if re.match(r"[a-z]+[ ,;:]", text) and not re.match(r"[a-z]+\d", text):
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def decide_cause(disagreements: Sequence[str], checks: Sequence[Check], label: str = "", *,
                 note: str = "") -> Cause:
    """The cause of an item's or claim's disagreements, by the book's rules, from computed checks.

    Parameters
    ----------
    disagreements : sequence of str
        Ids of the item's published numbers or checks that do not agree (for a claim:
        its failing checks, :func:`failing`).
    checks : sequence of Check
        The chapter's computed checks. A check demonstrates a cause when it holds and
        is not ``"tried"``; it covers the disagreements named in its ``covers`` (each
        disagreement counted once, for the first such check in the given order).
    label : str
        Where the chapter shows the evidence.
    note : str
        Context that decides nothing (e.g. that only part of the runs is committed),
        appended to the text.

    Returns
    -------
    Cause
        ``explained`` / ``paper error`` / ``data unavailable`` only when every
        disagreement is covered (the kind covering the most, ties in the order of
        :data:`CAUSES`; every part is listed); otherwise ``unexplained`` with
        "k of n disagreements explained", the covered parts, the ones not covered and
        what was tried (the checks that do not hold).
    """
    ids = list(dict.fromkeys(str(d) for d in disagreements))
    for c in checks:
        if not isinstance(c, Check):
            raise ValueError(f"decide_cause takes Check objects, got {type(c).__name__}")
    wanted = set(ids)
    taken: set[str] = set()
    parts: list[CausePart] = []
    for c in checks:
        if not c.counts:
            continue
        got = tuple(i for i in c.covers if i in wanted and i not in taken)
        if got:
            taken.update(got)
            parts.append(CausePart(_KIND_CAUSE[c.kind], c.statement, c.evidence, got, c.source))
    n, k = len(ids), len(taken)
    tried = [c for c in checks if not c.counts]

    def part_text(p: CausePart) -> str:
        src = f" ({p.source})" if p.source else ""
        return f"{_sentence(p.statement + src)} {_sentence(p.evidence)}".strip()

    if n and k == n:
        by_kind = {c: sum(len(p.covers) for p in parts if p.cause == c) for c in CAUSES}
        kind = max(CAUSES, key=lambda c: (by_kind[c], -CAUSES.index(c)))
        if len(parts) == 1:
            text = part_text(parts[0])
        else:
            split = ", ".join(f"{by_kind[c]} {c}" for c in CAUSES if by_kind[c])
            text = f"{n} of {n} disagreements explained ({split}). " + " ".join(
                f"[{p.cause}, {len(p.covers)} of {n}: {_list(p.covers, 4)}] {part_text(p)}" for p in parts)
    else:
        kind = "unexplained"
        bits = [f"{k} of {n} disagreements explained." if n else
                "No published number or check of the item disagrees: the results are not all committed."]
        bits += [f"[{p.cause}, {len(p.covers)}: {_list(p.covers, 4)}] {part_text(p)}" for p in parts]
        rest = [i for i in ids if i not in taken]
        if rest:
            bits.append(f"Not covered: {_list(rest)}.")
        if tried:
            bits.append("Tried: " + " ".join(f"{_sentence(c.statement)} {_sentence(c.evidence)}".strip()
                                             for c in tried))
        text = " ".join(bits)
    if note.strip():
        text = f"{text} {_sentence(note)}"
    return Cause(kind, text, label, disagreeing=n, covered=k, parts=tuple(parts), decided=True,
                 summary=cause_summary(n, parts, tried), uncovered=tuple(i for i in ids if i not in taken))


def claim_cause(claim_checks: Mapping[str, Any], checks: Sequence[Check], label: str = "", *,
                note: str = "") -> Cause:
    """:func:`decide_cause` for a claim: its disagreements are its failing checks (:func:`failing`)."""
    return decide_cause(failing(claim_checks), checks, label, note=note)


def check_ledger(board: pd.DataFrame) -> None:
    """Raise ``ValueError`` unless every non-reproduced row has a cause and every other has ``-``.

    ``board`` has at least the columns ``item``, ``status`` and ``cause`` (a
    scoreboard or a claims overview; ``paper`` is used in the message when present).
    With the columns ``disagreeing`` and ``covered``, a row whose cause is one of
    :data:`DEMONSTRATED` must cover every disagreement (``covered == disagreeing``,
    at least one).
    """
    bad = []
    counted = "disagreeing" in board.columns and "covered" in board.columns
    for r in board.to_dict("records"):
        where = f"{r.get('paper', '')} {r['item']}".strip()
        if r["status"] in ("partly", "not reproduced"):
            if r["cause"] not in CAUSES:
                bad.append(f"{where}: status {r['status']!r} needs a cause in {list(CAUSES)}, "
                           f"has {r['cause']!r}")
            elif not str(r.get("reason", "x")).strip():
                bad.append(f"{where}: cause {r['cause']!r} without a sentence")
            elif counted and r["cause"] in DEMONSTRATED and not (
                    int(r["covered"]) == int(r["disagreeing"]) >= 1):
                bad.append(f"{where}: cause {r['cause']!r} covers {int(r['covered'])} of "
                           f"{int(r['disagreeing'])} disagreements (it must cover all)")
        elif r["cause"] != NO_CAUSE:
            bad.append(f"{where}: status {r['status']!r} must have cause '-', has {r['cause']!r}")
    if bad:
        raise ValueError("discrepancy ledger is incomplete:\n" + "\n".join(bad))
