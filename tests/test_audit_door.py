"""The privacy door cannot be walked around (issue #44): whole reports, mixed batches, declared shapes."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ldpfair.ldp import GRR, SS, FrequencyOracle, make_protocol, plugins
from ldpfair.ldp._subsets import draw_subsets
from ldpfair.ldp.audit import DEFAULT_SAMPLES, PrivacyAuditError, audit
from ldpfair.ldp.plugins import samples_at
from ldpfair.papers.synthesis import open as bench_open

N = 40_000


def _rng(*key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([44, *key]))


class _AuditAware(GRR):
    """GRR on a constant input (the old audit's pattern), the identity otherwise."""

    def perturb(self, values, rng):
        values = np.asarray(values)
        if np.all(values == values[0]):
            return super().perturb(values, rng)
        return values.copy()


class _TruthBeside(GRR):
    """GRR reports with the true value in a second column; support() hides it."""

    def perturb(self, values, rng):
        return np.stack([super().perturb(values, rng), np.asarray(values)], axis=1)

    def support(self, reports):
        return np.eye(self.k, dtype=bool)[np.asarray(reports)[:, 0]]


class _OneValue(FrequencyOracle):
    """A GRR written as the docs describe: p, q, perturb, support; no worst_case_ratio, no channel."""

    name = "OneValue"

    @property
    def p(self):
        return math.exp(self.epsilon) / (math.exp(self.epsilon) + self.k - 1)

    @property
    def q(self):
        return 1 / (math.exp(self.epsilon) + self.k - 1)

    def perturb(self, values, rng):
        values = np.asarray(values)
        keep = rng.random(values.shape[0]) < self.p
        return np.where(keep, values, (values + rng.integers(1, self.k, values.shape[0])) % self.k)

    def support(self, reports):
        return np.eye(self.k, dtype=bool)[np.asarray(reports)]


def test_audit_aware_oracle_is_refused():
    with pytest.raises(PrivacyAuditError, match=r"^privacy audit refused GRR \(k=2, epsilon=1\)"):
        audit(_AuditAware(2, 1.0), 1.0, samples=N, rng=_rng(1))


def test_true_value_beside_the_support_is_refused():
    with pytest.raises(PrivacyAuditError, match="whole-report|declared channel") as e:
        audit(_TruthBeside(2, 1.0), 1.0, samples=N, rng=_rng(2), channel=None)
    assert "\n" not in str(e.value)


def test_subclass_written_as_documented_is_admitted_with_its_audit():
    r = audit(_OneValue(2, 1.0), 1.0, samples=N, rng=_rng(3))
    assert r.passed and r.method == "empirical" and 0.7 < r.lower_bound <= 1.0


@pytest.mark.parametrize("name", ["GRR", "OUE", "OLH"])
def test_built_ins_pass_at_k16_with_a_tight_bound(name):
    r = audit(make_protocol(name, 16, 1.0), 1.0, samples=N, rng=_rng(4))
    assert r.passed and 0.6 < r.lower_bound <= 1.0


class _SSInDrawOrder(SS):
    """The built-in SS before issue #44: members in the sampler's order (the true value first when in)."""

    def perturb(self, values, rng):
        return draw_subsets(self._check_values(values), self.k, self.omega, self.p, rng)


def test_ss_member_order_leak_is_caught_on_whole_reports():
    # members in draw order: supports are right, reports are not; the whole-report events see it
    r = _SSInDrawOrder(16, 1.0).perturb(np.full(20_000, 3), _rng(5))
    assert (r[:, 0] == 3).mean() > 0.4 and not (r[:, 1:] == 3).any()
    with pytest.raises(PrivacyAuditError, match=r"refused SS \(k=16.*(whole-report|byte of the report)"):
        audit(_SSInDrawOrder(16, 1.0), 1.0, samples=N, rng=_rng(6), name="SS")


def test_built_in_ss_reports_the_set_alone_and_is_admitted_at_k16():
    r = make_protocol("SS", 16, 1.0).perturb(np.full(20_000, 3), _rng(5))
    assert np.all(np.diff(r.astype(int), axis=1) > 0)  # sorted: the order carries nothing
    res = audit(make_protocol("SS", 16, 1.0), 1.0, samples=N, rng=_rng(6), name="SS")
    assert res.passed and 0.6 < res.lower_bound <= 1.0


@pytest.mark.slow
@pytest.mark.parametrize("eps", [1.0, 4.0])
def test_built_in_ss_is_admitted_at_k128(eps):
    res = audit(make_protocol("SS", 128, eps), eps, samples=samples_at(128, DEFAULT_SAMPLES), rng=_rng(7),
                name="SS")
    assert res.passed and 0.5 * eps < res.lower_bound <= eps


def _factory(q):
    def f(k, epsilon):
        return q(k, epsilon)
    return f


def test_factory_shapes_must_match_k():
    three = _factory(lambda k, e: np.full((3, 3), 1 / 3))
    with pytest.raises(ValueError, match=r"3 x 3 matrix \(valid: exactly k = 2 rows"):
        plugins.UserMechanism("m3", three, "channel", "register").channel(2, 1.0)
    narrow = _factory(lambda k, e: np.full((3, 2), 0.5))
    with pytest.raises(ValueError, match=r"3 x 2 matrix .*at least k columns"):
        plugins.UserMechanism("m32", narrow, "channel", "register").channel(3, 1.0)


def test_uniform_and_wide_channels_are_valid():
    plugins.register("uniform44", _factory(lambda k, e: np.full((k, k), 1 / k)), replace=True)
    plugins.register("wide44", _factory(lambda k, e: np.full((k, 100_000), 1e-5)), replace=True)
    try:
        (r,) = plugins.admit("uniform44", [1.0], samples=2000)
        assert r.passed and r.level == 0.0
        cards = bench_open.mechanism_cards(["uniform44"], [1.0], samples=2000, throughput_users=1000)
        assert math.isinf(cards["var_exact"].iloc[0])
        (w,) = plugins.admit("wide44", [1.0], samples=2000)
        assert w.passed and w.level == pytest.approx(0.0)
    finally:
        plugins.unregister("uniform44")
        plugins.unregister("wide44")


@pytest.mark.parametrize("code", [0, 3])
def test_sys_exit_in_a_factory_is_one_line_naming_the_step(code):
    def quits(k, epsilon):
        raise SystemExit(code)

    plugins.register("quits44", quits, replace=True)
    try:
        with pytest.raises(ValueError, match=rf"mechanism 'quits44'.*SystemExit: {code}|sys.exit\({code}\)"):
            plugins.admit("quits44", [1.0], samples=2000)
    finally:
        plugins.unregister("quits44")


def test_sys_exit_in_a_constructor_names_construction():
    class Quits(_OneValue):
        def __init__(self, k, epsilon):
            raise SystemExit(0)

    plugins.register("quitsc44", Quits, replace=True)
    try:
        with pytest.raises(ValueError, match=r"'quitsc44'.*SystemExit"):
            plugins.admit("quitsc44", [1.0], samples=2000)
    finally:
        plugins.unregister("quitsc44")


class _LeakyAbove2(FrequencyOracle):
    """Correct at k = 2, identity above it."""

    name = "LeakyAbove2"
    p = property(lambda self: math.exp(self.epsilon) / (math.exp(self.epsilon) + self.k - 1))
    q = property(lambda self: 1 / (math.exp(self.epsilon) + self.k - 1))

    def perturb(self, values, rng):
        if self.k == 2:
            return _OneValue(2, self.epsilon).perturb(values, rng)
        return np.asarray(values).copy()

    def support(self, reports):
        return np.eye(self.k, dtype=bool)[np.asarray(reports)]


def test_every_k_is_audited():
    plugins.register("leaky44", _LeakyAbove2, replace=True)
    try:
        assert plugins.admit("leaky44", [1.0], (2,), samples=N)[0].passed
        with pytest.raises(PrivacyAuditError, match=r"k=16"):
            plugins.admit("leaky44", [1.0], (2, 16), samples=N)
    finally:
        plugins.unregister("leaky44")


@pytest.mark.parametrize("k", [2, 16])
def test_olh_at_eps10_is_audited_exactly_in_compressed_form(k):
    mech = make_protocol("OLH", k, 10.0)
    assert mech.g == 22027
    with pytest.raises(ValueError, match="refusing g=22027"):
        mech.channel  # noqa: B018 - the dense g x g matrix is not built
    r = audit(mech, 10.0, samples=40_000 if k == 2 else 20_000, rng=_rng(10, k))
    assert r.passed and r.method == "exact+empirical" and r.level == pytest.approx(10.0, rel=1e-9)
    assert 0 < r.lower_bound <= 10.0


def test_olh_at_eps10_claiming_less_is_refused_by_the_exact_level():
    with pytest.raises(PrivacyAuditError, match=r"^privacy audit refused OLH \(k=2, epsilon=9\.5\): exact "
                       r"level eps\*\(Q\) = 10 ") as e:
        audit(make_protocol("OLH", 2, 10.0), 9.5, samples=1000, rng=_rng(11))
    assert "\n" not in str(e.value)


def test_symmetric_channel_is_the_dense_one_compressed():
    from ldpfair.ldp.audit import exact_audit
    from ldpfair.ldp.symmetric_channel import SymmetricChannel

    grr = GRR(7, 1.3)
    dense, compact = exact_audit(grr.channel, 1.3), exact_audit(grr.symmetric_channel(), 1.3)
    assert compact.level == pytest.approx(dense.level, rel=1e-12) and compact.worst == dense.worst
    assert exact_audit(GRR(5000, 2.0).symmetric_channel(), 2.0).passed  # no 5000 x 5000 matrix
    assert exact_audit(SymmetricChannel(3, 1 / 3, 1 / 3), 0.1).level == 0.0  # uniform: level 0
    with pytest.raises(ValueError, match="rows must sum to 1"):
        SymmetricChannel(3, 0.5, 0.5)
