"""Reproduction scoreboard: statuses computed from committed results, convention checks, links."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

from ldpfair import papers, scoreboard
from ldpfair import scoreboard as sb
from ldpfair.reporting import Claim

ROOT = Path(__file__).resolve().parents[1]


def _fake(**funcs):
    return SimpleNamespace(**{"scoreboard": lambda: None, "claims": lambda: [], **funcs})


def test_the_scoreboard_reads_each_chapters_spec():
    spec = papers.spec("xu2019")
    assert sb.paper_scoreboard("xu2019")["item"].tolist() == spec.scoreboard()["item"].tolist()
    assert [c.id for c in sb.paper_claims("xu2019")] == [c.id for c in spec.claims()]


def test_scoreboard_convention_is_validated(monkeypatch):
    good = pd.DataFrame({"item": ["Figure 1"], "label": ["fig-x"], "status": ["partly"]})
    monkeypatch.setattr(papers, "spec", lambda p: _fake(scoreboard=lambda: good))
    assert sb.paper_scoreboard("xu2019")["evidence"].tolist() == [""]
    assert sb.paper_scoreboard("xu2019")["cause"].tolist() == ["unexplained"]  # no cause recorded
    monkeypatch.setattr(papers, "spec", lambda p: _fake(scoreboard=lambda: good.drop(columns="label")))
    with pytest.raises(ValueError, match="lacks columns"):
        sb.paper_scoreboard("xu2019")
    monkeypatch.setattr(papers, "spec", lambda p: _fake(scoreboard=lambda: good.assign(status="done")))
    with pytest.raises(ValueError, match="unknown statuses"):
        sb.paper_scoreboard("xu2019")
    c = Claim("C1", "s", "e", {"x": True})
    monkeypatch.setattr(papers, "spec", lambda p: _fake(claims=lambda: (c,)))
    assert sb.paper_claims("xu2019") == [c]


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


def test_verdict_box_gives_whole_sentences_chance_and_a_link_to_the_evidence():
    """#45: the box shows the cause's one-sentence summary (never cut), chance, and links cell by cell."""
    from ldpfair import verdicts as v

    ids = [f"cell {i}" for i in range(30)]
    cause = v.decide_cause(ids[:4], [v.Check("Reading y", True, "lands " * 100, "variant",
                                             covers=tuple(ids[:2]), source="reading='y'")], "#t")
    row = v.score_item("Table 9", "#t", agrees=[False] * 4 + [True] * 26, cause=cause)
    board = pd.DataFrame([{**row, "paper": "p"}])
    claims = scoreboard.claims_overview_of({"p": []})
    box = scoreboard.verdict_box("p", board=board, claims=claims)
    assert cause.summary in box and "…" not in box
    assert "within what chance gives" in box  # 4 of 30: P = 0.06
    assert f"(#{scoreboard.EVIDENCE_ANCHOR})" in box
    ev = scoreboard.evidence_markdown("p", board=board, claims=claims)
    assert ":::{dropdown} Table 9" in ev and "cell 0, cell 1" in ev and "| not covered |" in ev
    flipped = v.score_item("Table 9", "#t", agrees=[False] * 4 + [True] * 2,
                           cause=v.decide_cause(ids[:4], []))
    box2 = scoreboard.verdict_box("p", board=pd.DataFrame([{**flipped, "paper": "p"}]), claims=claims)
    assert "more than chance gives" in box2
