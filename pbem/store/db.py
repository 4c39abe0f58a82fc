"""The event store: one SQLite file (via sqlite-utils), append-only events per game.

- ``events``: per game a gap-free sequence ``seq`` (1, 2, ...), a stable ``type`` name and
  ``version``, a canonical-JSON ``payload``, the recording time (from the injected clock),
  the hash of the previous event of the same game and the event's own hash (a chain, so a
  tampered, reordered or truncated log is detected by :meth:`Store.verify`), and an
  optional idempotency ``key`` (unique across the store: the same mail twice is one event).
- ``outbox``: mail to send, written in the same transaction as the events that cause it.
- ``mails``: the raw bytes of every inbound mail, keyed by Message-ID + body hash.
- ``games``: a projection (id, game, status) kept in step with the events, so that
  listing games never replays them.

Appends run in ``BEGIN IMMEDIATE`` transactions (one writer at a time, across processes)
and take the sequence number the writer last saw (optimistic concurrency): a stale writer
gets :class:`ConflictError`, never a silent overwrite. A writer waits for the lock up to the
busy timeout (``PBEM_BUSY_TIMEOUT`` seconds, default 30), then gets :class:`StoreBusy` (one
line, exit status 1). A read-only store (``Store(path, readonly=True)``: status, show, log,
outbox, report, replay, export) never takes the write lock and never creates a database.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from adjudicator.base import canonical_json
from pbem.errors import ConflictError, DomainError
from pbem.store.migrations import behind, migrate

if TYPE_CHECKING:
    import sqlite_utils

Clock = Callable[[], datetime]
GENESIS = "0" * 64


class StoreBusy(DomainError):
    """Another pbem command held the database's write lock for longer than the busy timeout."""


class NoDatabase(DomainError):
    """A read-only command was pointed at a database that does not exist."""


def busy_timeout() -> float:
    """Seconds a writer waits for the write lock (env ``PBEM_BUSY_TIMEOUT``, default 30)."""
    try:
        return max(0.0, float(os.environ.get("PBEM_BUSY_TIMEOUT", "30")))
    except ValueError:
        return 30.0


def is_lock_error(exc: BaseException) -> bool:
    """True for SQLite's 'database is locked' / 'busy' errors (a lock wait that timed out)."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def busy_error(path: str) -> StoreBusy:
    """The one-line error of a lock wait that timed out."""
    return StoreBusy(f"the database {path} is busy: another pbem command kept its write lock for more "
                     f"than {busy_timeout():g} s; try again (or raise PBEM_BUSY_TIMEOUT)")


def utc_now() -> datetime:
    """The real clock (the only place pbem reads the time by default)."""
    return datetime.now(timezone.utc)


def iso(moment: datetime) -> str:
    """ISO-8601 text of an aware datetime, in UTC, seconds precision."""
    return moment.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class NewEvent:
    """An event to append: type, payload and an optional idempotency key."""

    type: str
    payload: dict[str, Any]
    version: int = 1
    key: str | None = None


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: dict[str, Any]
    recorded_at: str
    prev_hash: str
    hash: str
    key: str | None = None
    #: the payload's canonical JSON as stored, set by the store that read or wrote the event
    #: (``None`` otherwise, and in a copy made by ``dataclasses.replace``): a replay checks the
    #: derived events against it without encoding them again (:mod:`pbem.store.events`)
    text: str | None = field(default=None, init=False, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the event."""
        return {"game": self.game_id, "seq": self.seq, "type": self.type, "version": self.version,
                "payload": self.payload, "recorded_at": self.recorded_at,
                "prev_hash": self.prev_hash, "hash": self.hash, "key": self.key}


def event_hash(game_id: str, seq: int, type_: str, version: int, payload: Any,
               recorded_at: str, prev_hash: str, payload_text: str | None = None) -> str:
    """The chain hash of one event: SHA-256 of the canonical JSON of all its fields.
    ``payload_text``: ``canonical_json(payload)`` when it is made already."""
    body = {"game": game_id, "seq": seq, "type": type_, "version": version,
            "payload": None if payload_text is not None else payload, "recorded_at": recorded_at,
            "prev_hash": prev_hash}
    text = canonical_json(body)
    if payload_text is not None:  # the same bytes: a key's value is encoded on its own, and
        # '"payload":null' can only be that key (a quote inside a JSON string is escaped)
        text = text.replace('"payload":null', '"payload":' + payload_text, 1)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class AppendResult:
    """What an append did: the events now recorded for it, and whether they are new."""

    events: list[StoredEvent] = field(default_factory=list)
    duplicate: bool = False


class Store:
    """The SQLite event store of one pbem database."""

    def __init__(self, path: str | Path, clock: Clock = utc_now, readonly: bool = False) -> None:
        self.path = str(path)
        self.clock = clock
        self.readonly = readonly and self.path != ":memory:"
        self._relaxed = False
        self._depth = 0  # nesting of transaction() inside the open one (savepoints)
        if self.readonly and not Path(self.path).is_file():
            raise NoDatabase(f"no pbem database at {self.path}: run this where your pbem.db is, or give "
                             "--db PATH (or set PBEM_DB); nothing was created")
        self._db: sqlite_utils.Database | None = None
        try:
            self.conn = self._open()
            if self.readonly and behind(self.conn):  # an older schema: upgrade it once, then read
                self.conn.close()
                self._open(write=True).close()
                self.conn = self._open()
        except sqlite3.OperationalError as exc:
            self._refuse(exc)
            raise

    def _refuse(self, exc: sqlite3.OperationalError) -> None:
        """Raise the one-line error for a locked file or a database that cannot be opened (no
        such directory, not writable); return for any other error (the caller re-raises it)."""
        if is_lock_error(exc):
            raise busy_error(self.path) from None
        if "unable to open" in str(exc):  # no such directory, or not writable
            parent = Path(self.path).parent
            why = f"the directory {parent} does not exist" if not parent.is_dir() else str(exc)
            raise DomainError(f"cannot open or create the database {self.path}: {why}") from None

    @property
    def db(self) -> sqlite_utils.Database:
        """The connection wrapped by sqlite-utils (its table API), made on first use: importing
        sqlite-utils (which imports numpy when installed) costs more than a ``pbem status``
        needs, and the store's own queries use :attr:`conn` directly."""
        if self._db is None:
            import sqlite_utils

            self._db = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._db

    def _open(self, write: bool = False) -> sqlite3.Connection:
        """A connection (read-only unless ``write`` or this is a writing store), migrated."""
        timeout = busy_timeout()
        if self.readonly and not write:
            uri = "file:" + quote(Path(self.path).resolve().as_posix()) + "?mode=ro"
            conn = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
        else:
            conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        if self.readonly and not write:
            return conn
        if self.path != ":memory:" and conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = wal")  # only when not yet in WAL mode (no lock)
        if behind(conn):
            import sqlite_utils

            migrate(sqlite_utils.Database(conn, execute_plugins=False))
        return conn

    def now(self) -> str:
        """The injected clock's time as ISO text."""
        return iso(self.clock())

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    @contextmanager
    def transaction(self) -> Iterator[Store]:
        """One write transaction (``BEGIN IMMEDIATE``); nested calls become savepoints."""
        conn = self.conn
        if conn.in_transaction:
            self._depth += 1
            name = f"pbem_{self._depth}"
            conn.execute(f"SAVEPOINT {name}")
            try:
                yield self
            except BaseException:
                if conn.in_transaction:
                    conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                    conn.execute(f"RELEASE SAVEPOINT {name}")
                raise
            else:
                conn.execute(f"RELEASE SAVEPOINT {name}")
            finally:
                self._depth -= 1
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            self._refuse(exc)
            raise
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    @contextmanager
    def group_commit(self) -> Iterator[Store]:
        """Commits inside do not wait for the disk; on leaving, all of them are made durable.

        A commit normally waits for an fsync of the write-ahead log (``synchronous=FULL``),
        which costs more than processing a mail. Inside this block the connection runs with
        ``synchronous=NORMAL``: each transaction is still atomic and the database consistent
        after a crash at any point (WAL), but a power cut may undo the last commits; leaving
        the block fsyncs the WAL, so whatever the caller does next (flag or move mails, exit
        to procmail) happens only after every commit in the block is on disk. Nested blocks
        leave that to the outermost one; outside WAL mode (``:memory:``) it changes nothing."""
        conn = self.conn
        if self._relaxed or self.readonly or self.path == ":memory:":
            yield self
            return
        before = int(conn.execute("PRAGMA synchronous").fetchone()[0])
        self._relaxed = True
        conn.execute("PRAGMA synchronous = NORMAL")
        try:
            yield self
        finally:
            self._relaxed = False
            conn.execute(f"PRAGMA synchronous = {before}")
            self._sync_wal()

    def _sync_wal(self) -> None:
        """fsync the write-ahead log: every transaction committed so far becomes durable (a
        checkpoint already synced what it moved to the database file)."""
        try:
            fd = os.open(self.path + "-wal", os.O_RDONLY)
        except FileNotFoundError:
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    # -- events ----------------------------------------------------------------------
    def last_seq(self, game_id: str) -> int:
        """The highest sequence number of ``game_id`` (0 when it has no events)."""
        row = self.conn.execute("select max(seq) from events where game_id = ?", [game_id]).fetchone()
        return int(row[0] or 0)

    def log_head(self, game_id: str) -> tuple[int, str]:
        """``(last seq, its hash)`` of ``game_id``: ``(0, GENESIS)`` when it has no events."""
        row = self.conn.execute("select seq, hash from events where game_id = ? order by seq desc limit 1",
                                [game_id]).fetchone()
        return (int(row[0]), row[1]) if row else (0, GENESIS)

    def _last_hash(self, game_id: str) -> str:
        row = self.conn.execute("select hash from events where game_id = ? order by seq desc limit 1",
                              [game_id]).fetchone()
        return row[0] if row else GENESIS

    def event_hash(self, game_id: str, seq: int) -> str | None:
        """The hash of event ``seq`` of ``game_id`` (None if there is no such event)."""
        row = self.conn.execute("select hash from events where game_id = ? and seq = ?", [game_id, seq]).fetchone()
        return row[0] if row else None

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of one SELECT as dicts (plain sqlite3: no savepoint or schema look-up per
        query, which sqlite-utils' ``query`` adds and ingest cannot afford on every mail)."""
        cursor = self.conn.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def _insert_row(self, table: str, row: dict[str, Any]) -> int:
        """INSERT one row (the table and its columns exist: pbem.store.migrations); its rowid."""
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        cursor = self.conn.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks})', list(row.values()))
        return int(cursor.lastrowid or 0)

    def _upsert_row(self, table: str, pk: str, row: dict[str, Any]) -> None:
        """INSERT one row, or UPDATE the given columns of the row with the same ``pk``."""
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        sets = ", ".join(f'"{c}" = excluded."{c}"' for c in row if c != pk)
        self.conn.execute(f'INSERT INTO "{table}" ({columns}) VALUES ({marks}) '
                             f'ON CONFLICT("{pk}") DO UPDATE SET {sets}', list(row.values()))

    def find_key(self, key: str) -> StoredEvent | None:
        """The event recorded under idempotency ``key``, if any."""
        rows = self.rows("select * from events where key = ?", [key])
        return _row_event(rows[0]) if rows else None

    def append(self, game_id: str, events: Sequence[NewEvent], expected_seq: int | None) -> AppendResult:
        """Append ``events`` atomically after ``expected_seq`` (``None``: don't check).

        If the first event's idempotency key is already recorded, nothing is written and
        the result is marked ``duplicate``. A ``expected_seq`` that is not the game's last
        sequence number raises :class:`ConflictError`.
        """
        # one event inside the caller's transaction needs no savepoint of its own: its one
        # INSERT is atomic, and nothing is written before it
        with self.transaction() if len(events) > 1 or not self.conn.in_transaction else nullcontext():
            if events and events[0].key is not None:
                existing = self.find_key(events[0].key)
                if existing is not None:
                    return AppendResult([existing], duplicate=True)
            last, prev = self.log_head(game_id)
            if expected_seq is not None and expected_seq != last:
                raise ConflictError(f"game {game_id}: expected to append after event {expected_seq}, "
                                    f"but the log is at {last}; reload and try again")
            out: list[StoredEvent] = []
            for ev in events:
                last += 1
                stored = self._insert(game_id, last, ev, prev)
                prev = stored.hash
                out.append(stored)
            return AppendResult(out)

    def _insert(self, game_id: str, seq: int, ev: NewEvent, prev_hash: str) -> StoredEvent:
        recorded_at = self.now()
        payload = _normal(ev.payload)  # as it is read back (JSON types only)
        text = canonical_json(payload)
        digest = event_hash(game_id, seq, ev.type, ev.version, payload, recorded_at, prev_hash, text)
        self._insert_row("events", {
            "game_id": game_id, "seq": seq, "type": ev.type, "version": ev.version,
            "payload": text, "recorded_at": recorded_at,
            "prev_hash": prev_hash, "hash": digest, "key": ev.key,
        })
        return _with_text(StoredEvent(game_id, seq, ev.type, ev.version, payload, recorded_at, prev_hash, digest, ev.key),
                          text)

    def events(self, game_id: str, after: int = 0, until: int | None = None) -> list[StoredEvent]:
        """The events of ``game_id`` in sequence order (``after`` < seq <= ``until``)."""
        sql = "select * from events where game_id = ? and seq > ?"
        params: list[Any] = [game_id, after]
        if until is not None:
            sql += " and seq <= ?"
            params.append(until)
        return [_row_event(r) for r in self.rows(sql + " order by seq", params)]

    def verify(self, game_id: str) -> list[str]:
        """Every break in ``game_id``'s hash chain (empty list: the log is intact)."""
        return verify_chain(self.events(game_id), game_id, self.game_head(game_id))

    def game_head(self, game_id: str) -> tuple[int, str] | None:
        """The (last seq, last hash) recorded in the games projection, to detect truncation."""
        rows = self.rows("select last_seq, last_hash from games where game_id = ?", [game_id])
        return (rows[0]["last_seq"], rows[0]["last_hash"]) if rows and rows[0]["last_seq"] else None

    # -- games projection -------------------------------------------------------------
    def upsert_game(self, game_id: str, **fields: Any) -> None:
        """Update the games projection row of ``game_id`` (inside the caller's transaction)."""
        if "last_seq" not in fields or "last_hash" not in fields:
            fields["last_seq"], fields["last_hash"] = self.log_head(game_id)
        self._upsert_row("games", "game_id", {"game_id": game_id, **fields})

    def game_row(self, game_id: str) -> dict[str, Any] | None:
        """The projection row of ``game_id``, or ``None`` if there is no such game."""
        rows = self.rows("select * from games where game_id = ?", [game_id])
        return rows[0] if rows else None

    def game_ids(self) -> list[str]:
        """All game ids, in creation order."""
        return [r["game_id"] for r in self.rows("select game_id from games order by created_at, game_id")]

    def require_game(self, game_id: str) -> dict[str, Any]:
        """The projection row of ``game_id``; a :class:`DomainError` if there is none."""
        row = self.game_row(game_id)
        if row is None:
            raise DomainError(f"no game {game_id!r} in {self.path}")
        return row

    # -- snapshots (a cache, never the truth) ---------------------------------------------
    def snapshot(self, game_id: str) -> tuple[int, Any] | None:
        """The latest cached ``(seq, state)`` of a game, if any."""
        rows = self.rows("select seq, state from snapshots where game_id = ? order by seq desc limit 1", [game_id])
        return (rows[0]["seq"], json.loads(rows[0]["state"])) if rows else None

    # -- secrets (not part of the log) ----------------------------------------------------
    def put_secrets(self, game_id: str, seed: str, credentials: dict[str, Any]) -> None:
        """Keep a game's seed and its seats' password hashes (inside the caller's transaction)."""
        self._upsert_row("secrets", "game_id",
                         {"game_id": game_id, "seed": seed, "credentials": canonical_json(credentials)})

    def secrets(self, game_id: str) -> tuple[str | None, dict[str, Any]]:
        """``(seed, credentials)`` of a game; ``(None, {})`` for an imported game without them."""
        rows = self.rows("select seed, credentials from secrets where game_id = ?", [game_id])
        if not rows:
            return None, {}
        return rows[0]["seed"], json.loads(rows[0]["credentials"] or "{}")

    # -- inbound mail ------------------------------------------------------------------
    def put_mail(self, key: str, raw: bytes, message_id: str | None, sender: str | None) -> bool:
        """Keep the raw bytes of an inbound mail; ``False`` if ``key`` was already kept (one
        statement: the key is the table's primary key)."""
        cursor = self.conn.execute(
            'INSERT INTO "mails" ("key", "message_id", "sender", "raw", "received_at", "status") '
            "VALUES (?, ?, ?, ?, ?, 'new') ON CONFLICT(\"key\") DO NOTHING",
            [key, message_id, sender, raw, self.now()])
        return cursor.rowcount == 1

    def set_mail_status(self, key: str, status: str, note: str = "") -> None:
        """Record what became of an inbound mail (accepted, rejected, ignored...)."""
        self.conn.execute("update mails set status = ?, note = ? where key = ?", [status, note, key])

    # -- outbox ------------------------------------------------------------------------
    def enqueue(self, game_id: str | None, to: str, subject: str, message: bytes,
                kind: str, message_id: str, cause_seq: int | None = None, stored: bytes | None = None) -> int:
        """Queue one outgoing message (call inside the transaction that causes it); ``stored``:
        its stored form made already (:func:`pbem.store.mailpack.pack_text`), ``message`` unused."""
        if stored is None:
            from pbem.store.mailpack import pack

            stored = pack(self.conn, message)
        return self._insert_row("outbox", {
            "game_id": game_id, "to_addr": to, "subject": subject, "message": stored,
            "kind": kind, "message_id": message_id, "cause_seq": cause_seq, "created_at": self.now(),
            "sent_at": None, "attempts": 0, "last_error": None})

    def outbox(self, unsent_only: bool = False) -> list[dict[str, Any]]:
        """Queued messages in order (``unsent_only``: those not yet delivered)."""
        from pbem.store.mailpack import unpack_row

        sql = "select * from outbox" + (" where sent_at is null" if unsent_only else "") + " order by id"
        return [unpack_row(self.conn, row) for row in self.rows(sql)]

    def mark_sent(self, outbox_id: int) -> None:
        """Record that a message was delivered."""
        with self.transaction():
            self.db["outbox"].update(outbox_id, {"sent_at": self.now()})

    def mark_failed(self, outbox_id: int, error: str) -> None:
        """Record a failed delivery attempt (it stays queued)."""
        with self.transaction():
            row = self.db["outbox"].get(outbox_id)
            self.db["outbox"].update(outbox_id, {"attempts": row["attempts"] + 1, "last_error": error[:500]})


def verify_chain(events: Sequence[StoredEvent], game_id: str,
                 head: tuple[int, str] | None = None) -> list[str]:
    """Check a game's events: gap-free sequence, each hash right, each linked to the last."""
    problems: list[str] = []
    prev = GENESIS
    for expected, ev in enumerate(events, start=1):
        if ev.seq != expected:
            problems.append(f"event {expected}: missing or out of order (found seq {ev.seq})")
        if ev.prev_hash != prev:
            problems.append(f"event {ev.seq}: does not follow the event before it (reordered or removed)")
        digest = event_hash(game_id, ev.seq, ev.type, ev.version, ev.payload, ev.recorded_at, ev.prev_hash)
        if digest != ev.hash:
            problems.append(f"event {ev.seq} ({ev.type}): content does not match its hash (tampered)")
        prev = ev.hash
    if head is not None and events and (events[-1].seq, events[-1].hash) != head:
        problems.append(f"log ends at event {events[-1].seq} but event {head[0]} was recorded (truncated)")
    if head is not None and not events:
        problems.append(f"log is empty but event {head[0]} was recorded (truncated)")
    return problems


def _normal(payload: dict[str, Any]) -> dict[str, Any]:
    return json.loads(canonical_json(payload))  # type: ignore[no-any-return]


def _row_event(row: dict[str, Any]) -> StoredEvent:
    return _with_text(StoredEvent(row["game_id"], row["seq"], row["type"], row["version"], json.loads(row["payload"]),
                                  row["recorded_at"], row["prev_hash"], row["hash"], row["key"]), row["payload"])


def _with_text(event: StoredEvent, text: str) -> StoredEvent:
    """``event`` with :attr:`StoredEvent.text` set to its payload's stored JSON."""
    object.__setattr__(event, "text", text)
    return event
