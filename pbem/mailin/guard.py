"""What mail may make the service do: the guard log, its limits, and what the GM is shown.

Anyone can put a player's address in ``From:``. Mail that needs no password (the mail
commands, a password reset) is therefore answered only to the seat's registered address,
and only so often; wrong passwords are counted per seat, and a seat guessed at too often is
locked for mail orders. Each of these is a row of the ``guard_log`` table (kind, game, seat,
address, detail, time from the store's clock), which is both what the limits count and what
``pbem status`` lists for the GM (:func:`status_lines`).

The guard log is a service record like the mails table: it is not in the event log and never
published (no archive, record, report or site carries it).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from pbem.store.db import Store, iso

#: The window every limit counts in.
WINDOW = timedelta(hours=24)
#: How far back ``pbem status`` lists what the guard log holds.
SHOWN_FOR = timedelta(days=7)

# kinds of guard_log rows
COMMAND = "command"  # a mail command answered (detail: the command)
LIMITED = "limited"  # a mail command not answered: over its limit (detail: the command)
CODE = "reset-code"  # a one-time password reset code mailed to the seat
CHANGED = "password-changed"  # a new password mailed (detail: how it was proven)
WRONG_CODE = "wrong-code"  # a PASSWORD mail with a code that is not the seat's
WRONG_PASSWORD = "wrong-password"  # a GAME block with a wrong password from the seat's address
LOCKED = "locked"  # the seat was locked for mail orders (too many wrong passwords)
REFUSED_LOCKED = "refused-locked"  # a block for a locked seat, refused unread
UNLOCKED = "unlocked"  # the GM unlocked the seat (``pbem seat --unlock``)
NO_BLOCK = "no-block-reply"  # the "no order block" reply sent to an address (detail: the subject's start)
SILENCED = "silenced"  # a mail without a GAME block not answered: too many such replies to the address


def note(store: Store, kind: str, game_id: str | None = None, seat: str | None = None,
         address: str | None = None, detail: str = "", mail_key: str | None = None) -> None:
    """Add a row to the guard log (inside the caller's transaction)."""
    store.conn.execute(
        "insert into guard_log (at, kind, game_id, seat, address, detail, mail_key) values (?, ?, ?, ?, ?, ?, ?)",
        [store.now(), kind, game_id, seat, address, detail[:200], mail_key])


def since(store: Store, window: timedelta = WINDOW) -> str:
    """The ISO time ``window`` before the store's clock (the start of a limit's window)."""
    return iso(store.clock() - window)


def count(store: Store, kinds: Iterable[str], start: str, game_id: str | None = None, seat: str | None = None,
          address: str | None = None, detail: str | None = None) -> int:
    """How many guard rows of ``kinds`` were noted from ``start`` on, for the game and seat (or
    the address) given; ``detail``: only rows with that detail."""
    kinds = list(kinds)
    sql = f"select count(*) from guard_log where kind in ({', '.join('?' * len(kinds))}) and at >= ?"
    params: list[Any] = [*kinds, start]
    for column, value in (("game_id", game_id), ("seat", seat), ("address", address), ("detail", detail)):
        if value is not None:
            sql += f" and {column} = ?"
            params.append(value)
    return int(store.conn.execute(sql, params).fetchone()[0])


def last(store: Store, kinds: Iterable[str], game_id: str, seat: str) -> str | None:
    """The time of the latest row of ``kinds`` for the seat, or None."""
    kinds = list(kinds)
    row = store.conn.execute(
        f"select max(at) from guard_log where kind in ({', '.join('?' * len(kinds))}) and game_id = ? and seat = ?",
        [*kinds, game_id, seat]).fetchone()
    return row[0] if row else None


def _label(kind: str, detail: str) -> str:
    """How the GM reads a group of guard rows."""
    return {
        COMMAND: f"mail command {detail} answered",
        LIMITED: f"mail command {detail} NOT answered (over its limit)",
        CODE: "password reset code mailed to the seat's address",
        CHANGED: f"password changed by mail ({detail})",
        WRONG_CODE: "PASSWORD with a wrong or expired reset code",
        WRONG_PASSWORD: "wrong password in a GAME block from the seat's address",
        LOCKED: "LOCKED for mail orders after too many wrong passwords",
        REFUSED_LOCKED: "block refused: the seat is locked",
        UNLOCKED: "unlocked by the GM",
        SILENCED: f"mail NOT answered ({detail}): over the replies a day to the address",
    }.get(kind, f"{kind} {detail}".strip())


def summary(store: Store, game_id: str) -> list[dict[str, Any]]:
    """The guard rows of ``game_id`` of the last :data:`SHOWN_FOR`, grouped by seat, kind and
    detail: ``{seat, kind, detail, count, first, last, what}`` (answered commands and replies left out)."""
    rows = store.conn.execute(
        "select seat, kind, detail, count(*), min(at), max(at) from guard_log where game_id = ? and at >= ? "
        "and kind not in (?, ?) group by seat, kind, detail order by min(at)",
        [game_id, since(store, SHOWN_FOR), COMMAND, NO_BLOCK]).fetchall()
    return [{"seat": seat, "kind": kind, "detail": detail or "", "count": n, "first": first, "last": latest,
             "what": _label(kind, detail or "")} for seat, kind, detail, n, first, latest in rows]


def status_lines(items: list[dict[str, Any]]) -> list[str]:
    """The lines ``pbem status`` prints under a game for :func:`summary`'s items."""
    out = []
    for item in items:
        times = f"{item['count']} times, {item['first']} to {item['last']}" if item["count"] > 1 else item["last"]
        out.append(f"  mail guard: seat {item['seat'] or '?'}: {item['what']} ({times})")
    return out


def parse_time(text: str) -> datetime:
    """An ISO time written by :func:`pbem.store.db.iso`."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
