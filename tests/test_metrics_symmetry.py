"""Hypothesis tests of symmetries: swapping the group labels flips every signed metric."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpfair import metrics as M

binary = st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1),
                            st.floats(0, 1, allow_nan=False)), min_size=4, max_size=60)


def _eq(x, y):
    return (np.isnan(x) and np.isnan(y)) or abs(x - y) < 1e-12


@settings(max_examples=60, deadline=None)
@given(binary)
def test_swapping_groups_flips_signed_metrics(rows):
    y, p, a, s = (np.array(c) for c in zip(*rows, strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", M.UndefinedRateWarning)
        m, ms = (M.privileged_vs_rest_metrics(y, p, sensitive_features=g) for g in (a, 1 - a))
        k, ks = (M.group_difference_metrics(y, p, sensitive_features=g) for g in (a, 1 - a))
        h, hs = (M.soft_gap_metrics(y, s, sensitive_features=g) for g in (a, 1 - a))
        d, ds = (M.max_gap_metrics(y, p, sensitive_features=g) for g in (a, 1 - a))
        rd, rds = (M.risk_difference(p, sensitive_features=g) for g in (a, 1 - a))
    for name in ("SPD", "EOD", "OAD"):
        assert _eq(m[name], -ms[name])
    for name in ("SD", "EOD", "PED", "OAD", "PRD"):
        assert _eq(k[name], -ks[name])
    for name in ("soft_SP", "soft_EO"):
        assert _eq(h[name], -hs[name])
    for name in ("abs_soft_SP", "abs_soft_EO"):
        assert _eq(h[name], hs[name])
    for name in d:
        assert _eq(d[name], ds[name])
    assert _eq(rd, rds)
    if not np.isnan(m["DI"]) and not np.isnan(ms["DI"]) and m["DI"] != 0:
        assert abs(m["DI"] * ms["DI"] - 1) < 1e-12


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 3)),
                min_size=4, max_size=60), st.permutations([0, 1, 2, 3]))
def test_max_gaps_invariant_under_relabelling(rows, perm):
    y, p, a = (np.array(c) for c in zip(*rows, strict=True))
    b = np.array(perm)[a]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", M.UndefinedRateWarning)
        d = M.max_gap_metrics(y, p, sensitive_features=a)
        e = M.max_gap_metrics(y, p, sensitive_features=b)
        assert _eq(M.data_unfairness(y, sensitive_features=a),
                   M.data_unfairness(y, sensitive_features=b))
    for name in d:
        assert _eq(d[name], e[name])


@settings(max_examples=40, deadline=None)
@given(binary)
def test_rate_gap_conventions_are_consistent_on_a_binary_attribute(rows):
    """Group 1 - group 0 flips with the coding, equals privileged(=1) vs rest, and |.| is the max gap."""
    y, p, a, s = (np.array(c) for c in zip(*rows, strict=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", M.UndefinedRateWarning)
        for rate in M.GAP_RATES:
            g10, g10s = (M.rate_gap(rate, y, p, sensitive_features=g, compare="group1_minus_group0")
                         for g in (a, 1 - a))
            priv1, priv0 = (M.rate_gap(rate, y, p, sensitive_features=a, compare="privileged_vs_rest",
                                       privileged=v) for v in (1, 0))
            top = M.rate_gap(rate, y, p, sensitive_features=a, labels=[0, 1])
            assert _eq(g10, -g10s) and _eq(g10, priv1) and _eq(g10, -priv0) and _eq(abs(g10), top)
        for rate in ("selection_rate", "tpr"):
            soft = M.rate_gap(rate, y, s, sensitive_features=a, compare="group1_minus_group0", soft=True)
            assert _eq(soft, -M.rate_gap(rate, y, s, sensitive_features=1 - a, soft=True,
                                         compare="group1_minus_group0"))
