"""The run's real column at the door, and user code failing in the run (issue #44, items 2 and 7)."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

from ldpfair.ldp import GRR, plugins, privatize
from ldpfair.ldp.audit import audit
from ldpfair.papers.synthesis import open as bench_open


class _Recorder(GRR):
    """GRR that records the inputs of each ``perturb`` call."""

    seen: list[np.ndarray] = []

    def perturb(self, values, rng):
        type(self).seen.append(np.asarray(values).copy())
        return super().perturb(values, rng)


class _FailsInTheRun(GRR):
    """GRR on the audit's large batches; fails on the run's small ones (``how`` says how)."""

    how = "raise"

    def perturb(self, values, rng):
        if len(values) < 100_000:
            if self.how == "exit":
                sys.exit(0)
            raise RuntimeError("boom in the run")
        return super().perturb(values, rng)


class _ExitsInTheRun(_FailsInTheRun):
    how = "exit"


@pytest.fixture
def registered():
    names = []

    def reg(name, obj):
        plugins.register(name, obj, replace=True)
        names.append(name)
        return name

    yield reg
    for n in names:
        plugins.unregister(n)


def test_audit_perturbs_the_real_column_once_in_its_first_half():
    _Recorder.seen = []
    real = np.ones(300, dtype=np.int64)
    audit(_Recorder(2, 1.0), 1.0, samples=2000, rng=np.random.default_rng(1), real=real)
    first, second = _Recorder.seen[0], _Recorder.seen[-1]
    assert first.size == 2 * 1000 + 300 and int(first.sum()) == 1000 + 300
    assert second.size == 2 * 1000 and int(second.sum()) == 1000


def test_a_real_column_outside_the_domain_is_one_line():
    with pytest.raises(ValueError, match=r"^real must hold integer codes in \[0, 2\)") as e:
        audit(GRR(2, 1.0), 1.0, samples=2000, rng=np.random.default_rng(1), real=np.array([0, 1, 2]))
    assert "\n" not in str(e.value)


def test_admit_all_feeds_the_real_column_at_the_runs_k_only(registered):
    name = registered("recorder44", _Recorder)
    _Recorder.seen = []
    real = np.array([0, 1, 1, 0, 1], dtype=np.int64)
    table = bench_open.admit_all([name], [1.0], samples=4000, ks=(2, 4), real=real)
    assert dict(zip(table["k"], table["real values"], strict=True)) == {2: 5, 4: 0}
    sizes = [v.size for v in _Recorder.seen]  # 4000 reports per input at either k, two halves
    assert sizes == [2 * 2000 + 5, 2 * 2000, 4 * 2000, 4 * 2000]  # the real column at k = 2 only


@pytest.mark.data
def test_real_column_is_the_runs_protected_attribute():
    from ldpfair.papers.synthesis.experiments import dataset_entry

    col = bench_open.real_column([dataset_entry(d)[:3] for d in ("german", "compas")])
    assert col.dtype == np.int64 and set(np.unique(col)) <= {0, 1} and col.size > 1000


@pytest.mark.parametrize(("cls", "what"), [
    (_FailsInTheRun, "failed in the run (perturb) at k=2, epsilon=1: RuntimeError: boom in the run"),
    (_ExitsInTheRun, "called sys.exit(0) in the run (perturb) at k=2"),
])
def test_user_code_failing_in_the_run_is_one_line_naming_mechanism_and_step(registered, cls, what):
    name = registered(f"run44_{cls.how}", cls)
    factory = plugins.privatize_factory(name)
    with pytest.raises(ValueError) as e:
        privatize({"a": np.array([0, 1, 1, 0])}, {"a": 2}, 1.0, protocol=factory, rng=0)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"mechanism {name!r} ") and what in msg


def test_the_run_wrapper_is_the_mechanism_otherwise(registered):
    name = registered("plain44", GRR)
    mech = plugins.privatize_factory(name)(2, 1.0, None)
    assert mech.k == 2 and mech.reports_are_values and mech.p == GRR(2, 1.0).p
    out = privatize({"a": np.array([0, 1, 1, 0])}, {"a": 2}, 1.0, protocol=plugins.privatize_factory(name),
                    rng=0, output="values")
    assert isinstance(out["a"], np.ndarray) and out["a"].shape == (4,)
    assert isinstance(pd.DataFrame(out), pd.DataFrame)


@pytest.mark.slow
@pytest.mark.data
def test_bench_names_the_mechanism_and_the_run_step_when_it_fails_in_the_run(tmp_path, capsys):
    from ldpfair.cli import main

    boom = tmp_path / "boom.py"
    boom.write_text("from ldpfair.ldp import GRR\n\n\nclass Boom(GRR):\n"
                    "    def perturb(self, values, rng):\n"
                    "        if len(values) < 100_000:  # the audit's batches are larger: admitted\n"
                    "            raise RuntimeError('boom in the run')\n"
                    "        return super().perturb(values, rng)\n")
    argv = ["bench", "--mechanism", f"{boom}:Boom", "--datasets", "german", "--epsilons", "4", "--seeds", "1",
            "-o", str(tmp_path / "b.ipynb")]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "admitted Boom at epsilon=4" in captured.out
    lines = [x for x in captured.err.splitlines() if "boom in the run" in x]
    assert len(lines) == 1 and "failed in the run (perturb) at k=2, epsilon=4: RuntimeError" in lines[0]
    assert "Traceback" not in captured.err
