"""Execute an assignment notebook in a fresh kernel, in a scratch folder, under a time limit."""

from __future__ import annotations

import contextlib
import math
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Execution", "check_timeout", "execute", "execute_notebook"]

#: Metadata flag of cells appended by the grader: they run after the time limit too.
FINAL = "ldpfair_final"
#: The kernel's own log at ERROR: its start-up warning that TCP on localhost is unencrypted would
#: otherwise land in the output of the cell that started it (e.g. a book page that grades).
KERNEL_ARGUMENTS = ["--IPKernelApp.log_level=ERROR"]


@dataclass
class Execution:
    """What happened when a notebook ran.

    Attributes
    ----------
    notebook : nbformat.NotebookNode
        The executed notebook (outputs included).
    errors : list of (cell index, "Name: message")
        Every cell that raised.
    timed_out : int or None
        Index of the cell that ran past the time limit.
    skipped : list of int
        Cells not run because the time limit had passed.
    died : str
        Why the kernel died ("" if it did not).
    seconds : float
        Wall time.
    """

    notebook: Any
    errors: list[tuple[int, str]] = field(default_factory=list)
    timed_out: int | None = None
    skipped: list[int] = field(default_factory=list)
    died: str = ""
    seconds: float = 0.0


def check_timeout(value: Any, name: str = "timeout") -> float:
    """``value`` as a number of seconds: a positive, finite number (not a bool).

    Raises
    ------
    ValueError
        One line naming ``name`` and what is valid.
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or value <= 0:
        raise ValueError(f"{name} must be a positive, finite number of seconds, got {value!r}")
    return float(value)


@contextlib.contextmanager
def _kernel_environment() -> Iterator[None]:
    """Absolute ``LDPFAIR_*`` folders for a kernel that runs in another working directory."""
    from .. import config
    from ..experiments.notebooks import results_dir

    with contextlib.ExitStack() as stack:
        stack.enter_context(config.exported(config.RESULTS_DIR, results_dir().resolve(), override=False))
        config.absolute_paths()  # relative LDPFAIR_* folders, resolved against this folder once
        yield


def execute(nb: Any, *, timeout: float = 600, final_timeout: float = 120,
            kernel_name: str = "python3") -> Execution:
    """Run every cell of ``nb`` (a copy) in a fresh kernel, continuing after errors.

    The kernel runs in a temporary folder (removed afterwards), so files a notebook
    writes (``figures/``...) land nowhere else. After ``timeout`` seconds in total the
    running cell is interrupted and the remaining cells are skipped, except cells whose
    metadata holds ``ldpfair_final`` (the grader's), which get ``final_timeout`` each.

    Raises
    ------
    ValueError
        If ``timeout`` is not a positive number.
    """
    import copy

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    check_timeout(timeout)
    nb = copy.deepcopy(nb)
    nbformat.validate(nb)
    start = time.monotonic()
    deadline = start + float(timeout)
    result = Execution(nb)

    def is_final(cell: Any) -> bool:
        return bool(cell.get("metadata", {}).get(FINAL))

    class Client(NotebookClient):
        async def async_execute_cell(self, cell: Any, cell_index: int, execution_count: int | None = None,
                                     store_history: bool = True) -> Any:
            if not is_final(cell) and (time.monotonic() >= deadline or result.timed_out is not None):
                if cell.cell_type == "code":
                    result.skipped.append(cell_index)
                return cell
            cell = await super().async_execute_cell(cell, cell_index, execution_count, store_history)
            if not is_final(cell) and cell.cell_type == "code" and time.monotonic() >= deadline:
                result.timed_out = cell_index  # interrupted by the time limit
            for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
                if out.get("output_type") == "error":
                    result.errors.append((cell_index, f"{out.get('ename')}: {out.get('evalue')}"))
            return cell

    def cell_timeout(cell: Any) -> int:
        if is_final(cell):
            return int(final_timeout)
        return max(1, int(deadline - time.monotonic() + 0.999))

    with tempfile.TemporaryDirectory(prefix="ldpfair-grade-") as tmp, _kernel_environment():
        client = Client(nb, kernel_name=kernel_name, allow_errors=True, timeout_func=cell_timeout,
                        extra_arguments=list(KERNEL_ARGUMENTS),
                        interrupt_on_timeout=True,
                        error_on_timeout={"ename": "TimeLimit",
                                          "evalue": f"the notebook ran past the time limit of {timeout:g} s",
                                          "traceback": []},
                        resources={"metadata": {"path": tmp}})
        try:
            client.execute()
        except DeadKernelError as exc:
            result.died = f"the kernel died ({exc})"
        except Exception as exc:  # noqa: BLE001 - a broken submission must not stop the grader
            result.died = f"{type(exc).__name__}: {exc}".splitlines()[0]
    result.seconds = time.monotonic() - start
    return result


def execute_notebook(
    path: str | os.PathLike[str], *, timeout: int = 1200, kernel_name: str = "python3", write: bool = True
) -> Any:
    """Execute a notebook file in a scratch folder; raise on the first failing cell.

    Parameters
    ----------
    path : path
        An ``.ipynb`` file (e.g. a solution key).
    timeout : int
        Seconds per cell.
    kernel_name : str
        Jupyter kernel.
    write : bool
        Save the executed notebook (with outputs) back to ``path``.

    Returns
    -------
    nbformat.NotebookNode
        The executed notebook.
    """
    import nbformat
    from nbclient import NotebookClient

    from .files import write_atomic

    path = Path(path)
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="ldpfair-key-") as tmp, _kernel_environment():
        NotebookClient(nb, timeout=timeout, kernel_name=kernel_name, extra_arguments=list(KERNEL_ARGUMENTS),
                       resources={"metadata": {"path": tmp}}).execute()
    if write:
        write_atomic([(nb, path)])
    return nb
