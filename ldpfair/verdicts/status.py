"""Status of an item or claim: the share thresholds and the scoreboard row (:func:`score_item`).

The rules are stated in :mod:`ldpfair.verdicts`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from scipy import stats

from .agreement import LEVEL
from .ledger import NO_CAUSE, NO_CAUSE_RECORDED, Cause

__all__ = ["CHANCE_COLUMNS", "ITEM_COLUMNS", "SHARE_PARTLY", "SHARE_REPRODUCED", "STATUSES", "VERDICTS",
           "chance", "chance_words", "score_item", "share_status", "status", "worse"]

#: Share of agreeing published numbers from which an item is "reproduced".
SHARE_REPRODUCED: float = 0.90
#: Share from which an item is "partly" reproduced.
SHARE_PARTLY: float = 0.50
#: Verdicts of a comparison with the paper, best first.
VERDICTS: tuple[str, str, str] = ("reproduced", "partly", "not reproduced")
#: Every status an item can have: the verdicts, then "verified" (checked against our own
#: code only: the paper gives no number), "new result" (no paper to reproduce) and
#: "not yet" (no committed results).
STATUSES: tuple[str, ...] = (*VERDICTS, "verified", "new result", "not yet")


#: Columns saying what chance alone gives (:func:`chance`), on every scoreboard and claims row.
CHANCE_COLUMNS: tuple[str, ...] = ("compared", "expected_by_chance", "p_chance", "within_chance")


def chance(compared: int, disagreeing: int, *, level: float = LEVEL) -> dict[str, Any]:
    """How many disagreements chance alone gives among ``compared`` comparisons at ``level``.

    Each comparison at ``level`` (95%) misses a number that agrees in truth with
    probability ``1 - level``, so among ``compared`` of them chance alone gives
    ``compared * (1 - level)`` disagreements on average. ``p_chance`` is the one-sided
    binomial probability of at least ``disagreeing`` of them,
    ``P(Binomial(compared, 1 - level) >= disagreeing)``; the count is **within chance**
    when there is at least one disagreement and ``p_chance >= 1 - level``. It is a
    statement, never a verdict: no status or cause changes with it.

    Parameters
    ----------
    compared : int
        Published numbers and checks compared (verifications left out).
    disagreeing : int
        How many of them do not agree (``0 <= disagreeing <= compared``).
    level : float
        The comparisons' confidence level.

    Returns
    -------
    dict
        ``compared, expected_by_chance, p_chance, within_chance`` (NaN and False
        without comparisons).
    """
    for name, x in (("compared", compared), ("disagreeing", disagreeing)):
        if isinstance(x, bool) or not isinstance(x, int | np.integer) or x < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {x!r}")
    if disagreeing > compared:
        raise ValueError(f"disagreeing ({disagreeing}) cannot exceed compared ({compared})")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be between 0 and 1, got {level!r}")
    if compared == 0:
        return {"compared": 0, "expected_by_chance": float("nan"), "p_chance": float("nan"),
                "within_chance": False}
    alpha = 1.0 - level
    p = float(stats.binom.sf(int(disagreeing) - 1, int(compared), alpha)) if disagreeing else 1.0
    return {"compared": int(compared), "expected_by_chance": float(compared * alpha), "p_chance": p,
            "within_chance": bool(disagreeing >= 1 and p >= alpha)}


def chance_words(compared: int, disagreeing: int, *, level: float = LEVEL) -> str:
    """:func:`chance` as one sentence: the count, what chance gives and whether it is within chance."""
    c = chance(compared, disagreeing, level=level)
    if not compared or not disagreeing:
        return ""
    head = (f"{disagreeing} of {compared} disagree where chance alone gives {c['expected_by_chance']:.1f} "
            f"at {level:.0%} (probability of {disagreeing} or more: {_p(c['p_chance'])})")
    if c["within_chance"]:
        return head + ": within what chance gives."
    return head + ": more than chance gives."


def _p(p: float) -> str:
    return "below 0.001" if p < 0.001 else f"{p:.3f}" if p < 0.01 else f"{p:.2f}"


def share_status(share: float) -> str:
    """The verdict of a share of agreeing numbers (or of passing checks)."""
    if share is None or not math.isfinite(float(share)):
        raise ValueError(f"share must be a finite number in [0, 1], got {share!r}")
    if not 0.0 <= float(share) <= 1.0:
        raise ValueError(f"share must be in [0, 1], got {share!r}")
    if share >= SHARE_REPRODUCED:
        return VERDICTS[0]
    if share >= SHARE_PARTLY:
        return VERDICTS[1]
    return VERDICTS[2]


def worse(*statuses: str) -> str:
    """The worst of several verdicts."""
    return VERDICTS[max(VERDICTS.index(s) for s in statuses)]


def _bools(checks: Mapping[str, Any] | Iterable[Any] | None) -> list[bool]:
    if checks is None:
        return []
    values = checks.values() if isinstance(checks, Mapping) else checks
    return [bool(v) if v is not None and v == v else False for v in values]


def status(agrees: Iterable[Any] | None = None, *, trends: Mapping[str, Any] | Iterable[Any] | None = None,
           present: int | None = None, total: int | None = None) -> tuple[str, float]:
    """Status and share of an item compared with the paper.

    Parameters
    ----------
    agrees : iterable of bool, optional
        One entry per published number: whether it agrees with ours.
    trends : mapping or iterable of bool, optional
        The paper's qualitative statements about the item, checked on our results;
        they can only lower the status.
    present, total : int, optional
        Committed and declared runs: ``present == 0`` is "not yet"; ``present < total``
        caps the status at "partly".

    Returns
    -------
    (str, float)
        The status and the share of agreeing numbers (NaN without published numbers,
        in which case the trends alone decide).
    """
    nums = _bools(agrees)
    tr = _bools(trends)
    if present == 0 or (not nums and not tr):
        return "not yet", float("nan")
    share = float(np.mean(nums)) if nums else float("nan")
    verdicts = []
    if nums:
        verdicts.append(share_status(share))
    if tr:
        verdicts.append(share_status(float(np.mean(tr))))
    out = worse(*verdicts)
    if present is not None and total is not None and present < total:
        out = worse(out, "partly")
    return out, share



#: Columns of a paper's scoreboard rows made by :func:`score_item`.
ITEM_COLUMNS: tuple[str, ...] = ("item", "label", "status", "share", "numbers", "verifications",
                                 "disagreeing", "covered", "cause", "reason", "cause_label", "evidence",
                                 "summary", "listing", *CHANCE_COLUMNS)


def score_item(item: str, label: str, *, agrees: Iterable[Any] | None = None,
               trends: Mapping[str, Any] | Iterable[Any] | None = None,
               verified: Mapping[str, Any] | Iterable[Any] | None = None,
               construction: Iterable[Any] | None = None,
               present: int | None = None, total: int | None = None,
               cause: Cause | None = None, evidence: str = "") -> dict[str, Any]:
    """One scoreboard row, judged by the book's rules.

    Parameters
    ----------
    item, label : str
        As the paper names the item, and where it is in the chapter.
    agrees, trends, present, total
        As in :func:`status` (an item compared with the paper).
    verified : mapping or iterable of bool, optional
        For an item the paper gives no number or trend for: checks of our code
        against itself. All pass: "verified"; otherwise "not reproduced" (a
        failing self-check is a defect, reported as such). Exclusive with
        ``agrees``/``trends``.
    construction : iterable of bool, optional
        Aligned with ``agrees``: the published numbers ours equals by construction
        (an error of 0 at epsilon = infinity, a check of our code against itself).
        They are verifications: left out of the share and counted in ``verifications``;
        an item whose every number is one (and without trends) is "verified".
    cause : Cause, optional
        Required when the status is partly or not reproduced (made by
        :func:`decide_cause`; its ``disagreeing`` must be the item's number of
        disagreeing numbers and checks); ignored (``-``) otherwise.
    evidence : str
        One line saying what was checked, with numbers.

    Returns
    -------
    dict
        The row, with the columns of :data:`ITEM_COLUMNS`.
    """
    n_ver = 0
    if verified is not None:
        if agrees is not None or trends is not None or construction is not None:
            raise ValueError("an item is either verified against our code or compared with the paper, "
                             "not both")
        v = _bools(verified)
        if not v:
            raise ValueError(f"{item}: verified= needs at least one check")
        st, share = ("verified" if all(v) else "not reproduced"), float("nan")
        n_fail = v.count(False)
        n_compared = 0  # checks of our code against itself: exact, chance gives none
    else:
        nums = _bools(agrees)
        if construction is not None:
            mask = _bools(construction)
            if len(mask) != len(nums):
                raise ValueError(f"{item}: construction= has {len(mask)} entries, agrees= {len(nums)}")
            n_ver = sum(mask)
            nums = [a for a, m in zip(nums, mask, strict=True) if not m]
        tr = _bools(trends)
        if n_ver and not nums and not tr and present != 0:
            st, share = "verified", float("nan")
        else:
            st, share = status(nums, trends=trends, present=present, total=total)
        n_fail = nums.count(False) + tr.count(False)
        n_compared = len(nums) + len(tr)
        agrees = nums
    n = len(_bools(agrees)) if verified is None else 0
    disagreeing, covered = n_fail, 0
    if st in ("partly", "not reproduced"):
        c = cause or Cause("unexplained", NO_CAUSE_RECORDED)
        if c.decided:
            if c.disagreeing != n_fail:
                raise ValueError(f"{item}: the cause accounts for {c.disagreeing} disagreements, the item "
                                 f"has {n_fail} (published numbers and checks that do not agree)")
            covered = c.covered
        kind, reason, clabel, summary, listing = c.kind, c.text, c.label, c.summary, c.listing()
    else:
        kind, reason, clabel, summary, listing = NO_CAUSE, "", "", "", ()
    return {"item": item, "label": label, "status": st, "share": share, "numbers": n,
            "verifications": n_ver, "disagreeing": disagreeing, "covered": covered,
            "cause": kind, "reason": reason, "cause_label": clabel, "evidence": evidence,
            "summary": summary, "listing": listing, **chance(n_compared, min(n_fail, n_compared))}
