"""Toy per-run results of makhlouf2024 (every setting and budget, rates drawn around fixed means)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ldpfair.papers.makhlouf2024 import aggregate as ag
from ldpfair.papers.makhlouf2024 import experiments as mx


def toy_runs(data: str, shift: float = 0.0, n: int = 20, *, seed: int = 7,
             acc: float | None = None) -> pd.DataFrame:
    """``n`` runs per (setting, budget) of dataset ``data``; the majority's rates raised by ``shift``."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    rows = []
    for setting, eps in [("noLDP", math.inf)] + [(s, e) for s in ("sLDP", "combLDP", "indLDP")
                                                 for e in mx.EPSILONS]:
        for run in range(n):
            row = {"data": data, "setting": setting, "epsilon": eps, "seed": run}
            if acc is not None:
                row["acc"] = acc
            for r in ag.RATES:
                row[f"{r}_maj"] = 0.6 + 0.05 * rng.standard_normal() + shift
                row[f"{r}_min"] = 0.3 + 0.05 * rng.standard_normal()
            for r, d in ag.DISPARITY.items():
                row[d] = row[f"{r}_maj"] - row[f"{r}_min"]
            rows.append(row)
    return pd.DataFrame(rows)


def direction_runs(data: str, gap: float, setting: str = "combLDP", *, seed: int = 0) -> pd.DataFrame:
    """Per-run OA of both groups: min - maj is ``gap`` at eps 0.1 and 0 at noLDP (small noise)."""
    rng = np.random.default_rng(seed)
    rows = []
    for s, eps, g in ((setting, 0.1, gap), ("noLDP", math.inf, 0.0)):
        for run in range(10):
            maj = 0.8 + 0.001 * rng.standard_normal()
            rows.append({"data": data, "setting": s, "epsilon": eps, "seed": run, "OA_maj": maj,
                         "OA_min": maj + g + 0.001 * rng.standard_normal()})
    return pd.DataFrame(rows)
