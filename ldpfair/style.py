"""The book's shared matplotlib style.

One place for colours, markers and figure sizes so that every paper notebook
looks alike. The palette is Okabe and Ito's colour-blind-safe set; markers
double-encode the series so figures survive greyscale printing. Figures are
sized for a narrow page (about 7 inches wide) with fonts that stay readable
when the page is scaled down.

Use :func:`use` once per notebook (or the :func:`context` manager), then
:func:`color` / :func:`marker` to give a named series a stable look across
figures, and :func:`savefig` to store a figure under a folder of the user's
choosing as PNG and PDF.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

__all__ = ["PALETTE", "MARKERS", "SERIES", "rc", "use", "context", "color", "marker", "savefig"]

#: Okabe-Ito colour-blind-safe palette (black last).
PALETTE: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
    "#000000",  # black
)

MARKERS: tuple[str, ...] = ("s", "d", "X", "o", "v", "*", "h", "P", "^")

#: Fixed looks for the series that recur across papers, so GRR is the same
#: colour in every figure of the book.
SERIES: dict[str, tuple[str, str]] = {
    "NonDP": ("#000000", ""),
    "GRR": (PALETTE[0], "s"),
    "BLH": (PALETTE[1], "d"),
    "OLH": (PALETTE[2], "X"),
    "RAPPOR": (PALETTE[3], "o"),
    "OUE": (PALETTE[4], "v"),
    "SS": (PALETTE[5], "*"),
    "THE": ("#7F7F7F", "h"),
    "OPT": (PALETTE[3], "o"),
    "sLDP": (PALETTE[4], "o"),
    "combLDP": (PALETTE[2], "s"),
    "indLDP": (PALETTE[3], "^"),
}


def rc() -> dict[str, object]:
    """Return the rcParams of the book style."""
    return {
        "figure.figsize": (7.0, 4.2),
        "figure.dpi": 110,
        "savefig.dpi": 200,
        "savefig.bbox": "tight",
        "font.size": 10,
        "axes.titlesize": 10,
        "axes.labelsize": 10,
        "legend.fontsize": 8.5,
        "xtick.labelsize": 8.5,
        "ytick.labelsize": 8.5,
        "lines.linewidth": 1.6,
        "lines.markersize": 5.5,
        "axes.grid": True,
        "grid.color": "0.85",
        "grid.linestyle": "-",
        "grid.linewidth": 0.6,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": mpl.cycler(color=list(PALETTE)),
        "legend.frameon": False,
        "figure.constrained_layout.use": True,
    }


def use() -> None:
    """Apply the book style globally (call once at the top of a notebook)."""
    mpl.rcParams.update(rc())


@contextlib.contextmanager
def context() -> Iterator[None]:
    """Apply the book style inside a ``with`` block only."""
    with mpl.rc_context(rc()):
        yield


def color(name: str) -> str:
    """Return the fixed colour of a named series, or a palette colour chosen by its name."""
    if name in SERIES:
        return SERIES[name][0]
    return PALETTE[sum(map(ord, name)) % (len(PALETTE) - 1)]


def marker(name: str) -> str:
    """Return the fixed marker of a named series (``'o'`` for unknown names)."""
    if name in SERIES and SERIES[name][1]:
        return SERIES[name][1]
    return MARKERS[sum(map(ord, name)) % len(MARKERS)] if name not in SERIES else "o"


def savefig(fig: plt.Figure, name: str, folder: str | Path = "figures") -> list[Path]:
    """Save ``fig`` as ``<folder>/<name>.png`` and ``.pdf``; return the paths written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{name}.png", folder / f"{name}.pdf"]
    for path in paths:
        fig.savefig(path)
    return paths
