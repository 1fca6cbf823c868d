"""arcolezi2023's results helpers for the chapter's tables: one frame per experiment, the NonDP baseline."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .authors import CELL

__all__ = ["combine", "nonprivate_table"]


def combine(results: Mapping[str, pd.DataFrame], experiment: str = "main") -> pd.DataFrame:
    """Concatenate the present frames of one experiment (``"main"`` or ``"appendix"``).

    ``results`` is keyed as :func:`~ldpfair.papers.arcolezi2023.experiments.declare`'s
    experiments (datasets, and ``appendix-<dataset>``).
    """
    if experiment not in ("main", "appendix"):
        raise ValueError(f"invalid experiment={experiment!r}; valid: 'main', 'appendix'")
    frames = [df for name, df in results.items() if len(df)
              and (name.startswith("appendix-") == (experiment == "appendix"))]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=[*CELL, "seed"])


def nonprivate_table(results: Mapping[str, pd.DataFrame], metrics: Sequence[str]) -> pd.DataFrame:
    """Mean of each metric of the NonDP baseline per dataset (the paper's reference values)."""
    rows = []
    for ds, df in results.items():
        base = df[df.mechanism == "NonDP"]
        rows.append({"dataset": ds, "seeds": len(base), **{m: float(np.mean(base[m])) for m in metrics}})
    return pd.DataFrame(rows)
