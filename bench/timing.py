"""The one timing helper every benchmark uses."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best(fn: Callable[[], Any], repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds (the least disturbed measurement)."""
    fastest = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest
