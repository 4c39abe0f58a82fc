"""The commands a cron job or a mail hook runs for every mail start fast: each as a whole
process, in CPU (median of 5), against a bare ``python -c "import sqlite3, json, click"``.

- ``pbem ingest FILE`` of a mail from an address no game knows (kept, not answered: every
  step of ingest but a game and a password);
- ``pbem ingest FILE`` of a seat's order mail, less one scrypt hash of its password (the price
  of storing passwords properly: in the note);
- ``pbem status G``, ``pbem tick`` with nothing due, ``pbem send`` with nothing to send.

Target: ratio <= 2.5 for each. pbem is measured as ``pip install`` leaves it, its modules
compiled to bytecode (the benchmark compiles them first, into their ``__pycache__``, as an
install does); the note gives the ratio of the same command compiling pbem's modules from
source at each start too (what a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` does).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.timing import median_process

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pbem", "adjudicator", "turns", "reports")
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith(("PBEM_IMAP", "PBEM_SMTP"))},
       "PYTHONDONTWRITEBYTECODE": "1"}


def _setup(directory: Path) -> tuple[Path, Path, Path, float]:
    """A database with one game, a stranger's mail and a seat's order mail; one scrypt's CPU."""
    from email.message import EmailMessage

    from pbem.loop.auth import hash_password
    from pbem.loop.demo import order_mail
    from pbem.loop.service import Service
    from pbem.store.db import Store

    db = directory / "p.db"
    service = Service(Store(db), "gm@bench.invalid")
    created = service.new_game("w1", "wallenstein", [(s, f"{s}@bench.invalid") for s in ("red", "blue", "yellow")],
                               {}, "startup-bench-" + "s" * 32)
    service.store.conn.execute("update outbox set sent_at = '2026-12-01T00:00:00Z'")  # nothing to send
    order = directory / "order.eml"
    order.write_bytes(order_mail(created.game, "red", created.passwords["red"], "BID 1", service.store.clock(),
                                 "gm@bench.invalid"))
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "stranger@elsewhere.invalid", "gm@bench.invalid", "hello"
    msg["Message-ID"] = "<stranger@elsewhere.invalid>"
    msg.set_content("Is this the game?\n")
    stranger = directory / "stranger.eml"
    stranger.write_bytes(bytes(msg))
    service.store.close()
    start = time.process_time()
    hash_password("abcd-efgh-jkmn", "00" * 16)
    return db, stranger, order, time.process_time() - start


def _pbem(db: Path, *args: str) -> list[str]:
    exe = Path(sys.executable).with_name("pbem")
    return [*([str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]), "--db", str(db), *args]


def _runs(db: Path, stranger: Path, order: Path, directory: Path) -> dict[str, float]:
    """Median CPU of each command; each ingest on a fresh copy of the database (a mail is new)."""
    out = {}
    for name, args in (("status G", ("status", "w1")), ("tick, nothing due", ("tick", "--no-send")),
                       ("send, nothing to send", ("send", "--maildir", str(directory / "out")))):
        out[name] = median_process(_pbem(db, *args), env=ENV)[0]
    for name, mail in (("ingest FILE, a stranger's mail", stranger), ("ingest FILE, a seat's order mail", order)):
        times = []
        for n in range(5):
            copy = directory / f"copy{n}.db"
            shutil.copyfile(db, copy)
            times.append(median_process(_pbem(copy, "ingest", str(mail)), repeat=1, env=ENV)[0])
            copy.unlink()
        out[name] = sorted(times)[2]
    return out


def _caches(remove: bool) -> None:
    """Compile pbem's packages to bytecode (as an install does), or remove that bytecode."""
    for package in PACKAGES:
        for cache in (ROOT / package).rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)
    if not remove:
        subprocess.run([sys.executable, "-m", "compileall", "-q", *(str(ROOT / p) for p in PACKAGES)],
                       check=True, stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""})


def run() -> list[dict[str, Any]]:
    """Rows for ``python -m bench``."""
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        db, stranger, order, scrypt = _setup(directory)
        bare = median_process([sys.executable, "-c", "import sqlite3, json, click"], env=ENV)[0]
        _caches(remove=True)
        source = _runs(db, stranger, order, directory)
        _caches(remove=False)
        compiled = _runs(db, stranger, order, directory)
    rows = []
    for name, cpu in compiled.items():
        less = scrypt if "order mail" in name else 0.0
        note = (f"from source at each start: {(source[name] - less) / bare:.2f}"
                + (f"; less one scrypt of {scrypt * 1000:.0f} ms (process {cpu * 1000:.0f} ms)" if less else ""))
        rows.append({"bench": "startup", "measure": f"pbem {name}", "value": (cpu - less) * 1000, "unit": "ms CPU",
                     "floor": f"{bare * 1000:.0f} ms python -c 'import sqlite3, json, click'",
                     "ratio": (cpu - less) / bare, "target": "ratio <= 2.5", "note": note})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
