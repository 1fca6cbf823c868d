"""Mechanisms from outside ``ldpfair``: import paths, :func:`register` and entry points.

A user mechanism is one of

* a :class:`~ldpfair.ldp.FrequencyOracle` subclass, instantiated as ``cls(k, epsilon)``;
* a factory ``(k, epsilon) -> Q``, a ``k x m`` row-stochastic channel matrix
  (``Q[v, z] = P(z | v)``), run as a :class:`~ldpfair.ldp.ChannelMechanism`.

It is named in one of three ways:

* an import path ``"pkg.mod:Name"`` or a file path ``"path/to/file.py:Name"``,
  anywhere a mechanism name is accepted (e.g. the synthesis chapter's ``mechanisms``);
* a name given to :func:`register` in Python;
* an entry point of the group ``ldpfair.mechanisms`` of an installed package
  (``[project.entry-points."ldpfair.mechanisms"] tilted = "pkg.mod:Name"``), read
  lazily; a broken plug-in breaks only its own name.

Built-in names (the seven protocols, their aliases and ``OPT``) cannot be
taken. :func:`admit` runs the privacy audit (:mod:`ldpfair.ldp.audit`) at every
budget and domain size of a benchmark before any cell runs.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import numpy as np

from .._validation import check_epsilon
from .audit import DEFAULT_SAMPLES, AuditResult, audit
from .base import FrequencyOracle
from .channel import ChannelMechanism, check_channel_matrix
from .registry import ALIASES, PROTOCOLS

__all__ = [
    "ENTRY_POINT_GROUP",
    "UserMechanism",
    "admit",
    "display_name",
    "exact_precheck",
    "entry_point_names",
    "is_user_spec",
    "register",
    "resolve_mechanism",
    "unregister",
]

#: The entry-point group of installed plug-in mechanisms.
ENTRY_POINT_GROUP = "ldpfair.mechanisms"
#: Names a user mechanism cannot take.
RESERVED: frozenset[str] = frozenset({*PROTOCOLS, *ALIASES, "OPT", "NONDP"})

_REGISTERED: dict[str, UserMechanism] = {}


@dataclass(frozen=True)
class UserMechanism:
    """A user mechanism, checked for its form (not yet audited).

    Attributes
    ----------
    name : str
        How it was named (import path, registered name or entry-point name).
    target : object
        The class or factory.
    kind : {"oracle", "channel"}
    origin : {"import path", "register", "entry point"}
    """

    name: str
    target: Any
    kind: str
    origin: str

    def identity(self) -> object:
        """Cache identity: :func:`ldpfair.identity.callable_id` and its module file's digest."""
        import hashlib
        import sys

        from ..identity import callable_id

        ident = str(callable_id(self.target))
        module = sys.modules.get(getattr(self.target, "__module__", "") or "")
        file = getattr(module, "__file__", None)
        if file:  # the whole module's source: an edited helper of the mechanism also gets new cells
            try:
                with open(file, "rb") as fh:
                    ident += ":" + hashlib.sha256(fh.read()).hexdigest()[:12]
            except OSError:
                pass
        return ident

    def channel(self, k: int, epsilon: float) -> np.ndarray | None:
        """Its channel matrix at ``(k, epsilon)``, or ``None`` when it has none."""
        if self.kind == "channel":
            try:
                Q = self.target(k, epsilon)
            except BaseException as exc:  # noqa: BLE001 - a user factory's failure (even sys.exit) is one line
                if isinstance(exc, KeyboardInterrupt):
                    raise
                raise ValueError(
                    f"mechanism {self.name!r}: the factory failed at k={k}, epsilon={epsilon:g}: "
                    f"{type(exc).__name__}: {exc}"
                ) from None
            try:
                Q = check_channel_matrix(Q)
            except ValueError as exc:
                raise ValueError(f"mechanism {self.name!r} at k={k}, epsilon={epsilon:g}: {exc}") from None
            if Q.shape[0] != k or Q.shape[1] < k:
                raise ValueError(
                    f"mechanism {self.name!r} at k={k}, epsilon={epsilon:g}: the factory returned a "
                    f"{Q.shape[0]} x {Q.shape[1]} matrix (valid: exactly k = {k} rows, one per input, "
                    f"and at least k columns so frequencies can be estimated)"
                )
            return Q
        return None

    def make(self, k: int, epsilon: float, *, check: bool = True) -> Any:
        """The mechanism object at ``(k, epsilon)`` (``perturb``, ``support``, ``estimate``)."""
        if self.kind == "channel":
            Q = self.channel(k, epsilon)
            assert Q is not None  # a channel factory always has one
            if check:
                return ChannelMechanism(Q, epsilon)
            mech = ChannelMechanism(Q)
            mech.epsilon = epsilon
            return mech
        try:
            obj = self.target(k, epsilon)
        except BaseException as exc:  # noqa: BLE001 - sys.exit in a constructor is reported too
            if isinstance(exc, KeyboardInterrupt):
                raise
            raise ValueError(
                f"mechanism {self.name!r}: {self.target.__name__}({k}, {epsilon:g}) failed: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        if getattr(obj, "name", "FO") == "FO":
            obj.name = self.name
        return obj


def _form(name: str, obj: Any, origin: str) -> UserMechanism:
    """Check ``obj`` is an accepted form; one line naming the problem otherwise."""
    valid = "a FrequencyOracle subclass or a factory (k, epsilon) -> channel matrix Q"
    if inspect.isclass(obj):
        if not issubclass(obj, FrequencyOracle):
            raise TypeError(
                f"mechanism {name!r} is the class {obj.__qualname__}, not a FrequencyOracle "
                f"subclass (valid: {valid})"
            )
        if inspect.isabstract(obj):
            missing = ", ".join(sorted(obj.__abstractmethods__))
            raise TypeError(
                f"mechanism {name!r}: {obj.__qualname__} does not implement {missing} (valid: {valid})"
            )
        return UserMechanism(name, obj, "oracle", origin)
    if callable(obj):
        try:
            inspect.signature(obj).bind(2, 1.0)
        except TypeError:
            raise TypeError(
                f"mechanism {name!r}: the factory {getattr(obj, '__qualname__', obj)!r} cannot be "
                f"called as f(k, epsilon) (valid: {valid})"
            ) from None
        except ValueError:  # no signature (a builtin): accepted, checked when called
            pass
        return UserMechanism(name, obj, "channel", origin)
    raise TypeError(f"mechanism {name!r} is a {type(obj).__name__}, not callable (valid: {valid})")


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or "=" in name:
        raise ValueError(f"a mechanism name must be a non-empty str without '=', got {name!r}")
    if name.strip().upper() in RESERVED:
        raise ValueError(f"mechanism name {name!r} is a built-in mechanism's; choose another")
    return name.strip()


def register(name: str, mechanism: Any, *, replace: bool = False) -> UserMechanism:
    """Register ``mechanism`` under ``name`` for this Python session.

    Parameters
    ----------
    name : str
        A new name (not a built-in's; case-sensitive).
    mechanism : class or callable
        A :class:`FrequencyOracle` subclass or a factory ``(k, epsilon) -> Q``.
    replace : bool
        Allow replacing a name registered earlier.

    Notes
    -----
    A registration lives in this process: cells computed in worker processes
    (``n_jobs > 1``) resolve the name again there, so use an import path or an
    entry point for parallel runs.

    Returns
    -------
    UserMechanism
    """
    name = _check_name(name)
    if name in _REGISTERED and not replace:
        raise ValueError(f"mechanism {name!r} is already registered (pass replace=True to replace it)")
    um = _form(name, mechanism, "register")
    _REGISTERED[name] = um
    return um


def unregister(name: str) -> None:
    """Forget the mechanism registered as ``name`` (no error if there is none)."""
    _REGISTERED.pop(name, None)


def _entry_points() -> dict[str, metadata.EntryPoint]:
    out: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        out.setdefault(ep.name, ep)  # the first of several identical names wins
    return out


def entry_point_names() -> dict[str, str]:
    """Installed plug-in mechanisms: entry-point name -> object reference (not imported)."""
    return {name: ep.value for name, ep in sorted(_entry_points().items())}


def is_user_spec(name: Any) -> bool:
    """Whether ``name`` names a user mechanism (import path, registered or entry-point name)."""
    if not isinstance(name, str):
        return False
    return ":" in name or name in _REGISTERED or name in _entry_points()


def _load_file(path: str, file: str) -> Any:
    """Import the Python file ``file`` as a module named after its stem (kept in ``sys.modules``)."""
    import importlib.util
    import sys
    from pathlib import Path

    where = Path(file).expanduser().resolve()
    if not where.is_file():
        raise ValueError(f"mechanism {path!r}: no such file {str(where)!r}")
    module_name = f"ldpfair_user_{where.stem}"
    if module_name in sys.modules and getattr(sys.modules[module_name], "__file__", None) == str(where):
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, where)
    if spec is None or spec.loader is None:
        raise ValueError(f"mechanism {path!r}: {str(where)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exc:  # noqa: BLE001 - the file's own error (even sys.exit), in one line
        del sys.modules[module_name]
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise ValueError(
            f"mechanism {path!r}: importing {str(where)!r} failed: {type(exc).__name__}: {exc}"
        ) from None
    return module


def _import(path: str) -> Any:
    module_name, _, attr = path.rpartition(":")
    if not module_name or not attr:
        raise ValueError(f"import path {path!r} must be written 'package.module:Name' or 'path/file.py:Name'")
    if module_name.endswith(".py"):
        return _getattr_path(path, _load_file(path, module_name), module_name, attr)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise ValueError(f"mechanism {path!r}: could not import module {module_name!r}") from None
        raise ValueError(f"mechanism {path!r}: importing {module_name!r} failed: {exc}") from None
    except BaseException as exc:  # noqa: BLE001 - the module's own error (even sys.exit), in one line
        if isinstance(exc, KeyboardInterrupt):
            raise
        raise ValueError(
            f"mechanism {path!r}: importing {module_name!r} failed: {type(exc).__name__}: {exc}"
        ) from None
    return _getattr_path(path, module, module_name, attr)


def _getattr_path(path: str, module: Any, module_name: str, attr: str) -> Any:
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"mechanism {path!r}: module {module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def resolve_mechanism(spec: str) -> UserMechanism:
    """The user mechanism named ``spec``: an import path, a registered name or an entry-point name."""
    if not isinstance(spec, str):
        raise TypeError(f"a mechanism is named by a str, got {spec!r}")
    if spec in _REGISTERED:
        return _REGISTERED[spec]
    if ":" in spec:
        return _form(spec, _import(spec), "import path")
    eps = _entry_points()
    if spec in eps:
        if spec.strip().upper() in RESERVED:
            raise ValueError(f"plug-in mechanism {spec!r} ({eps[spec].value}) reuses a built-in name")
        try:
            obj = eps[spec].load()
        except Exception as exc:  # noqa: BLE001
            raise ValueError(
                f"plug-in mechanism {spec!r} ({eps[spec].value}) failed to load: {type(exc).__name__}: {exc}"
            ) from None
        return _form(spec, obj, "entry point")
    hint = ", ".join(sorted(_REGISTERED) + sorted(eps)) or "none registered or installed"
    raise ValueError(
        f"unknown mechanism {spec!r}; valid: a built-in name, an import path 'pkg.mod:Name', "
        f"or a registered or plug-in name ({hint})"
    )


#: Reports per audit at any k (the reports per input are this over k, at most ``samples``).
AUDIT_TOTAL = 4_000_000


def samples_at(k: int, samples: int) -> int:
    """Reports per input of the door's audit at domain size ``k``."""
    return int(min(samples, max(4000, AUDIT_TOTAL // k)))


def _step(who: str, step: str, k: int, epsilon: float, fn: Any, *args: Any, **kw: Any) -> Any:
    """Run user code ``fn``; an exit or an unexpected error becomes one line naming the step."""
    from .audit import PrivacyAuditError

    try:
        return fn(*args, **kw)
    except (PrivacyAuditError, KeyboardInterrupt):
        raise
    except ValueError as exc:
        if str(exc).startswith("mechanism "):
            raise
        raise ValueError(f"mechanism {who!r} failed in the {step} at k={k}, epsilon={epsilon:g}: "
                         f"ValueError: {exc}") from None
    except SystemExit as exc:
        raise ValueError(f"mechanism {who!r} called sys.exit({exc.code!r}) in the {step} at k={k}, "
                         f"epsilon={epsilon:g}") from None
    except BaseException as exc:  # noqa: BLE001 - user code's failure, in one line
        raise ValueError(f"mechanism {who!r} failed in the {step} at k={k}, epsilon={epsilon:g}: "
                         f"{type(exc).__name__}: {exc}") from None


@functools.lru_cache(maxsize=256)
def _admitted(spec: str, identity: str, k: int, epsilon: float, samples: int, seed: int,
              real: bytes | None = None) -> AuditResult:
    um = resolve_mechanism(spec)
    Q = um.channel(k, epsilon)
    if Q is not None:  # the exact audit first: a channel of unbounded level cannot even be sampled
        audit(None, epsilon, samples=0, name=um.name, channel=Q)
    mech = _step(um.name, "construction", k, epsilon, um.make, k, epsilon, check=False)
    rng = np.random.default_rng(np.random.SeedSequence([seed, k, int(round(epsilon * 1e6))]))
    column = None if real is None else np.frombuffer(real, dtype=np.int64)
    return _step(um.name, "audit", k, epsilon, audit, mech, epsilon, samples=samples_at(k, samples), rng=rng,
                 name=um.name, channel=Q, real=column)


def exact_precheck(spec: str, epsilons: Any, k: int = 2) -> None:
    """Resolve ``spec`` and, for a channel, run its exact audit at every budget: refusals before any data.

    Raises ``ValueError`` (one line) for a mechanism that cannot be resolved and
    :class:`~ldpfair.ldp.audit.PrivacyAuditError` for a channel above its budget.
    """
    um = resolve_mechanism(spec)
    for eps in epsilons:
        eps = check_epsilon(eps, "epsilon")
        Q = um.channel(k, eps)
        if Q is not None:
            audit(None, eps, samples=0, name=um.name, channel=Q)


def admit(
    spec: str, epsilons: Any, ks: Any = (2,), *, samples: int = DEFAULT_SAMPLES, seed: int = 20261124,
    real: Any = None,
) -> list[AuditResult]:
    """Resolve and audit the user mechanism ``spec`` at every ``(k, epsilon)``; the audits' results.

    ``real`` (optional) is a real column of the run's data (codes in ``0..k-1``): the
    audit at each ``k`` whose domain holds it perturbs it once, mixed into the
    first half's shuffled batch (:func:`ldpfair.ldp.audit.empirical_audit`), so the
    sampler also meets the data it will be run on.

    Raises ``ValueError`` (one line) for a mechanism that cannot be resolved,
    built or instantiated, and :class:`~ldpfair.ldp.audit.PrivacyAuditError` for
    one that fails its audit. Results are memoised for the session.
    """
    um = resolve_mechanism(spec)
    ident = str(um.identity())
    column = None
    if real is not None:
        column = np.ascontiguousarray(np.asarray(real).ravel(), dtype=np.int64)
        if column.size and int(column.min()) < 0:
            raise ValueError(f"real must hold codes >= 0, found {int(column.min())}")
    out = []
    for k in ks:
        fits = column is not None and (column.size == 0 or int(column.max()) < int(k))
        key = column.tobytes() if fits and column is not None else None
        for eps in epsilons:
            eps = check_epsilon(eps, "epsilon")
            if not math.isfinite(eps):
                raise ValueError(f"epsilon must be finite, got {eps!r}")
            out.append(_admitted(spec, ident, int(k), float(eps), int(samples), int(seed), key))
    return out


def display_name(spec: str) -> str:
    """The name of a user mechanism in tables and figures: the object's name for an import path."""
    if ":" not in spec:
        return spec
    short = spec.rpartition(":")[2].rpartition(".")[2]
    return spec if short.strip().upper() in RESERVED else short


class _RunStep:
    """A user mechanism in the run: ``perturb`` and ``support`` report an exit or error in one line.

    Every other attribute is the mechanism's own. An exit (``sys.exit``) or an
    exception inside them becomes ``ValueError("mechanism 'X' ... in the run at
    k=.., epsilon=..: ...")`` (:func:`_step`), so the notebook's failing cell, and
    ``ldpfair bench``, name the mechanism and the step in one line.
    """

    def __init__(self, name: str, mech: Any, k: int, epsilon: float) -> None:
        self._name, self._mech, self._k, self._eps = name, mech, k, epsilon

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._mech, attr)

    def perturb(self, values: Any, rng: Any) -> Any:
        """The mechanism's ``perturb``, its failure in one line."""
        return _step(self._name, "run (perturb)", self._k, self._eps, self._mech.perturb, values, rng)

    def support(self, reports: Any) -> Any:
        """The mechanism's ``support``, its failure in one line."""
        return _step(self._name, "run (support)", self._k, self._eps, self._mech.support, reports)


def _privatize_with(spec: str, identity: str, k: int, epsilon: float, values: np.ndarray) -> Any:
    """The factory ``f(k, epsilon, values)`` of :func:`ldpfair.ldp.privatize` for a user mechanism."""
    um = resolve_mechanism(spec)
    mech = _step(um.name, "run (construction)", k, epsilon, um.make, k, epsilon)
    return _RunStep(um.name, mech, k, epsilon)


def privatize_factory(spec: str) -> functools.partial[Any]:
    """A :func:`ldpfair.ldp.privatize` factory for the user mechanism ``spec``.

    A :func:`functools.partial` whose cache identity holds the name and the
    source digest of the mechanism, so an edited mechanism gets new cells.
    """
    um = resolve_mechanism(spec)
    return functools.partial(_privatize_with, spec, str(um.identity()))
