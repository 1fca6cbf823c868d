"""Run a submission inside bubblewrap and bring back only its bound answers.

Each submission runs in its own ``bwrap``: a read-only view of the machine, a private
scratch folder, the instructor's folders (key, other submissions, the grader's output)
hidden under empty tmpfs mounts, no network, its own PID namespace and session, address
space, CPU time, file size and process-count limits, and a hard wall-clock limit after
which the whole sandbox is killed. The kernel writes the graded answer names (plain JSON,
size-capped) to its scratch folder after every cell, so answers bound before a runaway
cell still count; nothing the grader knows (expected values, tests) enters the sandbox.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Sandboxed", "bwrap", "require_bwrap", "run_sandboxed", "DUMP", "hook_cell"]

#: File (in the scratch folder) the kernel writes the bound answers to, after every cell.
DUMP = "answers.json"
#: The scratch folder as the sandbox sees it.
WORK = "/tmp/work"
#: File (in the scratch folder) the in-sandbox runner writes what happened to.
REPORT = "run.json"
#: Largest JSON text of one answer (characters).
MAX_ANSWER = 200_000
#: Limits: address space (bytes), processes, file size (bytes).
MEMORY = 4 * 2**30
PROCESSES = 64
FILE_SIZE = 64 * 2**20
#: Size of the sandbox's private /tmp (memory-backed).
TMP_SIZE = 2**30
#: Seconds between the time limit and the hard kill of the sandbox.
GRACE = 20.0
#: Folders always hidden (home folders, mounts), besides the key's, the submissions' and the output's.
HIDDEN = tuple(Path(p) for p in ("/home", "/root", "/srv", "/mnt", "/media", "/var/tmp", "/run/user")
               if os.path.isdir(p))
_PIDS_CGROUP = Path("/sys/fs/cgroup/pids")


def bwrap() -> str | None:
    """Path of the ``bwrap`` executable, or None where bubblewrap is not installed."""
    return shutil.which("bwrap")


def require_bwrap() -> str:
    """``bwrap``'s path, or ValueError with one line naming what to install."""
    path = bwrap()
    if path is None:
        raise ValueError("grading needs bubblewrap to sandbox submissions: install it (apt-get install "
                         "bubblewrap) or pass --unsandboxed for trusted submissions only")
    return path


def hook_cell(specs: Sequence[Mapping[str, Any]]) -> Any:
    """The first cell of a sandboxed submission: after every cell, dump the graded names."""
    from nbformat import v4

    from .run import FINAL

    public = [{k: v for k, v in s.items() if k in ("name", "kind", "key", "columns", "options", "length",
                                                    "abs", "rel")} for s in specs]
    src = (f"from ldpfair.classroom.sandbox import _install_dump\n_install_dump({public!r})\n"
           "del _install_dump\n")
    return v4.new_code_cell(src, metadata={FINAL: True})


def _install_dump(specs: list[dict[str, Any]]) -> None:  # runs in the student's kernel
    """Register a ``post_run_cell`` hook that writes the bound answers to :data:`DUMP`."""
    from IPython import get_ipython

    from .checks import _public_problem, to_json

    shell = get_ipython()

    def dump(*_: Any) -> None:
        env = shell.user_ns
        out: dict[str, Any] = {}
        for spec in specs:
            if spec["name"] not in env:
                continue
            try:
                value = env[spec["name"]]
                problem = _public_problem(value, spec)
                text = json.dumps({"problem": problem} if problem else {"value": to_json(value, spec)})
            except Exception as exc:  # noqa: BLE001 - a student's object may fail in any way
                text = json.dumps({"problem": f"could not be read ({type(exc).__name__})"})
            if len(text) > MAX_ANSWER:
                text = json.dumps({"problem": f"is too large to grade ({len(text)} characters as JSON)"})
            out[spec["name"]] = json.loads(text)
        target = os.path.join(WORK, DUMP)
        with open(target + ".tmp", "w") as fh:
            json.dump(out, fh)
        os.replace(target + ".tmp", target)

    shell.events.register("post_run_cell", dump)


@dataclass
class Sandboxed:
    """What came back from a sandboxed run: the answers and what happened."""

    answers: dict[str, Any] = field(default_factory=dict)
    errors: list[tuple[int, str]] = field(default_factory=list)
    timed_out: int | None = None
    died: str = ""
    killed: bool = False
    seconds: float = 0.0


def _cgroup() -> Path | None:
    """A fresh pids cgroup (v1) the sandbox joins, when this machine lets us make one."""
    try:
        path = _PIDS_CGROUP / f"ldpfair-{uuid.uuid4().hex[:12]}"
        path.mkdir()
        (path / "pids.max").write_text(str(PROCESSES))
        return path
    except OSError:
        return None


def _kept_under(folder: Path, keep: Iterable[Path]) -> list[str]:
    """Read-only binds of the ``keep`` paths inside ``folder`` (what the kernel needs back under a tmpfs)."""
    folder = Path(os.path.realpath(folder))
    args: list[str] = []
    for k in (Path(os.path.realpath(k)) for k in keep):
        if k.is_relative_to(folder) and k.exists():
            args += ["--ro-bind", str(k), str(k)]
    return args


def _hidden(hide: Iterable[Path], keep: Iterable[Path]) -> list[str]:
    args: list[str] = []
    keep = list(keep)
    for folder in sorted({Path(os.path.realpath(h)) for h in hide}, key=lambda p: len(p.parts)):
        if folder == Path("/"):
            continue
        args += ["--tmpfs", str(folder), *_kept_under(folder, keep)]  # the package, the venv, the data
    return args


def run_sandboxed(nb: Any, specs: Sequence[Mapping[str, Any]], *, timeout: float, hide: Iterable[Path] = (),
                  secret_files: Iterable[Path] = ()) -> Sandboxed:
    """Execute ``nb`` in bubblewrap; return the answers it bound (never raises for a bad notebook).

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The submission (the hook cell is prepended here).
    specs : list of dict
        Graded answers (only their names and public shapes enter the sandbox).
    timeout : float
        Seconds for the notebook; the sandbox is killed :data:`GRACE` seconds later.
    hide : paths
        Folders the submission must not see (key, submissions, output).
    secret_files : paths
        Files hidden even when a folder the kernel needs holds them (e.g. the key).
    """
    import nbformat

    import ldpfair

    from .. import config

    tool = require_bwrap()
    result = Sandboxed()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ldpfair-sandbox-") as scratch:
        nb = nbformat.from_dict(json.loads(json.dumps(nb)))
        nb.cells = [hook_cell(list(specs)), *nb.cells]
        nbformat.write(nb, os.path.join(scratch, "submission.ipynb"))
        package = Path(ldpfair.__file__).parent  # and the project's example cards next to it
        keep = [package, package.parent / "examples", Path(sys.prefix), Path(sys.base_prefix)]
        from ..experiments.notebooks import results_dir

        folders = {config.RESULTS_DIR: results_dir().resolve()}  # committed results, read-only
        offline = ((config.DATA_DIR, config.data_dir()), (config.REFERENCE_DIR, config.reference_dir()))
        for variable, path in offline:
            if path is not None:
                folders[variable] = path.resolve()
        keep += list(folders.values())
        args = [tool, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                "--size", str(TMP_SIZE), "--tmpfs", "/tmp",
                *_kept_under(Path("/tmp"), keep),  # a venv made under /tmp (as CI's) stays visible
                *_hidden([*HIDDEN, *map(Path, hide)], keep)]
        for f in secret_files:
            if Path(f).exists():
                args += ["--ro-bind", "/dev/null", os.path.realpath(f)]
        for variable, folder in folders.items():
            args += ["--setenv", variable, str(folder)]
        args += ["--bind", scratch, "/tmp/work", "--chdir", "/tmp/work", "--setenv", "HOME", "/tmp/work",
                 "--setenv", "JUPYTER_RUNTIME_DIR", "/tmp/work/.runtime", "--setenv", "MPLCONFIGDIR",
                 "/tmp/work/.mpl", "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534",
                 "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--",
                 "prlimit", f"--as={MEMORY}", f"--fsize={FILE_SIZE}", f"--nproc={PROCESSES}",
                 f"--cpu={int(timeout * 2 + 60)}",
                 sys.executable, "-m", "ldpfair.classroom.sandbox_exec", "submission.ipynb",
                 repr(float(timeout))]
        group = _cgroup()

        def join() -> None:  # in the child, before bwrap starts
            if group is not None:
                (group / "cgroup.procs").write_text(str(os.getpid()))

        # bwrap reads its arguments from a pipe, so /proc/1/cmdline in the sandbox names no folder
        read, write = os.pipe()
        split = args.index("--")  # options through the pipe, the command on the command line
        os.write(write, b"".join(os.fsencode(a) + b"\0" for a in args[1:split]))
        os.close(write)
        try:
            proc = subprocess.Popen([tool, "--args", str(read), *args[split:]], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(read,),
                                    start_new_session=True, preexec_fn=join)
        finally:
            os.close(read)
        try:
            proc.wait(timeout=timeout + GRACE)
        except subprocess.TimeoutExpired:
            result.killed = True
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        finally:
            if group is not None:
                _kill_group(group)
        result.seconds = time.monotonic() - start
        result.answers = _read_json(Path(scratch, DUMP)) or {}
        report = _read_json(Path(scratch, REPORT))
        if report:
            result.errors = [(int(i) - 1, str(e)) for i, e in report.get("errors", [])]
            result.timed_out = None if report.get("timed_out") is None else int(report["timed_out"]) - 1
            result.died = str(report.get("died", ""))
        elif result.killed:
            result.died = f"the sandbox was killed {GRACE:g} s after the time limit of {timeout:g} s"
        else:
            result.died = f"the sandbox ended without a report (exit status {proc.returncode})"
    return result


def _kill_group(group: Path) -> None:
    for _ in range(50):
        try:
            pids = [int(p) for p in (group / "cgroup.procs").read_text().split()]
        except OSError:
            return
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.05)
    try:
        group.rmdir()
    except OSError:
        pass


def _read_json(path: Path) -> dict[str, Any] | None:
    """A JSON object the sandbox wrote: a regular file only (no link to a grader's file, no FIFO)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > FILE_SIZE:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)
    return data if isinstance(data, dict) else None
