"""The contract every paper chapter satisfies.

A chapter of the book is a package ``ldpfair/papers/<paper>/`` with the same rooms:

``experiments.py``
    The profiles and the experiment declarations (:class:`~ldpfair.experiments.Grid`
    and :class:`~ldpfair.experiments.Sweep`), and the cell functions they run.
    Cheap to import: no plotting, no reading of results.
``figures.py``
    Every figure of the chapter, as functions of the results.
``checks.py``
    The published numbers, their comparison with ours, the claims and the
    scoreboard items, judged by :mod:`ldpfair.verdicts` (one set of rules).
``__init__.py``
    ``SPEC``, a :class:`PaperSpec`: what the registry (:mod:`ldpfair.papers`), the
    command line (``ldpfair run``, ``ldpfair results``), the scoreboard and the
    notebook use. The notebook fetches its results through
    ``SPEC.results(profile, n_jobs=..., **overrides)``, the one road through the
    task cache and the committed results.

A sixth paper is a copy of ``ldpfair/papers/_template/`` (see the book page
"Adding a paper"); ``tests/test_papers.py`` checks every registered paper
against this contract.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from ..reporting import Claim

__all__ = ["Profile", "PaperSpec", "InChecks", "Derived", "REQUIRED_ROOMS", "ROOMS"]

#: The modules every chapter package has, and the one role of each.
REQUIRED_ROOMS: Mapping[str, str] = MappingProxyType({
    "__init__": "exports SPEC (a PaperSpec) and imports nothing heavy",
    "experiments": "the profiles, declare(profile), the @versioned cell functions and PARAMETERS",
    "checks": "the claims and the scoreboard rows, judged with ldpfair.verdicts",
})

#: The rooms a chapter package may have, by name and role (the required ones first). A chapter's
#: other modules hold the paper's own method (a model, an attack, a derivation) that its cells call.
ROOMS: Mapping[str, str] = MappingProxyType({
    **REQUIRED_ROOMS,
    "figures": "figures drawn from results, each a function returning a Figure",
    "metrics": "the paper's metric bundle (paper_metrics), pinned with @versioned",
    "findings": "derived tables and readings the notebook shows, from results",
    "tables": "the tables the notebook shows, formatted from results",
    "published": "the paper's printed numbers, transcribed",
    "authors": "reading the authors' own runs",
})


@dataclass(frozen=True)
class Profile:
    """A named set of default values of a chapter's overridable parameters.

    Parameters
    ----------
    name : str
        ``"quick"`` (computed in CI) or ``"paper"`` (the committed results), or
        another name the chapter declares.
    values : mapping of str to object
        The profile's default for every parameter a reader may override (the
        datasets, the budgets, the number of seeds...). A chapter with nothing
        to override has an empty mapping.

    Examples
    --------
    >>> quick = Profile("quick", {"epsilons": (1, 8), "seeds": 2})
    >>> quick.with_overrides(seeds=5, epsilons=None)["seeds"], quick["epsilons"]
    (5, (1, 8))
    """

    name: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a profile needs a non-empty name, got {self.name!r}")
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    def __getitem__(self, key: str) -> Any:
        try:
            return self.values[key]
        except KeyError:
            raise KeyError(f"profile {self.name!r} has no parameter {key!r}; it has: "
                           f"{', '.join(self.values) or 'none'}") from None

    def with_overrides(self, **overrides: Any) -> Profile:
        """A copy with the given values replaced; ``None`` keeps the profile's value.

        Raises
        ------
        ValueError
            If a name is not one of the profile's parameters (the message lists them).
        """
        unknown = [k for k in overrides if k not in self.values]
        if unknown:
            valid = ", ".join(self.values) or "none (this chapter has no overridable parameter)"
            raise ValueError(f"unknown parameter(s) {', '.join(map(repr, unknown))} of profile "
                             f"{self.name!r}; valid: {valid}")
        changed = {k: v for k, v in overrides.items() if v is not None}
        return Profile(self.name, {**self.values, **changed}) if changed else self


@dataclass(frozen=True)
class InChecks:
    """A function of a chapter's ``checks`` module, imported when first called.

    A chapter's ``__init__`` imports only its declarations; the checks (and what
    they import: the results, the published numbers) load when the scoreboard or
    the claims are asked for.
    """

    module: str
    function: str

    def __call__(self) -> Any:
        """Import :attr:`module` and call its :attr:`function` without arguments."""
        import importlib

        return getattr(importlib.import_module(self.module), self.function)()


@dataclass(frozen=True)
class Derived:
    """Results tables computed from a chapter's committed results and the paper's numbers.

    Not every committed table is a grid of tasks: a chapter may summarise its runs
    against the published numbers with a simulation of its own (hamman2023's
    forensics of the published errors). The chapter declares such tables here and
    the engine computes, writes and verifies them like its experiments
    (:mod:`ldpfair.experiments.derived`): ``ldpfair results compute <paper>`` writes
    any that is missing (all with ``--force``) after the experiments, and
    ``ldpfair results verify`` checks their checksums and recomputes them whole
    when a file differs from its committed version (or with ``--all``), requiring
    the same bytes.

    Parameters
    ----------
    names : tuple of str
        The results files ``results/<paper>/<name>.csv.gz`` it writes.
    module, function : str
        ``module.function(**parameters)`` returns ``{name: DataFrame}`` for every
        name; imported when first called, so that the chapter's package stays cheap.
    parameters : mapping
        Its keyword arguments (e.g. the replications and the seed of a simulation),
        recorded in each file's metadata.
    """

    names: tuple[str, ...]
    module: str
    function: str
    parameters: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.names or any(not isinstance(n, str) or not n for n in self.names):
            raise ValueError(f"Derived needs the names of the files it writes, got {self.names!r}")
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))

    @property
    def producer(self) -> str:
        """``module.function``, recorded in the metadata."""
        return f"{self.module}.{self.function}"

    def compute(self) -> dict[str, pd.DataFrame]:
        """Import and call the function; return its frames (ValueError unless it returns every name)."""
        import importlib

        frames = dict(getattr(importlib.import_module(self.module), self.function)(**self.parameters))
        if set(frames) != set(self.names):
            raise ValueError(f"{self.producer} returned {sorted(frames)}, declared {sorted(self.names)}")
        return {n: frames[n] for n in self.names}


@dataclass(frozen=True)
class PaperSpec:
    """What a chapter declares: the contract of ``ldpfair/papers/<paper>/__init__.py``.

    Parameters
    ----------
    name : str
        The registry name (the package's name, e.g. ``"hamman2023"``).
    title : str
        The chapter's title (the paper's, or what the chapter studies).
    profiles : mapping of str to Profile
        At least ``"quick"`` and ``"paper"``.
    declare : callable
        ``declare(profile) -> {experiment name: Grid or Sweep}``. For a declared
        profile as is, the experiments of ``"paper"`` are exactly the committed
        ones (``results/<paper>/<name>.csv.gz``).
    claims : callable, optional
        ``claims() -> list of Claim``: the paper's claims judged on the committed
        results. Default: ``committed_claims()`` of the chapter's ``checks`` module,
        imported when first called (so that importing the package stays cheap).
    scoreboard : callable, optional
        Default: ``scoreboard()`` of the chapter's ``checks`` module, imported when
        first called. ``scoreboard() -> DataFrame`` with the columns of
        :data:`ldpfair.verdicts.ITEM_COLUMNS`: one row per figure, table and
        numbered result of the paper (see :func:`ldpfair.verdicts.score_item`).
    parameters : mapping, optional
        The notebook's parameters (:class:`ldpfair.experiments.parameters.Param`),
        checked by ``ldpfair run`` before a kernel starts.
    overrides : sequence of str, optional
        The notebook parameters that the notebook passes to :meth:`results` as
        profile overrides (``ldpfair run`` declares the experiments with them
        before a kernel starts, so a combination the chapter refuses fails
        early). Default: every notebook parameter that is a value of the profile.
    derived : sequence of Derived, optional
        The chapter's committed tables that are not experiments (:class:`Derived`):
        computed after the experiments, from the committed results.
    data_files : sequence of str, optional
        The registered data files (:mod:`ldpfair.datasets.registry`) the chapter
        reads, for ``ldpfair data list --paper``; empty for a chapter that reads
        none. The book's first chapters are listed in
        :data:`ldpfair.datasets.chapters.CHAPTER_FILES` instead.
    """

    name: str
    title: str
    profiles: Mapping[str, Profile]
    declare: Callable[[Profile], Mapping[str, Any]]
    claims: Callable[[], Sequence[Claim]] = InChecks("", "committed_claims")
    scoreboard: Callable[[], pd.DataFrame] = InChecks("", "scoreboard")
    parameters: Mapping[str, Any] = field(default_factory=dict)
    overrides: Sequence[str] | None = None
    derived: Sequence[Derived] = ()
    data_files: Sequence[str] = ()

    def __post_init__(self) -> None:
        missing = [p for p in ("quick", "paper") if p not in self.profiles]
        if missing:
            raise ValueError(f"paper {self.name!r} must declare the profiles 'quick' and 'paper'; "
                             f"missing: {', '.join(missing)}")
        for key, prof in self.profiles.items():
            if not isinstance(prof, Profile) or prof.name != key:
                raise ValueError(f"paper {self.name!r}: profiles[{key!r}] must be Profile({key!r}, ...), "
                                 f"got {prof!r}")
        object.__setattr__(self, "profiles", MappingProxyType(dict(self.profiles)))
        for attr in ("claims", "scoreboard"):  # the defaults: the chapter's own checks module
            value = getattr(self, attr)
            if isinstance(value, InChecks) and not value.module:
                object.__setattr__(self, attr, InChecks(f"{__package__}.{self.name}.checks", value.function))
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))

    def profile(self, name: str = "paper", **overrides: Any) -> Profile:
        """The profile ``name`` with ``overrides`` applied (``None`` keeps a value).

        Raises
        ------
        ValueError
            If ``name`` is not a declared profile or an override is not one of its parameters.
        """
        if name not in self.profiles:
            raise ValueError(f"unknown profile {name!r} of {self.name}; valid: {', '.join(self.profiles)}")
        return self.profiles[name].with_overrides(**overrides)

    def run_overrides(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The profile overrides among the values of a notebook's parameters (see ``overrides``)."""
        profile = self.profile(values.get("profile", "paper"))
        names = profile.values if self.overrides is None else self.overrides
        return {k: values[k] for k in names if k in values}

    def experiments(self, profile: str = "paper", **overrides: Any) -> dict[str, Any]:
        """The experiments (name -> Grid or Sweep) of ``profile`` with ``overrides``.

        A declared profile as is (no override, or only ``None`` ones) is declared once
        per process: later calls return a new dict of the same experiment objects
        (Grid and GridUnion are frozen; nothing changes a Sweep after it is made).
        Overrides declare afresh.
        """
        prof = self.profile(profile, **overrides)
        if prof is not self.profiles[profile]:
            return dict(self.declare(prof))
        memo: dict[str, dict[str, Any]] = self.__dict__.setdefault("_declared", {})
        if profile not in memo:
            memo[profile] = dict(self.declare(prof))
        return dict(memo[profile])

    def results(
        self,
        profile: str = "paper",
        *,
        n_jobs: int | None = 1,
        progress: bool = False,
        compute: bool | None = None,
        cache: str | os.PathLike[str] | None = None,
        **overrides: Any,
    ) -> dict[str, pd.DataFrame]:
        """Tidy results of every experiment of ``profile``, through the task cache.

        The ``paper`` profile is read from the committed results; cells that are
        not committed (a parameter outside the committed grid) are computed only
        when ``compute`` (or ``LDPFAIR_COMPUTE=1``) says so, and each frame's
        ``attrs["coverage"]`` says how many are present. Any other profile is
        computed, resumably (see :func:`ldpfair.papers.results`).
        """
        from .running import run_experiments

        grids = self.experiments(profile, **overrides)
        return run_experiments(self.name, grids, profile, n_jobs=n_jobs, progress=progress,
                               compute=compute, cache=cache)
