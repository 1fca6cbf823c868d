"""Otter-Grader export: the master notebook in Otter Assign's format, and ``otter assign``.

The master is built from the solution key (with its computed answers): one Otter
question ``<paper>_ex<N>`` per exercise with a public test (0 points: type and
shape) and a hidden test (the answer's points: the key's value) per graded answer,
in Otter's exception-based format; each open question becomes a manually graded
question ``<paper>_ex<N>_open<M>`` whose solution is its rubric line. Solution
code is wrapped in ``# BEGIN SOLUTION NO PROMPT`` so the student copy keeps only
the stub lines naming the graded variables.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from .checks import compact

__all__ = ["available", "master_notebook", "write_otter"]


def available() -> bool:
    """Whether otter-grader is installed (the ``classroom`` extra)."""
    return importlib.util.find_spec("otter") is not None


def _raw(text: str) -> Any:
    from nbformat import v4

    return v4.new_raw_cell(text)


def _test(kind: str, spec: dict[str, Any]) -> str:
    fn = "check" if kind == "hidden" else "check_public"
    head = "# HIDDEN\n" if kind == "hidden" else ""
    name = f"test_{'' if kind == 'hidden' else 'public_'}{spec['name']}"
    return (f"{head}def {name}(env):\n"
            f"    from ldpfair.classroom.checks import {fn}\n"
            f"    {fn}(env, {compact(spec)!r})\n\n"
            f"{name}(globals())\n")


def master_notebook(key: Any, name: str) -> Any:
    """The Otter Assign master notebook of an exported key (a notebook with ``metadata.ldpfair``)."""
    import nbformat
    from nbformat import v4

    meta = key.metadata["ldpfair"]
    by_number = {e["number"]: e for e in meta["exercises"]}
    config = (f"# ASSIGNMENT CONFIG\nname: {name}\nrequirements: requirements.txt\ninit_cell: true\n"
              "check_all_cell: false\nexport_cell: false\nrun_tests: false\ngenerate: true\n"
              "tests:\n  ok_format: false\n")
    cells: list[Any] = [_raw(config)]
    groups: dict[int, list[Any]] = {}
    order: list[Any] = []  # context cells, or the exercise number at its first cell
    for cell in key.cells:
        number = cell.get("metadata", {}).get("ldpfair", {}).get("exercise")
        if number is None:
            order.append(cell)
            continue
        if number not in groups:
            groups[number] = []
            order.append(number)
        groups[number].append(cell)
    for item in order:
        if not isinstance(item, int):
            code = item.cell_type == "code"
            source = item.source.replace(f"# {name}: solution key", f"# {name}: assignment", 1)
            c = v4.new_code_cell(source) if code else v4.new_markdown_cell(source)
            c.metadata = {k: v for k, v in item.metadata.items() if k != "ldpfair"}
            cells.append(c)
            continue
        ex = by_number[item]
        answers = ex["graded"]["answers"]
        group = groups[item]
        prompt, solution = group[0], group[1:]
        points = [0.0] * len(answers) + [float(a["points"]) for a in answers]
        cells += [_raw(f"# BEGIN QUESTION\nname: {name}_ex{item}\npoints: {json.dumps(points)}"),
                  v4.new_markdown_cell(prompt.source), _raw("# BEGIN SOLUTION")]
        first = True
        for c in solution:
            tags = c.get("metadata", {}).get("tags", [])
            if c.cell_type == "markdown" or "hidden-test" in tags:
                continue
            head = ""
            if first:
                head = (f"# Exercise {item}: bind these names (they are graded)\n"
                        + "".join(f"{a['name']} = ...  # {a['doc'] or a['kind']}\n" for a in answers))
                first = False
            cells.append(v4.new_code_cell(f"{head}# BEGIN SOLUTION NO PROMPT\n{c.source}\n# END SOLUTION"))
        cells += [_raw("# END SOLUTION"), _raw("# BEGIN TESTS")]
        cells += [v4.new_code_cell(_test("public", {**a, "expected": None})) for a in answers]
        cells += [v4.new_code_cell(_test("hidden", a)) for a in answers]
        cells += [_raw("# END TESTS"), _raw("# END QUESTION")]
        for m, open_q in enumerate(ex["graded"]["manual"], start=1):
            cells += [_raw(f"# BEGIN QUESTION\nname: {name}_ex{item}_open{m}\nmanual: true\n"
                           f"points: {float(open_q['points'])}"),
                      v4.new_markdown_cell(f"**Exercise {item}, open question {m}.** {open_q['question']}"),
                      _raw("# BEGIN SOLUTION"), v4.new_markdown_cell(f"**Rubric.** {open_q['rubric']}"),
                      _raw("# END SOLUTION"), _raw("# END QUESTION")]
    nb = v4.new_notebook(cells=cells)
    for i, c in enumerate(nb.cells):
        c["id"] = f"otter-{i}"
    nb.metadata = {"kernelspec": dict(key.metadata.get("kernelspec") or {
        "display_name": "Python 3", "language": "python", "name": "python3"}),
        "language_info": {"name": "python"}}
    nbformat.validate(nb)
    return nb


def write_otter(key: Any, name: str, output: Path, *, timeout: float = 600) -> tuple[Path, Path]:
    """Write ``otter/<name>.ipynb`` (the master) and run ``otter assign``; return (master, zip).

    The autograder zip is copied to ``<output>/<name>_autograder.zip``; Otter's own
    output (student and autograder notebooks, tests) is in ``<output>/otter/dist``.

    Raises
    ------
    ValueError
        If ``otter assign`` fails (its last line of output is given).
    """
    from .exercises import write_atomic

    folder = output / "otter"
    master = folder / f"{name}.ipynb"
    dist = folder / "dist"
    write_atomic([(master_notebook(key, name), master),
                  ("ldpfair[classroom]\n", folder / "requirements.txt")])
    if dist.exists():
        shutil.rmtree(dist)
    try:
        proc = subprocess.run([sys.executable, "-m", "otter", "assign", "--no-pdfs", master.name, "dist"],
                              cwd=folder, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise ValueError(f"otter assign ran past {timeout:g} s") from None
    zips = sorted((dist / "autograder").glob("*.zip"))
    if proc.returncode != 0 or not zips:
        lines = (proc.stderr or proc.stdout or "no output").strip().splitlines()
        raise ValueError(f"otter assign failed: {lines[-1] if lines else 'no output'}")
    target = output / f"{name}_autograder.zip"
    write_atomic([(zips[-1].read_bytes(), target)])
    return master, target
