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

- Each exercise declares its graded answers in a code cell tagged ``graded``
  between the exercise and its solution (see :mod:`ldpfair.classroom.answers`):
  the names the solution binds, their kind, tolerance and points, and open
  questions with a rubric line. Every exercise has at least one autograded answer;
  an answer that depends on randomness uses a seed the exercise states.
- An exercise may declare the parameters a per-student variant changes in a code
  cell tagged ``variant`` (``ex1_seed = vary(0, values=range(1, 10), doc=...)``)
  between the exercise and its solution; its solution reads those names (see
  :mod:`ldpfair.classroom.variants`, exported by :mod:`ldpfair.classroom.variant_export`).

What :func:`export_assignment` writes (runnable offline with ``LDPFAIR_DATA_DIR``):

- ``<paper>_assignment.ipynb``: the chapter with every solution removed; each
  selected exercise is its prompt and graded answers, an answer cell (tagged
  ``answer``) with a stub per graded name, and a public test cell (type and shape);
  unselected exercises are dropped; the ``parameters`` cell is kept.
- ``<paper>_solutions.ipynb``: the key, executed once by the export: the solutions
  (code cells tagged ``solution``), the rubric lines, and a hidden test cell per
  exercise generated from the values the key computed.
- with otter-grader installed (the ``classroom`` extra): ``<paper>_autograder.zip``, an
  Otter autograder for the same student notebook (:mod:`ldpfair.classroom.otter`), and
  ``otter/``, the inputs ``otter generate`` made it from.

:func:`grade` runs submissions in fresh kernels and the key's hidden tests on them
(``ldpfair assignment grade``).

.. _sphinx-exercise: https://ebp-sphinx-exercise.readthedocs.io/
"""

from __future__ import annotations

from .answers import KINDS, Answer, Graded, Manual, answer, graded, manual, parse_declaration
from .exercises import (
    CONTEXTS,
    GRADED_TAG,
    Exercise,
    build_assignment,
    exercises_table,
    list_exercises,
    parse_exercises,
    select_exercises,
)
from .export import Export, export_assignment
from .grading import Grade, Key, format_grade, grade, grade_submission, grades_csv, load_key, write_feedback
from .run import execute_notebook
from .variant_export import VariantExport, export_variants
from .variants import Variants, load_variants, vary

__all__ = [
    "KINDS", "Answer", "Graded", "Manual", "answer", "graded", "manual", "parse_declaration",
    "CONTEXTS", "GRADED_TAG", "Exercise", "build_assignment", "exercises_table", "list_exercises",
    "parse_exercises", "select_exercises", "Export", "export_assignment", "Grade", "Key", "format_grade",
    "grade", "grade_submission", "grades_csv", "load_key", "execute_notebook", "write_feedback",
    "VariantExport", "Variants", "export_variants", "load_variants", "vary",
]
