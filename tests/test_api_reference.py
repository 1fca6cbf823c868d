"""The API reference pages (book/api.md, book/api/*.md) cover the public API exactly.

The summary tables of ``book/api.md`` are written out name by name (autosummary needs
the names), so these tests keep them equal to each subpackage's ``__all__``; the
subpackage pages document ``__all__`` through ``automodule :members:``.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "book" / "api.md"
MODULES = ("ldp", "metrics", "experiments", "attacks", "interventions", "datasets", "verdicts", "tables",
           "style")


def summary_names(text: str) -> dict[str, list[str]]:
    """Module -> the names of its autosummary tables, in page order."""
    out: dict[str, list[str]] = {}
    module = None
    in_table = False
    for line in text.splitlines():
        if m := re.match(r"\.\. currentmodule:: (\S+)$", line):
            module, in_table = m.group(1), False
            out.setdefault(module, [])
        elif line.startswith(".. autosummary::"):
            in_table = True
        elif in_table and (m := re.match(r"   (\w+)$", line)):
            assert module is not None, f"autosummary entry {m.group(1)} before any currentmodule"
            out[module].append(m.group(1))
        elif line and not line.startswith(" "):
            in_table = False
    return out


def test_summary_tables_list_every_public_name_once():
    tables = summary_names(API.read_text(encoding="utf-8"))
    assert list(tables) == [f"ldpfair.{m}" for m in MODULES]
    for module, names in tables.items():
        public = list(importlib.import_module(module).__all__)
        assert len(names) == len(set(names)), f"{module}: a name is listed twice"
        missing, extra = sorted(set(public) - set(names)), sorted(set(names) - set(public))
        assert not missing and not extra, f"{module}: missing {missing}, not public {extra}"


def test_summary_parser_reads_the_tables():
    text = ".. currentmodule:: ldpfair.x\n\n.. autosummary::\n   :nosignatures:\n\n   a\n   b\n```\n   c\n"
    assert summary_names(text) == {"ldpfair.x": ["a", "b"]}


@pytest.mark.parametrize("module", MODULES)
def test_each_subpackage_has_its_page_in_the_toc(module):
    page = ROOT / "book" / "api" / f"{module}.md"
    text = page.read_text(encoding="utf-8")
    assert re.search(rf"^\.\. automodule:: ldpfair\.{module}\n   :members:$", text, re.M), page
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    api = [c for part in toc["parts"] for c in part["chapters"] if c["file"] == "book/api"]
    assert len(api) == 1 and {"file": f"book/api/{module}"} in api[0]["sections"]


def test_every_public_constant_has_a_doc_comment():
    """The API pages show a constant's ``#:`` comment; one without a comment would show nothing."""
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        from ldpfair_api import constant_comment
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))
    missing = []
    for m in MODULES:
        module = importlib.import_module(f"ldpfair.{m}")
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) and not constant_comment(module.__name__, name):
                missing.append(f"ldpfair.{m}.{name}")
    assert not missing, f"constants without a #: comment in the module that defines them: {missing}"
    # a re-exported constant is found in the submodule that defines it
    assert constant_comment("ldpfair.ldp", "PROTOCOLS")[0].startswith("The seven protocols")
    assert constant_comment("ldpfair.ldp", "no_such_name") == []
