"""Input validation shared by every module of :mod:`ldpfair`: one family of checks.

Each ``check_*`` returns the value (as a plain Python or numpy type) or raises
:class:`TypeError` for a wrong type and :class:`ValueError` for a value out of
range, with one message that names the argument, the value received and what is
valid. Nothing is silently coerced: a bool is not an integer, a float is not a
count, NaN and infinities are refused unless a check says otherwise.

Scalars: :func:`check_count` (integers in a range), :func:`check_real` (finite
reals in an interval), :func:`check_probability`, :func:`check_epsilon`,
:func:`check_domain_size`, :func:`check_choice` (one of listed strings),
:func:`check_member` (one of listed values, of the same type: ``True`` is not
``1``, ``3.0`` is not ``3``), :func:`check_bool` (``True`` or ``False``: Python
``bool`` or ``numpy.bool_``, never a string or a number), :func:`check_scalar_label`
(one group label, not a list), :func:`check_rate_names` (``True``/``False`` or a
sequence of listed names, never a bare string), :func:`check_n_jobs`.
Arrays (vectorised, one pass each, for arguments, never per user in a loop):
:func:`check_values` (integer codes in ``[0, k)``), :func:`check_real_array`
(numbers, not bools or strings, finite and in an interval), :func:`check_label_types`
(group labels of one type, so ``0`` and ``'0'`` are not merged).
Other: :func:`check_rng`, :func:`check_allocation`, :func:`check_creatable`;
:func:`interval` and :func:`did_you_mean` word messages.

:func:`sklearn.utils.check_scalar` is not used: it accepts ``True`` as an
integer and NaN or infinity as a real within any bounds, and its messages
(``"x == -1, must be >= 0."``) are not those of this family.
"""

from __future__ import annotations

import difflib
import math
import numbers
import os
from collections.abc import Iterable, Sequence
from typing import Any, TypeGuard

import numpy as np

__all__ = [
    "as_array",
    "check_creatable",
    "check_epsilon",
    "check_domain_size",
    "check_values",
    "check_rng",
    "check_probability",
    "check_choice",
    "check_count",
    "check_real",
    "interval",
    "check_n_jobs",
    "did_you_mean",
    "check_allocation",
    "spawn_rngs",
    "check_bool",
    "check_member",
    "check_real_array",
    "check_label_types",
    "check_scalar_label",
    "check_rate_names",
]


def _is_integer(value: object) -> TypeGuard[numbers.Integral]:
    """Whether ``value`` is an integer (numpy integers included, bools excluded)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_real(value: object) -> TypeGuard[numbers.Real]:
    """Whether ``value`` is a real number (numpy floats and integers included, bools excluded)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def interval(low: float = -math.inf, high: float = math.inf, *, low_open: bool = False,
             high_open: bool = False) -> str:
    """Word an interval: ``"[0, 1]"``, ``"(0, inf)"`` (an infinite end is always open).

    Parameters
    ----------
    low, high : float
        The ends.
    low_open, high_open : bool
        Whether an end is excluded.

    Returns
    -------
    str
    """
    left = "(" if low_open or math.isinf(low) else "["
    right = ")" if high_open or math.isinf(high) else "]"
    return f"{left}{low:g}, {high:g}{right}"


def check_epsilon(epsilon: object, name: str = "epsilon", *, allow_inf: bool = False) -> float:
    """Return ``epsilon`` as a float after checking it is a valid privacy budget.

    Parameters
    ----------
    epsilon : float
        The privacy budget. Must be a real number > 0; ``inf`` only when
        ``allow_inf`` is true (meaning "no privacy").
    name : str
        Argument name used in the error message.
    allow_inf : bool
        Whether ``float('inf')`` is accepted.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``epsilon`` is not a finite positive real (or inf when allowed).
    """
    if not _is_real(epsilon):
        raise TypeError(f"{name} must be a real number > 0, got {epsilon!r} ({type(epsilon).__name__})")
    value = float(epsilon)
    if np.isnan(value):
        raise ValueError(f"{name} must be a real number > 0, got nan")
    if np.isinf(value):
        if allow_inf and value > 0:
            return value
        valid = "(0, inf]" if allow_inf else "(0, inf) (finite)"
        raise ValueError(f"{name} must lie in {valid}, got {value}")
    if value <= 0:
        valid = "(0, inf]" if allow_inf else "(0, inf)"
        raise ValueError(f"{name} must lie in {valid}, got {value}")
    if value < 1.0 and math.exp(value) == 1.0:
        # e^epsilon rounds to 1: every protocol's p and q coincide, estimators divide by 0
        raise ValueError(f"{name} = {value!r} is too small: exp({name}) rounds to 1 in floating point, "
                         f"so the mechanism's probabilities p and q are equal; use a larger {name}")
    return value


def check_domain_size(k: object, name: str = "k", *, minimum: int = 2) -> int:
    """Return the domain size ``k`` as an int after checking ``k >= minimum``.

    ``minimum`` is 2 for an LDP protocol (a domain needs two values); a feature
    encoding accepts 1 (a constant feature).

    Raises
    ------
    TypeError
        If ``k`` is not an integer.
    ValueError
        If ``k < minimum``.
    """
    if not _is_integer(k):
        if isinstance(k, (bool, np.bool_)):
            raise TypeError(f"{name} must be an integer >= {minimum}, got the boolean {k!r}")
        if isinstance(k, numbers.Real) and float(k).is_integer():
            raise TypeError(f"{name} must be an integer >= {minimum}, got the float {k!r}")
        raise TypeError(f"{name} must be an integer >= {minimum}, got {k!r} ({type(k).__name__})")
    k = int(k)
    if k < minimum:
        why = " (a domain needs two values)" if minimum == 2 else ""
        raise ValueError(f"{name} must be an integer >= {minimum}{why}, got {k}")
    return k


def as_array(values: object, name: str, dtype: Any = None) -> np.ndarray:
    """``np.asarray(values)``; a ragged list of lists is a one-line ValueError naming ``name``."""
    try:
        return np.asarray(values, dtype=dtype)
    except ValueError as exc:
        if "inhomogeneous" not in str(exc) and "sequence" not in str(exc):
            raise
        lengths = sorted({len(v) for v in values if hasattr(v, "__len__")}) \
            if isinstance(values, (list, tuple)) else []
        seen = f" (row lengths {', '.join(map(str, lengths[:5]))})" if len(lengths) > 1 else ""
        raise ValueError(f"{name} must be a rectangular array (every row of the same length), got a "
                         f"ragged list of lists{seen}") from None


def check_values(values: object, k: int, name: str = "values") -> np.ndarray:
    """Return ``values`` as a 1-D int64 array after checking it lies in ``[0, k)``.

    Parameters
    ----------
    values : array-like of int
        One value per user, coded ``0 .. k-1``.
    k : int
        Domain size.
    name : str
        Argument name used in the error message.

    Raises
    ------
    ValueError
        If the array is not one-dimensional, holds non-integers, or any value
        lies outside ``[0, k)``.
    """
    arr = as_array(values, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional (one value per user), got shape {arr.shape}")
    if arr.dtype.kind not in "iu":
        if arr.dtype.kind == "b":
            raise ValueError(f"{name} must hold integers in [0, {k}), got booleans")
        integral = arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr))
        if arr.size and integral:
            raise ValueError(
                f"{name} must have an integer dtype (codes in [0, {k})), got {arr.dtype}; "
                "convert explicitly with .astype(int) if the floats are codes"
            )
        raise ValueError(f"{name} must hold integers in [0, {k}), got dtype {arr.dtype}")
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0 or hi >= k:
            bad = arr[(arr < 0) | (arr >= k)]
            raise ValueError(
                f"{name} must lie in [0, {k}) (domain size k={k}); found {bad.size} value(s) outside, "
                f"e.g. {int(bad[0])}"
            )
    return arr.astype(np.int64, copy=False)


def check_rng(rng: object, name: str = "rng") -> np.random.Generator:
    """Return a :class:`numpy.random.Generator` from ``rng``.

    Accepts a ``Generator``, a ``SeedSequence`` or a non-negative int seed. ``None``
    and the legacy ``RandomState`` are refused: every random draw in ldpfair comes
    from an explicit, seeded generator.
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if _is_integer(rng):
        if int(rng) < 0:
            raise ValueError(f"{name} seed must be a non-negative integer, got {rng}")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"{name} must be a numpy.random.Generator, a SeedSequence or a non-negative int seed, "
        f"got {rng!r}; e.g. rng=np.random.default_rng(0)"
    )


def check_real(
    value: object,
    name: str,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    low_open: bool = False,
    high_open: bool = False,
    why: str = "",
) -> float:
    """Return ``value`` as a float after checking it is a finite real in ``[low, high]``.

    Parameters
    ----------
    value : real
        The value; a bool or a string is refused, NaN and infinities too.
    name : str
        Argument name used in the message.
    low, high : float
        The ends of the interval (default: the whole real line).
    low_open, high_open : bool
        Whether an end is excluded (``low_open=True``: ``value > low``).
    why : str
        Appended to the valid range in the message, e.g. ``" (a slack)"``.

    Returns
    -------
    float

    Raises
    ------
    TypeError
        If ``value`` is not a real number.
    ValueError
        If it is NaN, infinite or outside the interval:
        ``"<name> must lie in [low, high]<why>, got <value>"``.
    """
    valid = interval(low, high, low_open=low_open, high_open=high_open)
    if not _is_real(value):
        raise TypeError(f"{name} must be a real number in {valid}{why}, got {value!r} "
                        f"({type(value).__name__})")
    v = float(value)
    inside = (v > low if low_open else v >= low) and (v < high if high_open else v <= high)
    if not (math.isfinite(v) and inside):
        raise ValueError(f"{name} must lie in {valid}{why}, got {v}")
    return v


def check_probability(p: object, name: str, *, open_interval: bool = False) -> float:
    """Return ``p`` as a float after checking it lies in [0, 1] (or (0, 1)): :func:`check_real`."""
    return check_real(p, name, low=0.0, high=1.0, low_open=open_interval, high_open=open_interval)


def did_you_mean(value: object, choices: Iterable[object]) -> str:
    """``" (did you mean 'x'?)"`` for the closest of ``choices`` to ``value`` (difflib), else ``""``."""
    if not isinstance(value, str):
        return ""
    names = [c for c in choices if isinstance(c, str)]
    close = difflib.get_close_matches(value, names, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in names}
        close = [lowered[value.lower()]] if value.lower() in lowered else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def check_choice(value: object, choices: Iterable[str], name: str) -> str:
    """Return ``value`` after checking it is one of ``choices`` (with a did-you-mean hint)."""
    choices = list(choices)
    if value not in choices:
        raise ValueError(f"unknown {name} {value!r}{did_you_mean(value, choices)}; "
                         f"valid: {', '.join(map(repr, choices))}")
    return value


def check_count(value: object, name: str, *, minimum: int = 1, maximum: int | None = None,
                why: str = "") -> int:
    """Return ``value`` as an int after checking ``minimum <= value (<= maximum)``.

    Parameters
    ----------
    value : int
        The value (numpy integers accepted).
    name : str
        Argument name used in the message.
    minimum, maximum : int
        The range (``maximum=None``: no upper bound).
    why : str
        Appended to the valid range in the message, e.g. ``" (both groups non-empty)"``.

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If ``value`` is not an integer (a bool, float or string is refused).
    ValueError
        If it lies outside the range: ``"<name> must be an integer >= m[ and <= M]<why>, got <value>"``.
    """
    valid = f"an integer >= {minimum}" + (f" and <= {maximum}" if maximum is not None else "") + why
    if not _is_integer(value):
        raise TypeError(f"{name} must be {valid}, got {value!r} ({type(value).__name__})")
    count = int(value)
    if count < minimum or (maximum is not None and count > maximum):
        raise ValueError(f"{name} must be {valid}, got {value}")
    return count


def _physical_memory() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def check_allocation(n_bytes: int, what: str) -> None:
    """Refuse an array larger than this machine's physical memory before allocating it.

    Raises
    ------
    ValueError
        Naming ``what`` and the memory it would need.
    """
    total = _physical_memory()
    if total is not None and n_bytes > total:
        raise ValueError(f"{what} would need {n_bytes / 2**30:.1f} GiB of memory, more than this "
                         f"machine's {total / 2**30:.1f} GiB; use fewer users or a smaller domain")


def check_n_jobs(n_jobs: object, name: str = "n_jobs") -> int | None:
    """Return a valid joblib worker count: ``None``, ``1 .. 4 x cpu_count`` or ``-1 .. -cpu_count``.

    Raises
    ------
    TypeError
        If ``n_jobs`` is not ``None`` or an integer (``'2'`` and ``2.5`` are refused).
    ValueError
        For 0 or a count outside the range.
    """
    if n_jobs is None:
        return None
    cpus = os.cpu_count() or 1
    valid = (f"None, an integer from 1 to {4 * cpus} (4 x the {cpus} CPUs), "
             f"or -1 .. -{cpus} (all CPUs, all but one...)")
    if not _is_integer(n_jobs):
        raise TypeError(f"{name} must be {valid}; got {n_jobs!r} ({type(n_jobs).__name__})")
    jobs = int(n_jobs)
    if jobs == 0 or jobs > 4 * cpus or jobs < -cpus:
        raise ValueError(f"{name} must be {valid}; got {n_jobs}")
    return jobs


def check_creatable(path: object, what: str) -> None:
    """Raise one ``ValueError`` naming ``what`` unless ``path`` can be created or written.

    The nearest existing ancestor of ``path`` must be a writable folder (a regular
    file on the way, or a folder without write permission, is refused before any
    work is done).
    """
    from pathlib import Path

    probe = Path(path)  # type: ignore[arg-type]
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise ValueError(f"{what} {str(path)!r} cannot be created: {str(probe)!r} is a file")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {str(path)!r} cannot be written: no write permission on {str(probe)!r}")


def spawn_rngs(
    seed: int | np.random.SeedSequence | Sequence[int], n: int
) -> list[np.random.Generator]:
    """Return ``n`` independent generators spawned from ``seed`` with :class:`SeedSequence`."""
    ss = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return [np.random.default_rng(child) for child in ss.spawn(n)]


def check_bool(value: object, name: str) -> bool:
    """Return ``value`` as a Python bool after checking it is ``True`` or ``False``.

    Python ``bool`` and ``numpy.bool_`` are accepted; a string (``'no'`` is truthy),
    a number or ``None`` is refused with a :class:`TypeError`.
    """
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {value!r} ({type(value).__name__})")


def _kind(value: object) -> str:
    """The type family of a scalar for :func:`check_member`: bool, int, real, str or the type name."""
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "real"
    if isinstance(value, str):
        return "str"
    return type(value).__name__


def check_member(value: object, allowed: Iterable[object], name: str) -> object:
    """Return ``value`` after checking it is one of ``allowed`` *and of the same type family*.

    ``value in allowed`` alone accepts ``True`` for ``1`` and ``3.0`` for ``3``
    (they compare equal); here a bool matches only a bool, an integer only an
    integer, a float only a float (a float ``0.5`` matches ``np.float64(0.5)``).

    Raises
    ------
    ValueError
        ``"invalid <name>=<value>; valid: <allowed>"``.
    """
    allowed = list(allowed)
    kind = _kind(value)
    for option in allowed:
        try:
            equal = bool(option == value)
        except (TypeError, ValueError):  # pragma: no cover - an array or an odd __eq__
            equal = False
        if equal and _kind(option) == kind:
            return option
    shown = ", ".join(map(repr, allowed))
    hint = did_you_mean(value, allowed)
    raise ValueError(f"invalid {name}={value!r} ({type(value).__name__}){hint}; valid: {shown}")


def check_real_array(
    values: object,
    name: str,
    *,
    low: float = -math.inf,
    high: float = math.inf,
    low_open: bool = False,
    high_open: bool = False,
    ndim: int | None = None,
    allow_nan: bool = False,
) -> np.ndarray:
    """Return ``values`` as a float64 array after checking it holds real numbers in an interval.

    Integers and floats are accepted; booleans, strings and objects are refused
    (``np.asarray(['1', '3'], dtype=float)`` would parse the strings, and
    ``[True, True]`` would count as ``[1, 1]``). Infinities are refused, and NaN
    unless ``allow_nan``. One vectorised pass per check: for arguments (a
    channel, proportions, frequencies), not for per-user loops.

    Raises
    ------
    TypeError
        For a non-numeric dtype: ``"<name> must hold real numbers ..., got dtype <U1"``.
    ValueError
        For a wrong number of dimensions or a value outside the interval.
    """
    bounded = math.isfinite(low) or math.isfinite(high)
    valid = interval(low, high, low_open=low_open, high_open=high_open)
    numbers_in = f"real numbers in {valid}" if bounded else "real numbers"
    arr = as_array(values, name)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        what = "booleans" if arr.dtype.kind == "b" else f"dtype {arr.dtype}"
        raise TypeError(f"{name} must hold {numbers_in}, got {what}")
    arr = arr.astype(np.float64, copy=False)
    if arr.size:
        nan = np.isnan(arr)
        if nan.any() and not allow_nan:
            raise ValueError(f"{name} must hold {numbers_in}, found {int(nan.sum())} NaN")
        with np.errstate(invalid="ignore"):
            inside = (arr > low if low_open else arr >= low) & (arr < high if high_open else arr <= high)
        ok = np.isfinite(arr) & inside
        if allow_nan:
            ok |= nan
        if not ok.all():
            bad = arr[~ok]
            raise ValueError(f"{name} must hold finite {numbers_in}, found {bad.size} value(s) outside, "
                             f"e.g. {float(bad[0])!r}")
    return arr


def check_label_types(values: object, name: str) -> None:
    """Refuse group labels of mixed types (``[0, '0', 1]``, ``[True, 1]``).

    ``np.asarray([0, '0'])`` turns both into the string ``'0'`` (and ``[True, 1]``
    into ``[1, 1]``), so two groups would be merged silently. Numeric and string
    numpy arrays (and non-object pandas columns) cannot mix types and are not
    inspected; lists and object arrays are checked with
    :func:`pandas.api.types.infer_dtype` (one pass in C).

    Raises
    ------
    ValueError
        Naming ``name`` and the types found.
    """
    dtype = getattr(values, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "O") != "O":
        return
    from pandas.api.types import infer_dtype

    obj = values if isinstance(values, np.ndarray) else as_array(values, name, dtype=object)
    columns = list(obj.T) if obj.ndim == 2 else [obj.ravel()]  # 2-D: one type per column
    mixed = [col for col in columns if infer_dtype(col, skipna=True) in ("mixed", "mixed-integer")]
    if not mixed:
        return
    types = sorted({type(v).__name__ for v in mixed[0].tolist() if v is not None})
    raise ValueError(f"{name} mixes label types ({', '.join(types)}): labels such as 0 and '0' (or True "
                     f"and 1) would be merged into one group; give every label the same type")


def check_scalar_label(value: object, name: str) -> object:
    """Return ``value`` after checking it is one group label (a hashable scalar, not a list or array).

    Raises
    ------
    TypeError
        For a list, tuple, set, dict or array (``privileged=[1]`` would be
        broadcast against the rows, not compared with them).
    """
    container = isinstance(value, (list, tuple, set, frozenset, dict, np.ndarray))
    if container or np.ndim(value) != 0:  # type: ignore[arg-type]
        raise TypeError(f"{name} must be one group label (e.g. 1 or 'Male'), got {value!r} "
                        f"({type(value).__name__})")
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"{name} must be one group label (a hashable scalar), got {value!r} "
                        f"({type(value).__name__})") from None
    return value


def check_rate_names(value: object, valid: Sequence[str], name: str) -> tuple[str, ...] | None:
    """Read a ``warn``-style option: ``True`` (all: ``None``), ``False`` (none: ``()``) or names.

    A bare string is refused (it would be iterated letter by letter); every name
    must be one of ``valid``.

    Raises
    ------
    TypeError
        For a string or anything that is not a bool or a sequence of strings.
    ValueError
        For an unknown name.
    """
    if isinstance(value, (bool, np.bool_)):
        return None if value else ()
    shown = ", ".join(map(repr, valid))
    if isinstance(value, str) or not isinstance(value, (Sequence, set, frozenset)):
        example = "tpr" if "tpr" in valid else valid[0]
        raise TypeError(f"{name} must be True, False or a sequence of rate names (e.g. ({example!r},)), "
                        f"got {value!r} ({type(value).__name__}); valid names: {shown}")
    names = tuple(value)
    for item in names:
        if not isinstance(item, str) or item not in valid:
            raise ValueError(f"unknown {name} name {item!r}{did_you_mean(item, valid)}; valid: {shown}")
    return names
