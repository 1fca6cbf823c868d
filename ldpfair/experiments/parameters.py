"""Declared type and domain of the parameters of the paper notebooks.

Each chapter declares each parameter of its notebook's ``parameters`` cell once,
in its ``SPEC.parameters`` (see :mod:`ldpfair.papers.contract`), with the
constructors of this module (:func:`names`, :func:`epsilons`, :func:`seeds`,
:func:`choice`...): what it means, its domain in words, and a check that
converts a value or raises one :class:`ValueError` naming the parameter and what
is valid. :func:`ldpfair.experiments.notebooks.validate_parameters` applies these
checks to the values given on the command line (``ldpfair run -p NAME VALUE``)
before any kernel starts, then declares the chapter's experiments with the
resulting values (:func:`ldpfair.experiments.notebooks.build_check`), so a combination the chapter refuses
fails before the notebook runs too. ``ldpfair run --list`` prints the
declarations (:data:`ldpfair.experiments.notebooks.DECLARATIONS`). The chapters import
this module, so it never imports :mod:`ldpfair.papers`. A chapter's ``experiments``
module is cheap to import, so a bad value is still refused in well under a second.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .._validation import check_count, check_epsilon, check_n_jobs, check_real, did_you_mean, interval

__all__ = ["Param", "profile_param", "boolean", "integer", "real", "choice", "names", "epsilons", "seeds",
           "n_jobs_param"]

Check = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Param:
    """One declared notebook parameter.

    Attributes
    ----------
    meaning : str
        What the parameter does (one line).
    domain : str
        Its valid values, in words (shown by ``ldpfair run --list`` and in errors).
    check : callable
        ``check(value, name)`` returns the value (converted) or raises ValueError.
    accepts_text : bool
        Whether a command-line value that is not a Python literal is taken as a string.
    values : tuple, optional
        Every valid value, when there are finitely many (a choice, a switch).
    """

    meaning: str
    domain: str
    check: Check
    accepts_text: bool = False
    values: tuple[Any, ...] | None = None
    hint: str = ""

    @property
    def comment(self) -> str:
        """The comment of the parameter in the notebook's parameters cell (see :func:`parameters_cell`).

        The meaning, then the valid values in short (``hint``), unless the meaning
        already quotes each value of a choice.
        """
        if not self.hint or (self.values is not None and all(
                f"'{v}'" in self.meaning or f'"{v}"' in self.meaning for v in self.values)):
            return self.meaning
        return f"{self.meaning}; {self.hint}"


def _kind(value: Any) -> str:
    return f"the {type(value).__name__} {value!r}"


def _fail(name: str, domain: str, value: Any, extra: str = "") -> ValueError:
    return ValueError(f"parameter {name!r} must be {domain}; got {_kind(value)}{extra}")


def boolean(meaning: str) -> Param:
    """A ``True``/``False`` switch."""
    def check(value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise _fail(name, "True or False", value)
        return value

    return Param(meaning, "True or False", check, values=(True, False))


def integer(meaning: str, minimum: int, maximum: int | None = None) -> Param:
    """An integer in ``[minimum, maximum]``."""
    # In words, not ">=": papermill reads a parameters-cell line with a second "=" (in its
    # comment) as unparseable and warns on every run.
    domain = (f"an integer from {minimum} to {maximum}" if maximum is not None
              else f"an integer, at least {minimum}")

    def check(value: Any, name: str) -> int:
        try:
            return check_count(value, name, minimum=minimum, maximum=maximum)
        except (TypeError, ValueError):
            raise _fail(name, domain, value) from None

    return Param(meaning, domain, check, hint=domain)


def real(meaning: str, low: float, high: float = math.inf, *, low_open: bool = False,
         optional: str | None = None) -> Param:
    """A finite real in ``[low, high]`` (``(low, high]`` with ``low_open``); ``None`` if ``optional``."""
    domain = f"a real number in {interval(low, high, low_open=low_open)}"
    if optional:
        domain = f"None ({optional}) or {domain}"

    def check(value: Any, name: str) -> float | None:
        if value is None and optional:
            return None
        try:
            return check_real(value, name, low=low, high=high, low_open=low_open)
        except (TypeError, ValueError):
            raise _fail(name, domain, value) from None

    return Param(meaning, domain, check, hint=domain.replace("a real number in ", "in "))


def choice(meaning: str, values: Sequence[str]) -> Param:
    """One of ``values`` (a bare word on the command line is accepted)."""
    domain = "one of " + ", ".join(map(repr, values))

    def check(value: Any, name: str) -> str:
        if value not in values:
            raise _fail(name, domain, value, did_you_mean(value, values))
        return value

    return Param(meaning, domain, check, accepts_text=True, values=tuple(values),
                 hint=" or ".join(f'"{v}"' for v in values))


def names(meaning: str, values: Sequence[str], *, none: str | None = None) -> Param:
    """A non-empty list of distinct names from ``values`` (or ``None``, meaning ``none``, if given)."""
    domain = "a non-empty list of distinct names from " + ", ".join(map(repr, values))
    if none:
        domain = f"None ({none}) or {domain}"

    def check(value: Any, name: str) -> list[str] | None:
        if value is None and none:
            return None
        if isinstance(value, str):
            raise _fail(name, domain, value, f" (a list is written -p {name} '[\"{value}\"]')")
        if not isinstance(value, (list, tuple)) or not value:
            raise _fail(name, domain, value)
        for v in value:
            if v not in values:
                raise _fail(name, domain, value, f": unknown name {v!r}{did_you_mean(v, values)}")
        if len(set(value)) != len(value):
            raise _fail(name, domain, value, " (a name is repeated)")
        return list(value)

    hint = "a list of " + ", ".join(f'"{v}"' for v in values)
    return Param(meaning, domain, check, hint=f"None ({none}) or {hint}" if none else hint)


def epsilons(meaning: str, none: str) -> Param:
    """``None`` or a non-empty list of distinct privacy budgets in ``(0, inf)``."""
    domain = f"None ({none}) or a non-empty list of distinct privacy budgets > 0 (finite)"

    def check(value: Any, name: str) -> list[float] | None:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or not value:
            raise _fail(name, domain, value)
        out = []
        for v in value:
            try:
                out.append(check_epsilon(v, f"each budget of {name!r}"))
            except (TypeError, ValueError) as exc:
                raise _fail(name, domain, value, f": {exc}") from None
        if len(set(out)) != len(out):
            raise _fail(name, domain, value, " (a budget is repeated)")
        return out

    return Param(meaning, domain, check, hint=f"None ({none}) or a list of budgets > 0")


def seeds(meaning: str, none: str, *, lists: bool = True) -> Param:
    """``None``, a number of seeds >= 1, or (``lists``) a list of distinct seeds >= 0."""
    domain = f"None ({none}), a number of seeds >= 1"
    domain += ", or a non-empty list of distinct integer seeds >= 0" if lists else ""

    def check(value: Any, name: str) -> int | list[int] | None:
        if value is None:
            return None
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            if int(value) < 1:
                raise _fail(name, domain, value)
            return int(value)
        if lists and isinstance(value, (list, tuple)) and value and all(
                isinstance(v, numbers.Integral) and not isinstance(v, bool) and int(v) >= 0 for v in value):
            if len(set(value)) != len(value):
                raise _fail(name, domain, value, " (a seed is repeated)")
            return [int(v) for v in value]
        raise _fail(name, domain, value)

    hint = f"None ({none}), a number of seeds" + (" or a list of seeds" if lists else "")
    return Param(meaning, domain, check, hint=hint)


def n_jobs_param() -> Param:
    """Workers of the computation."""
    def check(value: Any, name: str) -> int | None:
        try:
            return check_n_jobs(value, f"parameter {name!r}")
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    return Param("parallel workers when computing (joblib)",
                 "None, an integer from 1 to 4 x the CPUs, or -1 .. -CPUs", check)


def profile_param() -> Param:
    """The ``profile`` parameter every notebook has."""
    return choice("'paper': render the committed full results; 'quick': compute a small grid",
                  ("paper", "quick"))
