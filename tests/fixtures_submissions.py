"""Seven kinds of student submission made from an exported handout and its key, and Otter's points.

Shared by ``tests/test_classroom_otter.py`` and ``benchmarks/bench_otter_agreement.py``:
both graders (``ldpfair assignment grade`` and ``otter run``) must give the same points
to each kind.

- ``right``: every answer cell holds the key's solution code;
- ``blank``: the handout as handed out;
- ``wrong``: right, then the first answer of every exercise rebound to a wrong value;
- ``other_route``: right, then every answer rebound to an equal value by another route
  (numpy scalars, a tuple for a list, reversed rows of a table, a number moved by half
  its tolerance, text in other case and spacing);
- ``wrong_type``: right, then the first answer of every exercise rebound to its text;
- ``raising``: exercise 1's solution raises before binding anything, the rest right;
- ``raises_after``: right, then a last cell that raises (the answers are bound before it).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import nbformat

KINDS = ("right", "blank", "wrong", "other_route", "wrong_type", "raising", "raises_after")


def _wrong(spec: dict[str, Any]) -> str:
    name, kind = spec["name"], spec["kind"]
    if kind in ("number", "integer"):
        return f"{name} = {name} + 1"
    if kind == "choice":
        other = next(o for o in spec["options"] if o != spec["expected"])
        return f"{name} = {other!r}"
    if kind == "set":
        return f"{name} = set({name}) | {{-12345}}"
    if kind == "sequence":
        return f"{name} = [*list({name})[:-1], -12345]"
    if kind == "table":
        col = spec["columns"][0]
        return f"{name} = {name}.assign(**{{{col!r}: {name}[{col!r}] * 2 + 1}})"
    if kind == "bool":
        return f"{name} = not {name}"
    return f"{name} = {name} + 'x'"


def _other_route(spec: dict[str, Any]) -> str:
    name, kind = spec["name"], spec["kind"]
    if kind == "number":
        shift = (float(spec.get("abs") or 0) + float(spec.get("rel") or 0) * abs(float(spec["expected"]))) / 2
        return f"{name} = _np.float64({name}) + {shift!r}"
    if kind == "integer":
        return f"{name} = _np.int64({name})"
    if kind == "bool":
        return f"{name} = _np.bool_({name})"
    if kind == "text":
        return f"{name} = '  ' + {name}.upper() + ' '"
    if kind == "set":
        return f"{name} = list({name})[::-1]"
    if kind == "sequence":
        return f"{name} = tuple({name})"
    if kind == "table":
        return f"{name} = {name}.iloc[::-1]"
    return f"{name} = {name}"  # a choice: the same value


def _cell(source: str, number: int | None) -> Any:
    meta = {"ldpfair": {"exercise": number}} if number is not None else {}
    return nbformat.v4.new_code_cell(source, metadata=meta)


def submissions(handout: Path, key: Path) -> dict[str, Any]:
    """Each kind of :data:`KINDS` as a notebook made from ``handout`` (its answer cells filled)."""
    student = nbformat.read(handout, 4)
    k = nbformat.read(key, 4)
    exercises = k.metadata["ldpfair"]["exercises"]
    solution: dict[int, list[str]] = {}
    for c in k.cells:
        if "solution" in c.metadata.get("tags", []):
            solution.setdefault(c.metadata["ldpfair"]["exercise"], []).append(c.source)
    first = exercises[0]["number"]

    def build(raising: bool = False, after: dict[int, str] | None = None, tail: str = "") -> Any:
        nb = copy.deepcopy(student)
        cells = []
        for c in nb.cells:
            if "answer" in c.metadata.get("tags", []):
                number = c.metadata["ldpfair"]["exercise"]
                body = "\n\n".join(solution.get(number, []))
                if raising and number == first:
                    body = 'raise RuntimeError("deliberately broken")\n' + body
                c.source = body
                cells.append(c)
                if after and number in after:
                    cells.append(_cell(after[number], number))
                continue
            cells.append(c)
        if tail:
            cells.append(_cell(tail, None))
        nb.cells = cells
        for i, c in enumerate(nb.cells):
            c["id"] = f"sub-{i}"
        return nb

    def per_exercise(make: Any, *, all_answers: bool) -> dict[int, str]:
        out = {}
        for e in exercises:
            answers = e["graded"]["answers"] if all_answers else e["graded"]["answers"][:1]
            out[e["number"]] = "import numpy as _np\n" + "\n".join(make(a) for a in answers)
        return out

    return {
        "right": build(),
        "blank": copy.deepcopy(student),
        "wrong": build(after=per_exercise(_wrong, all_answers=False)),
        "other_route": build(after=per_exercise(_other_route, all_answers=True)),
        "wrong_type": build(after=per_exercise(lambda a: f"{a['name']} = str({a['name']})",
                                               all_answers=False)),
        "raising": build(raising=True),
        "raises_after": build(tail='raise RuntimeError("deliberately broken after the answers")'),
    }


def write_submissions(handout: Path, key: Path, folder: Path) -> dict[str, Path]:
    """Write each kind to ``folder/<kind>.ipynb``; return kind -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for kind, nb in submissions(handout, key).items():
        nbformat.write(nb, folder / f"{kind}.ipynb")
        out[kind] = folder / f"{kind}.ipynb"
    return out


def install_wheel(autograder: Path, folder: Path) -> Path:
    """Install the ldpfair wheel inside ``autograder`` (no dependencies) into ``folder``; return it.

    With ``folder`` first on ``PYTHONPATH``, a kernel imports that ldpfair, not the checkout's.
    """
    import zipfile

    with zipfile.ZipFile(autograder) as zf:
        (name,) = [n for n in zf.namelist() if n.startswith("files/ldpfair-") and n.endswith(".whl")]
        wheel = folder.parent / Path(name).name
        wheel.write_bytes(zf.read(name))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                    "--target", str(folder), str(wheel)], check=True, capture_output=True, timeout=300)
    return folder


def otter_points(autograder: Path, submission: Path, *, timeout: float = 900,
                 site: Path | None = None) -> dict[str, float]:
    """``otter run -a autograder submission``: points per question (``<paper>_ex<N>``) from results.json.

    The ``LDPFAIR_*`` folders point at an empty folder (and the cache is empty), so the
    submission reads only what the zip bundles; with ``site`` (see :func:`install_wheel`)
    the kernel imports the zip's ldpfair.

    Raises
    ------
    RuntimeError
        If ``otter run`` fails or writes no scores (its last lines).
    """
    with tempfile.TemporaryDirectory(prefix="otter-run-") as tmp:
        sub = Path(tmp) / "submission.ipynb"
        sub.write_bytes(submission.read_bytes())
        empty, cache = Path(tmp) / "empty", Path(tmp) / "cache"
        empty.mkdir()
        env = {**os.environ, **{v: str(empty) for v in ("LDPFAIR_DATA_DIR", "LDPFAIR_REFERENCE_DIR",
                                                         "LDPFAIR_RESULTS_DIR", "LDPFAIR_CACHE_DIR")},
               "LDPFAIR_CACHE": str(cache)}
        if site is not None:
            env["PYTHONPATH"] = os.pathsep.join([str(site), *[p for p in env.get("PYTHONPATH", "").split(
                os.pathsep) if p and Path(p).resolve() != Path(__file__).resolve().parents[1]]])
        command = [sys.executable, "-m", "otter", "run", "-a", str(autograder), "-o", tmp, str(sub)]
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False, env=env)
        results = Path(tmp) / "results.json"
        if proc.returncode != 0 or not results.is_file():
            tail = (proc.stderr or proc.stdout)[-1500:]
            raise RuntimeError(f"otter run failed ({proc.returncode}): {tail}")
        tests = json.loads(results.read_text())["tests"]
    return {t["name"]: float(t["score"]) for t in tests if "max_score" in t}


def ldpfair_points(grade: Any, assignment: str) -> dict[str, float]:
    """A :class:`ldpfair.classroom.Grade`'s points per exercise, keyed as Otter's questions."""
    out: dict[str, float] = {}
    for a in grade.answers:
        name = f"{assignment}_ex{a.exercise}"
        out[name] = out.get(name, 0.0) + a.score
    return out
