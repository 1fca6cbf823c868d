"""Sphinx extension of the ldpfair book: what a reader sees.

- **Figure captions carry the paper's own number once.** Every chapter writes its
  figure's number in the caption ("**Figure 2.** Adult: ..."), the number of the
  paper being reproduced. Sphinx's ``numfig`` (switched on by sphinx-exercise) would
  prefix a book-wide counter ("Fig. 40 Figure 2."), so the figure numbers are dropped
  from the numbering Sphinx assigns; references to figures by label (``{ref}``) keep
  working and use the caption text.
- **Exercises are numbered 1..N per chapter**, in document order, as
  ``ldpfair assignment --exercises`` and the instructors page number them (the
  book-wide counter of sphinx-exercise would give 14-16 in the fourth chapter).
- **MathJax from the book itself.** ``static/mathjax`` (MathJax 3.2.2's
  ``tex-chtml-full.js`` and its woff-v2 fonts, from the ``mathjax`` npm package,
  Apache-2.0) is added to the static files, so ``mathjax_path =
  "mathjax/tex-chtml-full.js"`` in ``_config.yml`` serves math without a network.
  It is added here rather than in the book's ``_static/`` folder because Jupyter
  Book would load every ``.js`` file found there as a page script. MathJax is
  loaded on every page (``html_assets_policy = "always"``): math also appears in
  places Sphinx does not count as equations (bibliography entries, cell outputs).

Registered in ``_config.yml`` under ``sphinx: local_extensions``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

STATIC = Path(__file__).resolve().parent / "static"

#: Enumerable node types whose Sphinx number is removed (their captions number themselves).
UNNUMBERED = ("figure",)
#: Enumerable node types numbered 1..N within each page.
PER_PAGE = ("exercise",)


def _add_static(app: Sphinx, config: Config) -> None:
    paths = list(config.html_static_path)
    if str(STATIC) not in paths:
        config.html_static_path = [*paths, str(STATIC)]


def renumber(toc_fignumbers: dict[str, dict[str, dict[str, tuple[int, ...]]]]) -> None:
    """Drop the numbers of :data:`UNNUMBERED` types; number :data:`PER_PAGE` types 1..N per page.

    ``toc_fignumbers`` is Sphinx's ``env.toc_fignumbers`` (page -> type -> node id ->
    number tuple), changed in place. The order within a page is the order of the
    numbers Sphinx assigned, i.e. document order.
    """
    for numbers in toc_fignumbers.values():
        for figtype in UNNUMBERED:
            numbers.pop(figtype, None)
        for figtype in PER_PAGE:
            ids = numbers.get(figtype)
            if ids:
                ordered = sorted(ids, key=lambda node_id: ids[node_id])
                numbers[figtype] = {node_id: (i,) for i, node_id in enumerate(ordered, start=1)}


def _renumber(app: Sphinx, env: BuildEnvironment) -> list[str]:
    renumber(env.toc_fignumbers)
    return []


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the handlers; give the build's kernels absolute LDPFAIR_* paths and IPC."""
    from ldpfair.experiments.notebooks import prepare_book_kernels

    # relative LDPFAIR_* paths made absolute (the kernels run in notebooks/), IPC kernels
    prepare_book_kernels()
    app.connect("config-inited", _add_static)
    app.set_html_assets_policy("always")
    # after Sphinx's TocTreeCollector (priority 500) has assigned the numbers
    app.connect("env-get-updated", _renumber, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
