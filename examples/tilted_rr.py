"""A third-party-style mechanism for ldpfair's open benchmark: randomised response with a prior tilt.

With probability ``LAMBDA`` the client reports a draw from a fixed prior ``PRIOR``
(data independent: tilted towards value 0), otherwise it runs generalised
randomised response (GRR) at a budget ``epsilon'``. Mixing each row of a channel
with the same distribution lowers every likelihood ratio, so ``epsilon'`` is the
largest budget (found by bisection) at which the mixture's exact level is the
claimed ``epsilon``. Only numpy is needed: the mechanism is a factory
``(k, epsilon) -> Q`` returning the channel matrix ``Q[v, z] = P(z | v)``.

Benchmark it against the book's mechanisms::

    ldpfair bench --mechanism examples/tilted_rr.py:tilted_rr --profile quick -o tilted.ipynb
"""

from __future__ import annotations

import numpy as np

#: Probability of reporting a draw from the prior.
LAMBDA = 0.05
#: Weight of value 0 in the prior (the others share the rest equally).
TILT = 0.7


def _channel(k: int, eps_grr: float) -> np.ndarray:
    keep = np.exp(eps_grr) / (np.exp(eps_grr) + k - 1)
    grr = np.full((k, k), (1 - keep) / (k - 1))
    np.fill_diagonal(grr, keep)
    prior = np.full(k, (1 - TILT) / (k - 1))
    prior[0] = TILT
    return (1 - LAMBDA) * grr + LAMBDA * prior[None, :]


def _level(Q: np.ndarray) -> float:
    return float(np.max(np.log(Q.max(axis=0) / Q.min(axis=0))))


def tilted_rr(k: int, epsilon: float) -> np.ndarray:
    """The channel of tilted randomised response on ``k`` values at level ``epsilon``."""
    lo, hi = epsilon, epsilon + 50.0
    if _level(_channel(k, hi)) <= epsilon:  # the prior caps the level below epsilon
        return _channel(k, hi)
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _level(_channel(k, mid)) <= epsilon else (lo, mid)
    return _channel(k, lo)
