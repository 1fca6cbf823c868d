"""Graded answers of an exercise: what a student binds, how it is checked, and for how many points.

An exercise of a chapter declares its graded answers in a code cell tagged
``graded``, placed between the ``{exercise}`` directive and its solution::

    from ldpfair.classroom import answer, graded, manual

    graded(
        answer("acc_13", "number", abs=5e-4, points=2, doc="test accuracy with the bound 13",
               why="seeded; the tolerance covers BLAS differences between machines"),
        manual("Why does the bound help?", rubric="a smaller sensitivity means less noise", points=1),
    )

The book shows the cell's output (what is graded and for how many points); the
assignment export reads the declaration, runs the solution key and turns each
answer into a public test (type and shape, in the student notebook) and a hidden
test (the key's value, in the key). Nothing here imports the heavy stack: the
checks run inside student kernels (:mod:`ldpfair.classroom.checks`).
"""

from __future__ import annotations

import ast
import math
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["KINDS", "Answer", "Manual", "Graded", "answer", "manual", "graded", "parse_declaration"]

#: Kinds of graded answers and what a public test checks for each.
KINDS: dict[str, str] = {
    "number": "a real number",
    "integer": "an integer",
    "bool": "True or False",
    "text": "a string",
    "choice": "one of the listed values",
    "set": "a set of values (order ignored)",
    "sequence": "a list of values (order matters)",
    "table": "a pandas DataFrame with the listed columns",
}


def _positive(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Answer:
    """One autograded answer: a global name the student binds.

    Parameters
    ----------
    name : str
        The variable the student's notebook must define.
    kind : str
        One of :data:`KINDS`.
    points : float
        Points for a correct value.
    abs, rel : float
        Tolerance for numbers (also inside sequences, sets and table columns): a value
        passes when ``|got - expected| <= abs + rel * |expected|``. Both 0: exact.
    options : tuple
        For ``"choice"``: the allowed values (the public test checks membership).
    columns : tuple of str
        For ``"table"``: the columns that must be present; their values are compared
        with the key's, row by row in the key's order (after sorting by ``key``).
    key : str, optional
        For ``"table"``: a column (or the index name) identifying rows.
    length : int, optional
        For ``"sequence"``: the required length (public test).
    doc : str
        What the value is, shown to students.
    why : str
        Why the tolerance is what it is (seeded randomness, machine kernels...).
    """

    name: str
    kind: str
    points: float = 1.0
    abs: float = 0.0
    rel: float = 0.0
    options: tuple[Any, ...] = ()
    columns: tuple[str, ...] = ()
    key: str | None = None
    length: int | None = None
    doc: str = ""
    why: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"answer name must be a Python identifier, got {self.name!r}")
        if self.kind not in KINDS:
            raise ValueError(f"answer {self.name!r}: kind must be one of {', '.join(KINDS)}, "
                             f"got {self.kind!r}")
        _positive(f"answer {self.name!r}: points", self.points)
        _positive(f"answer {self.name!r}: abs", self.abs)
        _positive(f"answer {self.name!r}: rel", self.rel)
        if self.kind == "choice" and len(self.options) < 2:
            raise ValueError(f"answer {self.name!r}: a choice needs at least two options")
        if self.kind == "table" and not self.columns:
            raise ValueError(f"answer {self.name!r}: a table answer needs the columns to check")

    def tolerance(self) -> str:
        """The tolerance in words ("exact" when none)."""
        parts = [f"± {self.abs:g}" if self.abs else "", _relative(self.rel) if self.rel else ""]
        text = " and ".join(p for p in parts if p)
        return text or "exact"

    def describe(self) -> str:
        """One Markdown line: name, kind, check, points."""
        what = KINDS[self.kind]
        if self.kind == "choice":
            what = "one of " + ", ".join(f"`{o!r}`" for o in self.options)
        elif self.kind == "table":
            what = "a DataFrame with columns " + ", ".join(f"`{c}`" for c in self.columns)
        elif self.kind == "sequence" and self.length:
            what = f"a list of {self.length} values"
        numeric = self.kind in ("number", "sequence", "set", "table")
        check = f", checked {self.tolerance()}" if numeric else ""
        why = f" ({self.why})" if self.why and numeric else ""
        doc = f": {self.doc}" if self.doc else ""
        pts = f"{self.points:g} point" + ("" if self.points == 1 else "s")
        return f"`{self.name}`{doc} — {what}{check}{why}; {pts}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description (for notebook metadata and generated tests)."""
        d = asdict(self)
        d["options"] = list(self.options)
        d["columns"] = list(self.columns)
        return d


@dataclass(frozen=True)
class Manual:
    """An open question graded by hand, with the rubric line shown in the key."""

    question: str
    rubric: str
    points: float = 1.0

    def __post_init__(self) -> None:
        if not self.question.strip() or not self.rubric.strip():
            raise ValueError("a manually graded question needs its question and a rubric line")
        _positive("manual points", self.points)

    def describe(self) -> str:
        """One Markdown line: the question and its points."""
        pts = f"{self.points:g} point" + ("" if self.points == 1 else "s")
        return f"open question, graded by hand: {self.question} {pts}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description."""
        return asdict(self)


@dataclass(frozen=True)
class Graded:
    """The graded part of one exercise: autograded answers and open questions."""

    answers: tuple[Answer, ...] = ()
    manual: tuple[Manual, ...] = field(default_factory=tuple)

    @property
    def points(self) -> float:
        """Autograded points."""
        return float(sum(a.points for a in self.answers))

    @property
    def manual_points(self) -> float:
        """Points graded by hand."""
        return float(sum(m.points for m in self.manual))

    def markdown(self) -> str:
        """What the book and the student notebook show under the exercise."""
        total = self.points + self.manual_points
        head = f"**Graded ({total:g} points"
        head += f", {self.manual_points:g} by hand)**" if self.manual else ")**"
        lines = [head, ""] + [f"- {a.describe()}" for a in self.answers]
        lines += [f"- {m.describe()}" for m in self.manual]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        return self.markdown()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description (answers and open questions)."""
        return {"answers": [a.to_dict() for a in self.answers], "manual": [m.to_dict() for m in self.manual]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Graded:
        """Inverse of :meth:`to_dict` (an ``expected`` value is ignored)."""
        def ans(a: dict[str, Any]) -> Answer:
            a = {k: v for k, v in a.items() if k != "expected"}
            a["options"] = tuple(a.get("options") or ())
            a["columns"] = tuple(a.get("columns") or ())
            return Answer(**a)

        return cls(tuple(ans(a) for a in d.get("answers", [])),
                   tuple(Manual(**m) for m in d.get("manual", [])))


def _relative(rel: float) -> str:
    """A relative tolerance in words: ``± 5% relative``, ``± 1e-09 relative`` (never ``± 0%``)."""
    return f"± {rel * 100:g}% relative" if rel >= 1e-3 else f"± {rel:g} relative"


def answer(name: str, kind: str, *, points: float = 1, abs: float = 0, rel: float = 0,  # noqa: A002
           options: Any = (), columns: Any = (), key: str | None = None, length: int | None = None,
           doc: str = "", why: str = "") -> Answer:
    """Declare an autograded answer (see :class:`Answer`)."""
    return Answer(name, kind, points, abs, rel, tuple(options), tuple(columns), key, length, doc, why)


def manual(question: str, *, rubric: str, points: float = 1) -> Manual:
    """Declare an open question graded by hand, with its rubric line."""
    return Manual(question, rubric, points)


def graded(*items: Answer | Manual) -> Graded:
    """The graded part of an exercise; displays as a Markdown list (points and checks).

    Raises
    ------
    ValueError
        Without an autograded answer, or with a name used twice.
    """
    answers = tuple(i for i in items if isinstance(i, Answer))
    manuals = tuple(i for i in items if isinstance(i, Manual))
    if len(answers) + len(manuals) != len(items):
        raise ValueError("graded() takes answer(...) and manual(...) items only")
    if not answers:
        raise ValueError("an exercise needs at least one autograded answer(...)")
    names = [a.name for a in answers]
    if len(set(names)) != len(names):
        raise ValueError(f"answer names used twice: {sorted({n for n in names if names.count(n) > 1})}")
    return Graded(answers, manuals)


def parse_declaration(source: str, where: str = "<cell>") -> Graded:
    """The :class:`Graded` declared by a ``graded`` cell (its last expression).

    The cell may import from ``ldpfair.classroom`` and must end with ``graded(...)``.

    Raises
    ------
    ValueError
        If the cell does not end with a ``graded(...)`` expression or the declaration is invalid.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise ValueError(f"{where}: the graded cell is not valid Python ({exc.msg}, "
                         f"line {exc.lineno})") from None
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        raise ValueError(f"{where}: the graded cell must end with a graded(...) expression")
    from .variants import vary  # a graded cell may declare its variant parameters too

    namespace: dict[str, Any] = {"answer": answer, "manual": manual, "graded": graded, "vary": vary}
    body = ast.Module(body=tree.body[:-1], type_ignores=[])
    try:
        exec(compile(body, where, "exec"), namespace)  # noqa: S102 - the chapter's own declaration cell
        value = eval(compile(ast.Expression(tree.body[-1].value), where, "eval"), namespace)  # noqa: S307
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if not isinstance(value, Graded):
        raise ValueError(f"{where}: the graded cell must end with graded(...), got {type(value).__name__}")
    return value
