"""The timing helpers every benchmark uses."""

from __future__ import annotations

import resource
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any


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
