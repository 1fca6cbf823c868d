"""Exercises of the paper notebooks: parsing, and the student notebook and key built from them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .answers import Graded, parse_declaration
from .files import write_atomic
from .variants import VARIANT_TAG, Vary, describe_parameters, inject, parse_variants

__all__ = [
    "CONTEXTS",
    "Exercise",
    "parse_exercises",
    "list_exercises",
    "select_exercises",
    "build_assignment",
    "assignment_metadata",
    "public_test_source",
    "write_atomic",
    "exercises_table",
]

#: What the student notebook keeps besides the exercises: the whole chapter, or only
#: its title, parameters cell and setup cells.
CONTEXTS: tuple[str, str] = ("full", "setup")
_DIRECTIVES = ("exercise", "solution-start", "solution-end", "solution")
_OPEN = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)\s*$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*?)\s*$")
_SETUP_TAGS = ("remove-cell", "exercise-setup")
#: Tag of the code cell declaring an exercise's graded answers.
GRADED_TAG = "graded"


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
    graded : Graded, optional
        Its graded answers, declared in a code cell tagged ``graded`` between the
        exercise and its solution (see :mod:`ldpfair.classroom.answers`).
    variables : tuple of Vary
        The parameters a variant may change, declared in a code cell tagged ``variant``
        between the exercise and its solution (see :mod:`ldpfair.classroom.variants`).
    """

    number: int
    label: str
    title: str
    prompt: str
    solution: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    graded: Graded | None = None
    graded_source: str = ""
    variables: tuple[Vary, ...] = ()

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


def _add_variables(ex: Exercise, exercises: dict[str, Exercise], found: tuple[Vary, ...], where: str) -> None:
    """Add an exercise's variant parameters, refusing a name declared twice in the chapter."""
    taken = {v.name for e in exercises.values() for v in e.variables}
    twice = sorted(taken & {v.name for v in found})
    if twice:
        raise ValueError(f"{where}: variant parameter {twice[0]!r} of {ex.label!r} is declared twice")
    ex.variables = (*ex.variables, *found)


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
        elif b.kind == "code" and GRADED_TAG in (b.metadata.get("tags") or []):
            if current is not None or not exercises:
                raise ValueError(f"{where}: a cell tagged {GRADED_TAG!r} must sit between an exercise and "
                                 "its solution")
            ex = list(exercises.values())[-1]
            if ex.graded is not None:
                raise ValueError(f"{where}: exercise {ex.label!r} has two cells tagged {GRADED_TAG!r}")
            ex.graded = parse_declaration(b.source, f"{where}: graded answers of {ex.label!r}")
            ex.graded_source = b.source
            _add_variables(ex, exercises, parse_variants(b.source, f"{where}: variant parameters of "
                                                         f"{ex.label!r}", graded=True), where)
        elif b.kind == "code" and VARIANT_TAG in (b.metadata.get("tags") or []):
            if current is not None or not exercises:
                raise ValueError(f"{where}: a cell tagged {VARIANT_TAG!r} must sit between an exercise and "
                                 "its solution")
            ex = list(exercises.values())[-1]
            _add_variables(ex, exercises, parse_variants(b.source, f"{where}: variant parameters of "
                                                         f"{ex.label!r}"), where)
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
    from ..experiments.notebooks import find_notebook

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
        If there are no exercises, a number/label does not exist or is given twice.
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
        if ex in chosen:
            raise ValueError(f"exercise {ex.number} ({ex.label}) is selected twice")
        chosen.append(ex)
    return sorted(chosen, key=lambda e: e.number)


def _is_setup(block: _Block) -> bool:
    tags = block.metadata.get("tags") or []
    return any(t in tags for t in ("parameters", *_SETUP_TAGS))


def _specs(ex: Exercise) -> list[dict[str, Any]]:
    return [{**a.to_dict(), "exercise": ex.number} for a in (ex.graded.answers if ex.graded else ())]


def assignment_metadata(name: str, chosen: Sequence[Exercise]) -> dict[str, Any]:
    """What both notebooks record in ``metadata.ldpfair``: the assignment and its graded answers."""
    return {"assignment": name, "exercises": [
        {"number": e.number, "label": e.label, "title": e.title,
         "graded": e.graded.to_dict() if e.graded else {"answers": [], "manual": []}} for e in chosen]}


def _stub(ex: Exercise) -> str:
    lines = [f"# Exercise {ex.number}: your answer here"]
    if ex.graded:
        lines.append("# bind these names (they are graded):")
        lines += [f"{a.name} = ...  # {a.doc or a.kind}" for a in ex.graded.answers]
    return "\n".join(lines) + "\n"


def public_test_source(ex: Exercise) -> str:
    """The public test cell of an exercise (type and shape of each answer; prints, never raises)."""
    from .checks import compact

    specs = ",\n    ".join(repr(compact(s)) for s in _specs(ex))
    return (f"# Public tests of exercise {ex.number}: the type and shape of your answers (not their values)\n"
            "from ldpfair.classroom.checks import report_public\n\n"
            f"report_public(globals(), [\n    {specs},\n])\n")


def build_assignment(
    notebook: str | os.PathLike[str] | Any,
    exercises: Iterable[int | str] | str | None = None,
    *,
    context: str = "full",
    paper: str | None = None,
    variant: tuple[str, dict[str, Any]] | None = None,
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
    variant : (id, parameters), optional
        The values of the chosen exercises' variant parameters (default: the book's),
        appended to both notebooks' ``parameters`` cell and stated under each exercise.

    Returns
    -------
    (student, key) : tuple of nbformat.NotebookNode
        After each exercise the student notebook has its graded answers (Markdown),
        an answer cell (tagged ``answer``) with a stub per graded name, and a public
        test cell (tagged ``public-test``). The key has the solution cells (tagged
        ``solution``), the rubric of open questions and one empty code cell tagged
        ``hidden-test`` per exercise, which :func:`ldpfair.classroom.export.export_assignment`
        fills with tests of the key's computed values. Both record the graded answers
        in ``metadata.ldpfair``. Their Markdown is converted for plain Jupyter by
        :func:`ldpfair.experiments.notebooks.myst_to_jupyter` (the converter of
        ``ldpfair run`` and of the book's downloads).
    """
    import nbformat
    from nbformat import v4

    from ..experiments.notebooks import _parameters_cell, myst_to_jupyter

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
    specs = [v for e in chosen for v in e.variables]
    label, values = ("the book's values", {s.name: s.default for s in specs}) if variant is None else \
        (f"variant {variant[0]}", {s.name: variant[1][s.name] for s in specs})
    numbers = ", ".join(str(e.number) for e in chosen)

    def header(kind: str) -> str:
        from .. import __version__

        return (
            f"# {name}: {kind}\n\n"
            f"Generated by `ldpfair assignment {name}` (ldpfair {__version__}) from `{Path(where).name}`; "
            f"exercises {numbers} of {len(all_ex)} (numbered as in the book).\n\n"
            "Run it with the `ldpfair` package installed (`pip install -e \".[book]\"` in a clone) and, "
            "offline, `LDPFAIR_DATA_DIR` pointing at the data files. The `parameters` cell can be edited "
            "or set with papermill (`-p profile quick`). Each exercise says which names are graded: bind "
            "them in its answer cell, keep the seeds the exercise gives, and run the public test cell "
            "below it to check their type."
        )

    def assemble(kind: str, with_solutions: bool) -> Any:
        cells: list[Any] = []
        md_buf: list[str] = []

        def flush(meta: dict[str, Any] | None = None) -> None:
            text = "\n\n".join(t.strip("\n") for t in md_buf if t.strip())
            md_buf.clear()
            if text.strip():
                cells.append(v4.new_markdown_cell(text, metadata=meta or {}))

        md_buf.append(header(kind))
        first_text = True
        seen_exercise = False
        for item_kind, item in stream:
            if item_kind == "exercise":
                seen_exercise = True
                if item.label not in chosen_labels:
                    continue
                flush()
                mark = {"ldpfair": {"exercise": item.number}}
                title = f" — {item.title}" if item.title else ""
                md_buf.append(f"### Exercise {item.number}{title}\n\n{item.prompt}")
                if item.variables:
                    md_buf.append(describe_parameters(item.variables, values))
                if item.graded:
                    md_buf.append(item.graded.markdown())
                flush(mark)
                if with_solutions:
                    cells.append(v4.new_markdown_cell(f"**Solution to exercise {item.number}**",
                                                      metadata=mark))
                    for kind_s, src, meta in item.solution:
                        if kind_s == "code":
                            tags = [*(meta.get("tags") or []), "solution"]
                            cells.append(v4.new_code_cell(src, metadata={**meta, "tags": tags, **mark}))
                        else:
                            cells.append(v4.new_markdown_cell(src, metadata=mark))
                    if item.graded and item.graded.manual:
                        rubric = [f"**Rubric** ({m.points:g} point{'' if m.points == 1 else 's'}, graded "
                                  f"by hand) — {m.question} {m.rubric}" for m in item.graded.manual]
                        cells.append(v4.new_markdown_cell("\n\n".join(rubric), metadata=mark))
                    if item.graded:
                        cells.append(v4.new_code_cell(f"# hidden tests of exercise {item.number}\n",
                                                      metadata={"tags": ["hidden-test"], **mark}))
                else:
                    cells.append(v4.new_code_cell(_stub(item), metadata={"tags": ["answer"], **mark}))
                    if item.graded:
                        cells.append(v4.new_code_cell(public_test_source(item),
                                                      metadata={"tags": ["public-test"], **mark}))
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
        inject(v4.new_notebook(cells=cells), values, specs, label)
        out = myst_to_jupyter(v4.new_notebook(cells=cells))  # MyST-only markup, for plain Jupyter
        out.metadata = {"kernelspec": dict(nb.metadata.get("kernelspec") or {
            "display_name": "Python 3", "language": "python", "name": "python3"}),
            "language_info": {"name": "python"},
            "ldpfair": assignment_metadata(name, chosen)}
        nbformat.validate(out)
        return out

    return assemble("assignment", False), assemble("solution key", True)


def exercises_table(papers: Sequence[str] | None = None) -> Any:
    """One row per exercise of every paper notebook.

    Columns: paper, number, label, title, code (solved in code), graded (the
    autograded names), points (autograded), manual (points graded by hand).
    Chapters without exercises get one row with ``number`` 0 and title "(no exercises yet)".
    """
    import pandas as pd

    from ..experiments.notebooks import list_notebooks
    from ..papers import PAPERS

    books = list_notebooks()
    columns = ["paper", "number", "label", "title", "code", "graded", "points", "manual"]
    rows = []
    for p in papers or PAPERS:
        exs = parse_exercises(books[p]) if p in books else []
        if not exs:
            rows.append({"paper": p, "number": 0, "label": "", "title": "(no exercises yet)", "code": False,
                         "graded": "", "points": 0.0, "manual": 0.0})
        for e in exs:
            g = e.graded
            rows.append({"paper": p, "number": e.number, "label": e.label, "title": e.title,
                         "code": e.has_code, "graded": ", ".join(a.name for a in g.answers) if g else "",
                         "points": g.points if g else 0.0, "manual": g.manual_points if g else 0.0})
    return pd.DataFrame(rows, columns=columns)
