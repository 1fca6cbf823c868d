"""Classroom kit: exercises of the paper notebooks, student assignments and solution keys.

Conventions (for chapter authors)
---------------------------------
Each paper notebook (``notebooks/<paper>.md``) ends with a section of
graded-difficulty exercises written with `sphinx-exercise`_ in its *gated* form,
so that solution code is executed by every book build and cannot rot::

    ```{exercise} A short title
    :label: <paper>-ex1

    The prompt (Markdown, maths, inline code).
    ```

    ```{solution-start} <paper>-ex1
    :class: dropdown
    ```

    (Markdown and code cells of the solution)

    ```{solution-end}
    ```

- An exercise is identified by its ``:label:`` (unique in the book; use
  ``<paper>-ex<N>``). Exercises are numbered 1..N in document order; that number
  is what ``ldpfair assignment --exercises 1,3`` selects (labels are accepted too).
- A solution is every cell between ``solution-start <label>`` and
  ``solution-end``; the non-gated ``{solution} <label>`` directive (Markdown only)
  is also recognised. Every solution must name the label of an exercise above it.
- Solution code may use everything defined earlier in the chapter (the
  ``parameters`` cell, the setup cells, the chapter's results): the default
  student notebook keeps the whole chapter. For the short ``--context setup``
  notebook, solutions may only rely on the parameters cell and the code cells
  tagged ``remove-cell`` or ``exercise-setup`` that precede the first exercise.
- State the difficulty in the title or the first words of the prompt if you
  want it shown (e.g. "(warm-up)", "(harder)"); exercises should grow harder.

What :func:`export_assignment` writes (both runnable offline with ``LDPFAIR_DATA_DIR``):

- ``<paper>_assignment.ipynb``: the chapter with every solution removed, each
  selected exercise as a Markdown prompt followed by an empty code cell tagged
  ``answer``; unselected exercises are dropped; the ``parameters`` cell is kept
  (so ``papermill -p profile quick`` works on it too).
- ``<paper>_solutions.ipynb``: the same notebook with the solutions of the
  selected exercises (code cells tagged ``solution``) instead of empty answers.

.. _sphinx-exercise: https://ebp-sphinx-exercise.readthedocs.io/
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "CONTEXTS",
    "Exercise",
    "parse_exercises",
    "list_exercises",
    "select_exercises",
    "build_assignment",
    "export_assignment",
    "execute_notebook",
    "exercises_table",
]

#: What the student notebook keeps besides the exercises: the whole chapter, or only
#: its title, parameters cell and setup cells.
CONTEXTS: tuple[str, str] = ("full", "setup")
_DIRECTIVES = ("exercise", "solution-start", "solution-end", "solution")
_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)\s*$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*?)\s*$")
_TARGET = re.compile(r"^\([\w:.-]+\)=\s*$", re.MULTILINE)
_CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]+)`")
_REF = re.compile(r"\{(?:ref|numref|doc|eq)\}`(?:([^`<]*?)\s*<[^>`]+>|([^`]+))`")
_SETUP_TAGS = ("remove-cell", "exercise-setup")


@dataclass
class Exercise:
    """One exercise of a chapter.

    Parameters
    ----------
    number : int
        Position in document order, from 1.
    label : str
        The sphinx-exercise ``:label:``.
    title : str
        The directive's argument (may be empty).
    prompt : str
        The exercise body (Markdown), options removed.
    solution : list
        The solution's cells, as ``("markdown" | "code", source, metadata)`` tuples.
    """

    number: int
    label: str
    title: str
    prompt: str
    solution: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)

    @property
    def has_code(self) -> bool:
        """Whether the solution holds at least one code cell."""
        return any(kind == "code" for kind, _, _ in self.solution)


@dataclass
class _Block:
    kind: str  # "text", "code", or a directive name
    source: str = ""
    arg: str = ""
    options: dict[str, str] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)


def _split_markdown(text: str) -> list[_Block]:
    """Split a Markdown cell into text chunks and exercise/solution directive blocks."""
    lines = text.split("\n")
    blocks: list[_Block] = []
    buf: list[str] = []
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if not m:
            buf.append(lines[i])
            i += 1
            continue
        fence, name = m.group("fence"), m.group("name")
        close = re.compile(rf"^{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        if name not in _DIRECTIVES:  # another directive: keep it verbatim
            buf.extend(lines[i : j + 1])
            i = j + 1
            continue
        if buf:
            blocks.append(_Block("text", "\n".join(buf)))
            buf = []
        body = lines[i + 1 : j]
        options: dict[str, str] = {}
        while body and _OPTION.match(body[0]):
            o = _OPTION.match(body[0])
            assert o is not None
            options[o.group("key")] = o.group("value")
            body = body[1:]
        blocks.append(_Block(name, "\n".join(body).strip("\n"), m.group("arg"), options))
        i = j + 1
    if buf:
        blocks.append(_Block("text", "\n".join(buf)))
    return blocks


def _read(notebook: str | os.PathLike[str] | Any) -> tuple[Any, str]:
    import jupytext

    if isinstance(notebook, str | os.PathLike):
        return jupytext.read(Path(notebook)), str(notebook)
    return notebook, "<notebook>"


def _blocks(nb: Any) -> list[_Block]:
    out: list[_Block] = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            out.extend(_split_markdown(cell.source))
        elif cell.cell_type == "code":
            out.append(_Block("code", cell.source, metadata=dict(cell.get("metadata", {}))))
        else:
            out.append(_Block("text", cell.source))
    return out


def _parse(nb: Any, where: str) -> tuple[list[Exercise], list[tuple[str, Any]]]:
    """Exercises and the chapter as a stream of ("text"|"code"|"exercise", payload) items."""
    exercises: dict[str, Exercise] = {}
    stream: list[tuple[str, Any]] = []
    current: Exercise | None = None
    for b in _blocks(nb):
        if b.kind == "exercise":
            if current is not None:
                raise ValueError(f"{where}: exercise {b.options.get('label')!r} starts inside the "
                                 f"solution of {current.label!r} (missing solution-end)")
            label = b.options.get("label", "").strip()
            if not label:
                raise ValueError(f"{where}: exercise {b.arg!r} has no :label: (needed to find its solution)")
            if label in exercises:
                raise ValueError(f"{where}: exercise label {label!r} is used twice")
            ex = Exercise(len(exercises) + 1, label, b.arg, b.source)
            exercises[label] = ex
            stream.append(("exercise", ex))
        elif b.kind in ("solution-start", "solution"):
            label = b.arg.strip()
            if label not in exercises:
                raise ValueError(f"{where}: {b.kind} refers to {label!r}, which is not the label of an "
                                 f"exercise above it; exercises: {list(exercises) or '(none)'}")
            if b.kind == "solution":
                if b.source.strip():
                    exercises[label].solution.append(("markdown", b.source, {}))
                continue
            if current is not None:
                raise ValueError(f"{where}: solution-start {label!r} inside the solution of "
                                 f"{current.label!r}")
            current = exercises[label]
        elif b.kind == "solution-end":
            if current is None:
                raise ValueError(f"{where}: solution-end without a solution-start")
            current = None
        elif current is not None:
            if b.source.strip():
                current.solution.append(("markdown" if b.kind == "text" else "code", b.source, b.metadata))
        else:
            stream.append((b.kind, b))
    if current is not None:
        raise ValueError(f"{where}: the solution of {current.label!r} has no solution-end")
    return list(exercises.values()), stream


def parse_exercises(notebook: str | os.PathLike[str] | Any) -> list[Exercise]:
    """The exercises of a notebook (a jupytext/ipynb path or a notebook object), in order.

    Raises
    ------
    ValueError
        For an exercise without ``:label:``, a duplicated label, a solution naming
        no exercise above it, or an unbalanced ``solution-start``/``solution-end``.
    """
    nb, where = _read(notebook)
    return _parse(nb, where)[0]


def _notebook_path(paper: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None) -> Path:
    path = Path(paper)
    if path.suffix in (".md", ".ipynb", ".py") and path.is_file():
        return path
    from .experiments.notebooks import find_notebook

    return find_notebook(str(paper), folder)


def list_exercises(
    paper: str | os.PathLike[str], folder: str | os.PathLike[str] | None = None
) -> list[Exercise]:
    """The exercises of a paper's notebook (name, e.g. ``"xu2019"``, or path)."""
    return parse_exercises(_notebook_path(paper, folder))


def select_exercises(
    exercises: Sequence[Exercise], which: Iterable[int | str] | str | None
) -> list[Exercise]:
    """Pick exercises by number (1..N) or label; ``None`` picks all.

    ``which`` may be a comma-separated string (``"1,3"``, ``"xu2019-ex2"``).

    Raises
    ------
    ValueError
        If there are no exercises, or a number/label does not exist.
    """
    if not exercises:
        raise ValueError("this chapter has no exercises yet")
    if which is None:
        return list(exercises)
    items = [w.strip() for w in which.split(",") if w.strip()] if isinstance(which, str) else list(which)
    if not items:
        raise ValueError("no exercise selected; give numbers such as '1,3' or labels")
    by_label = {e.label: e for e in exercises}
    valid = f"valid: numbers 1..{len(exercises)} or labels {', '.join(by_label)}"
    chosen: list[Exercise] = []
    for w in items:
        if isinstance(w, int) or (isinstance(w, str) and w.isdigit()):
            n = int(w)
            if not 1 <= n <= len(exercises):
                raise ValueError(f"no exercise number {n}; {valid}")
            ex = exercises[n - 1]
        elif isinstance(w, str) and w in by_label:
            ex = by_label[w]
        else:
            raise ValueError(f"unknown exercise {w!r}; {valid}")
        if ex not in chosen:
            chosen.append(ex)
    return sorted(chosen, key=lambda e: e.number)


def _plain(markdown: str) -> str:
    """MyST-only syntax made readable in Jupyter: drop targets, flatten cite/ref roles."""
    markdown = _TARGET.sub("", markdown)
    markdown = _CITE.sub(lambda m: m.group(1), markdown)
    markdown = _REF.sub(lambda m: (m.group(1) or m.group(2) or "").strip(), markdown)
    return markdown.strip("\n")


def _is_setup(block: _Block) -> bool:
    tags = block.metadata.get("tags") or []
    return any(t in tags for t in ("parameters", *_SETUP_TAGS))


def build_assignment(
    notebook: str | os.PathLike[str] | Any,
    exercises: Iterable[int | str] | str | None = None,
    *,
    context: str = "full",
    paper: str | None = None,
) -> tuple[Any, Any]:
    """Build the student notebook and the solution key of a chapter.

    Parameters
    ----------
    notebook : path or notebook
        The chapter (jupytext MyST ``.md``, ``.py`` or ``.ipynb``), or a notebook object.
    exercises : numbers, labels, "1,3" or None
        Which exercises (default: all).
    context : {"full", "setup"}
        ``"full"`` keeps the whole chapter; ``"setup"`` only its first Markdown
        cell, the ``parameters`` cell and the setup cells (tagged ``remove-cell``
        or ``exercise-setup``) before the first exercise.
    paper : str, optional
        Name shown in the header (default: the file's stem).

    Returns
    -------
    (student, key) : tuple of nbformat.NotebookNode
    """
    import nbformat
    from nbformat import v4

    from .experiments.notebooks import _parameters_cell

    if context not in CONTEXTS:
        raise ValueError(f"context must be one of {CONTEXTS}, got {context!r}")
    nb, where = _read(notebook)
    _parameters_cell(nb, Path(where))
    all_ex, stream = _parse(nb, where)
    if not all_ex:
        raise ValueError(f"{where} has no exercises yet (no {{exercise}} directive with a :label:); "
                         "nothing to export")
    chosen = select_exercises(all_ex, exercises)
    chosen_labels = {e.label for e in chosen}
    name = paper or (Path(where).stem if where != "<notebook>" else "chapter")
    numbers = ", ".join(str(e.number) for e in chosen)

    def header(kind: str) -> str:
        from . import __version__

        return (
            f"# {name}: {kind}\n\n"
            f"Generated by `ldpfair assignment {name}` (ldpfair {__version__}) from `{Path(where).name}`; "
            f"exercises {numbers} of {len(all_ex)} (numbered as in the book).\n\n"
            "Run it with the `ldpfair` package installed (`pip install -e \".[book]\"` in a clone) and, "
            "offline, `LDPFAIR_DATA_DIR` pointing at the data files. The `parameters` cell can be edited "
            "or set with papermill (`-p profile quick`)."
        )

    def assemble(kind: str, with_solutions: bool) -> Any:
        cells: list[Any] = []
        md_buf: list[str] = []

        def flush() -> None:
            text = "\n\n".join(t for t in (_plain(s) for s in md_buf) if t.strip())
            md_buf.clear()
            if text.strip():
                cells.append(v4.new_markdown_cell(text))

        md_buf.append(header(kind))
        first_text = True
        seen_exercise = False
        for item_kind, item in stream:
            if item_kind == "exercise":
                seen_exercise = True
                if item.label not in chosen_labels:
                    continue
                title = f" — {item.title}" if item.title else ""
                md_buf.append(f"### Exercise {item.number}{title}\n\n{item.prompt}")
                flush()
                if with_solutions:
                    cells.append(v4.new_markdown_cell(f"**Solution to exercise {item.number}**"))
                    for kind_s, src, meta in item.solution:
                        if kind_s == "code":
                            tags = [*(meta.get("tags") or []), "solution"]
                            cells.append(v4.new_code_cell(src, metadata={**meta, "tags": tags}))
                        else:
                            cells.append(v4.new_markdown_cell(_plain(src)))
                else:
                    cells.append(v4.new_code_cell(f"# Exercise {item.number}: your answer here\n",
                                                  metadata={"tags": ["answer"]}))
                continue
            if item_kind == "code":
                if context == "setup" and (seen_exercise or not _is_setup(item)):
                    continue
                flush()
                cells.append(v4.new_code_cell(item.source, metadata=dict(item.metadata)))
                continue
            if context == "setup" and not first_text:
                continue
            first_text = False
            md_buf.append(item.source)
        flush()
        for i, c in enumerate(cells):
            c["id"] = f"cell-{i}"
        out = v4.new_notebook(cells=cells)
        out.metadata = {"kernelspec": dict(nb.metadata.get("kernelspec") or {
            "display_name": "Python 3", "language": "python", "name": "python3"}),
            "language_info": {"name": "python"}}
        nbformat.validate(out)
        return out

    return assemble("assignment", False), assemble("solution key", True)


def _write_atomic(pairs: Sequence[tuple[Any, Path]]) -> None:
    """Write notebooks to temp files first, then move them all into place."""
    import nbformat

    temps: list[tuple[str, Path]] = []
    try:
        for nb, path in pairs:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                nbformat.write(nb, fh)
            temps.append((tmp, path))
        for tmp, path in temps:
            os.replace(tmp, path)
    finally:
        for tmp, _ in temps:
            if os.path.exists(tmp):
                os.unlink(tmp)


def export_assignment(
    paper: str | os.PathLike[str],
    exercises: Iterable[int | str] | str | None = None,
    *,
    output: str | os.PathLike[str] | None = None,
    context: str = "full",
    folder: str | os.PathLike[str] | None = None,
) -> tuple[Path, Path]:
    """Write ``<paper>_assignment.ipynb`` and ``<paper>_solutions.ipynb``.

    Parameters
    ----------
    paper : str or path
        A paper name (``"xu2019"``, found by :func:`ldpfair.experiments.notebooks.find_notebook`)
        or the path of a notebook.
    exercises : numbers, labels, "1,3" or None
        Which exercises (default: all), numbered 1..N in document order.
    output : path, optional
        Output folder (default ``runs/assignments/<paper>``).
    context : {"full", "setup"}
        See :func:`build_assignment`.
    folder : path, optional
        Folder of the paper notebooks (default as ``ldpfair run``).

    Returns
    -------
    (student, key) : tuple of Path
    """
    path = _notebook_path(paper, folder)
    name = path.stem
    student, key = build_assignment(path, exercises, context=context, paper=name)
    out = Path(output) if output is not None else Path("runs") / "assignments" / name
    targets = (out / f"{name}_assignment.ipynb", out / f"{name}_solutions.ipynb")
    _write_atomic([(student, targets[0]), (key, targets[1])])
    return targets


def execute_notebook(
    path: str | os.PathLike[str], *, timeout: int = 1200, kernel_name: str = "python3", write: bool = True
) -> Any:
    """Execute a notebook with nbclient in its own folder; raise on the first failing cell.

    Parameters
    ----------
    path : path
        An ``.ipynb`` file (e.g. a solution key).
    timeout : int
        Seconds per cell.
    kernel_name : str
        Jupyter kernel.
    write : bool
        Save the executed notebook (with outputs) back to ``path``.

    Returns
    -------
    nbformat.NotebookNode
        The executed notebook.
    """
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=timeout, kernel_name=kernel_name,
                   resources={"metadata": {"path": str(path.parent.resolve())}}).execute()
    if write:
        _write_atomic([(nb, path)])
    return nb


def exercises_table(papers: Sequence[str] | None = None) -> Any:
    """One row per exercise of every paper notebook: paper, number, label, title, solved in code.

    Chapters without exercises get one row with ``number`` 0 and title "(no exercises yet)".
    """
    import pandas as pd

    from .experiments.notebooks import list_notebooks
    from .papers import PAPERS

    books = list_notebooks()
    rows = []
    for p in papers or PAPERS:
        exs = parse_exercises(books[p]) if p in books else []
        if not exs:
            rows.append({"paper": p, "number": 0, "label": "", "title": "(no exercises yet)", "code": False})
        for e in exs:
            rows.append({"paper": p, "number": e.number, "label": e.label, "title": e.title,
                         "code": e.has_code})
    return pd.DataFrame(rows, columns=["paper", "number", "label", "title", "code"])
