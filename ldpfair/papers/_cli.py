"""``ldpfair results``: status and verification of the committed paper-profile results."""

from __future__ import annotations

import argparse
from typing import Any

from . import PAPERS, status, verify


def _status(args: argparse.Namespace) -> int:
    table = status(args.paper)
    if table.empty:
        print("no paper declares committed experiments yet")
        return 0
    print(table.to_string(index=False))
    return 0


def _verify(args: argparse.Namespace) -> int:
    table = verify(args.paper, n_cells=args.cells, n_jobs=args.n_jobs)
    if table.empty:
        print("no paper declares committed experiments yet: nothing to verify")
        return 0
    print(table.to_string(index=False))
    print(f"verified {int(table['checked'].sum())} recomputed cells: identical to the committed results")
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair results status|verify``."""
    parser = subparsers.add_parser(
        "results",
        help="status and verification of the committed paper-profile results",
        description="Coverage of the committed paper-profile results, and an exact recomputation "
        "of a few cells of each (what CI runs).",
    )
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    st = sub.add_parser("status", help="how many cells of each declared experiment are committed")
    st.add_argument("--paper", choices=PAPERS, default=None)
    st.set_defaults(func=_status)
    ve = sub.add_parser("verify", help="recompute a few committed cells; fail unless identical")
    ve.add_argument("--paper", choices=PAPERS, default=None)
    ve.add_argument("--cells", type=int, default=2, help="cells per experiment (default 2)")
    ve.add_argument("--n-jobs", type=int, default=1, dest="n_jobs")
    ve.set_defaults(func=_verify)
