"""Declarative experiment grids.

A :class:`Grid` is the product ``datasets x models x privatisations x epsilons
x seeds (x folds)``. Each element is a :class:`Task` (a cell of a figure for one
seed and fold) with a normalised JSON configuration and a stable key, the
sha256 of that configuration's canonical JSON plus :data:`RESULTS_SCHEMA_VERSION`.

Randomness of a task
--------------------
Every random stream of a task is a pure function of its configuration, never
of the worker, the execution order or ``n_jobs``:

- the train/test partition: ``random_state = seed`` (``split_random_state="seed"``,
  the authors' ``train_test_split(..., random_state=seed)``) or an integer drawn
  from a :class:`~numpy.random.SeedSequence` keyed by ``(dataset, evaluation,
  seed)`` (``"derived"``). Either way every mechanism and epsilon of a seed sees
  the same partition, as in the papers;
- the model's ``random_state``: ``seed`` or derived from ``(dataset, model,
  evaluation, seed, fold)``: common random numbers across mechanisms;
- the LDP mechanism: a generator from the SeedSequence keyed by the full task key.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validation import check_choice, check_epsilon
from ..models import ModelSpec, callable_id

__all__ = [
    "RESULTS_SCHEMA_VERSION",
    "DatasetSpec",
    "PrivSpec",
    "Evaluation",
    "holdout",
    "kfold",
    "Grid",
    "Task",
    "canonical_json",
    "config_key",
    "seed_from",
]

#: Version of the result rows; bump it when a metric's definition or a column changes.
RESULTS_SCHEMA_VERSION = 1


def canonical_json(obj: object) -> str:
    """Canonical JSON of ``obj`` (sorted keys, no whitespace, floats by repr)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=True)


def _scalar_json(value: object) -> str:
    """:func:`canonical_json` of ``None``, a bool, an int or a float, without the encoder."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    if type(value) is float and math.isfinite(value):
        return float.__repr__(value)
    return canonical_json(value)


def config_key(config: Mapping[str, Any]) -> str:
    """Stable hex key of a normalised configuration (sha256, schema version included)."""
    payload = canonical_json({"schema": RESULTS_SCHEMA_VERSION, "config": config})
    return hashlib.sha256(payload.encode()).hexdigest()


def seed_from(*parts: object) -> np.random.SeedSequence:
    """A :class:`~numpy.random.SeedSequence` whose entropy is the hash of ``parts``."""
    digest = hashlib.sha256(canonical_json(list(parts)).encode()).hexdigest()
    return np.random.SeedSequence(int(digest[:32], 16))


def _frame_digest(frame: Any) -> str:
    import pandas as pd

    hashed = pd.util.hash_pandas_object(frame, index=True).to_numpy()
    h = hashlib.sha256(hashed.tobytes())
    h.update(canonical_json([str(c) for c in frame.columns]).encode())
    return h.hexdigest()[:24]


@dataclass(frozen=True)
class DatasetSpec:
    """A dataset of :mod:`ldpfair.datasets` with loader options, or an in-memory one.

    Parameters
    ----------
    name : str
        Registry name (``ldpfair.datasets.names()``), or a label when ``dataset`` is given.
    options : mapping
        Loader options (defaults are filled in for the cache key).
    exclude : sequence of str
        Columns not used as features (e.g. a protected attribute hidden from the model).
    protected : str, optional
        Column whose groups the metrics compare (default: the dataset's ``protected``).
    label : str, optional
        Name in the results (default ``name``).
    dataset : Dataset, optional
        An in-memory :class:`~ldpfair.datasets.Dataset` (keyed by a hash of its
        frame); used by tests and for datasets built inside a notebook.
    encoding : {"onehot", "codes"}
        Features of categorical columns: one-hot blocks (default) or one column of
        integer codes each (makhlouf2024's Random Forest on LabelEncoder codes).
        Part of the task key only when not ``"onehot"``.
    """

    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    protected: str | None = None
    label: str | None = None
    dataset: Any = field(default=None, compare=False, repr=False)
    encoding: str = "onehot"

    def __post_init__(self) -> None:
        check_choice(self.encoding, ("onehot", "codes"), "encoding")
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        if not isinstance(self.options, Mapping):
            raise TypeError(f"options must be a mapping, got {type(self.options).__name__}")
        object.__setattr__(self, "options", dict(self.options))
        if isinstance(self.exclude, str):
            raise TypeError("exclude must be a sequence of column names, not a str")
        object.__setattr__(self, "exclude", tuple(self.exclude))

    @functools.cached_property
    def _digest(self) -> str | None:
        return None if self.dataset is None else _frame_digest(self.dataset.frame)

    def config(self) -> dict[str, Any]:
        """Normalised JSON-able description (part of the task key)."""
        options = dict(self.options)
        if self.dataset is None:
            try:
                from ..datasets import info

                options = {**info(self.name).defaults, **options}
            except ValueError:
                pass  # unknown name: load() will report it with the valid names
        cfg = {
            "name": self.name,
            "options": {k: options[k] for k in sorted(options)},
            "exclude": list(self.exclude),
            "protected": self.protected,
            "data": self._digest,
        }
        if self.encoding != "onehot":  # keyed only when non-default: existing keys unchanged
            cfg["encoding"] = self.encoding
        return cfg

    def load(self) -> Any:
        """Return the :class:`~ldpfair.datasets.Dataset`."""
        if self.dataset is not None:
            return self.dataset
        from ..datasets import load

        return load(self.name, **self.options)


_SPLITS = ("uniform", "k_based")


@dataclass(frozen=True)
class PrivSpec:
    """How the training data are privatised (``protocol=None``: not at all).

    Parameters
    ----------
    protocol : str or callable or None
        A protocol name of :data:`ldpfair.ldp.PROTOCOLS`, a factory
        ``f(k, epsilon, values) -> mechanism`` accepted by
        :func:`ldpfair.ldp.privatize`, or ``None`` (no privatisation).
    sensitive : sequence of str, optional
        Attributes to privatise (default: the dataset's ``sensitive``, in order).
    split : {"uniform", "k_based"} or sequence of float
        Budget split across the attributes (:func:`ldpfair.ldp.split_budget`).
    mode : {"independent", "combined"}
        Perturb each attribute on its own, or their Cartesian product at once.
    output : {"support", "values"}
        ``"support"``: use the protocol's indicator block as the attribute's
        features; ``"values"``: re-encode perturbed codes as one-hot.
    apply_to : {"train", "train+test"}
        Privatise the training rows only (the papers' default) or the test rows too.
    options : mapping
        With a protocol name: extra options of :func:`ldpfair.ldp.make_protocol`
        (e.g. ``{"variant": "paper"}``). With ``needs_y=True``: keyword arguments
        of the factory builder.
    needs_y : bool
        ``protocol`` is a factory *builder* ``protocol(y_rows, **options) ->
        factory`` that reads the labels of the rows it privatises (e.g.
        :func:`ldpfair.ldp.opt_factory`, ghoukasian2025's data-dependent OPT).
    label : str, optional
        Name in the results (default: the protocol name, or ``"NonDP"``).
    """

    protocol: str | Callable[..., Any] | None = None
    sensitive: tuple[str, ...] | None = None
    split: str | tuple[float, ...] = "k_based"
    mode: str = "independent"
    output: str = "support"
    apply_to: str = "train"
    options: Mapping[str, Any] = field(default_factory=dict)
    needs_y: bool = False
    label: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.options, Mapping):
            raise TypeError(f"options must be a mapping, got {type(self.options).__name__}")
        object.__setattr__(self, "options", dict(self.options))
        if self.needs_y and not callable(self.protocol):
            raise ValueError("needs_y=True requires protocol to be a factory builder callable")
        if self.protocol is not None and not isinstance(self.protocol, str) and not callable(
            self.protocol
        ):
            raise TypeError(f"protocol must be a name, a callable or None, got {self.protocol!r}")
        if isinstance(self.protocol, str):
            valid_names: tuple[str, ...] | None
            try:
                from ..ldp import PROTOCOLS
                valid_names = PROTOCOLS
            except ImportError:  # pragma: no cover - ldp not built yet
                valid_names = None
            if valid_names is not None and self.protocol not in valid_names:
                raise ValueError(
                    f"unknown protocol {self.protocol!r}; valid: {', '.join(valid_names)}, "
                    "a factory callable, or None"
                )
        if self.sensitive is not None:
            if isinstance(self.sensitive, str):
                raise TypeError("sensitive must be a sequence of column names, not a str")
            object.__setattr__(self, "sensitive", tuple(self.sensitive))
        if isinstance(self.split, str):
            check_choice(self.split, _SPLITS, "split")
        else:
            weights = tuple(float(w) for w in self.split)
            if not weights or any(not math.isfinite(w) or w <= 0 for w in weights):
                raise ValueError(f"split weights must be positive finite numbers, got {self.split!r}")
            object.__setattr__(self, "split", weights)
        check_choice(self.mode, ("independent", "combined"), "mode")
        check_choice(self.output, ("support", "values"), "output")
        check_choice(self.apply_to, ("train", "train+test"), "apply_to")

    @property
    def private(self) -> bool:
        """Whether this spec privatises anything."""
        return self.protocol is not None

    @property
    def name(self) -> str:
        """Label of the mechanism in result tables."""
        if self.label:
            return self.label
        if self.protocol is None:
            return "NonDP"
        if isinstance(self.protocol, str):
            return self.protocol
        return getattr(self.protocol, "__name__", type(self.protocol).__name__)

    def config(self) -> dict[str, Any] | None:
        """Normalised JSON-able description (part of the task key)."""
        if self.protocol is None:
            return None
        return {
            "protocol": callable_id(self.protocol),
            "sensitive": None if self.sensitive is None else list(self.sensitive),
            "split": self.split if isinstance(self.split, str) else list(self.split),
            "mode": self.mode,
            "output": self.output,
            "apply_to": self.apply_to,
            "options": {k: self.options[k] for k in sorted(self.options)},
            "needs_y": bool(self.needs_y),
        }


@dataclass(frozen=True)
class Evaluation:
    """How a task is evaluated: a stratified hold-out or one fold of stratified k-fold.

    Parameters
    ----------
    method : {"holdout", "kfold"}
        Hold-out split or k-fold cross-validation (one task per fold).
    test_size : float
        Test fraction of the hold-out split.
    n_splits : int
        Number of folds.
    stratify : bool
        Stratify on the target.
    split_random_state : {"seed", "derived"}
        ``"seed"``: ``random_state=seed`` as the authors did (same partition as
        theirs); ``"derived"``: an integer from the task's SeedSequence.
    model_random_state : {"seed", "derived"}
        Same choice for the model's ``random_state``.
    groups : {"original", "privatized"}
        Measure fairness on the test rows' original groups, or on their
        privatised values (needs ``apply_to="train+test"`` and a values or
        one-hot output).
    privileged : int
        The privileged group's code (compared with every other row, as in
        arcolezi2023).
    metrics : callable, optional
        The metric bundle the task computes on the test rows:
        ``metrics(y_true, y_pred, *, sensitive_features, scores, labels, privileged)
        -> {column: value}``. ``None`` (the default) is
        :func:`ldpfair.metrics.evaluate`, the book's bundle of every paper's
        metrics, and is left out of the task key (the committed results were
        computed with it). A chapter with metrics of its own declares a bundle
        here, pinned with :func:`~ldpfair.identity.versioned`: its identity is
        part of the task key, so a new metric never touches
        :data:`RESULTS_SCHEMA_VERSION` nor the other chapters' keys.
    """

    method: str = "holdout"
    test_size: float = 0.2
    n_splits: int = 5
    stratify: bool = True
    split_random_state: str = "derived"
    model_random_state: str = "derived"
    groups: str = "original"
    privileged: int = 1
    metrics: Callable[..., Mapping[str, Any]] | None = None

    def __post_init__(self) -> None:
        check_choice(self.method, ("holdout", "kfold"), "method")
        if self.metrics is not None and not callable(self.metrics):
            raise TypeError(f"metrics must be a metric bundle (a callable) or None, got {self.metrics!r}")
        if not isinstance(self.test_size, numbers.Real) or not 0 < float(self.test_size) < 1:
            raise ValueError(f"test_size must lie in (0, 1), got {self.test_size!r}")
        if isinstance(self.n_splits, bool) or not isinstance(self.n_splits, int) or self.n_splits < 2:
            raise ValueError(f"n_splits must be an int >= 2, got {self.n_splits!r}")
        check_choice(self.split_random_state, ("seed", "derived"), "split_random_state")
        check_choice(self.model_random_state, ("seed", "derived"), "model_random_state")
        check_choice(self.groups, ("original", "privatized"), "groups")

    @property
    def folds(self) -> list[int | None]:
        """Fold indices of one seed (``[None]`` for a hold-out)."""
        return list(range(self.n_splits)) if self.method == "kfold" else [None]

    def config(self) -> dict[str, Any]:
        """Normalised JSON-able description (part of the task key)."""
        cfg: dict[str, Any] = {
            "method": self.method,
            "stratify": bool(self.stratify),
            "split_random_state": self.split_random_state,
            "model_random_state": self.model_random_state,
            "groups": self.groups,
            "privileged": int(self.privileged),
        }
        if self.method == "holdout":
            cfg["test_size"] = float(self.test_size)
        else:
            cfg["n_splits"] = int(self.n_splits)
        if self.metrics is not None:  # the default bundle is not in the key (committed results)
            cfg["metrics"] = callable_id(self.metrics)
        return cfg


def holdout(test_size: float = 0.2, **kwargs: Any) -> Evaluation:
    """Stratified hold-out evaluation (see :class:`Evaluation`)."""
    return Evaluation(method="holdout", test_size=test_size, **kwargs)


def kfold(n_splits: int = 10, **kwargs: Any) -> Evaluation:
    """Stratified k-fold evaluation, one task per fold (see :class:`Evaluation`)."""
    return Evaluation(method="kfold", n_splits=n_splits, **kwargs)


@dataclass(frozen=True)
class Task:
    """One cell of a grid for one seed and fold: what a worker computes."""

    index: int
    dataset: DatasetSpec
    model: ModelSpec
    privatization: PrivSpec
    epsilon: float | None
    evaluation: Evaluation
    seed: int
    fold: int | None
    #: canonical JSON of (dataset, model, privatization, evaluation), shared by a grid's tasks
    fragments: tuple[str, str, str, str] | None = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def config(self) -> dict[str, Any]:
        """Normalised configuration (the cache key's content)."""
        return {
            "dataset": self.dataset.config(),
            "model": self.model.config(),
            "privatization": self.privatization.config(),
            "epsilon": self.epsilon,
            "evaluation": self.evaluation.config(),
            "seed": self.seed,
            "fold": self.fold,
        }

    @functools.cached_property
    def key(self) -> str:
        """Stable key of the task (sha256 hex): :func:`config_key` of :attr:`config`.

        A grid's tasks share the canonical JSON of their dataset, model, privatisation
        and evaluation (``fragments``): the payload is assembled from those strings
        (:func:`_fragments_key`, the same bytes), several times faster.
        """
        if self.fragments is None:
            return config_key(self.config)
        return _fragments_key(self.fragments, self.epsilon, self.seed, self.fold)

    def labels(self) -> dict[str, Any]:
        """The task's identifying columns of the tidy results."""
        p = self.privatization
        return {
            "dataset": self.dataset.label or self.dataset.name,
            "model": self.model.name,
            "mechanism": p.name,
            "split": (p.split if isinstance(p.split, str) else ",".join(map(str, p.split)))
            if p.private else None,
            "mode": p.mode if p.private else None,
            "epsilon": float("nan") if self.epsilon is None else self.epsilon,
            "seed": self.seed,
            "fold": -1 if self.fold is None else self.fold,
        }

    def split_random_state(self) -> int:
        """``random_state`` of the train/test partition."""
        if self.evaluation.split_random_state == "seed":
            return int(self.seed)
        ss = seed_from("split", self.dataset.config(), self.evaluation.config(), self.seed)
        return int(ss.generate_state(1)[0])

    def model_random_state(self) -> int:
        """``random_state`` of the model."""
        if self.evaluation.model_random_state == "seed":
            return int(self.seed)
        ss = seed_from("model", self.dataset.config(), self.model.config(),
                       self.evaluation.config(), self.seed, self.fold)
        return int(ss.generate_state(1)[0] & 0x7FFFFFFF)

    def mechanism_seed(self) -> np.random.SeedSequence:
        """SeedSequence of the LDP mechanism (keyed by the full task)."""
        return seed_from("mechanism", self.key)


def _fragments_key(fragments: tuple[str, str, str, str], epsilon: float | None, seed: int,
                   fold: int | None) -> str:
    """:attr:`Task.key`: the canonical JSON of its config (sorted keys) from the grid's fragments."""
    ds, model, priv, ev = fragments
    payload = (f'{{"config":{{"dataset":{ds},"epsilon":{_scalar_json(epsilon)},'
               f'"evaluation":{ev},"fold":{_scalar_json(fold)},"model":{model},'
               f'"privatization":{priv},"seed":{_scalar_json(seed)}}},'
               f'"schema":{RESULTS_SCHEMA_VERSION}}}')
    return hashlib.sha256(payload.encode()).hexdigest()


def _as_list(value: Any, kind: type, convert: Callable[[Any], Any]) -> list[Any]:
    if isinstance(value, kind) or value is None or not isinstance(value, Iterable) or isinstance(
        value, (str, Mapping)
    ):
        return [convert(value)]
    return [convert(v) for v in value]


def _dataset(v: Any) -> DatasetSpec:
    if isinstance(v, DatasetSpec):
        return v
    if isinstance(v, str):
        return DatasetSpec(v)
    raise TypeError(f"datasets must be names or DatasetSpec, got {v!r}")


def _model(v: Any) -> ModelSpec:
    if isinstance(v, ModelSpec):
        return v
    if isinstance(v, str) or callable(v):
        return ModelSpec(v)
    raise TypeError(f"models must be names, callables or ModelSpec, got {v!r}")


def _priv(v: Any) -> PrivSpec:
    if isinstance(v, PrivSpec):
        return v
    if v is None or isinstance(v, str) or callable(v):
        return PrivSpec(v)
    raise TypeError(f"privatizations must be PrivSpec, protocol names, callables or None, got {v!r}")


@dataclass(frozen=True)
class Grid:
    """A declarative experiment grid.

    Parameters
    ----------
    datasets : DatasetSpec or str, or a sequence of them
    models : ModelSpec, str or callable, or a sequence of them
    privatizations : PrivSpec, protocol name or None, or a sequence of them
        A non-private spec contributes one cell per seed (no epsilon).
    epsilons : sequence of float
        Privacy budgets of every private spec.
    seeds : int or sequence of int
        Seeds (an int ``n`` means ``range(n)``).
    evaluation : Evaluation
        Hold-out or k-fold (:func:`holdout`, :func:`kfold`).
    name : str
        Name of the grid (used in file names of committed results).

    Examples
    --------
    >>> g = Grid(datasets="adult26k", models=ModelSpec("lightgbm", {"n_estimators": 50}),
    ...          privatizations=[None, PrivSpec("GRR", split="uniform")],
    ...          epsilons=[1.0, 8.0], seeds=2, name="demo")
    >>> len(g.tasks())
    6
    """

    datasets: Any
    models: Any = "lightgbm"
    privatizations: Any = None
    epsilons: Sequence[float] = ()
    seeds: Any = 1
    evaluation: Evaluation = field(default_factory=Evaluation)
    name: str = "grid"

    def __post_init__(self) -> None:
        object.__setattr__(self, "datasets", tuple(_as_list(self.datasets, DatasetSpec, _dataset)))
        object.__setattr__(self, "models", tuple(_as_list(self.models, ModelSpec, _model)))
        object.__setattr__(
            self, "privatizations", tuple(_as_list(self.privatizations, PrivSpec, _priv))
        )
        eps = [self.epsilons] if isinstance(self.epsilons, numbers.Real) else list(self.epsilons)
        object.__setattr__(self, "epsilons", tuple(check_epsilon(e, "epsilons") for e in eps))
        seeds = self.seeds
        if isinstance(seeds, numbers.Integral) and not isinstance(seeds, bool):
            if seeds < 1:
                raise ValueError(f"seeds must be >= 1 (a count) or a sequence of ints, got {seeds}")
            seeds = range(int(seeds))
        seeds = tuple(int(s) for s in seeds)
        if not seeds or len(set(seeds)) != len(seeds) or min(seeds) < 0:
            raise ValueError(f"seeds must be distinct non-negative ints, got {self.seeds!r}")
        object.__setattr__(self, "seeds", seeds)
        if not isinstance(self.evaluation, Evaluation):
            raise TypeError(f"evaluation must be an Evaluation, got {self.evaluation!r}")
        if any(p.private for p in self.privatizations) and not self.epsilons:
            raise ValueError("epsilons is empty but the grid has a private mechanism")

    def tasks(self) -> list[Task]:
        """All tasks, in a fixed order (dataset, model, mechanism, epsilon, seed, fold).

        Built once, keys included (a grid is immutable); each call returns a new list of them.
        """
        if "_tasks" in self.__dict__:
            return list(self.__dict__["_tasks"])
        out: list[Task] = []
        ev = canonical_json(self.evaluation.config())
        for ds in self.datasets:
            ds_json = canonical_json(ds.config())
            for model in self.models:
                model_json = canonical_json(model.config())
                for priv in self.privatizations:
                    frags = (ds_json, model_json, canonical_json(priv.config()), ev)
                    epsilons: Sequence[float | None] = self.epsilons if priv.private else [None]
                    for eps in epsilons:
                        for seed in self.seeds:
                            for fold in self.evaluation.folds:
                                t = Task(len(out), ds, model, priv, eps, self.evaluation, seed, fold, frags)
                                t.__dict__["key"] = _fragments_key(frags, eps, seed, fold)  # Task.key's cache
                                out.append(t)
        self.__dict__["_tasks"] = tuple(out)
        return out

    def __len__(self) -> int:
        return len(self.tasks())

    def describe(self) -> dict[str, Any]:
        """JSON-able description of the grid (stored in committed results' metadata)."""
        return {
            "name": self.name,
            "datasets": [d.config() for d in self.datasets],
            "models": [m.config() for m in self.models],
            "privatizations": [p.config() for p in self.privatizations],
            "epsilons": list(self.epsilons),
            "seeds": list(self.seeds),
            "evaluation": self.evaluation.config(),
            "n_tasks": len(self),
        }
