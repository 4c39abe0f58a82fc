"""Hostile mail: how long one mail of each hostile kind holds ingest.

- ``hostile mail: <kind>``: wall seconds to ingest one mail of each kind of
  :mod:`bench.hostile` (nested MIME, thousands of parts, a 3 MB base64 body, 20,000 bad order
  lines, 10 wrong-password GAME blocks, 2 MB of headers, and a mail just under every limit of
  :mod:`pbem.mailin.maillimits` with a seat's real password), the slower of two senders: a stranger and
  a seat's registered address (anyone can forge it). Target: no mail over 2 s.

:func:`ingest_run` runs ``pbem ingest MAILDIR`` as its own process and reads its peak memory
(the campaign's row, bench/campaign_bench.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import hostile
from bench.mailcampaign import make_games



def time_kinds(directory: Path) -> dict[str, tuple[float, str]]:
    """``{kind: (seconds of the slower sender, its outcome and note)}``."""
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import RawMail
    from pbem.loop.service import Service
    from pbem.store.db import Store

    games = make_games(directory)
    service = Service(Store(games.db), "gm@pbem.example")
    ingestor = Ingestor(service)
    game, seat = "w1", "red"
    block = f"GAME {game} {seat} {games.passwords[(game, seat)]}"
    out: dict[str, tuple[float, str]] = {}
    for kind, make in hostile.KINDS.items():
        worst = (0.0, "")
        for n, sender in enumerate(("stranger@evil.example", games.address(game, seat))):
            raw = make(sender, f"bench-{n}-{len(out)}", game, seat, block)
            start = time.perf_counter()
            result = ingestor.ingest_all([RawMail(raw, kind, mailbox=True)])[0]
            elapsed = time.perf_counter() - start
            if elapsed >= worst[0]:
                worst = (elapsed, f"{result.outcome}: {result.note[:70]}")
        out[kind] = worst
    service.store.close()
    return out


def ingest_run(db: Path, maildir: Path) -> dict[str, Any]:
    """``pbem ingest MAILDIR --json`` as its own process: peak memory (MB, from its own
    resource usage), wall seconds, exit status, whether stderr shows a traceback, the outcomes."""
    import json

    out, err = db.with_suffix(".out"), db.with_suffix(".err")
    start = time.perf_counter()
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "pbem", "--db", str(db), "ingest", str(maildir), "--json",
                                 "--quiet"], stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    results = json.loads(out.read_bytes() or b"[]") if proc.returncode == 0 else []
    text = err.read_bytes()
    return {"peak_mb": usage.ru_maxrss / 1024, "seconds": wall, "exit": proc.returncode, "results": results,
            "traceback": b"Traceback" in text, "stderr": text.decode("utf-8", "replace")[-2000:]}


def run() -> list[dict[str, Any]]:
    """The hostile-mail rows (the memory of a whole ``pbem ingest`` run: bench/campaign_bench.py)."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind, (seconds, what) in time_kinds(Path(tmp)).items():
            rows.append({"bench": "hostile mail", "measure": kind, "value": seconds, "unit": "s",
                         "target": "value <= 2", "note": what})
    return rows
