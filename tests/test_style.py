import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ldpfair import style  # noqa: E402


def _luminance(hex_colour):
    r, g, b = mcolors.to_rgb(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_series_have_distinct_looks():
    looks = {(c, m) for c, m in style.SERIES.values()}
    assert len(looks) >= len({k for k in style.SERIES if k not in {"OPT"}})
    protocols = ["GRR", "BLH", "OLH", "RAPPOR", "OUE", "SS", "THE"]
    assert len({style.color(p) for p in protocols}) == len(protocols)
    assert len({style.marker(p) for p in protocols}) == len(protocols)


def test_palette_is_colour_blind_safe_okabe_ito():
    assert style.PALETTE[:3] == ("#0072B2", "#E69F00", "#009E73")
    # every palette colour but yellow is visible on white
    assert all(_luminance(c) < 0.8 for c in style.PALETTE if c != "#F0E442")


def test_unknown_names_get_stable_palette_colours():
    assert style.color("foo") == style.color("foo") and style.color("foo") in style.PALETTE


def test_context_and_savefig(tmp_path):
    before = plt.rcParams["font.size"]
    with style.context():
        assert plt.rcParams["axes.spines.top"] is False
        fig, ax = plt.subplots()
        ax.plot(np.arange(3))
        paths = style.savefig(fig, "demo", tmp_path / "figs")
        plt.close(fig)
    assert plt.rcParams["font.size"] == before
    assert [p.name for p in paths] == ["demo.png", "demo.pdf"]
    assert all(p.stat().st_size > 0 for p in paths)


def test_min_font_pt_is_nine_pixels_at_the_content_width():
    # a 7 in figure at 110 dpi is shown 700 px wide: 100 px per inch, 9 px = 6.48 pt
    assert style.min_font_pt(7.0, 110) == pytest.approx(9 * 72 / 100)
    # a wide figure is scaled down to 700 px: about 0.93 W points
    assert style.min_font_pt(14.0, 110) == pytest.approx(0.9257 * 14, rel=1e-3)
    # a narrow figure is shown at its natural size
    assert style.min_font_pt(3.0, 100) == pytest.approx(9 * 72 / 100)
    with pytest.raises(ValueError, match="width_in"):
        style.min_font_pt(0)


def test_enforce_raises_small_text_of_a_wide_figure_and_records_it(monkeypatch, tmp_path):
    log = tmp_path / "figures.jsonl"
    monkeypatch.setenv("LDPFAIR_FIGURE_LOG", str(log))
    with style.context():
        fig, axes = plt.subplots(1, 5, figsize=(15, 3))
        for ax in axes:
            ax.plot(np.arange(4), label="GRR")
            ax.set_title("panel", fontsize=8)
            ax.tick_params(labelsize=6)
        axes[0].legend(fontsize=5)
        assert style.check(fig)  # too small before
        record = style.enforce(fig)
        problems = style.check(fig)
        sizes = [size for _, size in style.text_sizes(fig)]
        plt.close(fig)
    need = style.min_font_pt(15, fig.dpi)
    assert not problems and min(sizes) >= need - 1e-9
    assert record["smallest_before"] == 5 and record["smallest"] == pytest.approx(need)
    assert record["raised"] >= 5 * 2 and record["width_in"] == 15
    assert style.RECORDS[-1] is record
    assert json.loads(log.read_text().splitlines()[-1])["raised"] == record["raised"]


def test_savefig_enforces_the_minimum(tmp_path):
    with style.context():
        fig, ax = plt.subplots(figsize=(12, 3))
        ax.plot(np.arange(3))
        ax.set_xlabel("epsilon", fontsize=4)
        style.savefig(fig, "wide", tmp_path)
        assert not style.check(fig)
        plt.close(fig)


def test_book_style_default_figure_is_readable_without_changes():
    with style.context():
        fig, ax = plt.subplots()
        ax.plot(np.arange(3), label="OUE")
        ax.set_title("title")
        ax.legend()
        assert style.check(fig) == []
        plt.close(fig)


def test_use_hooks_displayed_figures_in_ipython():
    pytest.importorskip("IPython")
    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib.figure import Figure

    shell = InteractiveShell.instance()
    try:
        formatter = shell.display_formatter.formatters["image/png"]
        formatter.for_type(Figure, lambda fig, *a, **k: b"png")
        style.use()
        fig, ax = plt.subplots(figsize=(14, 3))
        ax.set_xlabel("x", fontsize=3)
        formatter.lookup_by_type(Figure)(fig)
        assert not style.check(fig)
        plt.close(fig)
    finally:
        InteractiveShell.clear_instance()
        plt.rcdefaults()


def test_enforce_rejects_non_figures():
    with pytest.raises(ValueError, match="fig must be a matplotlib Figure"):
        style.enforce("figure")


def test_every_page_that_draws_a_figure_applies_the_book_style_first():
    """style.use() installs the readable-text check on every displayed figure: each page that draws
    (a figure cell, plt calls or style.figure) calls it in a code cell before its first figure."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    pages = sorted((root / "notebooks").glob("*.md")) + sorted((root / "book").glob("*.md"))
    drawing = 0
    for page in pages:
        cells = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
        drawn = r"figure:|plt\.(show|subplots|figure)\(|style\.figures?\("
        draws = [i for i, c in enumerate(cells) if re.search(drawn, c)]
        if not draws:
            continue
        drawing += 1
        uses = [i for i, c in enumerate(cells) if "style.use()" in c]
        assert uses and uses[0] <= draws[0], f"{page.name}: style.use() must come before the first figure"
    assert drawing >= 5  # the five chapters draw


def test_figure_saves_glues_under_its_key_and_closes(tmp_path, monkeypatch):
    """``style.figure`` is what the chapters' ``{glue:figure}`` directives read: the key, the image, once."""
    import myst_nb.ext.glue as glue_module

    shown = []
    monkeypatch.setattr(glue_module, "ipy_display", lambda data, raw, metadata: shown.append((data, metadata)))  # noqa: E501
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    assert style.figure(fig, "line", tmp_path / "figs", key="fig-line") is None  # no value shown after it
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == ["line.pdf", "line.png"]
    assert not plt.fignum_exists(fig.number)  # closed: the inline backend does not show it again
    (data, meta), = shown
    assert meta["scrapbook"] == {"name": "fig-line", "mime_prefix": ""} and data  # displayed, not hidden
    style.figure(None, "gone", tmp_path / "figs", missing="No results.")
    data, meta = shown[-1]
    assert meta["scrapbook"]["name"] == "gone" and data["text/markdown"] == "*No results.*"
    assert not (tmp_path / "figs" / "gone.png").exists()


def _glued(monkeypatch):
    import myst_nb.ext.glue as glue_module

    shown = []
    monkeypatch.setattr(glue_module, "ipy_display", lambda data, raw, metadata: shown.append(data))
    return shown


def _png_size(data: bytes) -> tuple[int, int]:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        return im.size


def test_figure_files_off_writes_nothing_and_shows_the_figure_at_display_resolution(tmp_path, monkeypatch):
    import base64

    shown = _glued(monkeypatch)
    monkeypatch.setenv("LDPFAIR_FIGURE_FILES", "0")
    with style.context():
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot([0, 1])
        style.figure(fig, "off", tmp_path / "figs")
    assert not (tmp_path / "figs").exists()
    data = shown[-1]["image/png"]
    w, h = _png_size(data if isinstance(data, bytes) else base64.b64decode(data))
    assert 0.8 * 6 * 110 < w <= 6 * 110 + 20 and h < 3 * 110 + 20  # 110 dpi, tight box


def test_the_shown_image_is_the_file_scaled_to_the_display_resolution(tmp_path, monkeypatch):
    import base64

    shown = _glued(monkeypatch)
    with style.context():
        fig, ax = plt.subplots(figsize=(6, 3))
        ax.plot([0, 1])
        style.figure(fig, "on", tmp_path / "figs")
    file_w, file_h = _png_size((tmp_path / "figs" / "on.png").read_bytes())
    data = shown[-1]["image/png"]
    w, h = _png_size(data if isinstance(data, bytes) else base64.b64decode(data))
    assert (w, h) == (round(file_w * 110 / 200), round(file_h * 110 / 200))
    assert (tmp_path / "figs" / "on.pdf").stat().st_size > 0


def test_text_created_by_the_draw_is_raised_before_the_image_is_kept(tmp_path, monkeypatch):
    """Tick labels get their text when drawn; the image kept has them at the readable size."""
    _glued(monkeypatch)
    monkeypatch.setenv("LDPFAIR_FIGURE_FILES", "0")
    with style.context():
        fig, ax = plt.subplots(figsize=(14, 3))
        ax.tick_params(labelsize=3)
        ax.plot(range(40))
        ax.set_title("t", fontsize=2)
        style.figure(fig, "ticks", tmp_path)
    assert style.check(fig) == []


def test_a_figure_made_without_pyplot_is_saved_too(tmp_path):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4, 3))
    fig.add_subplot().plot([0, 1])
    paths = style.savefig(fig, "bare", tmp_path)
    assert [p.stat().st_size > 0 for p in paths] == [True, True]


def _line(y: float):
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, y])
    return fig


@pytest.mark.parametrize("bad", [0, True, "2", 1.5])
def test_figures_refuses_a_bad_n_jobs(bad):
    with pytest.raises(ValueError, match="n_jobs must be a non-zero integer or None"):
        style.figures({"a": lambda: None}, n_jobs=bad)


def test_figures_in_workers_glue_in_order_and_write_the_files(tmp_path, monkeypatch):
    import functools

    shown = _glued(monkeypatch)
    makers = {"up": functools.partial(_line, 1.0), "none": functools.partial(lambda: None),
              "down": functools.partial(_line, -1.0)}
    style.figures(makers, tmp_path, n_jobs=2, missing="No results.")
    assert [d.get("text/markdown") for d in shown] == [None, "*No results.*", None]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["down.pdf", "down.png", "up.pdf", "up.png"]
