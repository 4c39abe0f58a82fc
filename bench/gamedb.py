"""Databases of many running games for the scaling benchmarks, made fast.

A few *template* games are played through the service by bots (every order recorded as an
event, every turn adjudicated with its snapshot, index and mail), then copied as many times
as a benchmark needs: a copy is the template's rows with a new game id, every event hash of
the chain made again for that id (a game's id is part of each event's hash), so each copy is
a game pbem opens, verifies and continues like any other. Making 5,000 games this way takes
seconds; playing them would take hours (each game's passwords alone cost three scrypt hashes).

Templates (``TEMPLATES``): a 4-seat Wallenstein game after ``WALLENSTEIN_SEASONS`` seasons, a
4-seat Havoc game after ``HAVOC_STEPS`` decisions and a God's Playground game after
``GP_STEPS`` decisions, each with a relative clock (``--deadline-every 72h``), so every copy
waits for orders with a deadline 72 hours after its turn opened.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

QUICK = bool(os.environ.get("BENCH_QUICK"))
WALLENSTEIN_SEASONS = 1 if QUICK else 3
HAVOC_STEPS = 10 if QUICK else 40
GP_STEPS = 10 if QUICK else 60
SEATS = {"wallenstein": ("red", "blue", "yellow", "black"), "havoc": ("red", "blue", "green", "yellow"),
         "gods-playground": ("white", "blue", "red")}
#: The template games: (id, engine, decisions to play).
TEMPLATES = (("tw", "wallenstein", WALLENSTEIN_SEASONS), ("th", "havoc", HAVOC_STEPS),
             ("tg", "gods-playground", GP_STEPS))


def fixed_clock(start: datetime) -> Callable[[], datetime]:
    """A clock that moves one minute on every reading (the store's recording times)."""
    moments = iter(start + timedelta(minutes=i) for i in range(10**9))
    return lambda: next(moments)


@contextmanager
def quiet_mail() -> Iterator[None]:
    """Inside: adjudications queue no report mails and no "your move" mails (the templates'
    mail is not what the scaling benchmarks measure, and rendering it would take minutes)."""
    from pbem.mailout import notify
    from pbem.loop import service

    saved = notify.turn_reports, service.Service._announce
    notify.turn_reports = lambda *a, **k: []  # type: ignore[assignment]
    service.Service._announce = lambda *a, **k: None  # type: ignore[assignment]
    try:
        yield
    finally:
        notify.turn_reports, service.Service._announce = saved  # type: ignore[assignment]


def play(service: Any, game_id: str, steps: int, seed: str, bot: str = "random",
         until: Callable[[Any], bool] | None = None) -> int:
    """Play ``steps`` adjudications of ``game_id`` with bots submitting every awaited seat's
    orders (as events, through the service); returns the steps played."""
    from adjudicator.chance import Chance
    from pbem.loop.demo import bot_for

    chance = Chance("bench-bots:" + seed)
    done = 0
    while done < steps:
        game = service.load(game_id)
        if game.pending is None or (until is not None and until(game)):
            break
        choose = bot_for(game, bot)
        for seat in service.awaited(game):
            orders = choose(game.state, seat, chance.stream(f"{done}/{seat}"))
            service.submit(game_id, seat, orders, "", {"kind": "bot"})
        done += len(service.adjudicate(game_id, limit=1))
    return done


def make_templates(db: Path, start: datetime, templates: tuple[tuple[str, str, int], ...] = TEMPLATES,
                   mail: bool = False) -> list[str]:
    """The template games in a new database ``db`` (the store's clock begins at ``start``)."""
    from pbem.loop.service import Service
    from pbem.store.db import Store

    import json

    service = Service(Store(db, clock=fixed_clock(start)), "gm@bench.invalid")
    passwords: dict[str, dict[str, str]] = {}
    with quiet_mail() if not mail else _nothing():
        for game_id, engine, steps in templates:
            seats = [(s, f"{s}.{game_id}@bench.invalid") for s in SEATS[engine]]
            created = service.new_game(game_id, engine, seats, {},
                                       f"bench-template-{game_id}-0123456789abcdef0123456789", deadline_every="72h")
            passwords[game_id] = dict(created.passwords)
            play(service, game_id, steps, game_id)
    service.store.close()
    Path(str(db) + ".passwords.json").write_text(json.dumps(passwords))  # every copy has its template's
    return [t[0] for t in templates]


def order_mails(db: Path, games: list[str], count: int) -> list[bytes]:
    """``count`` order mails, spread over ``games`` (copies of the templates, in turn), each from
    a seat that owes orders, with its password and a random legal order set for its decision."""
    import json
    from email.message import EmailMessage

    from adjudicator.chance import Chance
    from pbem.loop.service import Service
    from pbem.store.db import Store
    from turns.games import format_orders

    passwords = json.loads(Path(str(db) + ".passwords.json").read_text())
    service = Service(Store(db), "gm@bench.invalid")
    states = {t: service.load(t) for t in passwords}
    chance = Chance("bench-mails")
    out = []
    for n in range(count):
        game_id = games[n % len(games)]
        template = "t" + game_id[0]
        game = states[template]
        seat = game.pending.seats[(n // len(games)) % len(game.pending.seats)]
        orders = game.engine.random_orders(game.state, seat, chance.stream(str(n)))
        msg = EmailMessage()
        msg["From"], msg["To"] = game.seats[seat]["email"], "gm@bench.invalid"
        msg["Subject"], msg["Message-ID"] = f"orders {game_id}", f"<m{n}.{game_id}@bench.invalid>"
        msg["Date"] = "Mon, 07 Dec 2026 09:00:00 +0000"
        body = format_orders(game.engine.name, orders)
        msg.set_content(f"GAME {game_id} {seat} {passwords[template][seat]}\nTURN {game.pending.turn}\n{body}\nEND\n")
        out.append(bytes(msg))
    service.store.close()
    return out


@contextmanager
def _nothing() -> Iterator[None]:
    yield


#: The columns holding an event hash, per table, rewritten for a copy (besides ``events``).
_HASH_COLUMNS = {"games": ("last_hash",)}


def copy_games(db: Path, template: str, count: int, prefix: str, first: int = 0) -> list[str]:
    """``count`` copies of the game ``template`` in ``db``, named ``<prefix><n>`` from
    ``first``; returns their ids. Events, secrets, the games row (with its index) and the
    snapshots are copied; the outbox is not (a copy's mail has been sent)."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        ids = [f"{prefix}{n}" for n in range(first, first + count)]
        events = conn.execute("select * from events where game_id = ? order by seq", [template]).fetchall()
        names = [d[0] for d in conn.execute("select * from events limit 0").description]
        for game_id in ids:
            mapping = _copy_events(conn, names, events, template, game_id)
            for table in _tables(conn):
                if table in ("events", "outbox", "mails", "_migrations", "blobs", "delivery_problems", "press",
                             "guard_log", "reset_codes") or "game_id" not in _columns(conn, table):
                    continue
                _copy_rows(conn, table, template, game_id, mapping)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()
    return ids


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f'pragma table_info("{table}")')]


def _copy_events(conn: sqlite3.Connection, names: list[str], events: list[tuple[Any, ...]], template: str,
                 game_id: str) -> dict[str, str]:
    """Insert the template's events under ``game_id``, chained again; old hash -> new hash."""
    from pbem.store.db import GENESIS, event_hash

    col = {n: i for i, n in enumerate(names)}
    prev, mapping, rows = GENESIS, {GENESIS: GENESIS}, []
    for row in events:
        payload = row[col["payload"]]
        if row[col["type"]] == "GameCreated":
            payload = payload.replace(f'"game":"{template}"', f'"game":"{game_id}"', 1)
        digest = event_hash(game_id, row[col["seq"]], row[col["type"]], row[col["version"]], None,
                            row[col["recorded_at"]], prev, payload)
        mapping[row[col["hash"]]] = digest
        new = list(row)
        new[col["id"]] = None
        new[col["game_id"]], new[col["payload"]], new[col["prev_hash"]], new[col["hash"]] = game_id, payload, prev, digest
        if new[col["key"]] is not None:
            new[col["key"]] = f"{new[col['key']]}#{game_id}"
        rows.append(new)
        prev = digest
    marks = ", ".join("?" * len(names))
    conn.executemany(f"insert into events ({', '.join(names)}) values ({marks})", rows)
    return mapping


def _copy_rows(conn: sqlite3.Connection, table: str, template: str, game_id: str, mapping: dict[str, str]) -> None:
    """The template's rows of ``table`` under ``game_id``, with every event hash they hold
    replaced by the copy's."""
    columns = _columns(conn, table)
    rows = conn.execute(f'select * from "{table}" where game_id = ?', [template]).fetchall()
    hashed = [i for i, c in enumerate(columns) if c in _HASH_COLUMNS.get(table, ()) or c.endswith("event_hash")]
    out = []
    for row in rows:
        new = list(row)
        new[columns.index("game_id")] = game_id
        for i in hashed:
            new[i] = mapping.get(new[i], new[i])
        out.append(new)
    marks = ", ".join("?" * len(columns))
    conn.executemany(f'insert into "{table}" ({", ".join(columns)}) values ({marks})', out)


def games_db(directory: Path, total: int, start: datetime, base: Path | None = None) -> Path:
    """A database of ``total`` running games (copies of the three templates, in turn), made
    from ``base`` (a database of templates, copied as a file) or from new templates."""
    import shutil

    db = directory / f"games-{total}.db"
    if base is None:
        base = directory / "templates.db"
        if not base.exists():
            make_templates(base, start)
    shutil.copyfile(base, db)
    for suffix in ("-wal", "-shm"):
        if Path(str(base) + suffix).exists():
            shutil.copyfile(str(base) + suffix, str(db) + suffix)
    per = [total // 3 + (1 if i < total % 3 else 0) for i in range(3)]
    for (template, _, _), count in zip(TEMPLATES, per):
        copy_games(db, template, count, f"{template[1]}", 0)
    conn = sqlite3.connect(db)
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()
    return db


def utc(text: str) -> datetime:
    """An aware UTC datetime from ISO text."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


def content_hash(db: Path, game_id: str) -> str:
    """A digest of one game's events (to compare two copies' payloads)."""
    conn = sqlite3.connect(db)
    digest = hashlib.sha256()
    for (payload,) in conn.execute("select payload from events where game_id = ? order by seq", [game_id]):
        digest.update(payload.encode())
    conn.close()
    return digest.hexdigest()
