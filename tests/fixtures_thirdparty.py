"""Third-party LDP libraries wrapped as documented (book/adding_a_mechanism.md), for the door and bench tests.

pure-ldp's direct encoding and multi-freq-ldpy's GRR and subset selection, each a
``FrequencyOracle`` subclass of a few lines. At ``k = 2`` all three are the same
channel as the built-in GRR and SS (``omega = 1``). Each seeds its library's own
generator from the ``rng`` it is given, so audits and runs are reproducible.
Used by ``ldpfair bench`` through ``tests/fixtures_thirdparty.py:<Name>``.
"""

from __future__ import annotations

import math
import random

import numba
import numpy as np
from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
from multi_freq_ldpy.pure_frequency_oracles.SS import SS_Client
from pure_ldp.frequency_oracles import direct_encoding as DE

from ldpfair.ldp import FrequencyOracle

__all__ = ["MfGRR", "MfSS", "MfSSDrawOrder", "PureDE", "PureDEOneBased"]


class _DirectEncoding(FrequencyOracle):
    """``p`` and ``q`` of any direct encoding (GRR) and its one-hot support."""

    @property
    def p(self):
        return math.exp(self.epsilon) / (math.exp(self.epsilon) + self.k - 1)

    @property
    def q(self):
        return 1 / (math.exp(self.epsilon) + self.k - 1)

    def support(self, reports):
        return np.eye(self.k, dtype=bool)[np.asarray(reports)]


class PureDE(_DirectEncoding):
    """pure-ldp's direct encoding; ``zero_based`` passes the mapper the docs of pure-ldp ask for."""

    name = "pure-ldp DE"
    zero_based = True

    def __init__(self, k, epsilon):
        super().__init__(k, epsilon)
        mapper = (lambda x: x) if self.zero_based else None
        self.client = DE.DEClient(epsilon, k, index_mapper=mapper)

    def perturb(self, values, rng):
        random.seed(int(rng.integers(2**31)))
        return np.array([self.client.privatise(int(v)) for v in values])


class PureDEOneBased(PureDE):
    """The natural wrapper with pure-ldp's default 1-based mapper, fed 0-based values (reports -1)."""

    zero_based = False


@numba.njit(cache=False)
def _mf_grr(values, k, epsilon, seed):  # pragma: no cover - compiled
    np.random.seed(seed)  # noqa: NPY002 - numba's generator, the one multi-freq-ldpy's jitted clients draw from
    out = np.empty(values.shape[0], dtype=np.int64)
    for i in range(values.shape[0]):
        out[i] = GRR_Client(values[i], k, epsilon)
    return out


@numba.njit(cache=False)
def _mf_ss(values, k, epsilon, omega, seed, in_order):  # pragma: no cover - compiled
    np.random.seed(seed)  # noqa: NPY002 - numba's generator
    out = np.empty((values.shape[0], omega), dtype=np.int64)
    for i in range(values.shape[0]):
        members = SS_Client(values[i], k, epsilon)
        out[i] = np.sort(members) if in_order else members  # the library puts the true value first
    return out


class MfGRR(_DirectEncoding):
    """multi-freq-ldpy's ``GRR_Client``."""

    name = "multi-freq-ldpy GRR"

    def perturb(self, values, rng):
        seed = int(rng.integers(2**31))
        return _mf_grr(np.asarray(values, dtype=np.int64), self.k, float(self.epsilon), seed)


class MfSS(FrequencyOracle):
    """multi-freq-ldpy's ``SS_Client``, members sorted (the library puts the true value first)."""

    name = "multi-freq-ldpy SS"
    sort_members = True

    def __init__(self, k, epsilon):
        super().__init__(k, epsilon)
        self.omega = int(max(1, np.rint(k / (np.exp(epsilon) + 1))))

    @property
    def p(self):
        e, w = math.exp(self.epsilon), self.omega
        return w * e / (w * e + self.k - w)

    @property
    def q(self):
        e, w, k = math.exp(self.epsilon), self.omega, self.k
        return (w * e * (w - 1) + (k - w) * w) / ((k - 1) * (w * e + k - w))

    def perturb(self, values, rng):
        return _mf_ss(np.asarray(values, dtype=np.int64), self.k, float(self.epsilon), self.omega,
                      int(rng.integers(2**31)), self.sort_members)

    def support(self, reports):
        out = np.zeros((len(reports), self.k), dtype=bool)
        np.put_along_axis(out, np.asarray(reports, dtype=np.int64), True, axis=1)
        return out


class MfSSDrawOrder(MfSS):
    """The natural wrapper of ``SS_Client``: its members as the library returns them (true value first)."""

    sort_members = False
