"""The :class:`Dataset` container and the registry of dataset loaders.

Every loader is a function ``build(**options) -> Dataset`` registered under a
name with :func:`register`, together with the options it accepts and their
valid values. :func:`load` validates the name and the options before calling
the loader, so an unknown dataset or option always fails with a message that
lists what is valid.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._validation import check_member

__all__ = ["Dataset", "LoaderInfo", "register", "names", "load", "info"]


@dataclass
class Dataset:
    """A preprocessed dataset, exactly as one paper used it.

    Attributes
    ----------
    name : str
        Registry name (``ldpfair.datasets.names()``).
    frame : pandas.DataFrame
        One row per individual. Categorical attributes are integer codes
        ``0 .. k-1`` (see ``categories``); numeric columns are listed in
        ``numeric``.
    target : str
        Column of the outcome; 1 is the paper's positive class, which is the
        favourable outcome except where the description says otherwise (the COMPAS
        datasets keep their papers' coding: 1 = recidivism / high risk score). Empty
        for datasets that are an attribute vector only (``synthetic_hamman``).
    protected : str
        Column of the protected attribute; the paper's privileged group is coded 1.
    sensitive : dict[str, int]
        Ordered mapping of the paper's sensitive attributes to their domain sizes
        (the attributes an LDP protocol perturbs), the protected one first.
    domains : dict[str, int]
        Domain size of every categorical column (target included), computed on the
        full processed dataset as the authors did.
    categories : dict[str, dict[int, str]]
        For each categorical column, the label of each code.
    numeric : list[str]
        Columns that are numeric rather than categorical codes.
    description, citation, license, source : str
        Data-card text: what the data is and how it was processed; the BibTeX key(s)
        of the data source and of the paper whose preprocessing this is; the licence;
        the upstream home.
    options : dict
        The loader options that produced this dataset (defaults filled in).
    files : list[str]
        Registry names of the raw files the dataset was built from.
    """

    name: str
    frame: pd.DataFrame
    target: str
    protected: str
    sensitive: dict[str, int]
    domains: dict[str, int]
    categories: dict[str, dict[int, str]] = field(default_factory=dict)
    numeric: list[str] = field(default_factory=list)
    description: str = ""
    citation: str = ""
    license: str = ""
    source: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        """Number of rows."""
        return len(self.frame)

    @property
    def features(self) -> list[str]:
        """All columns except the target, in frame order."""
        return [c for c in self.frame.columns if c != self.target]

    @property
    def X(self) -> pd.DataFrame:  # noqa: N802 - scikit-learn naming
        """The feature columns."""
        return self.frame[self.features]

    @property
    def y(self) -> np.ndarray:
        """The target as an int array."""
        return self.frame[self.target].to_numpy(dtype=np.int64)

    @property
    def a(self) -> np.ndarray:
        """The protected attribute as an int array (privileged group = 1)."""
        return self.frame[self.protected].to_numpy(dtype=np.int64)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return (
            f"Dataset({self.name!r}{', ' + opts if opts else ''}: n={self.n}, "
            f"target={self.target!r}, protected={self.protected!r}, sensitive={self.sensitive})"
        )


@dataclass(frozen=True)
class LoaderInfo:
    """What the registry knows of one loader."""

    name: str
    func: Callable[..., Dataset]
    choices: Mapping[str, Sequence[Any] | None]
    summary: str
    paper: tuple[str, ...]

    @property
    def defaults(self) -> dict[str, Any]:
        """Default value of every option, read from the loader's signature (a fresh dict)."""
        return dict(_signature_defaults(self.func))


@functools.cache
def _signature_defaults(func: Callable[..., Dataset]) -> dict[str, Any]:
    """Default option values of ``func``, memoised per loader (every task key reads them)."""
    sig = inspect.signature(func)
    return {
        p.name: p.default
        for p in sig.parameters.values()
        if p.default is not inspect.Parameter.empty
    }


_LOADERS: dict[str, LoaderInfo] = {}


def register(
    name: str,
    *,
    summary: str,
    paper: str | Sequence[str] = (),
    choices: Mapping[str, Sequence[Any] | None] | None = None,
) -> Callable[[Callable[..., Dataset]], Callable[..., Dataset]]:
    """Register ``func`` as the loader of dataset ``name``.

    Parameters
    ----------
    name : str
        Registry name.
    summary : str
        One line shown by ``ldpfair data list``.
    paper : str or sequence of str
        The paper(s) whose preprocessing this loader implements.
    choices : mapping, optional
        For options with a finite set of valid values, that set; ``None`` for
        free-form options (validated by the loader itself). Every keyword
        parameter of ``func`` is an option.
    """
    papers = (paper,) if isinstance(paper, str) else tuple(paper)

    def decorator(func: Callable[..., Dataset]) -> Callable[..., Dataset]:
        if name in _LOADERS:
            raise ValueError(f"dataset {name!r} registered twice")
        params = inspect.signature(func).parameters
        ch = dict(choices or {})
        unknown = set(ch) - set(params)
        if unknown:
            raise ValueError(f"choices for unknown option(s) {sorted(unknown)} of {name!r}")
        for p in params:
            ch.setdefault(p, None)
        _LOADERS[name] = LoaderInfo(name, func, ch, summary, papers)
        return func

    return decorator


def names() -> list[str]:
    """Return the names of every dataset, sorted."""
    return sorted(_LOADERS)


def info(name: str) -> LoaderInfo:
    """Return the :class:`LoaderInfo` of dataset ``name``."""
    if name not in _LOADERS:
        raise ValueError(f"unknown dataset {name!r}; valid: {', '.join(names())}")
    return _LOADERS[name]


def load(name: str, **options: Any) -> Dataset:
    """Load dataset ``name`` with the paper's preprocessing.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    **options
        Loader options (see ``ldpfair data list`` or ``info(name).defaults``).

    Raises
    ------
    ValueError
        For an unknown dataset, an unknown option, or an option value outside its
        valid set; the message lists what is valid.
    FileNotFoundError
        If a raw file is missing offline (the message names the file, the folders
        searched, its URL and ``LDPFAIR_DATA_DIR``).
    """
    li = info(name)
    unknown = sorted(set(options) - set(li.choices))
    if unknown:
        valid = ", ".join(f"{k}={v!r}" for k, v in li.defaults.items()) or "(none)"
        raise ValueError(f"unknown option(s) {unknown} for dataset {name!r}; valid options: {valid}")
    for key, value in list(options.items()):
        allowed = li.choices[key]
        if allowed is not None:
            # of the same type as well as equal: True is not 1, 3.0 is not 3 (check_member)
            try:
                options[key] = check_member(value, allowed, key)
            except ValueError as err:
                raise ValueError(f"{err} (dataset {name!r})") from None
    ds = li.func(**options)
    ds.options = {**li.defaults, **options}
    return ds
