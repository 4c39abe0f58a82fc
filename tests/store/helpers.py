"""Helpers of the store tests: run ``pbem`` as a separate process, make a small game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pbem.loop.service import Service
from pbem.store.db import Store

ROOT = Path(__file__).resolve().parents[2]
SEATS = [("red", "r@x.org"), ("blue", "b@x.org"), ("green", "g@x.org"), ("yellow", "y@x.org")]
SEED = "store-test-seed-0123456789abcdef0123"


def pbem(db: Path | str, *args: str, timeout: float = 120, env: dict[str, str] | None = None,
         cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m pbem --db DB ARGS`` and return the finished process (text output)."""
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    full_env.pop("PBEM_DB", None)
    cmd = [sys.executable, "-m", "pbem", *(["--db", str(db)] if db else []), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=full_env, cwd=cwd or ROOT)


def wallenstein_game(db: Path, game_id: str = "w1", turns: int = 1) -> None:
    """A Wallenstein game with ``turns`` forced turns, in the database ``db``."""
    store = Store(db)
    service = Service(store, sender="gm@pbem.example")
    service.new_game(game_id, "wallenstein", SEATS, {}, SEED)
    for _ in range(turns):
        service.adjudicate(game_id, force=True)
    store.close()
