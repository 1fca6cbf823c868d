"""Sphinx extension of the ldpfair book: notebook downloads and launch links on paper pages.

For every page whose source lies in one of ``ldpfair_notebook_dirs`` (default
``["notebooks"]``), the extension

- converts the page's jupytext source to a plain ``.ipynb`` (no outputs, the
  ``parameters`` cell kept) with :mod:`jupytext`, its MyST-only Markdown
  (directives, roles, targets) rewritten for plain Jupyter by
  :func:`ldpfair.experiments.notebooks.myst_to_jupyter`, and writes it to
  ``<html>/_downloads/notebooks/<name>.ipynb``;
- inserts under the page title a box with links to that notebook, to the
  notebook with the book's outputs (``_sources/<page>.ipynb``, copied there by
  sphinx-book-theme when launch buttons are on), to Binder (when
  ``launch_buttons.binderhub_url`` is set) and to the ``ldpfair`` commands that
  rerun the chapter or export its exercises.

Registered in ``_config.yml`` under ``sphinx: local_extensions``.
"""

from __future__ import annotations

import html
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)
_H1_END = re.compile(r"</h1>", re.IGNORECASE)


def _is_paper_page(app: Sphinx, pagename: str) -> bool:
    return any(pagename.startswith(d.strip("/") + "/") for d in app.config.ldpfair_notebook_dirs)


def _write_ipynb(source: Path, target: Path) -> None:
    """Write the jupytext notebook ``source`` as a plain ``.ipynb`` at ``target`` (atomically).

    Its Markdown is converted for plain Jupyter (``:::{note}`` a blockquote,
    ``{cite:p}`` "(Author Year)", ``{doc}`` a link, ...), as for ``ldpfair run``.
    """
    import jupytext

    from ldpfair.experiments.notebooks import myst_to_jupyter

    nb = jupytext.read(source)
    nb.metadata.pop("jupytext", None)
    myst_to_jupyter(nb)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(jupytext.writes(nb, fmt="ipynb"))
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _binder_url(app: Sphinx, relpath: str) -> str | None:
    opts = app.config.html_theme_options or {}
    launch = opts.get("launch_buttons", {}) or {}
    hub = (launch.get("binderhub_url") or "").rstrip("/")
    repo = (opts.get("repository_url") or "").rstrip("/")
    if not hub or "github.com/" not in repo:
        return None
    org, name = repo.split("github.com/")[-1].split("/")[:2]
    branch = opts.get("repository_branch") or "main"
    ui = "lab/tree" if launch.get("notebook_interface") == "jupyterlab" else "tree"
    return f"{hub}/v2/gh/{org}/{name}/{branch}?urlpath={ui}/{relpath}"


def add_download_box(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                     doctree: Any) -> None:
    """``html-page-context`` handler: write the page's .ipynb and link it under the title."""
    if doctree is None or not _is_paper_page(app, pagename) or "body" not in context:
        return
    source = Path(app.env.doc2path(pagename))
    name = Path(pagename).name
    target_rel = f"_downloads/notebooks/{name}.ipynb"
    try:
        _write_ipynb(source, Path(app.outdir) / target_rel)
    except Exception as exc:  # a broken conversion must not pass silently
        logger.warning(f"ldpfair_downloads: cannot convert {source} to .ipynb: {exc}", location=pagename)
        return
    pathto = context["pathto"]
    links = [f'<a href="{html.escape(pathto(target_rel, 1))}" download>notebook (.ipynb)</a>']
    if context.get("ipynb_source"):
        links.append(f'<a href="{html.escape(pathto("_sources", 1))}/{html.escape(context["ipynb_source"])}" '
                     'download>notebook with the book\'s outputs</a>')
    if context.get("sourcename"):
        links.append(f'<a href="{html.escape(pathto("_sources", 1))}/{html.escape(context["sourcename"])}">'
                     "MyST source (.md)</a>")
    rel = os.path.relpath(source, Path(app.srcdir)).replace(os.sep, "/")
    binder = _binder_url(app, rel)
    if binder:
        links.append(f'<a href="{html.escape(binder)}">launch on Binder</a>')
    box = (
        '<div class="admonition tip ldpfair-downloads">'
        '<p class="admonition-title">Run this chapter</p>'
        f"<p>Download: {' · '.join(links)}.</p>"
        f"<p>Locally: <code>ldpfair run {html.escape(name)} --profile quick</code> reruns it at a small "
        f"scale; <code>ldpfair assignment {html.escape(name)}</code> exports its exercises as a student "
        "notebook and a solution key (see the README).</p></div>"
    )
    body = context["body"]
    m = _H1_END.search(body)
    context["body"] = body[: m.end()] + box + body[m.end():] if m else box + body


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the extension."""
    app.add_config_value("ldpfair_notebook_dirs", ["notebooks"], "html")
    # after sphinx-book-theme's handlers (priority 500), which set ``ipynb_source``
    app.connect("html-page-context", add_download_box, priority=900)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
