"""The ``ldpfair data`` subcommand: list, where, verify and fetch dataset files."""

from __future__ import annotations

import argparse
import sys

from . import registry

__all__ = ["add_subcommand"]


def _cmd_list_paper(paper: str) -> int:
    from .chapters import chapter_files

    reg = registry.get_registry("data")
    files = chapter_files(paper)
    present = [name for name in files if reg.path(name).is_file()]
    folder = registry.where()["data"]["folder"]
    print(f"{paper} reads {len(files)} data files ({len(present)} present in {folder}):")
    for name in files:
        e = reg.entry(name)
        print(f"  {'present' if name in present else 'MISSING':8s} {name}  {e.size} bytes  {e.url}")
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    from . import core  # the package import registered every loader

    if args.paper:
        if args.files:
            raise ValueError("give --paper or --files, not both (--paper lists the paper's files)")
        return _cmd_list_paper(args.paper)
    reg = registry.get_registry("data")
    for name in core.names():
        li = core.info(name)
        papers = ", ".join(li.paper) or "-"
        print(f"{name}  [{papers}]")
        print(f"    {li.summary}")
        defaults = li.defaults
        for opt, allowed in li.choices.items():
            if allowed is None:
                valid = "any"
            elif len(allowed) > 8:
                valid = " | ".join(map(repr, list(allowed)[:6])) + f" | ... ({len(allowed)} values)"
            else:
                valid = " | ".join(map(repr, allowed))
            print(f"    --{opt}={defaults.get(opt)!r}  ({valid})")
    if args.files:
        print("\nfiles (collection 'data'):")
        for name, e in reg.entries.items():
            print(f"  {name}  {e.size} bytes  sha256:{e.sha256[:12]}...  {e.note}")
    return 0


def _cmd_where(args: argparse.Namespace) -> int:
    for coll, w in registry.where().items():
        env = f"{w['env']}={w['env_value']}" if w["env_value"] else f"{w['env']} unset"
        reg = registry.get_registry(coll)
        present = sum(reg.path(name).is_file() for name in reg.entries)  # present, not checked
        print(f"{coll}: {w['folder']}  ({w['mode']}; {env}; {present} of {w['files']} registered "
              "files present)")
    return 0


def _collection(value: str) -> str | None:
    return None if value == "all" else value


def _verify_all(collection: str | None) -> list[tuple[registry.FileStatus, str]]:
    """Status of every registered file of ``collection``; an unreadable file is reported, not fatal."""
    cols = list(registry.COLLECTIONS) if collection is None else [collection]
    out: list[tuple[registry.FileStatus, str]] = []
    for coll in cols:
        reg = registry.get_registry(coll)
        for name in reg.entries:
            try:
                out.extend((s, "") for s in reg.verify([name]))
            except OSError as exc:
                path = reg.path(name)
                status = registry.FileStatus(coll, name, "unreadable", path, reg.entry(name).sha256)
                out.append((status, f" ({type(exc).__name__}: {exc.strerror or exc})"))
    return out


def _cmd_verify(args: argparse.Namespace) -> int:
    report = _verify_all(_collection(args.collection))
    bad = [(s, why) for s, why in report if s.status != "ok"]
    for s, why in report if args.verbose else bad:
        extra = f" (expected {s.expected}, got {s.actual})" if s.status == "mismatch" else why
        print(f"{s.status:10s} {s.collection}/{s.name}  {s.path}{extra}")
    print(f"{len(report) - len(bad)} of {len(report)} files ok")
    if bad:
        print(f"ldpfair data: error: {len(bad)} of {len(report)} files missing, unreadable or "
              "different from the registry (listed above)", file=sys.stderr)
    return 1 if bad else 0


def _cmd_fetch(args: argparse.Namespace) -> int:
    coll = _collection(args.collection)
    if args.files:
        if coll is None:
            raise ValueError("name a --collection (data or reference) when fetching single files")
        paths = [registry.fetch(f, collection=coll) for f in args.files]
    else:
        paths = registry.fetch_all(coll)
    for p in paths if args.verbose else []:
        print(p)
    print(f"{len(paths)} files present and verified", file=sys.stdout)
    return 0


def add_subcommand(subparsers: argparse._SubParsersAction) -> None:
    """Register ``ldpfair data`` with its ``list``, ``where``, ``verify`` and ``fetch`` actions.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        The top-level parser's subparsers.
    """
    p = subparsers.add_parser(
        "data",
        help="list datasets, show and verify the data folders, fetch files",
        description="Datasets and their checksummed raw files.",
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    pl = sub.add_parser("list", help="list datasets with their papers and options")
    pl.add_argument("--files", action="store_true", help="also list the registered raw files")
    pl.add_argument("--paper", default=None, metavar="PAPER",
                    help="list only the data files that this paper's chapter reads, and which are present")
    pl.set_defaults(func=_cmd_list)

    pw = sub.add_parser("where", help="show the folders data is read from")
    pw.set_defaults(func=_cmd_where)

    choices = [*registry.COLLECTIONS, "all"]
    pv = sub.add_parser("verify", help="check the sha256 of every local file (no download)")
    pv.add_argument("--collection", choices=choices, default="data")
    pv.add_argument("-v", "--verbose", action="store_true", help="list every file")
    pv.set_defaults(func=_cmd_verify)

    pf = sub.add_parser("fetch", help="download (or verify offline) the files into the cache")
    pf.add_argument("files", nargs="*", help="relative names (default: every file)")
    pf.add_argument("--collection", choices=choices, default="data")
    pf.add_argument("-v", "--verbose", action="store_true", help="print each path")
    pf.set_defaults(func=_cmd_fetch)
