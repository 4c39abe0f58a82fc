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

import json
from collections.abc import Sequence
from contextlib import nullcontext
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from adjudicator.base import canonical_json
from pbem.errors import ConflictError, DomainError
# the events, their chain and the SQLite file are the store's API too: importable from here
from pbem.store.chain import (GENESIS, AppendResult, NewEvent, StoredEvent, event_hash,  # noqa: F401
                             normal, row_event, verify_chain, with_text)
from pbem.store.connection import (Clock, Connection, NoDatabase, StoreBusy, busy_error,  # noqa: F401
                                   busy_timeout, is_lock_error, iso)


def utc_now() -> datetime:
    """The real clock (the only place pbem reads the time by default)."""
    return datetime.now(timezone.utc)


class Store(Connection):
    """The SQLite event store of one pbem database."""

    def __init__(self, path: str | Path, clock: Clock = utc_now, readonly: bool = False) -> None:
        super().__init__(path, clock, readonly)

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

    def find_key(self, key: str) -> StoredEvent | None:
        """The event recorded under idempotency ``key``, if any."""
        rows = self.rows("select * from events where key = ?", [key])
        return row_event(rows[0]) if rows else None

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
        payload = normal(ev.payload)  # as it is read back (JSON types only)
        text = canonical_json(payload)
        digest = event_hash(game_id, seq, ev.type, ev.version, payload, recorded_at, prev_hash, text)
        self._insert_row("events", {
            "game_id": game_id, "seq": seq, "type": ev.type, "version": ev.version,
            "payload": text, "recorded_at": recorded_at,
            "prev_hash": prev_hash, "hash": digest, "key": ev.key,
        })
        return with_text(StoredEvent(game_id, seq, ev.type, ev.version, payload, recorded_at, prev_hash, digest, ev.key),
                          text)

    def events(self, game_id: str, after: int = 0, until: int | None = None) -> list[StoredEvent]:
        """The events of ``game_id`` in sequence order (``after`` < seq <= ``until``)."""
        sql = "select * from events where game_id = ? and seq > ?"
        params: list[Any] = [game_id, after]
        if until is not None:
            sql += " and seq <= ?"
            params.append(until)
        return [row_event(r) for r in self.rows(sql + " order by seq", params)]

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
