"""Model specifications -> deterministic, single-threaded scikit-learn estimators.

A :class:`ModelSpec` names a model family and its hyperparameters; ``build``
returns a fresh estimator seeded with an explicit ``random_state``. Every
family runs in its deterministic mode with one thread unless told otherwise, so
that a grid parallelised over cells neither oversubscribes the CPU nor depends
on thread scheduling:

- ``"lightgbm"``: :class:`lightgbm.LGBMClassifier` with ``objective="binary"``,
  ``deterministic=True``, ``force_row_wise=True``, ``n_jobs=threads``,
  ``verbose=-1`` (arcolezi2023, ghoukasian2025);
- ``"random_forest"``: :class:`sklearn.ensemble.RandomForestClassifier` with
  ``n_jobs=threads`` (makhlouf2024);
- ``"logistic_regression"``: :class:`sklearn.linear_model.LogisticRegression`
  (``max_iter=1000``);
- ``"gradient_boosting"``: :class:`sklearn.ensemble.GradientBoostingClassifier`;
- or any callable ``f(random_state: int, **params) -> estimator``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .identity import callable_id

__all__ = ["MODELS", "ModelSpec", "make_model", "TUNED_LGBM"]

#: Model family names (and their aliases) accepted by :class:`ModelSpec`.
MODELS = ("lightgbm", "random_forest", "logistic_regression", "gradient_boosting")
_ALIASES = {
    "lgbm": "lightgbm",
    "rf": "random_forest",
    "lr": "logistic_regression",
    "logreg": "logistic_regression",
    "gbm": "gradient_boosting",
}

#: LightGBM hyperparameters tuned per dataset by Bayesian optimisation (arcolezi2023's, from the
#: authors' ``.npy`` files; ghoukasian2025 reuses them).
TUNED_LGBM = {
    "adult": {"max_depth": 38, "learning_rate": 0.0225569673, "n_estimators": 1100},
    "ACSCoverage": {"max_depth": 47, "learning_rate": 0.2024340096, "n_estimators": 1300},
    "LSAC": {"max_depth": 9, "learning_rate": 0.1817799459, "n_estimators": 1100},
}


def make_model(name: str, random_state: int, *, threads: int = 1, **params: Any) -> Any:
    """Return an unfitted, seeded, deterministic estimator of family ``name``.

    Parameters
    ----------
    name : str
        One of :data:`MODELS` (aliases ``lgbm, rf, lr, logreg, gbm``).
    random_state : int
        Seed of the estimator's own randomness.
    threads : int
        Threads the estimator may use (``n_jobs``); 1 by default.
    **params
        Hyperparameters, passed to the estimator (they override the defaults).
    """
    family = _ALIASES.get(name, name)
    if family not in MODELS:
        raise ValueError(f"unknown model {name!r}; valid: {', '.join(MODELS)} (or a callable)")
    if isinstance(random_state, bool) or not isinstance(random_state, numbers.Integral):
        raise TypeError(f"random_state must be an int, got {random_state!r}")
    if family == "lightgbm":
        import lightgbm as lgb

        base = {
            "objective": "binary",
            "deterministic": True,
            "force_row_wise": True,
            "n_jobs": threads,
            "verbose": -1,
        }
        return lgb.LGBMClassifier(random_state=int(random_state), **{**base, **params})
    if family == "random_forest":
        from sklearn.ensemble import RandomForestClassifier

        return RandomForestClassifier(
            random_state=int(random_state), **{"n_jobs": threads, **params}
        )
    if family == "logistic_regression":
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(random_state=int(random_state), **{"max_iter": 1000, **params})
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(random_state=int(random_state), **params)


@dataclass(frozen=True)
class ModelSpec:
    """A model family (or factory callable) with its hyperparameters.

    Parameters
    ----------
    model : str or callable
        A family of :data:`MODELS`, or ``f(random_state, **params) -> estimator``.
    params : mapping
        Hyperparameters (JSON-serialisable: they are part of the cache key).
    label : str, optional
        Name shown in the results (default: the family or the callable's name).
    threads : int
        Threads per fit (1 by default; the engine parallelises over cells).
    """

    model: str | Callable[..., Any] = "lightgbm"
    params: Mapping[str, Any] = field(default_factory=dict)
    label: str | None = None
    threads: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.model, str):
            family = _ALIASES.get(self.model, self.model)
            if family not in MODELS:
                raise ValueError(
                    f"unknown model {self.model!r}; valid: {', '.join(MODELS)} (or a callable)"
                )
            object.__setattr__(self, "model", family)
        elif not callable(self.model):
            raise TypeError(f"model must be a model name or a callable, got {self.model!r}")
        if not isinstance(self.params, Mapping):
            raise TypeError(f"params must be a mapping, got {type(self.params).__name__}")
        object.__setattr__(self, "params", dict(self.params))
        if isinstance(self.threads, bool) or not isinstance(self.threads, int) or self.threads < 1:
            raise ValueError(f"threads must be an int >= 1, got {self.threads!r}")

    @property
    def name(self) -> str:
        """Label of the model in result tables."""
        if self.label:
            return self.label
        if isinstance(self.model, str):
            return self.model
        return getattr(self.model, "__name__", type(self.model).__name__)

    def build(self, random_state: int) -> Any:
        """Return a fresh unfitted estimator seeded with ``random_state``."""
        if isinstance(self.model, str):
            return make_model(self.model, random_state, threads=self.threads, **self.params)
        return self.model(random_state, **self.params)

    def config(self) -> dict[str, Any]:
        """JSON-able description used in the cell key (see :func:`~ldpfair.identity.callable_id`)."""
        return {"model": callable_id(self.model), "params": dict(self.params)}
