"""Properties of the seven frequency oracles: exact guarantee, audit, estimators.

The audit tests compare the empirical output frequencies of ``perturb`` with the
exact probabilities the estimator relies on (the kind of check that found
pure-LDP's unary-encoding privacy bug, pure-LDP#11). Each audit also checks its
own power: the same data must reject probabilities shifted by a few points.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from ldpfair.ldp import (
    BLH,
    GRR,
    OLH,
    OUE,
    PROTOCOLS,
    RAPPOR,
    SS,
    THE,
    collision_probability,
    make_protocol,
    olh_g,
    project_simplex,
    subset_size,
    the_threshold,
)
from ldpfair.ldp.hashing import PRIME

KS = (2, 3, 5)
EPSILONS = (0.25, 1.0, 4.0)
Z_MAX = 5.0  # |z| bound of the binomial audit at a fixed seed


def z_score(successes, trials, prob):
    return (successes - trials * prob) / math.sqrt(trials * prob * (1 - prob))


def assert_binomial(successes, trials, prob, shift=0.03):
    """Frequency agrees with ``prob`` and the test has power against ``prob +- shift``."""
    assert abs(z_score(successes, trials, prob)) < Z_MAX, (successes / trials, prob)
    for wrong in (prob - shift, prob + shift):
        if 0 < wrong < 1:
            assert abs(z_score(successes, trials, wrong)) > Z_MAX


# ---------------------------------------------------------------------------
# Exact guarantee from the exact probabilities
# ---------------------------------------------------------------------------


def _bit_vector_probs(p, q, k):
    """P(z | v) for every z in {0,1}^k and v, independent bits."""
    outs = np.array(list(itertools.product([0, 1], repeat=k)), dtype=bool)
    probs = np.empty((k, outs.shape[0]))
    for v in range(k):
        bitp = np.full(k, q)
        bitp[v] = p
        probs[v] = np.prod(np.where(outs, bitp, 1 - bitp), axis=1)
    return probs


def _max_ratio(probs):
    """max over outputs (columns) and input pairs (rows) of P(z|v)/P(z|v')."""
    return float(np.max(probs.max(axis=0) / probs.min(axis=0)))


@pytest.mark.parametrize("k", KS + (6,))
@pytest.mark.parametrize("eps", EPSILONS + (8.0,))
def test_exact_guarantee_output_space(k, eps):
    e = math.exp(eps)
    # GRR: the k x k channel, tight.
    ch = GRR(k, eps).channel
    np.testing.assert_allclose(ch.sum(axis=1), 1.0)
    assert _max_ratio(ch) == pytest.approx(e, rel=1e-12)
    # Unary encodings and thresholded HE: every bit vector.
    for mech, tight in ((RAPPOR(k, eps), True), (OUE(k, eps), True), (THE(k, eps), False)):
        probs = _bit_vector_probs(mech.p, mech.q, k)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0)
        ratio = _max_ratio(probs)
        assert ratio <= e * (1 + 1e-12)
        assert ratio == pytest.approx(mech.worst_case_ratio(), rel=1e-9)
        if tight:
            assert ratio == pytest.approx(e, rel=1e-9)
    # SS: every subset of size omega, tight.
    for variant in ("authors", "paper"):
        ss = SS(k, eps, variant=variant)
        subsets = list(itertools.combinations(range(k), ss.omega))
        probs = np.array([[ss.output_probability(v in s) for s in subsets] for v in range(k)])
        np.testing.assert_allclose(probs.sum(axis=1), 1.0)
        assert _max_ratio(probs) == pytest.approx(e, rel=1e-9)
    # Local hashing: the report (H, z) given the public H is GRR on [g] of H(v).
    rng = np.random.default_rng(0)
    for mech in (BLH(k, eps), OLH(k, eps), OLH(k, eps, variant="paper")):
        if mech.g > 200:
            continue
        a = rng.integers(1, PRIME, 50)
        b = rng.integers(0, PRIME, 50)
        hv = mech.hash(a[:, None], b[:, None], np.arange(k)[None, :])  # (H, v)
        chan = mech.channel  # g x g
        probs = chan[hv]  # (H, v, z) = P(z | H, v)
        ratio = np.max(probs.max(axis=1) / probs.min(axis=1))
        assert ratio <= e * (1 + 1e-12)
        if np.any(hv.min(axis=1) != hv.max(axis=1)):
            assert ratio == pytest.approx(e, rel=1e-9)


@pytest.mark.parametrize("eps", EPSILONS)
def test_exact_guarantee_noisy_histogram_density(eps):
    mech = THE(4, eps, report="vector")
    z = np.random.default_rng(0).normal(0.5, 3, size=(20_000, 4))
    for v, v2 in itertools.permutations(range(4), 2):
        assert mech.noisy_vector_density_ratio(z, v, v2).max() <= math.exp(eps) * (1 + 1e-12)
    z_star = np.array([[1.5, -0.5, 0.0, 0.0]])  # z_v >= 1, z_v' <= 0: the bound is attained
    assert mech.noisy_vector_density_ratio(z_star, 0, 1)[0] == pytest.approx(math.exp(eps))


# ---------------------------------------------------------------------------
# Parameter rules
# ---------------------------------------------------------------------------


def test_parameter_rules_and_variants():
    assert olh_g(1.0, "authors") == round(math.e) + 1 == 4
    assert olh_g(1.0, "paper") == math.floor(math.e + 1) == 3
    assert olh_g(8.0, "authors") == round(math.exp(8)) + 1
    # SS: rint vs floor, lower bound 1.
    assert subset_size(74, 0.25, "authors") == int(np.rint(74 / (math.exp(0.25) + 1)))
    assert subset_size(74, 0.25, "paper") == math.floor(74 / (math.exp(0.25) + 1))
    assert subset_size(5, 0.1, "authors") == 2 and subset_size(5, 0.1, "paper") == 2
    assert subset_size(10, 1.0, "authors") == 3 and subset_size(10, 1.0, "paper") == 2
    assert subset_size(2, 8.0) == 1 and subset_size(2, 8.0, "paper") == 1
    # THE threshold: values quoted from the authors' run; both search intervals agree.
    for eps, theta in ((0.25, 0.53), (1.0, 0.62), (8.0, 0.90), (25.0, 0.97)):
        assert the_threshold(eps) == pytest.approx(theta, abs=0.01)
        assert the_threshold(eps, "paper") == pytest.approx(the_threshold(eps), abs=1e-4)
    with pytest.raises(ValueError, match="variant"):
        OLH(4, 1.0, variant="guess")
    with pytest.raises(ValueError, match="omega"):
        SS(4, 1.0, omega=4)
    with pytest.raises(ValueError, match="theta"):
        THE(4, 1.0, theta=1.5)


def test_hash_collision_probability_is_exact():
    # Brute force on a small prime: pairs ((ax+b) mod P, (ay+b) mod P) over a in [1,P), b in [0,P).
    prime, g = 101, 7
    a, b = np.meshgrid(np.arange(1, prime), np.arange(prime), indexing="ij")
    for x, y in ((0, 1), (3, 50), (17, 99)):
        hx = ((a * x + b) % prime) % g
        hy = ((a * y + b) % prime) % g
        assert (hx == hy).mean() == pytest.approx(collision_probability(g, prime), rel=1e-12)
    assert collision_probability(2) == pytest.approx(0.5, abs=1e-9)


# ---------------------------------------------------------------------------
# Audit: empirical output frequencies of perturb vs the exact probabilities
# ---------------------------------------------------------------------------

N_AUDIT = 20_000


@pytest.mark.parametrize(("k", "eps"), [(2, 0.25), (5, 1.0), (7, 4.0)])
def test_audit_grr(k, eps):
    mech = GRR(k, eps)
    rng = np.random.default_rng(100 + k)
    for v in range(k):
        z = mech.perturb(np.full(N_AUDIT, v), rng)
        counts = np.bincount(z, minlength=k)
        row = mech.channel[v]
        assert stats.chisquare(counts, N_AUDIT * row).pvalue > 1e-4
        assert_binomial(counts[v], N_AUDIT, mech.p)


@pytest.mark.parametrize("cls", [RAPPOR, OUE, THE])
@pytest.mark.parametrize(("k", "eps"), [(2, 0.25), (5, 1.0), (6, 4.0)])
def test_audit_bit_vectors(cls, k, eps):
    mech = cls(k, eps)
    rng = np.random.default_rng(200 + k)
    v = 1 if k > 1 else 0
    bits = mech.perturb(np.full(N_AUDIT, v), rng)
    col = bits.sum(axis=0)
    assert_binomial(col[v], N_AUDIT, mech.p)
    for u in range(k):
        if u != v:
            assert_binomial(col[u], N_AUDIT, mech.q)
    # Joint law: number of ones ~ Bernoulli(p) + Binomial(k-1, q) (independent bits).
    ones = bits.sum(axis=1)
    pmf = np.convolve([1 - mech.p, mech.p], stats.binom.pmf(np.arange(k), k - 1, mech.q))
    counts = np.bincount(ones, minlength=k + 1)
    keep = N_AUDIT * pmf > 5
    expected = N_AUDIT * pmf[keep]
    assert stats.chisquare(counts[keep], expected * counts[keep].sum() / expected.sum()).pvalue > 1e-4


@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_audit_the_noisy_vector(eps):
    mech = THE(4, eps, report="vector")
    z = mech.perturb(np.full(N_AUDIT // 2, 2), np.random.default_rng(7))
    noise = z - np.eye(4)[2]
    assert stats.kstest(noise.ravel(), stats.laplace(scale=2 / eps).cdf).pvalue > 1e-4
    sup = mech.support(z).sum(axis=0)
    assert_binomial(sup[2], N_AUDIT // 2, mech.p, shift=0.045)
    assert_binomial(sup[0], N_AUDIT // 2, mech.q, shift=0.045)


@pytest.mark.parametrize(
    ("k", "eps", "variant"),
    [(2, 0.5, "authors"), (5, 0.25, "authors"), (9, 0.5, "paper"), (9, 2.0, "authors")],
)
def test_audit_subset_selection(k, eps, variant):
    mech = SS(k, eps, variant=variant)
    rng = np.random.default_rng(300 + k)
    v = k - 1
    rep = mech.perturb(np.full(N_AUDIT, v), rng)
    assert rep.shape == (N_AUDIT, mech.omega)
    sup = mech.support(rep)
    assert (sup.sum(axis=1) == mech.omega).all()  # no duplicates, exact size
    col = sup.sum(axis=0)
    assert_binomial(col[v], N_AUDIT, mech.p)
    for u in range(k - 1):
        assert_binomial(col[u], N_AUDIT, mech.q)
    # Given the true value is not included, the omega others form a uniform subset.
    if mech.omega >= 2 and k > 3:
        rest = sup[~sup[:, v]]
        combos = itertools.combinations(range(k - 1), 2)
        pairs = np.array([np.sum(rest[:, a] & rest[:, b]) for a, b in combos])
        assert stats.chisquare(pairs).pvalue > 1e-4


@pytest.mark.parametrize(("cls", "k", "eps"), [(BLH, 5, 1.0), (OLH, 6, 1.0), (OLH, 4, 2.5), (OLH, 10, 0.25)])
def test_audit_local_hashing(cls, k, eps):
    mech = cls(k, eps)
    rng = np.random.default_rng(400 + k)
    v = 2
    rep = mech.perturb(np.full(N_AUDIT, v), rng)
    assert ((rep.a >= 1) & (rep.a < PRIME)).all() and ((rep.b >= 0) & (rep.b < PRIME)).all()
    # The report is GRR on [g] of the hashed value.
    hv = mech.hash(rep.a, rep.b, v)
    assert_binomial(int(np.sum(rep.z == hv)), N_AUDIT, mech.p)
    sup = mech.support(rep).sum(axis=0)
    for u in range(k):
        assert_binomial(sup[u], N_AUDIT, mech.p if u == v else mech.q)
    # Hash values of a fixed input are uniform on [g] (universal family).
    if mech.g <= 20:
        assert stats.chisquare(np.bincount(hv, minlength=mech.g)).pvalue > 1e-4


# ---------------------------------------------------------------------------
# Estimators: unbiased, analytic variance = empirical variance
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", PROTOCOLS)
@pytest.mark.parametrize("eps", [0.5, 2.0])
def test_estimator_unbiased_with_analytic_variance(name, eps):
    k, n, reps = 5, 1000, 300
    truth = np.repeat(np.arange(k), [400, 250, 200, 100, 50])
    f = np.bincount(truth, minlength=k) / n
    mech = make_protocol(name, k, eps)
    rng = np.random.default_rng(500 + PROTOCOLS.index(name))
    sup = mech.support(mech.perturb(np.tile(truth, reps), rng)).reshape(reps, n, k)
    est = (sup.sum(axis=1) / n - mech.q) / (mech.p - mech.q)
    var = mech.variance(n, f)
    se_mean = np.sqrt(var / reps)
    assert np.all(np.abs(est.mean(axis=0) - f) < 4.5 * se_mean)
    ratio = est.var(axis=0, ddof=1) / var
    assert np.all(np.abs(ratio - 1) < 4.5 * math.sqrt(2 / (reps - 1))), ratio
    # estimate() agrees with the block formula on one block.
    block = mech.perturb(truth, np.random.default_rng(1))
    e1 = mech.estimate(block)
    e2 = (mech.support(block).sum(axis=0) / n - mech.q) / (mech.p - mech.q)
    np.testing.assert_allclose(e1, e2)


@pytest.mark.parametrize("name", PROTOCOLS)
@pytest.mark.parametrize("eps", [37.0, 45.0, 50.0])  # arcolezi2023's appendix reaches eps_j = 49
def test_large_epsilon_runs_and_stays_unbiased(name, eps):
    """At large eps_j, BLH's p rounds to 1.0 and OUE's q falls below 2**-63: no crash, still unbiased."""
    k, n = 5, 20_000
    truth = np.repeat(np.arange(k), [8000, 5000, 4000, 2000, 1000])
    f = np.bincount(truth, minlength=k) / n
    mech = make_protocol(name, k, eps)
    est = mech.estimate(mech.perturb(truth, np.random.default_rng(7)))
    se = np.sqrt(mech.variance(n, f))
    assert np.all(np.abs(est - f) <= 5 * se + 1e-12), (est, f, se)


@pytest.mark.parametrize("name", PROTOCOLS)
@pytest.mark.parametrize("eps", [80.0, 800.0, 1e6])
def test_huge_epsilon_is_accepted_and_reported_honestly(name, eps):
    """Any finite budget works: no overflow in p, q or the threshold, no division by zero.

    The worst-case ratio is e^eps where the float probabilities resolve it, and
    inf where a probability rounded to 0 or 1 (the float mechanism is then
    deterministic in that report); never a finite value above e^eps.
    """
    k, n = 5, 20_000
    truth = np.repeat(np.arange(k), [8000, 5000, 4000, 2000, 1000])
    f = np.bincount(truth, minlength=k) / n
    mech = make_protocol(name, k, eps)
    assert 0.0 <= mech.q < mech.p <= 1.0
    est = mech.estimate(mech.perturb(truth, np.random.default_rng(7)))
    se = np.sqrt(mech.variance(n, f))
    assert np.all(np.abs(est - f) <= 5 * se + 1e-12), (est, f, se)
    ratio = mech.worst_case_ratio()
    if math.isfinite(ratio):
        assert ratio <= math.exp(min(eps, 709.0)) * (1 + 1e-9)
        if name != "THE":  # the other six are tight
            assert ratio == pytest.approx(math.exp(eps), rel=1e-9)


def test_logistic_tail_and_the_objective_across_their_switch():
    from scipy.special import expit

    from ldpfair.ldp.base import logistic_tail
    from ldpfair.ldp.histogram import the_objective

    for x in (0.5, 10.0, 699.9, 700.0, 700.1, 705.0):
        assert logistic_tail(x) == pytest.approx(expit(-x), rel=1e-13, abs=0)
    assert 0.0 <= logistic_tail(800.0) < 1e-300 and logistic_tail(1e6) == 0.0
    # the_objective switches form at eps * theta / 2 = 300: both sides must agree.
    for eps in (700.0, 1000.0, 5000.0):
        theta = 600.0 / eps
        below, above = the_objective(theta * (1 - 1e-12), eps), the_objective(theta * (1 + 1e-12), eps)
        assert above == pytest.approx(below, rel=1e-6)
    th = the_threshold(1e6)
    assert 0.0 < th < 1.0 and math.isfinite(the_objective(th, 1e6))


def test_projections_are_explicit():
    mech = GRR(6, 0.25)
    v = np.zeros(200, dtype=int)
    raw = mech.estimate(mech.perturb(v, np.random.default_rng(0)))
    assert raw.min() < 0  # the unbiased estimate is not a distribution
    simplex = mech.estimate(mech.perturb(v, np.random.default_rng(0)), projection="simplex")
    clip = mech.estimate(mech.perturb(v, np.random.default_rng(0)), projection="clip")
    for proj in (simplex, clip):
        assert proj.min() >= 0 and proj.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(simplex, project_simplex(raw))
    with pytest.raises(ValueError, match="projection"):
        mech.estimate(v, projection="l1")


def test_project_simplex_is_the_euclidean_projection():
    """KKT conditions: y = max(x - theta, 0), sum y = 1, and x_i <= theta where y_i = 0."""
    rng = np.random.default_rng(0)
    for _ in range(50):
        x = rng.normal(size=rng.integers(2, 9)) * 2
        y = project_simplex(x)
        assert y.min() >= 0 and y.sum() == pytest.approx(1.0)
        pos = y > 0
        theta = (x - y)[pos]
        np.testing.assert_allclose(theta, theta[0], atol=1e-12)
        assert np.all(x[~pos] <= theta[0] + 1e-12)


def test_variance_formula_examples():
    # Wang et al.: Var*(OUE) = 4 e^eps / (n (e^eps - 1)^2); Var*(GRR) = (e^eps + k - 2)/(n (e^eps - 1)^2).
    eps, n, k = 1.3, 1000, 7
    e = math.exp(eps)
    assert OUE(k, eps).variance(n) == pytest.approx(4 * e / (n * (e - 1) ** 2))
    assert GRR(k, eps).variance(n) == pytest.approx((e + k - 2) / (n * (e - 1) ** 2))
    with pytest.raises(ValueError, match="n must be"):
        GRR(k, eps).variance(0)
