"""The ``ldpfair`` command line.

Subcommands are contributed by the sub-packages: each exposes
``add_subcommand(subparsers)`` which registers a parser whose ``func`` default
runs it. ``ldpfair data ...`` comes from :mod:`ldpfair.datasets`,
``ldpfair run ...`` from :mod:`ldpfair.experiments`.

Every failure is one line on stderr, ``ldpfair <cmd>: error: ...``, never a
traceback: exit status 2 for a usage error (a bad argument or parameter,
named with what is valid) and 1 for work that failed (an unreadable or
tampered file, a folder that cannot be written, a failed notebook).
``ldpfair`` without a command prints the help on stderr and exits 2 (a usage error); output cut
short by its reader (``ldpfair run --list | head -2``) ends silently with 141, as a Unix tool
killed by SIGPIPE. ``LDPFAIR_DEBUG=1`` re-raises unexpected exceptions with their traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__, config

_SUBCOMMAND_MODULES = (
    "ldpfair.datasets._cli", "ldpfair.experiments._cli", "ldpfair.papers._cli", "ldpfair.classroom_cli",
    "ldpfair.environment",  # ldpfair doctor
    "ldpfair.papers.bench_cli", "ldpfair.papers.preview",
)

#: Exit status of a usage error (bad argument) and of failed work.
EXIT_USAGE, EXIT_FAILED = 2, 1


class OneLineParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors are one line (no usage dump), exit 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``<prog>: error: <message>`` (see ``-h`` for the usage) and exit 2."""
        from ._validation import did_you_mean

        hint = ""
        if "invalid choice:" in message:
            # argparse: "argument X: invalid choice: 'v' (choose from 'a', 'b')"
            try:
                bad = message.split("invalid choice: ", 1)[1].split(" (choose from", 1)[0].strip("'")
                options = [c.strip(" '") for c in message.split("(choose from ", 1)[1].rstrip(")").split(",")]
                hint = did_you_mean(bad, options)
            except IndexError:  # pragma: no cover - another argparse wording
                hint = ""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}{hint} (see {self.prog} -h)\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level argument parser with every available subcommand."""
    parser = OneLineParser(
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


def _one_line(exc: BaseException) -> str:
    """The exception as one line: its message (first line; KeyError's repr quotes removed)."""
    if isinstance(exc, KeyError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        text = exc.args[0]
    elif isinstance(exc, OSError) and exc.strerror:
        where = f": {exc.filename}" if exc.filename else ""
        text = f"{exc.strerror}{where}"
    else:
        text = str(exc)
    lines = [s.strip() for s in text.splitlines() if s.strip()]
    if not lines:
        return type(exc).__name__
    if len(lines) > 1:
        return "; ".join(lines[:1] + lines[1:4]) + (" ..." if len(lines) > 4 else "")
    return lines[0]


def exit_code(exc: BaseException) -> int:
    """2 for a usage error (bad argument or parameter), 1 for failed work."""
    results = sys.modules.get("ldpfair.experiments.results")  # not imported: not its error
    if results is not None and isinstance(exc, results.ResultsIntegrityError):
        return EXIT_FAILED
    if isinstance(exc, (ValueError, TypeError, KeyError)):
        return EXIT_USAGE
    return EXIT_FAILED


#: Exit status when the reader of stdout went away (as a Unix tool killed by SIGPIPE: 128 + 13).
EXIT_PIPE = 141


def _stdout_closed() -> int:
    """Point stdout at /dev/null (so the interpreter's final flush is silent) and return EXIT_PIPE."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass
    return EXIT_PIPE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--version"] and len(argv) > 1:
        parser.error(f"--version takes no other argument, got {' '.join(argv[1:])!r}")
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):  # a usage error: the help goes to stderr, as argparse's errors
        parser.print_help(sys.stderr)
        print("ldpfair: error: name a command (see the list above)", file=sys.stderr)
        return EXIT_USAGE
    cmd = args.command
    try:
        debug = config.debug()
        # resolve relative LDPFAIR_* paths against the caller's folder, once: a notebook kernel runs
        # in another folder and inherits the absolute paths
        config.absolute_paths()
    except ValueError as exc:
        print(f"ldpfair {cmd}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's final flush
        return code
    except KeyboardInterrupt:
        print(f"ldpfair {cmd}: error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader stopped reading (`ldpfair run --list | head -2`): not an error
        return _stdout_closed()
    except Exception as exc:  # noqa: BLE001 - every failure is one line, never a traceback
        if debug:
            raise
        kind = "" if isinstance(exc, (ValueError, KeyError)) else f"{type(exc).__name__}: "
        print(f"ldpfair {cmd}: error: {kind}{_one_line(exc)}", file=sys.stderr)
        return exit_code(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
