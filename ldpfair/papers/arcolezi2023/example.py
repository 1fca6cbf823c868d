"""arcolezi2023's Fig. 1: one user through the seven protocols (client encoding, report, server vector)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...ldp import PROTOCOLS, SS, THE, LocalHashing
from ...tables import Table, table

__all__ = ["figure1", "worked_example"]


def _vec(x: np.ndarray, fmt: str = "{:d}") -> str:
    return "[" + " ".join(fmt.format(v) for v in np.asarray(x).tolist()) + "]"


def worked_example(
    value: int,
    k: int,
    epsilon: float,
    *,
    rng: np.random.Generator | np.random.SeedSequence | int,
    protocols: Sequence[str] = PROTOCOLS,
) -> pd.DataFrame:
    """Fig. 1 for one user: each protocol's client-side encoding, report and server-side vector.

    Every entry is computed by :mod:`ldpfair.ldp` (``make_protocol(...).perturb`` and
    ``.support``), the code the experiments run. THE is shown with the noisy
    histogram as the report (``report="vector"``); the experiments draw its
    thresholded set directly, which has the same distribution.

    Parameters
    ----------
    value : int
        The user's true value, in ``[0, k)``.
    k : int
        Domain size of the attribute (``>= 2``).
    epsilon : float
        Budget spent on this attribute.
    rng : numpy.random.Generator, SeedSequence or int
        Source of randomness; protocol ``i`` uses the ``i``-th spawned child.
    protocols : sequence of str
        Protocols, default all seven in the paper's order.

    Returns
    -------
    pandas.DataFrame
        One row per protocol: ``protocol``, ``parameters`` (p, q and g, omega or
        theta), ``client encoding``, ``report`` (what is sent) and ``server vector``
        (the k-dimensional one-hot or indicator vector the model is trained on).
    """
    from ..._validation import check_domain_size, check_epsilon, check_rng
    from ...ldp import make_protocol

    k = check_domain_size(k, "k")
    epsilon = check_epsilon(epsilon, "epsilon")
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < k:
        raise ValueError(f"value must be an int in [0, {k}), got {value!r}")
    rng = check_rng(rng)
    protocols = list(protocols)
    children = rng.spawn(len(protocols))
    v = np.array([int(value)], dtype=np.int64)
    onehot = np.eye(k, dtype=np.int64)[int(value)]
    rows = []
    for name, child in zip(protocols, children, strict=True):
        opts = {"report": "vector"} if name.upper() == "THE" else {}
        proto = make_protocol(name, k, epsilon, **opts)
        rep = proto.perturb(v, child)
        support = np.asarray(proto.support(rep))[0].astype(np.int64)
        params = f"p={proto.p:.3f}, q={proto.q:.3f}"
        kind = type(proto).__name__
        if kind == "GRR":
            enc, report = f"v = {value}", f"z = {int(np.asarray(rep)[0])}"
        elif isinstance(proto, LocalHashing):  # BLH, OLH
            a, b, z = (int(np.asarray(r)[0]) for r in rep)
            h = int(proto.hash(a, b, int(value)))
            params += f", g={proto.g}"
            enc = f"H(v) = {h}, H = ((a x + b) mod P) mod {proto.g}"
            report = f"(a={a}, b={b}, z={z})"
        elif kind in ("RAPPOR", "OUE"):
            enc, report = f"OHE(v) = {_vec(onehot)}", _vec(np.asarray(rep)[0].astype(np.int64))
        elif isinstance(proto, SS):
            params += f", omega={proto.omega}"
            enc = f"v = {value}"
            report = "{" + ", ".join(str(int(m)) for m in sorted(np.asarray(rep)[0].tolist())) + "}"
        elif isinstance(proto, THE):
            params += f", theta={proto.theta:.3f}"
            enc = f"OHE(v) = {_vec(onehot)}"
            report = _vec(np.asarray(rep)[0], "{:+.2f}")
        else:
            raise TypeError(f"no worked example for protocol {name!r} ({kind})")
        server = ("OHE" if kind == "GRR" else "bits" if kind in ("RAPPOR", "OUE") else "IVE")
        rows.append({"protocol": name, "parameters": params, "client encoding": enc, "report": report,
                     "server vector": f"{server} {_vec(support)}"})
    return pd.DataFrame(rows)



def figure1(value: int, epsilon: float, *, k: int = 5, rng: int = 2023) -> Table:
    """Fig. 1 as the chapter shows it: :func:`worked_example` for the race of one Adult user.

    Parameters
    ----------
    value : int
        The user's race code, in ``[0, k)``.
    epsilon : float
        Budget of the attribute (``> 0``).
    k : int, default 5
        Domain size (Adult's race has 5 values).
    rng : int, default 2023
        Seed of the draws.

    Returns
    -------
    ldpfair.tables.Table
        One row per protocol: client-side encoding, report and server-side vector.
    """
    return table(worked_example(value, k, epsilon, rng=rng), key="protocol", caption=(
        f"Figure 1. The race of one Adult user (k = {k}, true value {value}) at ε = {epsilon:g}: "
        "client-side encoding, the report sent, and the server-side vector the model is trained on."))
