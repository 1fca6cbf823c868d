"""Grade submissions locally: run each in a fresh kernel, then the key's hidden tests.

A submission that raises, runs past the time limit or lacks an answer gets 0 for
the answers concerned and a line saying why; the grader itself never stops on a
submission.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .run import FINAL, check_timeout, execute

__all__ = ["AnswerGrade", "Grade", "Key", "load_key", "grade_submission", "grade", "format_grade",
           "grades_csv", "write_feedback", "student_id"]

_MARK = "<<ldpfair-grades>>"


@dataclass
class Key:
    """A solution key written by the export: its assignment name and graded answers with values."""

    path: Path
    assignment: str
    exercises: list[dict[str, Any]]
    variant: str = ""

    @property
    def specs(self) -> list[dict[str, Any]]:
        """Every graded answer with its exercise number and expected value."""
        return [{**a, "exercise": e["number"]} for e in self.exercises for a in e["graded"]["answers"]]

    @property
    def possible(self) -> float:
        """Autograded points."""
        return float(sum(a["points"] for a in self.specs))

    @property
    def manual_points(self) -> float:
        """Points graded by hand."""
        return float(sum(m["points"] for e in self.exercises for m in e["graded"]["manual"]))


@dataclass
class AnswerGrade:
    """The grade of one answer: its points, score and (when it failed) one line saying why."""

    exercise: int
    name: str
    points: float
    score: float
    message: str = ""


@dataclass
class Grade:
    """The grade of one submission."""

    path: Path
    answers: list[AnswerGrade] = field(default_factory=list)
    possible: float = 0.0
    manual_points: float = 0.0
    status: str = "graded"
    seconds: float = 0.0
    variant: str = ""

    @property
    def score(self) -> float:
        """Autograded points earned."""
        return float(sum(a.score for a in self.answers))


def load_key(path: str | os.PathLike[str]) -> Key:
    """Read a solution key written by ``ldpfair assignment``.

    Raises
    ------
    ValueError
        If the file is missing, not a notebook, or not a key with computed answers.
    """
    import nbformat

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"key {str(path)!r} does not exist; give the <paper>_solutions.ipynb that "
                         "`ldpfair assignment` wrote")
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as exc:  # noqa: BLE001 - any unreadable file
        raise ValueError(f"key {str(path)!r} is not a readable notebook ({type(exc).__name__})") from None
    meta = nb.metadata.get("ldpfair") or {}
    exercises = meta.get("exercises")
    if not exercises or any("expected" not in a for e in exercises for a in e["graded"]["answers"]):
        raise ValueError(f"key {str(path)!r} holds no computed answers: export it again with "
                         "`ldpfair assignment PAPER -o DIR` (this version writes them)")
    return Key(path, meta.get("assignment", "?"), exercises)


def _grading_cell(specs: list[dict[str, Any]]) -> Any:
    from nbformat import v4

    src = ("import json as _json\nfrom ldpfair.classroom.checks import run_checks as _run_checks\n\n"
           f"print({_MARK!r} + _json.dumps(_run_checks(globals(), {specs!r})))\n")
    return v4.new_code_cell(src, metadata={FINAL: True})


def _exercise_at(nb: Any, index: int) -> int | None:
    for cell in reversed(nb.cells[: index + 1]):
        number = cell.get("metadata", {}).get("ldpfair", {}).get("exercise")
        if number:
            return int(number)
    return None


def _zero(key: Key, grade: Grade, why: str) -> Grade:
    grade.answers = [AnswerGrade(s["exercise"], s["name"], float(s["points"]), 0.0, why) for s in key.specs]
    grade.status = why
    return grade


def grade_submission(path: str | os.PathLike[str], key: Key, *, timeout: float = 600, sandboxed: bool = True,
                     hide: Sequence[str | os.PathLike[str]] = ()) -> Grade:
    """Grade one submission against ``key`` (never raises for a bad submission).

    Parameters
    ----------
    path : path
        The student's ``.ipynb``.
    key : Key
        From :func:`load_key`.
    timeout : float
        Seconds for running the whole submission (the hidden tests get their own two minutes).
    sandboxed : bool
        Run it in bubblewrap and compare its answers here (the default); False runs the
        hidden tests in the submission's own kernel (trusted submissions only).
    hide : paths
        Folders the sandboxed submission must not see, besides the key's and its own.
    """
    import nbformat

    path = Path(path)
    grade = Grade(path, possible=key.possible, manual_points=key.manual_points)
    try:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
    except Exception as exc:  # noqa: BLE001 - a damaged file is graded 0, not a crash
        return _zero(key, grade, f"not a readable notebook ({type(exc).__name__})")
    name = (nb.metadata.get("ldpfair") or {}).get("assignment")
    if name is not None and name != key.assignment:
        return _zero(key, grade, f"this is the {name} assignment, the key is for {key.assignment}")
    nb.cells = [c for c in nb.cells if not c.get("metadata", {}).get(FINAL)]
    if sandboxed:  # a key's own hidden tests are not run: the grader compares here
        nb.cells = [c for c in nb.cells if "hidden-test" not in c.get("metadata", {}).get("tags", [])]
        return _grade_sandboxed(nb, path, key, grade, timeout, hide)
    nb.cells.append(_grading_cell(key.specs))
    run = execute(nb, timeout=timeout)
    grade.seconds = run.seconds
    results = None
    for out in run.notebook.cells[-1].get("outputs", []):
        for line in out.get("text", "").splitlines():
            if line.startswith(_MARK):
                results = json.loads(line[len(_MARK):])
    if results is None:
        return _zero(key, grade, run.died or "the hidden tests could not run in this notebook")
    context: dict[int, str] = {}
    for index, error in run.errors:
        if index == len(run.notebook.cells) - 1:
            continue
        number = _exercise_at(run.notebook, index)
        if number is not None and number not in context:
            context[number] = f"exercise {number} raised {error.splitlines()[0]}"
    if run.timed_out is not None:
        grade.status = (f"ran past the time limit of {timeout:g} s (cell {run.timed_out}); "
                        "later cells were skipped")
    elif run.died:
        grade.status = run.died
    for spec, r in zip(key.specs, results, strict=True):
        message = r["message"]
        if message and run.timed_out is not None and "not defined" in message:
            message += f" (the notebook ran past the time limit of {timeout:g} s)"
        elif message and spec["exercise"] in context and "not defined" in message:
            message += f" ({context[spec['exercise']]})"
        grade.answers.append(AnswerGrade(spec["exercise"], spec["name"], r["points"], r["score"], message))
    return grade


def _grade_sandboxed(nb: Any, path: Path, key: Key, grade: Grade, timeout: float,
                     hide: Sequence[str | os.PathLike[str]]) -> Grade:
    from .checks import judge
    from .sandbox import run_sandboxed

    folders = [Path(h) for h in hide] + [key.path.resolve().parent, path.resolve().parent, Path.cwd()]
    run = run_sandboxed(nb, key.specs, timeout=timeout, hide=folders, secret_files=[key.path, path])
    grade.seconds = run.seconds
    context: dict[int, str] = {}
    for index, error in run.errors:
        number = _exercise_at(nb, index) if 0 <= index < len(nb.cells) else None
        if number is not None and number not in context:
            context[number] = f"exercise {number} raised {error.splitlines()[0]}"
    if run.timed_out is not None or run.killed:
        grade.status = f"ran past the time limit of {timeout:g} s; later cells were skipped"
    elif run.died:
        grade.status = run.died
    elif context:  # a cell raised (perhaps after its answers were bound): named, not hidden
        grade.status = "; ".join(context[n] for n in sorted(context))
    for spec in key.specs:
        points = float(spec.get("points", 1))
        message = judge(run.answers.get(spec["name"]), spec)
        if message and "not defined" in message:
            if run.timed_out is not None or run.killed:
                message += f" (the notebook ran past the time limit of {timeout:g} s)"
            elif spec["exercise"] in context:
                message += f" ({context[spec['exercise']]})"
        grade.answers.append(AnswerGrade(spec["exercise"], spec["name"], points, 0.0 if message else points,
                                         message))
    return grade


def _pts(x: float) -> str:
    return f"{x:g}"


def _points(x: float) -> str:
    return f"{x:g} point" + ("" if x == 1 else "s")


def _without_expected(message: str) -> str:
    """A failure line with the key's value left out (what a student sees by default)."""
    return re.sub(r"expected (.*?), got ", "the value is not right, got ", message)


def student_id(path: Path) -> str:
    """The student's id: ``metadata.ldpfair.student`` when set, else the file name without ``.ipynb``."""
    import nbformat

    try:
        sid = (nbformat.read(path, as_version=4).metadata.get("ldpfair") or {}).get("student")
    except Exception:  # noqa: BLE001 - a damaged file still has a name
        sid = None
    return sid if isinstance(sid, str) and sid.strip() else path.stem


def format_grade(grade: Grade, key: Key, *, show_expected: bool = True) -> str:
    """Per exercise: points and one line per failed answer; then ``score: X / Y``.

    With ``show_expected=False`` (student feedback) a wrong answer says so with its
    points, without the key's value.
    """
    lines = [f"{grade.path}: {key.assignment}, ran in {grade.seconds:.1f} s"
             + ("" if grade.status == "graded" else f"; {grade.status}")]
    for ex in key.exercises:
        mine = [a for a in grade.answers if a.exercise == ex["number"]]
        got, of = sum(a.score for a in mine), sum(a.points for a in mine)
        title = f", {ex['title']}" if ex.get("title") else ""
        lines.append(f"  exercise {ex['number']}{title}: {_pts(got)} / {_pts(of)}")
        lines += [f"    {a.name} (0 / {_pts(a.points)}): "
                  f"{a.message if show_expected else _without_expected(a.message)}"
                  for a in mine if a.message]
        for m in ex["graded"]["manual"]:
            lines.append(f"    open question ({_points(m['points'])}, grade by hand): {m['question']}")
    manual = f" (+ {_points(grade.manual_points)} graded by hand)" if grade.manual_points else ""
    lines.append(f"  score: {_pts(grade.score)} / {_pts(grade.possible)}{manual}")
    return "\n".join(lines)


def grades_csv(grades: Sequence[Grade], key: Key) -> str:
    """One row per submission: student, submission time, variant, score, each answer, manual columns, status.

    Each open question gets an empty ``ex<N>.manual<M>`` column for the points given by hand.
    """
    from datetime import datetime, timezone

    buf = io.StringIO()
    names = [f"ex{s['exercise']}.{s['name']}" for s in key.specs]
    manual = [f"ex{e['number']}.manual{i + 1}"
              for e in key.exercises for i, _ in enumerate(e["graded"]["manual"])]
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["student", "submitted", "submission", "assignment", "variant", "score", "possible",
                     "manual_points", "seconds", "status", *names, *manual])
    for g in grades:
        try:
            when = datetime.fromtimestamp(g.path.stat().st_mtime, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        except OSError:
            when = ""
        writer.writerow([student_id(g.path), when, str(g.path), key.assignment, g.variant or key.variant,
                         _pts(g.score),
                         _pts(g.possible), _pts(g.manual_points), f"{g.seconds:.1f}", g.status,
                         *(_pts(a.score) for a in g.answers), *([""] * len(manual))])
    return buf.getvalue()


def write_feedback(grades: Sequence[Grade], key: Key, folder: str | os.PathLike[str], *,
                   show_expected: bool = False) -> list[Path]:
    """One ``<student>.txt`` per submission in ``folder``: points per answer, what failed and why."""
    from .files import write_atomic

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for g in grades:
        sid = student_id(g.path)
        text = format_grade(g, key, show_expected=show_expected).replace(f"{g.path}: ", f"{sid}: ", 1)
        files.append((text + "\n", folder / f"{sid}.txt"))
    write_atomic(files)
    return [f for _, f in files]


def grade(submissions: Sequence[str | os.PathLike[str]], key: str | os.PathLike[str] | None = None, *,
          timeout: float = 600, jobs: int = 1, sandboxed: bool = True,
          hide: Sequence[str | os.PathLike[str]] = ()) -> tuple[Key, list[Grade]]:
    """Grade several submissions against one key, ``jobs`` kernels at a time.

    Without ``key``, the key named in the first submission's metadata is looked
    for next to it (``<paper>_solutions.ipynb``). ``key`` may also be the
    ``<paper>_variants.json`` of an export with variants (or its folder): each
    submission is then graded against its own variant's key, after its stamp is
    checked (a missing or edited stamp: 0 and the reason as its status). Grades come
    back in the order of ``submissions``; with variants the returned key is the first
    variant's (the exercises and points are the same for all).

    Raises
    ------
    ValueError
        For no submissions, a missing submission file, or no usable key (one line).
    """
    import nbformat

    if not submissions:
        raise ValueError("no submission given; pass one or more .ipynb files")
    paths = [Path(s) for s in submissions]
    for p in paths:
        if not p.is_file():
            raise ValueError(f"submission {str(p)!r} does not exist")
    seen: dict[str, Path] = {}
    for p in paths:
        if os.path.realpath(p) in seen:
            raise ValueError(f"submission {str(p)!r} is given twice (as {str(seen[os.path.realpath(p)])!r})")
        seen[os.path.realpath(p)] = p
    check_timeout(timeout, "--timeout")
    if sandboxed:
        from .sandbox import require_bwrap

        require_bwrap()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"--jobs must be an integer >= 1, got {jobs!r}")
    if key is None:
        try:
            meta = nbformat.read(paths[0], as_version=4).metadata.get("ldpfair") or {}
        except Exception:  # noqa: BLE001
            meta = {}
        name = meta.get("assignment")
        candidate = paths[0].parent / f"{name}_solutions.ipynb" if isinstance(name, str) and name else None
        if candidate is None or not candidate.is_file():
            raise ValueError(f"no key found next to {str(paths[0])!r}; give --key <paper>_solutions.ipynb "
                             "(or <paper>_variants.json for an export with variants)")
        key = candidate
    from .variants import MANIFEST_SUFFIX, load_variants

    if Path(key).is_dir() or str(key).endswith(MANIFEST_SUFFIX):
        variants = load_variants(key)
        keys = {vid: load_key(variants.key_path(vid)) for vid in variants.variants}
        for vid, kv in keys.items():
            kv.variant = vid
        hide = [*hide, variants.path.resolve().parent]

        def one(p: Path) -> Grade:
            return _grade_variant(p, variants, keys, timeout=timeout, sandboxed=sandboxed, hide=hide)
        k = dataclasses.replace(next(iter(keys.values())), variant="")  # each grade names its own
    else:
        k = load_key(key)

        def one(p: Path) -> Grade:
            return grade_submission(p, k, timeout=timeout, sandboxed=sandboxed, hide=hide)
    if jobs == 1 or len(paths) == 1:
        return k, [one(p) for p in paths]
    from concurrent.futures import ThreadPoolExecutor

    from .run import _kernel_environment

    with _kernel_environment(), ThreadPoolExecutor(max_workers=jobs) as pool:  # each kernel is a process
        return k, list(pool.map(one, paths))


def _grade_variant(path: Path, variants: Any, keys: dict[str, Key], *, timeout: float, sandboxed: bool,
                   hide: Sequence[str | os.PathLike[str]]) -> Grade:
    """Grade one submission against its own variant's key, once its stamp verifies (else 0 and why)."""
    import nbformat

    first = next(iter(keys.values()))
    try:
        meta = nbformat.read(path, as_version=4).metadata.get("ldpfair") or {}
    except Exception:  # noqa: BLE001 - graded 0 by grade_submission, with its reason
        return grade_submission(path, first, timeout=timeout, sandboxed=sandboxed, hide=hide)
    vid, why = variants.check(meta if isinstance(meta, dict) else {}, student_id(path))
    if why:
        grade = _zero(first, Grade(path, possible=first.possible, manual_points=first.manual_points), why)
        for a in grade.answers:
            a.message = "not graded: see the variant stamp line above"
        grade.variant = vid
        return grade
    grade = grade_submission(path, keys[vid], timeout=timeout, sandboxed=sandboxed, hide=hide)
    grade.variant = vid
    return grade
