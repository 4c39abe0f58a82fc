"""What the store keeps beside a game's log, derived from it in the transaction of its events.

- the ``games`` row: engine, pending turn, over, winner, state hash, deadline, the log's head;
- the *due index* on that row, which commands over many games (``pbem tick``) read instead of
  loading every game: ``due_at`` (the pending turn's deadline as UTC text), ``remind_at`` (when
  the seats still awaited are to be reminded; none once each has its reminder queued),
  ``ready`` (every pending seat has orders, submitted or standing), ``watch`` (the club looks
  at the game at every tick: a seat is absent, in civil disorder or resigned) and
  ``index_seq`` (the log's sequence number they were derived at);
- the game's head (:mod:`pbem.store.heads`): the game as folded at its last event;
- ``seat_addresses``: which seats an address plays (mail commands, bounces).

A row whose ``index_seq`` is not its log's last sequence number is *stale* (an event was
recorded without this projection: an older pbem, a bug): :func:`stale_games` finds every such
game with one query, and ``pbem tick`` derives them again before reading the index; ``pbem
repair`` checks and rebuilds every game's (:func:`check`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from adjudicator.base import canonical_json

if TYPE_CHECKING:
    from pbem.store.events import Game
    from pbem.store.db import Store

#: The due-index columns of the games row.
INDEX_COLUMNS = ("due_at", "remind_at", "ready", "watch", "index_seq")

#: :func:`project`'s ``hash_seq`` when the caller does not know it: read from the log.
LOOK_UP: Any = object()


def orders_for(game: Game, seat: str) -> list[dict[str, Any]] | None:
    """The orders ``seat`` has for the pending turn: submitted for it, else what its standing
    orders (or plan) give; None when it has none."""
    pending = game.pending
    sub = game.submitted.get(seat)
    if pending is not None and sub is not None and sub["turn"] == pending.turn:
        return list(sub["orders"])
    auto = getattr(game.engine, "auto_orders", None)
    return auto(game.state, seat) if auto is not None else None


def awaited(game: Game) -> list[str]:
    """The pending seats that have no orders yet (neither submitted nor standing)."""
    pending = game.pending
    return [s for s in pending.seats if orders_for(game, s) is None] if pending else []


def reminder_prefix(game: Game, seat: str) -> str:
    """The beginning of the Message-ID of ``seat``'s reminder for the pending turn (the rest
    is the sender's domain, :func:`pbem.loop.deadlines.reminder`)."""
    import hashlib

    pending = game.pending
    assert pending is not None
    return f"<remind.{game.game_id}.{hashlib.sha256(game.mail_key(pending.turn).encode()).hexdigest()[:16]}.{seat}@"


def reminded(store: Store, game: Game, seat: str) -> bool:
    """True when ``seat``'s reminder for the pending turn is in the outbox (one index look-up)."""
    prefix = reminder_prefix(game, seat)
    row = store.conn.execute("select 1 from outbox where message_id >= ? and message_id < ? limit 1",
                             [prefix, prefix + "\uffff"]).fetchone()
    return row is not None


def due_fields(store: Store, game: Game) -> dict[str, Any]:
    """The due index of ``game`` as of its last event (see the module docstring)."""
    from pbem.store import clock as deadlines

    fields: dict[str, Any] = {"due_at": None, "remind_at": None, "ready": 0, "watch": 0, "index_seq": game.last_seq}
    if game.pending is None:
        return fields
    from pbem.store.clubstate import watched

    fields["watch"] = int(watched(game))
    waiting = awaited(game)
    fields["ready"] = int(not waiting)
    deadline = game.deadline
    if deadline is None:
        return fields
    due = deadlines.instant(deadline)
    fields["due_at"] = deadlines.utc_text(due)
    if waiting and not all(reminded(store, game, seat) for seat in waiting):
        fields["remind_at"] = deadlines.utc_text(deadlines.remind_at(game) or due)  # not before half a clock
    return fields


def games_fields(game: Game, digest: str) -> dict[str, Any]:
    """The games row's fields of ``game`` (``digest``: its state hash, made already)."""
    pending = game.pending
    return {"engine": game.engine.name, "turn": pending.turn if pending else None, "over": int(pending is None),
            "winner": final_winner(game) if pending is None else None,
            "state_hash": digest, "deadline": game.deadline}


def project(store: Store, game: Game, created: bool = False, state_text: str | None = None,
            state_digest: str | None = None, hash_seq: int | None = LOOK_UP) -> None:
    """Write every projection of ``game`` (folded at the log's last event) inside the caller's
    transaction: the games row with its due index, the head, the seat addresses.
    ``state_text``: the canonical JSON of ``game.state``, when the caller made it already;
    ``state_digest``: that text's digest (:func:`pbem.store.digest.text_digest`), when the
    caller made it too (only read with ``state_text``); ``hash_seq``: what
    :func:`hashed_seq` answers, when the caller knows it from the events it just recorded
    (an adjudication: its ``TurnAdjudicated``; standing orders: None), else looked up."""
    from pbem.store import heads
    from pbem.store.events import text_digest

    last_seq, last_hash = store.log_head(game.game_id)
    text = canonical_json(game.state) if state_text is None else state_text
    digest = (state_digest if state_text is not None and state_digest is not None
              else text_digest(text, game.seed, game.digest_scheme))
    fields = {**games_fields(game, digest), "last_seq": last_seq, "last_hash": last_hash}
    if created:
        fields["created_at"] = store.now()
    if last_seq == game.last_seq:
        fields.update(due_fields(store, game))
        known = hashed_seq(store, game.game_id) if hash_seq is LOOK_UP else hash_seq
        heads.write(store, game, last_hash, text, digest, known)
    store.upsert_game(game.game_id, **fields)
    put_addresses(store, game)


def after_orders(store: Store, game: Game, event_hash: str) -> None:
    """The projections after orders were recorded (``game`` advanced by them; the state is
    unchanged): the log's head, the due index and the head's bookkeeping."""
    from pbem.store import heads

    store.upsert_game(game.game_id, last_seq=game.last_seq, last_hash=event_hash, **due_fields(store, game))
    heads.write(store, game, event_hash, None, None, None)


def refresh_index(store: Store, game: Game) -> None:
    """Write the due index of ``game`` again (e.g. after reminders were queued)."""
    store.upsert_game(game.game_id, **due_fields(store, game))


def hashed_seq(store: Store, game_id: str) -> int | None:
    """The last event of ``game_id`` that recorded the hash of the whole state, if no
    standing orders changed the state after it (the head's state is then that one)."""
    from pbem.store.heads import HASHED

    marks = ", ".join("?" * len(HASHED))
    row = store.conn.execute(f"select seq from events where game_id = ? and type in ({marks}) order by seq desc limit 1",
                             [game_id, *sorted(HASHED)]).fetchone()
    if row is None:
        return None
    later = store.conn.execute("select 1 from events where game_id = ? and seq > ? and type = 'StandingOrders' limit 1",
                               [game_id, row[0]]).fetchone()
    return None if later else int(row[0])


def address_rows(game: Game) -> list[tuple[str, str, int, int]]:
    """``(address, seat, registered, position)`` for every address a seat of ``game`` plays
    from: its registered address (``registered`` 1) and the others it may send from."""
    rows: dict[tuple[str, str], tuple[int, int]] = {}
    for position, (seat, row) in enumerate(game.seats.items()):
        email = (row.get("email") or "").lower()
        for address in [email, *(a.lower() for a in row.get("addresses") or [])]:
            if address:
                old = rows.get((address, seat), (0, position))
                rows[(address, seat)] = (max(old[0], int(address == email)), position)
    return [(a, seat, r, p) for (a, seat), (r, p) in sorted(rows.items())]


def put_addresses(store: Store, game: Game) -> None:
    """Which seats of ``game`` each address plays (:func:`address_rows`), for finding a
    sender's seats without loading every game."""
    rows = address_rows(game)
    stored = [tuple(r) for r in store.conn.execute("select address, seat, registered, position from seat_addresses "
                                                   "where game_id = ? order by address, seat", [game.game_id])]
    if stored == rows:
        return  # the seats did not change (most events): nothing to write
    store.conn.execute("delete from seat_addresses where game_id = ?", [game.game_id])
    store.conn.executemany("insert into seat_addresses (address, seat, registered, position, game_id) "
                           "values (?, ?, ?, ?, ?)", [(*r, game.game_id) for r in rows])


def unreplayable(store: Store, game_id: str) -> None:
    """The due index of a game that cannot be replayed here (an archive imported without its
    seed): nothing is ever due."""
    last_seq, last_hash = store.log_head(game_id)
    store.upsert_game(game_id, last_seq=last_seq, last_hash=last_hash, due_at=None, remind_at=None, ready=0,
                      watch=0, index_seq=last_seq)


def refresh_stale(service: Any) -> list[tuple[str, str]]:
    """Derive again every projection of each game whose due index is behind its log (recorded
    by an older pbem, or by a path that skipped it), each in a transaction of its own, so that
    nothing reads them stale. Returns ``(game, problem)`` for each game that cannot be loaded."""
    failed = []
    for game_id in stale_games(service.store):
        with service.store.transaction():
            try:
                game = service.load(game_id)
            except Exception as exc:  # noqa: BLE001 - one broken game must not stop the others
                failed.append((game_id, getattr(exc, "message", None) or str(exc) or type(exc).__name__))
                continue
            project(service.store, game)
            import logging  # only when a game was stale: a quiet run never imports it

            logging.getLogger("pbem.projection").info("the due index of %s was behind its log: derived again", game_id)
    return failed


# -- reading the index ------------------------------------------------------------------------
def stale_games(store: Store) -> list[str]:
    """Every game whose due index was not derived at its log's last event (one query)."""
    rows = store.conn.execute(
        "select game_id from games g where coalesce(index_seq, -1) != "
        "coalesce((select max(seq) from events e where e.game_id = g.game_id), 0) order by created_at, game_id")
    return [r[0] for r in rows]


def due_games(store: Store, now_utc: str) -> list[str]:
    """The running games whose pending turn is ready or past its deadline at ``now_utc``."""
    rows = store.conn.execute("select game_id from games where over = 0 and (ready = 1 or due_at <= ?) "
                              "order by created_at, game_id", [now_utc])
    return [r[0] for r in rows]


def remind_games(store: Store, now_utc: str) -> list[str]:
    """The running games whose awaited seats are due a reminder at ``now_utc``."""
    rows = store.conn.execute("select game_id from games where over = 0 and remind_at <= ? and due_at > ? "
                              "order by created_at, game_id", [now_utc, now_utc])
    return [r[0] for r in rows]


def watched_games(store: Store) -> list[str]:
    """The running games the club looks at in every tick (:func:`pbem.store.clubstate.watched`)."""
    rows = store.conn.execute("select game_id from games where over = 0 and watch = 1 order by created_at, game_id")
    return [r[0] for r in rows]


def games_of_address(store: Store, address: str, running: bool = True,
                     registered: bool = False) -> list[tuple[str, str]]:
    """``(game, seat)`` pairs the address plays, by the index (running games only by default;
    ``registered``: only where it is the seat's registered address), in the order of the
    games' creation and of the seats."""
    sql = ("select a.game_id, a.seat from seat_addresses a join games g on g.game_id = a.game_id "
           "where a.address = ?" + (" and g.over = 0" if running else "") + (" and a.registered = 1" if registered else "")
           + " order by g.created_at, g.game_id, a.position")
    return [(r[0], r[1]) for r in store.conn.execute(sql, [address.strip().lower()])]


# -- checking ----------------------------------------------------------------------------------
def check(store: Store, game: Game) -> list[str]:
    """How the stored projections of ``game`` (folded from its whole log) differ from what
    they should be: one line per difference (empty: all agree)."""
    from pbem.store import heads
    from pbem.store.events import text_digest

    out = []
    row = store.game_row(game.game_id) or {}
    want = {**due_fields(store, game), **games_fields(game, text_digest(canonical_json(game.state), game.seed,
                                                                         game.digest_scheme))}
    for key, value in want.items():
        if row.get(key) != value:
            out.append(f"{key}: stored {row.get(key)!r}, the log gives {value!r}")
    head = heads.read(store, game.game_id, game.seed)
    if head is None:
        out.append("head: missing or not usable (the game is replayed on every load)")
    elif (heads.ordered_text(head.state) != heads.ordered_text(game.state)  # the same keys in the same order
          or heads.encode(heads.book_of(head, None)) != heads.encode(heads.book_of(game, None))):
        out.append("head: differs from the replay")
    before = [tuple(r) for r in store.conn.execute("select address, seat, registered, position from seat_addresses "
                                                   "where game_id = ? order by address, seat", [game.game_id])]
    wanted = address_rows(game)
    if before != wanted:
        out.append("seat addresses: differ from the log")
    return out


def rebuild(store: Store, games: Iterable[Game]) -> None:
    """Derive every projection of ``games`` again (inside the caller's transaction)."""
    for game in games:
        project(store, game)


def repair_games(service: Any, game_id: str | None = None,
                 write: bool = True) -> tuple[int, list[tuple[str, list[str]]]]:
    """:func:`repair` of ``game_id`` (an unknown one is a one-line :class:`DomainError`), or of
    every game of the store: how many games were checked, and the differences found."""
    game_ids = [game_id] if game_id else service.store.game_ids()
    if game_id:
        service.store.require_game(game_id)
    return len(game_ids), repair(service, game_ids, write)


def repair(service: Any, game_ids: list[str], write: bool) -> list[tuple[str, list[str]]]:
    """Check every projection of each game of ``game_ids`` against a replay of its whole log
    (no cache used) and, when ``write``, derive again those that differ, each game in a
    transaction of its own. Returns ``(game, differences)`` for every game that had any (a game
    that cannot be replayed is named with why)."""
    from pbem.errors import DomainError
    from pbem.store.events import ReplayMismatch, SeedUnknown, fold

    store = service.store
    out = []
    for game_id in game_ids:
        with store.transaction() if write else _nothing():
            seed, credentials = store.secrets(game_id)
            try:
                game = fold(game_id, store.events(game_id), seed)
            except SeedUnknown:
                row = store.game_row(game_id) or {}
                if any(row.get(k) for k in ("due_at", "remind_at", "ready")) or row.get("index_seq") != store.last_seq(game_id):
                    out.append((game_id, ["due index: set for a game that cannot be replayed here"]))
                    if write:
                        unreplayable(store, game_id)
                continue
            except (ReplayMismatch, DomainError) as exc:
                out.append((game_id, [f"cannot be replayed: {exc}"]))
                continue
            for name, cred in credentials.items():
                if name in game.seats:
                    game.seats[name].update(cred)
            problems = check(store, game)
            if problems:
                out.append((game_id, problems))
                if write:
                    project(store, game)
    return out


def _nothing() -> Any:
    from contextlib import nullcontext

    return nullcontext()


def final_winner(game: Game) -> str | None:
    """The winner of a game that is over: the engine's, or the seat a game the players ended
    was conceded to (:mod:`pbem.club.endings`; a draw has none)."""
    if game.club.ended is not None:
        from pbem.store.clubstate import winner

        return winner(game)
    return game.engine.winner(game.state)
