"""``ldpfair results``: status, verification and checksum stamping of the committed results."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import PAPERS, TEMPLATE, stamp, status, verify


def _int_arg(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {value}")
    return value


def positive_int(text: str) -> int:
    """Argument type: an integer >= 1."""
    return _int_arg(text, 1)


def seed_int(text: str) -> int:
    """Argument type: an integer >= 0 (a sample seed)."""
    return _int_arg(text, 0)


def n_jobs_int(text: str) -> int:
    """Argument type: a joblib worker count (see :func:`ldpfair._validation.check_n_jobs`)."""
    from .._validation import check_n_jobs

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    try:
        check_n_jobs(value, "--n-jobs")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace("--n-jobs must be ", "expected ")) from None
    return value


def _status(args: argparse.Namespace) -> int:
    table = status(args.paper)
    if table.empty:
        print("no paper declares committed experiments yet")
        return 0
    print(table.to_string(index=False))
    problems = table.attrs.get("problems", [])
    for line in problems:
        print(f"ldpfair results: error: {line}", file=sys.stderr)
    return 1 if problems else 0


def _verify(args: argparse.Namespace) -> int:
    if args.env:  # the environment against each file's recorded one, without recomputing
        ignored = [opt for opt, given in (("--all", args.all), ("--seed", args.seed is not None),
                                          ("--cells", args.cells != 2), ("--base", args.base != "HEAD"))
                   if given]
        if ignored:
            raise ValueError(f"--env recomputes nothing: drop {', '.join(ignored)} (or drop --env to "
                             "recompute)")
        from ..environment import environment_table, read_meta
        from ..experiments.notebooks import results_dir

        folders = [results_dir(p) for p in ([args.paper] if args.paper else (*PAPERS, TEMPLATE))]
        metas = {str(m): read_meta(m) for f in folders for m in sorted(f.glob("*.meta.json"))}
        if not metas:
            print(f"ldpfair results: error: no results metadata (*.meta.json) in "
                  f"{', '.join(str(f) for f in folders)}: nothing to compare", file=sys.stderr)
            return 1
        print(environment_table(metas).to_string(index=False))
        return 0
    table = verify(args.paper, n_cells=args.cells, n_jobs=args.n_jobs, seed=args.seed,
                   all_cells=args.all, base=args.base)
    seed = table.attrs["seed"]
    what = "every committed cell" if args.all else f"sample seed {seed} (reproduce with --seed {seed})"
    if table.empty:
        print("no paper declares committed experiments yet: nothing to verify")
        return 0
    print(table.to_string(index=False))
    if not table.attrs.get("git"):
        print("note: not in a git checkout (or the results folder is not the checkout's): cannot tell "
              "which results files differ from their committed versions; only the sample was recomputed")
    else:
        changed = int((~table["whole"].isin(["", "--all", "trusted"])).sum())
        print(f"compared with the results committed at {args.base}: {changed} file(s) differ "
              "(or were never committed) and were recomputed whole")
    problems = table.attrs["problems"]
    if problems:
        for line in problems:
            print(f"ldpfair results: error: {line}", file=sys.stderr)
        print(f"ldpfair results: error: {len(problems)} problem(s) in the committed results "
              f"({what})", file=sys.stderr)
        named = [line for line in problems if ": values differ on " in line and " when committed, " in line]
        if any("committed" in line and "recomputed" in line for line in problems) and (
                not named or any("BLAS " in line for line in named)):  # not when a library is named
            from ..experiments.results import blas_kernels

            kernels = ", ".join(blas_kernels()) or "none"
            print("note: values that differ in their last digits can come from another BLAS kernel set "
                  f"(this machine: {kernels}; a results file records its own under machine.blas in "
                  "its .meta.json; see the How-to page, 'Bit for bit on another machine')")
        return 1
    print(f"verified {int(table['checked'].sum())} recomputed cells ({what}): every declared file "
          "present; checksums, content digests, coverage and values identical to the committed results")
    from ..environment import checked_differences

    drift = checked_differences(table)
    if drift:
        print(f"note: identical although the environment differs from the one recorded: {drift}")
    return 0


def _stamp(args: argparse.Namespace) -> int:
    table = stamp(args.paper, trust=args.trust)
    for row in table.itertuples():
        print(f"{row.file}: {row.n_rows} rows, sha256 {row.sha256}" + (" (trusted)" if row.trusted else ""))
    print(f"stamped {len(table)} results files")
    return 0


def _check_cache_folder(folder: str) -> None:
    """Create ``folder`` and write a file in it, or raise one ValueError naming ``--cache``."""
    import tempfile
    from pathlib import Path

    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise ValueError(f"--cache {folder!r}: cannot be created or written ({exc.strerror or exc}); "
                         "valid: a folder you can write") from None


def _cpu_time(core_hours: float) -> str:
    """A CPU time in words: under a second, seconds, minutes or core-hours (never a rounded zero)."""
    seconds = core_hours * 3600.0
    if seconds < 1.0:
        return "under a second of CPU"
    if seconds < 120.0:
        return f"about {seconds:.0f} s of CPU"
    if seconds < 7200.0:
        return f"about {seconds / 60.0:.0f} min of CPU"
    return f"about {core_hours:.1f} core-hours"


def _shown_plan(table: Any) -> Any:
    """The plan as printed: timings to three significant digits, "unknown" where nothing is committed."""
    def fmt(x: float) -> str:
        return "unknown" if x != x else f"{x:.3g}"  # x != x: NaN, no committed timing

    return table.assign(**{col: table[col].map(fmt) for col in ("s per cell", "core-hours")})


def _plan_line(table: Any) -> str:
    """The plan's last line: cells to compute and their estimated CPU time (or why there is none)."""
    todo = int(table["to compute"].sum())
    if todo == 0:
        return "0 cells to compute: every cell is committed (--force recomputes them)"
    timed = table[table["core-hours"].notna() & (table["to compute"] > 0)]
    untimed = table[table["core-hours"].isna() & (table["to compute"] > 0)]
    cpu = _cpu_time(float(timed["core-hours"].sum()))
    line = f"{todo} cells to compute"
    if not len(untimed):
        return f"{line}, {cpu} (from the committed per-cell timings)"
    names = ", ".join(f"{r.paper}/{r.experiment}" for r in untimed.itertuples())
    line += f"; {int(untimed['to compute'].sum())} of them not estimated ({names}: no committed timing)"
    if len(timed):
        line += f"; the other {int(timed['to compute'].sum())} {cpu} (from the committed per-cell timings)"
    return line


def _compute(args: argparse.Namespace) -> int:
    from ..experiments.recompute import plan, recompute

    repeated = sorted({p for p in args.papers if args.papers.count(p) > 1})
    if repeated:
        raise ValueError(f"paper(s) given twice: {', '.join(repeated)}")
    if args.cache is not None and not args.dry_run:
        _check_cache_folder(args.cache)  # before the plan and any computation, not when first written
    table = plan(args.papers or None, args.experiment, force=args.force)
    print(_shown_plan(table).to_string(index=False))
    print(_plan_line(table))
    if args.dry_run:
        return 0
    done = recompute(args.papers or None, args.experiment, n_jobs=args.n_jobs, scheduler=args.scheduler,
                     local_cluster=args.local_cluster, force=args.force, cache=args.cache)
    print(done.to_string(index=False))
    return 0


def _add_n_jobs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--n-jobs", type=n_jobs_int, default=1, dest="n_jobs",
                        help="joblib workers (default 1)")


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair results status|verify|stamp|compute``."""
    parser = subparsers.add_parser(
        "results",
        help="status, verification and checksums of the committed paper-profile results",
        description="Coverage of the committed paper-profile results, their integrity (sha256 and "
        "row count recorded in each .meta.json), and an exact recomputation of a sample of cells "
        "(what CI runs).",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    st = sub.add_parser("status", help="how many cells of each declared experiment are committed")
    st.add_argument("--paper", choices=(*PAPERS, TEMPLATE), default=None)
    st.set_defaults(func=_status)
    ve = sub.add_parser(
        "verify", help="check checksums and coverage, recompute a sample of cells; fail unless identical",
        description="Check every committed results file against its checksum, require every declared "
        "cell exactly once, and recompute a random sample (at least --cells per experiment and one "
        "per method) that must be bit-identical, plus every cell of each file whose .csv.gz or "
        ".meta.json differs from its version committed in git (at --base, default HEAD), whatever its "
        "metadata says. Exit 1 with one line per problem.")
    ve.add_argument("--paper", choices=(*PAPERS, TEMPLATE), default=None)
    ve.add_argument("--cells", type=positive_int, default=2,
                    help="minimum cells recomputed per experiment (>= 1, default 2)")
    ve.add_argument("--seed", type=seed_int, default=None,
                    help="sample seed (default: a fresh one, printed; pass it to reproduce a failure)")
    ve.add_argument("--all", action="store_true", help="recompute every committed cell (hours)")
    ve.add_argument("--base", default="HEAD", metavar="REV",
                    help="recompute whole every results file whose .csv.gz or .meta.json differs from "
                         "its version at this commit (default HEAD: uncommitted changes; CI passes the "
                         "commit the change builds on)")
    ve.add_argument("--env", action="store_true",
                    help="only compare the installed library versions and BLAS kernels with those "
                         "recorded in the results files (and the lock); recompute nothing")
    _add_n_jobs(ve)
    ve.set_defaults(func=_verify)
    sa = sub.add_parser(
        "stamp", help="re-record the sha256 and row count of results files whose rows are unchanged",
        description="Maintenance: re-record the sha256 and row count of results files whose bytes "
        "changed but whose rows (task keys and values) still match the content digest recorded when "
        "the engine wrote them, and record the digest of files written before digests existed while "
        "their sha256 still matches (save_results stamps new files itself). A file whose rows no "
        "longer match is refused, whatever the per-task cache holds (a cache entry can be edited "
        "together with its checksum), unless --trust.")
    sa.add_argument("paper", nargs="?", choices=(*PAPERS, TEMPLATE), default=None,
                    help="stamp only this paper's files (default: every paper)")
    sa.add_argument("--trust", action="store_true",
                    help="stamp edited files as they are and mark them trusted: `verify` then recomputes "
                         "every cell of such a file")
    sa.set_defaults(func=_stamp)
    co = sub.add_parser(
        "compute", help="compute the missing (or all) cells of the paper profiles and write the results",
        description="Compute the paper-profile cells that are not committed (with --force: all of them) "
        "through the engine's per-task cache, so an interrupted run resumes, then write each results "
        "file atomically with its metadata and checksum. --dry-run prints the cells and the estimated "
        "core-hours per experiment. --scheduler runs on an existing dask cluster, --local-cluster N "
        "on a dask LocalCluster of N single-threaded workers; rows are identical on every backend.")
    co.add_argument("papers", nargs="*", metavar="PAPER",
                    help=f"papers (default: all; {', '.join((*PAPERS, TEMPLATE))})")
    co.add_argument("--experiment", default=None, help="only this declared experiment (e.g. table1)")
    _add_n_jobs(co)
    where = co.add_mutually_exclusive_group()
    where.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="address of a running dask scheduler (tcp://host:8786)")
    where.add_argument("--local-cluster", type=positive_int, default=None, metavar="N",
                       help="start a dask LocalCluster with N workers")
    co.add_argument("--force", action="store_true",
                    help="recompute every cell, not only the missing ones (cached cells are reused: "
                         "point --cache at an empty folder to start from scratch)")
    co.add_argument("--cache", default=None, help="per-task cache folder (default $LDPFAIR_CACHE or "
                                                  ".ldpfair_cache)")
    co.add_argument("--dry-run", action="store_true", help="print the plan, compute nothing")
    co.set_defaults(func=_compute)
