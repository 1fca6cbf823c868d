"""Feature encoding: one-hot blocks, assembly, names."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ldpfair.encoding import assemble, encode_frame, feature_blocks, one_hot

_CODES = st.integers(1, 12).flatmap(
    lambda k: st.tuples(st.just(k), st.lists(st.integers(0, k - 1), max_size=40)))


@given(_CODES)
def test_one_hot_is_the_identity_rows_of_the_codes(case):
    k, codes = case
    x = one_hot(np.array(codes, dtype=np.int64), k)
    assert x.shape == (len(codes), k) and x.dtype == np.float32
    assert np.array_equal(x.sum(axis=1), np.ones(len(codes)))
    assert np.array_equal(x.argmax(axis=1), np.array(codes, dtype=np.int64))
    # the same matrix pandas builds with every category kept
    dummies = pd.get_dummies(pd.Categorical(codes, categories=range(k))).to_numpy(dtype=np.float32)
    assert np.array_equal(x, dummies.reshape(len(codes), k))


def test_one_hot_constant_feature_is_a_column_of_ones():
    assert np.array_equal(one_hot(np.zeros(3, dtype=np.int64), 1), np.ones((3, 1), dtype=np.float32))


@pytest.mark.parametrize(("codes", "k", "error", "match"), [
    ([0, 1], 0, ValueError, "integer >= 1"),
    ([0, 1], 2.0, TypeError, "integer >= 1"),
    ([0, 1], True, TypeError, "integer >= 1"),
    ([0, 3], 3, ValueError, r"must lie in \[0, 3\)"),
    ([0, -1], 3, ValueError, r"must lie in \[0, 3\)"),
    ([0.0, 1.0], 3, ValueError, "integer dtype"),
])
def test_one_hot_rejects_bad_input(codes, k, error, match):
    with pytest.raises(error, match=match):
        one_hot(np.array(codes), k)


def test_blocks_assemble_and_names():
    frame = pd.DataFrame({"a": [0, 2, 1], "b": [0, 0, 0], "x": [0.5, 1.5, 2.5]})
    domains = {"a": 3, "b": 1}
    blocks = feature_blocks(frame, ["a", "b", "x"], domains, numeric=["x"])
    assert [blocks[c].shape[1] for c in "abx"] == [3, 1, 1]
    mat, names = encode_frame(frame, ["x", "a", "b"], domains, numeric=["x"])
    assert names == ["x", "a_0", "a_1", "a_2", "b_0"]
    expected = [[0.5, 1, 0, 0, 1], [1.5, 0, 0, 1, 1], [2.5, 0, 1, 0, 1]]
    assert np.array_equal(mat, np.array(expected, dtype=np.float32))
    # rows select from every block; a replacement block (already row-restricted) takes a column's place
    sub = assemble(blocks, ["a", "x"], rows=np.array([2, 0]), replace={"a": np.array([[0, 1, 1], [1, 0, 0]])})
    assert np.array_equal(sub, np.array([[0, 1, 1, 2.5], [1, 0, 0, 0.5]], dtype=np.float32))
    with pytest.raises(ValueError, match="expected 2"):
        assemble(blocks, ["a"], rows=np.array([2, 0]), replace={"a": np.zeros((3, 3))})
    with pytest.raises(ValueError, match="not in the frame"):
        feature_blocks(frame, ["z"], domains)
    with pytest.raises(ValueError, match="neither categorical"):
        feature_blocks(frame, ["x"], domains)
