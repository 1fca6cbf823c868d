import matplotlib

matplotlib.use("Agg")
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

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
