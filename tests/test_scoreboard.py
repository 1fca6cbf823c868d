"""Reproduction scoreboard: statuses computed from committed results, convention checks, links."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from ldpfair import papers
from ldpfair import scoreboard as sb
from ldpfair.reporting import Claim

ROOT = Path(__file__).resolve().parents[1]


def _fake(**funcs):
    return SimpleNamespace(**funcs)


def test_paper_without_declarations_is_not_yet(monkeypatch):
    monkeypatch.setattr(papers, "module", lambda p: None)
    board = sb.paper_scoreboard("hamman2023")
    assert list(board["status"]) == ["not yet"] and board["evidence"][0] == "not yet reproduced"
    assert sb.paper_claims("hamman2023") == []


def test_scoreboard_convention_is_validated(monkeypatch):
    good = pd.DataFrame({"item": ["Figure 1"], "label": ["fig-x"], "status": ["partly"]})
    monkeypatch.setattr(papers, "module", lambda p: _fake(scoreboard=lambda: good))
    assert sb.paper_scoreboard("xu2019")["evidence"].tolist() == [""]
    monkeypatch.setattr(papers, "module", lambda p: _fake(scoreboard=lambda: good.drop(columns="label")))
    with pytest.raises(ValueError, match="lacks columns"):
        sb.paper_scoreboard("xu2019")
    monkeypatch.setattr(papers, "module", lambda p: _fake(scoreboard=lambda: good.assign(status="done")))
    with pytest.raises(ValueError, match="unknown statuses"):
        sb.paper_scoreboard("xu2019")
    # claims: committed_claims() first, a zero-argument claims() accepted, claims(args) ignored
    c = Claim("C1", "s", "e", {"x": True})
    monkeypatch.setattr(papers, "module", lambda p: _fake(claims=lambda: [c]))
    assert sb.paper_claims("xu2019") == [c]
    monkeypatch.setattr(papers, "module", lambda p: _fake(claims=lambda t1, t2: [c]))
    assert sb.paper_claims("xu2019") == []


def test_all_papers_and_markdown_links():
    board = sb.scoreboard()
    assert list(dict.fromkeys(board["paper"])) == list(papers.PAPERS)
    assert set(board["status"]) <= set(sb.STATUSES)
    md = sb.scoreboard_markdown(board, sb.claims_overview())
    x = board[board["paper"] == "xu2019"].set_index("item")
    assert list(x.index[:3]) == ["Table 1", "Table 2", "Figure 1"]
    assert "[Table 1](../notebooks/xu2019.md#table-1)" in md
    assert "{ref}`Figure 1 <fig-xu2019-1>`" in md
    for p in papers.PAPERS:
        assert f"{{doc}}`../notebooks/{p}`" in md


def _slug(heading: str) -> str:
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_labels_exist_in_the_chapters():
    """Every scoreboard label is a target, figure name or heading anchor of its chapter."""
    for p in papers.PAPERS:
        board = sb.paper_scoreboard(p)
        text = (ROOT / "notebooks" / f"{p}.md").read_text()
        headings = {_slug(h) for h in re.findall(r"^#{1,3} (.+)$", text, re.MULTILINE)}
        targets = set(re.findall(r"^\(([\w:.-]+)\)=", text, re.MULTILINE))
        names = set(re.findall(r"name: ([\w:.-]+)", text)) | set(re.findall(r":label: ([\w:.-]+)", text))
        for label in board["label"]:
            if label.startswith("#"):
                assert label[1:] in headings, (p, label)
            else:
                assert label in targets | names | {p}, (p, label)
