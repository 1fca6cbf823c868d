"""The identity of a callable in task keys, and how to pin it.

Every cell of a :class:`~ldpfair.experiments.Grid` or
:class:`~ldpfair.experiments.Sweep` is keyed (and its random generator seeded)
by a description of what it computes. Callables in that description — a sweep's
function, a model factory, a mechanism factory — are named by
:func:`callable_id`:

- by default ``callable:<module>.<qualname>:<sha256 of the source, 12 hex>``, so
  that editing a function invalidates its cached cells. That is the right
  default in an interactive session, but for results committed to the
  repository it is too strict: a docstring edit, or moving the function to
  another module, would orphan every committed cell (and change its draws);
- a callable decorated with :func:`versioned` carries an explicit identity
  ``callable:<name>:<version>`` instead. The name is fixed when the function is
  declared (moving it keeps its cells) and the version changes only when its
  author says that what it computes has changed.

Every callable behind the committed paper profiles is pinned (a test in
``tests/test_papers.py`` checks it); pins made for results computed before
explicit versions existed keep the name and source digest they were computed
under as their version.

>>> @versioned("2")
... def cell(n, rng):
...     return {"mean": float(rng.normal(size=n).mean())}
>>> callable_id(cell).endswith(".cell:2")
True
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["callable_id", "draws_identity", "versioned", "pinned_identity", "check_version"]

F = TypeVar("F", bound=Callable[..., Any])

#: The attribute :func:`versioned` sets: ``(name, version)``.
ATTRIBUTE = "__ldpfair_identity__"
#: The attribute :func:`versioned` sets when ``draws`` is given: the version whose draws are kept.
DRAWS_ATTRIBUTE = "__ldpfair_draws__"

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_<>][A-Za-z0-9_<>]*)*")
_VERSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


def versioned(version: str, *, name: str | None = None, draws: str | None = None) -> Callable[[F], F]:
    """Pin the identity of a function or class in task keys.

    Parameters
    ----------
    version : str
        What the callable computes, in its author's words: change it when (and
        only when) the committed results computed with it should be recomputed.
        Letters, digits and ``_.+-``.
    name : str, optional
        Dotted name used in the key; default ``<module>.<qualname>`` at
        declaration. Give the former name when moving a function whose results
        are committed.
    draws : str, optional
        The version whose random draws this one keeps (default: its own). A
        :class:`~ldpfair.experiments.Sweep` seeds each task's generator with the
        function's identity; with ``draws`` it seeds it with
        ``callable:<name>:<draws>`` instead, while the cache key takes ``version``.
        Use it when a new version changes what is computed from the same data
        (a solver, a statistic) and the comparison with the former results should
        isolate that change: same draws, new keys, recomputed cells.

    Returns
    -------
    callable
        A decorator returning its argument unchanged but for the pinned identity.

    Raises
    ------
    ValueError
        If ``version``, ``draws`` or ``name`` is empty or has characters other than the ones above.
    """
    check_version(version)
    if draws is not None:
        check_version(draws)
    if name is not None and (not isinstance(name, str) or not _NAME.fullmatch(name)):
        raise ValueError(f"name must be a dotted Python name such as 'pkg.module.func', got {name!r}")

    def decorate(obj: F) -> F:
        if not callable(obj):
            raise TypeError(f"versioned() decorates a function or class, got {type(obj).__name__}")
        label = name or f"{obj.__module__}.{obj.__qualname__}"
        setattr(obj, ATTRIBUTE, (label, version))
        if draws is not None and draws != version:
            setattr(obj, DRAWS_ATTRIBUTE, draws)
        return obj

    return decorate


def check_version(version: object) -> str:
    """Return ``version`` if it is a valid explicit version, else raise one clear ``ValueError``."""
    if not isinstance(version, str) or not _VERSION.fullmatch(version):
        raise ValueError(f"version must be a non-empty string of letters, digits and '_.+-', got {version!r}")
    return version


def pinned_identity(obj: object) -> tuple[str, str] | None:
    """``(name, version)`` pinned on ``obj`` itself by :func:`versioned`, or ``None``.

    Only the object's own attribute counts: a subclass of a pinned class is not
    pinned (it computes something else).
    """
    target = getattr(obj, "__dict__", None)
    if target is None:
        return None
    ident = target.get(ATTRIBUTE)
    return None if ident is None else (str(ident[0]), str(ident[1]))


def callable_id(obj: object) -> object:
    """Stable identity of ``obj`` for cache keys.

    Strings and ``None`` are returned as is; a :func:`functools.partial` is
    described by its function and arguments; a callable pinned by
    :func:`versioned` is ``"callable:<name>:<version>"``; any other callable (or
    the class of a callable instance) is ``"callable:<module>.<qualname>:<digest>"``
    where the digest hashes its source, so that an edited factory invalidates
    its cached cells.
    """
    if isinstance(obj, str) or obj is None:
        return obj
    if isinstance(obj, functools.partial):
        return {
            "partial": callable_id(obj.func),
            "args": [repr(a) for a in obj.args],
            "keywords": {k: repr(v) for k, v in sorted(obj.keywords.items())},
        }
    target: Any = obj if inspect.isroutine(obj) or inspect.isclass(obj) else type(obj)
    pin = pinned_identity(target)
    if pin is not None:
        return f"callable:{pin[0]}:{pin[1]}"
    try:
        digest = _source_digest(target)
    except TypeError:  # an unhashable callable: not memoised
        digest = _source_digest.__wrapped__(target)
    name = f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', type(obj).__name__)}"
    return f"callable:{name}:{digest}"


def draws_identity(obj: object) -> str | None:
    """``"callable:<name>:<draws>"`` if ``obj`` was pinned with ``versioned(..., draws=)``, else ``None``.

    The identity that seeds ``obj``'s random draws in place of its own
    (:func:`callable_id`) when it keeps an earlier version's draws.
    """
    pin = pinned_identity(obj)
    kept = getattr(obj, "__dict__", {}).get(DRAWS_ATTRIBUTE)
    return None if pin is None or kept is None else f"callable:{pin[0]}:{kept}"


@functools.lru_cache(maxsize=4096)
def _source_digest(target: object) -> str:
    """sha256 prefix of ``target``'s source (``"nosource"`` without one), memoised per object.

    ``inspect.getsource`` reads and tokenises the whole module on every call; a grid
    asks for the same few functions once per task (tens of thousands of times when
    the book loads every committed result). A redefined function is a new object,
    so an edit in an interactive session still gets a new digest.
    """
    try:
        src = inspect.getsource(target)  # type: ignore[arg-type]
    except (OSError, TypeError):
        src = ""
    return hashlib.sha256(src.encode()).hexdigest()[:12] if src else "nosource"
