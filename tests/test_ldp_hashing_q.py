"""Local hashing's declared q is what its sampler does (issue #44, item 2).

The audit's consistency test refused the built-in OLH at k = 128, epsilon = 4
("rate 0.01848, not the declared q = 0.01786, binomial p = 4e-11"). The cause is
not the hash nor g: for ``x != y`` the pair ``((a x + b) mod P, (a y + b) mod P)``
is uniform over distinct residues, so each membership ``P(u in S | v)`` is exactly
``q`` (:func:`~ldpfair.ldp.hashing.collision_probability`). The test pooled the
``k - 1`` memberships of a report as independent Bernoulli trials; they are not
(consecutive inputs under ``a x + b`` collide together: ``a`` a multiple of ``g``
hashes a whole run of inputs alike), so the pooled count's variance is several
times the binomial one and the binomial p-value was far too small. The test now
tests each membership ``P(u in S | v) = q`` on its own (exactly binomial: one per
report), Bonferroni over ``u``.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from ldpfair.ldp import OLH, make_protocol
from ldpfair.ldp.audit_events import consistency, mixed_batch, pair_cells


def _supports(mech, v: int, n: int, seed: int) -> np.ndarray:
    return mech.support(mech.perturb(np.full(n, v), np.random.default_rng(seed)))


@pytest.mark.parametrize("v", [0, 63, 127])
def test_each_membership_is_binomial_with_the_declared_q(v):
    mech, n = OLH(128, 4.0), 20_000
    sup = _supports(mech, v, n, 44 + v)
    counts = np.delete(sup.sum(axis=0), v)
    # one membership per report: Binomial(n, q) exactly; two-sided, Bonferroni over the 127 values
    lo, hi = stats.binom.interval(1 - 0.001 / counts.size, n, mech.q)
    assert np.all((counts >= lo) & (counts <= hi)), (counts.min(), counts.max(), lo, hi)
    own = int(sup[:, v].sum())
    lo, hi = stats.binom.interval(0.999, n, mech.p)
    assert lo <= own <= hi


def test_memberships_of_one_report_are_correlated_so_they_are_not_pooled():
    mech, n, v = OLH(128, 4.0), 40_000, 5
    sup = _supports(mech, v, n, 7)
    y = sup.sum(axis=1) - sup[:, v]  # other values each report supports
    binomial_var = (mech.k - 1) * mech.q * (1 - mech.q)
    assert y.var() > 1.5 * binomial_var  # the memberships of one report are correlated (the cause)
    z = (y.mean() - (mech.k - 1) * mech.q) / (y.std(ddof=1) / np.sqrt(n))
    assert abs(z) < 3.5


def test_a_wrong_declared_q_is_still_refused():
    class LowQ(OLH):
        @property
        def q(self):
            return 0.8 * super().q

    mech, k = LowQ(16, 1.0), 16
    rng = np.random.default_rng(3)
    truth = mixed_batch(k, 20_000, rng)
    reports = mech.perturb(truth, rng)
    why = consistency(mech, reports, truth, k, 0.01, None, pair_cells(mech, reports, truth, k))
    assert why is not None and "not the declared q" in why and "Bonferroni" in why


@pytest.mark.parametrize("k", [2, 16])
def test_olh_at_eps10_rare_memberships_are_consistent(k):
    # q = 4.5e-5: a handful of memberships per value; a normal approximation refused this correct sampler
    mech = make_protocol("OLH", k, 10.0)
    rng = np.random.default_rng(np.random.SeedSequence([44, k, 100]))
    truth = mixed_batch(k, 50_000, rng)
    reports = mech.perturb(truth, rng)
    assert consistency(mech, reports, truth, k, 0.01, None, pair_cells(mech, reports, truth, k)) is None


@pytest.mark.slow
def test_olh_k128_eps4_batch_that_was_refused_is_consistent():
    # the first half of the door's audit in benchmarks/bench_audit_door.py (seed [44, 128, 40])
    k, eps, n = 128, 4.0, 15_625
    mech = make_protocol("OLH", k, eps)
    rng = np.random.default_rng(np.random.SeedSequence([44, k, int(eps * 10)]))
    truth = mixed_batch(k, n, rng)
    reports = mech.perturb(truth, rng)
    cells = pair_cells(mech, reports, truth, k)
    assert consistency(mech, reports, truth, k, 0.01, None, cells) is None
    n_x, m, _ = cells
    other = m.sum(axis=1) - np.diag(m)
    old = [stats.binomtest(int(other[v]), int(n_x[v] * (k - 1)), mech.q).pvalue for v in range(k)]
    worst = int(np.argmin(old))
    # the former pooled binomial test refused this correct sampler beyond its tolerance
    assert old[worst] < 0.01 / (2 * k)
    assert abs(other[worst] / (n_x[worst] * (k - 1)) - mech.q) > 0.02 * mech.q
