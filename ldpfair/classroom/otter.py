"""Otter-Grader route: the same student notebook graded by ``otter run`` or on Gradescope.

Students get one notebook, ldpfair's handout (``<paper>_assignment.ipynb``): it imports
only ``ldpfair`` and carries Otter's notebook metadata (``metadata.otter.assignment_name``),
so ``otter run -a <paper>_autograder.zip`` and ``ldpfair assignment grade`` both accept
it. The autograder zip is made by ``otter generate`` (never ``otter assign``: no Otter
student notebook exists) from:

- ``tests/<paper>_ex<N>.py``: one Otter question per exercise, one hidden test case per
  graded answer worth its points, in Otter's exception-based format. Each file holds
  the key's values and the comparison as plain Python (the very functions of
  :mod:`ldpfair.classroom.checks`, copied into the file by source), so no test imports
  an ``ldpfair`` checker a submission could replace; expected values exist only there.
- ``requirements.txt``: the pins of ldpfair's runtime dependencies as in the dev lock
  (Python 3.11) and the ldpfair wheel built from this checkout at export (no deps),
  inside the zip; ``environment.yml`` asks for Python 3.11.
- the data, reference and results files the key read when the export ran it (recorded
  as it ran), inside the zip, read through ldpfair's sha256 registry as usual.
- ``otter_config.json``: the assignment name, PDF export of the open questions (filtered
  to the ``<!-- BEGIN QUESTION -->`` blocks the handout marks; none without open
  questions), and the plugin
  :class:`ldpfair.classroom.otter_plugin.GradingSetup` with the time limit and the
  folders of the bundled files.

Otter runs its tests in the student's kernel: see the instructors page for what that
does not protect.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import inspect
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["available", "checkout", "prepare_handout", "otter_test_source", "build_wheel", "requirements",
           "write_otter", "PYTHON", "PLUGIN", "BUNDLE"]

#: Python of the grading image (the locks are made for CPython 3.11).
PYTHON = "3.11"
#: The Otter plugin the zip's ``otter_config.json`` names.
PLUGIN = "ldpfair.classroom.otter_plugin.GradingSetup"
#: Folder (under Otter's ``files/``) of the bundled data, reference and results files.
BUNDLE = "ldpfair-files"
#: Tag of the handout's open-question answer cells.
OPEN_TAG = "open-answer"

#: Functions of :mod:`ldpfair.classroom.checks` copied, by source, into every test file.
_COMPARISON = ("_scalar", "_is_number", "_jsonable", "_short", "_table", "to_json", "_close", "_digits",
               "_differ", "_public_problem", "_value_problem", "_json_problem")


def available() -> bool:
    """Whether otter-grader is installed (the ``classroom`` extra)."""
    return importlib.util.find_spec("otter") is not None


def prepare_handout(student: Any, name: str) -> Any:
    """Give the handout Otter's metadata and one marked answer cell per open question (in place).

    ``metadata.otter.assignment_name`` is what ``otter run`` checks against the zip's
    ``otter_config.json``; each open question becomes a Markdown block between
    ``<!-- BEGIN QUESTION -->`` and ``<!-- END QUESTION -->`` (the prompt, an answer cell
    tagged ``open-answer``), which Otter's filtered PDF export keeps.
    """
    from nbformat import v4

    student.metadata["otter"] = {"assignment_name": name}
    manual = {e["number"]: e["graded"]["manual"] for e in student.metadata["ldpfair"]["exercises"]}
    last: dict[int, int] = {}
    for i, cell in enumerate(student.cells):
        number = cell.get("metadata", {}).get("ldpfair", {}).get("exercise")
        if number is not None:
            last[number] = i
    for number in sorted(last, key=lambda n: -last[n]):  # from the end, so indices stay valid
        cells = []
        for m, q in enumerate(manual.get(number, []), start=1):
            mark = {"ldpfair": {"exercise": number, "open": m}}
            pts = f"{q['points']:g} point" + ("" if q["points"] == 1 else "s")
            head = f"**Exercise {number}, open question {m}** ({pts}, graded by hand): {q['question']}"
            cells += [v4.new_markdown_cell(f"<!-- BEGIN QUESTION -->\n\n{head}", metadata=mark),
                      v4.new_markdown_cell("_Type your answer here, replacing this text._",
                                           metadata={**mark, "tags": [OPEN_TAG]}),
                      v4.new_markdown_cell("<!-- END QUESTION -->", metadata=mark)]
        student.cells[last[number] + 1:last[number] + 1] = cells
    for i, c in enumerate(student.cells):
        c["id"] = f"cell-{i}"
    return student


def _comparison_source() -> str:
    from . import checks

    return "\n\n".join(inspect.getsource(getattr(checks, f)) for f in _COMPARISON)


def otter_test_source(name: str, number: int, answers: Iterable[Mapping[str, Any]]) -> str:
    """Otter test file of exercise ``number``: a hidden case per answer, values and checks in plain Python.

    ``answers`` are the key's specs (with ``expected``). A case fails with the same
    line :func:`ldpfair.classroom.checks.check` gives and scores the answer's points.
    """
    specs = {a["name"]: {k: v for k, v in a.items() if k not in ("doc", "why")} for a in answers}
    lines = [
        "from __future__ import annotations",
        "",
        f'"""Otter tests of {name}, exercise {number}: written by `ldpfair assignment` from the key.',
        "",
        "Hidden from students. The comparison below is ldpfair.classroom.checks copied as plain",
        'Python, so that no test imports a checker the submission could have replaced."""',
        "",
        "import math",
        "import numbers",
        "from collections.abc import Mapping",
        "from typing import Any",
        "",
        "from otter.test_files import test_case",
        "",
        "OK_FORMAT = False",
        f"name = {name + '_ex' + str(number)!r}",
        f"SPECS = {specs!r}",
        "_MISSING = object()",
        "",
        _comparison_source(),
        "",
        "",
        "def _check(env, spec):",
        '    value = env.get(spec["name"], _MISSING)',
        "    if value is _MISSING:",
        '        raise AssertionError(f"{spec[\'name\']} is not defined: bind it in your answer")',
        "    problem = _public_problem(value, spec)",
        "    if problem:",
        '        raise AssertionError(f"{spec[\'name\']} {problem}")',
        "    problem = _value_problem(value, spec)",
        "    if problem:",
        '        raise AssertionError(f"{spec[\'name\']}: {problem}")',
    ]
    for i, (answer_name, spec) in enumerate(specs.items(), start=1):
        lines += ["", "",
                  f"@test_case(name={answer_name!r}, points={float(spec.get('points', 1))!r}, hidden=True)",
                  f"def test_{i}(env):",
                  f"    _check(env, SPECS[{answer_name!r}])"]
    return "\n".join(lines) + "\n"


def checkout() -> Path:
    """The checkout ldpfair is imported from (ValueError when it is an installed copy)."""
    import ldpfair

    root = Path(ldpfair.__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file():
        raise ValueError(f"the Otter autograder needs ldpfair's source checkout to build its wheel; "
                         f"ldpfair is imported from {root}, which has no pyproject.toml")
    return root


def build_wheel(folder: Path, *, timeout: float = 600) -> Path:
    """Build ldpfair's wheel from the checkout it is imported from (no dependencies) into ``folder``.

    Raises
    ------
    ValueError
        If there is no checkout or the build fails (its last line).
    """
    root = checkout()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                               "--quiet", "-w", str(folder), str(root)],
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise ValueError(f"building ldpfair's wheel ran past {timeout:g} s") from None
    wheels = sorted(folder.glob("ldpfair-*.whl"))
    if proc.returncode != 0 or len(wheels) != 1:
        tail = (proc.stderr or proc.stdout or "no output").strip().splitlines()
        raise ValueError(f"building ldpfair's wheel failed: {tail[-1] if tail else 'no output'}")
    return wheels[0]


def _name(requirement: str) -> str:
    return re.split(r"[\s;\[<>=!~(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _runtime_closure() -> set[str]:
    """The runtime dependencies of ldpfair, transitively, as installed here (extras and markers left out)."""
    seen: set[str] = set()
    todo = [_name(r) for r in importlib.metadata.requires("ldpfair") or [] if "extra ==" not in r]
    todo.append("ipykernel")  # the kernel the grader starts
    while todo:
        dist = todo.pop()
        if dist in seen:
            continue
        try:
            reqs = importlib.metadata.requires(dist) or []
        except importlib.metadata.PackageNotFoundError:
            continue  # not installed here (a marker for another platform or Python)
        seen.add(dist)
        todo += [_name(r) for r in reqs if "extra ==" not in r]
    return seen


def requirements(wheel: str) -> str:
    """``requirements.txt`` of the grading image: pinned runtime dependencies, then the wheel.

    Versions come from ``requirements/lock-dev.txt`` (the lock that holds otter-grader too,
    so its pins agree with Otter's), else from what is installed here.
    """
    pins: dict[str, str] = {}
    lock = checkout() / "requirements" / "lock-dev.txt"
    if lock.is_file():
        for line in lock.read_text().splitlines():
            m = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s\\;]+)", line)
            if m:
                pins[_name(m.group(1))] = m.group(2)
    out = []
    for dist in sorted(_runtime_closure()):
        version = pins.get(dist) or importlib.metadata.version(dist)
        out.append(f"{dist}=={version}")
    return ("# ldpfair's runtime dependencies, pinned as in requirements/lock-dev.txt (CPython 3.11)\n"
            + "\n".join(out) + f"\n# ldpfair itself, the wheel built at export (inside the zip)\n"
            f"/autograder/source/files/{wheel}\n")


def _config(name: str, time_limit: float, bundle: Mapping[str, str], *, pdf: bool) -> dict[str, Any]:
    return {
        "assignment_name": name,
        "lang": "python",
        "pdf": pdf,
        "filtering": pdf,
        "pagebreaks": pdf,
        "show_stdout": False,
        "show_hidden": False,
        "plugins": [{PLUGIN: {"time_limit": time_limit, "files": BUNDLE, "folders": dict(bundle)}}],
    }


def write_otter(key: Any, name: str, output: Path, files: Mapping[str, Path], *, time_limit: float = 600,
                timeout: float = 600) -> tuple[Path, Path]:
    """Write the inputs of ``otter generate`` in ``<output>/otter`` and run it; return (folder, zip).

    Parameters
    ----------
    key : notebook
        The executed key (``metadata.ldpfair`` with every answer's ``expected``).
    name : str
        The assignment (the paper).
    output : path
        The export folder; the zip is ``<output>/<name>_autograder.zip``.
    files : mapping
        ``"<collection>/<relative path>"`` (collection ``data``, ``reference`` or
        ``results``) -> the local file the key read; bundled in the zip.
    time_limit : float
        Seconds a submission may run in the grader (the plugin's limit).
    timeout : float
        Seconds for building the wheel and for ``otter generate``.

    Raises
    ------
    ValueError
        If the wheel cannot be built or ``otter generate`` fails (one line).
    """
    from .files import write_atomic

    folder = output / "otter"
    if folder.exists():
        shutil.rmtree(folder)
    (folder / "tests").mkdir(parents=True)
    wheel = build_wheel(folder / "wheel", timeout=timeout)
    shutil.move(str(wheel), folder / wheel.name)
    shutil.rmtree(folder / "wheel")
    for rel, src in files.items():
        target = folder / BUNDLE / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
    bundle = {c: f"{BUNDLE}/{c}" for c in ("data", "reference", "results")
              if any(r.startswith(c + "/") for r in files)}
    meta = key.metadata["ldpfair"]
    pairs: list[tuple[Any, Path]] = [
        (otter_test_source(name, e["number"], e["graded"]["answers"]),
         folder / "tests" / f"{name}_ex{e['number']}.py")
        for e in meta["exercises"] if e["graded"]["answers"]]
    config = _config(name, time_limit, bundle, pdf=any(e["graded"]["manual"] for e in meta["exercises"]))
    pairs += [(requirements(wheel.name), folder / "requirements.txt"),
              (json.dumps(config, indent=2) + "\n", folder / "otter_config.json")]
    write_atomic(pairs)
    zip_path = folder / f"{name}_autograder.zip"
    command = [sys.executable, "-m", "otter", "generate", "-t", "tests", "-o", zip_path.name,
               "-c", "otter_config.json", "-r", "requirements.txt", "--no-environment",
               "--python-version", PYTHON, wheel.name, *([BUNDLE] if files else [])]
    try:
        proc = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        raise ValueError(f"otter generate ran past {timeout:g} s") from None
    if proc.returncode != 0 or not zip_path.is_file():
        lines = (proc.stderr or proc.stdout or "no output").strip().splitlines()
        raise ValueError(f"otter generate failed: {lines[-1] if lines else 'no output'}")
    target = output / f"{name}_autograder.zip"
    write_atomic([(zip_path.read_bytes(), target)])
    zip_path.unlink()
    return folder, target
