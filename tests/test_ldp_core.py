"""Public contract of ldpfair.ldp: registry, budget split, privatize, validation, determinism."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ldpfair.ldp import (
    GRR,
    OUE,
    PROTOCOLS,
    RAPPOR,
    SS,
    ChannelMechanism,
    decode_combined,
    encode_combined,
    make_protocol,
    opt_factory,
    privatize,
    privatize_frame,
    split_budget,
)


def test_protocol_names_and_aliases():
    assert PROTOCOLS == ("GRR", "BLH", "OLH", "RAPPOR", "OUE", "SS", "THE")
    for name in PROTOCOLS:
        assert type(make_protocol(name.lower(), 5, 1.0)).__name__ == name
    assert isinstance(make_protocol("SUE", 4, 1.0), RAPPOR)
    assert isinstance(make_protocol("kRR", 4, 1.0), GRR)
    with pytest.raises(ValueError, match="GRR, BLH, OLH, RAPPOR, OUE, SS, THE"):
        make_protocol("nope", 4, 1.0)
    assert "epsilon=1.0" in repr(make_protocol("OUE", 4, 1.0))


@pytest.mark.parametrize("name", PROTOCOLS)
@pytest.mark.parametrize(
    ("k", "eps", "exc", "match"),
    [
        (1, 1.0, ValueError, "k must be an integer >= 2"),
        (4, 0.0, ValueError, "epsilon must lie in"),
        (4, -1.0, ValueError, "epsilon must lie in"),
        (4, float("nan"), ValueError, "epsilon"),
        (4, float("inf"), ValueError, "epsilon"),
        (4.0, 1.0, TypeError, "k must be an integer"),
    ],
)
def test_parameter_validation(name, k, eps, exc, match):
    with pytest.raises(exc, match=match):
        make_protocol(name, k, eps)


@pytest.mark.parametrize("name", PROTOCOLS)
def test_value_validation(name):
    mech = make_protocol(name, 4, 1.0)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match=r"\[0, 4\)"):
        mech.perturb(np.array([0, 4]), rng)
    with pytest.raises(ValueError, match=r"\[0, 4\)"):
        mech.perturb(np.array([-1, 0]), rng)
    with pytest.raises(ValueError, match="integer"):
        mech.perturb(np.array([0.0, 1.5]), rng)
    with pytest.raises(TypeError, match="rng"):
        mech.perturb(np.array([0, 1]), None)


def test_split_budget_rules():
    ks = [2, 5, 41, 74]
    np.testing.assert_allclose(split_budget(50, ks, "k_based"), 50 * np.array(ks) / 122)
    np.testing.assert_allclose(split_budget(50, ks, "k_based"), [0.8197, 2.0492, 16.8033, 30.3279], atol=1e-4)
    np.testing.assert_allclose(split_budget(2.0, ks, "uniform"), [0.5] * 4)
    np.testing.assert_allclose(split_budget(3.0, [2, 3], [1, 2]), [1.0, 2.0])
    for eps, ks_, split in [(1.0, [2, 3], "k_based"), (0.7, [7], "uniform"), (5.0, [2, 2, 9], [0.1, 3, 2])]:
        assert np.isclose(split_budget(eps, ks_, split).sum(), eps)
    with pytest.raises(ValueError, match="split weights must be finite and > 0"):
        split_budget(1.0, [2, 3], [1, 0])
    with pytest.raises(ValueError, match="one entry per attribute"):
        split_budget(1.0, [2, 3], [1, 2, 3])
    with pytest.raises(ValueError, match="unknown split"):
        split_budget(1.0, [2, 3], "kbased")
    with pytest.raises(ValueError, match="epsilon"):
        split_budget(0, [2, 3])


def _columns(n, rng):
    return {"a": rng.integers(0, 3, n), "b": rng.integers(0, 2, n), "c": rng.integers(0, 74, n)}


DOMAINS = {"a": 3, "b": 2, "c": 74}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_privatize_support_shapes_and_determinism(protocol):
    cols = _columns(500, np.random.default_rng(1))
    out1 = privatize(cols, DOMAINS, 2.0, protocol=protocol, rng=np.random.default_rng(7))
    out2 = privatize(cols, DOMAINS, 2.0, protocol=protocol, rng=np.random.default_rng(7))
    out3 = privatize(cols, DOMAINS, 2.0, protocol=protocol, rng=np.random.default_rng(8))
    assert list(out1) == ["a", "b", "c"]
    for c, k in DOMAINS.items():
        assert out1[c].shape == (500, k) and out1[c].dtype == bool
        np.testing.assert_array_equal(out1[c], out2[c])
    assert any(not np.array_equal(out1[c], out3[c]) for c in DOMAINS)
    if protocol == "GRR":
        assert all((out1[c].sum(axis=1) == 1).all() for c in DOMAINS)


@pytest.mark.parametrize("name", PROTOCOLS)
def test_same_seed_same_reports(name):
    mech = make_protocol(name, 6, 1.5)
    v = np.random.default_rng(3).integers(0, 6, 300)
    r1 = mech.support(mech.perturb(v, np.random.default_rng(11)))
    r2 = mech.support(mech.perturb(v, np.random.default_rng(11)))
    np.testing.assert_array_equal(r1, r2)


def test_privatize_values_and_errors():
    cols = _columns(200, np.random.default_rng(2))
    out = privatize(cols, DOMAINS, 1.0, protocol="GRR", output="values", rng=0)
    assert all(out[c].dtype == np.int64 and out[c].max() < DOMAINS[c] for c in DOMAINS)
    with pytest.raises(ValueError, match='output="values"'):
        privatize(cols, DOMAINS, 1.0, protocol="OUE", output="values", rng=0)
    with pytest.raises(ValueError, match="combined"):
        privatize(cols, DOMAINS, 1.0, protocol="OUE", mode="combined", rng=0)
    with pytest.raises(ValueError, match="domain size"):
        privatize(cols, {"a": 3}, 1.0, rng=0)
    with pytest.raises(ValueError, match=r"columns\['a'\] must lie in \[0, 2\)"):
        privatize(cols, {**DOMAINS, "a": 2}, 1.0, rng=0)
    with pytest.raises(ValueError, match="unknown mode"):
        privatize(cols, DOMAINS, 1.0, mode="joint", rng=0)


def test_budget_split_is_applied():
    seen = []

    def factory(k, eps, values):
        seen.append((k, eps))
        return GRR(k, eps)

    cols = _columns(50, np.random.default_rng(0))
    privatize(cols, DOMAINS, 7.9, protocol=factory, split="k_based", rng=0)
    np.testing.assert_allclose([e for _, e in seen], 7.9 * np.array([3, 2, 74]) / 79)
    seen.clear()
    privatize(cols, DOMAINS, 3.0, protocol=factory, split="uniform", rng=0)
    np.testing.assert_allclose([e for _, e in seen], [1.0, 1.0, 1.0])


def test_combined_encoding_roundtrip_large_product():
    rng = np.random.default_rng(5)
    ks = [7, 1000, 999_983, 13]  # product ~ 9.1e10: never materialised
    cols = [rng.integers(0, k, 1000) for k in ks]
    codes, total = encode_combined(cols, ks)
    assert total == 7 * 1000 * 999_983 * 13 and codes.max() < total
    for a, b in zip(decode_combined(codes, ks), cols, strict=True):
        np.testing.assert_array_equal(a, b)


def test_combined_collection_is_grr_on_product():
    """Combined mode = GRR on the product: the tuple is kept w.p. e^eps/(e^eps+K-1)."""
    n, eps = 40_000, 2.0
    cols = {"a": np.full(n, 1), "b": np.full(n, 0), "c": np.full(n, 5)}
    out = privatize(cols, {"a": 3, "b": 2, "c": 6}, eps, mode="combined", output="values", rng=4)
    kept = (out["a"] == 1) & (out["b"] == 0) & (out["c"] == 5)
    p = np.exp(eps) / (np.exp(eps) + 36 - 1)
    assert abs(kept.mean() - p) < 4 * np.sqrt(p * (1 - p) / n)
    # Others uniform over the 35 other tuples.
    codes, _ = encode_combined([out["a"], out["b"], out["c"]], [3, 2, 6])
    counts = np.bincount(codes[~kept], minlength=36)
    true_code = 1 * 12 + 0 * 6 + 5
    assert counts[true_code] == 0
    from scipy.stats import chisquare

    assert chisquare(np.delete(counts, true_code)).pvalue > 1e-4
    # Support output is one-hot of the decoded columns.
    sup = privatize(cols, {"a": 3, "b": 2, "c": 6}, eps, mode="combined", rng=4)
    np.testing.assert_array_equal(sup["c"].argmax(axis=1), out["c"])


def test_single_attribute_setting():
    v = np.random.default_rng(0).integers(0, 2, 1000)
    a = privatize({"A": v}, {"A": 2}, 1.0, output="values", rng=9)["A"]
    b = GRR(2, 1.0).perturb(v, np.random.default_rng(9))
    np.testing.assert_array_equal(a, b)


def test_privatize_frame_encodings():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"x": rng.normal(size=300), "g": rng.integers(0, 2, 300), "r": rng.integers(0, 5, 300)})
    ive = privatize_frame(df, ["g", "r"], 1.0, protocol="SS", domains={"g": 2, "r": 5}, rng=1)
    assert list(ive.columns) == ["x", "g_0", "g_1", "r_0", "r_1", "r_2", "r_3", "r_4"]
    assert ive["x"].equals(df["x"])
    vals = privatize_frame(df, ["g", "r"], 1.0, mode="combined", encoding="values", rng=1)
    assert list(vals.columns) == ["x", "g", "r"] and vals["r"].between(0, 4).all()
    with pytest.raises(ValueError, match="not in the frame"):
        privatize_frame(df, ["zz"], 1.0, rng=1)


def test_opt_factory_with_privatize():
    rng = np.random.default_rng(0)
    a = (rng.random(2000) < 0.3).astype(int)
    y = (rng.random(2000) < 0.4 + 0.3 * a).astype(int)
    out = privatize({"A": a}, {"A": 2}, 1.0, protocol=opt_factory(y), output="values", rng=1)["A"]
    assert out.shape == a.shape
    mech = opt_factory(y)(2, 1.0, a)
    assert isinstance(mech, ChannelMechanism) and mech.reports_are_values
    # group 1 is the minority: kept w.p. 1 - e^-1/2; the majority (0) is a coin.
    np.testing.assert_allclose(mech.Q, [[0.5, 0.5], [np.exp(-1) / 2, 1 - np.exp(-1) / 2]])


def test_unary_reports_are_boolean_matrices():
    v = np.arange(5)
    for cls in (RAPPOR, OUE):
        r = cls(5, 1.0).perturb(v, np.random.default_rng(0))
        assert r.dtype == bool and r.shape == (5, 5)
    r = SS(10, 0.5).perturb(np.arange(10), np.random.default_rng(0))
    assert r.shape == (10, SS(10, 0.5).omega)
    assert all(len(set(row)) == len(row) for row in r.tolist())
