"""MyST chapters as Jupyter notebooks: citations, roles and directives turned into plain Markdown.

Split from :mod:`ldpfair.experiments.notebooks` (which re-exports :func:`myst_to_jupyter` and
:func:`citations`): a chapter opened in Jupyter reads as it does in the book.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["REPOSITORY_BLOB", "citations", "myst_to_jupyter"]

REPOSITORY_BLOB = "https://github.com/ldpfair/ldpfair/blob/main/"

_FENCE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{(?P<name>[A-Za-z][\w:-]*)\}\s*(?P<arg>.*?)\s*$")
_OPTION = re.compile(r"^:[\w-]+:.*$")
_TARGET = re.compile(r"^\((?P<label>[\w.:-]+)\)=\s*$")
_ROLE = re.compile(r"\{(?P<role>[a-z][\w:-]*)\}`(?P<text>[^`]*)`")
_TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.S)
_LATEX_ACCENT = re.compile(r"\{?\\(['`\"^~])\{?([A-Za-z])\}?\}?")
_ACCENTS = {"'": "\u0301", "`": "\u0300", '"': "\u0308", "^": "\u0302", "~": "\u0303"}


def _bib_field(body: str, name: str) -> str | None:
    """The value of ``name = {...}`` (balanced braces) or ``name = "..."``/number in a BibTeX entry."""
    m = re.search(rf"\b{name}\s*=\s*", body, re.I)
    if m is None:
        return None
    i = m.end()
    if i < len(body) and body[i] == "{":
        depth, j = 0, i
        for j in range(i, len(body)):
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            if depth == 0:
                break
        return body[i + 1:j]
    m2 = re.match(r'"([^"]*)"|(\d+)', body[i:])
    return (m2.group(1) or m2.group(2)) if m2 else None


def _plain_tex(text: str) -> str:
    import unicodedata

    text = _LATEX_ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), text)
    return re.sub(r"[{}\\]", "", text).strip()


def _surname(author: str) -> str:
    author = author.strip()
    if "," in author:
        return author.split(",", 1)[0].strip()
    return author.split()[-1] if author.split() else author


def citations(bib: str | os.PathLike[str] | None = None) -> dict[str, tuple[str, str]]:
    """BibTeX key -> (authors as cited, year), read from the book's ``references.bib``.

    Authors as cited: ``"Xu"``, ``"Xu and Yuan"`` or ``"Xu et al."``. A missing
    file gives an empty mapping (a citation then shows its key).
    """
    path = Path(bib) if bib is not None else Path(__file__).resolve().parents[2] / "references.bib"
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    out: dict[str, tuple[str, str]] = {}
    starts = [m for m in re.finditer(r"^@\w+\s*\{\s*([^,\s]+)\s*,", text, re.M)]
    for m, nxt in zip(starts, [*starts[1:], None], strict=True):
        body = text[m.end(): nxt.start() if nxt else len(text)]
        author = _bib_field(body, "author") or _bib_field(body, "editor") or m.group(1)
        names = [_surname(_plain_tex(a)) for a in re.split(r"\s+and\s+", author)]
        who = names[0] if len(names) == 1 else (
            f"{names[0]} and {names[1]}" if len(names) == 2 else f"{names[0]} et al.")
        out[m.group(1)] = (who, _plain_tex(_bib_field(body, "year") or "n.d."))
    return out


def _role(role: str, text: str, *, bib: Mapping[str, tuple[str, str]], labels: set[str],
          doc_base: str) -> str:
    """One MyST role as plain Markdown."""
    m = _TITLED.match(text)
    title, target = (m.group("title"), m.group("target")) if m else (None, text)
    if role.startswith("cite"):
        keys = [k.strip() for k in target.split(",") if k.strip()]
        found = [bib.get(k, (k, "")) for k in keys]
        if role in ("cite:t", "cite:alp"):
            return "; ".join(f"{who} ({year})" if year else who for who, year in found)
        inner = "; ".join(f"{who} {year}".strip() for who, year in found)
        return f"({inner})"
    if role == "doc":
        path = posixpath.normpath(posixpath.join("notebooks", target))
        return f"[{title or target}]({doc_base}{path}.md)" if doc_base else (title or target)
    if role in ("ref", "numref", "eq"):
        label = target
        shown = title or label
        return f"[{shown}](#{label})" if label in labels else shown
    if role == "math":
        return f"${text}$"
    if role in ("code", "literal", "file", "samp", "kbd"):
        return f"`{text}`"
    return title or target  # another role: its text


def _convert_markdown(source: str, *, bib: Mapping[str, tuple[str, str]], labels: set[str],
                      doc_base: str) -> str:
    lines = source.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        target = _TARGET.match(line)
        if target:
            out.append(f'<a id="{target.group("label")}"></a>')
            i += 1
            continue
        m = _FENCE.match(line)
        if not m or m.group("name") == "code-cell":
            out.append(line)
            i += 1
            continue
        fence, name, arg = m.group("fence"), m.group("name"), m.group("arg")
        j = i + 1
        while j < len(lines) and _OPTION.match(lines[j]):
            label = re.match(r"^:(?:label|name):\s*(\S+)", lines[j])
            if label:
                out.append(f'<a id="{label.group(1)}"></a>')
            j += 1
        body: list[str] = []
        depth = 0
        while j < len(lines):
            inner = _FENCE.match(lines[j])
            if inner and inner.group("fence")[0] == fence[0] and len(inner.group("fence")) == len(fence):
                depth += 1
            elif lines[j].strip() == fence:
                if depth == 0:
                    break
                depth -= 1
            body.append(lines[j])
            j += 1
        i = j + 1
        if name in ("solution-end",):
            continue
        if name == "solution-start":
            out.append(f"**Solution** (of [the exercise](#{arg}))" if arg else "**Solution**")
            continue
        if name in ("math",):
            out += ["$$", *body, "$$"]
            continue
        if name == "admonition":
            heading = arg
        elif name == "glue:figure":  # the figure is the output of the cell above: its caption alone
            heading = ""
        elif name == "exercise":
            heading = f"Exercise: {arg}" if arg else "Exercise"
        else:
            heading = name.replace("-", " ").capitalize() + (f": {arg}" if arg else "")
        text = _convert_markdown("\n".join(body).strip("\n"), bib=bib, labels=labels, doc_base=doc_base)
        quoted = [f"> **{heading}**"] if heading else []
        if heading and text:
            quoted.append(">")
        quoted += [f"> {t}".rstrip() for t in text.split("\n")] if text else []
        out += quoted
    text = "\n".join(out)
    return _ROLE.sub(lambda r: _role(r["role"], r["text"], bib=bib, labels=labels, doc_base=doc_base),
                     text)


def myst_to_jupyter(nb: Any, *, bib: str | os.PathLike[str] | None = None,
                    doc_base: str = REPOSITORY_BLOB) -> Any:
    """Convert the MyST-only Markdown of notebook ``nb`` (in place) to what plain Jupyter renders.

    The book's Markdown cells (and ``text/markdown`` outputs) use MyST markup that
    plain Jupyter shows as raw text. Converted, in every Markdown cell and every
    ``text/markdown`` output:

    * a directive (``:::{admonition} Title`` or ```` ```{note} ````, options such as
      ``:class:`` dropped) becomes a blockquote headed by its title in bold;
      ``{glue:figure}`` a blockquote of its caption (in plain Jupyter the
      figure is the output of the code cell that glued it, see :func:`ldpfair.style.figure`);
      ``{exercise}`` is headed "Exercise: <title>", ``{solution-start}`` becomes a
      bold "Solution" line and ``{solution-end}`` disappears;
    * a ``(label)=`` target becomes an HTML anchor; ``{ref}``/``{numref}`` to a
      label of the same notebook a link to it, otherwise its text;
    * ``{doc}`` a link to the page's source at ``doc_base`` (the text alone if
      ``doc_base`` is empty);
    * ``{cite:p}`` "(Author Year)", ``{cite:t}`` "Author (Year)", from ``bib``
      (default: the book's ``references.bib``);
    * ``{math}`` inline ``$...$``; another role its text.

    Code cells are left as they are. Used by ``ldpfair run`` and ``ldpfair assignment``.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The notebook.
    bib : path, optional
        A BibTeX file.
    doc_base : str
        Prefix of ``{doc}`` links (the path under it is the repository path of the page).

    Returns
    -------
    nbformat.NotebookNode
        ``nb`` itself.
    """
    refs = citations(bib)
    labels = {m.group("label") for c in nb.cells if c.cell_type == "markdown"
              for m in map(_TARGET.match, c.source.split("\n")) if m}
    labels |= {m.group(1) for c in nb.cells if c.cell_type == "code"
               for m in re.finditer(r"^:label:\s*(\S+)", c.source, re.M)}
    labels |= {m.group(1) for c in nb.cells if c.cell_type == "markdown"
               for m in re.finditer(r"^:label:\s*(\S+)", c.source, re.M)}

    def convert(text: str) -> str:
        return _convert_markdown(text, bib=refs, labels=labels, doc_base=doc_base)

    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = convert(cell.source)
        elif cell.cell_type == "code":
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                if "text/markdown" in data:
                    md = data["text/markdown"]
                    data["text/markdown"] = convert("".join(md) if isinstance(md, list) else md)
    return nb
