"""``ldpfair assignment``: export a chapter's exercises (student notebook, key, Otter autograder), grade."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .classroom import CONTEXTS, list_exercises, select_exercises
from .classroom.run import check_timeout

# and --jobs (not None by default: checked apart)
_GRADE_ONLY = ("key", "csv", "unsandboxed", "feedback", "show_expected")
_EXPORT_ONLY = ("variants", "students", "seed")


def _count(text: str) -> int:
    """``--variants``: an integer >= 1 (argparse type: one-line error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def _seed(text: str) -> int:
    """``--seed``: an integer >= 0 (argparse type: one-line error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be an integer >= 0, got {text!r}")
    return value


def _seconds(text: str) -> float:
    """``--timeout``: a positive, finite number of seconds (argparse type: one-line error, exit 2)."""
    try:
        return check_timeout(float(text))
    except ValueError:  # not a number, nan, inf, zero or negative
        raise argparse.ArgumentTypeError(
            f"must be a positive, finite number of seconds, got {text!r}") from None


class _Once(argparse.Action):
    """Store an option's value, refusing the option given twice (``-e 1 -e 2`` would keep only ``2``)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        seen: set[str] = getattr(namespace, "_given", set())
        if self.dest in seen:
            parser.error(f"argument {'/'.join(self.option_strings)}: given twice; give it once"
                         + (" (several exercises as one comma-separated list, e.g. -e 1,3)"
                            if self.dest == "exercises" else ""))
        namespace._given = seen | {self.dest}
        setattr(namespace, self.dest, values)


def _grade(args: argparse.Namespace) -> int:
    from .classroom import format_grade, grade, grades_csv
    from .classroom.files import write_atomic
    from .classroom.grading import write_feedback

    if not args.submissions:
        raise ValueError("assignment grade needs one or more submissions: ldpfair assignment grade "
                         "SUBMISSION.ipynb [...] [--key KEY.ipynb] [--csv OUT.csv]")
    for opt in _EXPORT_ONLY:
        if getattr(args, opt) is not None:
            raise ValueError(f"--{opt} is an option of the export (`ldpfair assignment PAPER`), not of grade")
    if args.csv is not None and Path(args.csv).suffix != ".csv":
        raise ValueError(f"--csv must name a .csv file, got {args.csv!r}")
    timeout = 600 if args.timeout is None else args.timeout
    hide = [Path(p).resolve().parent for p in (args.csv, args.feedback) if p]
    key, grades = grade(args.submissions, args.key, timeout=timeout, jobs=args.jobs,
                        sandboxed=not args.unsandboxed, hide=hide)
    for g in grades:
        print(format_grade(g, key, show_expected=True))
    if args.feedback:
        files = write_feedback(grades, key, args.feedback, show_expected=bool(args.show_expected))
        print(f"feedback: {len(files)} file{'s' if len(files) != 1 else ''} in {args.feedback}")
    if args.csv is not None:
        write_atomic([(grades_csv(grades, key), Path(args.csv))])
        print(f"gradebook: {args.csv} ({len(grades)} row{'s' if len(grades) != 1 else ''})")
    return 0


def _run(args: argparse.Namespace) -> int:
    if args.paper == "grade":
        return _grade(args)
    if args.submissions:
        raise ValueError(f"unexpected argument(s) {' '.join(args.submissions)!r}: give one paper, or "
                         "`ldpfair assignment grade SUBMISSION.ipynb ...` to grade")
    for opt in _GRADE_ONLY:
        if getattr(args, opt) is not None:
            raise ValueError(f"--{opt} is an option of `ldpfair assignment grade`")
    if args.jobs != 1:
        raise ValueError("--jobs is an option of `ldpfair assignment grade`")
    if args.list:
        exercises = list_exercises(args.paper)
        if not exercises:
            print(f"{args.paper} has no exercises yet")
            return 0
        if args.exercises is not None:  # checked (unknown or repeated ones refused), then listed
            exercises = select_exercises(exercises, args.exercises)
        for e in exercises:
            names = ", ".join(a.name for a in e.graded.answers) if e.graded else ""
            points = f"{e.graded.points:g} pts: {names}" if e.graded else ""
            varied = f"  varies: {', '.join(v.name for v in e.variables)}" if e.variables else ""
            print(f"{e.number:>3}  {e.label:<24} {e.title}  [{points}]{varied}")
        return 0
    if args.variants is not None or args.students is not None:
        return _export_variants(args)
    if args.seed is not None:
        raise ValueError("--seed draws variants: give it with --variants N or --students FILE")
    from .classroom import export_assignment

    timeout = 1200 if args.timeout is None else args.timeout
    result = export_assignment(args.paper, args.exercises, output=args.output, context=args.context,
                               timeout=timeout, otter=False if args.no_otter else None, force=args.force)
    print(f"student notebook: {result.student}")
    print(f"solution key:     {result.key} (executed; hidden tests from its values)")
    if result.autograder is not None:
        print(f"otter sources:    {result.master}")
        print(f"otter autograder: {result.autograder}")
    if result.note:
        print(result.note, file=sys.stderr)
    return 0


def _export_variants(args: argparse.Namespace) -> int:
    from .classroom.variant_export import export_variants
    from .classroom.variants import read_students

    students = read_students(args.students) if args.students is not None else None
    timeout = 1200 if args.timeout is None else args.timeout
    result = export_variants(args.paper, args.variants, students=students, seed=args.seed,
                             exercises=args.exercises, output=args.output, context=args.context,
                             timeout=timeout, force=args.force)
    print(f"variants:  {len(result.keys)} (instructor file, keep it: {result.manifest})")
    print(f"keys:      {len(result.keys)} in {result.manifest.parent} (<paper>_<variant>_solutions.ipynb)")
    print(f"handouts:  {len(result.handouts)} in {result.handouts[0].parent}")
    print(f"grade with: ldpfair assignment grade SUBMISSIONS... --key {result.manifest}")
    return 0


def add_subcommand(subparsers: Any) -> None:
    """Register ``ldpfair assignment``."""
    parser = subparsers.add_parser(
        "assignment",
        help="export a chapter's exercises (student notebook, key, Otter autograder) or grade submissions",
        description="`ldpfair assignment PAPER -o DIR` writes <paper>_assignment.ipynb (solutions removed, "
        "an answer cell and a public test after each exercise), <paper>_solutions.ipynb (the key, executed "
        "once to compute the hidden tests) and, with otter-grader installed, <paper>_autograder.zip (Otter, "
        "same notebook). `ldpfair assignment grade SUBMISSION.ipynb [...] [--key KEY.ipynb] "
        "[--csv OUT.csv]` runs each submission in a fresh kernel and grades it with the key's hidden tests. "
        "Exercises are numbered 1..N in the order of the chapter.",
    )
    parser.add_argument("paper",
                        help="paper name (see `ldpfair run --list`) or path of a notebook; or `grade`")
    parser.add_argument("submissions", nargs="*", metavar="SUBMISSION",
                        help="with `grade`: the students' .ipynb files")
    parser.add_argument("--exercises", "-e", default=None, action=_Once,
                        help="comma-separated exercise numbers or labels (default: all), e.g. 1,3")
    parser.add_argument("-o", "--output", default=None, action=_Once,
                        help="output folder (default runs/assignments/<paper>)")
    parser.add_argument("--context", choices=CONTEXTS, default="setup", action=_Once,
                        help="setup: only the chapter's parameters and setup cells before the exercises "
                        "(default: faster to grade, no prose stating a graded value); full: the whole "
                        "chapter")
    parser.add_argument("--list", action="store_true", help="list the chapter's exercises and exit")
    parser.add_argument("--no-otter", action="store_true", help="do not write the Otter-Grader autograder")
    parser.add_argument("--key", default=None, action=_Once, help="with `grade`: the solution key (default: "
                        "the one named by the submission, next to it)")
    parser.add_argument("--csv", default=None, action=_Once,
                        help="with `grade`: write one row per submission here")
    parser.add_argument("--feedback", default=None, action=_Once, metavar="DIR",
                        help="with `grade`: write one feedback file per student here (<student>.txt)")
    parser.add_argument("--show-expected", action="store_true", default=None,
                        help="with `grade --feedback`: show the key's value of each wrong answer")
    parser.add_argument("--force", action="store_true",
                        help="overwrite an earlier export in the output folder (refused otherwise)")
    parser.add_argument("--unsandboxed", action="store_true", default=None,
                        help="with `grade`: run submissions without bubblewrap, the hidden tests in "
                        "their own kernel (trusted submissions only)")
    parser.add_argument("--jobs", "-j", type=int, default=1, action=_Once,
                        help="with `grade`: submissions graded at a time, one kernel each (default 1)")
    parser.add_argument("--variants", type=_count, default=None, action=_Once, metavar="N",
                        help="draw N variants of the exercises' declared parameters, one key each, and "
                        "write one stamped handout per variant (or per student with --students)")
    parser.add_argument("--students", default=None, action=_Once, metavar="FILE",
                        help="student ids, one a line: one stamped handout each (one variant each unless "
                        "--variants N is smaller)")
    parser.add_argument("--seed", type=_seed, default=None, action=_Once,
                        help="seed of the variant draws (default: fresh, recorded in <paper>_variants.json)")
    parser.add_argument("--timeout", type=_seconds, default=None, action=_Once,
                        help="seconds: for running the key at export (default 1200), or for running each "
                        "submission with `grade` (default 600)")
    parser.set_defaults(func=_run)
