"""Sweeps: experiments that are a function of parameters and a random generator.

Not every experiment of the book trains a model on a privatised grid: the
attacks of hamman2023, the estimators of xu2019 or the numerical checks of
ghoukasian2025 are functions ``f(**params, rng) -> {metric: value}``. A
:class:`Sweep` runs such a function over a list (or product) of parameter sets
and seeds with the same guarantees as a :class:`~ldpfair.experiments.Grid`:

- each task's generator comes from a :class:`~numpy.random.SeedSequence` keyed by
  the function's identity, its parameters and the seed, so results are identical
  for any ``n_jobs``, joblib backend or execution order;
- results are cached per task, resumable, and can be committed and verified with
  :func:`~ldpfair.experiments.save_results`, :func:`~ldpfair.experiments.load_results`
  and :func:`~ldpfair.experiments.verify_results`.

>>> def f(n, rng):
...     return {"mean": float(rng.normal(size=n).mean())}
>>> sweep = Sweep(f, params={"n": [10, 100]}, seeds=3)
>>> len(sweep)
6
"""

from __future__ import annotations

import functools
import itertools
import numbers
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..identity import callable_id, check_version, draws_identity, pinned_identity
from .grid import canonical_json, config_key, seed_from

__all__ = ["Sweep", "SweepTask"]


def _check_scalar(name: str, value: Any) -> Any:
    """Parameters and metrics must be JSON scalars (they key and fill the cache)."""
    if value is None or isinstance(value, str | bool | numbers.Integral | numbers.Real):
        if isinstance(value, np.generic):
            return value.item()
        return value
    if isinstance(value, tuple | list) and all(
        v is None or isinstance(v, str | bool | numbers.Real) for v in value
    ):
        return [v.item() if isinstance(v, np.generic) else v for v in value]
    raise TypeError(
        f"{name} must be a JSON scalar (str, int, float, bool, None) or a flat list of them, "
        f"got {type(value).__name__}: {value!r}"
    )


@dataclass(frozen=True)
class SweepTask:
    """One parameter set and seed of a :class:`Sweep`."""

    index: int
    sweep_name: str
    func: Callable[..., Mapping[str, Any]]
    params: Mapping[str, Any]
    seed: int
    identity: str | None = None

    @functools.cached_property
    def config(self) -> dict[str, Any]:
        """Normalised configuration (the cache key's content)."""
        return {
            "kind": "sweep",
            "func": self.identity or callable_id(self.func),
            "params": {k: self.params[k] for k in sorted(self.params)},
            "seed": self.seed,
        }

    @functools.cached_property
    def key(self) -> str:
        """Stable key of the task (sha256 hex)."""
        return config_key(self.config)

    def labels(self) -> dict[str, Any]:
        """The identifying columns of the tidy results: the sweep name, parameters and seed."""
        return {"sweep": self.sweep_name, **self.params, "seed": self.seed}

    def rng(self) -> np.random.Generator:
        """The task's generator (keyed by function, parameters and seed; not by the key's schema).

        The function is named by :func:`~ldpfair.identity.draws_identity`: a new
        version pinned with ``draws=`` keeps the draws of the version it names.
        """
        func = draws_identity(self.func) or self.config["func"]
        return np.random.default_rng(seed_from("sweep", func, self.config["params"], self.seed))

    def execute(self) -> dict[str, Any]:
        """Run the function; return its metrics plus ``t_total`` (seconds)."""
        t0 = time.perf_counter()
        out = self.func(**self.params, rng=self.rng())
        if not isinstance(out, Mapping):
            raise TypeError(
                f"sweep function {callable_id(self.func)} must return a mapping of metrics, "
                f"got {type(out).__name__}"
            )
        clash = set(out) & (set(self.labels()) | {"key", "t_total", "warnings"})
        if clash:
            raise ValueError(f"sweep metrics {sorted(clash)} clash with label columns")
        row = {k: _check_scalar(f"metric {k!r}", v) for k, v in out.items()}
        row["t_total"] = time.perf_counter() - t0
        return row


class Sweep:
    """A function run over parameter sets and seeds, deterministically and cached.

    Parameters
    ----------
    func : callable
        ``func(**params, rng=Generator) -> mapping`` of metric name to scalar.
        Its identity keys the cache and seeds the draws: without ``version`` (and
        unless it is decorated with :func:`~ldpfair.identity.versioned`) it
        includes a hash of its source, so editing it invalidates its cached
        results.
    params : mapping of str to sequence, or sequence of mappings
        A mapping is expanded as the Cartesian product of its value lists, in
        order; a sequence of mappings is used as given. Values must be JSON
        scalars (or flat lists of them).
    seeds : int or sequence of int
        ``n`` means ``range(n)``.
    name : str
        Name of the sweep in results and progress bars.
    version : str, optional
        An explicit version of ``func`` (see :func:`~ldpfair.identity.versioned`):
        the identity becomes ``<module>.<qualname>:<version>``, so that editing
        its docstring or code without changing what it computes keeps the
        committed results. Bump it when the results should be recomputed. A
        function already pinned by ``versioned`` must not be given another.
    """

    def __init__(
        self,
        func: Callable[..., Mapping[str, Any]],
        params: Mapping[str, Sequence[Any]] | Sequence[Mapping[str, Any]] = ({},),
        seeds: int | Iterable[int] = 1,
        name: str | None = None,
        version: str | None = None,
    ) -> None:
        if not callable(func):
            raise TypeError(f"func must be callable, got {func!r}")
        self.func = func
        self.identity: str | None = None
        if version is not None:
            check_version(version)
            pin = pinned_identity(func)
            if pin is not None and pin[1] != version:
                raise ValueError(
                    f"{pin[0]} is pinned to version {pin[1]!r} by @versioned; "
                    f"got version={version!r} (give one or the other)"
                )
            label = pin[0] if pin is not None else f"{func.__module__}.{func.__qualname__}"
            self.identity = f"callable:{label}:{version}"
        if isinstance(params, Mapping):
            for k, v in params.items():
                if isinstance(v, str) or not isinstance(v, Iterable):
                    raise TypeError(f"params[{k!r}] must be a list of values, got {v!r}")
            keys = list(params)
            sets = [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*params.values())]
        else:
            sets = [dict(p) for p in params]
        if not sets:
            raise ValueError("a sweep needs at least one parameter set")
        for p in sets:
            if "rng" in p:
                raise ValueError("'rng' is passed by the sweep; it cannot be a parameter")
            for k, v in p.items():
                p[k] = _check_scalar(f"parameter {k!r}", v)
        self.param_sets = sets
        seed_values: Iterable[int]
        if isinstance(seeds, (int, numbers.Integral)):  # int spelled out so that mypy narrows
            if seeds < 1:
                raise ValueError(f"seeds must be >= 1 (or a list of seeds), got {seeds}")
            seed_values = range(int(seeds))
        else:
            seed_values = seeds
        self.seeds = [int(s) for s in seed_values]
        if not self.seeds or any(s < 0 for s in self.seeds):
            raise ValueError(f"seeds must be non-negative integers, got {self.seeds}")
        func_name: str = getattr(func, "__name__", "sweep")
        self.name = name or func_name

    def tasks(self) -> list[SweepTask]:
        """Every (parameter set, seed) task, parameters outermost."""
        out: list[SweepTask] = []
        for p in self.param_sets:
            for s in self.seeds:
                out.append(SweepTask(len(out), self.name, self.func, p, s, self.identity))
        return out

    def __len__(self) -> int:
        return len(self.param_sets) * len(self.seeds)

    def __repr__(self) -> str:
        return f"Sweep({self.name!r}: {len(self.param_sets)} parameter sets x {len(self.seeds)} seeds)"

    def describe(self) -> dict[str, Any]:
        """JSON-able description for result metadata."""
        draws = draws_identity(self.func)
        return {
            "kind": "sweep",
            "name": self.name,
            "func": self.identity or callable_id(self.func),
            **({"draws": draws} if draws is not None else {}),
            "param_sets": self.param_sets if len(self.param_sets) <= 200 else len(self.param_sets),
            "seeds": self.seeds,
            "tasks": len(self),
            "canonical": canonical_json(self.param_sets)[:2000],
        }
