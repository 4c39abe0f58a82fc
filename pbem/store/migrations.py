"""Schema migrations, applied in order; each runs once per database.

A migration is a function of the sqlite-utils ``Database``. Add new ones at the end of
:data:`MIGRATIONS`; never edit one that has shipped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported by the caller only when a migration must run (it is slow to import)
    import sqlite_utils


def _m001_initial(db: sqlite_utils.Database) -> None:
    db["events"].create({
        "id": int, "game_id": str, "seq": int, "type": str, "version": int, "payload": str,
        "recorded_at": str, "prev_hash": str, "hash": str, "key": str,
    }, pk="id", not_null={"game_id", "seq", "type", "version", "payload", "recorded_at", "prev_hash", "hash"})
    db["events"].create_index(["game_id", "seq"], unique=True)
    db["events"].create_index(["key"], unique=True)
    db["games"].create({
        "game_id": str, "engine": str, "created_at": str, "turn": str, "over": int,
        "winner": str, "last_seq": int, "last_hash": str, "state_hash": str, "deadline": str,
    }, pk="game_id")
    db["outbox"].create({
        "id": int, "game_id": str, "to_addr": str, "subject": str, "message": bytes, "kind": str,
        "message_id": str, "cause_seq": int, "created_at": str, "sent_at": str, "attempts": int,
        "last_error": str,
    }, pk="id")
    db["outbox"].create_index(["sent_at"])
    db["mails"].create({
        "key": str, "message_id": str, "sender": str, "raw": bytes, "received_at": str,
        "status": str, "note": str,
    }, pk="key")
    db["snapshots"].create({"game_id": str, "seq": int, "state": str, "state_hash": str},
                           pk=("game_id", "seq"))


def _m002_secrets(db: sqlite_utils.Database) -> None:
    # the seed and the password hashes stay out of the event log, so that an archive can be
    # exported (with its hash chain intact) before the game ends without revealing them
    db["secrets"].create({"game_id": str, "seed": str, "credentials": str}, pk="game_id")


def _m003_send_leases(db: sqlite_utils.Database) -> None:
    # send slice: a lease per outbox message (so concurrent senders never take the same one),
    # the retry schedule, the permanent failure, and the addresses that fail (for `status`)
    for column in ("lease_owner", "lease_until", "next_attempt_at", "failed_at"):
        db["outbox"].add_column(column, str)
    db["delivery_problems"].create({
        "id": int, "address": str, "game_id": str, "seat": str, "source": str, "error": str,
        "outbox_id": int, "mail_key": str, "at": str,
    }, pk="id")
    db["delivery_problems"].create_index(["address"])


def _m004_perfreports_blobs(db: sqlite_utils.Database) -> None:
    # perfreports slice: each picture of the outbox stored once, content-addressed
    # by the SHA-256 of its bytes and referred to from packed outbox messages (pbem.store.mailpack)
    db["blobs"].create({"sha256": str, "data": bytes}, pk="sha256", not_null={"data"})


def _m005_press_log(db: sqlite_utils.Database) -> None:
    # press slice: press between seats (pbem/mailout/press.py), a per-game hash-chained log kept
    # beside the event log (never in it: the event log is published, press is private)
    db["press"].create({
        "id": int, "game_id": str, "seq": int, "key": str, "turn": str, "sender": str, "recipients": str,
        "to_all": int, "grey": int, "text": str, "bytes": int, "mail_key": str, "message_id": str,
        "recorded_at": str, "prev_hash": str, "hash": str,
    }, pk="id", not_null={"game_id", "seq", "key", "sender", "recipients", "text", "prev_hash", "hash"})
    db["press"].create_index(["game_id", "seq"], unique=True)
    db["press"].create_index(["key"], unique=True)


def _m006_history_press_rollbacks(db: sqlite_utils.Database) -> None:
    # trial19 slice: each press row notes how many rollbacks the game had when it was relayed,
    # so that a turn reopened by a rollback counts its press limit afresh (pbem/mailout/press.py)
    db["press"].add_column("rollbacks", int)


def _m007_mail_guard(db: sqlite_utils.Database) -> None:
    # trust-mail slice: what mail made the service do, counted against its limits (pbem/mailin/guard.py):
    # mail commands answered or refused, password resets, wrong passwords and lockouts, replies
    # to mail without a GAME block; and the one-time codes of password resets (hashed)
    db["guard_log"].create({
        "id": int, "at": str, "kind": str, "game_id": str, "seat": str, "address": str, "detail": str,
        "mail_key": str,
    }, pk="id", not_null={"at", "kind"})
    db["guard_log"].create_index(["game_id", "seat", "kind", "at"])
    db["guard_log"].create_index(["address", "kind", "at"])
    db["reset_codes"].create({
        "id": int, "game_id": str, "seat": str, "address": str, "salt": str, "code_hash": str,
        "created_at": str, "expires_at": str, "used_at": str,
    }, pk="id", not_null={"game_id", "seat", "salt", "code_hash", "created_at", "expires_at"})
    db["reset_codes"].create_index(["game_id", "seat"])


def _m008_club_standby(db: sqlite_utils.Database) -> None:
    # club slice: the standby list, players willing to take over a seat (pbem/club/absence.py);
    # a service record, never in the event log
    db["club_standby"].create({"address": str, "game_id": str, "at": str, "how": str},
                              pk=("address", "game_id"), not_null={"address", "game_id", "at"})


def _m009_club_games(db: sqlite_utils.Database) -> None:
    # club slice: observers (their addresses: never in the event log), open games and their
    # seats and waiting lists, seats offered in running games, players' second addresses and
    # the one-time codes that confirm them, the GM's settings of the club (pbem/club/)
    db["club_observers"].create({"game_id": str, "observer": str, "address": str, "since": str, "until": str,
                                 "how": str}, pk=("game_id", "observer"), not_null={"game_id", "observer", "address"})
    db["club_observers"].create_index(["address"])
    db["club_lobby"].create({"game_id": str, "spec": str, "created_at": str, "started_at": str, "cancelled_at": str},
                            pk="game_id", not_null={"spec", "created_at"})
    db["club_lobby_entries"].create({"id": int, "game_id": str, "address": str, "seat": str, "status": str,
                                     "at": str, "how": str}, pk="id", not_null={"game_id", "address", "status"})
    db["club_lobby_entries"].create_index(["game_id"])
    db["club_offers"].create({"game_id": str, "seat": str, "at": str, "taken_at": str, "address": str},
                             not_null={"game_id", "seat", "at"})
    db["club_links"].create({"address": str, "player": str, "confirmed_at": str}, pk="address",
                            not_null={"player"})
    db["club_codes"].create({"id": int, "player": str, "address": str, "salt": str, "code_hash": str,
                             "created_at": str, "expires_at": str, "used_at": str}, pk="id",
                            not_null={"player", "address", "salt", "code_hash", "expires_at"})
    db["club_settings"].create({"key": str, "value": str}, pk="key")


def _m010_due_index_and_heads(db: sqlite_utils.Database) -> None:
    # scale slice: commands over many games find what is due without loading every game.
    # The games projection gains the due index (the pending turn's deadline and reminder time
    # as UTC text, whether all orders are in, whether the club watches it (absent seats, seats the
    # bot plays: pbem/club/hooks.py), and the log sequence number they were derived
    # at: a row whose index_seq is not its log's last seq is stale and derived again);
    # ``heads`` caches each game as folded at its last event (state and bookkeeping), checked
    # against that event's hash; ``turn_history`` the public figures after each adjudicated
    # turn (the charts), so a report does not replay the game; ``seat_addresses`` who plays
    # from an address. All are caches derived from the log in the transaction of its events
    # (pbem/store/projection.py), rebuilt by ``pbem repair``.
    for column, kind in (("due_at", str), ("remind_at", str), ("ready", int), ("watch", int), ("index_seq", int)):
        db["games"].add_column(column, kind)
    db["games"].create_index(["over", "due_at"])
    db["games"].create_index(["over", "remind_at"])
    db["games"].create_index(["over", "ready"])
    db["games"].create_index(["over", "watch"])
    db["heads"].create({"game_id": str, "seq": int, "event_hash": str, "format": int, "state": str,
                        "digest": str, "book": str}, pk="game_id", not_null={"seq", "event_hash", "state", "book"})
    db["turn_history"].create({"game_id": str, "seq": int, "entry": str}, pk=("game_id", "seq"), not_null={"entry"})
    db["seat_addresses"].create({"address": str, "game_id": str, "seat": str, "registered": int, "position": int},
                                pk=("address", "game_id", "seat"))
    db["seat_addresses"].create_index(["game_id"])
    db["outbox"].create_index(["message_id"])
    db["outbox"].create_index(["game_id", "to_addr", "kind"])


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("001_initial", _m001_initial),
    ("002_secrets", _m002_secrets),
    ("003_send_leases", _m003_send_leases),
    ("004_perfreports_blobs", _m004_perfreports_blobs),
    ("005_press_log", _m005_press_log),
    ("006_history_press_rollbacks", _m006_history_press_rollbacks),
    ("007_mail_guard", _m007_mail_guard),
    ("008_club_standby", _m008_club_standby),
    ("009_club_games", _m009_club_games),
    ("010_due_index_and_heads", _m010_due_index_and_heads),
]


def behind(db: sqlite_utils.Database | sqlite3.Connection) -> list[str]:
    """The names of the migrations this database lacks (read without any write lock)."""
    conn = db if isinstance(db, sqlite3.Connection) else db.conn
    try:
        done = {r[0] for r in conn.execute("select name from _migrations")}
    except sqlite3.OperationalError:  # no _migrations table yet: a new database
        done = set()
    return [name for name, _ in MIGRATIONS if name not in done]


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply every migration not yet applied; return the names applied now.

    The write lock is taken only when the schema is behind, so that opening an up-to-date
    database never waits for (or blocks) another writer."""
    if not behind(db):
        return []
    conn = db.conn
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("create table if not exists _migrations (name text primary key, applied_at text)")
        done = {r[0] for r in conn.execute("select name from _migrations")}
        applied = []
        for name, step in MIGRATIONS:
            if name not in done:
                step(db)
                conn.execute("insert into _migrations (name, applied_at) values (?, datetime('now'))", [name])
                applied.append(name)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return applied
