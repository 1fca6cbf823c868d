"""Third-party mechanisms at the door (issue #44): pure-ldp and multi-freq-ldpy wrapped as documented."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from ldpfair.cli import main
from ldpfair.ldp import FrequencyOracle
from ldpfair.ldp.audit import PrivacyAuditError, audit

pytest.importorskip("statsmodels")  # pure-ldp imports it
pytest.importorskip("multi_freq_ldpy")
UE = pytest.importorskip("pure_ldp.frequency_oracles.unary_encoding")
from fixtures_thirdparty import MfGRR, MfSS, MfSSDrawOrder, PureDE, PureDEOneBased  # noqa: E402 - after the skips

N = 20_000


def _rng(*key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([4444, *key]))


class PureUE(FrequencyOracle):
    """pure-ldp's symmetric unary encoding (``UEClient``, ``use_oue=False``)."""

    name = "pure-ldp UE"

    def __init__(self, k, epsilon):
        super().__init__(k, epsilon)
        self.client = UE.UEClient(epsilon, k, use_oue=False, index_mapper=lambda x: x)

    @property
    def p(self):
        return math.exp(self.epsilon / 2) / (math.exp(self.epsilon / 2) + 1)

    @property
    def q(self):
        return 1 / (math.exp(self.epsilon / 2) + 1)

    def perturb(self, values, rng):
        np.random.seed(int(rng.integers(2**31)))  # noqa: NPY002 - pure-ldp draws from the legacy global state
        random.seed(int(rng.integers(2**31)))
        return np.array([self.client.privatise(int(v)) for v in values], dtype=bool)

    def support(self, reports):
        return np.asarray(reports, dtype=bool)


def test_pure_ldp_direct_encoding_is_admitted():
    r = audit(PureDE(2, 1.0), 1.0, samples=N, rng=_rng(1))
    assert r.passed and 0.6 < r.lower_bound <= 1.0


def test_one_based_mapper_report_only_input_0_makes_is_refused():
    with pytest.raises(PrivacyAuditError, match=r"^privacy audit refused pure-ldp DE \(k=2"):
        audit(PureDEOneBased(2, 1.0), 1.0, samples=N, rng=_rng(2))


@pytest.mark.parametrize("eps", [1.0, 4.0])
def test_pure_ldp_unary_encoding_is_admitted_and_a_doubled_claim_refused(eps):
    r = audit(PureUE(4, eps), eps, samples=N, rng=_rng(3, int(eps)))
    assert r.passed and r.lower_bound > 0.5 * eps
    with pytest.raises(PrivacyAuditError, match="privacy audit refused pure-ldp UE"):
        audit(PureUE(4, eps), eps / 2, samples=N, rng=_rng(4, int(eps)))


def test_a_built_in_name_is_a_baseline_already(capsys):
    assert main(["bench", "--mechanism", "GRR"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "GRR is a built-in mechanism" in err and "already in every run" in err


@pytest.mark.parametrize("cls", [MfGRR, MfSS])
def test_multi_freq_ldpy_grr_and_ss_are_admitted(cls):
    r = audit(cls(2, 1.0), 1.0, samples=N, rng=_rng(5))
    assert r.passed and 0.6 < r.lower_bound <= 1.0


def test_multi_freq_ldpy_ss_member_order_leaks_and_sorted_is_admitted():
    # SS_Client puts the true value first whenever it is in the subset (as the built-in SS did); its
    # orders are too many for the whole-report buckets, the report-byte view sees the first member
    with pytest.raises(PrivacyAuditError, match=r"refused multi-freq-ldpy SS \(k=16.*one byte of the report"):
        audit(MfSSDrawOrder(16, 1.0), 1.0, samples=2 * N, rng=_rng(6))
    r = audit(MfSS(16, 1.0), 1.0, samples=2 * N, rng=_rng(6))
    assert r.passed and 0.6 < r.lower_bound <= 1.0
