"""Throughput of ldpfair.ldp, side by side with multi-freq-ldpy (and pure-ldp), cold and warm.

Two operations:

- ``perturb``: every protocol at k in {2, 74} and epsilon in {0.25, 1, 8}, and subset
  selection at k = 1000; ldpfair's ``perturb`` on all ``n`` users at once (2 * 10**6
  for GRR, 10**6 otherwise, 10**5 at k = 1000) against the per-user clients of
  multi-freq-ldpy (0.2.5; its README usage, one call per user on ``n_peer`` users)
  and pure-ldp (1.2, ``privatise``; no SS; its UE client (SUE) stands in for RAPPOR,
  its HE client for THE), and against the cost of drawing the same random numbers
  with numpy alone;
- ``estimate``: OUE, RAPPOR and THE at k in {74, 1000}, epsilon = 1: ldpfair's
  ``estimate`` on ``n`` boolean reports against multi-freq-ldpy's aggregator
  (``UE_Aggregator_MI``, ``HE_Aggregator_MI``) on ``n_peer`` reports in its own
  format (a list of float vectors; noisy histograms for THE, thresholded by it).

Cold and warm: every measurement runs in a fresh process, forked from a parent that
has imported the libraries and loaded the compiled kernels but allocated nothing
large. In it: a small warm-up call (1,000 users), then ``cold`` = the first call on
all ``n`` users (fresh pages, as in a new Python session), the peer's timed pass,
then ``warm`` = the next call (pages recycled by the allocator), then pure-ldp and
the numpy draws. The 7 repetitions are the outer loop (every setting once, then
again), so ldpfair and the peer are measured side by side and interleaved in time.
Times are CPU times (``time.process_time``: user + system, which includes page
faults) with one thread (NUMBA_NUM_THREADS = OMP_NUM_THREADS = 1), so the load of
other processes on the machine does not count. The ratios are medians over the
repetitions of ldpfair's users/s over the peer's, measured in the same process.

Writes ``results/benchmarks/ldp_throughput.csv`` and a ``.json`` with the machine
and versions (atomically).

With ``--merge`` only the measured rows of an existing CSV are replaced (the other
rows are kept byte for byte) and the run is appended to the ``updates`` list of the
``.json``; ``--before CSV`` (a run of the same settings on the code before a change,
e.g. with ``--out`` elsewhere) records that run's speed-ups in the update next to the
new ones.

Usage: ``python benchmarks/bench_ldp.py [--repeats R] [--quick] [--only OP] [--protocol P]
[--k K] [--merge [--before CSV --before-label TEXT]] [--out DIR]``.
"""

from __future__ import annotations

import os

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import csv  # noqa: E402
import datetime as dt  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import multiprocessing as mp  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402
from importlib import metadata  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from ldpfair.ldp import PROTOCOLS, make_protocol  # noqa: E402
from ldpfair.ldp.base import CHUNK  # noqa: E402
from ldpfair.ldp.hashing import PRIME  # noqa: E402

KS = (2, 74)
EPSILONS = (0.25, 1.0, 8.0)
REPEATS = 7
WARMUP = 1000


def settings(quick: bool = False) -> list[dict]:
    """Every measured setting: operation, protocol, k, epsilon, n and the peer's n."""
    scale = 10 if quick else 1
    out = []
    for k in KS:
        for eps in EPSILONS:
            for name in PROTOCOLS:
                n = 2 * 10**6 if name == "GRR" else 10**6
                out.append(dict(op="perturb", protocol=name, k=k, epsilon=eps, n=n // scale,
                                n_peer=20_000 // scale))
    for eps in EPSILONS:
        out.append(dict(op="perturb", protocol="SS", k=1000, epsilon=eps, n=10**5 // scale,
                        n_peer=2000 // scale))
    for k in (74, 1000):
        for name in ("OUE", "RAPPOR", "THE"):
            n, n_peer = (10**6, 20_000) if k == 74 else (10**5, 2000)
            out.append(dict(op="estimate", protocol=name, k=k, epsilon=1.0, n=n // scale,
                            n_peer=n_peer // scale))
    return out


def numpy_baseline(mech, n, rng):
    """Draw the random numbers the protocol consumes, with numpy alone."""
    name = mech.name
    if name == "GRR":
        return lambda: rng.random(n)
    if name in ("BLH", "OLH"):
        return lambda: (rng.integers(1, PRIME, n), rng.integers(0, PRIME, n), rng.random(n))
    if name == "SS":
        return lambda: rng.random((n, mech.omega + 1))

    def blocks():  # RAPPOR, OUE, THE: k uniforms per user (+ 1 for the true bit), same blocks
        buf = np.empty((min(n, CHUNK), mech.k))
        for start in range(0, n, CHUNK):
            m = min(n, start + CHUNK) - start
            rng.random(out=buf[:m])
            rng.random(m)

    return blocks


def cpu_time(fn) -> float:
    """CPU seconds (user + system) of one call."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


class _XXHashShim:
    """multi-freq-ldpy 0.2.5 calls ``xxhash.xxh32(str(v), seed=...)``; xxhash >= 3 wants bytes.

    The shim encodes the string first (one extra ``str.encode`` per user), so the
    per-user LH clients run unchanged otherwise.
    """

    def __init__(self):
        import xxhash

        self._xxh32 = xxhash.xxh32

    def xxh32(self, data, seed=0):
        return self._xxh32(data.encode() if isinstance(data, str) else data, seed=seed)


def mfl_client(name, k, eps):
    import multi_freq_ldpy.pure_frequency_oracles.LH as mfl_lh

    if not isinstance(mfl_lh.xxhash, _XXHashShim):
        mfl_lh.xxhash = _XXHashShim()
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
    from multi_freq_ldpy.pure_frequency_oracles.HE import HE_Client
    from multi_freq_ldpy.pure_frequency_oracles.LH import LH_Client
    from multi_freq_ldpy.pure_frequency_oracles.SS import SS_Client
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

    return {
        "GRR": lambda v: GRR_Client(v, k, eps),
        "BLH": lambda v: LH_Client(v, k, eps, False),
        "OLH": lambda v: LH_Client(v, k, eps, True),
        "RAPPOR": lambda v: UE_Client(v, k, eps, False),
        "OUE": lambda v: UE_Client(v, k, eps, True),
        "SS": lambda v: SS_Client(v, k, eps),
        "THE": lambda v: HE_Client(v, k, eps),
    }[name]


def _pure_ldp_oracles_without_rappor():
    """Import pure-ldp's oracles without its package ``__init__``.

    ``pure_ldp.frequency_oracles/__init__`` imports the RAPPOR server, which needs
    statsmodels (not a dependency here); the clients themselves do not. Register
    the folder as a bare package so the client sub-packages import directly.
    """
    import importlib.util
    import types

    name = "pure_ldp.frequency_oracles"
    if name not in sys.modules:
        root = Path(importlib.util.find_spec("pure_ldp").origin).parent / "frequency_oracles"
        pkg = types.ModuleType(name)
        pkg.__path__ = [str(root)]
        sys.modules[name] = pkg


def pure_ldp_client(name, k, eps):
    _pure_ldp_oracles_without_rappor()
    from pure_ldp.frequency_oracles.direct_encoding import DEClient
    from pure_ldp.frequency_oracles.histogram_encoding import HEClient
    from pure_ldp.frequency_oracles.local_hashing import LHClient, lh_client

    if not isinstance(lh_client.xxhash, _XXHashShim):
        lh_client.xxhash = _XXHashShim()
    from pure_ldp.frequency_oracles.unary_encoding import UEClient

    ident = lambda x: x  # noqa: E731 - 0-indexed domain
    if name == "GRR":
        return DEClient(eps, k, index_mapper=ident).privatise
    if name == "BLH":
        return LHClient(eps, k, g=2, index_mapper=ident).privatise
    if name == "OLH":
        return LHClient(eps, k, use_olh=True, index_mapper=ident).privatise
    if name == "RAPPOR":
        return UEClient(eps, k, use_oue=False, index_mapper=ident).privatise
    if name == "OUE":
        return UEClient(eps, k, use_oue=True, index_mapper=ident).privatise
    if name == "THE":
        return HEClient(eps, k, index_mapper=ident).privatise
    return None


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def version(pkg):
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return None


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", newline="") as fh:
        fh.write(text)
    os.replace(tmp, path)


def mfl_aggregator(name, k, eps):
    from multi_freq_ldpy.pure_frequency_oracles.HE import HE_Aggregator_MI
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Aggregator_MI

    return {
        "RAPPOR": lambda reports: UE_Aggregator_MI(reports, eps, False),
        "OUE": lambda reports: UE_Aggregator_MI(reports, eps, True),
        "THE": lambda reports: HE_Aggregator_MI(reports, k, eps, True),
    }[name]


def per_user_rate(client, values) -> float:
    """Users per CPU second of a per-user client over ``values`` (one pass after one warm-up call)."""
    vals = [int(v) for v in values]
    client(vals[0])
    t = cpu_time(lambda: [client(v) for v in vals])
    return len(vals) / t


def measure_perturb(s: dict) -> dict:
    name, k, eps, n, n_peer = s["protocol"], s["k"], s["epsilon"], s["n"], s["n_peer"]
    mech = make_protocol(name, k, eps)
    values = np.random.default_rng(0).integers(0, k, n)
    rng = np.random.default_rng(1)
    mech.perturb(values[:WARMUP], rng)
    cold = cpu_time(lambda: mech.perturb(values, rng))
    peer = per_user_rate(mfl_client(name, k, eps), values[:n_peer])
    warm = cpu_time(lambda: mech.perturb(values, rng))
    pl_client = pure_ldp_client(name, k, eps) if k <= 74 else None
    pl = per_user_rate(pl_client, values[:n_peer]) if pl_client is not None else None
    draws = numpy_baseline(mech, n, np.random.default_rng(2))
    draws()
    t_np = cpu_time(draws)
    return dict(params=repr(mech), cold=n / cold, warm=n / warm, mfl=peer, pure_ldp=pl, numpy=n / t_np)


def measure_estimate(s: dict) -> dict:
    name, k, eps, n, n_peer = s["protocol"], s["k"], s["epsilon"], s["n"], s["n_peer"]
    mech = make_protocol(name, k, eps)
    values = np.random.default_rng(0).integers(0, k, n)
    reports = mech.perturb(values, np.random.default_rng(1))
    if name == "THE":  # multi-freq-ldpy's THE clients send the noisy histogram
        he = make_protocol("THE", k, eps, report="vector")
        vectors = he.perturb(values[:n_peer], np.random.default_rng(3))
        peer_reports = list(vectors)
    else:  # its UE clients send float vectors of 0/1
        peer_reports = list(reports[:n_peer].astype(np.float64))
    mech.estimate(reports[:WARMUP])
    cold = cpu_time(lambda: mech.estimate(reports))
    aggregate = mfl_aggregator(name, k, eps)
    peer = n_peer / cpu_time(lambda: aggregate(peer_reports))
    warm = cpu_time(lambda: mech.estimate(reports))
    return dict(params=repr(mech), cold=n / cold, warm=n / warm, mfl=peer, pure_ldp=None, numpy=None)


def _child(conn, s: dict) -> None:
    warnings.filterwarnings("ignore")
    try:
        conn.send(measure_perturb(s) if s["op"] == "perturb" else measure_estimate(s))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        conn.send({"error": f"{type(exc).__name__}: {exc}"})
    conn.close()


def in_fresh_process(s: dict) -> dict:
    """Run one measurement in a forked child (fresh pages; libraries already loaded)."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, s))
    proc.start()
    child.close()
    res = parent.recv()
    proc.join()
    if "error" in res:
        raise RuntimeError(f"{s}: {res['error']}")
    return res


def warm_up_parent(todo: list[dict]) -> None:
    """Import every client and compile every kernel once, on small inputs only.

    multi-freq-ldpy's GRR client is a numba function compiled without a cache: a
    call here compiles it once for all the forked children.
    """
    warnings.filterwarnings("ignore")
    values = np.arange(64) % 2
    for s in todo:
        name, k, eps = s["protocol"], s["k"], s["epsilon"]
        mech = make_protocol(name, k, eps)
        rep = mech.perturb(values, np.random.default_rng(0))
        mech.estimate(rep)
        mfl_client(name, k, eps)(1)
        if s["op"] == "estimate":
            mfl_aggregator(name, k, eps)([np.zeros(k), np.ones(k)])
        elif k <= 74:
            client = pure_ldp_client(name, k, eps)
            if client is not None:
                client(1)


def summarise(s: dict, runs: list[dict]) -> dict:
    """Medians over the repetitions; ratios are per repetition (same process), then the median."""
    med = statistics.median
    cold_ratio = [r["cold"] / r["mfl"] for r in runs]
    warm_ratio = [r["warm"] / r["mfl"] for r in runs]
    row = {
        "operation": s["op"],
        "protocol": s["protocol"],
        "k": s["k"],
        "epsilon": s["epsilon"],
        "params": runs[0]["params"],
        "n": s["n"],
        "n_peer": s["n_peer"],
        "repeats": len(runs),
        "ldpfair_cold_users_per_s": med(r["cold"] for r in runs),
        "ldpfair_warm_users_per_s": med(r["warm"] for r in runs),
        # the warm perturbation throughput under the name the synthesis chapter's cards read
        "ldpfair_users_per_s": med(r["warm"] for r in runs) if s["op"] == "perturb" else "",
        "mfl_users_per_s": med(r["mfl"] for r in runs),
        "ratio_cold_vs_mfl": med(cold_ratio),
        "ratio_warm_vs_mfl": med(warm_ratio),
        "ratio_cold_vs_mfl_min": min(cold_ratio),
        "ratio_warm_vs_mfl_min": min(warm_ratio),
        "pure_ldp_users_per_s": "",
        "ratio_warm_vs_pure_ldp": "",
        "numpy_draws_users_per_s": "",
        "cost_vs_numpy_draws": "",
    }
    if runs[0]["pure_ldp"] is not None:
        row["pure_ldp_users_per_s"] = med(r["pure_ldp"] for r in runs)
        row["ratio_warm_vs_pure_ldp"] = med(r["warm"] / r["pure_ldp"] for r in runs)
    if runs[0]["numpy"] is not None:
        row["numpy_draws_users_per_s"] = med(r["numpy"] for r in runs)
        row["cost_vs_numpy_draws"] = med(r["numpy"] / r["warm"] for r in runs)
    return row


def _key(row: dict) -> tuple[str, str, int, float]:
    return row["operation"], row["protocol"], int(row["k"]), float(row["epsilon"])


_LOGGED = ("ratio_cold_vs_mfl", "ratio_warm_vs_mfl", "ratio_cold_vs_mfl_min", "ratio_warm_vs_mfl_min",
           "ldpfair_cold_users_per_s", "ldpfair_warm_users_per_s", "mfl_users_per_s")


def _ratios(row: dict) -> dict:
    return {col: float(row[col]) for col in _LOGGED}


def merge(out_csv: Path, out_json: Path, rows: list[dict], args, repeats: int, elapsed: float) -> None:
    """Replace the measured rows of ``out_csv`` (the others unchanged) and log the run in ``out_json``."""
    text = out_csv.read_text()
    old = list(csv.DictReader(io.StringIO(text)))
    fields = text.splitlines()[0].split(",")
    if fields != list(rows[0]):
        raise SystemExit(f"{out_csv}: columns differ from this script's; run without --merge")
    index = {_key(r): i for i, r in enumerate(old)}
    missing = [_key(r) for r in rows if _key(r) not in index]
    if missing:
        raise SystemExit(f"{out_csv} has no row for {missing}; run without --merge")
    before = {}
    if args.before is not None:
        before = {_key(r): r for r in csv.DictReader(io.StringIO(args.before.read_text()))}
        absent = [_key(r) for r in rows if _key(r) not in before]
        if absent:
            raise SystemExit(f"{args.before} has no row for {absent}")
    for r in rows:
        old[index[_key(r)]] = r
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields)
    writer.writeheader()
    writer.writerows(old)
    meta = json.loads(out_json.read_text())
    update = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "rows": [f"{r['operation']} {r['protocol']} k={r['k']} epsilon={r['epsilon']:g}" for r in rows],
        "repeats": repeats,
        "quick": args.quick,
        "elapsed_s": round(elapsed, 1),
        "versions": {pkg: version(pkg) for pkg in ("ldpfair", "numpy", "numba", "multi-freq-ldpy")},
        "after": {setting: _ratios(r) for setting, r in zip(
            [f"{r['protocol']} k={r['k']} epsilon={r['epsilon']:g}" for r in rows], rows, strict=True)},
    }
    if before:
        update["before_label"] = args.before_label
        update["before"] = {f"{r['protocol']} k={r['k']} epsilon={r['epsilon']:g}": _ratios(before[_key(r)])
                            for r in rows}
    meta.setdefault("updates", []).append(update)
    atomic_write(out_csv, buf.getvalue())
    atomic_write(out_json, json.dumps(meta, indent=2) + "\n")
    print(f"updated {len(rows)} rows of {out_csv} and logged the run in {out_json}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=REPEATS, help="repetitions (default 7)")
    ap.add_argument("--quick", action="store_true", help="n and the peer's n / 10, 2 repetitions (smoke run)")
    ap.add_argument("--only", choices=("perturb", "estimate"), help="one operation only")
    ap.add_argument("--protocol", action="append", help="only these protocols (repeatable)")
    ap.add_argument("--k", type=int, action="append", help="only these domain sizes (repeatable)")
    ap.add_argument("--merge", action="store_true",
                    help="replace only the measured rows of the CSV; log the run in the JSON's updates")
    ap.add_argument("--before", type=Path, help="with --merge: CSV of the same settings before a change")
    ap.add_argument("--before-label", default="", help="with --before: the code it measured")
    ap.add_argument("--out", type=Path, default=Path("results/benchmarks"), help="output folder")
    args = ap.parse_args(argv)
    repeats = 2 if args.quick else args.repeats
    if repeats < 1:
        ap.error(f"--repeats must be >= 1, got {repeats}")
    todo = [s for s in settings(args.quick) if args.only in (None, s["op"])]
    if args.protocol:
        todo = [s for s in todo if s["protocol"] in args.protocol]
    if args.k:
        todo = [s for s in todo if s["k"] in args.k]
    if not todo:
        ap.error("no setting matches --only / --protocol / --k")
    if args.before is not None and not args.merge:
        ap.error("--before needs --merge")
    t_start = time.perf_counter()
    warm_up_parent(todo)
    runs: list[list[dict]] = [[] for _ in todo]
    for rep in range(repeats):
        for i, s in enumerate(todo):
            runs[i].append(in_fresh_process(s))
        print(f"repetition {rep + 1}/{repeats} done ({time.perf_counter() - t_start:.0f} s)", flush=True)
    rows = [summarise(s, r) for s, r in zip(todo, runs, strict=True)]
    for row in rows:
        print(
            f"{row['operation']:8s} {row['protocol']:7s} k={row['k']:4d} eps={row['epsilon']:5.2f}  "
            f"cold {row['ldpfair_cold_users_per_s'] / 1e6:8.2f} M/s  "
            f"warm {row['ldpfair_warm_users_per_s'] / 1e6:8.2f} M/s  "
            f"mfl {row['mfl_users_per_s'] / 1e3:9.1f} k/s  x{row['ratio_cold_vs_mfl']:7.1f} cold  "
            f"x{row['ratio_warm_vs_mfl']:7.1f} warm",
            flush=True,
        )
    elapsed = time.perf_counter() - t_start

    out_csv = args.out / "ldp_throughput.csv"
    out_json = args.out / "ldp_throughput.json"
    if args.merge:
        merge(out_csv, out_json, rows, args, repeats, elapsed)
        return 0
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    meta = {
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "logical_cores": os.cpu_count(),
        "threads_used": 1,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "versions": {
            pkg: version(pkg) for pkg in ("ldpfair", "numpy", "numba", "scipy", "multi-freq-ldpy", "pure-ldp")
        },
        "repeats": repeats,
        "quick": args.quick,
        "clock": "CPU time (time.process_time: user + system), one thread",
        "elapsed_s": round(elapsed, 1),
        "notes": (
            "every measurement in a fresh forked process: warm-up on 1,000 users, cold = first call on n "
            "users, then the multi-freq-ldpy pass, warm = the next call, then pure-ldp and the numpy draws; "
            "values are medians over the repetitions, ratios are per-repetition ratios (same process) then "
            "the median. THE reports thresholded sets (report='set'); multi-freq-ldpy/pure-ldp THE = their "
            "HE client, and multi-freq-ldpy's THE aggregator thresholds its noisy histograms. both "
            "libraries' LH clients need an xxhash shim (str -> bytes) with xxhash>=3. pure-ldp has no SS; "
            "its RAPPOR column is its UE client (SUE)."
        ),
    }
    atomic_write(out_csv, buf.getvalue())
    atomic_write(out_json, json.dumps(meta, indent=2) + "\n")
    print(f"wrote {out_csv} and {out_json} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
