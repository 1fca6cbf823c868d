"""Inside the sandbox: run the submission with nbclient and write what happened to ``run.json``."""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    """Run ``argv[0]`` (a notebook in the working folder) under the time limit ``argv[1]``."""
    import nbformat

    from .run import execute
    from .sandbox import REPORT

    nb = nbformat.read(argv[0], as_version=4)
    run = execute(nb, timeout=float(argv[1]), final_timeout=60)
    with open(REPORT, "w") as fh:
        json.dump({"errors": run.errors, "timed_out": run.timed_out, "died": run.died}, fh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
