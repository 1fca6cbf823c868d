import sys
import types

import pandas as pd
import pytest

from ldpfair import cli, papers
from ldpfair import experiments as ex


def draw(n, rng):
    return {"x": float(rng.random(n).sum())}


#: The registry name of the fake chapter of :func:`fake_paper`.
FAKE = "fake2099"


@pytest.fixture
def fake_paper(monkeypatch, tmp_path):
    """A chapter registered as the real ones are: a package ``ldpfair.papers.<name>`` exporting a SPEC."""
    from ldpfair.papers import _cli as papers_cli

    sweep = ex.Sweep(draw, params={"n": [3, 4]}, seeds=2, name="draws")
    mod = types.ModuleType(f"ldpfair.papers.{FAKE}")
    mod.SPEC = papers.PaperSpec(FAKE, "A fake chapter", {p: papers.Profile(p) for p in ("quick", "paper")},
                                declare=lambda profile: {"draws": sweep})
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    registry = (*papers.PAPERS, FAKE)
    monkeypatch.setattr(papers, "PAPERS", registry)
    monkeypatch.setattr(papers_cli, "PAPERS", registry)  # the choices of `ldpfair results --paper`
    monkeypatch.setenv("LDPFAIR_RESULTS_DIR", str(tmp_path))
    return sweep, tmp_path


def test_unknown_paper():
    with pytest.raises(ValueError, match="unknown paper 'nope'; valid: arcolezi2023"):
        papers.module("nope")


def test_status_and_verify_with_committed_results(fake_paper, capsys):
    sweep, root = fake_paper
    st = papers.status(FAKE)
    assert st.loc[0, ["present", "total"]].tolist() == [0, 4]
    assert "draws.csv.gz: missing" in st.attrs["problems"][0]
    nothing = papers.verify(FAKE)  # a declared experiment without its file is a failure
    assert nothing.loc[0, ["checked", "problems"]].tolist() == [0, 1]
    assert "missing" in nothing.attrs["problems"][0]
    ex.save_results(ex.run(sweep, progress=False), root / FAKE / "draws", grid=sweep)
    assert papers.status(FAKE).loc[0, "present"] == 4
    assert papers.verify(FAKE, n_cells=3).loc[0, "checked"] == 4  # never committed: recomputed whole
    assert papers.verify(FAKE, n_cells=3, base=None).loc[0, "checked"] == 3
    assert cli.main(["results", "verify", "--paper", FAKE]) == 0
    assert "identical to the committed results" in capsys.readouterr().out
    # a committed value that the code no longer produces fails verification
    path = root / FAKE / "draws.csv.gz"
    df = pd.read_csv(path)
    df["x"] += 1.0
    df.to_csv(path, index=False)
    table = papers.verify(FAKE, n_cells=1)  # an edited file: its checksum no longer matches
    assert table.loc[0, "problems"] == 1 and "sha256" in table.attrs["problems"][0]
    ex.stamp_results(path, trust=True)  # even stamped as trusted, the recomputation (of every cell) tells
    table = papers.verify(FAKE, n_cells=1, seed=0)
    assert table.loc[0, "problems"] >= 1
    # one line per differing cell, then what differs in the environment
    *cells, summary = [p for p in table.attrs["problems"] if "recomputed whole" not in p]  # after its header
    assert cells and all("column x: committed" in p for p in cells)
    assert f"values differ on {len(cells)} cells" in summary


def test_a_second_read_of_the_same_results_is_a_copy_the_caller_may_change(fake_paper):
    from ldpfair.experiments import load_results

    sweep, root = fake_paper
    path = root / FAKE / "draws"
    ex.save_results(ex.run(sweep, progress=False), path, grid=sweep)
    first, cov = load_results(sweep, path)
    first["x"] = -1.0  # what a caller does with its frame does not reach the next reader
    first.attrs["unknown_keys"].append("k")
    cov["present"] = 0
    again, cov2 = load_results(sweep, path)
    assert cov2 == {"present": 4, "total": 4} and again.attrs["coverage"] is cov2
    assert again.attrs["unknown_keys"] == [] and (again["x"] > 0).all()
    pd.testing.assert_frame_equal(again.drop(columns="x"), first.drop(columns="x"))
    ex.save_results(ex.run(sweep, progress=False).iloc[:3], path, grid=sweep)  # new bytes: read anew
    assert load_results(sweep, path)[1] == {"present": 3, "total": 4}


# -- task identity: refactors keep the committed results' keys -------------------------------------


def test_every_paper_callable_is_pinned(monkeypatch):
    """A paper-profile task never keys on a source hash: a docstring edit or a move keeps its cells."""
    from ldpfair import identity

    def no_source(target):
        raise AssertionError(f"{target!r} is keyed by its source hash: pin it with @versioned")

    monkeypatch.setattr(identity, "_source_digest", no_source)
    n = 0
    for _, _, grid, _ in papers.declared("paper"):
        assert grid.describe()  # every part's identity afresh: a grid builds its tasks and keys once
        for task in grid.tasks()[:: max(1, len(grid) // 50)]:
            assert task.key
            n += 1
    assert n > 500
    unpinned = ex.Grid(datasets="adult26k", models=ex.ModelSpec(lambda: None), seeds=1)
    with pytest.raises(AssertionError, match="keyed by its source hash"):
        unpinned.describe()


def test_committed_keys_are_the_declared_keys():
    """Every committed paper-profile cell is a declared task and every declared task is committed."""
    for paper, name, grid, path in papers.declared("paper"):
        committed = set(pd.read_csv(f"{path}.csv.gz", usecols=["key"])["key"])
        declared = {t.key for t in grid.tasks()}
        assert committed == declared, (
            f"{paper}/{name}: {len(declared - committed)} declared tasks not committed, "
            f"{len(committed - declared)} committed rows with no declared task"
        )


def test_versioned_identity_survives_edits_and_moves():
    from ldpfair.identity import callable_id, versioned

    def f(n, rng):
        return {"x": 1.0}

    def g(n, rng):  # another body, same pinned identity
        """Edited."""
        return {"x": 1.0}

    a = versioned("3", name="old.module.f")(f)
    b = versioned("3", name="old.module.f")(g)
    assert callable_id(a) == callable_id(b) == "callable:old.module.f:3"
    s1, s2 = ex.Sweep(a, params={"n": [1]}), ex.Sweep(b, params={"n": [1]})
    assert s1.tasks()[0].key == s2.tasks()[0].key
    assert s1.tasks()[0].rng().random() == s2.tasks()[0].rng().random()

    class Base:
        pass

    versioned("1")(Base)

    class Child(Base):  # a subclass computes something else: not pinned
        pass

    assert callable_id(Child) != callable_id(Base) and callable_id(Base).endswith(":1")
    with pytest.raises(ValueError, match="version must be a non-empty string"):
        versioned("")
    with pytest.raises(ValueError, match="name must be a dotted Python name"):
        versioned("1", name="not a name")


def test_sweep_version_replaces_the_source_hash():
    def h(n, rng):
        return {"x": float(n)}

    plain = ex.Sweep(h, params={"n": [1]})
    pinned = ex.Sweep(h, params={"n": [1]}, version="1")
    assert ":1" == pinned.tasks()[0].config["func"][-2:]
    assert plain.tasks()[0].key != pinned.tasks()[0].key
    assert pinned.describe()["func"] == pinned.tasks()[0].config["func"]
    with pytest.raises(ValueError, match="version must be a non-empty string"):
        ex.Sweep(h, version="a b")
    from ldpfair.identity import versioned

    with pytest.raises(ValueError, match="pinned to version '2' by @versioned"):
        ex.Sweep(versioned("2")(h), version="3")


def test_a_new_version_can_keep_the_draws_of_an_old_one():
    from ldpfair.identity import callable_id, draws_identity, versioned

    def trial(n, rng):
        return {"x": float(rng.normal())}

    def trial2(n, rng):  # same draws, another computation
        return {"x": float(rng.normal()) + 1.0}

    def trial3(n, rng):
        return {"x": float(rng.normal()) + 1.0}

    old = versioned("1", name="tests.trial")(trial)
    kept = versioned("2", name="tests.trial", draws="1")(trial2)
    fresh = versioned("2", name="tests.trial")(trial3)
    t_old, t_kept, t_fresh = (ex.Sweep(f, params={"n": [1, 2]}, seeds=3).tasks() for f in (old, kept, fresh))
    assert callable_id(kept) == callable_id(fresh) == "callable:tests.trial:2"
    assert draws_identity(kept) == "callable:tests.trial:1" and draws_identity(fresh) is None
    for a, b, c in zip(t_old, t_kept, t_fresh, strict=True):
        assert a.key != b.key == c.key  # the new version is recomputed ...
        x_a, x_b, x_c = a.execute()["x"], b.execute()["x"], c.execute()["x"]
        assert x_b == x_a + 1.0  # ... from the old draws
        assert x_c != x_a + 1.0  # without draws=, a new version draws afresh
    assert ex.Sweep(kept, params={"n": [1]}).describe()["draws"] == "callable:tests.trial:1"
    # the same with the version given to the sweep too
    t_named = ex.Sweep(kept, params={"n": [1, 2]}, seeds=3, version="2").tasks()
    assert [t.execute()["x"] for t in t_named] == [a.execute()["x"] + 1.0 for a in t_old]
    assert "draws" not in ex.Sweep(fresh, params={"n": [1]}).describe()
    with pytest.raises(ValueError, match="version must be a non-empty string"):
        versioned("2", draws="")


# -- the paper contract ----------------------------------------------------------------------------



@pytest.mark.parametrize("paper", papers.with_results())
def test_every_paper_satisfies_the_contract(paper):
    import importlib

    from ldpfair.experiments import Grid, Sweep
    from ldpfair.experiments.union import GridUnion
    from ldpfair.verdicts import ITEM_COLUMNS, STATUSES

    spec = papers.spec(paper)
    assert spec.name == paper and spec.title
    for room in ("experiments", "figures", "checks"):
        importlib.import_module(f"ldpfair.papers.{paper}.{room}")
    for name in ("quick", "paper"):
        grids = spec.experiments(name)
        assert grids and all(isinstance(g, Grid | Sweep | GridUnion) for g in grids.values())
    # every experiment of the paper profile is committed
    from ldpfair.experiments.notebooks import results_dir

    committed = {p.name.removesuffix(".csv.gz") for p in results_dir(paper).glob("*.csv.gz")}
    declared = set(spec.experiments("paper")) | {n for group in spec.derived for n in group.names}
    assert declared <= committed, f"{paper}: not committed: {sorted(declared - committed)} (results compute)"
    assert committed <= declared, (
        f"{paper}: results files no experiment declares: {sorted(committed - declared)}; declare each "
        "(a Grid or Sweep in declare(), or a table computed from results in PaperSpec(derived=...)) "
        "or remove it")
    with pytest.raises(ValueError, match="unknown parameter"):
        spec.experiments("quick", no_such_parameter=1)
    with pytest.raises(ValueError, match="unknown profile"):
        spec.profile("nope")
    for key in spec.profiles["quick"].values:  # None keeps the profile's value
        assert spec.profile("quick", **{key: None}) == spec.profiles["quick"]
    board = spec.scoreboard()
    assert set(ITEM_COLUMNS) <= set(board.columns) and set(board["status"]) <= set(STATUSES)
    from ldpfair.reporting import Claim

    assert all(isinstance(c, Claim) for c in spec.claims())


def test_experiments_module_is_cheap_to_import():
    """A chapter's declarations import neither matplotlib nor the chapter's figures and checks."""
    import subprocess
    import sys as _sys

    for paper in papers.with_results():
        code = (f"import sys, ldpfair.papers.{paper}.experiments; "
                f"bad = [m for m in ('matplotlib', 'ldpfair.papers.{paper}.figures', "
                f"'ldpfair.papers.{paper}.checks') if m in sys.modules]; print(bad); sys.exit(bool(bad))")
        out = subprocess.run([_sys.executable, "-c", code], capture_output=True, text=True)
        assert out.returncode == 0, f"{paper}: experiments loads {out.stdout.strip()} {out.stderr[-500:]}"


def test_a_paper_without_spec_is_refused(monkeypatch):
    mod = types.ModuleType(f"ldpfair.papers.{FAKE}")
    mod.PROFILES = {"quick": {}, "paper": {}}  # the declarations of a chapter before the contract
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    monkeypatch.setattr(papers, "PAPERS", (*papers.PAPERS, FAKE))
    with pytest.raises(TypeError, match=f"ldpfair.papers.{FAKE} must export SPEC = PaperSpec"):
        list(papers.declared("paper", FAKE))


def test_declared_experiments_are_memoised_and_overrides_declare_afresh(fake_paper):
    calls = []

    def declare(profile):
        calls.append(profile.name)
        return {"draws": ex.Sweep(draw, params={"n": list(profile["n"])}, seeds=profile["seeds"])}

    spec = papers.PaperSpec("x", "X", {"quick": papers.Profile("quick", {"n": (3,), "seeds": 1}),
                                       "paper": papers.Profile("paper", {"n": (3, 4), "seeds": 2})},
                            declare=declare)
    first, again = spec.experiments("paper"), spec.experiments("paper", seeds=None)  # None: no override
    assert again["draws"] is first["draws"] and calls == ["paper"]
    again.clear()  # each call gets its own dict
    assert list(spec.experiments("paper")) == ["draws"] and calls == ["paper"]
    assert spec.experiments("quick")["draws"] is not first["draws"] and calls == ["paper", "quick"]
    other = spec.experiments("paper", seeds=3)
    assert other["draws"] is not first["draws"] and len(other["draws"]) == 6 and len(first["draws"]) == 4
    assert spec.experiments("paper")["draws"] is first["draws"] and calls == ["paper", "quick", "paper"]
    # through the registry: declared() and committed() reuse the chapter's declarations
    grids = [g for *_, g, _ in papers.declared("paper", FAKE)]
    assert grids == [g for *_, g, _ in papers.declared("paper", FAKE)] == [fake_paper[0]]
    assert all(a is b for a, b in zip(grids, (g for *_, g, _ in papers.declared("paper", FAKE)), strict=True))


def test_profile_overrides():
    p = papers.Profile("quick", {"epsilons": (1, 8), "seeds": 2})
    assert p.with_overrides(seeds=3)["seeds"] == 3 and p["seeds"] == 2
    assert p.with_overrides(seeds=None) is p
    with pytest.raises(ValueError, match=r"parameter\(s\) 'seed' of profile 'quick'; valid: epsilons, seeds"):
        p.with_overrides(seed=3)
    with pytest.raises(KeyError, match="has no parameter 'x'"):
        p["x"]
    with pytest.raises(ValueError, match="must declare the profiles 'quick' and 'paper'"):
        papers.PaperSpec("x", "X", {"quick": p}, declare=dict, claims=list, scoreboard=list)


def test_the_template_satisfies_the_contract_and_its_notebook_runs(tmp_path):
    """A sixth paper starts as a copy of the template: both must work as they are."""
    import json

    import nbformat

    from ldpfair.experiments import notebooks as nbk
    from ldpfair.papers._template import SPEC, checks

    assert isinstance(SPEC, papers.PaperSpec) and SPEC.name == "_template"
    quick = SPEC.results("quick", epsilons=[1.0, 8.0], seeds=4)
    assert sorted(quick["fig1"]["epsilon"].unique()) == [1.0, 8.0] and len(quick["fig1"]) == 8
    assert {c.id for c in checks.claims(quick)} == {"C1", "C2"}
    board = SPEC.scoreboard()
    assert board.loc[0, "status"] == "verified"
    with pytest.raises(ValueError, match="unknown parameter"):
        SPEC.results("quick", epsilon=[1.0])
    out = nbk.execute(nbk.notebooks_dir() / "_template.md", {"seeds": 2}, output=tmp_path / "t.ipynb")
    nb = nbformat.read(out, as_version=4)
    outputs = [o for c in nb.cells for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = json.dumps(outputs)
    assert "measured MSE" in text and "C1" in text  # the table and the claims were rendered


def test_chapters_are_discovered_from_entry_points_and_the_package(monkeypatch, tmp_path):
    """A chapter of another installed package is found through the ``ldpfair.papers`` entry-point group."""
    from importlib import metadata

    pkg = tmp_path / "otherpkg_chapter"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from ldpfair.papers.contract import PaperSpec, Profile\n"
        "SPEC = PaperSpec('zz2099', 'Elsewhere', {p: Profile(p) for p in ('quick', 'paper')},\n"
        "                declare=lambda profile: {})\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = metadata.EntryPoint("zz2099", "otherpkg_chapter", papers.ENTRY_POINT_GROUP)
    real = metadata.entry_points
    monkeypatch.setattr(metadata, "entry_points",
                        lambda **kw: [ep] if kw.get("group") == papers.ENTRY_POINT_GROUP else real(**kw))
    found = papers._discover()
    assert found["zz2099"] == "otherpkg_chapter"
    assert list(found)[:len(papers.PAPERS)] == list(papers.PAPERS)  # the book's order first, then new ones
    monkeypatch.setattr(papers, "_MODULES", found)
    monkeypatch.setattr(papers, "PAPERS", tuple(found))
    assert papers.spec("zz2099").title == "Elsewhere"
    # without any installed metadata, the package scan still finds every chapter of this package
    monkeypatch.setattr(metadata, "entry_points", lambda **kw: [])
    assert set(papers._discover()) >= set(papers.PAPERS) - {"zz2099"}


def test_pyproject_registers_only_chapter_packages():
    """The entry-point group names chapter packages only; every chapter package is discovered."""
    from pathlib import Path

    import tomllib

    root = Path(__file__).resolve().parents[1]
    group = tomllib.loads((root / "pyproject.toml").read_text())["project"]["entry-points"][
        papers.ENTRY_POINT_GROUP]
    scanned = {p.parent.name for p in (root / "ldpfair" / "papers").glob("*/__init__.py")
               if not p.parent.name.startswith("_")}
    # a chapter of this package is found by the package scan whether or not it is listed (installed or
    # editable): an entry only makes its registration explicit; one naming no chapter is an error
    assert set(group) <= scanned, (
        f"[project.entry-points.\"{papers.ENTRY_POINT_GROUP}\"] in pyproject.toml names chapters that do "
        f"not exist: {sorted(set(group) - scanned)}; remove them (or restore the package), then reinstall")
    assert all(v == f"ldpfair.papers.{k}" for k, v in group.items()), "an entry must be ldpfair.papers.<name>"
    assert scanned <= set(papers.PAPERS), f"not discovered: {sorted(scanned - set(papers.PAPERS))}"


def test_the_template_notebook_has_what_every_chapter_has():
    """The template checks its parameters like a chapter and has the Claims section (verdict box link)."""
    from ldpfair.experiments import notebooks as nbk

    text = (nbk.notebooks_dir() / "_template.md").read_text(encoding="utf-8")
    assert 'check_notebook("_template", globals())' in text, "the template must call check_notebook"
    assert "\n## Claims\n" in text, "the template must have a '## Claims' section"
    values = nbk.check_notebook("_template", nbk.read_parameters(nbk.notebooks_dir() / "_template.md"))
    assert set(values) == set(papers.spec("_template").parameters)
    with pytest.raises(ValueError, match="seeds"):
        nbk.check_notebook("_template", {**values, "seeds": -1})


def test_the_preview_toc_holds_the_chapter_and_the_pages_it_cites():
    """`ldpfair preview` builds intro, scoreboard, the chapter and the bibliography (citations resolve)."""
    import yaml

    from ldpfair.papers.preview import preview_toc

    toc = yaml.safe_load(preview_toc("xu2019"))
    assert toc["root"] == "book/intro"
    pages = ["book/scoreboard", "notebooks/xu2019", "book/bibliography"]
    assert [c["file"] for c in toc["chapters"]] == pages
    with pytest.raises(ValueError, match="unknown paper 'xu2091'.*valid: arcolezi2023"):
        preview_toc("xu2091")


@pytest.mark.parametrize("paper", [*papers.PAPERS, "_template"])
def test_every_chapter_package_has_the_required_rooms(paper):
    """Each chapter package holds the required modules of the contract (ldpfair.papers.contract.ROOMS)."""
    from pathlib import Path

    from ldpfair.papers.contract import REQUIRED_ROOMS, ROOMS

    folder = Path(papers.module(paper).__file__).parent
    have = {p.stem for p in folder.glob("*.py")}
    missing = set(REQUIRED_ROOMS) - have
    assert not missing, f"{paper} lacks the module(s) {sorted(missing)}; see ldpfair.papers.contract.ROOMS"
    assert set(REQUIRED_ROOMS) <= set(ROOMS)


#: The shared tests that iterate over the registry without a chapter in their id: run whole in the clone.
REGISTRY_WIDE = (
    "test_committed_keys_are_the_declared_keys", "test_every_paper_callable_is_pinned",
    "test_experiments_module_is_cheap_to_import", "test_pyproject_registers_only_chapter_packages",
    "test_book_chapters_follow_the_convention", "test_every_chapter_declares_registered_data_files",
    "test_all_papers_and_markdown_links", "test_labels_exist_in_the_chapters",
    "test_no_layer_below_papers_names_a_paper", "test_chapter_bundles_are_evaluate_columns_bit_for_bit")
#: The shared per-chapter tests (parametrised by the registry); each must run on the new chapter.
PER_CHAPTER = (
    "test_every_paper_satisfies_the_contract", "test_every_chapter_package_has_the_required_rooms",
    "test_papermill_reads_every_declared_parameter_silently", "test_notebook_has_at_most_200_code_lines",
    "test_findings_are_not_printed", "test_parameters_cell_comments_are_generated_from_the_declaration",
    "test_every_notebook_checks_its_parameters_with_the_declaration",
    "test_every_declared_value_passes_the_cli_and_the_notebooks_first_cells",
    "test_every_recomputed_cell_is_a_committed_cell",
    "test_every_chapter_grades_its_key_fully_and_its_blank_copy_zero")
#: The files holding them.
SHARED_FILES = (
    "tests/test_papers.py", "tests/test_notebook_parameters.py", "tests/test_notebook_size.py",
    "tests/test_cli_run.py", "tests/test_cli.py", "tests/test_integrity.py", "tests/test_classroom.py",
    "tests/test_scoreboard.py", "tests/test_layering.py", "tests/test_metrics_evaluate.py")


@pytest.mark.slow
@pytest.mark.data
def test_a_chapter_made_from_the_template_as_the_page_says_passes_every_shared_test(tmp_path):
    """book/adding_a_paper.md in a scratch clone: copy, rename, one _toc.yml line, compute; nothing else.

    The sixth chapter (``warner1965``) is registered, listed by ``ldpfair run --list``, its paper
    profile computes and verifies, its quick profile runs through papermill, and every shared test
    (the per-chapter ones on it, the registry-wide ones with it registered) passes in the clone.
    """
    import os
    import re
    import shutil
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("needs a git checkout to clone")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--shared", str(root), str(clone)], check=True)
    new = "warner1965"
    shutil.copytree(clone / "ldpfair" / "papers" / "_template", clone / "ldpfair" / "papers" / new)
    shutil.copy(clone / "notebooks" / "_template.md", clone / "notebooks" / f"{new}.md")
    for f in [*(clone / "ldpfair" / "papers" / new).glob("*.py"), clone / "notebooks" / f"{new}.md"]:
        f.write_text(f.read_text(encoding="utf-8").replace("_template", new), encoding="utf-8")
    toc = clone / "_toc.yml"
    text = toc.read_text(encoding="utf-8")
    toc.write_text(text.replace("      - file: notebooks/synthesis\n",
                                f"      - file: notebooks/synthesis\n      - file: notebooks/{new}\n"),
                   encoding="utf-8")
    changed = subprocess.run(["git", "status", "--porcelain"], cwd=clone, capture_output=True, text=True,
                             check=True).stdout.split("\n")
    touched = sorted(ln[3:] for ln in changed if ln)
    assert touched == ["_toc.yml", f"ldpfair/papers/{new}/", f"notebooks/{new}.md"], touched
    env = {k: v for k, v in os.environ.items() if k not in ("LDPFAIR_RESULTS_DIR", "PYTEST_ADDOPTS")}
    env.update(PYTHONPATH=str(clone), LDPFAIR_CACHE=str(tmp_path / "cache"))

    def run(*args: str, timeout: int = 600) -> str:
        proc = subprocess.run(args, env=env, cwd=clone, capture_output=True, text=True, check=False,
                              timeout=timeout)
        assert proc.returncode == 0, f"{' '.join(args)}: exit {proc.returncode}\n{proc.stdout[-3000:]}" \
                                     f"\n{proc.stderr[-3000:]}"
        return proc.stdout

    cli = [sys.executable, "-c", "import sys; from ldpfair.cli import main; sys.exit(main(sys.argv[1:]))"]
    assert new in run(*cli, "run", "--list")
    plan = run(*cli, "results", "compute", new, "--dry-run")
    assert "NaN" not in plan and "0.00 core-hours" not in plan and "no committed timing" in plan
    run(*cli, "results", "compute", new)  # step 7 of the page: compute the paper profile ...
    assert "verified" in run(*cli, "results", "verify", "--paper", new)  # ... and verify it
    run(*cli, "run", new, "--profile", "quick", "-p", "seeds", "2", "-o", str(tmp_path / "quick.ipynb"))
    # every shared test: the per-chapter ones on the new chapter, the registry-wide ones with it registered
    select = " or ".join([new, *REGISTRY_WIDE])
    out = run(sys.executable, "-m", "pytest", *SHARED_FILES, "-m", "", "-k", select, "-q", "-rA",
              "-p", "no:randomly", "-p", "no:cacheprovider", timeout=1200)
    passed = re.findall(r"^PASSED (\S+)", out, re.MULTILINE)
    on_new = {re.sub(r"^.*::|\[.*$", "", t) for t in passed if f"[{new}" in t}
    missing = set(PER_CHAPTER) - on_new
    assert not missing, f"shared per-chapter tests not run on {new}: {sorted(missing)}\n{out[-3000:]}"
    wide = {re.sub(r"^.*::|\[.*$", "", t) for t in passed}
    assert set(REGISTRY_WIDE) <= wide, f"not run: {sorted(set(REGISTRY_WIDE) - wide)}\n{out[-3000:]}"
    assert not re.search(r"^(FAILED|ERROR) ", out, re.MULTILINE), out[-3000:]
    print(f"{len(passed)} shared tests passed in the clone, {sum(f'[{new}' in t for t in passed)} on {new}")
