"""Options accepted and then misused (issue #36): every probe gets one clear line or the right result.

Each case was silent (or raised a raw IndexError / numpy message) before the
validation family of :mod:`ldpfair._validation` was applied to it: an option
accepted, then misused (a string taken as truthy, a tolerance that loops, a
report outside its range biasing an estimate, two group labels merged).
"""

from __future__ import annotations

import signal
import warnings
from contextlib import contextmanager

import numpy as np
import pytest

from ldpfair import datasets, ldp, metrics
from ldpfair._validation import (
    check_bool,
    check_label_types,
    check_member,
    check_rate_names,
    check_real_array,
    check_scalar_label,
)
from ldpfair.datasets import makhlouf
from ldpfair.interventions import fairbalance_weights
from ldpfair.ldp import multidim, optimal
from ldpfair.ldp.channel import ChannelMechanism

Q4 = ldp.GRR(4, 3.0).channel  # level 3 > 1: enforce_level has to mix
PA, PY = [0.1, 0.2, 0.3, 0.4], [0.2, 0.4, 0.5, 0.7]
Y = np.array([1, 0, 1, 0, 1, 1, 0, 0])
P = np.array([1, 0, 0, 0, 1, 1, 1, 0])
A = np.array([0, 0, 1, 1, 0, 1, 0, 1])
A_MIXED = [0, "0", 1, 1, 0, 1, "0", 1]


@contextmanager
def returns_within(seconds: float):
    """Fail (instead of hanging the suite) when the body does not return: the base code looped forever."""
    def stop(*_):
        raise AssertionError(f"did not return within {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def one_line(exc: pytest.ExceptionInfo) -> str:
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


# --------------------------------------------------------------------------- optimal mechanisms
@pytest.mark.parametrize("tol", [0, -1, float("nan"), float("inf"), 1.0])
def test_enforce_level_refuses_a_tolerance_outside_0_1(tol):
    with returns_within(20), pytest.raises(ValueError, match=r"tol must lie in \(0, 1\)") as exc:
        optimal.enforce_level(Q4, 1.0, tol=tol)
    one_line(exc)


def test_enforce_level_tolerance_below_float_resolution_still_returns_the_level():
    with returns_within(60):
        Qt, t = optimal.enforce_level(Q4, 1.0, tol=1e-300)
    assert ldp.channel_epsilon(Qt) <= 1.0 + 1e-12
    assert 0 < t < 1
    # t is the smallest weight up to float resolution: one ulp less misses the level
    below = (1 - np.nextafter(t, 0)) * Q4 + np.nextafter(t, 0) / 4
    assert ldp.channel_epsilon(below) > 1.0 or np.nextafter(t, 0) == t


def test_enforce_level_refuses_a_string_tolerance():
    with pytest.raises(TypeError, match="tol must be a real number"):
        optimal.enforce_level(Q4, 1.0, tol="1e-9")


@pytest.mark.parametrize("max_iter, exc", [(0, ValueError), (1, ValueError), (2.5, TypeError),
                                           (True, TypeError), ("200", TypeError)])
def test_optimal_kary_refuses_max_iter_that_stops_before_a_step(max_iter, exc):
    with pytest.raises(exc, match=r"max_iter must be an integer >= 2"):
        optimal.optimal_kary(PA, PY, 1.0, max_iter=max_iter)


@pytest.mark.parametrize("tol", [-1, float("nan"), "0"])
def test_optimal_kary_refuses_a_bad_tolerance(tol):
    with pytest.raises((ValueError, TypeError), match="tol must"):
        optimal.optimal_kary(PA, PY, 1.0, tol=tol)


@pytest.mark.parametrize("method", ["dinkelbach", "bisection"])
def test_optimal_kary_says_when_max_iter_stopped_it_before_the_optimum(method):
    # at zeta = 0.7 the starting Q (maximum utility) has delta 0.118; the optimum is 0
    with pytest.warns(RuntimeWarning, match=rf"optimal_kary \({method}\) stopped at max_iter=2"):
        early = optimal.optimal_kary(PA, PY, 1.0, 0.7, method=method, max_iter=2)
    assert not early.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        best = optimal.optimal_kary(PA, PY, 1.0, 0.7, method=method)
    assert best.converged
    assert best.delta < 1e-6 < early.delta  # what the silent early stop cost


@pytest.mark.parametrize("call, name", [
    (lambda: optimal.optimal_kary(PA, ["0.2", "0.4", "0.5", "0.7"], 1.0), "p_y_given_a"),
    (lambda: optimal.optimal_kary([True, True, True], [0.2, 0.4, 0.5], 1.0), "p_a"),
    (lambda: optimal.smallest_feasible_zeta(["1", "2", "3"], 1.0), "p_a"),
    (lambda: optimal.optimal_binary(["1", "3"], 1.0), "proportions"),
    (lambda: optimal.optimal_binary([True, True], 1.0), "proportions"),
    (lambda: optimal.optimal_binary_parameters(["1", "3"], 1.0), "proportions"),
    (lambda: ChannelMechanism([["0.5", "0.5"], ["0.5", "0.5"]], 1.0), "Q"),
    (lambda: ChannelMechanism(np.eye(2, dtype=bool), None), "Q"),
])
def test_strings_and_booleans_are_not_numbers(call, name):
    with pytest.raises(TypeError, match=rf"^{name} must") as exc:
        call()
    assert "booleans" in one_line(exc) or "dtype <U" in one_line(exc)


@pytest.mark.parametrize("kw, match", [({"zeta_slack": float("nan")}, "zeta_slack"),
                                       ({"zeta_slack": -1.0}, "zeta_slack"),
                                       ({"method": "newton"}, "method")])
def test_opt_factory_checks_its_options_when_built(kw, match):
    with pytest.raises(ValueError, match=match):
        optimal.opt_factory(np.array([0, 1, 1, 0, 1, 0]), **kw)


# --------------------------------------------------------------------------- server side
@pytest.fixture(scope="module")
def reports():
    rng = np.random.default_rng(0)
    vals = rng.integers(0, 8, 300)
    olh, blh = ldp.OLH(8, 1.0), ldp.BLH(8, 1.0)
    the, ss = ldp.THE(8, 1.0, report="vector"), ldp.SS(8, 1.0)
    return {"vals": vals, "olh": (olh, olh.perturb(vals, rng)), "blh": (blh, blh.perturb(vals, rng)),
            "the": (the, the.perturb(vals, rng)), "ss": (ss, ss.perturb(vals, rng).astype(np.int64))}


@pytest.mark.parametrize("proto", ["olh", "blh"])
@pytest.mark.parametrize("field, shift, match", [
    ("z", "g", r"reports\.z must lie in \[0, "), ("a", "zero", r"reports\.a must lie in \[1, "),
    ("b", "negative", r"reports\.b must lie in \[0, ")])
def test_local_hashing_refuses_reports_outside_their_ranges(reports, proto, field, shift, match):
    mech, rep = reports[proto]
    a, b, z = rep.a.copy(), rep.b.copy(), rep.z.copy()
    if shift == "g":
        z = z + mech.g
    elif shift == "zero":
        a[:] = 0
    else:
        b = b - 2**40
    with pytest.raises(ValueError, match=match):
        mech.estimate(ldp.LHReports(a, b, z))


def test_local_hashing_reports_malformed_or_float(reports):
    mech, rep = reports["olh"]
    with pytest.raises(ValueError, match="LHReports"):
        mech.estimate((rep.a, rep.b))
    with pytest.raises(ValueError, match=r"reports\.z must hold integers"):
        mech.estimate(ldp.LHReports(rep.a, rep.b, rep.z + 0.5))
    assert np.isclose(mech.estimate(rep).sum(), 1.0, atol=0.5)  # valid reports still estimate


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_the_refuses_non_finite_noisy_vectors(reports, bad):
    mech, rep = reports["the"]
    spoiled = rep.copy()
    spoiled[:50, 0] = bad
    with pytest.raises(ValueError, match="reports must be finite"):
        mech.estimate(spoiled)


@pytest.mark.parametrize("value, row", [(8, 0), (-1, 0), (8, -1)])
def test_subset_selection_refuses_members_outside_the_domain(reports, value, row):
    mech, rep = reports["ss"]
    spoiled = rep.copy()
    spoiled[row, 0] = value
    with pytest.raises(ValueError, match=r"reports must hold subset members in \[0, 8\)"):
        mech.estimate(spoiled)


def test_encode_combined_neither_broadcasts_nor_accepts_out_of_domain_codes():
    with pytest.raises(ValueError, match="same length"):
        multidim.encode_combined([np.array([0, 1, 1]), np.array([1])], [2, 2])
    with pytest.raises(ValueError, match=r"columns\[0\] must lie in \[0, 2\)"):
        multidim.encode_combined([np.array([0, 5]), np.array([1, 0])], [2, 2])
    with pytest.raises(ValueError, match="sequence of 3 columns"):
        multidim.encode_combined([np.array([0, 1]), np.array([1, 0])], [2, 2, 2])
    codes, total = multidim.encode_combined([np.array([0, 1, 1]), np.array([2, 0, 1])], [2, 3])
    assert total == 6 and codes.tolist() == [2, 3, 4]


@pytest.mark.parametrize("codes, match", [([0, 9], r"codes must lie in \[0, 4\)"),
                                          ([-1], r"codes must lie in \[0, 4\)"),
                                          (np.array([1.5]), "codes must hold integers")])
def test_decode_combined_does_not_wrap_bad_codes(codes, match):
    with pytest.raises(ValueError, match=match):
        multidim.decode_combined(np.asarray(codes), [2, 2])


@pytest.mark.parametrize("f, exc", [(float("nan"), ValueError), ("0.5", TypeError), (True, TypeError),
                                    ([0.1, np.inf], ValueError), (1.5, ValueError)])
def test_variance_checks_the_frequency(f, exc):
    with pytest.raises(exc, match=r"^f must"):
        ldp.GRR(4, 1.0).variance(1000, f=f)


@pytest.mark.parametrize("split", [[True, True], ["1", "2"]])
def test_split_budget_weights_are_numbers(split):
    with pytest.raises(TypeError, match="split weights must hold real numbers"):
        multidim.split_budget(1.0, [2, 3], split)


@pytest.mark.parametrize("call, exc, match", [
    (lambda: ldp.olh_g(float("nan")), ValueError, "epsilon"),
    (lambda: ldp.subset_size(2.5, 1.0), TypeError, "k must be an integer"),
    (lambda: ldp.the_threshold(-1.0), ValueError, "epsilon must lie in"),
])
def test_helper_functions_check_their_arguments(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# --------------------------------------------------------------------------- metrics
def test_warn_is_not_iterated_letter_by_letter():
    y_nopos = np.array([0, 0, 1, 1, 0, 1, 0, 0])  # group 0 has no positive: its TPR is undefined
    with pytest.raises(TypeError, match=r"warn must be True, False or a sequence of rate names"):
        metrics.group_rates(y_nopos, P, sensitive_features=A, warn="tpr")
    with pytest.raises(ValueError, match="did you mean 'tpr'"):
        metrics.group_rates(y_nopos, P, sensitive_features=A, warn=["tpx"])
    with pytest.warns(metrics.UndefinedRateWarning, match="tpr of group 0"):
        metrics.group_rates(y_nopos, P, sensitive_features=A, warn=("tpr",))


@pytest.mark.parametrize("call, name", [
    (lambda v: metrics.group_rates(Y, P, sensitive_features=A, soft=v), "soft"),
    (lambda v: metrics.rate_gap("selection_rate", None, P, sensitive_features=A, soft=v), "soft"),
    (lambda v: metrics.rate_gap("selection_rate", None, P, sensitive_features=A,
                                compare="group1_minus_group0", absolute=v), "absolute"),
    (lambda v: metrics.soft_statistical_parity(P * 0.5, sensitive_features=A, absolute=v), "absolute"),
    (lambda v: metrics.soft_equal_opportunity(Y, P * 0.5, sensitive_features=A, absolute=v), "absolute"),
])
@pytest.mark.parametrize("value", ["no", "yes", 1, None])
def test_boolean_options_are_booleans(call, name, value):
    with pytest.raises(TypeError, match=rf"{name} must be True or False"):
        call(value)


def test_numpy_bool_is_a_bool():
    assert metrics.rate_gap("selection_rate", None, P, sensitive_features=A,
                            compare="group1_minus_group0", absolute=np.bool_(True)) == 0.5


@pytest.mark.parametrize("fn", [metrics.f1, metrics.precision, metrics.recall])
@pytest.mark.parametrize("zd, exc", [(5, ValueError), (-1, ValueError), (float("nan"), ValueError),
                                     ("0", TypeError), (True, TypeError)])
def test_zero_division_is_a_value_of_the_metric(fn, zd, exc):
    with pytest.raises(exc, match="zero_division must"):
        fn([0, 0], [0, 0], zero_division=zd)


def test_zero_division_within_0_1_is_used():
    assert metrics.f1([0, 0], [0, 0], zero_division=1.0) == 1.0
    with pytest.raises(ValueError, match="zero_division"):
        metrics.utility_metrics(Y, P, zero_division=-1)
    with pytest.raises(ValueError, match="ppv_zero_division must lie in"):
        metrics.group_difference_metrics(Y, np.zeros(8, int), sensitive_features=A, ppv_zero_division=5)


@pytest.mark.parametrize("call", [
    lambda: metrics.group_rates(Y, P, sensitive_features=A_MIXED),
    lambda: metrics.max_gap_statistical_parity(P, sensitive_features=A_MIXED),
    lambda: metrics.statistical_parity_difference(P, sensitive_features=A_MIXED, privileged="0"),
    lambda: metrics.evaluate(Y, P, sensitive_features=A_MIXED),
    lambda: metrics.group_rates(Y, P, sensitive_features=[True, 1, 0, 0, 1, 1, 0, 0]),
])
def test_group_labels_of_mixed_types_are_not_merged(call):
    with pytest.raises(ValueError, match="sensitive_features mixes label types"):
        call()


def test_fairbalance_group_labels_of_mixed_types_are_not_merged():
    with pytest.raises(ValueError, match="groups mixes label types"):
        fairbalance_weights([0, "0", 1, 1, 0, "0"], [1, 0, 1, 0, 0, 1])
    # one type per column of a 2-D group is fine
    w = fairbalance_weights([[0, "a"], [0, "a"], [1, "b"], [1, "b"]], [1, 0, 1, 0])
    assert w.tolist() == [1.0, 1.0, 1.0, 1.0]


@pytest.mark.parametrize("call", [
    lambda: metrics.statistical_parity_difference(P, sensitive_features=A, privileged=[1]),
    lambda: metrics.disparate_impact(P, sensitive_features=A, privileged=[1]),
    lambda: metrics.evaluate(Y, P, sensitive_features=A, privileged=np.array([1])),
    lambda: metrics.equal_opportunity_difference(Y, P, sensitive_features=A, privileged=(1,)),
])
def test_privileged_is_one_label(call):
    with pytest.raises(TypeError, match="privileged must be one group label"):
        call()


@pytest.mark.parametrize("rates, exc", [(["0.1", "0.5"], TypeError), ([True, False], TypeError),
                                        ([[0.1, 0.5], [0.2, 0.3]], ValueError),
                                        ([0.1, np.inf], ValueError)])
def test_max_gap_takes_numbers(rates, exc):
    with pytest.raises(exc, match="rates must"):
        metrics.max_gap(rates)


def test_max_gap_still_reads_nan_as_undefined():
    assert np.isnan(metrics.max_gap([0.1, np.nan]))
    assert metrics.max_gap([0.1, np.nan, 0.4], nan_policy="omit") == pytest.approx(0.3)


# --------------------------------------------------------------------------- datasets
@pytest.mark.parametrize("name, option, value", [
    ("compas_makhlouf", "threshold", True), ("compas_makhlouf", "threshold", 3.0),
    ("adult_makhlouf", "threshold", 27260.0), ("synthetic_makhlouf", "variant", True),
])
def test_dataset_options_match_in_type_as_well_as_value(name, option, value):
    with pytest.raises(ValueError, match=rf"invalid {option}={value!r} \({type(value).__name__}\)"):
        datasets.load(name, **{option: value})


def test_generate_synthetic_and_build_compas_check_their_options():
    rng = np.random.default_rng(0)
    with pytest.raises(TypeError, match="quantile must be a real number"):
        makhlouf.generate_synthetic(100, "0.5", rng)
    with pytest.raises(ValueError, match="invalid variant=True"):
        makhlouf.generate_synthetic(100, 0.5, rng, variant=True)
    import pandas as pd
    raw = pd.DataFrame({"sex": ["Male"], "race": ["Caucasian"], "age_cat": ["25 - 45"], "priors_count": [1],
                        "v_decile_score": [4], "days_b_screening_arrest": [0.0]})
    with pytest.raises(TypeError, match="threshold must be an integer"):
        makhlouf.build_compas(raw, threshold=True)
    assert makhlouf.build_compas(raw, threshold=3)[0]["v_decile_score"].tolist() == [1]


# --------------------------------------------------------------------------- the family itself
def test_check_bool_accepts_python_and_numpy_booleans_only():
    assert check_bool(np.bool_(False), "x") is False
    for bad in ("yes", 0, 1.0, None):
        with pytest.raises(TypeError, match="x must be True or False"):
            check_bool(bad, "x")


def test_check_member_is_type_strict():
    assert check_member(3, (1, 3, 5), "t") == 3
    assert check_member(np.int64(3), (1, 3, 5), "t") == 3
    assert check_member(np.float64(0.5), (0.25, 0.5), "q") == 0.5
    for bad in (True, 3.0, "3"):
        with pytest.raises(ValueError, match="invalid t="):
            check_member(bad, (1, 3, 5), "t")


def test_check_real_array_bounds_nan_and_types():
    assert check_real_array([1, 2], "w").dtype == np.float64
    assert np.isnan(check_real_array([np.nan], "w", allow_nan=True)[0])
    with pytest.raises(ValueError, match="w must hold finite real numbers in \\[0, 1\\]"):
        check_real_array([0.5, 2.0], "w", low=0, high=1)
    with pytest.raises(TypeError, match="w must hold real numbers, got dtype object"):
        check_real_array(np.array([1, None], dtype=object), "w")


def test_check_label_types_and_scalar_label_and_rate_names():
    check_label_types(np.array(["0", "1"]), "g")  # one type: fine
    check_label_types([1, 2.5], "g")  # numbers of two kinds do not merge
    with pytest.raises(ValueError, match="g mixes label types"):
        check_label_types(np.array([0, "0"], dtype=object), "g")
    assert check_scalar_label("Male", "p") == "Male"
    with pytest.raises(TypeError, match="p must be one group label"):
        check_scalar_label({1}, "p")
    assert check_rate_names(True, ("tpr",), "warn") is None
    assert check_rate_names(False, ("tpr",), "warn") == ()
    assert check_rate_names(["tpr"], ("tpr",), "warn") == ("tpr",)



# --------------------------------------------------------------------------- more of the same kind
def test_make_protocol_names_an_option_the_protocol_does_not_take():
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['variant'\] for protocol GRR"):
        ldp.make_protocol("GRR", 4, 1.0, variant="paper")
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['nope'\].*valid options: variant, g"):
        ldp.privatize({"a": np.array([0, 1])}, {"a": 2}, 1.0, protocol="OLH", rng=0, options={"nope": 1})
    assert ldp.make_protocol("OLH", 4, 1.0, variant="paper").variant == "paper"


@pytest.mark.parametrize("call, exc, match", [
    (lambda: optimal.data_unfairness([["0.5", "0.5"], ["0.5", "0.5"]], [1, 1], [0.2, 0.4]), TypeError,
     "^Q must"),
    (lambda: optimal.data_unfairness(ldp.GRR(3, 1.0).channel, [True] * 3, [0.2, 0.4, 0.5]), TypeError,
     "^p_a must"),
    (lambda: optimal.data_unfairness(ldp.GRR(3, 1.0).channel, [1, 1, 1], [0.2, 0.4, 5]), ValueError,
     "^p_y_given_a must"),
    (lambda: ldp.project_simplex(["0.2", "0.8"]), TypeError, "^x must"),
    (lambda: ldp.OLH(4, 1.0).hash([1], [2], [1.5]), ValueError, "x must hold integers"),
])
def test_strings_bools_and_floats_are_not_silently_converted(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_the_threshold_accepts_any_real_type():
    assert ldp.THE(4, 1.0, theta=np.float32(0.5)).theta == 0.5
    with pytest.raises(TypeError, match="theta must be a real number"):
        ldp.THE(4, 1.0, theta=True)


def test_encoding_neither_truncates_codes_nor_parses_strings():
    import pandas as pd

    from ldpfair import encoding

    fr = pd.DataFrame({"c": [0.0, 1.7, 2.0], "x": ["1.5", "2", "3"], "d": [0.0, 1.0, 2.0]})
    with pytest.raises(ValueError, match=r"column 'c' must hold integer codes.*1\.7"):
        encoding.feature_blocks(fr, ["c"], {"c": 3})
    with pytest.raises(ValueError, match="column 'x' must hold numbers"):
        encoding.feature_blocks(fr, ["x"], {}, numeric=["x"])
    blocks = encoding.feature_blocks(fr, ["d"], {"d": 3})  # integral float codes are codes
    assert blocks["d"].tolist() == np.eye(3).tolist()
    with pytest.raises(ValueError, match=r"no block for column\(s\) \['nope'\]"):
        encoding.assemble(blocks, ["nope"])
    with pytest.raises(ValueError, match=r"rows must be indices in \[0, 3\)"):
        encoding.assemble(blocks, ["d"], rows=np.array([5]))
    assert encoding.assemble(blocks, ["d"], rows=np.array([2, 0])).tolist() == [[0, 0, 1], [1, 0, 0]]


def test_synthetic_authors_source_checks_n():
    with pytest.raises(TypeError, match="n must be an integer"):
        datasets.load("synthetic_makhlouf", n=100000.0, source="authors")


def test_labels_are_not_read_letter_by_letter():
    groups = np.array(["0", "1"] * 4)
    with pytest.raises(TypeError, match="labels must be a sequence of group labels"):
        metrics.group_rates(Y, P, sensitive_features=groups, labels="01")
    assert list(metrics.group_rates(Y, P, sensitive_features=groups, labels=["0", "1"]).index) == ["0", "1"]
