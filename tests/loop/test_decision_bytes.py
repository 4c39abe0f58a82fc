"""A decision through the service writes the same bytes whatever shortcuts it takes: games of
all three played by mail (each order mail ingested, each decision adjudicated, the next seat's
"your move" queued) with a fixed clock, passwords, salts and Message-IDs, and every table the
service writes (events and their hashes, heads, snapshots, the games row, the turn history,
the outbox as queued and as sent, the mails and their notes) hashed and compared with the
digests the code before those shortcuts wrote (``decision_bytes.json``).

The reports' renderer is replaced by one that answers a digest of its whole input (the view,
the history, the language...): the pictures and their layout belong to the renderer's own
tests, while everything the service hands it is still compared byte for byte. Run with
``PBEM_WRITE_GOLDEN=1`` to write the digests again (only for a change meant to alter bytes)."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

from adjudicator.chance import Chance
from pbem.loop.ingest import Ingestor
from pbem.loop.service import Service
from pbem.mailin.parse import RawMail
from pbem.store.db import Store

GOLDEN = Path(__file__).with_name("decision_bytes.json")
MOMENT = datetime(2026, 3, 1, 9, 30, tzinfo=timezone.utc)
#: (engine, seats, decisions played): enough for rounds, battles and a season's reports.
GAMES = [("gods-playground", ["white", "blue", "red"], 50), ("havoc", ["red", "blue", "green", "yellow"], 14),
         ("wallenstein", ["red", "blue", "yellow", "black"], 2)]
TABLES = ["events", "heads", "snapshots", "games", "turn_history", "mails", "seat_addresses", "guard_log",
          "secrets", "blobs", "press", "outbox"]


def _fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords, salts, Message-IDs and the renderer made deterministic."""
    import secrets as stdlib_secrets

    import pbem.loop.creating
    import pbem.mailout.mailbase
    import pbem.mailout.reporting
    from reports.model import Rendered

    words = itertools.count()
    monkeypatch.setattr(pbem.loop.creating, "new_password", lambda: f"Abcd-{next(words):04d}-wxyz")
    salts = itertools.count()
    monkeypatch.setattr(stdlib_secrets, "token_hex", lambda n=32: f"{next(salts):0{2 * n}x}")
    ids = itertools.count()
    monkeypatch.setattr(pbem.mailout.mailbase, "make_msgid",
                        lambda idstring=None, domain=None: f"<{next(ids)}.{idstring}@{domain}>")

    def render(inp):  # the renderer's whole input, as a digest (its own output is its tests')
        digest = hashlib.sha256(repr(inp).encode()).hexdigest()
        return Rendered(text=f"report {digest}\n", html=f"<p>report {digest}</p>", images={})
    monkeypatch.setattr(pbem.mailout.reporting, "render_report", render)
    pbem.mailout.reporting._CACHE.clear()


def _play(directory: Path, engine: str, seats: list[str], decisions: int) -> Store:
    """``decisions`` decisions of a new game, every order mailed in and ingested."""
    from pbem.loop.demo import bot_for, order_mail
    from turns.games import format_orders

    store = Store(directory / f"{engine}.db", clock=lambda: MOMENT)
    service = Service(store, "gm@golden.invalid")
    created = service.new_game("g", engine, [(s, f"{s}@golden.invalid") for s in seats], {}, f"golden-{engine}-" + "x" * 32)
    sent = 0
    for _ in range(decisions):
        game = service.load("g")
        if game.pending is None:
            break
        for seat in service.awaited(game):
            orders = bot_for(game, "random")(game.state, seat, Chance("golden").stream(f"{game.pending.turn}/{seat}"))
            raw = order_mail(game, seat, created.passwords[seat], format_orders(engine, orders), MOMENT, service.sender)
            sent += 1
            raw = raw.replace(b"@demo.pbem.invalid>", f".{sent}@golden.invalid>".encode())
            outcome = Ingestor(service).ingest(RawMail(raw, f"mail-{sent}"))
            assert outcome.outcome == "accepted", outcome.line()
        assert service.adjudicate("g", limit=1)
    return store


def digests(store: Store) -> dict[str, str]:
    """A digest of every row of each table the service writes, and of every queued mail as
    it would be sent."""
    from pbem.store.mailpack import unpack

    out = {}
    for table in TABLES:
        rows = store.conn.execute(f"select * from {table} order by rowid").fetchall()  # noqa: S608 - fixed names
        out[table] = hashlib.sha256(repr(rows).encode()).hexdigest()
    mails = [unpack(store.conn, bytes(r[0])) for r in store.conn.execute("select message from outbox order by id")]
    out["outbox as sent"] = hashlib.sha256(b"\0".join(mails)).hexdigest()
    out["counts"] = json.dumps({t: store.conn.execute(f"select count(*) from {t}").fetchone()[0]  # noqa: S608
                                for t in TABLES})
    return out


@pytest.mark.parametrize("engine, seats, decisions", GAMES, ids=[g[0] for g in GAMES])
def test_a_decision_writes_the_same_bytes(tmp_path, monkeypatch, engine, seats, decisions):
    import pbem.loop.service

    _fixed(monkeypatch)
    pbem.loop.service._CACHE.clear()
    got = digests(_play(tmp_path, engine, seats, decisions))
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("PBEM_WRITE_GOLDEN"):
        golden[engine] = got
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    assert json.loads(got["counts"]) == json.loads(golden[engine]["counts"])
    assert got == golden[engine]
