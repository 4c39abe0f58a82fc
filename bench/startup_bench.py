"""The commands a cron job or a mail hook runs for every mail start fast: each as a whole
process, in CPU (median of 7), against a bare ``python -c "import sqlite3, json, click"`` run
alternately with it (the median of its 7 runs), so that a change in the machine's load during
the benchmark falls on the command and its floor alike.

- ``pbem ingest FILE`` of a mail from an address no game knows (kept, not answered: every
  step of ingest but a game and a password);
- ``pbem ingest FILE`` of a seat's order mail, less one scrypt hash of its password (the price
  of storing passwords properly: in the note; measured as a bare interpreter that hashes one
  password, run in turn with the others, less the bare interpreter);
- ``pbem status G``, ``pbem tick`` with nothing due, ``pbem send`` with nothing to send.

Target: ratio <= 2.5 for each. pbem is measured as ``pip install`` leaves it, its modules
compiled to bytecode (the benchmark compiles them first, into their ``__pycache__``, as an
install does); the note gives the ratio of the same command compiling pbem's modules from
source at each start too (what a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` does).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.timing import bytecode, run_process

BARE = [sys.executable, "-c", "import sqlite3, json, click"]
#: One scrypt of a seat's password as :func:`pbem.store.auth.hash_password` makes it.
SCRYPT = [sys.executable, "-c", "import sqlite3, json, click, hashlib; "
          "hashlib.scrypt(b'abcd-efgh-jkmn', salt=bytes(16), n=2**14, r=8, p=1, dklen=32)"]
REPEAT = 7  # runs of each command, each after a run of the bare interpreter
ENV = {**{k: v for k, v in os.environ.items() if not k.startswith(("PBEM_IMAP", "PBEM_SMTP"))},
       "PYTHONDONTWRITEBYTECODE": "1"}


def _setup(directory: Path) -> tuple[Path, Path, Path]:
    """A database with one game, a stranger's mail and a seat's order mail."""
    from email.message import EmailMessage

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
    return db, stranger, order


def _pbem(db: Path, *args: str) -> list[str]:
    exe = Path(sys.executable).with_name("pbem")
    return [*([str(exe)] if exe.exists() else [sys.executable, "-m", "pbem"]), "--db", str(db), *args]


def _runs(db: Path, stranger: Path, order: Path, directory: Path) -> dict[str, tuple[float, float, float]]:
    """Per command, its median CPU, that of the bare interpreter run alternately with it (a
    change in the machine's load falls on both) and, for the seat's order mail, one scrypt's;
    each ingest on a fresh copy of the database (a mail is new)."""
    out = {}
    for name, args in (("status G", ("status", "w1")), ("tick, nothing due", ("tick", "--no-send")),
                       ("send, nothing to send", ("send", "--maildir", str(directory / "out")))):
        out[name] = _alternately(lambda n, a=args: _pbem(db, *a))  # type: ignore[misc]
    for name, mail in (("ingest FILE, a stranger's mail", stranger), ("ingest FILE, a seat's order mail", order)):
        def fresh(n: int, mail: Path = mail) -> list[str]:
            copy = directory / f"copy{n}.db"
            shutil.copyfile(db, copy)
            return _pbem(copy, "ingest", str(mail))

        out[name] = _alternately(fresh, scrypt=mail == order)
        for copy in directory.glob("copy*.db*"):
            copy.unlink()
    return out


def _alternately(command: Callable[[int], list[str]], scrypt: bool = False) -> tuple[float, float, float]:
    """The median CPU of ``REPEAT`` runs of ``command(n)`` and of the bare interpreter, run in
    turn, and (``scrypt``) what one scrypt of a seat's password adds to the bare interpreter,
    run in turn with them too (scrypt is memory-hard: its cost moves with the machine's load)."""
    mine, bare, hashed = [], [], []
    for n in range(REPEAT):
        bare.append(run_process(BARE, env=ENV)[0])
        if scrypt:
            hashed.append(run_process(SCRYPT, env=ENV)[0])
        mine.append(run_process(command(n), env=ENV)[0])
    floor = statistics.median(bare)
    return statistics.median(mine), floor, max(statistics.median(hashed) - floor, 0.0) if scrypt else 0.0


def run() -> list[dict[str, Any]]:
    """Rows for ``python -m bench``."""
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        db, stranger, order = _setup(directory)
        bytecode(compiled=False)
        source = _runs(db, stranger, order, directory)
        bytecode(compiled=True)
        compiled = _runs(db, stranger, order, directory)
    rows = []
    for name, (cpu, bare, scrypt) in compiled.items():
        src_cpu, src_bare, src_scrypt = source[name]
        note = (f"from source at each start: {(src_cpu - src_scrypt) / src_bare:.2f}"
                + (f"; less one scrypt of {scrypt * 1000:.0f} ms (process {cpu * 1000:.0f} ms)" if scrypt else ""))
        rows.append({"bench": "startup", "measure": f"pbem {name}", "value": (cpu - scrypt) * 1000, "unit": "ms CPU",
                     "floor": f"{bare * 1000:.0f} ms python -c 'import sqlite3, json, click'",
                     "ratio": (cpu - scrypt) / bare, "target": "ratio <= 2.5", "note": note})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
