"""The book's shared matplotlib style.

One place for colours, markers and figure sizes so that every paper notebook
looks alike. The palette is Okabe and Ito's colour-blind-safe set; markers
double-encode the series so figures survive greyscale printing. Figures are
sized for a narrow page (about 7 inches wide) with fonts that stay readable
when the page is scaled down.

Use :func:`use` once per notebook (or the :func:`context` manager), then
:func:`color` / :func:`marker` to give a named series a stable look across
figures, and :func:`savefig` to store a figure under a folder of the user's
choosing as PNG and PDF. A chapter shows a figure with :func:`figure`, which saves it
and glues it for the book's ``{glue:figure}`` directive, so that the caption and alt
text are Markdown of the chapter, not options of a code cell.

**Readable text.** The book shows a figure at most :data:`CONTENT_WIDTH_PX` pixels
wide (its natural width ``width x dpi`` when that is smaller), and no text may render
smaller than :data:`MIN_TEXT_PX` pixels there: a figure ``W`` inches wide scaled to
700 px needs fonts of at least ``9 x 72 / (700 / W)``, about ``0.93 W`` points
(:func:`min_font_pt`). :func:`enforce` raises every smaller text of a figure to that
size and records the figure's size and font sizes in :data:`RECORDS`; it runs in
:func:`savefig` and, after :func:`use` in a notebook, on every figure the notebook
displays, so no chapter can show an unreadable figure. :func:`check` lists the texts
that are too small without changing them.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.rcsetup import cycler
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from . import config

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = ["PALETTE", "MARKERS", "SERIES", "CONTENT_WIDTH_PX", "MIN_TEXT_PX", "RECORDS", "rc", "use",
           "context", "color", "marker", "savefig", "figure", "figures", "min_font_pt", "text_sizes", "check",
           "enforce"]

#: Width of the book's content column in CSS pixels (a wider figure is scaled down to it).
CONTENT_WIDTH_PX = 700
#: Smallest rendered text size allowed, in CSS pixels.
MIN_TEXT_PX = 9.0
#: One record per figure passed through :func:`enforce`: size, dpi, font sizes, texts raised.
RECORDS: list[dict[str, Any]] = []

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

#: Markers that :func:`marker` picks from (by the name) for a series not in :data:`SERIES`.
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


def rc() -> dict[RcKeyType, Any]:
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
        "axes.prop_cycle": cycler(color=list(PALETTE)),
        "legend.frameon": False,
        "figure.constrained_layout.use": True,
    }


def use() -> None:
    """Apply the book style globally (call once at the top of a notebook).

    In an IPython kernel, also makes every displayed figure pass through
    :func:`enforce` first.
    """
    mpl.rcParams.update(rc())
    _hook_ipython()


def _hook_ipython() -> None:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython is a dependency of the book only
        return
    ip = get_ipython()
    if ip is None:
        return
    formatter = ip.display_formatter.formatters["image/png"]
    try:
        previous = formatter.lookup_by_type(Figure)
    except KeyError:
        return
    if getattr(previous, "_ldpfair_enforce", False):
        return

    def png(fig: Figure, *args: Any, **kwargs: Any) -> Any:
        enforce(fig)
        return previous(fig, *args, **kwargs)

    png._ldpfair_enforce = True  # type: ignore[attr-defined]
    formatter.for_type(Figure, png)


def min_font_pt(width_in: float, dpi: float | None = None) -> float:
    """Smallest font size (points) readable in a figure ``width_in`` inches wide.

    Parameters
    ----------
    width_in : float
        Figure width in inches (> 0).
    dpi : float, optional
        Resolution the figure is displayed at (default ``figure.dpi`` of the book
        style). The figure shows ``min(width_in * dpi, CONTENT_WIDTH_PX)`` pixels wide.

    Returns
    -------
    float
        ``MIN_TEXT_PX * 72 / (shown pixels per inch)``; about ``0.93 * width_in``
        for figures scaled down to the content column.
    """
    if not width_in > 0:
        raise ValueError(f"width_in must be a positive width in inches, got {width_in!r}")
    dpi = float(rc()["figure.dpi"]) if dpi is None else float(dpi)
    if not dpi > 0:
        raise ValueError(f"dpi must be positive, got {dpi!r}")
    shown_px_per_inch = min(width_in * dpi, CONTENT_WIDTH_PX) / width_in
    return float(MIN_TEXT_PX * 72.0 / shown_px_per_inch)


def _texts(fig: Figure, *, draw: bool = True) -> list[Text]:
    """The visible texts of ``fig``.

    With ``draw`` the figure is drawn first (tick labels get their text at draw time) and
    only texts with a content are listed. Without it, the texts that exist now are listed,
    empty ones included: a tick label drawn later copies the size of its axis's first one.
    """
    if draw:
        fig.draw_without_rendering()
    return [t for t in fig.findobj(Text) if t.get_visible() and (not draw or t.get_text().strip())
            and t.get_figure(root=True) is fig]


def text_sizes(fig: Figure) -> list[tuple[str, float]]:
    """(text, font size in points) of every visible, non-empty text of ``fig``."""
    return [(t.get_text(), float(t.get_fontsize())) for t in _texts(fig)]


def check(fig: Figure, dpi: float | None = None) -> list[str]:
    """Texts of ``fig`` smaller than :func:`min_font_pt` allows, as readable lines (empty: fine)."""
    need = min_font_pt(fig.get_figwidth(), fig.dpi if dpi is None else dpi)
    return [f"{text!r}: {size:.1f} pt < {need:.1f} pt"
            for text, size in text_sizes(fig) if size < need - 1e-9]


def enforce(fig: Figure, dpi: float | None = None, *, draw: bool = True) -> dict[str, Any]:
    """Raise every text of ``fig`` below :func:`min_font_pt` to it; record and return the figure's sizes.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    dpi : float, optional
        Display resolution (default the figure's own).
    draw : bool, default True
        Draw the figure first, so that every tick label has its text. Without a draw
        (:func:`savefig` and :func:`figure`, which check the drawn figure afterwards)
        the texts that exist are raised, the empty first tick label of each axis among
        them, whose size the labels drawn later copy.

    Returns
    -------
    dict
        ``width_in``, ``height_in``, ``dpi``, ``min_font_pt`` (required),
        ``smallest_before`` / ``smallest`` (points) and ``raised`` (texts enlarged).
        Also appended to :data:`RECORDS`, and written as a JSON line to the file
        named by ``$LDPFAIR_FIGURE_LOG`` when that is set.
    """
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    dpi = float(fig.dpi if dpi is None else dpi)
    need = min_font_pt(fig.get_figwidth(), dpi)
    texts = _texts(fig, draw=draw)
    before = [float(t.get_fontsize()) for t in texts]
    raised = 0
    for t, size in zip(texts, before, strict=True):
        if size < need - 1e-9:
            t.set_fontsize(need)
            raised += 1
    record = {"label": fig.get_label() or "", "width_in": float(fig.get_figwidth()),
              "height_in": float(fig.get_figheight()), "dpi": dpi, "min_font_pt": need,
              "smallest_before": min(before, default=None),
              "smallest": min((float(t.get_fontsize()) for t in texts), default=None), "raised": raised}
    RECORDS.append(record)
    log = config.figure_log()
    if log is not None:
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
    return record


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
    """Return the fixed marker of a named series, or one of :data:`MARKERS` chosen by the name."""
    if name in SERIES and SERIES[name][1]:
        return SERIES[name][1]
    return MARKERS[sum(map(ord, name)) % len(MARKERS)] if name not in SERIES else "o"


def _laid_out(fig: Figure) -> Bbox:
    """Lay ``fig`` out once, its text raised to the readable minimum; return its tight box (inches).

    The text is raised before a drawing without pixels (:func:`enforce` without a draw),
    which runs the layout engine and gives every tick label its text; the drawn texts are
    then checked, and one still too small (created by the drawing) is raised and the figure
    laid out again. The box is the figure's tight box padded by ``savefig.pad_inches``.
    """
    need = min_font_pt(fig.get_figwidth(), fig.dpi)
    enforce(fig, draw=False)
    for _ in range(2):
        fig.draw_without_rendering()
        small = [t for t in _texts(fig, draw=False)
                 if t.get_text().strip() and float(t.get_fontsize()) < need - 1e-9]
        if not small:
            canvas = fig.canvas
            if not hasattr(canvas, "get_renderer"):  # a Figure made without pyplot: draw it with Agg
                from matplotlib.backends.backend_agg import FigureCanvasAgg

                canvas = FigureCanvasAgg(fig)
            box = fig.get_tightbbox(canvas.get_renderer())
            return box.padded(float(mpl.rcParams["savefig.pad_inches"]))
        enforce(fig, draw=False)
    raise RuntimeError(f"figure {fig.get_label()!r}: texts below {need:.1f} pt after raising them: "
                       + ", ".join(repr(t.get_text()) for t in small))


def _write(fig: Figure, target: Any, box: Bbox, **kwargs: Any) -> None:
    """``fig.savefig(target, ...)`` inside ``box``, as laid out by :func:`_laid_out` (not again)."""
    engine = fig.get_layout_engine()
    if engine is not None:
        fig.set_layout_engine("none")
    try:
        fig.savefig(target, bbox_inches=box, **kwargs)
    finally:
        if engine is not None:
            fig.set_layout_engine(engine)


def _png(fig: Figure, box: Bbox, dpi: float) -> bytes:
    buf = io.BytesIO()
    _write(fig, buf, box, format="png", dpi=dpi)
    return buf.getvalue()


def _file_dpi(fig: Figure) -> float:
    """The resolution of the PNG file: ``savefig.dpi``, or the figure's own when that is "figure"."""
    dpi = mpl.rcParams["savefig.dpi"]
    return float(fig.dpi if dpi == "figure" else dpi)


def _save(fig: Figure, name: str, folder: str | Path) -> tuple[list[Path], bytes]:
    """Write ``<folder>/<name>.png`` (``savefig.dpi``) and ``.pdf``; return the paths and the PNG."""
    box = _laid_out(fig)
    png = _png(fig, box, _file_dpi(fig))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{name}.png", folder / f"{name}.pdf"]
    paths[0].write_bytes(png)
    _write(fig, paths[1], box, format="pdf")
    return paths, png


def savefig(fig: plt.Figure, name: str, folder: str | Path = "figures") -> list[Path]:
    """Save ``fig`` as ``<folder>/<name>.png`` and ``.pdf``; return the paths written.

    The figure's text is first raised to the readable minimum (:func:`enforce`).
    """
    return _save(fig, name, folder)[0]


def _shown(png: bytes, scale: float) -> bytes:
    """The PNG ``png`` scaled by ``scale`` (the display resolution over the file's)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
        out = io.BytesIO()
        im.resize(size, Image.Resampling.LANCZOS).save(out, format="png")
    return out.getvalue()


def figure(fig: plt.Figure | None, name: str, folder: str | Path = "figures", *,
           key: str | None = None, missing: str = "Not drawn in this profile.") -> None:
    """Save ``fig`` (:func:`savefig`) and show it glued as ``key`` (default ``name``).

    The files are written unless ``LDPFAIR_FIGURE_FILES`` is ``0``
    (:func:`ldpfair.config.figure_files`; the book build sets it: its pages show the
    figure, ``ldpfair run`` writes the files); the text is raised to the readable
    minimum (:func:`enforce`) either way.

    The chapter places the figure with MyST-NB's ``{glue:figure}`` directive, whose
    body is the caption and whose ``:alt:`` and ``:name:`` options give the alt text and
    the target. The code cell is tagged ``remove-output``, so the book shows the figure
    once, where the directive stands; plain Jupyter shows it as the cell's output, with
    the caption below it (:func:`ldpfair.experiments.notebooks.myst_to_jupyter`). The
    figure is closed, so the inline backend does not show it a second time.
    Without a figure (``fig=None``: a profile that lacks its results) the sentence
    ``missing`` is glued in its place, so the directive always finds its key.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or None
        The figure, or None when there is nothing to draw.
    name : str
        File stem under ``folder`` (``<name>.png`` and ``<name>.pdf``).
    folder : str or Path, default "figures"
        Where the files go.
    key : str, optional
        The glue key that the ``{glue:figure}`` directive names; default ``name``.
    missing : str
        What is shown in the figure's place when ``fig`` is None.
    """
    _glue(key or name, None if fig is None else _shown_png(fig, name, folder, config.figure_files()), missing)
    if fig is not None:
        plt.close(fig)


def _shown_png(fig: Figure, name: str, folder: str | Path, files: bool) -> bytes:
    """The PNG a page shows of ``fig`` (at ``fig.dpi``), after writing its files when ``files``."""
    if files:  # one raster drawing serves the file and the page
        return _shown(_save(fig, name, folder)[1], fig.dpi / _file_dpi(fig))
    return _png(fig, _laid_out(fig), fig.dpi)


def _glue(key: str, png: bytes | None, missing: str) -> None:
    from IPython.display import Image, Markdown
    from myst_nb import glue  # MyST-NB comes with the book extra, which runs the notebooks

    if png is None:
        glue(key, Markdown(f"*{missing}*"), display=True)
    else:
        glue(key, Image(data=png, format="png"), display=True)


def _drawn(make: Callable[[], Figure | None], name: str, folder: Path, files: bool) -> bytes | None:
    """Draw ``make()`` in the book style and return :func:`_shown_png` of it (None: no figure)."""
    with context():
        fig = make()
        if fig is None:
            return None
        try:
            return _shown_png(fig, name, folder, files)
        finally:
            plt.close(fig)


def figures(makers: Mapping[str, Callable[[], Figure | None]], folder: str | Path = "figures", *,
            n_jobs: int | None = 1, missing: str = "Not drawn in this profile.") -> None:
    """Draw, save and glue several figures, ``n_jobs`` at a time: :func:`figure` of each.

    Each maker draws its figure (None when there is nothing to draw) in the book style
    (:func:`context`), in a joblib worker when ``n_jobs`` is not 1; the files are
    written there and the page's PNG comes back, and the figures are glued in the order
    of ``makers``, each under its name. A maker must be picklable (a function of the
    package, or a closure over picklable values) when ``n_jobs`` is not 1.

    Parameters
    ----------
    makers : mapping of str to callable
        Glue key and file stem of each figure, and the function that draws it.
    folder : str or Path, default "figures"
        Where the files go (see :func:`figure`).
    n_jobs : int or None, default 1
        joblib's ``n_jobs``: 1 draws them here, one after the other.
    missing : str
        What is shown in a figure's place when its maker returns None.
    """
    from joblib import Parallel, delayed

    if not isinstance(n_jobs, int | None) or isinstance(n_jobs, bool) or n_jobs == 0:
        raise ValueError(f"n_jobs must be a non-zero integer or None, got {n_jobs!r}")
    files, where = config.figure_files(), Path(folder).resolve()
    if n_jobs == 1 or len(makers) < 2:
        pngs = [_drawn(make, name, where, files) for name, make in makers.items()]
    else:
        pngs = Parallel(n_jobs=n_jobs)(delayed(_drawn)(make, name, where, files)
                                       for name, make in makers.items())
    for name, png in zip(makers, pngs, strict=True):
        _glue(name, png, missing)
