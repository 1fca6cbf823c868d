"""Hostile-input probes of issue 25: every bad input must give one clear error, never a traceback.

Run ``python benchmarks/integrity_probes.py`` from the repository root. Each probe is a
command line (run as a subprocess) or an API call that must either succeed or fail
with one line: a CLI probe passes when it exits 1 or 2 with only ``ldpfair ...: error:``
lines on stderr and no traceback; an API probe passes when it raises ValueError or
TypeError with a one-line message (or, for the metric probes, returns NaN with a
warning instead of a misleading number). Prints the counts and every failing probe.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def cli_probes(tmp: Path) -> list[list[str]]:
    afile = tmp / "afile"
    afile.write_text("x")
    out = str(tmp / "o.ipynb")
    bad_params = {
        "arcolezi2023": [("epsilons", '"abc"'), ("epsilons", "[1,2"), ("epsilons", "[0]"), ("epsilons", "[]"),
                         ("epsilons", "[1e-300]"), ("epsilons", "[1, 1]"), ("seeds", "-3"),
                         ("seeds", "0"), ("seeds", "[1, 1]"), ("seeds", "2.5"),
                         ("datasets", "lsac"), ("datasets", '["lsca"]'),
                         ("datasets", "[]"), ("protocols", '["oue"]'), ("splits", '["kbased"]'),
                         ("n_jobs", "0"), ("n_jobs", "1000000"), ("n_jobs", "'2'"), ("n_jobs", "2.5"),
                         ("profile", "quik"), ("appendix", "1"), ("fig1_value", "7"), ("fig1_epsilon", "-1"),
                         ("tuning_selection", "tset"), ("tuning_evals", "0"), ("epsilonz", "[1]")],
        "ghoukasian2025": [("figures", '["fig9"]'), ("mechanisms", '["LDP"]'), ("zeta", "0"), ("zeta", "2"),
                           ("zeta_slack", "-1"), ("seeds", "[1, 2]"), ("theory_instances", "-5")],
        "makhlouf2024": [("faithful", "'yes'"), ("synthetic_seed", "-1"), ("n_jobs", "0")],
        "hamman2023": [("profile", "full"), ("n_jobs", "-100")],
        "xu2019": [("features", "compcat"), ("pflr", "PFRL"), ("n_jobs", "None,")],
    }
    probes = [["run", paper, "--prepare-only", "-o", out, "-p", name, value]
              for paper, items in bad_params.items() for name, value in items]
    probes += [
        ["run", "xu2019", "--prepare-only", "-o", str(afile / "x.ipynb")],
        ["run", "xu2019", "--prepare-only", "-o", str(tmp / "x.txt")],
        ["run", "xu2019", "--prepare-only", "-o", str(tmp)],
        ["run", "--notebook", str(tmp), "--prepare-only"],
        ["run", "--notebook", str(tmp / "none.md"), "--prepare-only"],
        ["run", "--notebook", str(afile), "--prepare-only"],
        ["run", "xu2091"], ["run"], ["run", "xu2019", "--profile", "full"],
        ["run", "xu2019", "-p", "profile", "quick", "--profile", "quick"],
        ["results", "verify", "--cells", "-1"], ["results", "verify", "--cells", "0"],
        ["results", "verify", "--cells", "x"], ["results", "verify", "--n-jobs", "0"],
        ["results", "verify", "--n-jobs", "2.5"], ["results", "verify", "--seed", "-1"],
        ["results", "verify", "--paper", "xu2091"], ["results", "status", "--paper", "nope"],
        ["results", "stamp", "xu2091"], ["results"], ["data", "verify", "--collection", "nope"],
        ["data", "fetch", "no/such/file"], ["nosuchcommand"],
    ]
    return probes


def run_cli(args: list[str]) -> tuple[bool, str]:
    proc = subprocess.run([sys.executable, "-m", "ldpfair.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    lines = proc.stderr.strip().splitlines()
    ok = (proc.returncode in (1, 2) and "Traceback" not in proc.stderr and bool(lines)
          and all(line.startswith("ldpfair") and ": error: " in line for line in lines))
    return ok, f"rc={proc.returncode} {proc.stderr.strip()[:200]!r}"


def api_probes(tmp: Path) -> list[tuple[str, Callable[[], Any], str]]:
    """``(name, call, expected)`` with expected ``"error"`` or ``"nan"`` (NaN plus a warning)."""
    from ldpfair import experiments as ex
    from ldpfair import metrics as m
    from ldpfair.ldp import make_protocol

    probes: list[tuple[str, Callable[[], Any], str]] = []
    y, p = [1, 0, 1, 0, 1, 1], [1, 0, 0, 0, 1, 1]
    bad_groups = {"nan": [0, 0, 1, 1, np.nan, 1], "none": [0, 0, 1, None, 1, 1],
                  "str-none": np.array(["a", None, "b", "a", "b", "a"], dtype=object)}
    metric_calls = {
        "group_rates": lambda a: m.group_rates(y, p, sensitive_features=a),
        "evaluate": lambda a: m.evaluate(y, p, sensitive_features=a),
        "max_gap_SP": lambda a: m.max_gap_statistical_parity(p, sensitive_features=a),
        "max_gap_EO": lambda a: m.max_gap_equal_opportunity(y, p, sensitive_features=a),
        "max_gap_metrics": lambda a: m.max_gap_metrics(y, p, sensitive_features=a),
        "data_unfairness": lambda a: m.data_unfairness(y, sensitive_features=a),
        "SPD": lambda a: m.statistical_parity_difference(p, sensitive_features=a),
        "privileged_vs_rest": lambda a: m.privileged_vs_rest_metrics(y, p, sensitive_features=a),
        "risk_difference": lambda a: m.risk_difference(p, sensitive_features=a),
        "soft_SP": lambda a: m.soft_statistical_parity([0.1] * 6, sensitive_features=a),
    }
    for (gname, groups), (fname, call) in itertools.product(bad_groups.items(), metric_calls.items()):
        probes.append((f"metric {fname} groups={gname}", lambda c=call, g=groups: c(g), "error"))
    one = [0] * 6
    probes += [
        ("max_gap_SP one group", lambda: m.max_gap_statistical_parity(p, sensitive_features=one), "nan"),
        ("Delta_SP one group",
         lambda: m.max_gap_metrics(y, p, sensitive_features=one)["Delta_SP"], "nan"),
        ("data_unfairness one group", lambda: m.data_unfairness(y, sensitive_features=one), "nan"),
        ("SPD privileged absent",
         lambda: m.statistical_parity_difference(p, sensitive_features=[0, 2] * 3), "nan"),
        ("SPD length",
         lambda: m.statistical_parity_difference([1, 0], sensitive_features=[0, 1, 1]), "error"),
    ]
    for name, eps in itertools.product(("GRR", "OUE", "RAPPOR", "OLH", "BLH", "SS", "THE"),
                                       (0.0, -1.0, 1e-300, 5e-17, 1.2e-16, 3e-16, float("nan"), "1")):
        def tiny(n: str = name, e: Any = eps) -> Any:
            proto = make_protocol(n, 4, e)
            est = proto.estimate(proto.perturb(np.zeros(20, dtype=np.int64), np.random.default_rng(0)))
            if not np.isfinite(est).all() or not np.isfinite(proto.variance(20)):
                raise AssertionError("non-finite estimate accepted")
            return "finite"

        probes.append((f"ldp {name} epsilon={eps!r}", tiny, "error-or-ok"))
    probes.append(("OUE k=1e7", lambda: make_protocol("OUE", 10**7, 1.0).perturb(
        np.zeros(10**6, dtype=np.int64), np.random.default_rng(0)), "error"))
    sw = ex.Sweep(lambda rng: {"v": 1.0}, params=[{}], name="p")
    afile = tmp / "cachefile"
    afile.write_text("x")
    for bad in ("2", 2.5, 0, 10**6, True, -1000):
        probes.append((f"engine n_jobs={bad!r}", lambda b=bad: ex.run(sw, n_jobs=b, progress=False), "error"))
    probes.append(("engine cache=file", lambda: ex.run(sw, cache=afile, progress=False), "error"))
    probes.append(("engine cache under file", lambda: ex.run(sw, cache=afile / "c", progress=False), "error"))
    return probes


def run_api(call: Callable[[], Any], expected: str) -> tuple[bool, str]:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            value = call()
        except (ValueError, TypeError) as exc:
            one_line = "\n" not in str(exc)
            return expected in ("error", "error-or-ok") and one_line, f"{type(exc).__name__}: {exc}"[:200]
        except Exception as exc:  # noqa: BLE001 - a raw exception is what the probe looks for
            return False, f"raw {type(exc).__name__}: {exc}"[:200]
    if expected == "nan":
        return bool(np.isnan(value)) and bool(w), f"{value!r} with {len(w)} warning(s)"
    return expected == "error-or-ok", f"returned {value!r}"


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        failures, counts = [], {"cli": 0, "api": 0}
        for args in cli_probes(tmp):
            ok, info = run_cli(args)
            counts["cli"] += 1
            if not ok:
                failures.append(f"ldpfair {' '.join(args)}: {info}")
        for name, call, expected in api_probes(tmp):
            ok, info = run_api(call, expected)
            counts["api"] += 1
            if not ok:
                failures.append(f"{name}: {info}")
    total = counts["cli"] + counts["api"]
    print(f"{total} probes ({counts['cli']} command lines, {counts['api']} API calls): "
          f"{total - len(failures)} clean, {len(failures)} failing")
    for line in failures:
        print("  FAIL", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
