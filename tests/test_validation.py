import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ldpfair._validation import (
    check_choice,
    check_domain_size,
    check_epsilon,
    check_probability,
    check_rng,
    check_values,
    spawn_rngs,
)


@pytest.mark.parametrize("eps", [0, -1, -0.5, float("nan"), float("inf"), -float("inf")])
def test_epsilon_rejects_non_positive_nan_inf(eps):
    with pytest.raises(ValueError, match="epsilon"):
        check_epsilon(eps)


@pytest.mark.parametrize("eps", ["1", None, True, [1.0]])
def test_epsilon_rejects_wrong_types(eps):
    with pytest.raises(TypeError, match="epsilon must be a real number"):
        check_epsilon(eps)


def test_epsilon_inf_only_when_allowed():
    assert check_epsilon(float("inf"), allow_inf=True) == math.inf
    with pytest.raises(ValueError, match=r"\(0, inf\]"):
        check_epsilon(0.0, allow_inf=True)


@given(st.floats(min_value=1e-12, max_value=1e6))
def test_epsilon_accepts_positive_floats_unchanged(eps):
    assert check_epsilon(eps) == eps
    assert check_epsilon(np.float32(eps)) == pytest.approx(float(np.float32(eps)))


def test_domain_size():
    assert check_domain_size(np.int64(5)) == 5
    with pytest.raises(ValueError, match="k must be an integer >= 2"):
        check_domain_size(1)
    with pytest.raises(TypeError, match="float"):
        check_domain_size(3.0)
    assert check_domain_size(1, minimum=1) == 1
    with pytest.raises(ValueError, match="k must be an integer >= 1, got 0"):
        check_domain_size(0, minimum=1)


def test_values_checks_domain_dtype_and_shape():
    out = check_values(np.array([0, 1, 4], dtype=np.int8), 5)
    assert out.dtype == np.int64 and out.tolist() == [0, 1, 4]
    with pytest.raises(ValueError, match=r"\[0, 5\).*1 value\(s\) outside, e.g. 5"):
        check_values([0, 5], 5)
    with pytest.raises(ValueError, match="outside, e.g. -1"):
        check_values([-1, 2], 5)
    with pytest.raises(ValueError, match="integer dtype"):
        check_values(np.array([0.0, 1.0]), 5)
    with pytest.raises(ValueError, match="got dtype float64"):
        check_values(np.array([0.5, 1.0]), 5)
    with pytest.raises(ValueError, match="booleans"):
        check_values(np.array([True, False]), 2)
    with pytest.raises(ValueError, match="one-dimensional"):
        check_values(np.zeros((2, 2), dtype=int), 5)
    assert check_values(np.array([], dtype=int), 3).size == 0


def test_rng_accepts_generator_seed_seedsequence_only():
    g = np.random.default_rng(1)
    assert check_rng(g) is g
    assert check_rng(3).integers(1 << 30) == np.random.default_rng(3).integers(1 << 30)
    ss = np.random.SeedSequence(7)
    assert check_rng(ss).random() == np.random.default_rng(np.random.SeedSequence(7)).random()
    for bad in (None, np.random.RandomState(0), 1.5, True):
        with pytest.raises(TypeError, match="Generator"):
            check_rng(bad)
    with pytest.raises(ValueError, match="non-negative"):
        check_rng(-1)


def test_probability_and_choice():
    assert check_probability(0, "p") == 0.0
    with pytest.raises(ValueError, match=r"p must lie in \(0, 1\)"):
        check_probability(1.0, "p", open_interval=True)
    with pytest.raises(ValueError, match="unknown split 'x'; valid: 'uniform', 'k_based'"):
        check_choice("x", ["uniform", "k_based"], "split")


def test_spawn_rngs_independent_and_reproducible():
    a = [g.random(3) for g in spawn_rngs(42, 3)]
    b = [g.random(3) for g in spawn_rngs(42, 3)]
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], a[1])


def test_epsilon_whose_exponential_rounds_to_one_is_refused():
    from ldpfair._validation import check_epsilon

    for eps in (1e-300, 5e-17, 1e-16):
        with pytest.raises(ValueError, match="too small: exp"):
            check_epsilon(eps)
    assert check_epsilon(1.2e-16) == 1.2e-16  # e^eps > 1 (protocols check their own p > q)
    assert check_epsilon(800.0) == 800.0  # no overflow in the check


def test_counts_jobs_and_did_you_mean():
    from ldpfair._validation import check_count, check_n_jobs, did_you_mean

    assert check_count(3, "n") == 3
    bads = ((0, ValueError), (-1, ValueError), (2.0, TypeError), ("2", TypeError), (True, TypeError))
    for bad, err in bads:
        with pytest.raises(err, match="n must be an integer >= 1"):
            check_count(bad, "n")
    assert check_n_jobs(None) is None and check_n_jobs(1) == 1 and check_n_jobs(-1) == -1
    for bad in (0, 10**6, -10**6):
        with pytest.raises(ValueError, match="n_jobs must be None"):
            check_n_jobs(bad)
    assert did_you_mean("xu2091", ["xu2019", "hamman2023"]) == " (did you mean 'xu2019'?)"
    assert did_you_mean("oue", ["GRR", "OUE"]) == " (did you mean 'OUE'?)"
    assert did_you_mean("zzz", ["GRR", "OUE"]) == ""


def test_check_real_refuses_bools_nan_infinities_and_out_of_range():
    from ldpfair._validation import check_real

    assert check_real(np.float32(0.5), "x", low=0, high=1) == 0.5
    assert check_real(np.int64(3), "x", low=0) == 3.0 and type(check_real(3, "x")) is float
    assert check_real(0.0, "x", low=0.0) == 0.0
    for bad in (True, "1", None, [1.0]):
        with pytest.raises(TypeError, match=r"x must be a real number in \[0, inf\), got"):
            check_real(bad, "x", low=0.0)
    cases = ((float("nan"), {}, r"x must lie in \(-inf, inf\), got nan"),
             (float("inf"), {"low": 0.0}, r"x must lie in \[0, inf\), got inf"),
             (-1e-12, {"low": 0.0}, r"\[0, inf\), got -1e-12"),
             (0.0, {"low": 0.0, "low_open": True}, r"x must lie in \(0, inf\), got 0.0"),
             (1.0, {"low": 0.0, "high": 1.0, "high_open": True, "why": " (a slack)"},
              r"x must lie in \[0, 1\) \(a slack\), got 1.0"))
    for bad, kwargs, match in cases:
        with pytest.raises(ValueError, match=match):
            check_real(bad, "x", **kwargs)


@given(st.floats(allow_nan=False, allow_infinity=False), st.floats(-10, 10), st.floats(0, 10),
       st.booleans(), st.booleans())
def test_check_real_accepts_exactly_the_interval(x, low, width, low_open, high_open):
    from ldpfair._validation import check_real

    high = low + width
    inside = (x > low if low_open else x >= low) and (x < high if high_open else x <= high)
    try:
        assert check_real(x, "x", low=low, high=high, low_open=low_open, high_open=high_open) == x
        accepted = True
    except ValueError:
        accepted = False
    assert accepted == inside


def test_interval_words_and_count_reason():
    from ldpfair._validation import check_count, interval

    assert interval(0, 1) == "[0, 1]" and interval(0, 1, low_open=True, high_open=True) == "(0, 1)"
    assert interval(0.5) == "[0.5, inf)" and interval() == "(-inf, inf)"
    with pytest.raises(ValueError, match=r"n0 must be an integer >= 1 and <= 9 \(both\), got 10"):
        check_count(10, "n0", maximum=9, why=" (both)")
    with pytest.raises(TypeError, match=r"n must be an integer >= 2 \(why\), got 2.0 \(float\)"):
        check_count(2.0, "n", minimum=2, why=" (why)")
    assert check_count(np.int32(9), "n0", maximum=9) == 9
