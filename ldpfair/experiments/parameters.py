"""Declared type and domain of every parameter of the paper notebooks.

Each paper declares each parameter of its notebook's ``parameters`` cell once,
in :data:`DECLARATIONS`: what it means, its domain in words, and a check that
converts a value or raises one :class:`ValueError` naming the parameter and
what is valid. :func:`ldpfair.experiments.notebooks.validate_parameters` applies
these checks to the values given on the command line (``ldpfair run -p NAME
VALUE``) before any kernel starts, then calls the paper's grid builder
(:data:`BUILDERS`) with the resulting values, so a combination the paper module
refuses fails before the notebook runs too. ``ldpfair run --list`` prints the
declarations.

The table lives here, outside the paper modules, so that the checks need not
import them (a bad value is refused in well under a second).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._validation import check_count, check_epsilon, check_n_jobs, check_real, did_you_mean, interval

__all__ = ["Param", "DECLARATIONS", "BUILDERS", "check_parameter", "build_check"]

Check = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Param:
    """One declared notebook parameter.

    Attributes
    ----------
    meaning : str
        What the parameter does (one line).
    domain : str
        Its valid values, in words (shown by ``ldpfair run --list`` and in errors).
    check : callable
        ``check(value, name)`` returns the value (converted) or raises ValueError.
    accepts_text : bool
        Whether a command-line value that is not a Python literal is taken as a string.
    """

    meaning: str
    domain: str
    check: Check
    accepts_text: bool = False


def _kind(value: Any) -> str:
    return f"the {type(value).__name__} {value!r}"


def _fail(name: str, domain: str, value: Any, extra: str = "") -> ValueError:
    return ValueError(f"parameter {name!r} must be {domain}; got {_kind(value)}{extra}")


def boolean(meaning: str) -> Param:
    """A ``True``/``False`` switch."""
    def check(value: Any, name: str) -> bool:
        if not isinstance(value, bool):
            raise _fail(name, "True or False", value)
        return value

    return Param(meaning, "True or False", check)


def integer(meaning: str, minimum: int, maximum: int | None = None) -> Param:
    """An integer in ``[minimum, maximum]``."""
    domain = f"an integer >= {minimum}" + (f" and <= {maximum}" if maximum is not None else "")

    def check(value: Any, name: str) -> int:
        try:
            return check_count(value, name, minimum=minimum, maximum=maximum)
        except (TypeError, ValueError):
            raise _fail(name, domain, value) from None

    return Param(meaning, domain, check)


def real(meaning: str, low: float, high: float = math.inf, *, low_open: bool = False,
         optional: str | None = None) -> Param:
    """A finite real in ``[low, high]`` (``(low, high]`` with ``low_open``); ``None`` if ``optional``."""
    domain = f"a real number in {interval(low, high, low_open=low_open)}"
    if optional:
        domain = f"None ({optional}) or {domain}"

    def check(value: Any, name: str) -> float | None:
        if value is None and optional:
            return None
        try:
            return check_real(value, name, low=low, high=high, low_open=low_open)
        except (TypeError, ValueError):
            raise _fail(name, domain, value) from None

    return Param(meaning, domain, check)


def choice(meaning: str, values: Sequence[str]) -> Param:
    """One of ``values`` (a bare word on the command line is accepted)."""
    domain = "one of " + ", ".join(map(repr, values))

    def check(value: Any, name: str) -> str:
        if value not in values:
            raise _fail(name, domain, value, did_you_mean(value, values))
        return value

    return Param(meaning, domain, check, accepts_text=True)


def names(meaning: str, values: Sequence[str], *, none: str | None = None) -> Param:
    """A non-empty list of distinct names from ``values`` (or ``None``, meaning ``none``, if given)."""
    domain = "a non-empty list of distinct names from " + ", ".join(map(repr, values))
    if none:
        domain = f"None ({none}) or {domain}"

    def check(value: Any, name: str) -> list[str] | None:
        if value is None and none:
            return None
        if isinstance(value, str):
            raise _fail(name, domain, value, f" (a list is written -p {name} '[\"{value}\"]')")
        if not isinstance(value, (list, tuple)) or not value:
            raise _fail(name, domain, value)
        for v in value:
            if v not in values:
                raise _fail(name, domain, value, f": unknown name {v!r}{did_you_mean(v, values)}")
        if len(set(value)) != len(value):
            raise _fail(name, domain, value, " (a name is repeated)")
        return list(value)

    return Param(meaning, domain, check)


def epsilons(meaning: str, none: str) -> Param:
    """``None`` or a non-empty list of distinct privacy budgets in ``(0, inf)``."""
    domain = f"None ({none}) or a non-empty list of distinct privacy budgets > 0 (finite)"

    def check(value: Any, name: str) -> list[float] | None:
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or not value:
            raise _fail(name, domain, value)
        out = []
        for v in value:
            try:
                out.append(check_epsilon(v, f"each budget of {name!r}"))
            except (TypeError, ValueError) as exc:
                raise _fail(name, domain, value, f": {exc}") from None
        if len(set(out)) != len(out):
            raise _fail(name, domain, value, " (a budget is repeated)")
        return out

    return Param(meaning, domain, check)


def seeds(meaning: str, none: str, *, lists: bool = True) -> Param:
    """``None``, a number of seeds >= 1, or (``lists``) a list of distinct seeds >= 0."""
    domain = f"None ({none}), a number of seeds >= 1"
    domain += ", or a non-empty list of distinct integer seeds >= 0" if lists else ""

    def check(value: Any, name: str) -> int | list[int] | None:
        if value is None:
            return None
        if isinstance(value, numbers.Integral) and not isinstance(value, bool):
            if value < 1:
                raise _fail(name, domain, value)
            return int(value)
        if lists and isinstance(value, (list, tuple)) and value and all(
                isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 0 for v in value):
            if len(set(value)) != len(value):
                raise _fail(name, domain, value, " (a seed is repeated)")
            return [int(v) for v in value]
        raise _fail(name, domain, value)

    return Param(meaning, domain, check)


def n_jobs_param() -> Param:
    """Workers of the computation."""
    def check(value: Any, name: str) -> int | None:
        try:
            return check_n_jobs(value, f"parameter {name!r}")
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    return Param("parallel workers when computing (joblib)",
                 "None, an integer from 1 to 4 x the CPUs, or -1 .. -CPUs", check)


def _profile() -> Param:
    return choice("'paper': render the committed full results; 'quick': compute a small grid",
                  ("paper", "quick"))


_ARCOLEZI_PROTOCOLS = ("GRR", "BLH", "OLH", "RAPPOR", "OUE", "SS", "THE")
_XU_READINGS = ("paper", "v0", "v0+zhang", "v0+upper", "v0+abs", "v0+g", "paper-zhang", "paper+upper",
                "paper-abs", "paper-g", "paper+alpha0.5")
_SYNTHESIS_DATASETS = ("adult", "acs_coverage", "lsac", "compas", "german", "bank", "student_math", "dutch")

#: paper -> parameter -> declaration (every parameter of the notebook's parameters cell).
DECLARATIONS: dict[str, dict[str, Param]] = {
    "arcolezi2023": {
        "profile": _profile(),
        "datasets": names("datasets of the main and appendix experiments",
                          ("adult26k", "acs_coverage", "lsac"), none="the profile's datasets"),
        "protocols": names("LDP protocols", _ARCOLEZI_PROTOCOLS, none="all seven"),
        "splits": names("budget splits over the sensitive attributes", ("uniform", "k_based"),
                        none="both"),
        "epsilons": epsilons("privacy budgets", "the profile's budgets, paper: 0.25 ... 50"),
        "seeds": seeds("seeds (repetitions)", "the profile's number, paper: 20"),
        "appendix": boolean("also the appendix experiment (2-6 sensitive attributes per seed)"),
        "overlay_authors": boolean("draw the authors' per-seed means on the figures"),
        "fig1_value": integer("Fig. 1: race code of the example Adult user", 0, 4),
        "fig1_epsilon": real("Fig. 1: budget of that attribute", 0.0, low_open=True),
        "run_tuning": boolean("run the hyperparameter search (needs optuna; minutes to hours)"),
        "tuning_selection": choice("rows that select the hyperparameters", ("validation", "test")),
        "tuning_evals": integer("trials of the hyperparameter search", 1),
        "n_jobs": n_jobs_param(),
    },
    "ghoukasian2025": {
        "profile": _profile(),
        "figures": names("LightGBM figures computed", ("fig1", "fig2", "fig3", "fig4", "fig5"),
                         none="the profile's figures"),
        "mechanisms": names("LDP mechanisms of Figs. 1-5 (NonDP always included)", ("OPT", "GRR", "SS")),
        "epsilons": epsilons("privacy budgets of Figs. 1-5", "each figure's budgets"),
        "seeds": seeds("seeds of Figs. 1-6 and trials of Tables I-II", "the profile's", lists=False),
        "zeta": real("OPT's utility bound for k > 2", 0.0, 1.0, low_open=True,
                     optional="the smallest feasible zeta, as the paper"),
        "zeta_slack": real("added to the smallest feasible zeta when zeta is None", 0.0, 1.0),
        "theory_instances": integer("random instances of the Theorem 2 check", 1, 100_000),
        "n_jobs": n_jobs_param(),
    },
    "hamman2023": {
        "profile": _profile(),
        "n_jobs": n_jobs_param(),
    },
    "makhlouf2024": {
        "profile": _profile(),
        "faithful": boolean("True: the authors' fold aggregation (EO/PE from the last fold); "
                            "False: corrected"),
        "mixed_fig3": boolean("Fig. 3 rows fed by the files the authors' plotting code used"),
        "overlay_authors": boolean("draw the authors' per-run means on the figures"),
        "synthetic_source": choice("Synthetic 1: the authors' S1_*.csv files or data generated by ldpfair",
                                   ("authors", "generate")),
        "synthetic_seed": integer("seed of the synthetic data set", 0, 2**32 - 1),
        "n_jobs": n_jobs_param(),
    },
    "xu2019": {
        "profile": _profile(),
        "features": choice("encoding shown with the paper's numbers", ("compact", "onehot")),
        "reading": choice("reading of the paper shown next to its numbers ('paper': adopted; 'v0': our "
                          "first; the others switch one option)", _XU_READINGS),
        "n_jobs": n_jobs_param(),
    },
    "synthesis": {
        "profile": _profile(),
        "datasets": names("datasets of the benchmark", _SYNTHESIS_DATASETS, none="the profile's datasets"),
        "mechanisms": names("LDP mechanisms (NonDP always included)", (*_ARCOLEZI_PROTOCOLS, "OPT"),
                            none="the profile's mechanisms"),
        "epsilons": epsilons("privacy budgets", "the profile's budgets, paper: 0.5 ... 8"),
        "seeds": seeds("seeds (repetitions)", "the profile's number, paper: 10"),
        "heatmap_epsilons": epsilons("budgets of the heatmaps", "none"),
        "max_loss": real("matched accuracy loss of the leaderboard, as a fraction", 0.0, 1.0),
        "card_epsilons": epsilons("budgets of the mechanism cards", "none"),
        "card_reps": integer("simulated collections per mechanism card", 2),
        "n_jobs": n_jobs_param(),
    },
}


def _build_arcolezi(p: Mapping[str, Any]) -> None:
    from ..papers import arcolezi2023 as m

    over = {k: p[k] for k in ("datasets", "protocols", "splits", "epsilons", "seeds")}
    m.build(p["profile"], **over)
    if p["appendix"]:
        m.build_appendix(p["profile"], **over)


def _build_ghoukasian(p: Mapping[str, Any]) -> None:
    from ..papers import ghoukasian2025 as m
    from ..papers import ghoukasian2025_baselines as b

    m.build_lgbm(p["profile"], figures=p["figures"], mechanisms=p["mechanisms"], epsilons=p["epsilons"],
                 seeds=p["seeds"], zeta=p["zeta"], zeta_slack=p["zeta_slack"])
    b.build_baselines(p["profile"], seeds=p["seeds"])


def _build_plain(paper: str) -> Callable[[Mapping[str, Any]], None]:
    def build(p: Mapping[str, Any]) -> None:
        import importlib

        m = importlib.import_module(f"ldpfair.papers.{paper}")
        if paper == "makhlouf2024":
            m.build(p["profile"], synthetic_seed=p["synthetic_seed"], synthetic_source=p["synthetic_source"])
        elif paper == "synthesis":
            m.build(p["profile"], datasets=p["datasets"], mechanisms=p["mechanisms"], epsilons=p["epsilons"],
                    seeds=p["seeds"])
        else:
            m.build(p["profile"])

    return build


#: paper -> function of the complete parameter values that calls the paper's grid builder(s).
BUILDERS: dict[str, Callable[[Mapping[str, Any]], None]] = {
    "arcolezi2023": _build_arcolezi,
    "ghoukasian2025": _build_ghoukasian,
    "hamman2023": _build_plain("hamman2023"),
    "makhlouf2024": _build_plain("makhlouf2024"),
    "xu2019": _build_plain("xu2019"),
    "synthesis": _build_plain("synthesis"),
}


def check_parameter(paper: str, name: str, value: Any) -> Any:
    """Check ``value`` of ``paper``'s parameter ``name`` against its declaration; return it converted."""
    return DECLARATIONS[paper][name].check(value, name)


def build_check(paper: str, values: Mapping[str, Any]) -> None:
    """Call ``paper``'s grid builder with the complete parameter ``values``; one ValueError if it refuses."""
    builder = BUILDERS.get(paper)
    if builder is None:
        return
    try:
        builder(values)
    except (ValueError, TypeError, KeyError) as exc:
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise ValueError(f"the parameters of {paper} are refused by its grid builder: "
                         f"{str(text).splitlines()[0]}") from None
