"""The open benchmark: user mechanisms in the synthesis chapter, audited at the door.

A mechanism of the ``mechanisms`` parameter is a built-in name
(:data:`~ldpfair.papers.synthesis.experiments.MECHANISMS`) or a user mechanism
(:mod:`ldpfair.ldp.plugins`: an import path ``"pkg.mod:Name"``, a name given to
:func:`ldpfair.ldp.register`, or an entry point of ``ldpfair.mechanisms``). A user
mechanism is resolved and audited (:func:`ldpfair.ldp.plugins.admit`: exact level
from its channel where it has one, and an empirical audit of its sampler with
:data:`AUDIT_SAMPLES` reports per input) at every budget of the run, on the
benchmark's binary protected attributes (``k = 2``), before any cell runs. Its
cells go through the same engine and cache as the built-ins'.

:func:`mechanism_cards` gives the user mechanisms' cards: variance of the
frequency estimate (from the channel where there is one, else from ``p`` and
``q``), bits per report, the exact level and the audit's lower bound, and the
measured throughput.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..._validation import did_you_mean
from ...experiments import PrivSpec
from ...experiments.parameters import Param
from ...ldp import plugins

__all__ = [
    "AUDIT_SAMPLES",
    "BENCH_K",
    "admit_all",
    "audit_samples",
    "real_column",
    "mechanism_cards",
    "mechanisms_param",
    "priv",
    "user_specs",
]

#: Reports drawn per input by the empirical audit at the door.
AUDIT_SAMPLES = 10**6


def audit_samples() -> int:
    """Reports drawn per input by the empirical audits of the chapter (:data:`AUDIT_SAMPLES`)."""
    return AUDIT_SAMPLES


#: Domain size of the benchmark's protected attributes (all binary).
BENCH_K = 2
#: User mechanisms named to :func:`admit_all` in this session (their cards join the book's).
ADMITTED: list[str] = []


def user_specs(mechanisms: Sequence[str], builtins: Sequence[str]) -> list[str]:
    """The mechanisms of ``mechanisms`` that are not built-in."""
    return [m for m in mechanisms if m not in builtins]


def mechanisms_param(builtins: Sequence[str]) -> Param:
    """The ``mechanisms`` parameter: built-in names or user mechanisms (form checked, one line)."""
    domain = (
        f"None (the profile's mechanisms) or a non-empty list of distinct names from "
        f"{', '.join(map(repr, builtins))} or user mechanisms ('pkg.mod:Name', registered or plug-in names)"
    )

    def check(value: Any, name: str) -> list[str] | None:
        if value is None:
            return None
        if isinstance(value, str):
            raise ValueError(
                f"{name} must be {domain}, got {value!r} (a list is written -p {name} '[\"{value}\"]')"
            )
        if not isinstance(value, (list, tuple)) or not value:
            raise ValueError(f"{name} must be {domain}, got {value!r}")
        if len(set(value)) != len(value):
            raise ValueError(f"{name} must be {domain}, got {value!r} (a name is repeated)")
        for v in value:
            if v in builtins:
                continue
            if not plugins.is_user_spec(v):
                raise ValueError(
                    f"{name}: unknown mechanism {v!r}{did_you_mean(str(v), builtins)}; valid: "
                    f"{', '.join(builtins)}, an import path 'pkg.mod:Name' or 'file.py:Name', "
                    "or a registered or plug-in name"
                )
            plugins.resolve_mechanism(v)
        return list(value)

    return Param(
        "LDP mechanisms (NonDP always included); user mechanisms by import path or name", domain, check
    )


def real_column(entries: Sequence[tuple[str, Mapping[str, Any], str]]) -> np.ndarray:
    """The protected attribute of every dataset of the run, concatenated.

    ``entries`` are ``(registry name, loader options, protected attribute)`` of each
    dataset (:func:`~ldpfair.papers.synthesis.experiments.dataset_entry`). The codes
    the run's mechanisms perturb (``0 .. k - 1``); the door's audit perturbs this
    column once beside its mixed batches (item 2 of issue #44).
    """
    from ...experiments import DatasetSpec

    parts = []
    for name, options, protected in entries:
        ds = DatasetSpec(name, options=dict(options), protected=protected).load()
        parts.append(ds.frame[protected].to_numpy().astype(np.int64))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def admit_all(
    specs: Sequence[str], epsilons: Sequence[float], *, samples: int | None = None,
    ks: Sequence[int] = (BENCH_K,), progress: Any = None, real: np.ndarray | None = None,
) -> pd.DataFrame:
    """Audit every user mechanism of ``specs`` at every budget (``k =`` :data:`BENCH_K`); the audit table.

    ``real``: the run's protected column (:func:`real_column`), perturbed once by
    each audit at the run's ``k`` beside the mixed batches.
    Raises the first refusal as one line (:class:`~ldpfair.ldp.audit.PrivacyAuditError`).
    """
    n = audit_samples() if samples is None else samples
    rows = []
    for spec in specs:
        results = []
        for k in ks:
            with_real = real is not None and int(k) == BENCH_K
            for eps in epsilons:
                if progress is not None:
                    extra = f" and the run's {len(real):,} real values" if with_real and real is not None \
                        else ""
                    progress(f"auditing {plugins.display_name(spec)} at k={k}, epsilon={eps:g} "
                             f"({plugins.samples_at(int(k), n):,} reports per input{extra}) ...")
                results += plugins.admit(spec, [eps], (k,), samples=n, real=real if with_real else None)
        for r in results:
            rows.append(
                {
                    "mechanism": plugins.display_name(spec),
                    "spec": spec,
                    "k": r.k,
                    "epsilon": r.epsilon,
                    "audit": r.method,
                    "exact level": r.level,
                    "audit lower bound": r.lower_bound,
                    "reports per input": r.samples,
                    "real values": len(real) if real is not None and r.k == BENCH_K else 0,
                }
            )
        if spec not in ADMITTED:
            ADMITTED.append(spec)
    return pd.DataFrame(rows)


def priv(spec: str, protected: str) -> PrivSpec:
    """The engine's privatisation of a user mechanism on the protected attribute."""
    return PrivSpec(plugins.privatize_factory(spec), sensitive=(protected,), label=plugins.display_name(spec))


def _bits(mech: Any, reports: Any, k: int) -> int:
    if hasattr(mech, "m"):  # a channel: the index of its output
        return max(1, math.ceil(math.log2(mech.m)))
    arr = np.asarray(reports)
    if arr.ndim == 1 and np.issubdtype(arr.dtype, np.integer):
        return max(1, math.ceil(math.log2(k)))
    return int(8 * arr.nbytes // max(1, len(arr)))


def mechanism_cards(
    specs: Sequence[str],
    epsilons: Sequence[float],
    f: float = 0.3,
    *,
    samples: int | None = None,
    throughput_users: int = 200_000,
    seed: int = 0,
    ks: Sequence[int] = (BENCH_K,),
    progress: Any = None,
    real: np.ndarray | None = None,
) -> pd.DataFrame:
    """One card row per (user mechanism, epsilon) at ``k =`` :data:`BENCH_K`.

    Columns: ``mechanism, epsilon, var_exact`` (``n Var`` of value 0's estimate at
    frequency ``f``, from the channel ``p = Q[0, 0]``, ``q = Q[1, 0]`` or the
    oracle's ``p``, ``q``; NaN when neither exists), ``bits`` (one report),
    ``privacy`` (``exact`` or ``audited``), ``level`` (exact level, or the level the
    oracle's declared probabilities give), ``audit_lower_bound``, ``users_per_s``
    (``perturb`` of ``throughput_users`` users, one run, this machine). ``real``:
    the run's protected column (:func:`real_column`), perturbed by the audits at
    ``k =`` :data:`BENCH_K` beside their mixed batches.
    """
    from ...ldp.audit import DEFAULT_ALPHA, power_line

    audits = admit_all(specs, epsilons, samples=samples, ks=sorted({BENCH_K, *ks}), progress=progress,
                       real=real)
    rows = []
    for spec in specs:
        um = plugins.resolve_mechanism(spec)
        for eps in epsilons:
            Q = um.channel(BENCH_K, eps)
            mech = plugins.privatize_factory(spec)(BENCH_K, eps, None)  # its failures in one line
            if Q is not None and Q.shape[1] == BENCH_K:
                p, q = float(Q[0, 0]), float(Q[1, 0])
            else:
                p, q = float(getattr(mech, "p", math.nan)), float(getattr(mech, "q", math.nan))
            # a uniform channel (level 0) is valid and useless: its variance is infinite
            var = (f * p * (1 - p) + (1 - f) * q * (1 - q)) / (p - q) ** 2 if p != q else math.inf
            rng = np.random.default_rng(seed)
            values = rng.integers(0, BENCH_K, throughput_users)
            t0 = time.perf_counter()
            reports = mech.perturb(values, rng)
            dt = time.perf_counter() - t0
            mine = audits[(audits["spec"] == spec) & np.isclose(audits["epsilon"], float(eps))]
            a = mine[mine["k"] == BENCH_K].iloc[0]
            rows.append(
                {
                    "mechanism": plugins.display_name(spec),
                    "epsilon": float(eps),
                    "var_exact": var,
                    "bits": _bits(mech, reports, BENCH_K),
                    "privacy": "exact" if Q is not None else "audited",
                    "level": a["exact level"],
                    "audit_lower_bound": a["audit lower bound"],
                    "users_per_s": throughput_users / dt if dt > 0 else math.nan,
                    "audited_k": " ".join(str(int(x)) for x in sorted(set(mine["k"]))),
                    "audit_lower_bound_max_k": float(mine["audit lower bound"].max()),
                    "alpha": DEFAULT_ALPHA,
                    "power": power_line(float(eps)),
                }
            )
    return pd.DataFrame(rows)


def is_card(name: Any) -> bool:
    """Whether a ``datasets`` entry names a dataset card (a ``.toml`` path)."""
    return isinstance(name, str) and name.lower().endswith(".toml")


def add_card(path: str, datasets: dict[str, Any], labels: dict[str, str], *,
             builtin: Mapping[str, Any] = {}) -> str:  # noqa: B006 - read only
    """Read and validate the card at ``path``; add its dataset to ``datasets``/``labels``; its key.

    The key is the card's ``name``; the entry is the ``file_card`` loader with the
    card's absolute path and the sha256 of the card and of its table (so an edited
    card or table gets new cells). A name taken by another dataset is refused.
    """
    from ...datasets.user_cards import card_options, read_card

    card, _ = read_card(path)
    options = card_options(path)
    entry = ("file_card", options, card.protected, f"dataset card {card.path.name}")
    if card.name in builtin or (card.name in datasets and datasets[card.name] != entry):
        raise ValueError(f"dataset card {card.path.name}: its name {card.name!r} is another dataset's; "
                         "give the card another name")
    datasets[card.name] = entry
    labels.setdefault(card.name, card.name)
    return card.name


def datasets_param(builtins: Sequence[str]) -> Param:
    """The ``datasets`` parameter: built-in names or dataset cards (``path/card.toml``, validated)."""
    domain = (f"None (the profile's datasets) or a non-empty list of distinct names from "
              f"{', '.join(map(repr, builtins))} or dataset cards 'path/card.toml'")

    def check(value: Any, name: str) -> list[str] | None:
        if value is None:
            return None
        if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
            raise ValueError(f"{name} must be {domain}, got {value!r}")
        if len(set(value)) != len(value):
            raise ValueError(f"{name} must be {domain}, got {value!r} (a name is repeated)")
        out = []
        for v in value:
            if is_card(v):
                from ...datasets.user_cards import read_card

                read_card(v)
                out.append(str(Path(v).expanduser().resolve()))  # the kernel runs in another folder
            elif v in builtins:
                out.append(v)
            else:
                raise ValueError(f"{name}: unknown dataset {v!r}{did_you_mean(str(v), builtins)}; valid: "
                                 f"{', '.join(builtins)} or a dataset card 'path/card.toml'")
        return out

    return Param("datasets of the benchmark (names or dataset cards)", domain, check)
