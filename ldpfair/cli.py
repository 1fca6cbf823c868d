"""The ``ldpfair`` command line.

Subcommands are contributed by the sub-packages: each exposes
``add_subcommand(subparsers)`` which registers a parser whose ``func`` default
runs it. ``ldpfair data ...`` comes from :mod:`ldpfair.datasets`,
``ldpfair run ...`` from :mod:`ldpfair.experiments`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __version__

_SUBCOMMAND_MODULES = (
    "ldpfair.datasets._cli", "ldpfair.experiments._cli", "ldpfair.papers._cli", "ldpfair.classroom_cli"
)


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="ldpfair",
        description="ldpfair: datasets, experiments and notebooks of the ldpfair book.",
    )
    parser.add_argument("--version", action="version", version=f"ldpfair {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for modname in _SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(modname)
        except ModuleNotFoundError as exc:  # a sub-package not built yet
            if not exc.name or not modname.startswith(exc.name):
                raise
            continue
        module.add_subcommand(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError, KeyError) as exc:
        print(f"ldpfair {args.command}: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
