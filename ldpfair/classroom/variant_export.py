"""Per-student variants exported: one key per variant, stamped handouts, the instructor's manifest.

The declarations, draws and stamps live in :mod:`ldpfair.classroom.variants`; this
module runs the keys (it sits above :mod:`ldpfair.classroom.export`).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .exercises import _notebook_path, build_assignment, parse_exercises, select_exercises
from .export import _with_hidden_tests, compute_key, public_metadata
from .files import write_atomic
from .run import check_timeout
from .variants import MANIFEST_SUFFIX, _check_count, draw_variants, stamp

__all__ = ["VariantExport", "export_variants"]


@dataclass
class VariantExport:
    """What :func:`export_variants` wrote: the manifest, one key per variant, one handout each."""

    manifest: Path
    keys: dict[str, Path]
    handouts: list[Path]


def _ids(n: int) -> list[str]:
    width = max(2, len(str(n)))
    return [f"v{i + 1:0{width}d}" for i in range(n)]


def export_variants(
    paper: str | os.PathLike[str],
    n: int | None = None,
    *,
    students: Sequence[str] | None = None,
    seed: int | None = None,
    exercises: Iterable[int | str] | str | None = None,
    output: str | os.PathLike[str] | None = None,
    context: str = "setup",
    folder: str | os.PathLike[str] | None = None,
    timeout: float = 1200,
    force: bool = False,
) -> VariantExport:
    """Draw variants, compute one key per variant and write one stamped handout per variant or student.

    Parameters
    ----------
    paper : str or path
        A paper name or a notebook path.
    n : int, optional
        Number of variants; default one per student (``students`` required then).
    students : list of str, optional
        Student ids: one handout each (``handouts/<id>.ipynb``), assigned to the variants
        by a permutation drawn from ``seed``.
    seed : int, optional
        Seed of the draws (default: fresh entropy, recorded in the manifest).
    exercises, context, folder, timeout, force
        As :func:`ldpfair.classroom.export_assignment`.

    Returns
    -------
    VariantExport

    Raises
    ------
    ValueError
        For bad input (one line), before any key runs.
    """
    import numpy as np


    check_timeout(timeout)
    if n is None and not students:
        raise ValueError("give the number of variants (--variants N) or a students file (--students FILE)")
    if n is not None:
        _check_count(n, "the number of variants (--variants)")
    if students is not None and len(set(students)) != len(students):
        raise ValueError("a student id is listed twice")
    count = n if n is not None else len(students or ())
    if seed is None:
        seed = int(secrets.randbits(63))
    path = _notebook_path(paper, folder)
    name = path.stem
    chosen = select_exercises(parse_exercises(path), exercises)
    specs = [v for e in chosen for v in e.variables]
    if not specs:
        numbers = ", ".join(str(e.number) for e in chosen)
        raise ValueError(f"{name}: the chosen exercises ({numbers}) declare no "
                         "variant parameters (a cell tagged 'variant'); export without --variants")
    out = Path(output) if output is not None else Path("runs") / "assignments" / name
    if out.exists() and not out.is_dir():
        raise ValueError(f"output (-o) {str(out)!r} is a file; give a folder")
    manifest = out / f"{name}{MANIFEST_SUFFIX}"
    if manifest.exists() and not force:
        raise ValueError(f"{str(out)!r} already holds variants ({manifest.name}); pass --force to overwrite "
                         "them or give another folder with -o")
    draws = draw_variants(specs, count, seed)
    ids = _ids(count)
    given: dict[str, str] = {}
    if students:
        rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(len(specs) + 1)[-1])
        slots = [ids[i % count] for i in range(len(students))]
        given = {sid: slots[int(j)] for sid, j in zip(students, rng.permutation(len(students)), strict=True)}
    secret = secrets.token_hex(32)
    records: dict[str, dict[str, Any]] = {}
    pairs: list[tuple[Any, Path]] = []
    handouts: dict[str, Any] = {}
    for vid, params in zip(ids, draws, strict=True):
        student, key = build_assignment(path, exercises, context=context, paper=name, variant=(vid, params))
        executed, values = compute_key(key, timeout=timeout)
        key = _with_hidden_tests(executed, values)
        key.metadata["ldpfair"]["variant"] = {"id": vid, "parameters": params}
        mark = stamp(secret, name, vid, params)
        student.metadata["ldpfair"] = {**public_metadata(student.metadata["ldpfair"]),
                                       "variant": {"id": vid, "parameters": params, "stamp": mark}}
        student.cells[0].source += (
            f"\n\n**Variant {vid}** of {name} (stamp `{mark[:16]}`): your exercises use the parameters "
            + ", ".join(f"`{k} = {v!r}`" for k, v in params.items())
            + ". Keep this notebook's variant stamp (its metadata) as it is: a submission whose stamp was "
            "edited or removed is graded 0.")
        key_name = f"{name}_{vid}_solutions.ipynb"
        records[vid] = {"parameters": params, "key": key_name}
        pairs.append((key, out / key_name))
        handouts[vid] = student
    written: list[Path] = []
    if students:
        import copy

        for sid in students:
            nb = copy.deepcopy(handouts[given[sid]])
            nb.metadata["ldpfair"]["student"] = sid
            written.append(out / "handouts" / f"{sid}.ipynb")
            pairs.append((nb, written[-1]))
    else:
        for vid in ids:
            written.append(out / "handouts" / f"{name}_{vid}_assignment.ipynb")
            pairs.append((handouts[vid], written[-1]))
    doc = {"assignment": name, "seed": seed, "secret": secret,
           "note": "instructor file: never hand it out (its secret signs the handouts' variant stamps)",
           "parameters": [s.to_dict() for s in specs], "variants": records, "students": given}
    pairs.append((json.dumps(doc, indent=1) + "\n", manifest))
    write_atomic(pairs)
    os.chmod(manifest, 0o600)
    return VariantExport(manifest, {vid: out / r["key"] for vid, r in records.items()}, written)
