"""The timing helpers every benchmark uses."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

#: The project's packages, whose bytecode :func:`bytecode` makes or removes.
PACKAGES = ("pbem", "adjudicator", "turns", "reports")
ROOT = Path(__file__).resolve().parents[1]


def bytecode(compiled: bool = True) -> None:
    """Compile the project's packages to bytecode in their ``__pycache__`` (what ``pip install``
    does, so every installed pbem starts from it), or (``compiled=False``) remove that bytecode.

    A benchmark that times pbem as a whole process calls this first: without it, a checkout run
    with ``PYTHONDONTWRITEBYTECODE=1`` compiles every module it imports from source at every
    start (some 40 ms of a ``status``), a cost no installed pbem pays, while the floors it is
    measured against (the stdlib, click) start from their installed bytecode."""
    for package in PACKAGES:
        for cache in (ROOT / package).rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
    if compiled:
        subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(ROOT / p) for p in PACKAGES)],
                       check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})


def best(fn: Callable[[], Any], repeat: int = 5, clock: Callable[[], float] = time.perf_counter) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds of ``clock`` (wall time by
    default; ``time.process_time`` counts this process's CPU only, which other processes on
    a busy machine do not inflate)."""
    fastest = float("inf")
    for _ in range(repeat):
        start = clock()
        fn()
        fastest = min(fastest, clock() - start)
    return fastest


def child_cpu() -> float:
    """CPU seconds (user + system) used so far by the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_process(command: Sequence[str], repeat: int = 5, env: dict[str, str] | None = None) -> tuple[float, float]:
    """``(CPU, wall)`` seconds of the fastest of ``repeat`` runs of ``command`` as a process."""
    cpu_best = wall_best = float("inf")
    for _ in range(repeat):
        cpu, wall = child_cpu(), time.perf_counter()
        subprocess.run(list(command), check=True, stdout=subprocess.DEVNULL, env=env)
        cpu_best, wall_best = min(cpu_best, child_cpu() - cpu), min(wall_best, time.perf_counter() - wall)
    return cpu_best, wall_best


def run_process(command: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """``(CPU seconds, wall seconds, peak memory in KB)`` of one run of ``command`` as a process
    (its own resource usage, from ``wait4``); its output is discarded; exit status 0 or 1.

    The peak memory is the one ``/usr/bin/time`` reports when it is installed (the command runs
    under it): a child forked from this process would count this process's memory as its own
    until it execs, and this process holds the benchmarks' libraries. Without it, 0."""
    import os
    import shutil
    import tempfile

    timer = shutil.which("time") if os.path.exists("/usr/bin/time") else None
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        full = ["/usr/bin/time", "-f", "%M", "-o", rss.name, *command] if timer else list(command)
        start = time.perf_counter()
        proc = subprocess.Popen(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        err = proc.stderr.read() if proc.stderr else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if proc.stderr:
            proc.stderr.close()
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            raise subprocess.CalledProcessError(code, list(command), stderr=err)
        text = rss.read().strip().splitlines() if timer else []
    peak = int(text[-1]) if text and text[-1].isdigit() else 0
    return usage.ru_utime + usage.ru_stime, wall, peak


def median_process(command: Sequence[str], repeat: int = 5, env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """The median CPU and wall seconds of ``repeat`` runs of ``command``, and the largest peak memory (KB)."""
    import statistics

    runs = [run_process(command, env) for _ in range(repeat)]
    return (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs), max(r[2] for r in runs))
