"""Throughput of ldpfair.ldp's perturbation, side by side with per-user clients.

For every protocol, k in {2, 74} and epsilon in {0.25, 1, 8}:

- ``ldpfair``: ``perturb`` on all ``n`` users at once (default n = 10**6), best of 3;
- ``numpy``: the cost of drawing the same random numbers with numpy's generator
  alone (uniforms for GRR/UE/THE/SS, two bounded integers + a uniform for local
  hashing), best of 3, drawn in the same blocks;
- ``multi-freq-ldpy`` (0.2.5): its per-user client called once per user in a list
  comprehension (its README usage) on ``n_small`` users (default 2 * 10**4),
  converted to users/s; THE is its ``HE_Client`` (thresholding is server-side);
- ``pure-ldp`` (1.2): its per-user client (``privatise``) where it has the
  protocol (DE = GRR, UE = RAPPOR/OUE, LH = BLH/OLH, HE = THE; no SS; its
  ``RAPPOR`` is the Bloom-filter variant, so RAPPOR is compared with its SUE).

Everything runs on one core (NUMBA_NUM_THREADS = OMP_NUM_THREADS = 1). numba is
warmed up before timing. Writes ``results/benchmarks/ldp_throughput.csv`` and a
``.json`` with the machine and versions (atomically).

Usage: ``python benchmarks/bench_ldp.py [--n N] [--n-small M] [--quick] [--out DIR]``.
"""

from __future__ import annotations

import os

for _var in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import csv  # noqa: E402
import datetime as dt  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
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
REPEATS = 5


def best_time(fn, repeats=REPEATS):
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


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


def time_per_user(client, values):
    client(int(values[0]))  # warm-up (numba compile)
    vals = [int(v) for v in values]
    t0 = time.perf_counter()
    _ = [client(v) for v in vals]
    return len(vals) / (time.perf_counter() - t0)


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10**6, help="users for ldpfair and numpy (default 1e6)")
    ap.add_argument("--n-small", type=int, default=2 * 10**4, help="users for the per-user clients")
    ap.add_argument("--quick", action="store_true", help="n = 1e5, n_small = 2e3 (smoke run)")
    ap.add_argument("--out", type=Path, default=Path("results/benchmarks"), help="output folder")
    args = ap.parse_args(argv)
    n, n_small = (10**5, 2 * 10**3) if args.quick else (args.n, args.n_small)
    warnings.filterwarnings("ignore")

    rows = []
    t_start = time.perf_counter()
    for k in KS:
        values = np.random.default_rng(0).integers(0, k, n)
        small = values[:n_small]
        for eps in EPSILONS:
            for name in PROTOCOLS:
                mech = make_protocol(name, k, eps)
                rng = np.random.default_rng(1)
                mech.perturb(values[:1000], rng)  # warm-up numba
                mech.perturb(values, rng)  # warm-up at full size (memory, CPU clock)
                t_ours = best_time(lambda mech=mech, rng=rng, values=values: mech.perturb(values, rng))
                t_np = best_time(numpy_baseline(mech, n, np.random.default_rng(2)))
                mfl = time_per_user(mfl_client(name, k, eps), small)
                pl_client = pure_ldp_client(name, k, eps)
                pl = time_per_user(pl_client, small) if pl_client is not None else None
                ours = n / t_ours
                row = {
                    "protocol": name,
                    "k": k,
                    "epsilon": eps,
                    "params": repr(mech),
                    "n": n,
                    "n_small": n_small,
                    "ldpfair_users_per_s": ours,
                    "numpy_draws_users_per_s": n / t_np,
                    "cost_vs_numpy_draws": t_ours / t_np,
                    "mfl_users_per_s": mfl,
                    "speedup_vs_mfl": ours / mfl,
                    "pure_ldp_users_per_s": pl if pl is not None else "",
                    "speedup_vs_pure_ldp": ours / pl if pl else "",
                }
                rows.append(row)
                print(
                    f"{name:7s} k={k:3d} eps={eps:5.2f}  ldpfair {ours / 1e6:8.2f} M/s  "
                    f"x{t_ours / t_np:5.2f} numpy draws  mfl {mfl / 1e3:8.1f} k/s (x{ours / mfl:7.0f})  "
                    f"pure-ldp {'' if pl is None else f'{pl / 1e3:8.1f} k/s'}",
                    flush=True,
                )
    elapsed = time.perf_counter() - t_start

    out_csv = args.out / "ldp_throughput.csv"
    out_json = args.out / "ldp_throughput.json"
    import io

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
        "n": n,
        "n_small": n_small,
        "repeats": REPEATS,
        "elapsed_s": round(elapsed, 1),
        "notes": (
            "ldpfair and numpy: best of 3 on n users; per-user clients: one timed pass over n_small users "
            "after a warm-up call. THE reports thresholded sets (report='set'); multi-freq-ldpy/pure-ldp "
            "THE = their HE client. both libraries' LH clients need an xxhash shim "
            "(str -> bytes) with xxhash>=3. pure-ldp has no SS; its RAPPOR column is its UE client (SUE)."
        ),
    }
    atomic_write(out_csv, buf.getvalue())
    atomic_write(out_json, json.dumps(meta, indent=2) + "\n")
    print(f"wrote {out_csv} and {out_json} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
