"""Paper notebooks: read their ``parameters`` cell, validate overrides, execute them.

Each paper notebook (``notebooks/<paper>.md``, a MyST jupytext notebook) has one
code cell tagged ``parameters`` whose statements are assignments of literals
(``profile = "paper"``, ``epsilons = [1, 2]``...). :func:`read_parameters`
parses that cell with :mod:`ast`; :func:`validate_parameters` rejects unknown
names (with a did-you-mean) and, for a paper notebook, checks every value
against the paper's declaration of its type and domain
(:mod:`ldpfair.experiments.parameters`) and calls the paper's grid builder,
all *before* a kernel starts; :func:`execute` converts the notebook in memory
with :func:`jupytext.read` and runs it with :func:`papermill.execute_notebook`
(explicit ``kernel_name``, an IPC kernel: :func:`kernel_config`), with the
working directory set to ``<out folder>/<out name>_files`` so figures land in
``<out name>_files/figures/<paper>/`` and two runs with different outputs never
overwrite each other's figures. The executed notebook is written to a temporary
file beside the output and renamed when complete (a failed run leaves
``<out name>.failed.ipynb``), and its MyST markup is converted for plain Jupyter
(:func:`myst_to_jupyter`, also used by ``ldpfair assignment``).
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import config
from .._validation import check_creatable, did_you_mean
from ..config import results_dir
from .notebook_checks import (
    DECLARATIONS,
    build_check,
    check_notebook,
    check_parameter,
    parameters_cell,
    sync_parameters_cell,
)

__all__ = [
    "notebooks_dir",
    "list_notebooks",
    "find_notebook",
    "read_parameters",
    "parse_value",
    "validate_parameters",
    "describe_parameters",
    "figures_dir",
    "execute",
    "results_dir",
    "failed_path",
    "NotebookFailed",
    "kernel_config",
    "myst_to_jupyter",
    "citations",
    "DECLARATIONS",
    "check_parameter",
    "build_check",
    "check_notebook",
    "parameters_cell",
    "sync_parameters_cell",
]

_NOTEBOOK_SUFFIXES = (".md", ".py", ".ipynb")


def notebooks_dir(path: str | os.PathLike[str] | None = None) -> Path:
    """Folder of the paper notebooks.

    ``path`` if given, else ``$LDPFAIR_NOTEBOOKS``, else ``./notebooks`` when it
    exists, else the ``notebooks`` folder next to the package sources.
    """
    if path is not None:
        return Path(path)
    return config.notebooks_dir()


def list_notebooks(folder: str | os.PathLike[str] | None = None) -> dict[str, Path]:
    """Paper name -> notebook file, for every notebook with a ``parameters`` cell.

    A name starting with ``_`` (``_template``, the skeleton of a new chapter) is
    not a paper: it is not listed (run it with ``ldpfair run --notebook PATH``).
    """
    root = notebooks_dir(folder)
    out: dict[str, Path] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.iterdir()):
        if path.suffix in _NOTEBOOK_SUFFIXES and path.stem not in out and not path.stem.startswith("_"):
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
            f"unknown paper {paper!r}{did_you_mean(paper, books)}; available in "
            f"{notebooks_dir(folder)}: {', '.join(books) or '(none)'}"
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
    if not path.is_file():
        what = "a folder" if path.is_dir() else "missing"
        raise ValueError(f"notebook {str(path)!r} is {what}; give a notebook file (.md, .py or .ipynb)")
    if path.suffix not in _NOTEBOOK_SUFFIXES:
        raise ValueError(f"notebook {str(path)!r} must be a .md, .py or .ipynb file")
    try:
        nb = jupytext.read(path)
    except Exception as exc:  # noqa: BLE001 - jupytext/nbformat raise many kinds
        raise ValueError(f"notebook {str(path)!r} cannot be read: {type(exc).__name__}: "
                         f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
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


def describe_parameters(defaults: Mapping[str, Any], paper: str | None = None) -> str:
    """``name = default`` lines with each parameter's meaning and domain (for ``--list`` and errors)."""
    decl = DECLARATIONS.get(paper or "", {})
    lines = []
    for k, v in defaults.items():
        d = decl.get(k)
        if d is None:
            lines.append(f"  {k} = {v!r} ({type(v).__name__})")
        else:
            lines.append(f"  {k} = {v!r}: {d.meaning}\n      valid: {d.domain}")
    return "\n".join(lines)


def validate_parameters(
    defaults: Mapping[str, Any],
    overrides: Mapping[str, Any],
    *,
    where: str = "the notebook",
    paper: str | None = None,
    build: bool = True,
) -> dict[str, Any]:
    """Check ``overrides`` against the notebook's parameters; return the converted values.

    Values given as strings (from the command line) are parsed with
    :func:`parse_value` (a bare word is kept as text only for a parameter whose
    values are names). For a paper with declared parameters
    (:data:`DECLARATIONS`) each value is checked
    against its declared domain, then (``build``) the paper's grid builder is
    called with the complete set of values. Otherwise an int is accepted for a
    float parameter and the type must match the default's.

    Raises
    ------
    ValueError
        For an unknown name (with a did-you-mean) or an invalid value: one
        message naming the parameter and what is valid.
    """
    decl = DECLARATIONS.get(paper or "", {})
    out: dict[str, Any] = {}
    for name, raw in overrides.items():
        if name not in defaults:
            raise ValueError(f"unknown parameter {name!r}{did_you_mean(name, defaults)} for {where}; "
                             f"valid: {', '.join(defaults)} (see `ldpfair run --list`)")
        default = defaults[name]
        d = decl.get(name)
        if d is not None:
            value = raw
            if isinstance(raw, str):
                try:
                    value = ast.literal_eval(raw)
                except (ValueError, SyntaxError):
                    if not d.accepts_text:
                        raise ValueError(f"parameter {name!r} must be {d.domain}; cannot parse {raw!r} "
                                         "as a Python literal") from None
                    value = raw
            out[name] = d.check(value, name)
            continue
        try:
            value = parse_value(raw, default) if isinstance(raw, str) else raw
        except ValueError as exc:
            raise ValueError(
                f"parameter {name!r} of {where} expects {type(default).__name__} "
                f"(default {default!r}): {exc}") from None
        ok, value = _type_ok(value, default)
        from .profiles import PROFILES

        if ok and name == "profile" and value not in PROFILES:
            raise ValueError(f"parameter 'profile' must be one of {PROFILES}, got {value!r}"
                             f"{did_you_mean(value, PROFILES)}")
        if not ok:
            raise ValueError(
                f"parameter {name!r} of {where} expects {type(default).__name__} "
                f"(default {default!r}), got {value!r} ({type(value).__name__})")
        out[name] = value
    if decl and build and out:
        build_check(paper, {**defaults, **out})  # type: ignore[arg-type]
    return out


def figures_dir(output: str | os.PathLike[str]) -> Path:
    """Working directory of the kernel that writes ``output``: ``<folder>/<name>_files``."""
    out = Path(output)
    return out.parent / f"{out.stem}_files"


def _check_output(out: Path) -> None:
    """Refuse an output path that cannot be written, before the kernel starts (one line, names -o)."""
    if out.suffix != ".ipynb":
        raise ValueError(f"output (-o) must be an .ipynb file, got {str(out)!r}")
    if out.is_dir():
        raise ValueError(f"output (-o) {str(out)!r} is a folder; give an .ipynb file path")
    check_creatable(out.parent, "output (-o) folder")
    if out.exists() and not os.access(out, os.W_OK):
        raise ValueError(f"output (-o) {str(out)!r} exists and is not writable")


def failed_path(output: str | os.PathLike[str]) -> Path:
    """Where :func:`execute` leaves the partial notebook of a failed run: ``<name>.failed.ipynb``."""
    out = Path(output)
    return out.with_name(f"{out.stem}.failed.ipynb")


class NotebookFailed(RuntimeError):
    """A notebook cell raised: the partially executed notebook is at :attr:`partial`.

    Attributes
    ----------
    cell : int or None
        Execution count of the failing cell.
    ename, evalue : str
        The exception's name and message.
    partial : pathlib.Path
        The partially executed notebook (:func:`failed_path`); the output path
        itself is left as it was.
    """

    def __init__(self, cell: int | None, ename: str, evalue: str, partial: Path) -> None:
        super().__init__(f"the notebook failed in cell {cell}: {ename}: {evalue}")
        self.cell, self.ename, self.evalue, self.partial = cell, ename, evalue, partial


def kernel_config() -> Any:
    """Configuration of the kernels that :func:`execute` starts: the IPC transport.

    Kernels talk to their client over ZeroMQ. Over TCP (jupyter_client's default)
    every kernel start warns that its traffic is unencrypted; over IPC (Unix
    domain sockets beside the kernel's connection file, in the user's Jupyter
    runtime folder, whatever the kernel's working folder) nothing leaves the
    machine and the files are reachable by the user only, so there is nothing to
    warn about. Windows has no IPC transport:
    TCP is kept there (bound to localhost, messages signed with the connection
    file's key).
    """
    from jupyter_core.paths import jupyter_runtime_dir
    from traitlets.config import Config

    if os.name == "nt":  # pragma: no cover - no Unix domain sockets for ZeroMQ
        return Config()
    runtime = Path(jupyter_runtime_dir())
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    # an absolute socket prefix: the client and the kernel (which runs in another folder) meet there,
    # and a killed run leaves no socket file in the output folder. The prefix is unique to this
    # configuration: jupyter_client numbers IPC "ports" by the first free file name, so kernels
    # started at the same time by two processes under one prefix could pick the same sockets (and
    # then reject each other's messages as badly signed).
    import uuid

    prefix = runtime / f"ldpfair-kernel-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    return Config({"KernelManager": {"transport": "ipc", "ip": str(prefix)}})


def prepare_book_kernels() -> None:
    """Make the kernels that a Jupyter Book build starts in this process behave like ``ldpfair run``'s.

    Called by the book's Sphinx extension (``book/_ext/ldpfair_reader.py``) when the
    build starts: the ``LDPFAIR_*`` paths are made absolute (a relative
    ``LDPFAIR_DATA_DIR=../shared/data`` then means the same folder to the kernels,
    which run in ``notebooks/``), and myst-nb's direct executor, which passes its
    notebook client no configuration, is given :func:`kernel_config` (IPC kernels).
    """
    import functools

    config.absolute_paths()
    try:
        from myst_nb.core.execute import direct
    except ImportError:  # pragma: no cover - not building the book
        return
    execute_one = direct.single_nb_execution
    if getattr(execute_one, "_ldpfair_ipc", False):
        return

    @functools.wraps(execute_one)
    def with_ipc(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("config", kernel_config())
        return execute_one(*args, **kwargs)

    with_ipc._ldpfair_ipc = True  # type: ignore[attr-defined]
    direct.single_nb_execution = with_ipc


def _for_jupyter(path: Path) -> None:
    """Rewrite the executed notebook at ``path`` with its MyST markup converted (:func:`myst_to_jupyter`).

    The file gets the mode of a newly created file (``mkstemp`` made it 0600).
    """
    import nbformat

    nb = nbformat.read(path, as_version=4)
    myst_to_jupyter(nb)
    nbformat.write(nb, path)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(path, 0o666 & ~umask)


def _sweep_partials(out: Path) -> list[Path]:
    """Remove the temporary notebooks of earlier runs to ``out`` whose process is gone; return them."""
    from .cache import _pid_alive  # the cache's test of a lock's owner

    removed = []
    for tmp in out.parent.glob(f".{out.stem}.pid*.partial.ipynb"):
        m = re.match(rf"^\.{re.escape(out.stem)}\.pid(\d+)\.", tmp.name)
        if m and not _pid_alive(int(m.group(1))):
            tmp.unlink(missing_ok=True)
            removed.append(tmp)
    return removed


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

    The notebook is written to a temporary file in the output's folder and
    renamed to ``output`` when the run succeeds, so an interrupted or killed run
    never leaves a partial notebook at ``output`` (an existing file there is
    replaced only by a complete one). A run killed outright (``kill -9``) cannot
    remove its hidden temporary file; the next run to the same output removes it
    (:func:`_sweep_partials`: the file names the process that wrote it). The kernel uses the IPC transport
    (:func:`kernel_config`) and inherits the ``LDPFAIR_*`` paths made absolute
    (:func:`ldpfair.config.absolute_paths`), since it runs in another folder.

    Parameters
    ----------
    notebook : path
        A jupytext notebook (MyST ``.md``, percent ``.py``) or an ``.ipynb``.
    parameters : mapping, optional
        Validated overrides (see :func:`validate_parameters`).
    output : path, optional
        Executed notebook (default ``runs/<name>/<name>.ipynb``). The kernel runs
        in :func:`figures_dir` (``<folder>/<name>_files``), so figures go to
        ``<folder>/<name>_files/figures``: two outputs never share figure files.
        Its Markdown is converted for plain Jupyter (:func:`myst_to_jupyter`).
    kernel_name : str
        Jupyter kernel.
    prepare_only : bool
        Inject the parameters without executing.
    log_output : bool
        Stream the notebook's output.

    Raises
    ------
    NotebookFailed
        If a cell raised; the partially executed notebook is then at
        :func:`failed_path` of ``output``.
    """
    import tempfile

    import jupytext
    import papermill
    from papermill.exceptions import PapermillExecutionError

    notebook = Path(notebook)
    defaults = read_parameters(notebook)
    params = validate_parameters(defaults, dict(parameters or {}), where=str(notebook),
                                 paper=notebook.stem)
    out = Path(output) if output is not None else Path("runs") / notebook.stem / (
        notebook.stem + ".ipynb")
    _check_output(out)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    cwd = figures_dir(out)
    (cwd / "figures").mkdir(parents=True, exist_ok=True)
    nb = jupytext.read(notebook)
    config.absolute_paths()
    _sweep_partials(out)
    fd, tmp_name = tempfile.mkstemp(dir=out.parent, prefix=f".{out.stem}.pid{os.getpid()}.",
                                    suffix=".partial.ipynb")
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        # the kernel inherits the committed results folder (it runs in the output folder)
        with config.exported(config.RESULTS_DIR, results_dir().resolve(), override=False):
            papermill.execute_notebook(
                nb, str(tmp), parameters=params, kernel_name=kernel_name, language="python",
                cwd=str(cwd), progress_bar=False, log_output=log_output,
                prepare_only=prepare_only, config=kernel_config(),
            )
    except PapermillExecutionError as exc:
        partial = failed_path(out)
        _for_jupyter(tmp)
        os.replace(tmp, partial)
        raise NotebookFailed(exc.exec_count, exc.ename, exc.evalue, partial) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _for_jupyter(tmp)
    os.replace(tmp, out)
    return out


# ---------------------------------------------------------------------------
# MyST markup -> plain Jupyter Markdown (for the .ipynb files given to readers)

#: Where ``{doc}`` links of an exported notebook point: the sources on the repository's site.


from .myst import citations, myst_to_jupyter  # noqa: E402  (split out; re-exported)
