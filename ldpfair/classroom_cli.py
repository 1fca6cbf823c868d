"""``ldpfair assignment``: export a chapter's exercises as a student notebook and a solution key."""

from __future__ import annotations

import argparse
from typing import Any

from .classroom import CONTEXTS, execute_notebook, export_assignment, list_exercises


def _run(args: argparse.Namespace) -> int:
    if args.list:
        exercises = list_exercises(args.paper)
        if not exercises:
            print(f"{args.paper} has no exercises yet")
            return 0
        for e in exercises:
            print(f"{e.number:>3}  {e.label:<24} {e.title}")
        return 0
    student, key = export_assignment(args.paper, args.exercises, output=args.output, context=args.context)
    print(f"student notebook: {student}")
    print(f"solution key:     {key}")
    if args.run_key:
        execute_notebook(key, timeout=args.timeout)
        print(f"solution key executed without error (outputs saved in {key})")
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair assignment``."""
    parser = subparsers.add_parser(
        "assignment",
        help="export a chapter's exercises: student notebook + solution key",
        description="Write <paper>_assignment.ipynb (solutions removed, an empty answer cell after "
        "each exercise, the parameters cell kept) and <paper>_solutions.ipynb (the key). Exercises are "
        "numbered 1..N in the order of the chapter.",
    )
    parser.add_argument("paper", help="paper name (see `ldpfair run --list`) or path of a notebook")
    parser.add_argument("--exercises", "-e", default=None,
                        help="comma-separated exercise numbers or labels (default: all), e.g. 1,3")
    parser.add_argument("-o", "--output", default=None,
                        help="output folder (default runs/assignments/<paper>)")
    parser.add_argument("--context", choices=CONTEXTS, default="full",
                        help="full: keep the whole chapter (default); setup: only its parameters and "
                        "setup cells before the exercises")
    parser.add_argument("--list", action="store_true", help="list the chapter's exercises and exit")
    parser.add_argument("--run-key", action="store_true",
                        help="execute the solution key afterwards (checks it runs; saves its outputs)")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds per cell for --run-key")
    parser.set_defaults(func=_run)
