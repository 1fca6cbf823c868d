"""The chapters' table and finding functions (issue #36): what the notebooks now only call."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ldpfair import tables
from ldpfair.tables import Table, format_value


def test_show_displays_markdown_and_tables_and_skips_nothing(monkeypatch):
    import IPython.display as ipd

    shown: list[object] = []
    monkeypatch.setattr(ipd, "display", lambda obj: shown.append(obj))
    t = tables.table(pd.DataFrame({"a": [1]}))
    tables.show("one finding", None, "", "  ", t)
    assert len(shown) == 2
    assert isinstance(shown[0], ipd.Markdown) and shown[0].data == "one finding"
    assert shown[1] is t


def test_format_value_accepts_a_signed_specification():
    assert format_value(1.234, "+.2f") == "+1.23"
    assert format_value(-0.5, "+.2f") == "-0.50"
    with pytest.raises(ValueError, match="digits"):
        format_value(1.0, "+2f")


def _lgbm(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [{"mechanism": m, "epsilon": e, "seed": s, "acc": rng.uniform(0.8, 0.85),
             "Delta_SP": rng.uniform(0, 0.2), "Delta_EO": rng.uniform(0, 0.2),
             "train_Delta_prime": 0.3, "train_Delta_prime_Z": rng.uniform(0, 0.3)}
            for m, eps in (("NonDP", [np.nan]), ("OPT", [0.5, 1.0]), ("GRR", [0.5, 1.0]))
            for e in eps for s in range(3)]
    return pd.DataFrame(rows)


def test_ghoukasian2025_dprime_table_pivots_the_means_per_mechanism_and_epsilon():
    from ldpfair.papers.ghoukasian2025 import findings

    df = _lgbm()
    t = findings.dprime_table({"fig1": df, "fig2": df.iloc[:0]})
    assert isinstance(t, Table) and list(t.frame.columns) == ["figure", "ε", "original", "GRR / RR", "OPT"]
    assert len(t) == 2  # fig2 has no rows
    want = df[(df["mechanism"] == "OPT") & (df["epsilon"] == 1.0)]["train_Delta_prime_Z"].mean()
    assert t.frame.iloc[1]["OPT"] == f"{want:.3f}"
    assert findings.dprime_table({"fig1": df.iloc[:0]}) is None
    assert findings.nondp_table({}) is None


def test_ghoukasian2025_findings_say_when_the_profile_lacks_results():
    from ldpfair.papers.ghoukasian2025 import findings

    empty = pd.DataFrame()
    assert findings.quoted_numbers({}) == ("Figs. 1-2 are not in this profile", None, "")
    assert findings.two_step_finding(empty) == "no Figure 6 results in this profile"
    assert findings.readings(empty, empty) == ("no Figure 6 readings in this profile", "")
    assert findings.table1_readings(empty) == "no Table I results in this profile"
    assert findings.trials_table(empty, empty) is None and findings.trial_agreement(empty, empty) == ""
    assert findings.kary_causes(empty, {}) == ""


def test_ghoukasian2025_theorem2_finding_states_the_largest_gap_and_median_ratio():
    from ldpfair.papers.ghoukasian2025 import findings

    thm2 = pd.DataFrame({"gap": [1e-9, -3e-9], "ratio_rr": [2.0, 3.0], "ratio_closed": [1.0, 1.0]})
    text = findings.theorem2_finding(thm2)
    assert "3.00e-09 over 2 instances" in text and "median 2.50" in text


def test_hamman2023_figure_findings_compute_the_errors_of_the_answers():
    from ldpfair.papers.hamman2023 import findings

    ex = {"sp_answered": np.array([0.1, 0.2, 0.6]), "sp": np.array([0.1, 0.1, 0.3]),
          "leakage_clean": 100.0, "leakage_private": 51.0}
    text = findings.figure1_finding(ex)
    assert "average |error| of the answers 0.1333, median 0.1000" in text
    assert "leakage 100% from exact and 51% from concealed answers" in text
    assert "median |error| of the answers 0.1000" in findings.figure3_finding(ex)


def test_synthesis_tables_have_labels_and_no_index():
    from ldpfair.papers.synthesis import report

    mc = pd.DataFrame({"mechanism": ["GRR"], "epsilon": [1.0], "var_exact": [1.23456], "var_simulated": [1.2],
                       "var_se": [0.0123], "z": [0.5], "bits": [1], "level": [1.0],
                       "audit_lower_bound": [0.99123], "users_per_s": [np.nan]})
    t = report.mechanism_cards_table(mc)
    row = t.frame.iloc[0]
    assert row["audit lower bound"] == "0.9912"
    assert (row["n Var (exact)"], row["z"], row["users / s"]) == ("1.235", "+0.50", tables.MISSING)
    assert report.leaderboard_table(pd.DataFrame()) == "no results in this profile"
    cost = pd.DataFrame({"dataset": ["Adult"], "cells": [10], "declared": [10], "core_seconds": [3600.0],
                         "seconds_per_cell": [360.0], "core_hours": [1.0]})
    assert "core-hours" in report.cost_table(cost).frame.columns
    assert report.claims_table().frame.columns[0] == "claim"


def test_arcolezi2023_split_table_gives_each_attribute_its_budget():
    from ldpfair.papers.arcolezi2023 import findings

    t = findings.split_table(1.0)
    assert list(t.frame["attribute (k)"]) == ["gender (2)", "race (5)", "native-country (41)", "age (74)"]
    assert set(t.frame["uniform εj"]) == {"0.250"}
