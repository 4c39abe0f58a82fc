"""The outbox as a work queue: leases, retries with backoff, permanent failures.

A sender *claims* one message at a time: inside a write transaction it picks the first
message that is unsent, not failed, due (its backoff has passed) and not leased by a live
sender, and writes its lease (owner and expiry) on it. Concurrent senders therefore never
take the same message. A lease ends when the message is marked sent or failed; a lease
whose owner died (its expiry passed, or its process is gone on this host) may be taken
over, and the new owner logs that this one message may reach its recipient twice.

A failed attempt is *temporary* (4xx, a broken connection: tried again after a backoff
that doubles each time, until :attr:`RetryPolicy.max_attempts`) or *permanent* (5xx, an
address that cannot be put in ``RCPT TO``): the message is marked failed at once and the
address is listed in ``delivery_problems``, which ``pbem status`` shows to the GM.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbem.store.db import Store, iso

# logging, socket and secrets are imported where a send run needs them: ``pbem status`` reads
# the outbox's delivery problems through this module and needs none of them


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how soon a temporarily failing message is tried again."""

    max_attempts: int = 8
    backoff: timedelta = timedelta(minutes=5)
    max_backoff: timedelta = timedelta(hours=6)
    lease: timedelta = timedelta(minutes=10)

    def delay(self, attempts: int) -> timedelta:
        """The wait after the ``attempts``-th failed attempt (5 min, 10, 20, ... capped)."""
        return min(self.backoff * (2 ** max(attempts - 1, 0)), self.max_backoff)


@dataclass(frozen=True)
class Claim:
    """A message this sender holds the lease of; ``taken_over``: a dead sender held it."""

    row: dict[str, Any]
    owner: str
    taken_over: bool = False


def new_owner() -> str:
    """A lease owner name: host, process id and a random part (unique per run)."""
    import secrets
    import socket

    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def _owner_dead(owner: str) -> bool:
    """True when ``owner`` was a process of this host that no longer runs."""
    import socket

    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # exists but not ours (EPERM)
        return False
    return False


def _now(store: Store) -> datetime:
    return store.clock()


def due(store: Store, now_all: bool = False) -> list[dict[str, Any]]:
    """The messages a sender would try now, in queue order (leases ignored); their
    ``message`` as stored (packed: see :func:`pbem.store.mailpack.unpack`). ``now_all``: also
    those waiting for their retry (the GM's ``pbem send --now``)."""
    if now_all:
        return list(store.db.query("select * from outbox where sent_at is null and failed_at is null order by id"))
    sql = ("select * from outbox where sent_at is null and failed_at is null "
           "and (next_attempt_at is null or next_attempt_at <= ?) order by id")
    return store.rows(sql, [iso(_now(store))])


def any_due(store: Store) -> bool:
    """True when a sender would try a message now (one index look-up)."""
    sql = ("select 1 from outbox where sent_at is null and failed_at is null "
           "and (next_attempt_at is null or next_attempt_at <= ?) limit 1")
    return store.conn.execute(sql, [iso(_now(store))]).fetchone() is not None


def claim_next(store: Store, owner: str, policy: RetryPolicy, skip: set[int], now_all: bool = False) -> Claim | None:
    """Lease the first due message not held by a live sender (and not in ``skip``);
    ``now_all``: a message waiting for its retry is due too."""
    with store.transaction():
        now = _now(store)
        for row in due(store, now_all):
            if row["id"] in skip:
                continue
            held = row["lease_owner"]
            if held and held != owner and row["lease_until"] > iso(now) and not _owner_dead(held):
                continue
            store.conn.execute("update outbox set lease_owner = ?, lease_until = ? where id = ?",
                             [owner, iso(now + policy.lease), row["id"]])
            if held and held != owner:
                import logging

                logging.getLogger("pbem.deliver").warning(
                    "outbox %s to %s: the send run %s stopped while sending it; sending it again, "
                    "so it may reach %s twice", row["id"], row["to_addr"], held, row["to_addr"])
            from pbem.store.mailpack import unpack_row

            return Claim(unpack_row(store.conn, row), owner, taken_over=bool(held and held != owner))
    return None


def mark_sent(store: Store, claim: Claim) -> None:
    """The server (or Maildir) accepted the message: record it and end the lease."""
    with store.transaction():
        store.conn.execute("update outbox set sent_at = ?, lease_owner = null, lease_until = null, "
                         "next_attempt_at = null where id = ?", [store.now(), claim.row["id"]])


def mark_temporary(store: Store, claim: Claim, error: str, policy: RetryPolicy) -> bool:
    """A temporary failure: count it and schedule the next attempt after the backoff.

    Returns True when this was the last allowed attempt (the message is now failed)."""
    attempts = int(claim.row["attempts"] or 0) + 1
    if attempts >= policy.max_attempts:
        mark_permanent(store, claim, f"{error} (gave up after {attempts} attempts)", attempts)
        return True
    with store.transaction():
        store.conn.execute("update outbox set attempts = ?, last_error = ?, next_attempt_at = ?, lease_owner = null, "
                         "lease_until = null where id = ?",
                         [attempts, error[:500], iso(_now(store) + policy.delay(attempts)), claim.row["id"]])
    return False


def mark_permanent(store: Store, claim: Claim, error: str, attempts: int | None = None) -> None:
    """A permanent failure: the message is failed (never retried) and its address listed."""
    row = claim.row
    with store.transaction():
        store.conn.execute("update outbox set attempts = ?, last_error = ?, failed_at = ?, lease_owner = null, "
                         "lease_until = null where id = ?",
                         [attempts if attempts is not None else int(row["attempts"] or 0) + 1, error[:500],
                          store.now(), row["id"]])
        add_problem(store, row["to_addr"], row["game_id"], "smtp", error, outbox_id=row["id"])


def release(store: Store, claim: Claim, error: str) -> None:
    """Give the message back without counting an attempt (the server was unreachable)."""
    with store.transaction():
        store.conn.execute("update outbox set last_error = ?, lease_owner = null, lease_until = null where id = ?",
                         [error[:500], claim.row["id"]])


def retry_failed(store: Store, ids: list[int] | None = None) -> int:
    """Queue failed messages again (all, or ``ids``): the GM fixed the cause."""
    sql = "update outbox set failed_at = null, attempts = 0, next_attempt_at = null where failed_at is not null"
    params: list[Any] = []
    if ids:
        sql += f" and id in ({','.join('?' * len(ids))})"
        params = list(ids)
    with store.transaction():
        return int(store.conn.execute(sql, params).rowcount)


# -- addresses that fail -----------------------------------------------------------------------
def seat_of(store: Store, game_id: str | None, address: str) -> tuple[str | None, str | None]:
    """``(game, seat)`` whose registered address is ``address`` (the game given, else any),
    read from the GameCreated and SeatChanged events (no replay)."""
    if game_id:
        ids = [game_id]
    else:  # the games the address index names (and any whose index is behind its log)
        from pbem.store import projection

        named = {g for g, _ in projection.games_of_address(store, address, running=False)}
        named |= set(projection.stale_games(store))
        ids = [g for g in store.game_ids() if g in named]
    for gid in ids:
        emails: dict[str, str] = {}
        for ev in store.events(gid or ""):
            if ev.type == "GameCreated":
                emails = {s["name"]: str(s.get("email", "")) for s in ev.payload.get("seats", [])}
            elif ev.type == "SeatChanged" and "email" in ev.payload:
                emails[ev.payload["seat"]] = str(ev.payload["email"])
        for seat, email in emails.items():
            if email.lower() == address.lower():
                return gid, seat
    return game_id, None


def add_problem(store: Store, address: str, game_id: str | None, source: str, error: str,
                outbox_id: int | None = None, mail_key: str | None = None) -> None:
    """Record that mail to ``address`` fails (inside or outside a transaction)."""
    gid, seat = seat_of(store, game_id, address)
    with store.transaction():
        store._insert_row("delivery_problems", {
            "address": address, "game_id": gid, "seat": seat, "source": source, "error": error[:500],
            "outbox_id": outbox_id, "mail_key": mail_key, "at": store.now()})


def problems(store: Store, game_id: str | None = None, addresses: Collection[str] | None = None,
             over: bool = False) -> list[dict[str, Any]]:
    """The failing addresses (latest problem per address and game), for ``status``: only
    those that still matter. A problem is over once a message to that address was delivered
    after it, once the game is ``over``, and (given the game's current seat ``addresses``)
    once the address is no seat's any more (the seat was given another player or address)."""
    if over:
        return []
    sql = ("select address, game_id, seat, source, error, at, count(*) as count from delivery_problems "
           + ("where game_id = ? " if game_id else "") + "group by address, game_id order by max(id)")
    rows = store.conn.execute(sql, [game_id] if game_id else []).fetchall()
    current = {a.lower() for a in addresses} if addresses is not None else None
    out = []
    for address, gid, seat, source, _error, _at, count in rows:
        if current is not None and address.lower() not in current:
            continue
        last = store.conn.execute("select error, at, source, outbox_id from delivery_problems where address = ? "
                                "and coalesce(game_id, '') = coalesce(?, '') order by id desc limit 1",
                                [address, gid]).fetchone()
        at = last[1] if last else ""
        if _delivered_since(store, address, at, last[3] if last else None):
            continue  # the address works again
        out.append({"address": address, "game": gid, "seat": seat, "source": last[2] if last else source,
                    "error": last[0] if last else "", "at": at, "count": count})
    return out


def _delivered_since(store: Store, address: str, at: str, outbox_id: int | None) -> bool:
    """Whether a message to ``address`` was delivered after the problem recorded ``at`` (for
    message ``outbox_id``): sent in a later second, or in the same second by the same run
    after that message (a run sends in id order; the message itself, sent again, counts)."""
    sql = ("select 1 from outbox where lower(to_addr) = lower(?) and (sent_at > ? "
           "or (sent_at = ? and ? is not null and id >= ?)) limit 1")
    return store.conn.execute(sql, [address, at, at, outbox_id, outbox_id]).fetchone() is not None


def as_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """The GM-facing fields of an outbox row."""
    return {"id": row["id"], "game": row["game_id"], "to": row["to_addr"], "subject": row["subject"],
            "kind": row["kind"], "created": row["created_at"], "sent": row["sent_at"],
            "attempts": row["attempts"], "last_error": row["last_error"],
            "failed": row.get("failed_at"), "next_attempt": row.get("next_attempt_at")}
