"""Xu, Yuan & Wu (2019): the chapter's figures, as functions of the results.

Each function takes tidy results (one row per run) and returns the
:class:`matplotlib.figure.Figure`; the notebook saves it (:func:`ldpfair.style.savefig`)
and shows it. The private methods keep one colour and marker throughout (:data:`LOOK`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from ... import style
from .checks import PAPER_TABLE2
from .diagnostics import INDEFINITE_TOL
from .experiments import DATASETS, DEFAULT_READING, PRIVATE_METHODS

__all__ = ["LOOK", "plot_table2", "plot_fig1", "plot_convergence"]

#: Colour and marker of each private method.
LOOK: dict[str, tuple[str, str]] = {"PrivLR": (style.PALETTE[1], "s"), "PFLR": (style.PALETTE[0], "o"),
                                    "PFLR*": (style.PALETTE[2], "^")}
#: Colour and marker of each feature encoding (Fig. 1).
_ENCODING_LOOK: dict[str, tuple[str, str]] = {"onehot": (style.PALETTE[0], "o"),
                                              "compact": (style.PALETTE[1], "s"),
                                              "counts": (style.PALETTE[2], "^")}


def plot_table2(table2: pd.DataFrame) -> Figure:
    """Table 2 as a figure: accuracy and RD of the private methods against ε, ours and the paper's.

    Parameters
    ----------
    table2 : pandas.DataFrame
        Tidy results of the ``table2`` sweep for one encoding and reading: ours solid
        (mean ± one std over runs), the paper's (:data:`.checks.PAPER_TABLE2`) dashed
        with hollow markers; one row of panels per data set.
    """
    g = table2.groupby(["dataset", "method", "epsilon"])[["accuracy", "rd"]]
    mean, std = g.mean(), g.std()
    fig, axes = plt.subplots(2, 2, figsize=(7, 5.2), sharex=True)
    for i, ds in enumerate(DATASETS):
        for j, (m_col, label) in enumerate((("accuracy", "accuracy"), ("rd", "risk difference"))):
            ax = axes[i, j]
            for m in PRIVATE_METHODS:
                if (ds, m) not in mean.index.droplevel(2):
                    continue
                mu, sd = mean.loc[(ds, m)][m_col], std.loc[(ds, m)][m_col]
                ax.errorbar(mu.index, mu.values, yerr=sd.values, color=LOOK[m][0], marker=LOOK[m][1],
                            label=m, capsize=2)
                pp = PAPER_TABLE2[(PAPER_TABLE2.dataset == ds) & (PAPER_TABLE2.method == m)]
                ax.plot(pp.epsilon, pp[m_col], ls="--", color=LOOK[m][0], marker=LOOK[m][1], mfc="none")
            ax.set_xscale("log")
            ax.set_title(f"{ds}: {label}")
            if i == 1:
                ax.set_xlabel(r"$\varepsilon$")
    axes[0, 0].legend(fontsize=8)
    return fig


def plot_fig1(fig1: pd.DataFrame, reading: str = DEFAULT_READING) -> Figure:
    """Fig. 1: PFLR*'s accuracy (a) and RD (b) against the budget split ε_f/ε, one line per encoding.

    Parameters
    ----------
    fig1 : pandas.DataFrame
        Tidy results of the ``fig1`` sweep (mean ± one std over runs of each ratio).
    reading : str
        The reading drawn (the sweep runs the default one, :data:`~.experiments.DEFAULT_READING`).
    """
    f1 = fig1[fig1.reading == reading]
    g = f1.groupby(["features", "eps_f_ratio"])[["accuracy", "rd"]]
    mean, std = g.mean(), g.std()
    fig, axes = plt.subplots(1, 2, figsize=(7, 3))
    for feat in sorted(set(f1.features)):
        for ax, m_col in zip(axes, ("accuracy", "rd"), strict=True):
            mu, sd = mean.loc[feat][m_col], std.loc[feat][m_col]
            c, mk = _ENCODING_LOOK[feat]
            ax.errorbar(mu.index, mu.values, yerr=sd.values, marker=mk, color=c,
                        label=f"{feat} (d = {int(f1[f1.features == feat].d.iloc[0])})", capsize=2)
    axes[0].set_ylabel("accuracy")
    axes[1].set_ylabel("risk difference")
    axes[1].axhline(0.05, color="black", ls=":", lw=1)
    for ax, t in zip(axes, ("(a)", "(b)"), strict=True):
        ax.set_xlabel(r"$\varepsilon_f / \varepsilon$")
        ax.set_title(t)
    axes[0].legend(fontsize=8)
    return fig


def plot_convergence(conv: pd.DataFrame) -> Figure:
    """Convergence as ε grows: accuracy, RD and the share of indefinite noisy forms, per data set.

    Parameters
    ----------
    conv : pandas.DataFrame
        Tidy results of the ``convergence`` sweep (the default reading, filled markers,
        and ``"v0"``, hollow). ε = ∞ is drawn ten times right of the largest finite ε;
        the bottom row also shows (dotted) the share still trimmed under the default reading.
    """
    finite = sorted(e for e in set(conv.epsilon) if np.isfinite(e))
    x_inf = finite[-1] * 10
    cv = conv.assign(x=np.where(np.isinf(conv.epsilon), x_inf, conv.epsilon),
                     indefinite=(conv.min_eig_noisy < -INDEFINITE_TOL).astype(float))
    gm = cv.groupby(["reading", "dataset", "method", "x"])[["accuracy", "rd", "indefinite",
                                                            "remedy_triggered"]].mean()
    fig, axes = plt.subplots(3, 2, figsize=(7.5, 7), sharex=True)
    for j, ds in enumerate(DATASETS):
        for rd_name, fill in ((DEFAULT_READING, None), ("v0", "none")):
            for m in PRIVATE_METHODS:
                c, mk = LOOK[m]
                sub = gm.loc[(rd_name, ds, m)]
                kw = {"color": c, "marker": mk, "mfc": fill, "ls": "-" if fill is None else "--", "ms": 4}
                axes[0, j].plot(sub.index, sub.accuracy, label=f"{m} ({rd_name})", **kw)
                axes[1, j].plot(sub.index, sub.rd, **kw)
                axes[2, j].plot(sub.index, sub.indefinite, **kw)
                if rd_name == DEFAULT_READING:
                    axes[2, j].plot(sub.index, sub.remedy_triggered, color=c, ls=":", lw=1)
        axes[0, j].set_title(ds)
        axes[2, j].set_xscale("log")
        axes[2, j].set_xticks([0.1, 10, 1e3, 1e5, x_inf], ["0.1", "10", "$10^3$", "$10^5$", "∞"])
        axes[2, j].set_xlabel(r"$\varepsilon$")
    axes[0, 0].set_ylabel("accuracy")
    axes[1, 0].set_ylabel("risk difference")
    axes[2, 0].set_ylabel("share indefinite")
    axes[0, 0].legend(fontsize=6, ncol=2)
    return fig
