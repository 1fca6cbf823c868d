"""The built book in a real browser: every page rendered by headless Chromium and checked.

Marked ``book``. Needs the built book (``jupyter-book build .``, giving ``_build/html``;
or ``$LDPFAIR_BOOK_HTML``), Chromium and its ChromeDriver (Debian: ``apt-get install
chromium chromium-driver``); skipped when one is missing. The browser is driven over
ChromeDriver's WebDriver HTTP interface (no Python package needed) with every host but
the local test server unreachable, so the pages are checked as they render offline.

Each page is loaded at 1280 px and at 400 px wide; the check script waits for a
ready signal (document loaded, MathJax's startup promise, fonts, every image
loaded or failed) instead of a fixed delay, and the page fails on:

- structure (no exceptions): a broken image, error text (tracebacks, ``Error:``),
  math that did not render (raw TeX delimiters or commands in the rendered text, a
  math element without MathJax output, a MathJax error), a caption with two figure
  numbers, exercises not numbered 1..N on their page, a script, stylesheet or other
  resource loaded from another host;
- at 1280 px, a figure shown narrower than ``ldpfair.style`` assumes when it sizes
  fonts (85% of its natural width or of 700 px): its text would render below 9 px;
- content, on every page without exception: a table or cell reading ``nan`` /
  ``None`` / ``True`` / ``False``, a table wider than the content column outside a
  scroll container.

Full-page screenshots are written to ``_build/screenshots/<page>_<width>.png`` (or
``$LDPFAIR_SCREENSHOTS``).
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("LDPFAIR_BOOK_HTML", ROOT / "_build" / "html"))
SHOTS = Path(os.environ.get("LDPFAIR_SCREENSHOTS", HTML.parent / "screenshots"))
TOC = Path(os.environ.get("LDPFAIR_BOOK_TOC", ROOT / "_toc.yml"))
WIDTHS = (1280, 400)
#: Tallest full-page screenshot, in pixels (longer pages are cut there).
MAX_SHOT_HEIGHT = 16000
ERROR_TEXT = re.compile(
    r"Traceback \(most recent call last\)|\b[A-Z]\w*(?:Error|Exception): |CellExecutionError"
    r"|An error occurred while executing|Kernel died|ERROR:|WARNING: "
)


_CHECK = r"""
const done = arguments[arguments.length - 1];
(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const t0 = performance.now();
  while (document.readyState !== "complete") await sleep(25);
  const hasMath = document.querySelector("span.math, div.math, .cell_output .math") !== null
      || [...document.scripts].some(s => /mathjax/i.test(s.src || ""));
  let mathjax = "none";
  if (hasMath) {
    while (!(window.MathJax && window.MathJax.startup && window.MathJax.startup.promise)
           && performance.now() - t0 < 30000) await sleep(50);
    if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
      try { await window.MathJax.startup.promise; mathjax = "ready"; } catch (e) { mathjax = "failed: " + e; }
    } else { mathjax = "not loaded"; }
  }
  await document.fonts.ready;
  const article = document.querySelector("article") || document.body;
  const imgs = [...article.querySelectorAll("img")];
  await Promise.all(imgs.map(i => i.complete ? null : new Promise(r => {
    i.addEventListener("load", r); i.addEventListener("error", r); })));
  const out = {mathjax, images: imgs.length, broken: [], raw_cells: [], wide_tables: [], raw_tex: [],
               math_unrendered: 0, math_errors: 0, captions: [], exercises: [], external: [],
               text: document.querySelector("main") ? document.querySelector("main").innerText : "",
               height: Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)};
  out.broken = imgs.filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src);
  // figures shown much narrower than ldpfair.style assumes (min(natural width, 700 px))
  out.squeezed = imgs.filter(i => i.closest("figure") && i.naturalWidth > 0
      && i.getBoundingClientRect().width < 0.85 * Math.min(i.naturalWidth, 700))
    .map(i => `${i.src.split("/").pop()}: ${Math.round(i.getBoundingClientRect().width)} px of `
              + `${i.naturalWidth}`);
  // cells that show a raw Python value
  const RAW = new Set(["nan", "NaN", "None", "True", "False", "<NA>", "NaT"]);
  for (const c of article.querySelectorAll("td, th")) {
    const t = c.textContent.trim();
    if (RAW.has(t)) out.raw_cells.push(t);
  }
  // cells cut short by pandas (display.max_colwidth) and raw pandas frames (index column, no labels)
  out.cut_cells = [...article.querySelectorAll("td, th")].map(c => c.textContent.trim())
    .filter(t => t.endsWith("...") && t.length > 3).slice(0, 20);
  out.raw_frames = [...article.querySelectorAll("table.dataframe")]
    .map(t => (t.querySelector("th") || t).textContent.trim().slice(0, 80));
  // code lines running past the column (a code cell wraps instead, see _static/ldpfair.css)
  out.code_overflow = [...article.querySelectorAll("div.cell_input pre")]
    .filter(p => p.scrollWidth > p.clientWidth + 2)
    .map(p => p.textContent.split("\n").reduce((a, b) => (b.length > a.length ? b : a), "").slice(0, 80));
  // tables wider than the column outside a scroll container
  const right = article.getBoundingClientRect().right;
  for (const t of article.querySelectorAll("table")) {
    let el = t.parentElement, scroller = null;
    while (el && el !== article) {
      const ox = getComputedStyle(el).overflowX;
      if (ox === "auto" || ox === "scroll") { scroller = el; break; }
      el = el.parentElement;
    }
    const box = (scroller || t).getBoundingClientRect();
    const label = (t.querySelector("caption, th") || t).textContent.trim().slice(0, 80);
    if (box.right > right + 2 || (!scroller && t.scrollWidth > t.clientWidth + 2)) {
      out.wide_tables.push(label);
    }
  }
  // raw TeX in rendered text (code, math output and scripts excluded)
  const SKIP = "code, pre, script, style, textarea, kbd, samp, mjx-container, .highlight, .MathJax";
  const TEX = new RegExp(String.raw`\$[^$\n]*[\\^_{}][^$\n]*\$|\\[()[\]]|\\(?:begin|end|frac|`
    + String.raw`varepsilon|epsilon|zeta|alpha|beta|gamma|delta|Delta|sigma|lambda|mu|omega|sum|prod|`
    + String.raw`mathcal|mathbb|mathrm|text|leq?|geq?|cdot|times|in|infty|hat|bar|tilde|sqrt|log|exp|`
    + String.raw`mid|ldots|dots)\b`);
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && n.parentElement.closest(SKIP)) continue;
    const m = n.textContent.match(TEX);
    if (m) out.raw_tex.push(n.textContent.trim().slice(0, 120));
  }
  for (const m of article.querySelectorAll("span.math, div.math")) {
    if (!m.querySelector("mjx-container") && !m.closest("mjx-container")) out.math_unrendered += 1;
  }
  out.math_errors = article.querySelectorAll("mjx-merror").length;
  // captions: the figure number once
  for (const c of article.querySelectorAll("figcaption, table > caption, .ldpfair-caption")) {
    out.captions.push({number: c.querySelector(".caption-number") !== null,
                       text: c.innerText.trim().slice(0, 160)});
  }
  // exercises: numbered 1..N on the page
  for (const t of article.querySelectorAll(".exercise .admonition-title")) {
    out.exercises.push(t.innerText.trim().slice(0, 80));
  }
  // nothing from another host
  const origin = location.origin;
  const local = u => { try { const x = new URL(u, location.href);
    return x.origin === origin || x.protocol === "data:" || x.protocol === "blob:";
  } catch (e) { return true; } };
  for (const e of performance.getEntriesByType("resource")) if (!local(e.name)) out.external.push(e.name);
  for (const s of document.querySelectorAll("script[src]")) if (!local(s.src)) out.external.push(s.src);
  for (const l of document.querySelectorAll("link[href]")) {
    const rel = (l.getAttribute("rel") || "").toLowerCase();
    if (/stylesheet|preload|modulepreload|icon|manifest/.test(rel) && !local(l.href)) {
      out.external.push(l.href);
    }
  }
  out.external = [...new Set(out.external)];
  done(JSON.stringify(out));
})().catch(e => done(JSON.stringify({error: String(e && e.stack || e)})));
"""

_TWO_NUMBERS = re.compile(
    r"^\s*(?:Fig\.?|Figure|Table)\s*[\dA-Z][\w.-]*[.:]?\s+\**\s*(?:Fig\.?|Figure|Table)\s*\d")
_NUMBERED = re.compile(r"^\s*\**\s*(?:Fig\.?|Figure|Table)\s*\d")

pytestmark = pytest.mark.book


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


CHROMIUM = _chromium()
CHROMEDRIVER = shutil.which("chromedriver")
needs_book = pytest.mark.skipif(
    not (HTML / "index.html").is_file(),
    reason=f"the built book is missing ({HTML}); run `jupyter-book build .` first")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="Chromium or ChromeDriver not found (Debian: apt-get install chromium chromium-driver)")


def book_pages() -> list[str]:
    """Every content page of the built book (paths relative to the HTML root)."""
    if not HTML.is_dir():
        return []
    skip = {"_static", "_sources", "_downloads", "_images", "_sphinx_design_static"}
    return sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                  if not skip & set(p.relative_to(HTML).parts)
                  and p.name not in {"search.html", "genindex.html"})


def toc_files(toc: Path = TOC) -> list[str]:
    """The files of the book's table of contents (``_toc.yml``), without suffix."""
    import yaml

    data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    files = [data["root"]]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk({k: v for k, v in data.items() if k != "root"})
    return [str(Path(f).with_suffix("")) for f in files]


PAGES = book_pages()


class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # quiet
        pass


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


class WebDriver:
    """The few WebDriver commands the test needs, over ChromeDriver's HTTP interface."""

    def __init__(self, chromedriver: str, chromium: str) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.proc = subprocess.Popen([chromedriver, f"--port={port}"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if self._call("GET", "/status")["ready"]:
                    break
            except (urllib.error.URLError, ConnectionError):
                pass
            if time.monotonic() > deadline:
                self.proc.kill()
                raise RuntimeError("ChromeDriver did not start within 30 s")
            time.sleep(0.2)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=1280,1600",
                # the network is off: only the local test server resolves
                "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "pageLoadStrategy": "normal",
            "goog:chromeOptions": {"binary": chromium, "args": args}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]
        self.command("POST", "timeouts", {"script": 90_000, "pageLoad": 120_000})

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=180) as resp:
                payload = json.loads(resp.read().decode() or "{}")
        except urllib.error.HTTPError as err:
            payload = json.loads(err.read().decode() or "{}")
            raise RuntimeError(f"WebDriver {method} {path}: {payload.get('value', payload)}") from err
        return payload.get("value")

    def command(self, method: str, name: str, body: dict[str, Any] | None = None) -> Any:
        return self._call(method, f"/session/{self.session}/{name}", body)

    def open(self, url: str, width: int, height: int = 1600) -> None:
        self.command("POST", "window/rect", {"width": width, "height": height})
        self.command("POST", "url", {"url": url})

    def run_async(self, script: str) -> Any:
        return self.command("POST", "execute/async", {"script": script, "args": []})

    def screenshot(self, path: Path, width: int, height: int) -> None:
        height = max(600, min(height, MAX_SHOT_HEIGHT))
        self.command("POST", "window/rect", {"width": width, "height": height})
        path.write_bytes(base64.b64decode(self.command("GET", "screenshot")))

    def quit(self) -> None:
        try:
            self._call("DELETE", f"/session/{self.session}")
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    assert CHROMEDRIVER is not None and CHROMIUM is not None
    driver = WebDriver(CHROMEDRIVER, CHROMIUM)
    try:
        yield driver
    finally:
        driver.quit()


def structural_problems(page: str, result: dict[str, Any]) -> list[str]:
    """The rules without exceptions, as readable lines (empty: the page passes)."""
    problems = []
    if "error" in result:
        return [f"the check script failed: {result['error']}"]
    problems += [f"image did not load: {src}" for src in result["broken"]]
    if not result["text"].strip():
        problems.append("the page shows no text")
    bad = ERROR_TEXT.search(result["text"])
    if bad:
        problems.append(f"error text: {result['text'][max(0, bad.start() - 200):bad.end() + 200]!r}")
    if result["mathjax"] not in ("none", "ready"):
        problems.append(f"MathJax {result['mathjax']}")
    problems += [f"raw TeX in the rendered text: {t!r}" for t in result["raw_tex"]]
    if result["math_unrendered"]:
        problems.append(f"{result['math_unrendered']} math elements without MathJax output")
    if result["math_errors"]:
        problems.append(f"{result['math_errors']} MathJax errors")
    for cap in result["captions"]:
        if _TWO_NUMBERS.match(cap["text"]) or (cap["number"] and _NUMBERED.match(
                re.sub(r"^\s*(?:Fig\.?|Figure|Table)\s*[\d.]+\s*", "", cap["text"]))):
            problems.append(f"a caption with two numbers: {cap['text']!r}")
    numbers = [re.match(r"Exercise\s+(\d+)", t) for t in result["exercises"]]
    got = [int(m.group(1)) if m else None for m in numbers]
    if got != list(range(1, len(got) + 1)):
        problems.append(f"exercises not numbered 1..N on the page: {result['exercises']}")
    problems += [f"loaded from the network: {url}" for url in result["external"]]
    problems += [f"table cell cut short: {t!r}" for t in result.get("cut_cells", [])]
    problems += [f"raw pandas table (show it through ldpfair.tables): {t!r}"
                 for t in result.get("raw_frames", [])]
    problems += [f"code line runs past the column: {t!r}" for t in result.get("code_overflow", [])]
    return problems


def content_counts(result: dict[str, Any]) -> dict[str, int]:
    """Occurrences of the content rules on one rendering of a page."""
    return {"raw-cell": len(result.get("raw_cells", [])), "wide-table": len(result.get("wide_tables", []))}


def _shot_name(page: str, width: int) -> str:
    return page.replace("/", "_").removesuffix(".html") + f"_{width}.png"


@needs_book
@needs_chromium
@pytest.mark.parametrize("page", PAGES or ["(no built book)"])
def test_page_renders(server, browser, page):
    worst = {"raw-cell": 0, "wide-table": 0}
    details: dict[str, list[str]] = {"raw-cell": [], "wide-table": []}
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        browser.open(f"{server}/{page}", width)
        raw = browser.run_async(_CHECK)
        result = json.loads(raw)
        problems = structural_problems(page, result)
        if width >= 1000:  # the content column is about 700 px wide only on wide screens
            problems += [f"figure shown too small for its fonts: {f}" for f in result.get("squeezed", [])]
        assert not problems, f"{page} at {width} px:\n" + "\n".join(problems)
        if page.startswith("notebooks/"):
            assert result["images"] >= 1, f"{page} shows no figure"
            assert "Run this chapter" in result["text"] and "notebook (.ipynb)" in result["text"]
        for rule, count in content_counts(result).items():
            if count > worst[rule]:
                worst[rule] = count
                details[rule] = result["raw_cells"] if rule == "raw-cell" else result["wide_tables"]
        shot = SHOTS / _shot_name(page, width)
        browser.screenshot(shot, width, int(result["height"]))
        assert shot.is_file() and shot.stat().st_size > 10_000, f"no screenshot of {page} at {width} px"
    over = {rule: n for rule, n in worst.items() if n > 0}
    assert not over, (f"{page}: {over}; "
                      f"cells: {details['raw-cell'][:20]}; wide tables: {details['wide-table'][:10]}")


@needs_book
def test_every_toc_page_is_built_and_checked():
    """The browser test covers the whole book: every file of the table of contents is a checked page."""
    pages = set(PAGES)
    missing = [f for f in toc_files() if f"{f}.html" not in pages]
    assert not missing, f"pages of {TOC.name} not in the built book {HTML}: {missing}"


def test_structural_rules_catch_what_they_should():
    """The rule checker itself: each structural fault is reported (so the browser test can fail)."""
    clean = {"mathjax": "ready", "images": 1, "broken": [], "raw_cells": [], "wide_tables": [], "raw_tex": [],
             "math_unrendered": 0, "math_errors": 0,
             "captions": [{"number": False, "text": "Figure 2. Adult."}],
             "exercises": ["Exercise 1 (warm-up)", "Exercise 2"], "external": [], "text": "Some text"}
    assert structural_problems("p", clean) == []
    faults = {
        "broken": ["x.png"], "raw_tex": ["Relax $\\zeta$"], "math_unrendered": 2, "mathjax": "not loaded",
        "captions": [{"number": True, "text": "Fig. 40 Figure 1. Adult."}],
        "exercises": ["Exercise 14", "Exercise 15"], "external": ["https://cdn.example/mathjax.js"],
        "text": "Traceback (most recent call last)",
        "cut_cells": ["Adult income (census 1994) ..."], "raw_frames": ["0"],
        "code_overflow": ["profile = 'paper'  # a comment longer than the column"],
    }
    for key, value in faults.items():
        assert structural_problems("p", {**clean, key: value}), key
    assert structural_problems("p", {**clean, "captions": [{"number": False, "text": "Fig. 1 Figure 2."}]})
    assert content_counts({**clean, "raw_cells": ["nan", "True"]}) == {"raw-cell": 2, "wide-table": 0}


class _Figures(HTMLParser):
    """Collect the images of the page content (<article>): alt text, inside a captioned figure?"""

    def __init__(self) -> None:
        super().__init__()
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
def test_mathjax_is_served_by_the_book():
    """Math pages load MathJax from the book's own _static folder, which holds the script and its fonts."""
    script = HTML / "_static" / "mathjax" / "tex-chtml-full.js"
    assert script.is_file() and script.stat().st_size > 500_000
    assert list((HTML / "_static" / "mathjax" / "output" / "chtml" / "fonts" / "woff-v2").glob("*.woff"))
    pages = [p for p in HTML.rglob("*.html") if "mathjax" in p.read_text(encoding="utf-8").lower()
             and "_static" not in p.parts]
    assert pages, "no page loads MathJax"
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "cdn.jsdelivr.net" not in text and "mathjax@3" not in text, page
        assert re.search(r'src="[./]*_static/mathjax/tex-chtml-full\.js', text), page


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


def test_reader_extension_numbers_exercises_per_page_and_drops_figure_numbers():
    """book/_ext/ldpfair_reader.py: exercises 1..N per page in document order, no book-wide figure numbers."""
    import importlib.util

    pytest.importorskip("sphinx")
    path = ROOT / "book" / "_ext" / "ldpfair_reader.py"
    spec = importlib.util.spec_from_file_location("ldpfair_reader", path)
    assert spec is not None and spec.loader is not None
    reader = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reader)
    numbers = {
        "notebooks/a": {"figure": {"fig-a-1": (1,)}, "exercise": {"a-ex2": (15,), "a-ex1": (14,)}},
        "notebooks/b": {"figure": {"fig-b-1": (40,)}, "exercise": {"b-ex1": (16,)}, "table": {"t": (3,)}},
    }
    reader.renumber(numbers)
    assert numbers["notebooks/a"] == {"exercise": {"a-ex1": (1,), "a-ex2": (2,)}}
    assert numbers["notebooks/b"] == {"exercise": {"b-ex1": (1,)}, "table": {"t": (3,)}}
    assert (reader.STATIC / "mathjax" / "tex-chtml-full.js").is_file()


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_verdict_badges_are_styled_with_readable_contrast():
    """Every verdict slug has a badge style in _static/ldpfair.css with WCAG AA contrast (4.5:1)."""
    css = (ROOT / "_static" / "ldpfair.css").read_text(encoding="utf-8")
    from ldpfair.verdicts import CAUSES, STATUSES

    slugs = tuple(s.replace(" ", "-") for s in (*STATUSES, *CAUSES))
    for slug in slugs:
        m = re.search(rf"\.verdict-{slug}\s*\{{([^}}]*)\}}", css)
        assert m, f"no style for .verdict-{slug}"
        background = re.search(r"background:\s*(#[0-9a-fA-F]{6})", m.group(1))
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", m.group(1))
        assert background and colour, f".verdict-{slug} needs a background and a text colour"
        hi, lo = sorted((_luminance(background.group(1)), _luminance(colour.group(1))), reverse=True)
        assert (hi + 0.05) / (lo + 0.05) >= 4.5, f".verdict-{slug}: contrast {(hi + 0.05) / (lo + 0.05):.1f}"
    assert "div.verdict-box" in css
