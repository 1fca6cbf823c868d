"""Per-student variants of an assignment: declared parameters, reproducible draws, tamper-evident stamps.

An exercise declares the parameters a variant may change in a code cell tagged
``variant`` between the ``{exercise}`` directive and its solution (or among the
statements of its ``graded`` cell)::

    from ldpfair.classroom import vary

    ex1_seed = vary(0, values=range(1, 10), doc="random_state of both fits")

In the book the cell binds the default (``vary`` returns it), so the solution uses
the name; the export injects the name with the variant's value into the handout's
(and the key's) ``parameters`` cell. A variant never takes a parameter's book value,
so the book's public solution does not answer it.

``ldpfair assignment PAPER --variants N`` (or ``--students FILE``) draws the variants
from a seed (:class:`numpy.random.SeedSequence`), computes one key per variant, and
stamps each handout with an HMAC of (assignment, variant id, parameters) under an
instructor secret written beside the keys (``<paper>_variants.json``, never in a
handout). The grader checks the stamp and grades each submission against its own
variant's key; a missing or edited stamp gets 0 and one line saying why.
"""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["VARIANT_TAG", "Vary", "vary", "parse_variants", "inject", "draw_variants", "read_students",
           "stamp", "Variants", "load_variants", "MANIFEST_SUFFIX"]

#: Tag of the code cell declaring an exercise's variant parameters.
VARIANT_TAG = "variant"
#: The instructor's file beside the keys: secret, seed, each variant's parameters and key, students.
MANIFEST_SUFFIX = "_variants.json"
_STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,99}$")


def _plain(value: Any, where: str) -> Any:
    """A parameter value as plain JSON data (numbers, strings, bools, lists of them)."""
    if isinstance(value, bool | str) or value is None:
        return value
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{where}: values must be finite, got {value!r}")
        return value
    if isinstance(value, list | tuple):
        return [_plain(v, where) for v in value]
    raise ValueError(f"{where}: values must be numbers, strings, booleans or lists of them, "
                     f"got {type(value).__name__}")


@dataclass(frozen=True)
class Vary:
    """A parameter a variant may change: its name, the book's value and the values variants take.

    Parameters
    ----------
    name : str
        The global the solution reads (unique in the chapter).
    default : Any
        The book's value (what :func:`vary` returns in the chapter).
    values : tuple
        The values variants draw from; the default is never drawn.
    doc : str
        What it is, shown to students beside its value.
    """

    name: str
    default: Any
    values: tuple[Any, ...]
    doc: str = ""

    @property
    def pool(self) -> list[Any]:
        """The values a variant draws from: the declared ones but the book's."""
        return [v for v in self.values if v != self.default]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description."""
        return {"name": self.name, "default": self.default, "values": list(self.values), "doc": self.doc}


def vary(default: Any, values: Iterable[Any], *, doc: str = "") -> Any:
    """Declare a variant parameter in a ``variant`` cell; in the chapter it is ``default``.

    Parameters
    ----------
    default : Any
        The book's value.
    values : iterable
        The values a variant may take (plain data: numbers, strings, booleans, lists of them);
        at least one besides ``default``.
    doc : str
        What the parameter is.
    """
    return default


def _is_vary(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "vary")


def parse_variants(source: str, where: str = "<cell>", *, graded: bool = False) -> tuple[Vary, ...]:
    """The parameters declared by a ``variant`` cell: imports and ``NAME = vary(...)`` statements.

    With ``graded=True`` the source is an exercise's ``graded`` cell, which may declare its
    variant parameters among its other statements: only the ``NAME = vary(...)`` ones are read
    (none is fine).

    Raises
    ------
    ValueError
        One line for any other statement, a name used twice, a non-plain value, or no value
        besides the default.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise ValueError(f"{where}: the variant cell is not valid Python ({exc.msg}, line {exc.lineno})") \
            from None
    if graded:
        tree.body = [s for s in tree.body if _is_vary(s)]
        if not tree.body:
            return ()
    out: list[Vary] = []

    def record(default: Any, values: Iterable[Any], *, doc: str = "") -> tuple[Any, tuple[Any, ...], str]:
        return default, tuple(values), doc

    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom | ast.Import):
            continue
        if not _is_vary(stmt):
            raise ValueError(f"{where}: line {stmt.lineno}: a variant cell holds only `NAME = vary(default, "
                             "values=[...], doc=...)` statements")
        assert isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)
        name = stmt.targets[0].id
        try:
            call = eval(compile(ast.Expression(stmt.value), where, "eval"),  # noqa: S307 - the chapter's cell
                        {"vary": record, "range": range, "__builtins__": {}})
        except Exception as exc:  # noqa: BLE001 - any bad declaration, one line
            raise ValueError(f"{where}: {name}: {type(exc).__name__}: {exc}") from None
        default, values, doc = call
        spec = Vary(name, _plain(default, f"{where}: {name}"),
                    tuple(_plain(v, f"{where}: {name}") for v in values), doc)
        if not spec.pool:
            raise ValueError(f"{where}: {name}: give at least one value besides the default {default!r}")
        if any(v.name == name for v in out):
            raise ValueError(f"{where}: {name} is declared twice")
        out.append(spec)
    if not out:
        raise ValueError(f"{where}: the variant cell declares no parameter (NAME = vary(...))")
    return tuple(out)


def _literal(value: Any) -> str:
    return repr(value)


def inject(nb: Any, params: Mapping[str, Any], specs: Sequence[Vary], label: str) -> None:
    """Append the exercise parameters to ``nb``'s ``parameters`` cell and state them under each exercise.

    ``label`` says whose values they are ("the book's values", "variant v03").
    """
    if not specs:
        return
    cells = [c for c in nb.cells if c.cell_type == "code" and "parameters" in (c.metadata.get("tags") or [])]
    if not cells:
        raise ValueError("the notebook has no parameters cell to hold the exercise parameters")
    lines = [f"# exercise parameters ({label}): the exercises below use these values"]
    lines += [f"{s.name} = {_literal(params[s.name])}" for s in specs]
    cell = cells[0]
    cell.source = cell.source.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"


def describe_parameters(specs: Sequence[Vary], params: Mapping[str, Any]) -> str:
    """One Markdown line naming each parameter and its value."""
    return "Parameters of this exercise (set in the parameters cell): " + "; ".join(
        f"`{s.name} = {_literal(params[s.name])}`" + (f" ({s.doc})" if s.doc else "") for s in specs) + "."


def _check_count(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"{what} must be an integer >= 1, got {n!r}")
    return n


def draw_variants(specs: Sequence[Vary], n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` variants' parameters, drawn reproducibly from ``seed``.

    Each parameter's pool (its values but the book's) is shuffled once by a generator
    spawned from ``SeedSequence(seed)``; variant ``i`` takes entry ``i`` modulo the pool's
    size, so every value is used as evenly as ``n`` allows and variants differ in every
    parameter whose pool has ``n`` values or more.
    """
    import numpy as np

    _check_count(n, "the number of variants (--variants)")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"the seed (--seed) must be an integer >= 0, got {seed!r}")
    children = np.random.SeedSequence(seed).spawn(len(specs))
    order = {s.name: np.random.default_rng(c).permutation(len(s.pool)) for s, c in zip(specs, children,
                                                                                         strict=True)}
    return [{s.name: s.pool[int(order[s.name][i % len(s.pool)])] for s in specs} for i in range(n)]


def read_students(path: str | os.PathLike[str]) -> list[str]:
    """Student ids from a file, one a line (blank lines and ``#`` comments skipped).

    Raises
    ------
    ValueError
        For a missing or empty file, an id that is not a plain name, or an id given twice.
    """
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"students file {str(p)!r} does not exist; give a text file with one student id "
                         "a line")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"students file {str(p)!r} cannot be read as UTF-8 text ({type(exc).__name__})") \
            from None
    ids: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        sid = line.split("#", 1)[0].strip()
        if not sid:
            continue
        if not _STUDENT_ID.match(sid):
            raise ValueError(f"students file {str(p)!r}, line {number}: {sid!r} is not a valid student id "
                             "(letters, digits and . _ @ + -, starting with a letter or digit, <= 100)")
        if sid in ids:
            raise ValueError(f"students file {str(p)!r}, line {number}: student {sid!r} is listed twice")
        ids.append(sid)
    if not ids:
        raise ValueError(f"students file {str(p)!r} lists no student id (one a line)")
    return ids


def _message(assignment: str, variant: str, params: Mapping[str, Any]) -> bytes:
    return json.dumps({"assignment": assignment, "variant": variant, "parameters": dict(params)},
                      sort_keys=True, separators=(",", ":")).encode()


def stamp(secret: str, assignment: str, variant: str, params: Mapping[str, Any]) -> str:
    """HMAC-SHA256 (hex) of (assignment, variant id, parameters) under the instructor's secret."""
    return hmac.new(bytes.fromhex(secret), _message(assignment, variant, params), hashlib.sha256).hexdigest()


@dataclass
class Variants:
    """An assignment's variants, as the instructor's ``<paper>_variants.json`` records them."""

    path: Path
    assignment: str
    seed: int
    secret: str
    variants: dict[str, dict[str, Any]]
    students: dict[str, str] = field(default_factory=dict)

    def key_path(self, variant: str) -> Path:
        """The key of one variant (beside the manifest)."""
        return self.path.parent / self.variants[variant]["key"]

    def check(self, meta: Mapping[str, Any], student: str) -> tuple[str, str]:
        """``(variant id, "")`` for a submission whose stamp verifies, else ``(id or "", why)``.

        ``meta`` is the submission's ``metadata.ldpfair``; ``student`` its student id.
        """
        stamp_meta = meta.get("variant")
        fields = ("id", "parameters", "stamp")
        if not isinstance(stamp_meta, Mapping) or not all(k in stamp_meta for k in fields):
            return "", ("variant stamp missing (metadata ldpfair.variant): this assignment is graded per "
                        "variant; submit the handout you were given with its stamp as it was")
        vid, params, mark = stamp_meta["id"], stamp_meta["parameters"], stamp_meta["stamp"]
        if not isinstance(vid, str) or vid not in self.variants:
            return "", f"variant stamp names {vid!r}, which this assignment does not have"
        if not isinstance(params, Mapping) or not isinstance(mark, str) \
                or not hmac.compare_digest(stamp(self.secret, self.assignment, vid, params), mark) \
                or dict(params) != self.variants[vid]["parameters"]:
            return vid, (f"variant stamp does not verify (its variant or parameters were edited; it says "
                         f"{vid}): graded 0")
        given = self.students.get(student)
        if given is not None and given != vid:
            return vid, f"student {student} was given variant {given}, this notebook carries {vid}: graded 0"
        return vid, ""


def load_variants(path: str | os.PathLike[str]) -> Variants:
    """Read ``<paper>_variants.json`` (or the folder holding one).

    Raises
    ------
    ValueError
        If it is missing, not one such file, or damaged.
    """
    p = Path(path)
    if p.is_dir():
        found = sorted(p.glob(f"*{MANIFEST_SUFFIX}"))
        if len(found) != 1:
            raise ValueError(f"folder {str(p)!r} holds {len(found)} *{MANIFEST_SUFFIX} files; give the one "
                             "`ldpfair assignment PAPER --variants N` wrote")
        p = found[0]
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        out = Variants(p, str(data["assignment"]), int(data["seed"]), str(data["secret"]),
                       dict(data["variants"]), dict(data.get("students") or {}))
        bytes.fromhex(out.secret)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"variants file {str(p)!r} is not one `ldpfair assignment --variants` wrote "
                         f"({type(exc).__name__})") from None
    return out
