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
import posixpath
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import config
from .._validation import check_creatable, did_you_mean
from ..config import results_dir
from .parameters import Param

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
REPOSITORY_BLOB = "https://github.com/ldpfair/ldpfair/blob/main/"

_FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[A-Za-z][\w:-]*)\}\s*(?P<arg>.*?)\s*$")
_OPTION = re.compile(r"^:[\w-]+:.*$")
_TARGET = re.compile(r"^\((?P<label>[\w.:-]+)\)=\s*$")
_ROLE = re.compile(r"\{(?P<role>[a-z][\w:-]*)\}`(?P<text>[^`]*)`")
_TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
_LATEX_ACCENT = re.compile(r"\{?\\(['`\"^~])\{?([A-Za-z])\}?\}?")
_ACCENTS = {"'": "\u0301", "`": "\u0300", '"': "\u0308", "^": "\u0302", "~": "\u0303"}


def _bib_field(body: str, name: str) -> str | None:
    """The value of ``name = {...}`` (balanced braces) or ``name = "..."``/number in a BibTeX entry."""
    m = re.search(rf"\b{name}\s*=\s*", body, re.I)
    if m is None:
        return None
    i = m.end()
    if i < len(body) and body[i] == "{":
        depth, j = 0, i
        for j in range(i, len(body)):
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            if depth == 0:
                break
        return body[i + 1:j]
    m2 = re.match(r'"([^"]*)"|(\d+)', body[i:])
    return (m2.group(1) or m2.group(2)) if m2 else None


def _plain_tex(text: str) -> str:
    import unicodedata

    text = _LATEX_ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), text)
    return re.sub(r"[{}\\]", "", text).strip()


def _surname(author: str) -> str:
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    return author.split()[-1] if author.split() else author


def citations(bib: str | os.PathLike[str] | None = None) -> dict[str, tuple[str, str]]:
    """BibTeX key -> (authors as cited, year), read from the book's ``references.bib``.

    Authors as cited: ``"Xu"``, ``"Xu and Yuan"`` or ``"Xu et al."``. A missing
    file gives an empty mapping (a citation then shows its key).
    """
    path = Path(bib) if bib is not None else Path(__file__).resolve().parents[2] / "references.bib"
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    out: dict[str, tuple[str, str]] = {}
    starts = [m for m in re.finditer(r"^@\w+\s*\{\s*([^,\s]+)\s*,", text, re.M)]
    for m, nxt in zip(starts, [*starts[1:], None], strict=True):
        body = text[m.end(): nxt.start() if nxt else len(text)]
        author = _bib_field(body, "author") or _bib_field(body, "editor") or m.group(1)
        names = [_surname(_plain_tex(a)) for a in re.split(r"\s+and\s+", author)]
        who = names[0] if len(names) == 1 else (
            f"{names[0]} and {names[1]}" if len(names) == 2 else f"{names[0]} et al.")
        out[m.group(1)] = (who, _plain_tex(_bib_field(body, "year") or "n.d."))
    return out


def _role(role: str, text: str, *, bib: Mapping[str, tuple[str, str]], labels: set[str],
          doc_base: str) -> str:
    """One MyST role as plain Markdown."""
    m = _TITLED.match(text)
    title, target = (m.group("title"), m.group("target")) if m else (None, text)
    if role.startswith("cite"):
        keys = [k.strip() for k in target.split(",") if k.strip()]
        found = [bib.get(k, (k, "")) for k in keys]
        if role in ("cite:t", "cite:alp"):
            return "; ".join(f"{who} ({year})" if year else who for who, year in found)
        inner = "; ".join(f"{who} {year}".strip() for who, year in found)
        return f"({inner})"
    if role == "doc":
        path = posixpath.normpath(posixpath.join("notebooks", target))
        return f"[{title or target}]({doc_base}{path}.md)" if doc_base else (title or target)
    if role in ("ref", "numref", "eq"):
        label = target
        shown = title or label
        return f"[{shown}](#{label})" if label in labels else shown
    if role == "math":
        return f"${text}$"
    if role in ("code", "literal", "file", "samp", "kbd"):
        return f"`{text}`"
    return title or target  # another role: its text


def _convert_markdown(source: str, *, bib: Mapping[str, tuple[str, str]], labels: set[str],
                      doc_base: str) -> str:
    lines = source.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        target = _TARGET.match(line)
        if target:
            out.append(f'<a id="{target.group("label")}"></a>')
            i += 1
            continue
        m = _FENCE.match(line)
        if not m or m.group("name") == "code-cell":
            out.append(line)
            i += 1
            continue
        fence, name, arg = m.group("fence"), m.group("name"), m.group("arg")
        j = i + 1
        while j < len(lines) and _OPTION.match(lines[j]):
            label = re.match(r"^:(?:label|name):\s*(\S+)", lines[j])
            if label:
                out.append(f'<a id="{label.group(1)}"></a>')
            j += 1
        body: list[str] = []
        depth = 0
        while j < len(lines):
            inner = _FENCE.match(lines[j])
            if inner and inner.group("fence")[0] == fence[0] and len(inner.group("fence")) == len(fence):
                depth += 1
            elif lines[j].strip() == fence:
                if depth == 0:
                    break
                depth -= 1
            body.append(lines[j])
            j += 1
        i = j + 1
        if name in ("solution-end",):
            continue
        if name == "solution-start":
            out.append(f"**Solution** (of [the exercise](#{arg}))" if arg else "**Solution**")
            continue
        if name in ("math",):
            out += ["$$", *body, "$$"]
            continue
        if name == "admonition":
            heading = arg
        elif name == "glue:figure":  # the figure is the output of the cell above: its caption alone
            heading = ""
        elif name == "exercise":
            heading = f"Exercise: {arg}" if arg else "Exercise"
        else:
            heading = name.replace("-", " ").capitalize() + (f": {arg}" if arg else "")
        text = _convert_markdown("\n".join(body).strip("\n"), bib=bib, labels=labels, doc_base=doc_base)
        quoted = [f"> **{heading}**"] if heading else []
        if heading and text:
            quoted.append(">")
        quoted += [f"> {t}".rstrip() for t in text.split("\n")] if text else []
        out += quoted
    text = "\n".join(out)
    return _ROLE.sub(lambda r: _role(r["role"], r["text"], bib=bib, labels=labels, doc_base=doc_base),
                     text)


def myst_to_jupyter(nb: Any, *, bib: str | os.PathLike[str] | None = None,
                    doc_base: str = REPOSITORY_BLOB) -> Any:
    """Convert the MyST-only Markdown of notebook ``nb`` (in place) to what plain Jupyter renders.

    The book's Markdown cells (and ``text/markdown`` outputs) use MyST markup that
    plain Jupyter shows as raw text. Converted, in every Markdown cell and every
    ``text/markdown`` output:

    * a directive (``:::{admonition} Title`` or ```` ```{note} ````, options such as
      ``:class:`` dropped) becomes a blockquote headed by its title in bold;
      ``{glue:figure}`` a blockquote of its caption (in plain Jupyter the
      figure is the output of the code cell that glued it, see :func:`ldpfair.style.figure`);
      ``{exercise}`` is headed "Exercise: <title>", ``{solution-start}`` becomes a
      bold "Solution" line and ``{solution-end}`` disappears;
    * a ``(label)=`` target becomes an HTML anchor; ``{ref}``/``{numref}`` to a
      label of the same notebook a link to it, otherwise its text;
    * ``{doc}`` a link to the page's source at ``doc_base`` (the text alone if
      ``doc_base`` is empty);
    * ``{cite:p}`` "(Author Year)", ``{cite:t}`` "Author (Year)", from ``bib``
      (default: the book's ``references.bib``);
    * ``{math}`` inline ``$...$``; another role its text.

    Code cells are left as they are. Used by ``ldpfair run`` and ``ldpfair assignment``.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The notebook.
    bib : path, optional
        A BibTeX file.
    doc_base : str
        Prefix of ``{doc}`` links (the path under it is the repository path of the page).

    Returns
    -------
    nbformat.NotebookNode
        ``nb`` itself.
    """
    refs = citations(bib)
    labels = {m.group("label") for c in nb.cells if c.cell_type == "markdown"
              for m in map(_TARGET.match, c.source.split("\n")) if m}
    labels |= {m.group(1) for c in nb.cells if c.cell_type == "code"
               for m in re.finditer(r"^:label:\s*(\S+)", c.source, re.M)}
    labels |= {m.group(1) for c in nb.cells if c.cell_type == "markdown"
               for m in re.finditer(r"^:label:\s*(\S+)", c.source, re.M)}

    def convert(text: str) -> str:
        return _convert_markdown(text, bib=refs, labels=labels, doc_base=doc_base)

    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = convert(cell.source)
        elif cell.cell_type == "code":
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if "text/markdown" in data:
                    md = data["text/markdown"]
                    data["text/markdown"] = convert("".join(md) if isinstance(md, list) else md)
    return nb


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
    import ast
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
