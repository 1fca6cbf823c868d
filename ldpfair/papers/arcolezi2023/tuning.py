"""arcolezi2023's hyperparameter search (TPE, 100 evaluations), on a validation split or as the authors.

The authors tuned LightGBM once per dataset with hyperopt's TPE (``fmin``,
``max_evals=100``, ``rstate=np.random.default_rng(42)``) on the one-hot encoded
original data of the seed-42 split (80/20, stratified), maximising the
**hard-label AUC on the test set** (``1_BO_NonDP.ipynb``). The same test rows are
then part of the 20 seeds' test sets, so the NonDP baseline is optimistic.

:func:`tune` runs the same search with optuna's seeded :class:`TPESampler`:

* ``selection="test"``: the authors' protocol (fit on the 80% training rows,
  score on the 20% test rows);
* ``selection="validation"`` (default): the training rows are split again
  (stratified, ``validation_size`` of them held out), trials are scored on the
  validation rows, and the chosen configuration is refitted on all training rows
  and scored once on the untouched test rows.

optuna is an optional dependency; without it :func:`tune` raises an
:class:`ImportError` saying how to install it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["SEARCH_SPACES", "TuningResult", "tuning_split", "score_params", "tune"]

#: Search spaces: ``max_depth`` (int range), ``n_estimators`` (range and step),
#: ``learning_rate`` (uniform range). "authors": the code (max_depth -1..50);
#: "paper": the text (max_depth 3..50).
SEARCH_SPACES: dict[str, dict[str, tuple[float, ...]]] = {
    "authors": {"max_depth": (-1, 50), "n_estimators": (50, 2000, 50), "learning_rate": (0.01, 0.25)},
    "paper": {"max_depth": (3, 50), "n_estimators": (50, 2000, 50), "learning_rate": (0.01, 0.25)},
}
_SELECTIONS = ("validation", "test")
_METRICS = ("auc_labels", "auc_scores", "acc")


@dataclass
class TuningResult:
    """Outcome of :func:`tune`.

    Attributes
    ----------
    dataset, selection : str
        What was tuned and on which rows trials were scored.
    best_params : dict
        The chosen ``max_depth``, ``learning_rate``, ``n_estimators``.
    best_score : float
        Its score on the selection rows.
    test_score : float
        Its score on the test rows (refitted on all training rows when
        ``selection="validation"``; equal to ``best_score`` for ``"test"``).
    trials : pandas.DataFrame
        One row per evaluation: ``trial``, the parameters and ``score``.
    """

    dataset: str
    selection: str
    best_params: dict[str, Any]
    best_score: float
    test_score: float
    trials: pd.DataFrame = field(repr=False)


def _check_space(space: str | Mapping[str, tuple[float, ...]]) -> dict[str, tuple[float, ...]]:
    if isinstance(space, str):
        if space not in SEARCH_SPACES:
            raise ValueError(f"invalid space={space!r}; valid: {', '.join(SEARCH_SPACES)} or a mapping")
        return dict(SEARCH_SPACES[space])
    if not isinstance(space, Mapping) or set(space) != {"max_depth", "n_estimators", "learning_rate"}:
        raise ValueError("space must name a search space or map max_depth, n_estimators and learning_rate "
                         f"to ranges, got {space!r}")
    return {k: tuple(v) for k, v in space.items()}


def tuning_split(
    y: np.ndarray, selection: str = "validation", *, seed: int = 42, validation_size: float = 0.25
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row indices ``(fit, score, test)`` of the search.

    The outer split is the authors' (``train_test_split(test_size=0.2, stratify=y,
    random_state=seed)``). With ``selection="test"`` the trials are scored on the
    test rows (``score`` is ``test``); with ``"validation"`` the training rows are
    split again, stratified, with ``random_state=seed``, and ``score`` is disjoint
    from ``test``.
    """
    from sklearn.model_selection import train_test_split

    if selection not in _SELECTIONS:
        raise ValueError(f"invalid selection={selection!r}; valid: {', '.join(_SELECTIONS)}")
    if not 0.0 < float(validation_size) < 1.0:
        raise ValueError(f"validation_size must lie in (0, 1), got {validation_size!r}")
    y = np.asarray(y)
    idx = np.arange(y.shape[0])
    train, test = train_test_split(idx, test_size=0.2, shuffle=True, stratify=y, random_state=seed)
    if selection == "test":
        return np.asarray(train), np.asarray(test), np.asarray(test)
    fit, val = train_test_split(train, test_size=validation_size, shuffle=True, stratify=y[train],
                                random_state=seed)
    return np.asarray(fit), np.asarray(val), np.asarray(test)


def score_params(
    params: Mapping[str, Any],
    x_fit: Any,
    y_fit: np.ndarray,
    x_score: Any,
    y_score: np.ndarray,
    *,
    seed: int = 42,
    metric: str = "auc_labels",
    threads: int = 1,
) -> float:
    """Fit LightGBM (``random_state=seed``) with ``params`` and score it.

    ``metric``: ``"auc_labels"`` (ROC AUC of the hard 0/1 predictions, the authors'
    objective), ``"auc_scores"`` (of the predicted probabilities) or ``"acc"``.
    """
    from sklearn.metrics import accuracy_score, roc_auc_score

    from ...models import make_model

    if metric not in _METRICS:
        raise ValueError(f"invalid metric={metric!r}; valid: {', '.join(_METRICS)}")
    model = make_model("lightgbm", seed, threads=threads, **dict(params))
    model.fit(x_fit, y_fit)
    proba = np.asarray(model.predict_proba(x_score))[:, 1]
    pred = (proba > 0.5).astype(np.int64)  # LightGBM's predict(): argmax of the two probabilities
    if metric == "auc_scores":
        return float(roc_auc_score(y_score, proba))
    if metric == "acc":
        return float(accuracy_score(y_score, pred))
    return float(roc_auc_score(y_score, pred))


def _import_optuna() -> Any:
    try:
        import optuna
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "ldpfair.papers.arcolezi2023.tuning.tune needs optuna (TPE sampler), which is not installed: "
            "pip install optuna (an optional dependency of ldpfair)"
        ) from exc
    return optuna


def tune(
    dataset: str,
    n_evals: int = 100,
    selection: str = "validation",
    seed: int = 42,
    *,
    space: str | Mapping[str, tuple[float, ...]] = "authors",
    metric: str = "auc_labels",
    validation_size: float = 0.25,
    threads: int = 1,
) -> TuningResult:
    """Search LightGBM's ``max_depth``, ``n_estimators`` and ``learning_rate`` with seeded TPE.

    Parameters
    ----------
    dataset : {"adult26k", "acs_coverage", "lsac"}
        Dataset (one-hot encoded original data, as the NonDP baseline).
    n_evals : int
        Number of evaluations (the authors: 100).
    selection : {"validation", "test"}
        Rows the trials are scored on (see the module docstring); ``"test"`` is what
        the authors did.
    seed : int
        Seed of the split, of LightGBM and of the TPE sampler (the authors: 42).
    space : {"authors", "paper"} or mapping
        Search space (:data:`SEARCH_SPACES`) or a custom one with the same keys.
    metric : {"auc_labels", "auc_scores", "acc"}
        Objective, maximised (the authors: hard-label AUC).
    validation_size : float
        Share of the training rows held out with ``selection="validation"``.
    threads : int
        LightGBM threads.

    Returns
    -------
    TuningResult
    """
    from ...datasets import load
    from ...encoding import assemble, feature_blocks
    from .experiments import SENSITIVE

    if dataset not in SENSITIVE:
        raise ValueError(f"invalid dataset={dataset!r}; valid: {', '.join(SENSITIVE)}")
    if isinstance(n_evals, bool) or not isinstance(n_evals, (int, np.integer)) or n_evals < 1:
        raise ValueError(f"n_evals must be a positive int, got {n_evals!r}")
    if selection not in _SELECTIONS:
        raise ValueError(f"invalid selection={selection!r}; valid: {', '.join(_SELECTIONS)}")
    if metric not in _METRICS:
        raise ValueError(f"invalid metric={metric!r}; valid: {', '.join(_METRICS)}")
    box = _check_space(space)
    optuna = _import_optuna()

    ds = load(dataset)
    blocks = feature_blocks(ds.frame, list(ds.features), ds.domains, ds.numeric)
    fit, score_rows, test = tuning_split(ds.y, selection, seed=seed, validation_size=validation_size)

    def rows(idx: np.ndarray) -> Any:
        return assemble(blocks, list(ds.features), rows=idx)

    x_fit, x_score, y_fit, y_score = rows(fit), rows(score_rows), ds.y[fit], ds.y[score_rows]

    def objective(trial: Any) -> float:
        lo, hi = box["max_depth"][:2]
        n_lo, n_hi, n_step = box["n_estimators"]
        lr_lo, lr_hi = box["learning_rate"][:2]
        params = {
            "max_depth": trial.suggest_int("max_depth", int(lo), int(hi)),
            "n_estimators": trial.suggest_int("n_estimators", int(n_lo), int(n_hi), step=int(n_step)),
            "learning_rate": trial.suggest_float("learning_rate", float(lr_lo), float(lr_hi)),
        }
        return score_params(params, x_fit, y_fit, x_score, y_score, seed=seed, metric=metric,
                            threads=threads)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.optimize(objective, n_trials=int(n_evals))
    trials = pd.DataFrame([{"trial": t.number, **t.params, "score": t.value} for t in study.trials])
    best = {k: study.best_params[k] for k in ("max_depth", "learning_rate", "n_estimators")}
    best_score = float(study.best_value)
    if selection == "test":
        test_score = best_score
    else:
        train = np.concatenate([fit, score_rows])
        test_score = score_params(best, rows(train), ds.y[train], rows(test), ds.y[test], seed=seed,
                                  metric=metric, threads=threads)
    return TuningResult(dataset, selection, best, best_score, test_score, trials)
