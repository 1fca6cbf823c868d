"""No layer below ``ldpfair/papers/`` names a paper (issue #27).

Outside ``ldpfair/papers/`` and ``ldpfair/datasets/`` no function, class, constant
or imported name carries a paper's name, and no code compares a string holding one
(``==``, ``!=``, ``in``, ``match``): the library offers concepts with their
conventions as parameters, and each paper picks its own in its chapter package.
Docstrings and comments may cite the papers.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "ldpfair"
ALLOWED = ("papers", "datasets")
#: The five papers, and any chapter package named like one (``<author><year>``).
PAPERS = sorted({"arcolezi2023", "makhlouf2024", "ghoukasian2025", "hamman2023", "xu2019",
                 *(p.name for p in (ROOT / "papers").iterdir()
                   if p.is_dir() and re.fullmatch(r"[a-z]+\d{4}", p.name))})


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _names(node: ast.AST) -> list[str]:
    return [n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, ast.Name | ast.Attribute)]


def offenders(source: str, where: str, papers: list[str] = PAPERS) -> list[str]:
    """Every definition, assigned or imported name, or compared string literal naming a paper."""
    pattern = re.compile("|".join(map(re.escape, papers)), re.IGNORECASE)
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found += [(node.lineno, type(node).__name__, node.name)]
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [(node.lineno, "assignment", n) for t in targets for n in _names(t)]
        elif isinstance(node, ast.Import | ast.ImportFrom):  # a lower layer importing a chapter, too
            module = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            found += [(node.lineno, "import", n) for a in node.names for n in [a.name, a.asname] if n]
            found += [(node.lineno, "import from", m) for m in module]
        elif isinstance(node, ast.Compare) and any(
                isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) for op in node.ops):
            found += [(node.lineno, "comparison", s) for s in _strings(node)]
        elif isinstance(node, ast.Match):
            found += [(node.lineno, "match", s) for case in node.cases for s in _strings(case.pattern)]
    return [f"{where}:{line} {kind} {text!r}" for line, kind, text in sorted(found) if pattern.search(text)]


def test_no_layer_below_papers_names_a_paper():
    bad: list[str] = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in ALLOWED:
            continue
        bad += offenders(path.read_text(encoding="utf-8"), f"ldpfair/{rel.as_posix()}")
    assert not bad, "paper names below ldpfair/papers/:\n" + "\n".join(bad)


def test_the_check_finds_each_kind_of_offender_and_spares_docstrings():
    source = '''
"""Module citing arcolezi2023 (allowed)."""
from .fairness import hamman2023_metrics as soft  # imported name
import numpy as xu2019
ARCOLEZI2023_LGBM = {}
cfg: dict = {}
cfg.makhlouf2024 = 1
def ghoukasian2025_metrics():
    """Eq. 2 of ghoukasian2025 (allowed)."""
    return "xu2019 in a returned string (allowed)"
class Hamman2023:
    pass
def branch(paper):
    if paper == "arcolezi2023":
        return 1
    if paper in ("xu2019", "other"):
        return 2
    match paper:
        case "makhlouf2024":
            return 3
    return {"hamman2023": 4}.get(paper)  # a dict key is data, not a branch
'''
    got = offenders(source, "m.py")
    assert [g.split(" ", 1)[0] for g in got] == [
        "m.py:3", "m.py:4", "m.py:5", "m.py:7", "m.py:8", "m.py:11", "m.py:14", "m.py:16", "m.py:18"], got
    assert "m.py:3 import 'hamman2023_metrics'" in got
    assert offenders("from ..papers.xu2019 import checks\n", "low.py") == [
        "low.py:1 import from 'papers.xu2019'"]
    assert offenders('"""about xu2019"""\nx = 1  # xu2019\n', "ok.py") == []
