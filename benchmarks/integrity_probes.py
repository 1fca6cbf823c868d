"""Hostile-input probes of issue 25: every bad input must give one clear error, never a traceback.

Run ``python benchmarks/integrity_probes.py`` from the repository root
(``--issue 48``: only the probes of issue 48, forgeries of a results file included). Each probe is a
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


# ----------------------------------------------------------------------------- issue 48
_FORGE = """
import json, shutil, sys
from pathlib import Path
from ldpfair import papers
from ldpfair.experiments import results as r
root = Path(sys.argv[1]); kind = sys.argv[2]
shutil.copytree(Path(r.__file__).resolve().parents[2] / "results" / "hamman2023", root / "hamman2023")
import os; os.environ["LDPFAIR_RESULTS_DIR"] = str(root)
grid = next(g for p, n, g, _ in papers.declared("paper", "hamman2023") if n == "fig1")
path = root / "hamman2023" / "fig1"
csv, mp = path.with_name("fig1.csv.gz"), path.with_name("fig1.meta.json")
if kind in ("value", "untrust"):
    f = r._parse_csv(csv); f.loc[0, "avg_sp_err"] += 0.125
    f.to_csv(csv, index=False, compression={"method": "gzip", "mtime": 0})
    if kind == "untrust":
        r.stamp_results(csv, trust=True)
    meta = json.loads(mp.read_text()); f = r._parse_csv(csv)
    meta.update(sha256=r.file_sha256(csv), n_rows=len(f), content=r.content_record(csv, f))
    meta["content"].pop("trusted", None)
else:
    from ldpfair.environment import lock_record
    meta = json.loads(mp.read_text()); meta["lock"] = lock_record()
mp.write_text(json.dumps(meta, indent=2, sort_keys=True))
if kind == "lock":
    row = papers.status("hamman2023").set_index("results").loc["fig1"]
    if str(row["lock"]).startswith("current lock"):
        print("SILENT: status says", row["lock"]); sys.exit()
refused = []
for seed in (1, 2, 3):
    try:
        r.verify_results(grid, path, seed=seed)
    except (r.VerificationError, r.ResultsIntegrityError) as exc:
        refused.append(seed)
print("OK refused" if refused == [1, 2, 3] else f"SILENT: verify accepted it with seeds "
      f"{sorted({1, 2, 3} - set(refused))}")
"""

_API = {
    "machine.blas string": """
from ldpfair import environment as env
d = env.compare({"machine": {"blas": "openblas:Haswell"}, "libraries": {}}, installed={}, kernels=["x"])
print("OK" if [x.committed for x in d] == ["openblas:Haswell"] else f"SILENT: {[str(x) for x in d]}")
""",
    "damaged meta": """
import sys, tempfile
from pathlib import Path
from ldpfair import environment as env
p = Path(tempfile.mkdtemp()) / "x.meta.json"; p.write_text('{"a": ')
try:
    env.read_meta(p); print("SILENT: read")
except Exception as exc:
    print("OK" if "x.meta.json" in str(exc) else f"UNCLEAR: {exc}")
""",
    "doctor non-exact pin": """
import tempfile
from pathlib import Path
from ldpfair import environment as env
p = Path(tempfile.mkdtemp()) / "lock.txt"; p.write_text("numpy>=1\\n")
env.lock_path = lambda: p
try:
    out = "\\n".join(env.doctor_report())
    print("OK" if "not an exact pin" in out and "kernels" in out else "UNCLEAR: " + out[-200:])
except Exception as exc:
    print(f"SILENT: doctor stopped: {type(exc).__name__}: {exc}")
""",
    "protocol k=True": """
from ldpfair.ldp import GRR
try:
    GRR(k=True, epsilon=1.0); print("SILENT: accepted")
except Exception as exc:
    print("UNCLEAR: " + str(exc) if "float" in str(exc) else "OK")
""",
    "ragged list of lists": """
import numpy as np
from ldpfair.ldp import GRR
try:
    GRR(k=4, epsilon=1.0).perturb([[1, 2], [3]], np.random.default_rng(0)); print("SILENT: accepted")
except Exception as exc:
    print("UNCLEAR: " + str(exc)[:80] if "inhomogeneous" in str(exc) or "\\n" in str(exc) else "OK")
""",
}

_CARD = """
import json, sys, tempfile
from pathlib import Path
import numpy as np, pandas as pd
from ldpfair.datasets.user_cards import read_card
kind = sys.argv[1]; d = Path(tempfile.mkdtemp())
n = 2 if kind == "2 rows" else 6
f = pd.DataFrame({"x": np.arange(n, dtype=float), "g": ["a", "b"] * (n // 2),
                  "y": (["good", "bad", "bad"] * 2)[:n]})
if kind == "inf":
    f.loc[3, "x"] = np.inf
f.to_csv(d / "t.csv", index=False)
name = {"../../evil": "../../evil", "empty name": ""}.get(kind, "toy")
(d / "c.toml").write_text(f'name = {json.dumps(name)}\\nfile = "t.csv"\\ntarget = "y"\\n'
                          'favourable = "good"\\nprotected = "g"\\nprivileged = "a"\\n')
try:
    read_card(d / "c.toml"); print("SILENT: accepted")
except ValueError as exc:
    print("OK" if "\\n" not in str(exc) else "UNCLEAR: " + str(exc))
"""


def _py(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=600)
    out = (proc.stdout.strip().splitlines() or [""])[-1]
    return out if out else f"SILENT: rc={proc.returncode} {proc.stderr.strip()[-160:]!r}"


def _cli48(args: list[str], *, pipe: str | None = None, env: dict[str, str] | None = None,
           check: Callable[[subprocess.CompletedProcess], str] | None = None) -> str:
    cmd = [sys.executable, "-m", "ldpfair.cli", *args]
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    if pipe:
        proc = subprocess.run(["bash", "-c", " ".join(cmd) + f" | {pipe}"], capture_output=True, text=True,
                              cwd=ROOT, env=environ, timeout=300)
        return "OK" if not proc.stderr.strip() else f"UNCLEAR: {proc.stderr.strip()[-120:]!r}"
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=environ, timeout=300)
    if check is not None:
        return check(proc)
    ok, info = run_cli(args) if env is None else (proc.returncode in (1, 2) and "Traceback" not in proc.stderr
                                                  and len(proc.stderr.strip().splitlines()) == 1, "")
    return "OK" if ok else f"SILENT: rc={proc.returncode} {proc.stderr.strip()[-120:]!r}"


def issue48_probes(tmp: Path) -> dict[str, Callable[[], str]]:
    """The surfaces of issue 48; each returns ``"OK ..."``, ``"UNCLEAR: ..."`` or ``"SILENT: ..."``."""
    empty = tmp / "empty"
    empty.mkdir()

    def kernel(proc: subprocess.CompletedProcess) -> str:
        ok = proc.returncode == 2 and "installed" in proc.stderr
        return "OK" if ok else f"UNCLEAR: {proc.stderr[-120:]!r}"

    def cache(proc: subprocess.CompletedProcess) -> str:
        early = proc.returncode in (1, 2) and "cells to compute" not in proc.stdout
        return "OK" if early and "--cache" in proc.stderr else f"UNCLEAR (late): {proc.stderr[-100:]!r}"

    def bare(proc: subprocess.CompletedProcess) -> str:
        return "OK" if proc.returncode == 2 and not proc.stdout else "UNCLEAR: help on stdout"

    probes: dict[str, Callable[[], str]] = {
        f"forged {k}": (lambda k=k: _py(_FORGE, str(tmp / f"forge-{k}"), k))
        for k in ("value", "untrust", "lock")
    }
    probes.update({name: (lambda c=code: _py(c)) for name, code in _API.items()})
    cards = ("../../evil", "empty name", "inf", "2 rows")
    probes.update({f"card {k}": (lambda k=k: _py(_CARD, k)) for k in cards})
    probes.update({
        "verify --env empty folder": lambda: _cli48(["results", "verify", "--env"],
                                                    env={"LDPFAIR_RESULTS_DIR": str(empty)}),
        "verify --env --all": lambda: _cli48(["results", "verify", "--env", "--all", "--paper", "xu2019"]),
        "verify --env --seed": lambda: _cli48(["results", "verify", "--env", "--seed", "3", "--paper",
                                               "xu2019"]),
        "run --list | head -2": lambda: _cli48(["run", "--list"], pipe="head -2 >/dev/null"),
        "run --kernel nosuchkernel": lambda: _cli48(["run", "xu2019", "--kernel", "nosuchkernel", "-o",
                                                     str(tmp / "k.ipynb")], check=kernel),
        "compute --cache /proc/nocache": lambda: _cli48(["results", "compute", "xu2019", "--cache",
                                                         "/proc/nocache"], check=cache),
        "ldpfair (no command)": lambda: _cli48([], check=bare),
    })
    return probes


def main48() -> int:
    with tempfile.TemporaryDirectory() as d:
        results = {name: probe() for name, probe in issue48_probes(Path(d)).items()}
    kinds = {k: sum(v.startswith(k) for v in results.values()) for k in ("OK", "UNCLEAR", "SILENT")}
    print(f"{len(results)} issue-48 probes: {kinds['OK']} clean, {kinds['UNCLEAR']} unclear, "
          f"{kinds['SILENT']} silent")
    for name, verdict in results.items():
        print(f"  {name}: {verdict}")
    return 0 if kinds["OK"] == len(results) else 1


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
    sys.exit(main48() if sys.argv[1:] == ["--issue", "48"] else main())
