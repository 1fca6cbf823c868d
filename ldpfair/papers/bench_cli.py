"""``ldpfair bench``: the open benchmark of the synthesis chapter on a user's mechanisms.

Runs the synthesis notebook (``ldpfair run synthesis``) with the user's
mechanisms added to the profile's baselines, through the same engine and cache,
after auditing each user mechanism (:mod:`ldpfair.papers.synthesis.open`). Writes
the executed notebook, its figures, and beside the notebook
``<OUT>_files/mechanism_cards.csv`` (the user mechanisms' cards) and
``<OUT>_files/leaderboard.csv`` (every mechanism's row).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["add_subcommand"]


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair bench`` on ``subparsers``."""
    p = subparsers.add_parser(
        "bench",
        help="benchmark your own LDP mechanism against the book's (synthesis chapter)",
        description=(
            "Audit each --mechanism (a FrequencyOracle subclass or a factory (k, epsilon) -> channel "
            "matrix, named 'pkg.mod:Name', 'path/file.py:Name' or by a plug-in of the entry-point group "
            "ldpfair.mechanisms), then run the synthesis chapter on it and the profile's baselines, "
            "writing the executed notebook (-o), its figures, the mechanism cards and the leaderboard."
        ),
    )
    p.add_argument(
        "--mechanism", action="append", default=[], metavar="SPEC", help="a user mechanism (repeatable)"
    )
    p.add_argument("--list", action="store_true", help="list the installed plug-in mechanisms")
    p.add_argument("--dataset", action="append", default=[], metavar="CARD.toml",
                   help="a dataset card (CSV or Parquet + TOML card), added to the datasets (repeatable)")
    p.add_argument("--datasets", nargs="+", metavar="NAME", help="built-in datasets (default: the profile's)")
    p.add_argument(
        "--epsilons", nargs="+", type=float, metavar="EPS", help="budgets (default: the profile's)"
    )
    p.add_argument("--seeds", type=int, help="number of seeds (default: the profile's)")
    p.add_argument("--profile", choices=("quick", "paper"), default="quick", help="profile (default quick)")
    p.add_argument("--audit-k", type=int, action="append", default=[], metavar="K",
                   help="also audit at domain size K (2..128; repeatable; the run's k is always audited)")
    p.add_argument("--audit-timeout", type=float, default=600.0, metavar="S",
                   help="seconds one mechanism's audits may take before bench gives up (default 600)")
    p.add_argument("-o", "--output", help="executed notebook (default runs/bench/bench.ipynb)")
    p.add_argument("--log-output", action="store_true", help="stream the notebook's output")
    p.set_defaults(func=_main)


def _absolute(spec: str) -> str:
    """A file path spec made absolute (the notebook's kernel runs in another folder)."""
    module, sep, attr = spec.rpartition(":")
    if sep and module.endswith(".py"):
        return f"{Path(module).expanduser().resolve()}:{attr}"
    return spec


def _progress(line: str) -> None:
    print(line, flush=True)


def _with_timeout(seconds: float, fn: Any) -> Any:
    """Run ``fn()``; a user mechanism still running after ``seconds`` is one line (SIGALRM, main thread)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        return fn()

    def _alarm(signum: int, frame: Any) -> None:
        raise TimeoutError(f"no answer within --audit-timeout {seconds:g} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    except TimeoutError:
        raise ValueError(f"a mechanism's import, construction or audit did not finish in {seconds:g} s "
                         "(--audit-timeout); the last 'auditing ...' line above names it") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _main(args: argparse.Namespace) -> int:
    from ..ldp import plugins

    if args.list:
        found = plugins.entry_point_names()
        print(
            "\n".join(f"{n} = {v}" for n, v in found.items())
            or f"no plug-in mechanisms installed (entry-point group {plugins.ENTRY_POINT_GROUP})"
        )
        return 0
    if not args.mechanism and not args.dataset:
        raise ValueError("name at least one --mechanism or --dataset (e.g. --mechanism "
                         "examples/tilted_rr.py:tilted_rr, --dataset examples/law_school.toml; see -h)")
    if args.seeds is not None and args.seeds < 1:
        raise ValueError(f"--seeds must be an integer >= 1, got {args.seeds}")
    from ..ldp.plugins import RESERVED
    from .synthesis import SPEC, analysis
    from .synthesis import open as bench_open
    from .synthesis.experiments import PROFILES

    for s in args.mechanism:
        if s.strip().upper() in RESERVED:
            raise ValueError(f"--mechanism {s}: {s.strip().upper()} is a built-in mechanism; the profile's "
                             f"baselines ({', '.join(PROFILES[args.profile]['mechanisms'])}) are already in "
                             "every run (name your own mechanism as 'pkg.mod:Name' or 'file.py:Name')")
    for k in args.audit_k:
        if not 2 <= k <= 128:
            raise ValueError(f"--audit-k must be an integer from 2 to 128, got {k}")
    if not args.audit_timeout > 0:
        raise ValueError(f"--audit-timeout must be a number of seconds > 0, got {args.audit_timeout}")
    specs = [_absolute(s) for s in args.mechanism]
    if len(set(specs)) != len(specs):
        raise ValueError("a --mechanism is given twice")
    prof = PROFILES[args.profile]
    epsilons = list(args.epsilons) if args.epsilons else list(prof["epsilons"])
    t0 = time.perf_counter()
    for s in specs:  # unresolvable mechanisms and channels above their budget: refused before any data
        plugins.exact_precheck(s, epsilons)
    datasets = list(args.datasets) if args.datasets else list(prof["datasets"])
    keys = list(datasets)  # the run's datasets as keys (a card by its name)
    if args.dataset:
        from .synthesis.experiments import CARD_DATASETS, CARD_LABELS, DATASETS

        datasets += bench_open.datasets_param(tuple(DATASETS)).check(list(args.dataset), "--dataset") or []
        for card in args.dataset:
            key = bench_open.add_card(card, CARD_DATASETS, CARD_LABELS, builtin=DATASETS)
            keys.append(key)
            print(f"dataset card {card}: dataset {key!r} validated")
    from .synthesis.experiments import dataset_entry

    # the run's protected column, audited too
    real = bench_open.real_column([dataset_entry(key)[:3] for key in keys]) if specs else None
    cards = _with_timeout(
        args.audit_timeout,
        lambda: bench_open.mechanism_cards(specs, epsilons, ks=args.audit_k, progress=_progress, real=real),
    )  # resolves and audits: refusal is one line
    for r in cards.to_dict("records"):
        level = (
            f"exact level {r['level']:.4g}" if r["privacy"] == "exact"
            else "no declared level (its level is the audit's)" if r["level"] != r["level"]  # nan
            else f"declared level {r['level']:.4g}"
        )
        print(
            f"admitted {r['mechanism']} at epsilon={r['epsilon']:g}: {level}, audit lower bound "
            f"{r['audit_lower_bound']:.4g} ({bench_open.audit_samples():,} reports per input), "
            f"n Var = {r['var_exact']:.4g}, {r['bits']} bit(s) per report, {r['users_per_s']:,.0f} users/s; "
            f"audited at k = {r['audited_k']}; {r['power']}"
        )
    mechanisms = [*prof["mechanisms"], *specs]
    overrides: dict[str, Any] = {"mechanisms": mechanisms}
    if args.datasets or args.dataset:
        overrides["datasets"] = datasets
    if args.epsilons:
        overrides["epsilons"] = epsilons
    if args.seeds is not None:
        overrides["seeds"] = args.seeds
    output = Path(args.output or "runs/bench/bench.ipynb")
    from ..experiments._cli import _main as run_main

    run_args = argparse.Namespace(
        paper="synthesis",
        list=False,
        profile=args.profile,
        notebooks=None,
        notebook=None,
        parameter=[[k, repr(v)] for k, v in overrides.items()],
        output=str(output),
        kernel="python3",
        prepare_only=False,
        log_output=args.log_output,
    )
    rc = run_main(run_args)
    if rc:
        return rc
    files = output.with_name(output.stem + "_files")
    files.mkdir(parents=True, exist_ok=True)
    cards.to_csv(files / "mechanism_cards.csv", index=False)
    frames = SPEC.results(args.profile, **overrides)  # from the cache the notebook filled
    from .synthesis import ranks

    combined = analysis.combine(frames)
    board = analysis.leaderboard(combined)
    sel = combined.attrs.get("leaderboard_selected")
    if sel is not None and len(sel):
        unc = ranks.rank_uncertainty(sel)
        board = board.merge(unc[["mechanism", "gain_low", "gain_high", "rank_low", "rank_high", "group"]],
                            on="mechanism", how="left")
    board.to_csv(files / "leaderboard.csv", index=False)
    print(board.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    if "group" in board.columns:
        note = ranks.rank_note(board)
        if note:
            print(note)
    print(
        f"mechanism cards: {files / 'mechanism_cards.csv'}; leaderboard: {files / 'leaderboard.csv'}; "
        f"wall time {time.perf_counter() - t0:.0f} s"
    )
    sys.stdout.flush()
    return 0
