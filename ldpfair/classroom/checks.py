"""Checks of graded answers, run inside the kernel that executed a notebook.

The tests that :mod:`ldpfair.classroom.export` generates call these functions with
the notebook's globals and a spec (an :class:`~ldpfair.classroom.answers.Answer`
as a dict, plus ``expected``: the key's value as JSON). A failed check raises
``AssertionError`` with one line (expected vs got), which Otter-Grader and
``ldpfair assignment grade`` show as the reason.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

__all__ = ["to_json", "compact", "capture", "check", "check_public", "run_checks", "report_public", "judge"]

_DEFAULTS: dict[str, Any] = {"points": 1, "abs": 0, "rel": 0, "options": [], "columns": [], "key": None,
                             "length": None, "doc": "", "why": "", "exercise": None, "expected": None}


def compact(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The spec without its descriptions and default values (what a generated test cell shows)."""
    return {k: v for k, v in spec.items() if k not in ("doc", "why") and _DEFAULTS.get(k, object()) != v}

_MISSING = object()


def _scalar(x: Any) -> Any:
    """Numpy scalars as Python scalars (others unchanged)."""
    item = getattr(x, "item", None)
    if callable(item) and getattr(x, "shape", None) == ():
        return item()
    return x


def _is_number(x: Any) -> bool:
    x = _scalar(x)
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _jsonable(x: Any) -> Any:
    x = _scalar(x)
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    if isinstance(x, str | bool | int | float) or x is None:
        return x
    return str(x)


def _short(x: Any, width: int = 70) -> str:
    x = _scalar(x)
    text = f"{x:.6g}" if _is_number(x) and not isinstance(x, int) else repr(x)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _table(df: Any, spec: Mapping[str, Any]) -> dict[str, Any]:
    key = spec.get("key")
    if key and key in df.columns:
        df = df.set_index(key)
    return {"index": [_jsonable(i) for i in df.index],
            "columns": {c: [_jsonable(v) for v in df[c]] for c in spec.get("columns", ())}}


def to_json(value: Any, spec: Mapping[str, Any]) -> Any:
    """The value of an answer in the JSON form the hidden tests compare against."""
    kind = spec["kind"]
    value = _scalar(value)
    if kind == "table":
        return _table(value, spec)
    if kind == "set":
        return sorted((_jsonable(v) for v in value), key=repr)
    if kind == "sequence":
        return [_jsonable(v) for v in value]
    return _jsonable(value)


def _close(got: Any, expected: Any, spec: Mapping[str, Any]) -> bool:
    got = _scalar(got)
    if _is_number(got) and _is_number(expected):
        tol = float(spec.get("abs") or 0) + float(spec.get("rel") or 0) * abs(float(expected))
        return bool(abs(float(got) - float(expected)) <= tol)
    if isinstance(got, str) and isinstance(expected, str) and spec.get("kind") == "text":
        return got.strip().casefold() == expected.strip().casefold()
    if isinstance(got, bool) or isinstance(expected, bool):
        return isinstance(got, bool) and isinstance(expected, bool) and got == expected
    try:
        return bool(got == expected)
    except (TypeError, ValueError):  # e.g. an array compared with a scalar
        return False


def _digits(expected: Any, got: Any) -> int:
    """Significant digits that show two different numbers as different (6 at least, 17 at most)."""
    if not (_is_number(expected) and _is_number(got)) or isinstance(_scalar(got), int):
        return 6
    for digits in range(6, 18):
        if f"{float(expected):.{digits}g}" != f"{float(got):.{digits}g}":
            return digits
    return 17


def _differ(expected: Any, got: Any, spec: Mapping[str, Any]) -> str:
    """``expected E ± T, got G``, with E and G at enough digits to see that they differ."""
    tol = ""
    if _is_number(expected) and (spec.get("abs") or spec.get("rel")):
        width = float(spec.get("abs") or 0) + float(spec.get("rel") or 0) * abs(float(expected))
        tol = f" ± {width:.2g}"
    digits = _digits(expected, got)

    def text(x: Any) -> str:
        return f"{float(x):.{digits}g}" if digits > 6 and _is_number(x) else _short(x)

    return f"expected {text(expected)}{tol}, got {text(got)}"


def _public_problem(value: Any, spec: Mapping[str, Any]) -> str | None:
    """Why ``value`` has the wrong type or shape for ``spec`` (None when fine)."""
    kind, value = spec["kind"], _scalar(value)
    if value is Ellipsis:
        return "is still `...`: bind it to your answer"
    if kind == "number":
        if not _is_number(value) or not math.isfinite(float(value)):
            return f"should be a finite real number, got {type(value).__name__} {_short(value)}"
    elif kind == "integer":
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            return f"should be an integer, got {type(value).__name__} {_short(value)}"
    elif kind == "bool":
        if not isinstance(value, bool):
            return f"should be True or False, got {type(value).__name__} {_short(value)}"
    elif kind == "text":
        if not isinstance(value, str):
            return f"should be a string, got {type(value).__name__} {_short(value)}"
    elif kind == "choice":
        if not any(_close(value, o, spec) for o in spec.get("options", ())):
            return f"should be one of {', '.join(map(repr, spec['options']))}, got {_short(value)}"
    elif kind in ("set", "sequence"):
        if isinstance(value, str | bytes | Mapping) or not hasattr(value, "__iter__"):
            return f"should be a {'set' if kind == 'set' else 'list'} of values, got {type(value).__name__}"
        if spec.get("length") is not None and len(list(value)) != spec["length"]:
            return f"should hold {spec['length']} values, got {len(list(value))}"
    elif kind == "table":
        if not (hasattr(value, "columns") and hasattr(value, "index")):
            return f"should be a pandas DataFrame, got {type(value).__name__}"
        need = [c for c in spec.get("columns", ()) if c not in value.columns]
        key = spec.get("key")
        if key and key not in value.columns and value.index.name != key:
            need.append(key)
        if need:
            has = ", ".join(map(str, value.columns))
            return f"should have the columns {', '.join(map(repr, need))} (has {has})"
    return None


def _value_problem(value: Any, spec: Mapping[str, Any]) -> str | None:
    """Why ``value`` differs from ``spec['expected']`` (None when it matches)."""
    problem = _public_problem(value, spec)
    if problem:
        return problem
    return _json_problem(to_json(value, spec), spec)


def _json_problem(got: Any, spec: Mapping[str, Any]) -> str | None:
    """Why the JSON form ``got`` differs from ``spec['expected']`` (None when it matches)."""
    kind, expected = spec["kind"], spec["expected"]
    if kind == "table":
        if not isinstance(got, Mapping) or not isinstance(got.get("columns"), Mapping):
            return "should be a table"
        if sorted(map(repr, got["index"])) != sorted(map(repr, expected["index"])):
            return f"rows {_short(got['index'])} differ from the expected {_short(expected['index'])}"
        row_of = {repr(k): i for i, k in enumerate(got["index"])}
        for col in spec.get("columns", ()):
            for i, label in enumerate(expected["index"]):
                g, e = got["columns"][col][row_of[repr(label)]], expected["columns"][col][i]
                if not _close(g, e, spec):
                    return f"column {col!r}, row {label!r}: {_differ(e, g, spec)}"
        return None
    if kind in ("set", "sequence"):
        if not isinstance(got, list):
            return f"should be a list of values, got {type(got).__name__}"
        if len(got) != len(expected):
            return f"expected {len(expected)} values {_short(expected)}, got {len(got)}: {_short(got)}"
        if kind == "set":
            remaining = list(expected)
            for g in got:
                match = next((i for i, e in enumerate(remaining) if _close(g, e, spec)), None)
                if match is None:
                    return f"expected {_short(expected)}, got {_short(got)} ({_short(g)} is not expected)"
                remaining.pop(match)
            return None
        for i, (g, e) in enumerate(zip(got, expected, strict=True)):
            if not _close(g, e, spec):
                return f"value {i}: {_differ(e, g, spec)}"
        return None
    if not _close(got, expected, spec):
        return _differ(expected, got, spec)
    return None


def judge(answer: Mapping[str, Any] | None, spec: Mapping[str, Any]) -> str:
    """Compare an answer the sandbox brought back (``{"value"}`` or ``{"problem"}``) with the key.

    Runs in the grader's process; returns "" when right, else one line saying why.
    """
    name = spec["name"]
    if not isinstance(answer, Mapping) or not ("value" in answer or "problem" in answer):
        return f"{name} is not defined: bind it in your answer"
    if answer.get("problem"):
        return f"{name} {answer['problem']}"
    try:
        problem = _json_problem(answer.get("value"), spec)
    except Exception as exc:  # noqa: BLE001 - the JSON came from a student's kernel
        problem = f"could not be compared ({type(exc).__name__})"
    return f"{name}: {problem}" if problem else ""


def _lookup(env: Mapping[str, Any], spec: Mapping[str, Any]) -> Any:
    value = env.get(spec["name"], _MISSING)
    if value is _MISSING:
        raise AssertionError(f"{spec['name']} is not defined: bind it in your answer")
    return value


def check_public(env: Mapping[str, Any], spec: Mapping[str, Any]) -> None:
    """Public test: the answer exists and has the declared type and shape."""
    problem = _public_problem(_lookup(env, spec), spec)
    if problem:
        raise AssertionError(f"{spec['name']} {problem}")


def check(env: Mapping[str, Any], spec: Mapping[str, Any]) -> None:
    """Hidden test: the answer matches the key's value within the declared tolerance."""
    value = _lookup(env, spec)
    problem = _public_problem(value, spec)
    if problem:
        raise AssertionError(f"{spec['name']} {problem}")
    problem = _value_problem(value, spec)
    if problem:
        raise AssertionError(f"{spec['name']}: {problem}")


def capture(env: Mapping[str, Any], specs: list[Mapping[str, Any]]) -> dict[str, Any]:
    """The key's values of the answers, as JSON, with the error of each one that is missing or malformed."""
    out: dict[str, Any] = {}
    for spec in specs:
        value = env.get(spec["name"], _MISSING)
        if value is _MISSING:
            out[spec["name"]] = {"error": "not defined by the solution"}
            continue
        problem = _public_problem(value, spec)
        if problem:
            out[spec["name"]] = {"error": problem}
            continue
        out[spec["name"]] = {"value": to_json(value, spec)}
    return out


def run_checks(env: Mapping[str, Any], specs: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every hidden test: one ``{"name", "points", "score", "message"}`` per answer, never raising."""
    results = []
    for spec in specs:
        try:
            check(env, spec)
            score, message = float(spec.get("points", 1)), ""
        except AssertionError as exc:
            score, message = 0.0, str(exc)
        except Exception as exc:  # noqa: BLE001 - a student's object may fail in any way
            score, message = 0.0, f"{spec['name']}: checking it raised {type(exc).__name__}: {exc}"
        results.append({"name": spec["name"], "points": float(spec.get("points", 1)), "score": score,
                        "message": message})
    return results


def report_public(env: Mapping[str, Any], specs: list[Mapping[str, Any]]) -> None:
    """Print one line per answer: its type and shape are right, or what is wrong (never raises)."""
    for spec in specs:
        try:
            check_public(env, spec)
            points = spec.get("points", 1)
            print(f"{spec['name']}: the type is right ({points:g} point(s) if the value is right)")
        except AssertionError as exc:
            print(f"{spec['name']}: NOT YET: {exc}")
