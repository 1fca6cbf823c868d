"""makhlouf2024 chapter: grids, the authors' fold aggregation, claims, and the engine's code encoding."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from fixtures_makhlouf import direction_runs, toy_runs

from ldpfair.experiments import Grid, PrivSpec, kfold, run
from ldpfair.experiments.grid import DatasetSpec
from ldpfair.forest import make_forest
from ldpfair.models import ModelSpec
from ldpfair.papers.makhlouf2024 import SPEC
from ldpfair.papers.makhlouf2024 import aggregate as ag
from ldpfair.papers.makhlouf2024 import authors as au
from ldpfair.papers.makhlouf2024 import claims as cl
from ldpfair.papers.makhlouf2024 import experiments as mx


def _fold_rows() -> pd.DataFrame:
    rows = []
    for fold in range(3):
        row = {"dataset": "d", "mechanism": "sLDP", "epsilon": 1.0, "seed": 0, "fold": fold,
               "acc": 0.5 + 0.1 * fold}
        for p in ag.RATES.values():
            row[f"{p}_1"] = 0.6 + 0.1 * fold
            row[f"{p}_0"] = 0.2 + 0.1 * fold
        row["PPV_0"] = np.nan if fold == 0 else 0.5
        rows.append(row)
    rows.append({**rows[0], "mechanism": "noLDP", "epsilon": np.nan})
    return pd.DataFrame(rows)


def test_aggregate_faithful_last_fold_and_zero_precision() -> None:
    runs = ag.aggregate_runs(_fold_rows(), faithful=True).set_index(["setting"])
    r = runs.loc["sLDP"]
    assert r["SP_maj"] == pytest.approx(0.7)  # fold mean
    assert r["EO_maj"] == pytest.approx(0.8) and r["PE_min"] == pytest.approx(0.4)  # last fold only
    assert r["PRP_min"] == pytest.approx((0 + 0.5 + 0.5) / 3)  # precision 0 when nothing predicted
    assert r["SD"] == pytest.approx(r["SP_maj"] - r["SP_min"])
    assert runs.loc["noLDP", "epsilon"] == math.inf


def test_aggregate_corrected_fold_means_nan_aware() -> None:
    r = ag.aggregate_runs(_fold_rows(), faithful=False).set_index("setting").loc["sLDP"]
    assert r["EO_maj"] == pytest.approx(0.7)
    assert r["PRP_min"] == pytest.approx(0.5)
    with pytest.raises(TypeError):
        ag.aggregate_runs(_fold_rows(), faithful="yes")
    with pytest.raises(ValueError, match="lack columns"):
        ag.aggregate_runs(_fold_rows().drop(columns="TPR_1"))


def test_build_profiles() -> None:
    paper = SPEC.experiments("paper")
    assert set(paper) == set(mx.DATA)
    g = paper["compas_3"]
    assert g.epsilons == mx.EPSILONS and len(g.seeds) == 20
    assert [p.name for p in g.privatizations] == list(mx.SETTINGS)
    assert len(g) == 20 * 10 * (1 + 3 * 9)  # 5,600 forest fits per dataset, as the authors
    comb = g.privatizations[2]
    assert comb.mode == "combined" and set(comb.sensitive) == {"race", "age_cat", "sex"}
    assert g.datasets[0].config()["encoding"] == "codes"
    assert len(SPEC.experiments("quick")["S1_0.44"]) == 2 * (1 + 3 * 3)  # 2 folds (quick), 1 + 3 x 3 cells
    with pytest.raises(ValueError, match="invalid data"):
        mx.build("quick", data=["nope"])


def test_profile_overrides_reach_the_grids() -> None:
    assert mx.build("quick") == SPEC.experiments("quick")  # the thin wrapper is the declaration
    g = SPEC.experiments("quick", data=["S1_0.52"], epsilons=[2.0], seeds=3, synthetic_source="generate",
                         synthetic_seed=5)
    assert list(g) == ["S1_0.52"] and g["S1_0.52"].epsilons == (2.0,) and len(g["S1_0.52"].seeds) == 3
    assert g["S1_0.52"].datasets[0].options["seed"] == 5
    assert g["S1_0.52"].datasets[0].options["source"] == "generate"
    paper = SPEC.experiments("paper", data=["S1_0.52_draw2", "adult_10000"])  # runs per result kept
    assert [len(x.seeds) for x in paper.values()] == [3, 20]
    with pytest.raises(ValueError, match="unknown parameter.*'eps'.*valid: data, epsilons"):
        mx.build("quick", eps=[1.0])
    with pytest.raises(ValueError, match="seeds gives no number of runs for \\['S2_Q1'\\]"):
        SPEC.experiments("quick", data=["S2_Q1"], seeds={"S1_0.44": 2})
    with pytest.raises(ValueError, match="invalid profile='full'"):
        mx.build("full")
    assert set(SPEC.parameters) == {"profile", "faithful", "mixed_fig3", "overlay_authors",
                                    "synthetic_source", "synthetic_seed", "n_jobs"}


def test_codes_encoding_is_backward_compatible_and_feeds_codes() -> None:
    from ldpfair.datasets.core import Dataset

    rng = np.random.default_rng(0)
    n = 400
    frame = pd.DataFrame({"A": rng.integers(0, 2, n), "M": rng.integers(0, 3, n),
                          "Y": rng.integers(0, 2, n)})
    ds = Dataset(name="toy", frame=frame, target="Y", protected="A", sensitive={"A": 2, "M": 3},
                 domains={"A": 2, "M": 3, "Y": 2}, categories={}, numeric=[], description="toy",
                 citation="", license="", source="", options={}, files=[])
    onehot = DatasetSpec("toy", dataset=ds)
    codes = DatasetSpec("toy", dataset=ds, encoding="codes")
    assert "encoding" not in onehot.config() and codes.config()["encoding"] == "codes"
    with pytest.raises(ValueError, match="encoding"):
        DatasetSpec("toy", dataset=ds, encoding="bits")
    priv = PrivSpec("GRR", mode="combined", output="values", label="comb")
    out = {}
    for spec in (onehot, codes):
        g = Grid(datasets=spec, models=ModelSpec(make_forest, {"n_estimators": 5}),
                 privatizations=[None, priv],
                 epsilons=[1.0], seeds=1, evaluation=kfold(2))
        out[spec.encoding] = run(g, progress=False)
    assert set(out["codes"]["n_features"]) == {2}
    assert set(out["onehot"]["n_features"]) == {5}


def test_claims_fail_without_evidence_and_paper_numbers() -> None:
    from ldpfair.reporting import claims_table

    table = claims_table(cl.claims(pd.DataFrame(columns=["data", "setting", "epsilon"])))
    assert {"Obs1", "Obs8", "Statement 1", "Statement 2", "A", "B", "C", "D"} <= set(table["claim"])
    assert (table["verdict"] == "not reproduced").all()
    pn = au.paper_numbers()
    assert len(pn) == 7 and pn.loc[pn["metric"] == "EOD", "paper"].tolist() == [-0.09, -0.27, 0.43, 0.38]


def test_fig3_sources_mixed_thresholds() -> None:
    from ldpfair.papers.makhlouf2024.figures import fig3_sources

    src = fig3_sources("compas", mixed=True)
    assert src["OA"]["sLDP"] == ("compas_3", "compas_1")
    assert src["PRP"]["combLDP"] == ("compas_3", "compas_3")
    assert fig3_sources("synthetic", mixed=False)["EO"]["sLDP"] == ("S1_0.44", "S1_0.44")
    assert fig3_sources("synthetic")["EO"]["sLDP"] == ("S1_0.52", "S1_0.44")


# --------------------------------------------------------------------------- issue 23
def test_synthetic_source_default_is_authors_and_draws_keep_their_keys() -> None:
    assert mx.dataset_spec("S1_0.44").options["source"] == "authors"
    gen = mx.dataset_spec("S1_0.44", synthetic_source="generate").config()
    draw0 = mx.dataset_spec("S1_0.44_draw0").config()
    assert draw0 == gen and draw0["options"]["seed"] == 0  # the committed regenerated draw, same key
    assert mx.dataset_spec("S1_0.6_draw2").options["seed"] == 2
    assert mx.dataset_spec("S2_Q1").options["source"] == "generate"  # no file of the authors
    with pytest.raises(ValueError, match="synthetic_source"):
        mx.dataset_spec("S1_0.44", synthetic_source="files")
    paper = SPEC.experiments("paper")
    assert len(paper["S1_0.52"].seeds) == 20 and len(paper["S1_0.52_draw0"].seeds) == 20
    assert len(paper["compas_corrected_1"].seeds) == 20 and len(paper["S1_0.52_draw3"].seeds) == 3
    assert not any("_draw" in k and not k.endswith("_draw0") for k in SPEC.experiments("quick"))
    assert paper["S1_0.52"].datasets[0].config() != paper["S1_0.52_draw0"].datasets[0].config()


def _toy_runs(data: str, shift: float = 0.0, n: int = 20) -> pd.DataFrame:
    return toy_runs(data, shift, n)


def test_draw_runs_swaps_synthetic_source() -> None:
    from ldpfair.papers.makhlouf2024 import draws as sc

    runs = pd.concat([_toy_runs("S1_0.44", n=2), _toy_runs("S1_0.44_draw0", shift=1.0, n=2),
                      _toy_runs("compas_1", n=2)], ignore_index=True)
    base = sc.draw_runs(runs, None)
    assert set(base["data"]) == {"S1_0.44", "compas_1"} and base["SP_maj"].max() < 1.0
    d0 = sc.draw_runs(runs, 0)
    assert set(d0["data"]) == {"S1_0.44", "compas_1"}
    assert d0.loc[d0["data"] == "S1_0.44", "SP_maj"].min() > 1.0  # the draw's rows, renamed
    with pytest.raises(ValueError, match="draw"):
        sc.draw_runs(runs, 3)
    assert sc.available_draws(runs) == []  # draw 0 lacks S1_0.52 and S1_0.6


def test_figure_cells_follow_the_plots() -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    cells = {(d, s): ms for d, s, ms in sc.figure_cells("Figure 3a")}
    assert cells[("S1_0.52", "sLDP")] == ("EO_maj", "EO_min", "PE_maj", "PE_min", "PRP_maj", "PRP_min")
    assert ("S1_0.52", "noLDP") not in cells and len(cells[("S1_0.44", "noLDP")]) == 10
    assert {d for d, _, _ in sc.figure_cells("Figure 3a", mixed=False)} == {"S1_0.44"}
    assert all(ms == tuple(ag.DISPARITY.values()) for _, _, ms in sc.figure_cells("Figure 4b"))
    assert len(sc.figure_cells("Figure 7")) == 12
    with pytest.raises(ValueError, match="item"):
        sc.figure_cells("Figure 9")


def test_figure_agreement_welch_detects_a_shift() -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    theirs = _toy_runs("S1_0.52")
    same = sc.figure_agreement(theirs, theirs, "Figure 4a")
    assert len(same) == 5 * (1 + 2 * 9) and same["agrees"].all() and set(same["test"]) == {"welch"}
    shifted = sc.figure_agreement(_toy_runs("S1_0.52", shift=0.2), theirs, "Figure 4a")
    assert not shifted["agrees"].any()
    missing = sc.figure_agreement(theirs.iloc[:0], theirs, "Figure 4a")
    assert not missing["agrees"].any() and set(missing["test"]) == {"missing"}


def test_figure_agreement_shares_one_row_per_figure() -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    theirs = _toy_runs("S1_0.52")
    shares = sc.figure_agreement_shares(theirs.assign(SD=theirs["SD"] + 0.3), theirs).set_index("figure")
    assert list(shares.index) == list(sc.FIGURES)
    assert shares.loc["Figure 4a", "means"] == 5 * (1 + 2 * 9)
    assert shares.loc["Figure 4a", "agree"] == pytest.approx(0.8)  # SD (1 of 5 disparities) shifted
    assert shares.loc["Figure 7", "agree"] == 1.0 and shares.loc["Figure 8", "means"] == 0


def test_agreement_with_authors_is_welch_over_every_authors_cell() -> None:
    theirs = _toy_runs("compas_1")
    noise = _toy_runs("compas_1").assign(seed=lambda d: d["seed"] + 100)
    rng = np.random.default_rng(np.random.SeedSequence(11))
    for col in (*ag.DISPARITY.values(), "acc"):  # other draws of the same distribution
        noise[col] = noise.get(col, 0.8) + 0.05 * rng.standard_normal(len(noise))
        theirs[col] = theirs.get(col, 0.8) + 0.05 * rng.standard_normal(len(theirs))
    same = au.agreement_with_authors(noise, theirs)
    assert len(same) == 6 * (1 + 3 * len(mx.EPSILONS)) and set(same["test"]) == {"welch"}
    assert same["agrees"].mean() >= 0.85  # a 95% interval: most cells of equal distributions agree
    shifted = au.agreement_with_authors(noise.assign(SD=noise["SD"] + 0.3), theirs)
    assert not shifted.loc[shifted["metric"] == "SD", "agrees"].any()
    # a cell missing on our side is a row that does not agree (not dropped by an inner merge)
    part = au.agreement_with_authors(noise[noise["setting"] != "noLDP"], theirs)
    assert len(part) == len(same)
    gone = part[part["setting"] == "noLDP"]
    assert len(gone) == 6 and not gone["agrees"].any() and set(gone["test"]) == {"missing"}


def test_fig6_trends_are_the_inverted_observations() -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    rows = []
    for d, sign in (("S2_Q1", 1), ("S2_Q2", 1), ("S2_Q3", -1)):
        rows.append({"data": d, "setting": "noLDP", "epsilon": math.inf, "OA_maj": 0.8, "OA_min": 0.8,
                     "SP_maj": 0.5, "SP_min": 0.5})
        for s in ("sLDP", "combLDP", "indLDP"):
            # Q1/Q2: A=1 (unprivileged) loses accuracy and gains positives; Q3: A=0 does the opposite
            rows.append({"data": d, "setting": s, "epsilon": 0.1,
                         "OA_maj": 0.7 if sign > 0 else 0.8, "OA_min": 0.8 if sign > 0 else 0.7,
                         "SP_maj": 0.7 if sign > 0 else 0.5, "SP_min": 0.5 if sign > 0 else 0.3})
    summ = pd.DataFrame(rows)
    t = sc.fig6_trends(summ)
    assert len(t) == 18 and all(t.values())
    swapped = summ.rename(columns={"OA_maj": "OA_min", "OA_min": "OA_maj", "SP_maj": "SP_min",
                                   "SP_min": "SP_maj"})
    assert not any(sc.fig6_trends(swapped).values())


def test_table1_comparison_uses_printed_precision() -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    t1 = pd.DataFrame({"result": ["S1_0.52", "compas_3", "adult_27260"], "n": [100_000, 5915, 45_849]})
    cmp = sc.table1_comparison(t1).set_index("quantity")
    assert cmp.loc["Synthetic n", "agrees"] and cmp.loc["Compas n", "agrees"]
    assert not cmp.loc["Adult n", "agrees"] and cmp.loc["Adult n", "diff"] == 45_849 - 32_561
    t1.loc[1, "n"] = 5916
    assert not sc.table1_comparison(t1).set_index("quantity").loc["Compas n", "agrees"]


def test_figures_text_readable_at_column_width() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ldpfair import style
    from ldpfair.papers.makhlouf2024 import figures as f

    style.use()
    runs = pd.concat([_toy_runs(d, n=3) for d in ("S1_0.44", "S1_0.52", "S1_0.6")], ignore_index=True)
    summ = ag.summary(runs)
    figs = {"fig1": f.draw_framework(), "fig2": f.draw_causal_model(),
            "fig3": f.plot_fig3(summ, "synthetic", authors=summ), "fig4": f.plot_fig4(summ, "S1_0.52"),
            "fig7": f.plot_thresholds(summ, ["S1_0.44", "S1_0.52", "S1_0.6"], authors=summ)}
    cells = pd.DataFrame([{"variant": v, "quantile": q, "source": "generate", "draw": 0, "cell": c,
                           "p": 0.5} for v in (1, 2) for q in (0.25, 0.5) for c in ("0 0 0", "1 1 2")])
    figs["cells"] = f.plot_cell_rates(cells)
    sizes = {k: f.min_text_px(fig) for k, fig in figs.items()}
    assert all(v >= f.MIN_TEXT_PX for v in sizes.values()), sizes
    wide, ax = plt.subplots(figsize=(13, 2.8))  # the paper's one-row Fig. 4 layout with 7 pt ticks
    ax.set_xticks([0, 1])
    ax.set_xticklabels(["a", "b"], fontsize=7)
    assert f.min_text_px(wide) < f.MIN_TEXT_PX
    with pytest.raises(ValueError, match="column_px"):
        f.min_text_px(wide, column_px=0)
    plt.close("all")




def test_claim_causes_are_computed_per_failing_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc
    from ldpfair.reporting import Claim

    monkeypatch.setattr(sc, "s2_missing", lambda: True)
    ours = Claim("Statement 1", "s", "e", {"adult_10000: OA drops more for min": False,
                                           "compas_1: OA drops more for maj": False,
                                           "S2_Q1: OA drops more for maj": False, "S1_0.44: x": True})
    theirs = Claim("Statement 1", "s", "e", {**ours.checks, "compas_1: OA drops more for maj": True})
    # the authors' runs reverse both directions (intervals clear of 0)
    runs = pd.concat([direction_runs("adult_10000", +0.1), direction_runs("compas_1", -0.1)])
    (c,) = sc.claim_causes([ours], [theirs], their_runs=runs)
    # compas_1 holds on the authors' runs: not covered, so not a paper error
    assert c.cause.kind == "unexplained" and (c.cause.covered, c.cause.disagreeing) == (2, 3)
    assert c.cause.text.startswith("2 of 3 disagreements explained") and "compas_1" in c.cause.text
    both = Claim("Statement 1", "s", "e", {**ours.checks})
    (c,) = sc.claim_causes([ours], [both], their_runs=runs)
    assert c.cause.kind == "paper error" and c.cause.covered == c.cause.disagreeing == 3
    assert "[data unavailable, 1 of 3" in c.cause.text  # the Synthetic 2 part, listed apart
    monkeypatch.setattr(sc, "s2_missing", lambda: False)  # the S2 file exists: nothing covers S2
    (c,) = sc.claim_causes([ours], [both], their_runs=runs)
    assert c.cause.kind == "unexplained" and c.cause.covered == 2


def test_committed_claims_without_results_have_computed_causes(monkeypatch: pytest.MonkeyPatch) -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    empty = pd.DataFrame(columns=["data", "setting", "epsilon"])
    monkeypatch.setattr(sc, "committed_runs", lambda *a, **k: (None, empty))
    monkeypatch.setattr(sc, "authors_claims", lambda summ: cl.claims(empty))  # no evidence on either side
    claims = sc.committed_claims()
    assert all(c.verdict == "not reproduced" for c in claims)  # no evidence: every check fails
    assert all(c.cause is not None and c.cause.decided for c in claims)


def _obs5_summary(gap: float, std: float, n: float = 20.0) -> pd.DataFrame:
    rows = []
    for d in ("S1_0.52", "compas_3", "adult_27260"):
        for s, shift in (("combLDP", gap), ("indLDP", 0.0)):
            row = {"data": d, "setting": s, "epsilon": 0.1, "n_runs": n}
            for m in ag.DISPARITY.values():
                row[m], row[f"{m}_std"] = 0.2 + shift, std
            rows.append(row)
    return pd.DataFrame(rows)


def test_obs5_same_is_an_equivalence_test_within_the_papers_margin() -> None:
    obs5 = {c.id: c for c in cl.claims(_obs5_summary(0.0, 0.01))}["Obs5"]
    assert obs5.verdict == "reproduced"  # no gap, measured precisely: the same
    obs5 = {c.id: c for c in cl.claims(_obs5_summary(0.0, 0.3))}["Obs5"]
    assert obs5.verdict == "not reproduced"  # no mean gap, but too noisy to show sameness
    obs5 = {c.id: c for c in cl.claims(_obs5_summary(1.2 * cl.OBS5_MARGIN, 0.001))}["Obs5"]
    assert obs5.verdict == "not reproduced"  # a precise gap beyond the margin
    obs5 = {c.id: c for c in cl.claims(_obs5_summary(0.02, 0.001, n=np.nan))}["Obs5"]
    assert obs5.verdict == "reproduced"  # exact values (population forest) within the margin


def test_obs5_margin_is_obs4s_smallest_gap_on_the_authors_runs() -> None:
    from ldpfair.papers.makhlouf2024 import checks as sc

    theirs = ag.summary(au.authors_runs(list(sc.PAPER_DATA)))
    gaps = [abs(abs(cl.value(theirs, d, "indLDP", e, "EOD")) - abs(cl.value(theirs, d, "combLDP", e, "EOD")))
            for d, e in (("compas_3", 4.0), ("adult_27260", 8.0))]
    assert round(min(gaps), 3) == cl.OBS5_MARGIN


def test_population_forest() -> None:
    from ldpfair.papers.makhlouf2024 import draws as dr

    q = dr.grr_channel(3, 1.0)
    assert np.allclose(q.sum(axis=1), 1) and q[0, 0] / q[0, 1] == pytest.approx(math.e)
    with pytest.raises(ValueError, match="eps"):
        dr.grr_channel(2, 0.0)
    rng = np.random.default_rng(np.random.SeedSequence(3))
    n = 20_000
    frame = pd.DataFrame({"A": rng.integers(0, 2, n), "C": rng.integers(0, 2, n), "M": rng.integers(0, 3, n)})
    frame["Y"] = (rng.random(n) < 0.2 + 0.5 * frame["A"] + 0.1 * frame["M"]).astype(int)
    base = dr.population_rates(frame, "noLDP", math.inf)
    # noLDP: the majority label per cell; A=1 cells have P(Y=1) >= 0.7, A=0 cells <= 0.4
    assert base["SP_maj"] == pytest.approx(1.0) and base["SP_min"] == 0.0
    assert base["SD"] == pytest.approx(1.0)
    assert base["acc"] == pytest.approx(1 - abs(frame["Y"] - frame["A"]).mean())
    # combLDP at tiny epsilon: every reported cell looks alike, one label for everyone
    flat = dr.population_rates(frame, "combLDP", 0.01)
    assert flat["SP_maj"] == pytest.approx(flat["SP_min"]) and flat["SD"] == pytest.approx(0.0)
    with pytest.raises(ValueError, match="setting"):
        dr.population_rates(frame, "allLDP", 1.0)


def test_fig6_over_draws_shares() -> None:
    from ldpfair.papers.makhlouf2024 import draws as dr

    out = dr.fig6_over_draws(1)
    assert len(out) == 18 and out["holds"].isin([0.0, 1.0]).all()
    assert out["statement"].str.startswith(("S2_Q1", "S2_Q2", "S2_Q3")).all()
    with pytest.raises(ValueError, match="n_draws"):
        dr.fig6_over_draws(0)


def test_committed_runs_are_aggregated_once_until_a_results_file_changes(monkeypatch, tmp_path) -> None:
    """The scoreboard and the claims read the same aggregate; a touched file or compute mode re-reads."""
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path))
    folder = tmp_path / "makhlouf2024"
    folder.mkdir()
    (folder / "a.csv.gz").write_bytes(b"1")
    calls = []
    summ = pd.DataFrame({"data": ["S1_0.44"], "x": [1.0]})
    import types

    import ldpfair.papers.makhlouf2024 as package

    fake = types.SimpleNamespace(results=lambda profile, **kw: calls.append(kw) or {})
    monkeypatch.setattr(package, "SPEC", fake)
    monkeypatch.setattr(ag, "chapter_runs", lambda res, faithful: (None, summ))
    monkeypatch.setattr(ag, "_COMMITTED", {})
    first = ag.committed_chapter_runs(("S1_0.44",))
    first[1].loc[0, "x"] = 99.0  # a caller changing its copy changes nobody else's
    assert ag.committed_chapter_runs(("S1_0.44",))[1].equals(summ) and len(calls) == 1
    ag.committed_chapter_runs(("S1_0.44",), faithful=False)
    assert len(calls) == 2  # another aggregation is another key
    (folder / "a.csv.gz").write_bytes(b"22")  # recomputed results: read again
    ag.committed_chapter_runs(("S1_0.44",), faithful=False)
    assert len(calls) == 3
    monkeypatch.setenv("LDPFAIR_COMPUTE", "1")
    ag.committed_chapter_runs(("S1_0.44",), faithful=False)
    ag.committed_chapter_runs(("S1_0.44",), faithful=False)
    assert len(calls) == 5  # never from the memo when the call may rewrite the files


@pytest.mark.parametrize("b", [0.1, 1.0, 8.0, 0.0, 1e-9, math.inf, -math.inf, math.nan])
def test_value_matches_epsilons_as_numpy_isclose(b: float) -> None:
    for a in (b, b + 1e-9, b * (1 + 2e-5), b * (1 + 5e-6), 0.1, math.inf, -math.inf, math.nan, 0.0, 1e-8):
        assert cl._isclose(a, b) == bool(np.isclose(a, b)), (a, b)
