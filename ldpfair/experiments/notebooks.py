"""Paper notebooks: read their ``parameters`` cell, validate overrides, execute them.

Each paper notebook (``notebooks/<paper>.md``, a MyST jupytext notebook) has one
code cell tagged ``parameters`` whose statements are assignments of literals
(``profile = "paper"``, ``epsilons = [1, 2]``...). :func:`read_parameters`
parses that cell with :mod:`ast`; :func:`validate_parameters` rejects unknown
names and values of the wrong type *before* anything runs; :func:`execute`
converts the notebook in memory with :func:`jupytext.read` and runs it with
:func:`papermill.execute_notebook` (explicit ``kernel_name``), with the working
directory set to the output folder so figures land in ``<out>/figures/``.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .profiles import PROFILES

__all__ = [
    "notebooks_dir",
    "list_notebooks",
    "find_notebook",
    "read_parameters",
    "parse_value",
    "validate_parameters",
    "execute",
    "results_dir",
]

_NOTEBOOK_SUFFIXES = (".md", ".py", ".ipynb")


def _repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def notebooks_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """Folder of the paper notebooks.

    ``path`` if given, else ``$LDPFAIR_NOTEBOOKS``, else ``./notebooks`` when it
    exists, else the ``notebooks`` folder next to the package sources.
    """
    if path is not None:
        return Path(path)
    env = os.environ.get("LDPFAIR_NOTEBOOKS")
    if env:
        return Path(env)
    local = Path("notebooks")
    if local.is_dir():
        return local
    return _repo_root() / "notebooks"


def results_dir(paper: str | None = None) -> Path:
    """Folder of committed results (``$LDPFAIR_RESULTS_DIR`` or ``<repo>/results``).

    Independent of the working directory, so a notebook executed in an output
    folder still finds the committed paper-profile results.
    """
    env = os.environ.get("LDPFAIR_RESULTS_DIR")
    root = Path(env) if env else _repo_root() / "results"
    return root / paper if paper else root


def list_notebooks(folder: str | os.PathLike[str] | None = None) -> dict[str, Path]:
    """Paper name -> notebook file, for every notebook with a ``parameters`` cell."""
    root = notebooks_dir(folder)
    out: dict[str, Path] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.iterdir()):
        if path.suffix in _NOTEBOOK_SUFFIXES and path.stem not in out:
            try:
                read_parameters(path)
            except ValueError:
                continue
            out[path.stem] = path
    return out


def find_notebook(paper: str, folder: str | os.PathLike[str] | None = None) -> Path:
    """The notebook of ``paper`` (ValueError listing the available papers)."""
    books = list_notebooks(folder)
    if paper not in books:
        raise ValueError(
            f"unknown paper {paper!r}; available in {notebooks_dir(folder)}: "
            f"{', '.join(books) or '(none)'}"
        )
    return books[paper]


def _parameters_cell(nb: Any, path: Path) -> Any:
    cells = [c for c in nb.cells if c.cell_type == "code"
             and "parameters" in (c.get("metadata", {}).get("tags") or [])]
    if len(cells) != 1:
        raise ValueError(f"{path} must have exactly one code cell tagged 'parameters', "
                         f"found {len(cells)}")
    return cells[0]


def read_parameters(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Names and default values of the notebook's ``parameters`` cell, in order.

    Raises
    ------
    ValueError
        If there is not exactly one ``parameters`` cell, or it holds anything
        but assignments of literals to plain names.
    """
    import jupytext

    path = Path(path)
    nb = jupytext.read(path)
    cell = _parameters_cell(nb, path)
    try:
        tree = ast.parse(cell.source)
    except SyntaxError as exc:
        raise ValueError(f"the parameters cell of {path} is not valid Python: {exc}") from exc
    params: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(
            node.targets[0], ast.Name
        ):
            target, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            target, value = node.target.id, node.value
        else:
            raise ValueError(f"the parameters cell of {path} may only assign literals to names; "
                             f"line {node.lineno} is {ast.unparse(node)!r}")
        try:
            params[target] = ast.literal_eval(value)
        except ValueError as exc:
            raise ValueError(f"parameter {target!r} of {path} is not a literal: "
                             f"{ast.unparse(value)!r}") from exc
    return params


def parse_value(text: str, default: Any) -> Any:
    """Parse a command-line value: a Python literal, or the raw text for a str default."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        if isinstance(default, str) or default is None:
            return text
        raise ValueError(f"cannot parse {text!r} as a Python literal") from None


def _type_ok(value: Any, default: Any) -> tuple[bool, Any]:
    if default is None:
        return True, value
    if isinstance(default, bool):
        return isinstance(value, bool), value
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool), value
    if isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return True, float(value)
        return False, value
    if isinstance(default, str):
        return isinstance(value, str), value
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple)), type(default)(value) if isinstance(
            value, (list, tuple)) else value
    return isinstance(value, type(default)), value


def describe_parameters(defaults: Mapping[str, Any]) -> str:
    """``name = default (type)`` lines, for error messages and ``--list``."""
    return "\n".join(f"  {k} = {v!r} ({type(v).__name__})" for k, v in defaults.items())


def validate_parameters(
    defaults: Mapping[str, Any], overrides: Mapping[str, Any], *, where: str = "the notebook"
) -> dict[str, Any]:
    """Check ``overrides`` against the notebook's parameters; return the converted values.

    Values given as strings (from the command line) are parsed with
    :func:`parse_value`. An int is accepted for a float parameter; otherwise the
    type must match the default's (any literal for a ``None`` default).

    Raises
    ------
    ValueError
        For an unknown name or a value of the wrong type; the message lists the
        valid parameters and their defaults.
    """
    out: dict[str, Any] = {}
    for name, raw in overrides.items():
        if name not in defaults:
            raise ValueError(f"unknown parameter {name!r} for {where}; valid parameters:\n"
                             + describe_parameters(defaults))
        default = defaults[name]
        try:
            value = parse_value(raw, default) if isinstance(raw, str) else raw
        except ValueError as exc:
            raise ValueError(
                f"parameter {name!r} of {where} expects {type(default).__name__} "
                f"(default {default!r}): {exc}; valid parameters:\n"
                + describe_parameters(defaults)) from None
        ok, value = _type_ok(value, default)
        if ok and name == "profile" and value not in PROFILES:
            raise ValueError(f"parameter 'profile' must be one of {PROFILES}, got {value!r}")
        if not ok:
            raise ValueError(
                f"parameter {name!r} of {where} expects {type(default).__name__} "
                f"(default {default!r}), got {value!r} ({type(value).__name__}); "
                "valid parameters:\n" + describe_parameters(defaults))
        out[name] = value
    return out


def execute(
    notebook: str | os.PathLike[str],
    parameters: Mapping[str, Any] | None = None,
    *,
    output: str | os.PathLike[str] | None = None,
    kernel_name: str = "python3",
    prepare_only: bool = False,
    log_output: bool = False,
) -> Path:
    """Execute ``notebook`` with papermill, ``parameters`` injected; return the output path.

    Parameters
    ----------
    notebook : path
        A jupytext notebook (MyST ``.md``, percent ``.py``) or an ``.ipynb``.
    parameters : mapping, optional
        Validated overrides (see :func:`validate_parameters`).
    output : path, optional
        Executed notebook (default ``runs/<name>/<name>.ipynb``). Its folder is
        the working directory of the kernel, so figures go to ``<folder>/figures``.
    kernel_name : str
        Jupyter kernel.
    prepare_only : bool
        Inject the parameters without executing.
    log_output : bool
        Stream the notebook's output.
    """
    import jupytext
    import papermill

    notebook = Path(notebook)
    defaults = read_parameters(notebook)
    params = validate_parameters(defaults, dict(parameters or {}), where=str(notebook))
    out = Path(output) if output is not None else Path("runs") / notebook.stem / (
        notebook.stem + ".ipynb")
    if out.suffix != ".ipynb":
        raise ValueError(f"output must be an .ipynb file, got {str(out)!r}")
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    (out.parent / "figures").mkdir(exist_ok=True)
    nb = jupytext.read(notebook)
    env_key = "LDPFAIR_RESULTS_DIR"
    old = os.environ.get(env_key)
    os.environ.setdefault(env_key, str(results_dir().resolve()))
    try:
        papermill.execute_notebook(
            nb, str(out), parameters=params, kernel_name=kernel_name, language="python",
            cwd=str(out.parent), progress_bar=False, log_output=log_output,
            prepare_only=prepare_only,
        )
    finally:
        if old is None:
            os.environ.pop(env_key, None)
    return out
