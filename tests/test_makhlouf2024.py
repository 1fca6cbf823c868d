"""makhlouf2024 chapter: grids, the authors' fold aggregation, claims, and the engine's code encoding."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ldpfair.experiments import Grid, PrivSpec, kfold, run
from ldpfair.experiments.grid import DatasetSpec
from ldpfair.forest import make_forest
from ldpfair.models import ModelSpec
from ldpfair.papers import makhlouf2024 as m


def _fold_rows() -> pd.DataFrame:
    rows = []
    for fold in range(3):
        row = {"dataset": "d", "mechanism": "sLDP", "epsilon": 1.0, "seed": 0, "fold": fold,
               "acc": 0.5 + 0.1 * fold}
        for p in m.RATES.values():
            row[f"{p}_1"] = 0.6 + 0.1 * fold
            row[f"{p}_0"] = 0.2 + 0.1 * fold
        row["PPV_0"] = np.nan if fold == 0 else 0.5
        rows.append(row)
    rows.append({**rows[0], "mechanism": "noLDP", "epsilon": np.nan})
    return pd.DataFrame(rows)


def test_aggregate_faithful_last_fold_and_zero_precision() -> None:
    runs = m.aggregate_runs(_fold_rows(), faithful=True).set_index(["setting"])
    r = runs.loc["sLDP"]
    assert r["SP_maj"] == pytest.approx(0.7)  # fold mean
    assert r["EO_maj"] == pytest.approx(0.8) and r["PE_min"] == pytest.approx(0.4)  # last fold only
    assert r["PRP_min"] == pytest.approx((0 + 0.5 + 0.5) / 3)  # precision 0 when nothing predicted
    assert r["SD"] == pytest.approx(r["SP_maj"] - r["SP_min"])
    assert runs.loc["noLDP", "epsilon"] == math.inf


def test_aggregate_corrected_fold_means_nan_aware() -> None:
    r = m.aggregate_runs(_fold_rows(), faithful=False).set_index("setting").loc["sLDP"]
    assert r["EO_maj"] == pytest.approx(0.7)
    assert r["PRP_min"] == pytest.approx(0.5)
    with pytest.raises(TypeError):
        m.aggregate_runs(_fold_rows(), faithful="yes")
    with pytest.raises(ValueError, match="lack columns"):
        m.aggregate_runs(_fold_rows().drop(columns="TPR_1"))


def test_build_profiles() -> None:
    paper = m.PROFILES["paper"]
    assert set(paper) == set(m.DATA)
    g = paper["compas_3"]
    assert g.epsilons == m.EPSILONS and len(g.seeds) == 20
    assert [p.name for p in g.privatizations] == list(m.SETTINGS)
    assert len(g) == 20 * 10 * (1 + 3 * 9)  # 5,600 forest fits per dataset, as the authors
    comb = g.privatizations[2]
    assert comb.mode == "combined" and set(comb.sensitive) == {"race", "age_cat", "sex"}
    assert g.datasets[0].config()["encoding"] == "codes"
    assert len(m.PROFILES["quick"]["S1_0.44"]) == 10 * (1 + 3 * 3)
    with pytest.raises(ValueError, match="invalid data"):
        m.build("quick", data=["nope"])


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

    table = claims_table(m.claims(pd.DataFrame(columns=["data", "setting", "epsilon"])))
    assert {"Obs1", "Obs8", "Statement 1", "Statement 2", "A", "B", "C", "D"} <= set(table["claim"])
    assert (table["verdict"] == "not reproduced").all()
    pn = m.paper_numbers()
    assert len(pn) == 7 and pn.loc[pn["metric"] == "EOD", "paper"].tolist() == [-0.09, -0.27, 0.43, 0.38]


def test_fig3_sources_mixed_thresholds() -> None:
    src = m.fig3_sources("compas", mixed=True)
    assert src["OA"]["sLDP"] == ("compas_3", "compas_1")
    assert src["PRP"]["combLDP"] == ("compas_3", "compas_3")
    assert m.fig3_sources("synthetic", mixed=False)["EO"]["sLDP"] == ("S1_0.44", "S1_0.44")
    assert m.fig3_sources("synthetic")["EO"]["sLDP"] == ("S1_0.52", "S1_0.44")
