"""``ldpfair run``: execute a paper notebook with new parameters (papermill)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .notebooks import (
    NotebookFailed,
    describe_parameters,
    execute,
    figures_dir,
    find_notebook,
    list_notebooks,
    notebooks_dir,
    read_parameters,
    validate_parameters,
)

__all__ = ["add_subcommand"]


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair run`` on ``subparsers``."""
    p = subparsers.add_parser(
        "run",
        help="execute a paper notebook with parameters (papermill)",
        description=(
            "Execute the notebook of PAPER with papermill, its `parameters` cell overridden, "
            "writing the executed notebook to runs/PAPER/PAPER.ipynb (or -o OUT.ipynb) and its "
            "figures to OUT_files/figures/PAPER. Parameters are checked against the paper's declared "
            "types and domains (see --list) and its grid builder before any kernel starts. "
            "With the paper profile, the cells in the committed results are read and the others "
            "(parameters outside the committed grid) computed; the command ends with one line "
            "saying how many cells came from each."
        ),
    )
    p.add_argument("paper", nargs="?", help="paper name (see --list)")
    p.add_argument("--list", action="store_true",
                   help="list the papers and their parameters (only PAPER's when one is named)")
    p.add_argument("--profile", choices=("quick", "paper"), help="set the `profile` parameter")
    p.add_argument("-p", "--parameter", nargs=2, action="append", default=[],
                   metavar=("NAME", "VALUE"), help="set a parameter (a Python literal)")
    p.add_argument("-o", "--output", help="executed notebook (default runs/PAPER/PAPER.ipynb); an "
                   "existing file is replaced, and only by a complete notebook (a failed run leaves "
                   "OUT.failed.ipynb and says so)")
    p.add_argument("--notebooks", help="folder of the paper notebooks (default ./notebooks)")
    p.add_argument("--notebook", help="run this notebook file instead of a paper's")
    p.add_argument("--kernel", default="python3", help="Jupyter kernel name (default python3)")
    p.add_argument("--prepare-only", action="store_true",
                   help="inject the parameters without executing")
    p.add_argument("--log-output", action="store_true", help="stream the notebook's output")
    p.set_defaults(func=_main)


def _list(args: argparse.Namespace) -> int:
    if args.notebook:
        raise ValueError("--list lists the papers' notebooks; drop --notebook (its parameters: "
                         "`ldpfair run --notebook PATH -p NAME VALUE` checks them)")
    books = list_notebooks(args.notebooks)
    if not books:
        print(f"no paper notebooks in {notebooks_dir(args.notebooks)}")
        return 1
    if args.paper:
        books = {args.paper: find_notebook(args.paper, args.notebooks)}
    for name, path in books.items():
        print(f"{name}  ({path})")
        print(describe_parameters(read_parameters(path), name))
        print()
    from ..ldp.plugins import ENTRY_POINT_GROUP, entry_point_names

    found = entry_point_names()
    print(f"plug-in mechanisms ({ENTRY_POINT_GROUP}): "
          + (", ".join(f"{n} = {v}" for n, v in found.items()) or "none installed"))
    return 0


def _check_kernel(name: str) -> None:
    """Refuse, before any work, a Jupyter kernel name that is not installed (naming those that are)."""
    from jupyter_client.kernelspec import KernelSpecManager

    from .._validation import did_you_mean

    installed = sorted(KernelSpecManager().find_kernel_specs())
    if name not in installed:
        hint = did_you_mean(name, installed)
        raise ValueError(f"--kernel {name!r}: no such Jupyter kernel is installed{hint} "
                         f"(installed: {', '.join(installed) or 'none'}; `jupyter kernelspec list`)")


def _main(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args)
    if args.notebook:
        if args.paper:
            raise ValueError("give either a paper or --notebook PATH, not both")
        path = args.notebook
    elif args.paper:
        path = find_notebook(args.paper, args.notebooks)
    else:
        raise ValueError("name a paper (see `ldpfair run --list`) or pass --notebook PATH")
    defaults = read_parameters(path)
    overrides: dict[str, Any] = {}
    for name, value in args.parameter:
        if name in overrides:
            raise ValueError(f"parameter {name!r} given twice")
        overrides[name] = value
    if args.profile:
        if "profile" in overrides:
            raise ValueError("give the profile either with --profile or with -p profile, not both")
        overrides["profile"] = args.profile
    from pathlib import Path

    params = validate_parameters(defaults, overrides, where=str(path), paper=Path(path).stem)
    if not args.prepare_only:
        _check_kernel(args.kernel)
    import os
    import tempfile

    from .. import config
    from .profiles import provenance_summary

    paper = Path(path).stem
    target = Path(args.output) if args.output else Path("runs") / paper / f"{paper}.ipynb"
    replaced = target.is_file()
    fd, ledger = tempfile.mkstemp(prefix="ldpfair-run-", suffix=".jsonl")
    os.close(fd)
    try:
        # inherited by the kernel: complete the paper profile and record the provenance
        with config.exported(config.RUN_LEDGER, ledger):
            out = execute(path, params, output=target, kernel_name=args.kernel,
                          prepare_only=args.prepare_only, log_output=args.log_output)
        summary = provenance_summary(paper, ledger)
    except NotebookFailed as exc:
        print(f"ldpfair run: error: the notebook failed in cell {exc.cell}: {exc.ename}: "
              f"{exc.evalue}", file=sys.stderr)
        print(f"the partially executed notebook: {exc.partial}"
              + (f" ({target} was left as it was)" if replaced else ""), file=sys.stderr)
        return 1
    finally:
        Path(ledger).unlink(missing_ok=True)
    print(f"executed notebook: {out}" + (" (replaced the previous one)" if replaced else ""))
    figures = figures_dir(out) / "figures"
    print(f"figures folder: {figures / paper if (figures / paper).is_dir() else figures}")
    if not args.prepare_only:
        print("\n".join(summary))
    return 0
