"""The Otter plugin of ldpfair's autograder zip: bundled files and a time limit.

``otter_config.json`` names it with its settings::

    "plugins": [{"ldpfair.classroom.otter_plugin.GradingSetup":
                 {"time_limit": 600, "files": "ldpfair-files",
                  "folders": {"data": "ldpfair-files/data", ...}}}]

Before grading it points ``LDPFAIR_DATA_DIR``, ``LDPFAIR_REFERENCE_DIR`` and
``LDPFAIR_RESULTS_DIR`` at the copies inside the zip (Otter unpacks the zip's files into
``<autograder>/source/files``; ldpfair checks each file's sha256 against its registry
as it reads it), so the kernel Otter starts reads them and nothing else. Before the
submission runs it adds a time limit: a first cell arms a ``SIGALRM`` timer of
``time_limit`` seconds that raises ``TimeoutError`` in the running cell, each later
cell of the submission is skipped (it raises at once) once the limit has passed, and a
last cell disarms the timer before Otter's own test cell. Otter 7 has no time-limit
setting of its own (``otter grade --timeout`` is for containers only). The limit runs in
the student's kernel, as Otter's tests do: it stops an honest runaway loop, not a
submission that catches the exception or resets the timer; Gradescope's own autograder
timeout is the hard limit.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from otter.plugins import AbstractOtterPlugin  # type: ignore[import-untyped]

from ..config import export_for_children

__all__ = ["GradingSetup", "ENVIRONMENT"]

#: Collection of bundled files -> the variable that points ldpfair at its folder.
ENVIRONMENT = {"data": "LDPFAIR_DATA_DIR", "reference": "LDPFAIR_REFERENCE_DIR",
               "results": "LDPFAIR_RESULTS_DIR"}
_GUARD = "_ldpfair_time_limit()"


def _limit_cell(seconds: float) -> str:
    return (
        "import signal as _ldpfair_signal\nimport time as _ldpfair_time\n\n"
        f"_ldpfair_deadline = _ldpfair_time.monotonic() + {seconds!r}\n\n\n"
        "def _ldpfair_time_limit(*_):\n"
        "    if _ldpfair_time.monotonic() >= _ldpfair_deadline:\n"
        f"        raise TimeoutError('the notebook ran past the time limit of {seconds:g} s')\n\n\n"
        "_ldpfair_signal.signal(_ldpfair_signal.SIGALRM, _ldpfair_time_limit)\n"
        f"_ldpfair_signal.setitimer(_ldpfair_signal.ITIMER_REAL, {seconds!r})\n"
    )


_DISARM = "_ldpfair_signal.setitimer(_ldpfair_signal.ITIMER_REAL, 0)\n"


class GradingSetup(AbstractOtterPlugin):
    """Point ldpfair at the files inside the zip; limit the submission's running time."""

    def _time_limit(self) -> float:
        value = (self.plugin_config or {}).get("time_limit", 600)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or value <= 0:
            raise ValueError(f"{__name__}: time_limit must be a positive number of seconds, got {value!r}")
        return float(value)

    def before_grading(self, config: Any) -> None:
        """Export the ``LDPFAIR_*`` folders of the bundled files (the kernel inherits them)."""
        source = Path(config.autograder_dir).resolve() / "source" / "files"
        for collection, rel in ((self.plugin_config or {}).get("folders") or {}).items():
            if collection in ENVIRONMENT and (source / rel).is_dir():
                export_for_children(ENVIRONMENT[collection], source / rel)
        export_for_children("MPLBACKEND", "Agg", override=False)

    def before_execution(self, submission: Any) -> Any:
        """Add the time limit around the submission's own cells (a notebook; a script is left as is)."""
        cells = getattr(submission, "cells", None)
        if cells is None:
            return submission
        from nbformat import v4

        seconds = self._time_limit()
        for cell in cells:
            if cell.cell_type == "code" and not cell.source.lstrip().startswith("%%"):
                cell.source = f"{_GUARD}\n{cell.source}"
        submission.cells = [v4.new_code_cell(_limit_cell(seconds)), *cells, v4.new_code_cell(_DISARM)]
        return submission
