"""Run a :class:`~ldpfair.experiments.grid.Grid`: parallel, deterministic, cached.

:func:`run` computes every task of a grid that is not cached yet with
:class:`joblib.Parallel` (any joblib backend: ``loky`` by default, ``dask``,
``ray``... chosen by the caller with :func:`joblib.parallel_config`), writes each
task's result row to the cache as soon as it is done (an interrupted run
resumes where it stopped), and returns a tidy :class:`pandas.DataFrame` with one
row per task in grid order.

Several processes may share one cache: each claims a task before computing it
(:meth:`~ldpfair.experiments.cache.Cache.claim`), skips the tasks claimed by a
live process and waits for their results, so concurrent runs split the work
instead of computing every cell twice. A worker process ends when the process
that started the run dies (it checks every second), so a killed run leaves no
orphan workers writing results.

Inside a worker each dataset is loaded, and its one-hot blocks built, once per
process (an LRU memo); BLAS and OpenMP are limited to the model's threads
(``threadpoolctl``) so parallel cells do not oversubscribe the CPU: once per
worker process, and for the duration of the run in the driver with ``n_jobs=1``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..encoding import assemble, feature_blocks, one_hot
from ..metrics import data_unfairness, data_unfairness_pairwise, evaluate
from .cache import Cache
from .grid import Grid, Task, canonical_json
from .sweep import Sweep, SweepTask

__all__ = ["run", "run_task", "coverage", "LABEL_COLUMNS", "TIMING_COLUMNS", "INFO_COLUMNS"]

#: Identifying columns of a result row (from the task, not computed).
LABEL_COLUMNS = ("dataset", "model", "mechanism", "split", "mode", "epsilon", "seed", "fold")
#: Timing columns (seconds); they vary between runs and are excluded from comparisons.
TIMING_COLUMNS = (
    "t_load", "t_split", "t_privatize", "t_encode", "t_fit", "t_predict", "t_metrics", "t_total"
)
#: Families whose ``predict`` is ``classes_[argmax(predict_proba)]`` (one pass suffices).
_PREDICT_IS_ARGMAX_PROBA = ("lightgbm", "random_forest")
#: Bookkeeping columns that are not metrics.
INFO_COLUMNS = ("key", "warnings")


# --------------------------------------------------------------------------- worker caches
_MEMO: OrderedDict[tuple[str, str], Any] = OrderedDict()
_MEMO_SIZE = 32


def _memo(kind: str, key: str, build: Callable[[], Any]) -> Any:
    """Per-process LRU memo: datasets, one-hot blocks and splits are built once per worker."""
    k = (kind, key)
    if k in _MEMO:
        _MEMO.move_to_end(k)
        return _MEMO[k]
    value = build()
    _MEMO[k] = value
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return value


def clear_worker_caches() -> None:
    """Forget the datasets, blocks and splits memoised in this process."""
    _MEMO.clear()


def _dataset(task: Task) -> Any:
    return _memo("dataset", canonical_json(task.dataset.config()), task.dataset.load)


def _features(task: Task, ds: Any) -> list[str]:
    unknown = [c for c in task.dataset.exclude if c not in ds.frame.columns]
    if unknown:
        raise ValueError(f"exclude names unknown column(s) {unknown} of dataset {ds.name!r}")
    return [c for c in ds.features if c not in set(task.dataset.exclude)]


def _blocks(task: Task, ds: Any, features: list[str]) -> dict[str, np.ndarray]:
    if task.dataset.encoding == "codes":
        def build() -> dict[str, np.ndarray]:
            return {c: ds.frame[c].to_numpy().astype(np.float32).reshape(-1, 1) for c in features}

        return _memo("blocks", canonical_json(task.dataset.config()), build)
    return _memo("blocks", canonical_json(task.dataset.config()),
                 lambda: feature_blocks(ds.frame, features, ds.domains, ds.numeric))


def _split(task: Task, ds: Any) -> tuple[np.ndarray, np.ndarray]:
    ev = task.evaluation
    random_state = task.split_random_state()
    key = canonical_json([task.dataset.config(), ev.config(), random_state])

    def build() -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        from sklearn.model_selection import KFold, StratifiedKFold, train_test_split

        y = ds.y
        idx = np.arange(y.shape[0])
        strat = y if ev.stratify else None
        if ev.method == "holdout":
            train, test = train_test_split(idx, test_size=ev.test_size, shuffle=True,
                                           stratify=strat, random_state=random_state)
            return ((np.asarray(train), np.asarray(test)),)
        splitter = (StratifiedKFold if ev.stratify else KFold)(
            n_splits=ev.n_splits, shuffle=True, random_state=random_state
        )
        return tuple((tr, te) for tr, te in splitter.split(idx.reshape(-1, 1), y))

    folds = _memo("split", key, build)
    return folds[0 if task.fold is None else task.fold]


# --------------------------------------------------------------------------- one task
def _privatize(task: Task, ds: Any, rows: np.ndarray, rng: np.random.Generator,
               ) -> dict[str, np.ndarray]:
    from ..ldp import privatize

    p = task.privatization
    sensitive = list(p.sensitive) if p.sensitive is not None else list(ds.sensitive)
    missing = [c for c in sensitive if c not in ds.domains]
    if missing:
        raise ValueError(f"sensitive column(s) {missing} are not categorical columns of {ds.name!r}")
    columns = {c: ds.frame[c].to_numpy()[rows].astype(np.int64) for c in sensitive}
    protocol = p.protocol
    if protocol is None or task.epsilon is None:  # only private tasks come here
        raise ValueError(f"task {task.key} has no protocol or epsilon to privatise with")
    if p.needs_y and callable(protocol):  # a factory builder (Privatization checks it is callable)
        protocol = protocol(ds.y[rows], **p.options)
    options = None if (p.needs_y or callable(p.protocol)) else (p.options or None)
    out = privatize(columns, {c: int(ds.domains[c]) for c in sensitive}, float(task.epsilon),
                    protocol=protocol, split=p.split, mode=p.mode, output=p.output, rng=rng,
                    options=options)
    return dict(out)


def _as_values(block: np.ndarray) -> np.ndarray | None:
    """Codes of perturbed values, from a values vector or a one-hot block; else None."""
    block = np.asarray(block)
    if block.ndim == 1:
        return block.astype(np.int64)
    if block.ndim == 2 and np.all(block.sum(axis=1) == 1):
        return block.argmax(axis=1).astype(np.int64)
    return None


def _as_block(values: np.ndarray, k: int) -> np.ndarray:
    values = np.asarray(values)
    return values if values.ndim == 2 else one_hot(values.astype(np.int64), k)


def _as_code_column(values: np.ndarray, k: int) -> np.ndarray:
    """Perturbed codes as one float column (``encoding="codes"``)."""
    codes = _as_values(values)
    if codes is None:
        raise ValueError('encoding="codes" needs privatised values or one-hot reports '
                         '(output="values", or a GRR support)')
    return codes.astype(np.float32).reshape(-1, 1)


def run_task(task: Task | SweepTask) -> dict[str, Any]:
    """Compute one task; return its result row (metrics, sizes, timings, warnings).

    ``task`` is a grid :class:`Task` or a :class:`~ldpfair.experiments.sweep.SweepTask`
    (which computes itself with ``execute()``). BLAS and OpenMP are limited to the
    model's threads: for this call only, or, inside the engine (a worker process,
    or a run with ``n_jobs=1``), by the process-wide limit that the engine sets once.
    """
    if _ACTIVE is not None:
        _ACTIVE.set(_task_threads(task))
        return _recorded(task)
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=_task_threads(task)):
        return _recorded(task)


def _task_threads(task: Task | SweepTask) -> int:
    return 1 if isinstance(task, SweepTask) else task.model.threads


def _recorded(task: Task | SweepTask) -> dict[str, Any]:
    """The task's row, with its warnings (sorted, distinct) in the ``warnings`` column."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        row = task.execute() if isinstance(task, SweepTask) else _run_task(task)
    messages = sorted({f"{x.category.__name__}: {x.message}" for x in w})
    row["warnings"] = " | ".join(messages)
    return row


class _ThreadLimit:
    """Process-wide BLAS/OpenMP thread limit, set again only when it would change.

    ``threadpool_limits`` scans the loaded native libraries (about 1-10 ms); a limit
    applies to the libraries loaded when it is set, so it is set again when the
    requested number of threads changes or new modules were imported since
    (``len(sys.modules)``, a native library comes with an import). :meth:`restore`
    undoes every limit set, newest first.
    """

    def __init__(self) -> None:
        self.key: tuple[int, int] | None = None
        self.limiters: list[Any] = []

    def set(self, threads: int) -> None:
        from threadpoolctl import threadpool_limits

        key = (threads, len(sys.modules))
        if key != self.key:
            self.limiters.append(threadpool_limits(limits=threads))
            self.key = (threads, len(sys.modules))

    def restore(self) -> None:
        while self.limiters:
            self.limiters.pop().restore_original_limits()
        self.key = None


#: The limit of a worker process of the engine (set once per worker, never restored).
_WORKER_THREADS = _ThreadLimit()
#: The limit :func:`run_task` uses instead of its own (a worker's, or a run's with n_jobs=1).
_ACTIVE: _ThreadLimit | None = None


def _run_task(task: Task) -> dict[str, Any]:
    t0 = time.perf_counter()
    ds = _dataset(task)
    features = _features(task, ds)
    blocks = _blocks(task, ds, features)
    protected = task.dataset.protected or ds.protected
    if protected not in ds.domains:
        raise ValueError(f"protected column {protected!r} is not a categorical column of {ds.name!r}")
    t1 = time.perf_counter()
    train, test = _split(task, ds)
    y = ds.y
    y_train, y_test = y[train], y[test]
    t2 = time.perf_counter()

    replace_train: dict[str, np.ndarray] = {}
    replace_test: dict[str, np.ndarray] = {}
    priv_train: dict[str, np.ndarray] = {}
    priv_test: dict[str, np.ndarray] = {}
    if task.privatization.private:
        rng_train, rng_test = (np.random.default_rng(s) for s in task.mechanism_seed().spawn(2))
        priv_train = _privatize(task, ds, train, rng_train)
        if task.privatization.apply_to == "train+test":
            priv_test = _privatize(task, ds, test, rng_test)
        as_block = _as_code_column if task.dataset.encoding == "codes" else _as_block
        replace_train = {c: as_block(b, ds.domains[c]) for c, b in priv_train.items()
                         if c in features}
        replace_test = {c: as_block(b, ds.domains[c]) for c, b in priv_test.items()
                        if c in features}
    t3 = time.perf_counter()
    x_train = assemble(blocks, features, rows=train, replace=replace_train)
    x_test = assemble(blocks, features, rows=test, replace=replace_test)
    t4 = time.perf_counter()

    model = task.model.build(task.model_random_state())
    model.fit(x_train, y_train)
    t5 = time.perf_counter()
    scores = None
    if hasattr(model, "predict_proba"):
        proba = np.asarray(model.predict_proba(x_test), dtype=np.float64)
        scores = np.clip(proba[:, 1], 0.0, 1.0)
    if scores is not None and task.model.model in _PREDICT_IS_ARGMAX_PROBA:
        # what these estimators' predict() computes, without a second pass over the trees
        y_pred = np.asarray(model.classes_).take(np.argmax(proba, axis=1)).astype(np.int64)
    else:
        y_pred = np.asarray(model.predict(x_test)).astype(np.int64)
    t6 = time.perf_counter()

    k_prot = int(ds.domains[protected])
    a_train = ds.frame[protected].to_numpy()[train].astype(np.int64)
    if task.evaluation.groups == "privatized":
        if protected not in priv_test or _as_values(priv_test[protected]) is None:
            raise ValueError(
                'groups="privatized" needs the protected attribute privatised on the test rows '
                '(apply_to="train+test") with a one-hot or values output'
            )
        a_test = _as_values(priv_test[protected])
    else:
        a_test = ds.frame[protected].to_numpy()[test].astype(np.int64)
    labels = list(range(k_prot))
    bundle = task.evaluation.metrics or evaluate
    row: dict[str, Any] = dict(bundle(y_test, y_pred, sensitive_features=a_test, scores=scores,
                                      labels=labels, privileged=task.evaluation.privileged))
    row["train_Delta"] = data_unfairness(y_train, sensitive_features=a_train, labels=labels)
    row["train_Delta_prime"] = data_unfairness_pairwise(y_train, sensitive_features=a_train,
                                                        labels=labels)
    z = _as_values(priv_train[protected]) if protected in priv_train else None
    if z is not None:
        row["train_Delta_Z"] = data_unfairness(y_train, sensitive_features=z, labels=labels)
        row["train_Delta_prime_Z"] = data_unfairness_pairwise(y_train, sensitive_features=z,
                                                              labels=labels)
    else:
        row["train_Delta_Z"] = row["train_Delta_prime_Z"] = float("nan")
    row["n_train"], row["n_test"], row["n_features"] = len(train), len(test), x_train.shape[1]
    t7 = time.perf_counter()
    row.update({
        "t_load": t1 - t0, "t_split": t2 - t1, "t_privatize": t3 - t2, "t_encode": t4 - t3,
        "t_fit": t5 - t4, "t_predict": t6 - t5, "t_metrics": t7 - t6, "t_total": t7 - t0,
    })
    return row


_WATCHED: set[int] = set()


def _watch_parent(parent: tuple[str, int]) -> None:
    """In a worker process: exit as soon as the run's driver ``(host, pid)`` is gone.

    Only on the driver's host (a remote worker of a cluster backend cannot see it).
    """
    import socket

    host, pid = parent
    if host != socket.gethostname() or pid == os.getpid() or pid in _WATCHED:
        return
    _WATCHED.add(pid)

    def watch() -> None:
        from .cache import _pid_alive

        while _pid_alive(pid):
            time.sleep(1.0)
        os._exit(1)  # the driver died: stop computing, write nothing more

    threading.Thread(target=watch, name="ldpfair-parent-watch", daemon=True).start()


def _worker(task: Task | SweepTask, cache_root: str | None, parent: tuple[str, int] | None = None,
            ) -> tuple[int, str, dict[str, Any] | None]:
    """Compute ``task`` (claimed in the cache); ``None`` when another live process holds it.

    In a worker process of its own (``parent`` given, another pid) the thread limit
    is the worker's, set once for all its tasks.
    """
    global _ACTIVE
    if parent is not None:
        _watch_parent(parent)
        if parent[1] != os.getpid():
            _ACTIVE = _WORKER_THREADS
    if cache_root is None:
        return task.index, task.key, run_task(task)
    store = Cache(cache_root)
    row = store.get(task.key)
    if row is not None:  # finished by a concurrent run meanwhile
        return task.index, task.key, row
    if not store.claim(task.key):
        return task.index, task.key, None
    try:
        row = store.get(task.key)  # finished between our check and our claim
        if row is None:
            row = run_task(task)
            store.put(task.key, task.config, row)
    finally:
        store.release(task.key)
    return task.index, task.key, row


# --------------------------------------------------------------------------- driver
def _as_cache(cache: Any) -> Cache | None:
    if cache is None or cache is False:
        return None
    if isinstance(cache, Cache):
        return cache
    if isinstance(cache, (str, os.PathLike)):
        return Cache(cache)  # checks up front that the folder can be created and written
    raise TypeError(f"cache must be None, a folder path or a Cache, got {cache!r}")


def tidy(tasks: Sequence[Task | SweepTask], rows: Mapping[str, Mapping[str, Any]]) -> pd.DataFrame:
    """Assemble the tidy result frame of ``tasks`` from ``rows`` (key -> row), in task order."""
    records = []
    for task in tasks:
        row = rows.get(task.key)
        if row is None:
            continue
        records.append({**task.labels(), "key": task.key, **row})
    frame = pd.DataFrame.from_records(records)
    if frame.empty:
        frame = pd.DataFrame(columns=[*LABEL_COLUMNS, "key"])
    return frame.reset_index(drop=True)


def coverage(grid: Grid | Sweep, cache: Any) -> dict[str, int]:
    """How many of ``grid``'s tasks are in ``cache``: ``{"present", "total"}``."""
    tasks = grid.tasks()
    c = _as_cache(cache)
    present = 0 if c is None else len(c.get_many(t.key for t in tasks))
    return {"present": present, "total": len(tasks)}


def _wait_for_others(store: Cache, tasks: Sequence[Task | SweepTask], rows: dict[str, dict[str, Any]],
                     bar: Any, poll: float = 0.5) -> None:
    """Collect the tasks computed by concurrent runs; take over those whose claim went stale."""
    pending = {t.key: t for t in tasks}
    while pending:
        for key in list(pending):
            row = store.get(key)
            if row is None and (store.claim_is_stale(key) or not store.claim_path(key).exists()):
                _, _, row = _worker(pending[key], str(store.root))  # owner died: compute it here
            if row is not None:
                rows[key] = row
                del pending[key]
                bar.update(1)
        if pending:
            time.sleep(poll)


def run(
    grid: Grid | Sweep,
    *,
    n_jobs: int | None = 1,
    cache: Any = None,
    progress: bool = True,
    compute: bool = True,
    tasks: Sequence[Task | SweepTask] | None = None,
) -> pd.DataFrame:
    """Run every task of ``grid`` and return the tidy results.

    Parameters
    ----------
    grid : Grid
        The declarative grid.
    n_jobs : int or None
        Workers of :class:`joblib.Parallel` (``None``: joblib's default / the
        active :func:`joblib.parallel_config`; else 1 .. 4 x CPUs or -1 .. -CPUs,
        see :func:`ldpfair._validation.check_n_jobs`). The backend is never chosen
        here: use ``with joblib.parallel_config("dask"): run(...)`` to scale out.
    cache : None, str, path or Cache
        Folder of per-task results. Cached tasks are read, missing ones computed
        and written as soon as each finishes.
    progress : bool
        Show a tqdm progress bar (tasks done, rate, ETA).
    compute : bool
        With ``False`` nothing is computed: only cached rows are returned and
        ``attrs["coverage"]`` says how many of the tasks are present.
    tasks : list of Task, optional
        Run only these tasks of the grid (default: all).

    Returns
    -------
    pandas.DataFrame
        One row per task (cell x seed x fold) in grid order: the label columns
        :data:`LABEL_COLUMNS`, ``key``, every metric of
        :func:`ldpfair.metrics.evaluate`, training-data unfairness, sizes, the
        timing columns :data:`TIMING_COLUMNS` and ``warnings``.
        ``attrs["coverage"] = {"present": ..., "total": ...}``.
    """
    from joblib import Parallel, delayed
    from tqdm.auto import tqdm

    from .._validation import check_n_jobs

    global _ACTIVE
    n_jobs = check_n_jobs(n_jobs)
    tasks = [*grid.tasks()] if tasks is None else list(tasks)
    store = _as_cache(cache)
    rows: dict[str, dict[str, Any]] = store.get_many(t.key for t in tasks) if store else {}
    missing = [t for t in tasks if t.key not in rows]
    if compute and missing:
        root = None if store is None else str(store.root)
        outer = _ACTIVE
        if n_jobs == 1:  # one limit for the whole run in this process, undone at its end
            _ACTIVE = outer or _ThreadLimit()
            results = (_worker(t, root) for t in missing)
        else:
            import socket

            parent = (socket.gethostname(), os.getpid())
            results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(_worker)(t, root, parent) for t in missing
            )
        bar = tqdm(total=len(missing), desc=grid.name, unit="cell", disable=not progress,
                   leave=False)
        try:
            elsewhere = []
            for _, key, row in results:
                if row is None:
                    elsewhere.append(key)
                    continue
                rows[key] = row
                bar.update(1)
            if elsewhere and store is not None:
                _wait_for_others(store, [t for t in missing if t.key in set(elsewhere)], rows, bar)
        finally:
            bar.close()
            if _ACTIVE is not None and _ACTIVE is not outer:
                _ACTIVE.restore()
            _ACTIVE = outer
    frame = tidy(tasks, rows)
    frame.attrs["coverage"] = {"present": sum(t.key in rows for t in tasks), "total": len(tasks)}
    return frame
