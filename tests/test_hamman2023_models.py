"""Algorithm 2's perturbed models, clipped to [0, 1] or not (hamman2023's ``CLIP_MODELS``)."""

from __future__ import annotations

import numpy as np
import pytest

from ldpfair import attacks


def _attrs(n: int, n0: int, rng: np.random.Generator) -> np.ndarray:
    a = np.ones(n, dtype=np.int64)
    a[rng.choice(n, n0, replace=False)] = 0
    return a


def test_clipping_changes_only_the_outputs_outside_the_unit_interval():
    h0 = np.random.default_rng(0).random(500)
    raw = attacks.perturbed_models(h0, 30, np.random.default_rng(1), clip=False)
    clipped = attacks.perturbed_models(h0, 30, np.random.default_rng(1), clip=True)
    np.testing.assert_array_equal(np.clip(raw, 0.0, 1.0), clipped)  # the same draws
    assert raw.min() < 0.0 and raw.max() > 1.0 and np.abs(raw - h0).max() <= 0.1
    with pytest.raises(TypeError, match="clip must be True or False"):
        attacks.perturbed_models(h0, 3, 0, clip="no")


def test_unbounded_scores_need_to_be_asked_for():
    a = np.array([1, 1, 0, 0])
    scores = np.array([[-0.05, 0.4, 1.08, 0.2]])
    with pytest.raises(ValueError, match=r"predictions in \[0, 1\]"):
        attacks.sp_queries(scores, a)
    expected = (-0.05 + 0.4) / 2 - (1.08 + 0.2) / 2
    assert attacks.sp_queries(scores, a, bounded=False)[0] == pytest.approx(expected)
    with pytest.raises(ValueError, match="finite"):
        attacks.sp_queries(np.array([[np.nan, 0, 0, 0]]), a, bounded=False)


def test_clipping_a_confident_base_model_loses_recoveries():
    """The cause of the Table 1 noiseless gap: where h0 is 0, clipping zeroes half the perturbations.

    With 60% of the base outputs at exactly 0 (a confident model), 40 queries recover every
    attribute in more runs from unclipped models than from clipped ones (same draws).
    """
    full = {True: 0, False: 0}
    for seed in range(30):
        for clip in (True, False):
            rng = np.random.default_rng(seed)
            a = _attrs(100, 10, rng)
            h0 = np.where(rng.random(100) < 0.6, 0.0, rng.random(100))
            H = attacks.perturbed_models(h0, 40, rng, clip=clip)  # noqa: N806
            res = attacks.reveal_compressed(H, attacks.sp_queries(H, a, bounded=clip), 90, 10, bounded=clip)
            full[clip] += attacks.leakage(a, res.a_hat) == 100.0
    assert full[False] >= full[True] + 3, full
