import pandas as pd
import pytest

from ldpfair.datasets import core


@pytest.fixture
def toy_registry(monkeypatch):
    monkeypatch.setattr(core, "_LOADERS", {})

    @core.register("toy", summary="a toy", paper="nobody", choices={"variant": ("a", "b")})
    def _toy(variant: str = "a", n: int = 3) -> core.Dataset:
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        frame = pd.DataFrame({"x": [0, 1, 0][:n], "a": [1, 0, 1][:n], "y": [1, 1, 0][:n]})
        return core.Dataset(
            name="toy", frame=frame, target="y", protected="a",
            sensitive={"a": 2}, domains={"x": 2, "a": 2, "y": 2},
        )

    return _toy


def test_names_and_defaults(toy_registry):
    assert core.names() == ["toy"]
    assert core.info("toy").defaults == {"variant": "a", "n": 3}
    assert core.info("toy").paper == ("nobody",)


def test_load_fills_options_and_properties(toy_registry):
    ds = core.load("toy", n=2)
    assert ds.options == {"variant": "a", "n": 2}
    assert ds.n == 2 and ds.features == ["x", "a"]
    assert ds.y.tolist() == [1, 1] and ds.a.tolist() == [1, 0]
    assert "n=2" in repr(ds)


def test_unknown_dataset_lists_valid(toy_registry):
    with pytest.raises(ValueError, match="unknown dataset 'nope'; valid: toy"):
        core.load("nope")


def test_unknown_option_lists_valid_options(toy_registry):
    msg = r"unknown option\(s\) \['colour'\].*valid options: variant='a', n=3"
    with pytest.raises(ValueError, match=msg):
        core.load("toy", colour="red")


def test_option_outside_choices(toy_registry):
    with pytest.raises(ValueError, match="invalid variant='c'.*valid: 'a', 'b'"):
        core.load("toy", variant="c")


def test_free_form_option_validated_by_loader(toy_registry):
    with pytest.raises(ValueError, match="n must be >= 1"):
        core.load("toy", n=0)


def test_register_twice_and_bad_choices(toy_registry):
    with pytest.raises(ValueError, match="registered twice"):
        core.register("toy", summary="again")(toy_registry)
    with pytest.raises(ValueError, match="unknown option"):
        core.register("other", summary="x", choices={"zzz": (1,)})(toy_registry)
