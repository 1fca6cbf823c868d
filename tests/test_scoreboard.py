"""Reproduction scoreboard: statuses computed from committed results, convention checks, links."""

from __future__ import annotations

import math
import re
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from scipy import stats

from ldpfair import papers
from ldpfair import scoreboard as sb
from ldpfair.reporting import Claim

ROOT = Path(__file__).resolve().parents[1]


def test_cell_agrees_is_a_welch_interval():
    # ours: mean 0.80, std 0.02, n 10; paper: mean 0.78, std 0.01, n 10
    v1, v2 = 0.02**2 / 10, 0.01**2 / 10
    dof = (v1 + v2) ** 2 / (v1**2 / 9 + v2**2 / 9)
    half = stats.t.ppf(0.975, dof) * math.sqrt(v1 + v2)
    assert sb.cell_agrees(0.80, 0.02, 10, 0.80 - 0.999 * half, 0.01, 10)
    assert not sb.cell_agrees(0.80, 0.02, 10, 0.80 - 1.001 * half, 0.01, 10)
    # without the paper's std only ours counts; atol widens the interval
    half_ours = stats.t.ppf(0.975, 9) * 0.02 / math.sqrt(10)
    assert not sb.cell_agrees(0.80, 0.02, 10, 0.80 + 1.01 * half_ours)
    assert sb.cell_agrees(0.80, 0.02, 10, 0.80 + half_ours + 0.009, atol=0.01)
    assert not sb.cell_agrees(float("nan"), 0.02, 10, 0.8)


def test_item_status():
    assert sb.item_status({"a": True, "b": True}) == "reproduced"
    assert sb.item_status([True, False]) == "partly"
    assert sb.item_status([False, False]) == "not reproduced"
    assert sb.item_status([True], present=0) == "not yet"
    assert sb.item_status({}) == "not yet"
    # a computation in progress is at best "partly" reproduced
    assert sb.item_status([True, True], present=5, total=10) == "partly"
    assert sb.item_status([False], present=5, total=10) == "not reproduced"
    assert sb.item_status([True, True], present=10, total=10) == "reproduced"
    assert sb.item_status([True], present=0, total=10) == "not yet"
    frame = pd.DataFrame({"x": [1]})
    frame.attrs["coverage"] = {"present": 5, "total": 10}
    assert sb.results_status([True, True], frame) == "partly"
    frame.attrs["coverage"] = {"present": 10, "total": 10}
    assert sb.results_status([True, True], frame) == "reproduced"


def test_published_checks():
    ours = pd.DataFrame({"m": ["A"] * 5 + ["B"] * 5, "acc": [0.8, 0.81, 0.79, 0.8, 0.8] + [0.6] * 5})
    paper = pd.DataFrame({"m": ["A", "B", "C"], "acc": [0.80, 0.70, 0.5], "acc_std": [0.01, 0.0, 0.0]})
    checks = sb.published_checks(ours, paper, ["m"], ["acc"], paper_n=5)
    assert checks == {"A: acc": True, "B: acc": False, "C: acc": False}


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
