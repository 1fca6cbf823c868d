"""Text pieces of the book's verdict pages: status badges, table cells and the printed rules.

Pure formatting, below :mod:`ldpfair.scoreboard` (which gathers the verdicts and renders the
pages): :func:`badge`, the cells of the scoreboard tables and :func:`rules_markdown`, the
verdict rules as the scoreboard page prints them, from :mod:`ldpfair.verdicts`' constants.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .verdicts import CAUSES, NO_CAUSE, STATUSES

__all__ = ["badge", "rules_markdown"]


def badge(status: str) -> str:
    """A status as a text badge (an HTML span the book's stylesheet colours; no emoji)."""
    if status not in (*STATUSES, *CAUSES, NO_CAUSE):
        raise ValueError(f"unknown status {status!r}; valid: {list(STATUSES)}")
    slug = status.replace(" ", "-")
    return f'<span class="verdict verdict-{slug}">{status}</span>'


def _escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _link(item: str, label: str, paper: str, chapter: Callable[[str], str]) -> str:
    if label.startswith("#"):
        return f"[{_escape(item)}]({chapter(paper)}{label})"
    if label == paper:
        return f"{{doc}}`{_escape(item)} <{chapter(paper).removesuffix('.md')}>`"
    return f"{{ref}}`{_escape(item)} <{label}>`"


def _count(x: Any) -> str:
    return "" if not x or (isinstance(x, float) and math.isnan(x)) else str(int(x))


def _coverage(r: Any) -> str:
    """``covered of disagreeing`` for a row with disagreements (empty otherwise)."""
    n = int(getattr(r, "disagreeing", 0) or 0)
    return f"{int(getattr(r, 'covered', 0) or 0)} of {n}" if n else ""


def _by_chance(r: Any) -> str:
    """``expected; P`` of a row with disagreements (:func:`ldpfair.verdicts.chance`), empty otherwise."""
    n, k = int(getattr(r, "compared", 0) or 0), int(getattr(r, "disagreeing", 0) or 0)
    if not n or not k:
        return ""
    p = float(r.p_chance)
    ps = "<0.001" if p < 0.001 else f"{p:.3f}" if p < 0.01 else f"{p:.2f}"
    within = " (within chance)" if r.within_chance else ""
    return f"{float(r.expected_by_chance):.1f} of {n}; P = {ps}{within}"


def _share(x: float) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.0%}"


def rules_markdown() -> str:
    """The verdict rules as printed on the scoreboard page (from :mod:`ldpfair.verdicts`' constants)."""
    from . import verdicts as v

    return "\n".join([
        f"- **Agreement of one published number.** The difference between ours and the paper's lies within "
        f"a {v.LEVEL:.0%} interval plus the paper's printed precision (a value printed with 2 decimals "
        "cannot be matched more finely than 0.005). The interval is **paired** on the seeds where both "
        "sides ran the same seeds and splits (the authors' per-seed results), **Welch** where the paper "
        "gives its spread, and our Student-t interval otherwise. Nothing else widens it.",
        f"- **Status from the share of agreeing numbers:** {badge('reproduced')} at least "
        f"{v.SHARE_REPRODUCED:.0%}, {badge('partly')} from {v.SHARE_PARTLY:.0%}, {badge('not reproduced')} "
        "below. The paper's qualitative statements about an item (a trend, an ordering) are extra checks "
        "that can only lower the status. An item whose runs are only partly committed is at best partly.",
        f"- {badge('verified')}: the paper gives no number or trend (a notation table, a diagram, a "
        "theorem); it is checked against our own code only, so it is not called reproduced.",
        f"- {badge('new result')}: a chapter no paper has. {badge('not yet')}: results not committed.",
        "- **Claims** are judged by the share of their checks that pass, with the same thresholds; a claim "
        f"checked only against our own code or by brute force (a theorem) is {badge('verified')}.",
        "- **Heavy tails.** A quantity without a finite mean or variance (an error under Cauchy noise) is "
        f"compared by its median, with the distribution-free order-statistic {v.LEVEL:.0%} interval (the "
        "ranks a Binomial(n, 1/2) count bounds), never by a Welch interval on means: one extreme draw makes "
        "that interval as wide as it likes, so anything would agree.",
        "- **Verifications do not count.** A published number ours equals by construction (an error of 0 "
        "at epsilon = infinity) and a check of our code against itself are verifications: they are counted "
        "apart (column *verif.*) and left out of the share.",
        "- **Every discrepancy has a cause, decided from computed checks** (`ldpfair.verdicts.decide_cause`; "
        "a chapter supplies checks, never labels): " + ", ".join(badge(c) for c in CAUSES) + ". "
        "*disagreeing* counts the item's published numbers and checks that do not agree; *covered* how "
        "many of them a check that holds accounts for. **Explained**: a switchable variant passes the same "
        "checks, under the same rule, that the default fails (a variant still failing one of them covers "
        "nothing for it; one failing a check the default passes covers nothing). **Paper error**: a check "
        "computed on the paper's own numbers or the authors' own runs demonstrates the error for each "
        "disagreement it covers. **Data unavailable**: the missing file is named. An item gets one of these "
        "only when covered = disagreeing (mixed causes are listed per part); otherwise it is "
        "**unexplained**, and the ledger says \"k of n disagreements explained\" and what was tried. A "
        "claim's disagreements are its failing checks.",
        f"- **Chance.** At the {v.LEVEL:.0%} level a comparison misses a number that agrees in truth with "
        f"probability {1 - v.LEVEL:.0%}, so among N compared numbers and checks chance alone gives "
        f"{1 - v.LEVEL:.2f} N disagreements on average (column *by chance*: that expectation and "
        f"P = P(Binomial(N, {1 - v.LEVEL:.2f}) ≥ k), the one-sided probability of the k observed or more). "
        f"A count with P ≥ {1 - v.LEVEL:.2f} is said to be **within chance**, in this table and in the "
        "chapter's verdict box. It is a statement, never a verdict: no status and no cause changes with "
        "it, so it never lifts an item, and a count beyond chance is never called chance. Checks of trends "
        f"and claims count at the same {1 - v.LEVEL:.0%} (a check without an interval can fail by chance "
        "more often; counting it at 5% calls fewer counts within chance, never more). Checks of our code "
        "against itself are exact: chance gives them none.",
        "- **Causes in words.** The verdict box gives each cause as one complete sentence with its counts "
        "by kind (never cut); the chapter's *Evidence of the verdicts* section lists every disagreement "
        "cell by cell, in a collapsible table per item and claim.",
        "- **No reading chosen by its own score.** Where a reading, variant or parameter is picked among "
        "several, it is picked by the paper's text or by a rule fixed in advance, never by how many "
        "published numbers it matches.",
    ])
