"""A union of experiment grids that behaves as one grid.

Some experiments are not one Cartesian product: in arcolezi2023's appendix the
set of sensitive attributes is drawn per seed, so each seed is its own
:class:`~ldpfair.experiments.Grid` (one seed, that seed's attributes). A
:class:`GridUnion` concatenates such parts so that they share one results file
and are accepted wherever a grid is: :func:`~ldpfair.experiments.run`,
:func:`~ldpfair.experiments.run_profile`, :func:`~ldpfair.experiments.save_results`,
:func:`~ldpfair.experiments.load_results` and
:func:`~ldpfair.experiments.verify_results`.

The tasks of a union are the tasks of its parts, in order, with their task keys
unchanged (a task computed as part of a union is the same cell, and the same
cache entry, as when its part is run alone); only the running ``index`` is
renumbered. Two parts declaring the same task are refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .grid import Grid
from .sweep import Sweep

__all__ = ["GridUnion"]


@dataclass(frozen=True)
class GridUnion:
    """Several :class:`Grid` (or :class:`Sweep`) parts used as one grid.

    Parameters
    ----------
    parts : sequence of Grid or Sweep
        The parts, in order (at least one).
    name : str
        Name of the union (used in file names of committed results and progress bars).

    Examples
    --------
    >>> from ldpfair.experiments import Grid, ModelSpec, PrivSpec
    >>> a = Grid(datasets="lsac", models=ModelSpec("lightgbm"), privatizations=[PrivSpec("GRR")],
    ...          epsilons=[1.0], seeds=[0])
    >>> b = Grid(datasets="lsac", models=ModelSpec("lightgbm"), privatizations=[PrivSpec("SS")],
    ...          epsilons=[1.0], seeds=[1])
    >>> len(GridUnion([a, b], name="demo"))
    2
    """

    parts: tuple[Any, ...]
    name: str = "union"

    def __post_init__(self) -> None:
        if isinstance(self.parts, (Grid, Sweep, GridUnion)) or not isinstance(self.parts, Sequence):
            raise TypeError(f"parts must be a sequence of Grid or Sweep, got {type(self.parts).__name__}")
        parts = tuple(self.parts)
        if not parts:
            raise ValueError("parts must hold at least one Grid or Sweep")
        bad = [type(p).__name__ for p in parts if not isinstance(p, (Grid, Sweep, GridUnion))]
        if bad:
            raise TypeError(f"parts must be Grid, Sweep or GridUnion objects, got {bad}")
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name must be a non-empty str, got {self.name!r}")
        object.__setattr__(self, "parts", parts)

    def tasks(self) -> list[Any]:
        """Every part's tasks, in order, re-indexed from 0 (keys unchanged).

        Raises
        ------
        ValueError
            If two parts declare the same task (same key).
        """
        out: list[Any] = []
        seen: dict[str, int] = {}
        for j, part in enumerate(self.parts):
            for task in part.tasks():
                if task.key in seen:
                    raise ValueError(
                        f"union {self.name!r}: part {j} repeats a task of part {seen[task.key]} "
                        f"(key {task.key[:12]}); each task must belong to one part"
                    )
                seen[task.key] = j
                out.append(dataclasses.replace(task, index=len(out)))
        return out

    def __len__(self) -> int:
        return sum(len(p) for p in self.parts)

    def __repr__(self) -> str:
        return f"GridUnion({self.name!r}: {len(self.parts)} parts)"

    def describe(self) -> dict[str, Any]:
        """JSON-able description: the union's name, each part's description and the task count."""
        return {
            "name": self.name,
            "parts": [p.describe() for p in self.parts],
            "n_tasks": len(self),
        }
