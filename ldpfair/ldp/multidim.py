"""Multidimensional collection: budget splitting, independent and combined collection.

- :func:`split_budget`: ``uniform`` (``eps / d``), ``k_based``
  (``eps k_j / sum k``, arcolezi2023's proposal) or explicit weights.
- :func:`privatize`: perturb several columns of integer codes, either
  independently (one protocol instance per column with its share ``eps_j``) or
  combined (the Cartesian product of the domains as one GRR attribute with the
  full ``eps``, encoded with mixed-radix arithmetic and decoded back per column:
  makhlouf2024's combsLDP). The single-attribute setting (sLDP) is ``privatize``
  with one column.
- :func:`privatize_frame`: the same on a :class:`pandas.DataFrame`, returning
  the perturbed training features in the encoding each paper trains on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from .._validation import (
    check_choice,
    check_domain_size,
    check_epsilon,
    check_real_array,
    check_rng,
    check_values,
)
from .grr import GRR, one_hot
from .registry import make_protocol

__all__ = [
    "Mechanism",
    "MechanismFactory",
    "split_budget",
    "encode_combined",
    "decode_combined",
    "privatize",
    "privatize_frame",
    "SPLITS",
    "MODES",
    "OUTPUTS",
]

SPLITS = ("uniform", "k_based")
MODES = ("independent", "combined")
OUTPUTS = ("support", "values")


class Mechanism(Protocol):
    """What :func:`privatize` needs from a mechanism."""

    reports_are_values: bool

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> Any:  # noqa: D102
        ...

    def support(self, reports: Any) -> np.ndarray:  # noqa: D102
        ...


#: A data-dependent mechanism factory: ``factory(k, epsilon, values) -> Mechanism``.
MechanismFactory = Callable[[int, float, np.ndarray], Mechanism]


def split_budget(
    epsilon: float, domain_sizes: Sequence[int], split: str | Sequence[float] = "uniform"
) -> np.ndarray:
    """Split ``epsilon`` over attributes (sequential composition).

    Parameters
    ----------
    epsilon : float
        Total budget, finite and ``> 0``.
    domain_sizes : sequence of int
        ``k_j`` of each attribute (each ``>= 2``), at least one.
    split : {"uniform", "k_based"} or sequence of float
        ``"uniform"``: ``eps / d``; ``"k_based"``: ``eps k_j / sum k``; a sequence
        of positive finite weights (one per attribute) is normalised to sum 1.

    Returns
    -------
    numpy.ndarray
        ``eps_j`` per attribute, summing to ``epsilon``.
    """
    epsilon = check_epsilon(epsilon, "epsilon")
    if isinstance(domain_sizes, (str, bytes)) or not isinstance(domain_sizes, Sequence | np.ndarray):
        raise TypeError(f"domain_sizes must be a sequence of ints, got {domain_sizes!r}")
    ks = [check_domain_size(k, "domain_sizes[j]") for k in domain_sizes]
    if not ks:
        raise ValueError("domain_sizes must hold at least one domain size")
    if isinstance(split, str):
        check_choice(split, SPLITS, "split")
        weights = np.ones(len(ks)) if split == "uniform" else np.asarray(ks, dtype=float)
    else:
        weights = check_real_array(split, "split weights", allow_nan=True)
        if weights.shape != (len(ks),):
            raise ValueError(
                f"split weights must have one entry per attribute ({len(ks)}), got shape {weights.shape}"
            )
        if not np.all(np.isfinite(weights)) or np.any(weights <= 0):
            raise ValueError(f"split weights must be finite and > 0, got {weights.tolist()}")
    return epsilon * weights / weights.sum()


def _radix(ks: Sequence[int]) -> tuple[np.ndarray, int]:
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Sequence | np.ndarray) or len(ks) == 0:
        raise TypeError(f"domain_sizes must be a non-empty sequence of ints, got {ks!r}")
    ks = [check_domain_size(k, f"domain_sizes[{j}]") for j, k in enumerate(ks)]
    total = math.prod(ks)
    if total > 2**53:
        raise ValueError(f"the product domain has {total} values; combined collection supports <= 2**53")
    strides = np.ones(len(ks), dtype=np.int64)
    for j in range(len(ks) - 2, -1, -1):
        strides[j] = strides[j + 1] * ks[j + 1]
    return strides, total


def encode_combined(columns: Sequence[np.ndarray], domain_sizes: Sequence[int]) -> tuple[np.ndarray, int]:
    """Mixed-radix code of the tuple of columns (first column most significant).

    Parameters
    ----------
    columns : sequence of array-like of int
        One column of codes per attribute, all of the same length, column ``j``
        in ``[0, k_j)``.
    domain_sizes : sequence of int
        ``k_j`` per column (as many as columns).

    Returns
    -------
    codes : numpy.ndarray of int64
    K : int
        The product domain size ``prod k_j`` (never materialised).

    Raises
    ------
    ValueError
        For a different number of columns and domain sizes, columns of
        different lengths (they are not broadcast) or a code outside its domain.
    """
    strides, total = _radix(domain_sizes)
    if isinstance(columns, np.ndarray) and columns.ndim == 2:
        columns = list(columns)
    if not isinstance(columns, Sequence) or len(columns) != len(strides):
        got = len(columns) if isinstance(columns, Sequence) else type(columns).__name__
        raise ValueError(f"columns must be a sequence of {len(strides)} columns (one per entry of "
                         f"domain_sizes), got {got}")
    values = [check_values(col, int(k), f"columns[{j}]")
              for j, (col, k) in enumerate(zip(columns, domain_sizes, strict=True))]
    lengths = sorted({v.shape[0] for v in values})
    if len(lengths) != 1:
        raise ValueError(f"columns must all have the same length (one code per user), got lengths {lengths}")
    code = np.zeros(lengths[0], dtype=np.int64)
    for col, stride in zip(values, strides, strict=True):
        code += col * stride
    return code, total


def decode_combined(codes: np.ndarray, domain_sizes: Sequence[int]) -> list[np.ndarray]:
    """Inverse of :func:`encode_combined`: one int64 column per attribute.

    ``codes`` must be integer codes in ``[0, prod k_j)`` (a code outside would wrap
    around to a valid tuple: ``ValueError``).
    """
    strides, total = _radix(domain_sizes)
    codes = check_values(codes, total, "codes")
    return [(codes // stride) % k for stride, k in zip(strides, domain_sizes, strict=True)]


def _encode_output(mech: Any, reports: Any, k: int, output: str, name: str) -> np.ndarray:
    if output == "support":
        return np.asarray(mech.support(reports), dtype=bool)
    if not getattr(mech, "reports_are_values", False):
        raise ValueError(
            f'output="values" needs a mechanism whose reports are domain values (GRR, combined GRR, '
            f"channel mechanisms); column {name!r} uses {mech!r}. Use output='support'."
        )
    return np.asarray(reports, dtype=np.int64)


def privatize(
    columns: Mapping[str, Any],
    domains: Mapping[str, int],
    epsilon: float,
    *,
    protocol: str | MechanismFactory = "GRR",
    split: str | Sequence[float] = "k_based",
    mode: str = "independent",
    output: str = "support",
    rng: np.random.Generator | np.random.SeedSequence | int,
    options: Mapping[str, Any] | None = None,
) -> dict[str, np.ndarray]:
    """Perturb several sensitive columns of the training rows under ``epsilon``-LDP.

    Parameters
    ----------
    columns : mapping str -> array-like of int
        Integer codes of each sensitive column (same length ``n``).
    domains : mapping str -> int
        Domain size ``k`` of every column in ``columns``.
    epsilon : float
        Total budget per user.
    protocol : str or callable
        A name accepted by :func:`~ldpfair.ldp.make_protocol`, or a factory
        ``factory(k, epsilon_j, values) -> mechanism`` for data-dependent
        mechanisms (e.g. :func:`~ldpfair.ldp.opt_factory`). A mechanism has
        ``perturb(values, rng)``, ``support(reports)`` and ``reports_are_values``.
    split : {"uniform", "k_based"} or sequence of float
        Budget split of the independent mode (see :func:`split_budget`); ignored
        in combined mode and with a single column.
    mode : {"independent", "combined"}
        ``"combined"`` perturbs the Cartesian product as one GRR attribute with
        the full ``epsilon`` and decodes it per column (only with ``protocol="GRR"``).
    output : {"support", "values"}
        ``"support"``: ``n x k_j`` boolean indicator matrix per column (OHE for
        GRR, IVE for set-valued protocols, bit vectors for unary encodings);
        ``"values"``: perturbed int codes (only when reports are domain values).
    rng : numpy.random.Generator, SeedSequence or int
        Source of randomness; columns are perturbed in the order of ``columns``.
    options : mapping, optional
        Extra keyword options for :func:`make_protocol` (e.g. ``variant="paper"``).

    Returns
    -------
    dict str -> numpy.ndarray
        One entry per column, in the order of ``columns``.
    """
    rng = check_rng(rng)
    epsilon = check_epsilon(epsilon, "epsilon")
    check_choice(mode, MODES, "mode")
    check_choice(output, OUTPUTS, "output")
    if not isinstance(columns, Mapping) or not columns:
        raise ValueError("columns must be a non-empty mapping name -> integer codes")
    names = list(columns)
    missing = [c for c in names if c not in domains]
    if missing:
        raise ValueError(f"domains has no domain size for column(s) {missing}")
    ks = [check_domain_size(domains[c], f"domains[{c!r}]") for c in names]
    values = [check_values(columns[c], k, f"columns[{c!r}]") for c, k in zip(names, ks, strict=True)]
    lengths = {v.shape[0] for v in values}
    if len(lengths) != 1:
        raise ValueError(f"all columns must have the same length, got lengths {sorted(lengths)}")
    options = dict(options or {})

    if mode == "combined":
        if callable(protocol) or str(protocol).strip().upper() not in ("GRR", "KRR", "K-RR", "RR"):
            raise ValueError(
                f'mode="combined" collects the product domain with GRR; got protocol={protocol!r}'
            )
        codes, total = encode_combined(values, ks)
        perturbed = GRR(total, epsilon).perturb(codes, rng)
        decoded = decode_combined(perturbed, ks)
        if output == "values":
            return dict(zip(names, decoded, strict=True))
        return {c: one_hot(col, k) for c, col, k in zip(names, decoded, ks, strict=True)}

    eps_j = split_budget(epsilon, ks, split)
    out: dict[str, np.ndarray] = {}
    for c, v, k, e in zip(names, values, ks, eps_j, strict=True):
        if callable(protocol):
            mech = protocol(k, float(e), v)
        else:
            mech = make_protocol(protocol, k, float(e), **options)
        reports = mech.perturb(v, rng)
        out[c] = _encode_output(mech, reports, k, output, c)
    return out


def privatize_frame(
    frame: Any,
    sensitive: Sequence[str],
    epsilon: float,
    *,
    protocol: str | MechanismFactory = "GRR",
    split: str | Sequence[float] = "k_based",
    mode: str = "independent",
    encoding: str = "indicator",
    domains: Mapping[str, int] | None = None,
    rng: np.random.Generator | np.random.SeedSequence | int,
    options: Mapping[str, Any] | None = None,
) -> Any:
    """Return a copy of the training ``frame`` with its sensitive columns perturbed.

    Parameters
    ----------
    frame : pandas.DataFrame
        Training rows; sensitive columns hold integer codes ``0 .. k-1``.
    sensitive : sequence of str
        The sensitive columns.
    epsilon, protocol, split, mode, rng, options
        As in :func:`privatize`.
    encoding : {"indicator", "values"}
        ``"indicator"`` (arcolezi2023): each sensitive column ``c`` is replaced, in
        place, by ``k`` uint8 columns ``c_0 .. c_{k-1}`` holding the support
        (OHE for GRR, IVE / bit vectors otherwise); ``"values"`` (makhlouf2024):
        the column keeps its name and holds the perturbed (decoded) codes.
    domains : mapping str -> int, optional
        Domain sizes; default ``max + 1`` of each column in ``frame``. Pass the
        domain of the full dataset when a training split may miss values.

    Returns
    -------
    pandas.DataFrame
        Non-sensitive columns are unchanged.
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    check_choice(encoding, ("indicator", "values"), "encoding")
    sensitive = list(sensitive)
    absent = [c for c in sensitive if c not in frame.columns]
    if absent:
        raise ValueError(f"sensitive columns {absent} are not in the frame")
    cols = {c: frame[c].to_numpy() for c in sensitive}
    if domains is None:
        domains = {}
        for c, v in cols.items():
            if v.dtype.kind not in "iu":
                raise ValueError(f"column {c!r} must hold integer codes, got dtype {v.dtype}")
            domains[c] = max(int(v.max()) + 1, 2) if v.size else 2
    output = "support" if encoding == "indicator" else "values"
    res = privatize(
        cols,
        domains,
        epsilon,
        protocol=protocol,
        split=split,
        mode=mode,
        output=output,
        rng=rng,
        options=options,
    )
    if encoding == "values":
        out = frame.copy()
        for c in sensitive:
            out[c] = res[c].astype(frame[c].dtype if frame[c].dtype.kind in "iu" else np.int64)
        return out
    pieces = []
    for c in frame.columns:
        if c in res:
            mat = res[c].astype(np.uint8)
            pieces.append(
                pd.DataFrame(mat, columns=[f"{c}_{j}" for j in range(mat.shape[1])], index=frame.index)
            )
        else:
            pieces.append(frame[[c]])
    return pd.concat(pieces, axis=1)
