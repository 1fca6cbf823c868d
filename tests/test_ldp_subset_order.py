"""No result depends on the order of subset selection's members (issue #44).

``SS.perturb`` sorts each subset since issue #44 (the sampler's order put the true
value first whenever it was in). Every use of SS reports in the chapters goes
through the support (the indicator vector of the set: ``privatize`` /
``privatize_frame``, which the engine calls for arcolezi2023's and
ghoukasian2025's grids) or through ``support_counts`` (``estimate``: the
synthesis chapter's cards and runs); ``output="values"`` is refused for SS. These
tests draw with the former order and with the sorted one from the same seeds and
check that every such output, and the generator's state after it, is identical.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ldpfair.ldp import SS, make_protocol, privatize, privatize_frame
from ldpfair.ldp._subsets import draw_subsets


def _draw_order(self, values, rng):
    """``SS.perturb`` before issue #44: the members in the order the sampler drew them."""
    return draw_subsets(self._check_values(values), self.k, self.omega, self.p, rng)


def _both(fn, monkeypatch):
    """``fn()`` with sorted members, then with the former order; each with the next uniform after it."""
    rng = np.random.default_rng(2026)
    sorted_out = fn(rng), float(rng.random())
    with monkeypatch.context() as m:
        m.setattr(SS, "perturb", _draw_order)
        rng = np.random.default_rng(2026)
        drawn_out = fn(rng), float(rng.random())
    return sorted_out, drawn_out


@pytest.mark.parametrize(("k", "eps"), [(2, 0.5), (5, 1.0), (16, 4.0), (74, 2.0), (1000, 0.25)])
def test_reports_differ_only_in_order(k, eps, monkeypatch):
    values = np.random.default_rng(k).integers(0, k, 5000)
    (new, u_new), (old, u_old) = _both(lambda rng: SS(k, eps).perturb(values, rng), monkeypatch)
    assert u_new == u_old
    assert np.array_equal(new, np.sort(old, axis=1))
    if SS(k, eps).omega > 1:  # the former order was not sorted: the test can tell them apart
        assert not np.array_equal(new, old)


@pytest.mark.parametrize("split", ["uniform", "k_based"])
def test_privatized_supports_are_identical(split, monkeypatch):
    # arcolezi2023 (indicator columns of several sensitive attributes) and ghoukasian2025 (one)
    gen = np.random.default_rng(1)
    cols = {"a": gen.integers(0, 2, 3000), "b": gen.integers(0, 7, 3000), "c": gen.integers(0, 40, 3000)}
    doms = {"a": 2, "b": 7, "c": 40}
    (new, u_new), (old, u_old) = _both(
        lambda rng: privatize(cols, doms, 2.0, protocol="SS", split=split, rng=rng), monkeypatch)
    assert u_new == u_old and list(new) == list(old)
    for c in cols:
        assert np.array_equal(new[c], old[c])


def test_privatized_frame_is_identical(monkeypatch):
    gen = np.random.default_rng(2)
    df = pd.DataFrame({"x": gen.normal(size=2000), "g": gen.integers(0, 2, 2000),
                       "r": gen.integers(0, 5, 2000)})
    (new, u_new), (old, u_old) = _both(
        lambda rng: privatize_frame(df, ["g", "r"], 1.0, protocol="SS", rng=rng), monkeypatch)
    assert u_new == u_old
    pd.testing.assert_frame_equal(new, old)


@pytest.mark.parametrize(("k", "eps"), [(5, 1.0), (128, 4.0), (1000, 0.5)])
def test_estimates_are_identical(k, eps, monkeypatch):
    values = np.random.default_rng(k).integers(0, k, 20_000)

    def est(rng):
        mech = make_protocol("SS", k, eps)
        return mech.estimate(mech.perturb(values, rng))

    (new, u_new), (old, u_old) = _both(est, monkeypatch)
    assert u_new == u_old and np.array_equal(new, old)


def test_ss_members_are_never_read_as_values():
    with pytest.raises(ValueError, match="output='support'"):
        privatize({"a": np.array([0, 1, 2])}, {"a": 3}, 1.0, protocol="SS", output="values", rng=0)
