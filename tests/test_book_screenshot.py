"""The built book in a real browser: headless Chromium renders pages, figures load, no error text.

Marked ``book``: runs after ``jupyter-book build .`` (CI step 5) and is skipped when
the built book (``_build/html``, or ``$LDPFAIR_BOOK_HTML``) or Chromium is missing.
Install Chromium on Debian with ``apt-get install chromium chromium-driver``.
Screenshots are written to ``_build/screenshots/`` (or ``$LDPFAIR_SCREENSHOTS``).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("LDPFAIR_BOOK_HTML", ROOT / "_build" / "html"))
SHOTS = Path(os.environ.get("LDPFAIR_SCREENSHOTS", HTML.parent / "screenshots"))
PAGES = ("book/intro.html", "book/scoreboard.html", "notebooks/xu2019.html")
ERROR_TEXT = re.compile(
    r"Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception): |CellExecutionError"
    r"|An error occurred while executing|Kernel died|ERROR:|WARNING: "
)
_CHECK = """<script>
window.addEventListener("load", () => setTimeout(() => {
  const imgs = [...document.querySelectorAll("article img")];
  const out = {images: imgs.length,
               broken: imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src),
               text: document.querySelector("main") ? document.querySelector("main").innerText : ""};
  const d = document.createElement("pre"); d.id = "ldpfair-check"; d.hidden = true;
  d.textContent = JSON.stringify(out); document.body.appendChild(d);
}, 500));
</script>"""

pytestmark = pytest.mark.book


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHROMIUM = _chromium()
needs_book = pytest.mark.skipif(
    not (HTML / "index.html").is_file(),
    reason=f"the built book is missing ({HTML}); run `jupyter-book build .` first")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium not found (Debian: apt-get install chromium chromium-driver)")


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serve the book; append the check script to every HTML page."""

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def send_head(self):  # type: ignore[override]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = path.read_text(encoding="utf-8").replace("</body>", _CHECK + "</body>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io

        return io.BytesIO(body)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    handler = functools.partial(_Handler, directory=str(HTML))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def _chrome(*args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--hide-scrollbars", "--virtual-time-budget=15000", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


@needs_book
@needs_chromium
@pytest.mark.parametrize("page", PAGES)
def test_page_renders(server, page):
    dom = _chrome("--dump-dom", f"{server}/{page}")
    assert dom.returncode == 0, dom.stderr[-2000:]
    m = re.search(r'<pre id="ldpfair-check" hidden="">(.*?)</pre>', dom.stdout, re.DOTALL)
    assert m, f"the check script did not run on {page}"
    import html as _html

    result = json.loads(_html.unescape(m.group(1)))
    assert not result["broken"], f"images that did not load on {page}: {result['broken']}"
    assert result["text"].strip(), f"{page} shows no text"
    bad = ERROR_TEXT.search(result["text"])
    assert bad is None, f"error text on {page}: {result['text'][max(0, bad.start() - 200):bad.end() + 200]!r}"
    if page.startswith("notebooks/"):
        assert result["images"] >= 1, f"{page} shows no figure"
        assert "Run this chapter" in result["text"] and "notebook (.ipynb)" in result["text"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / (page.replace("/", "_").removesuffix(".html") + ".png")
    res = _chrome(f"--screenshot={shot}", "--window-size=1280,1600", f"{server}/{page}")
    assert res.returncode == 0 and shot.is_file() and shot.stat().st_size > 20_000, res.stderr[-2000:]


class _Figures(HTMLParser):
    """Collect the images of the page content (<article>): alt text, inside a captioned figure?"""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.figures: list[dict[str, object]] = []
        self.images: list[tuple[str, str, bool]] = []
        self.in_main = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "article":
            self.in_main += 1
        if not self.in_main:
            return
        if tag == "figure":
            self.figures.append({"caption": False})
        if tag == "figcaption" and self.figures:
            self.figures[-1]["caption"] = True
        if tag == "img":
            self.images.append((a.get("src") or "", a.get("alt") or "", bool(self.figures)))

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.in_main -= 1


@needs_book
def test_figures_have_alt_text_and_captions():
    """Every image of every page has meaningful alt text and sits in a captioned figure."""
    problems = []
    pages = sorted(p for p in HTML.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)
    for page in pages:
        parser = _Figures()
        parser.feed(page.read_text(encoding="utf-8"))
        for src, alt, in_figure in parser.images:
            if not alt.strip() or re.search(r"\.(png|svg|jpe?g)$", alt.strip()):
                problems.append(f"{page.relative_to(HTML)}: image {src} has no alt text ({alt!r})")
            if not in_figure:
                problems.append(f"{page.relative_to(HTML)}: image {src} is not in a captioned figure")
        problems += [f"{page.relative_to(HTML)}: a figure without caption" for f in parser.figures
                     if not f["caption"]]
    assert not problems, "\n".join(problems)


@needs_book
def test_paper_pages_offer_their_notebook():
    """Each paper page's generated .ipynb exists, is a notebook and keeps the parameters cell."""
    import nbformat

    for md in sorted((ROOT / "notebooks").glob("*.md")):
        page = HTML / "notebooks" / f"{md.stem}.html"
        if not page.is_file():
            continue
        text = page.read_text(encoding="utf-8")
        assert f"_downloads/notebooks/{md.stem}.ipynb" in text, page
        nb = nbformat.read(HTML / "_downloads" / "notebooks" / f"{md.stem}.ipynb", 4)
        assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells)
        assert "mybinder.org/v2/gh/" in text, f"{page} has no Binder link"
