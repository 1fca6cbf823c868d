"""The book's verdict rules, in one place.

Every figure, table and claim of a paper gets one status, computed from the
committed results by the rules below; no chapter decides its own threshold and no
tolerance is widened to make an item pass.

Agreement of one published number
---------------------------------
A published number agrees with ours when the difference lies within a 95%
interval of the difference plus the paper's own printed precision:

- **paired** (:func:`compare_paired`) where both sides are per-run results on the
  same seeds/splits (the authors' per-seed results): a one-sample Student-t
  interval of the per-seed differences;
- **Welch** (:func:`compare_welch`) otherwise: the Welch interval of the two means
  when the paper gives its spread (a standard deviation with its number of runs,
  or a confidence-interval half-width), else the Student-t interval of our mean;
- **precision** (:func:`printed_precision`): a value printed with ``k`` decimals
  cannot be matched more finely than ``0.5 * 10**-k``; it is added to the interval,
  nothing else is.

**Heavy tails.** A quantity without a finite mean or variance (an error under
Cauchy noise) is compared by its median with the distribution-free
order-statistic interval (:func:`compare_median`), never by a Welch interval on
means: one extreme draw makes such an interval as wide as it likes, so anything
would "agree".

**Verifications.** A published number that ours equals by construction (an error
of 0 at epsilon = infinity, a check of our code against itself) is a
verification, not a reproduction: it does not count in the share
(``construction=`` of :func:`score_item`).

Status of an item
-----------------
``share`` is the fraction of the item's published numbers that agree. Then
**reproduced** when ``share >= 0.90``, **partly** when ``0.50 <= share < 0.90``,
**not reproduced** below. Qualitative checks the paper states (a trend, an
ordering) are extra checks that can only lower the status: their own share is
mapped by the same thresholds and the worse of the two statuses is kept. While
only part of an item's runs are committed it is at best **partly**. An item that
the paper gives no number or trend for, checked only against our own code (a
worked example, a theorem checked by brute force) is **verified**, never
"reproduced". A chapter no paper has is a **new result**.

Chance
------
Each comparison at 95% misses a number that agrees in truth with probability 5%, so
among ``N`` compared numbers and checks chance alone gives ``0.05 N`` disagreements
on average. Every item and claim carries that expectation and the one-sided binomial
probability of the observed count, ``P(Binomial(N, 0.05) >= k)`` (:func:`chance`);
a count with probability at least 0.05 is said to be **within chance**. That is a
statement, never a verdict: no status and no cause changes with it, so it never lifts
an item, least of all one whose disagreements exceed chance. Checks of trends and
claims count as comparisons at the same level (a check without an interval can fail
by chance more often than 5%; counting it at 5% calls fewer counts within chance,
never more).

Discrepancy ledger
------------------
Every item or claim that is not reproduced carries a :class:`Cause`, decided by
:func:`decide_cause` (the only road to one) from the chapter's computed
:class:`Check` objects; a chapter supplies checks, never labels. The item's
``disagreeing`` are its published numbers and checks that do not agree; a check
that holds ``covers`` some of them:

- **explained**: a switchable variant passes the same checks, under the same rule,
  that the default fails (:func:`variant_check`: a variant that still fails one of
  them covers nothing for it; one that fails a check the default passes covers
  nothing);
- **paper error**: a check computed on the paper's own numbers or the authors' own
  runs demonstrates the error for each disagreement it covers;
- **data unavailable**: the missing file is named;
- **unexplained**: otherwise, with "k of n disagreements explained", the covered
  parts and what was tried.

An item is explained / paper error / data unavailable only when ``covered ==
disagreeing``; mixed causes are listed per part (the label is the kind covering
the most). A claim's disagreements are its failing checks. Reproduced and verified
items have cause ``-`` (:data:`NO_CAUSE`). :func:`check_ledger` enforces this.

The rules live in three modules: :mod:`ldpfair.verdicts.agreement` (the statistics of
one published number), :mod:`ldpfair.verdicts.status` (the status of an item and its
scoreboard row) and :mod:`ldpfair.verdicts.ledger` (checks, causes and the ledger).
"""

from .agreement import (
    COMPARISON_COLUMNS,
    LEVEL,
    compare_equivalent,
    compare_median,
    compare_paired,
    compare_published,
    compare_runs,
    compare_welch,
    median_interval,
    printed_precision,
)
from .ledger import (
    CAUSES,
    CHECK_KINDS,
    DEMONSTRATED,
    NO_CAUSE,
    NO_CAUSE_RECORDED,
    SUMMARY_LIMIT,
    Cause,
    CausePart,
    Check,
    cause_summary,
    check_ledger,
    claim_cause,
    decide_cause,
    failing,
    variant_check,
)
from .status import (
    CHANCE_COLUMNS,
    ITEM_COLUMNS,
    SHARE_PARTLY,
    SHARE_REPRODUCED,
    STATUSES,
    VERDICTS,
    chance,
    chance_words,
    score_item,
    share_status,
    status,
    worse,
)

__all__ = [
    "CAUSES",
    "CHANCE_COLUMNS",
    "CHECK_KINDS",
    "COMPARISON_COLUMNS",
    "DEMONSTRATED",
    "LEVEL",
    "NO_CAUSE",
    "NO_CAUSE_RECORDED",
    "SHARE_PARTLY",
    "SHARE_REPRODUCED",
    "STATUSES",
    "SUMMARY_LIMIT",
    "VERDICTS",
    "Cause",
    "CausePart",
    "Check",
    "ITEM_COLUMNS",
    "cause_summary",
    "chance",
    "chance_words",
    "check_ledger",
    "claim_cause",
    "compare_equivalent",
    "compare_median",
    "decide_cause",
    "failing",
    "median_interval",
    "variant_check",
    "compare_paired",
    "compare_published",
    "compare_runs",
    "compare_welch",
    "printed_precision",
    "score_item",
    "share_status",
    "status",
    "worse",
]
