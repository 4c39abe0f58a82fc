"""Deadlines as instants and relative clocks: pure arithmetic on the game's recorded times.

A deadline is stored as the ISO 8601 text the GM gave (its zone kept) and always compared as
its UTC instant. Kept in the store's room because the due index the store keeps beside each
game's log (:mod:`pbem.store.projection`) is computed with it; the mails around a deadline
are :mod:`pbem.loop.deadlines`.
"""

from __future__ import annotations

import functools
import re
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from pbem.errors import DomainError

if TYPE_CHECKING:
    from pbem.store.events import Game


@functools.cache
def _part() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"(\d+)\s*([wdhm])", re.IGNORECASE)


_UNITS = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}
DEFAULT_REMIND_BEFORE = "24h"


def parse_duration(text: str) -> timedelta:
    """``72h``, ``3d``, ``1d12h``, ``90m``, ``2w`` -> a positive :class:`timedelta`."""
    compact = re.sub(r"\s+", "", text or "")
    parts = _part().findall(compact)
    if not parts or "".join(n + u for n, u in parts).lower() != compact.lower():
        raise DomainError(f"{text!r} is not a duration; write e.g. 72h, 3d, 1d12h or 90m")
    total = sum((int(n) * _UNITS[u.lower()] for n, u in parts), timedelta())
    if total <= timedelta():
        raise DomainError(f"duration {text!r} must be longer than zero")
    return total


def parse_deadline(text: str) -> str:
    """Normalise a deadline given as ISO 8601 with a zone; a naive time is refused."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise DomainError(f"deadline {text!r} is not an ISO 8601 time, e.g. 2026-12-07T18:00+01:00") from None
    if moment.tzinfo is None:
        raise DomainError(f"deadline {text!r} has no time zone; add one, e.g. {text}+01:00 or {text}Z")
    return moment.isoformat()


def instant(text: str) -> datetime:
    """The UTC instant of a stored deadline (any zone)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:  # older records: a naive time was never accepted, but be safe
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def utc_text(moment: datetime) -> str:
    """``2026-12-07T17:00:00Z``: an instant as UTC text."""
    return moment.astimezone(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def is_due(deadline: str | None, now: datetime) -> bool:
    """True when ``deadline`` is set and its instant is not after ``now``."""
    return deadline is not None and instant(deadline) <= now.astimezone(timezone.utc)


def resolve(when: str, current: str | None, now: datetime) -> str:
    """A GM's deadline text, the same in ``pbem deadline`` and ``pbem rollback --deadline``:
    ISO 8601 with zone; ``+3d``/``+12h`` added to the turn's current deadline (in its zone), or
    to now when the turn has none (a reopened turn has none: its deadline was set aside);
    ``now+3d`` added to now, whatever the current deadline."""
    when = when.strip()
    if when.lower().startswith("now+"):
        when, current = when[3:], None
    if not when.startswith("+"):
        return parse_deadline(when)
    base = datetime.fromisoformat(current.replace("Z", "+00:00")) if current else now.astimezone(timezone.utc)
    return (base + parse_duration(when[1:])).replace(microsecond=0).isoformat()


def counted_from(when: str, current: str | None) -> str:
    """What a relative deadline ``when`` was counted from, for the GM's output (empty for an
    instant): ``3d after the previous deadline``, ``3d from now``."""
    when = when.strip()
    if when.lower().startswith("now+"):
        return f"{when[4:]} from now"
    if not when.startswith("+"):
        return ""
    if current:
        return f"{when[1:]} after the previous deadline {current}"
    return f"{when[1:]} from now (no deadline before)"


def clock_of(game: Game) -> timedelta | None:
    """The relative clock of ``game``'s pending turn: ``decision_every`` for a sequential
    decision (when set), else ``deadline_every``; None without a relative clock."""
    created = game.created
    pending = game.pending
    if pending is None:
        return None
    every = created.get("decision_every") if not pending.simultaneous else None
    every = every or created.get("deadline_every")
    return timedelta(seconds=int(every)) if every else None


def remind_before(game: Game) -> timedelta:
    """How long before a deadline the awaited seats are reminded."""
    seconds = game.created.get("remind_before")
    return timedelta(seconds=int(seconds)) if seconds else parse_duration(DEFAULT_REMIND_BEFORE)


def remind_at(game: Game) -> datetime | None:
    """When the awaited seats of ``game``'s pending turn are reminded: ``remind_before`` the
    deadline, but not before half of the turn's relative clock has run (a reminder right
    after the "your move" mail tells the player nothing)."""
    if game.pending is None or game.deadline is None:
        return None
    due = instant(game.deadline)
    before = remind_before(game)
    clock = clock_of(game)
    if clock is not None and before > clock / 2:
        before = clock / 2
    return due - before
