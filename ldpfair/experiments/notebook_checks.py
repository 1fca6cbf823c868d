"""A notebook's parameters against its chapter's declaration: the declarations, the check it runs, its cell.

Split from :mod:`ldpfair.experiments.notebooks`, which re-exports these functions.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .parameters import Param

__all__ = ["DECLARATIONS", "check_parameter", "build_check", "check_notebook", "parameters_cell",
           "sync_parameters_cell"]


class _Declarations(Mapping[str, Mapping[str, Param]]):
    """paper -> its notebook's parameter declarations, read from the chapter's ``SPEC.parameters``."""

    def __getitem__(self, paper: str) -> Mapping[str, Param]:
        from ..papers import PAPERS, TEMPLATE, spec

        if paper not in PAPERS and paper != TEMPLATE:
            raise KeyError(paper)
        return spec(paper).parameters

    def __iter__(self) -> Iterator[str]:
        from ..papers import PAPERS

        return iter(PAPERS)

    def __len__(self) -> int:
        from ..papers import PAPERS

        return len(PAPERS)


#: paper -> parameter -> declaration (every parameter of the notebook's parameters cell), as
#: each chapter declares them in its ``SPEC.parameters`` (see :mod:`ldpfair.papers.contract`).
DECLARATIONS: Mapping[str, Mapping[str, Param]] = _Declarations()


def check_parameter(paper: str, name: str, value: Any) -> Any:
    """Check ``value`` of ``paper``'s parameter ``name`` against its declaration; return it converted."""
    return DECLARATIONS[paper][name].check(value, name)


def build_check(paper: str, values: Mapping[str, Any]) -> None:
    """Declare ``paper``'s experiments with the complete parameter ``values``; one ValueError if refused.

    The chapter's ``SPEC.run_overrides`` picks the values the notebook passes as
    profile overrides; declaring the experiments with them runs every check the
    chapter makes, before a kernel starts.
    """
    from ..papers import PAPERS, TEMPLATE, spec

    if paper not in PAPERS and paper != TEMPLATE:
        return
    s = spec(paper)
    try:
        s.experiments(values.get("profile", "paper"), **s.run_overrides(values))
    except (ValueError, TypeError, KeyError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise ValueError(f"the parameters of {paper} are refused by its grid builder: "
                         f"{str(text).splitlines()[0]}") from None


def check_notebook(paper: str, namespace: Mapping[str, Any], *, build: bool = True) -> dict[str, Any]:
    """Check a running notebook's parameter values against ``paper``'s declaration; return them converted.

    The notebook calls this right after its ``parameters`` cell (``check_notebook("xu2019",
    globals())``), so a value edited by hand in Jupyter meets the same checks as one given
    to ``ldpfair run -p`` (the same declaration, :data:`DECLARATIONS`), then (``build``)
    the chapter's grid builder (:func:`build_check`).

    Parameters
    ----------
    paper : str
        A registered paper.
    namespace : mapping
        The notebook's variables (``globals()``); every declared parameter must be in it.
    build : bool
        Also declare the experiments with these values.

    Raises
    ------
    ValueError
        One line naming the parameter and what is valid.
    """
    decl = DECLARATIONS[paper]
    missing = [name for name in decl if name not in namespace]
    if missing:
        raise ValueError(f"the notebook of {paper} does not set the parameter(s) {', '.join(missing)}")
    values = {name: d.check(namespace[name], name) for name, d in decl.items()}
    if build:
        build_check(paper, values)
    return values


def parameters_cell(paper: str, source: str, *, width: int = 88) -> str:
    """``source`` (a ``parameters`` cell) with each assignment's comment generated from the declaration.

    Each line ``name = value`` gets ``  # <comment>`` (:attr:`Param.comment`); when
    that would make the line longer than ``width`` the comment goes on the lines
    above it, wrapped. Other comment lines are dropped; the assignments are kept as
    written. ``tests/test_cli_run.py`` checks that every notebook's cell is what this
    returns, so the comments never offer a value that ``ldpfair run`` refuses.

    Raises
    ------
    ValueError
        If the cell assigns a name the paper does not declare, or misses one it declares.
    """
    import textwrap

    decl = DECLARATIONS[paper]
    tree = ast.parse(source)
    lines = source.splitlines()
    out: list[str] = []
    seen = []
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if not isinstance(target, ast.Name) or target.id not in decl:
            name = target.id if isinstance(target, ast.Name) else ast.unparse(node)
            raise ValueError(f"parameter {name!r} of the {paper} notebook is not declared; declared: "
                             f"{', '.join(decl)}")
        seen.append(target.id)
        end = node.end_lineno or node.lineno
        code = "\n".join(lines[node.lineno - 1:end])
        code = code[:len(code) - len(lines[end - 1]) + (node.end_col_offset or 0)].rstrip()
        comment = decl[target.id].comment
        one = f"{code}  # {comment}"
        if "\n" not in code and len(one) <= width:
            out.append(one)
        else:
            out += [f"# {t}" for t in textwrap.wrap(comment, width - 2, break_on_hyphens=False)] + [code]
    missing = [n for n in decl if n not in seen]
    if missing:
        raise ValueError(f"the parameters cell of {paper} lacks the declared parameter(s) "
                         f"{', '.join(missing)}")
    return "\n".join(out)


def sync_parameters_cell(path: str | os.PathLike[str], *, write: bool = True) -> bool:
    """Regenerate the comments of a MyST paper notebook's ``parameters`` cell from its declaration.

    See :func:`parameters_cell`. Returns whether the
    cell changed (with ``write=False`` nothing is written: a check).
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    m = re.search(r"(```\{code-cell\}[^\n]*\n:tags: \[parameters\]\n\n)(.*?)(\n```)", text, re.S)
    if m is None:
        raise ValueError(f"{path}: no MyST code cell tagged parameters")
    new = parameters_cell(path.stem, m.group(2))
    if new == m.group(2):
        return False
    if write:
        path.write_text(text[:m.start(2)] + new + text[m.end(2):], encoding="utf-8")
    return True
