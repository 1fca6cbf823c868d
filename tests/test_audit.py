"""Privacy audits at the door: exact (channel) and empirical (sampler) audits, and user mechanisms."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from ldpfair.ldp import GRR, PROTOCOLS, FrequencyOracle, make_protocol, optimal_binary, plugins
from ldpfair.ldp.audit import PrivacyAuditError, audit, clopper_pearson, empirical_audit, exact_audit

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "tilted_rr.py"
N = 100_000  # reports per input in the tests (the door uses 10^6)


def _rng(*key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([20261124, *key]))


@pytest.mark.parametrize("eps", [1.0, 4.0])
@pytest.mark.parametrize("name", [*PROTOCOLS, "OPT"])
def test_book_mechanisms_pass_with_lower_bound_below_exact_level(name, eps):
    mech = optimal_binary((0.3, 0.7), eps) if name == "OPT" else make_protocol(name, 2, eps)
    r = audit(
        mech, eps, samples=N, rng=_rng(PROTOCOLS.index(name) if name != "OPT" else 9, int(eps)), name=name
    )
    exact = math.log(mech.worst_case_ratio())
    assert r.passed and r.level == pytest.approx(exact)
    # a valid lower bound never exceeds the exact level; at 10^5 reports it is close to it
    # (k = 2: the event {support = the true value} is likelihood-ratio optimal)
    assert r.lower_bound <= exact
    assert r.lower_bound > 0.85 * exact


class _LeakyGRR(GRR):
    """GRR whose sampler keeps the value with the probability of 2 epsilon (p, q and channel say epsilon)."""

    def perturb(self, values, rng):
        return GRR(self.k, 2 * self.epsilon).perturb(values, rng)


class _BrokenGRR(FrequencyOracle):
    """A GRR written without a channel whose p is computed from 2 epsilon."""

    name = "BrokenGRR"

    @property
    def p(self):
        return math.exp(2 * self.epsilon) / (math.exp(2 * self.epsilon) + self.k - 1)

    @property
    def q(self):
        return (1 - self.p) / (self.k - 1)

    def worst_case_ratio(self):
        return self.p / self.q  # one value per report, as GRR

    def perturb(self, values, rng):
        values = np.asarray(values)
        keep = rng.random(values.shape[0]) < self.p
        other = (values + rng.integers(1, self.k, values.shape[0])) % self.k
        return np.where(keep, values, other)

    def support(self, reports):
        return np.eye(self.k, dtype=bool)[reports]


class _SamplerOnly(_BrokenGRR):
    """The same leaky sampler, declaring the right p (only sampling can catch it)."""

    @property
    def p(self):
        return math.exp(self.epsilon) / (math.exp(self.epsilon) + self.k - 1)

    def perturb(self, values, rng):
        return GRR(self.k, 2 * self.epsilon).perturb(values, rng)


def test_leaky_sampler_is_refused_by_the_empirical_audit():
    with pytest.raises(
        PrivacyAuditError, match=r"refused GRR \(k=2, epsilon=1\): .*(declared channel|exceeds epsilon = 1)"
    ):
        audit(_LeakyGRR(2, 1.0), 1.0, samples=N, rng=_rng(1))
    # the sampler keeps the value at the rate of 2 epsilon while declaring p at epsilon: the
    # consistency test on the mixed batch refuses it before any event is chosen
    with pytest.raises(PrivacyAuditError, match=r"not the declared p = 0\.576"):
        empirical_audit(_SamplerOnly(3, 1.0), 1.0, samples=N, rng=_rng(2))


def test_grr_with_p_from_two_epsilon_is_refused():
    with pytest.raises(PrivacyAuditError, match="declared probabilities give a level of 2"):
        audit(_BrokenGRR(2, 1.0), 1.0, samples=N, rng=_rng(3))


def test_broken_channel_is_refused_naming_worst_pair_and_output():
    Q = np.array([[0.8, 0.1, 0.1], [0.5, 0.3, 0.2], [0.5, 0.25, 0.25]])  # worst: column 1, ln 3
    r = exact_audit(Q, 1.0)
    assert not r.passed and r.worst == (1, 0, 1) and r.level == pytest.approx(math.log(3))
    assert exact_audit(Q, math.log(3)).passed
    bad = np.array([[0.9, 0.1], [0.2, 0.8]])  # level ln(8) ~ 2.08
    r = exact_audit(bad, 1.0)
    assert not r.passed and r.level == pytest.approx(math.log(8)) and r.worst in ((1, 0, 1), (0, 1, 0))
    with pytest.raises(
        PrivacyAuditError, match=r"exact level eps\*\(Q\) = 2.07944 at inputs \(1, 0\) and output 1"
    ):
        audit(None, 1.0, channel=bad, samples=0)


def test_clopper_pearson_bounds_cover_and_are_ordered():
    lo, hi = clopper_pearson(np.array([0, 5, 100]), 100, 0.005)
    assert lo[0] == 0 and hi[2] == 1
    assert np.all(lo <= np.array([0, 0.05, 1])) and np.all(hi >= np.array([0, 0.05, 1]))
    # the bound of 5/100 at one-sided 0.5%: scipy's exact binomial interval at 99%
    from scipy.stats import binomtest

    ci = binomtest(5, 100).proportion_ci(0.99, method="exact")
    assert lo[1] == pytest.approx(ci.low) and hi[1] == pytest.approx(ci.high)


def _tilted_spec() -> str:
    return f"{EXAMPLE}:tilted_rr"


def test_import_path_register_and_entry_point_forms(monkeypatch, capsys):
    um = plugins.resolve_mechanism(_tilted_spec())
    assert um.kind == "channel" and um.origin == "import path"
    assert plugins.display_name(_tilted_spec()) == "tilted_rr"
    r = plugins.admit(_tilted_spec(), [1.0], samples=N)[0]
    assert r.passed and r.level == pytest.approx(1.0) and r.lower_bound <= 1.0
    assert plugins.resolve_mechanism("ldpfair.ldp:GRR").kind == "oracle"
    plugins.register("leaky", _LeakyGRR)
    try:
        with pytest.raises(PrivacyAuditError, match="refused leaky"):
            plugins.admit("leaky", [1.0], samples=N)
    finally:
        plugins.unregister("leaky")
    with pytest.raises(ValueError, match="built-in"):
        plugins.register("GRR", GRR)

    class EP:
        name, value = "tilted", _tilted_spec()

        def load(self):
            return plugins.resolve_mechanism(_tilted_spec()).target

    monkeypatch.setattr(plugins, "_entry_points", lambda: {"tilted": EP()})
    assert plugins.entry_point_names() == {"tilted": _tilted_spec()}
    assert plugins.resolve_mechanism("tilted").origin == "entry point"
    assert plugins.is_user_spec("tilted") and not plugins.is_user_spec("GRR")
    from ldpfair.cli import main

    assert main(["bench", "--list"]) == 0
    assert capsys.readouterr().out.strip() == f"tilted = {_tilted_spec()}"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("no.such.module:X", "could not import module 'no.such.module'"),
        ("ldpfair.ldp:nothing", "has no attribute 'nothing'"),
        ("ldpfair.ldp:channel_epsilon", r"cannot be called as f\(k, epsilon\)"),
        ("ldpfair.ldp:PROTOCOLS", "not callable"),
        ("ldpfair.ldp:ChannelMechanism", "not a FrequencyOracle subclass"),
        ("ldpfair.ldp:UnaryEncoding", "does not implement"),
        ("nope", "unknown mechanism 'nope'"),
    ],
)
def test_bad_mechanisms_get_one_line(spec, message):
    with pytest.raises((ValueError, TypeError), match=message) as info:
        plugins.resolve_mechanism(spec)
    assert "\n" not in str(info.value)


def test_a_factory_returning_a_bad_matrix_is_refused_in_one_line():
    plugins.register("rows", lambda k, eps: np.full((k, k), 0.6))
    plugins.register("leaky_channel", lambda k, eps: np.array([[0.95, 0.05], [0.05, 0.95]]))
    try:
        with pytest.raises(ValueError, match="row-stochastic"):
            plugins.admit("rows", [1.0], samples=N)
        with pytest.raises(
            PrivacyAuditError,
            match=r"refused leaky_channel .*exact level eps\*\(Q\) = 2.94444 at inputs \(0, 1\) and output 0",
        ):
            plugins.admit("leaky_channel", [1.0], samples=N)
        plugins.register("deterministic", lambda k, eps: np.array([[1.0, 0.0], [0.5, 0.5]]))
        with pytest.raises(PrivacyAuditError, match=r"eps\*\(Q\) = inf at inputs \(1, 0\) and output 1"):
            plugins.admit("deterministic", [8.0], samples=N)
    finally:
        plugins.unregister("deterministic")
        plugins.unregister("rows")
        plugins.unregister("leaky_channel")


def test_synthesis_declares_user_mechanisms_after_auditing_them(monkeypatch):
    from ldpfair.papers.synthesis import SPEC
    from ldpfair.papers.synthesis import open as bench_open

    monkeypatch.setattr(bench_open, "AUDIT_SAMPLES", N)
    grids = SPEC.experiments("quick", datasets=["german"], mechanisms=["GRR", _tilted_spec()])
    privs = grids["german"].privatizations
    assert [p.label for p in privs] == [None, "GRR", "tilted_rr"]
    keys = [t.key for t in grids["german"].tasks()]
    again = SPEC.experiments("quick", datasets=["german"], mechanisms=["GRR", _tilted_spec()])
    assert [t.key for t in again["german"].tasks()] == keys  # same mechanism, same cells
    assert SPEC.parameters["mechanisms"].check(["SS", _tilted_spec()], "mechanisms") == ["SS", _tilted_spec()]
    with pytest.raises(ValueError, match="unknown mechanism 'Laplace'"):
        SPEC.parameters["mechanisms"].check(["Laplace"], "mechanisms")
    plugins.register("leaky", _LeakyGRR)
    try:
        with pytest.raises(PrivacyAuditError, match="refused leaky"):
            SPEC.experiments("quick", datasets=["german"], mechanisms=["GRR", "leaky"])
    finally:
        plugins.unregister("leaky")
