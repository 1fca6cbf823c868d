"""Template chapter: its figures, as functions of the results returning a Figure."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from ... import style

__all__ = ["plot_error"]


def plot_error(frame: pd.DataFrame) -> Figure:
    """Fig. 1: mean squared error of GRR's estimates against epsilon, with its analytic value.

    Parameters
    ----------
    frame : pandas.DataFrame
        The ``fig1`` results: one row per (epsilon, seed) with ``mse`` and ``variance``.
    """
    by = frame.groupby("epsilon")[["mse", "variance"]].mean().reset_index()
    fig, ax = plt.subplots(figsize=(6, 3.6))
    ax.plot(by["epsilon"], by["mse"], "o", color=style.color("GRR"), label="measured (mean over seeds)")
    ax.plot(by["epsilon"], by["variance"], "-", color="0.3", label="analytic variance")
    ax.set(xscale="log", yscale="log", xlabel="privacy budget ε", ylabel="mean squared error")
    ax.legend()
    return fig
