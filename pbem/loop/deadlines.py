"""Deadlines as instants: parsing, relative clocks, and the mails around a deadline.

A deadline is stored as the ISO 8601 text the GM gave (its zone kept, to show players the
time as the GM meant it) together with its UTC instant, and is always compared as an
instant (never as text: ``18:00-10:00`` is later than ``20:00+00:00``).

Relative clocks (``pbem new --deadline-every 72h --decision-every 24h``) give each pending
turn a deadline counted from the moment it became pending; they are recorded as
``DeadlineSet`` events in the transaction that opens the turn, so a replay sees the same
deadlines. Reminders go to the seats still awaited a configurable time before the
deadline (``--remind-before``, default 24h), once per seat and turn.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from pbem.errors import DomainError
from pbem.store.events import Game

if TYPE_CHECKING:  # the mail package is imported by the notices only (``pbem status`` needs none)
    from pbem.mailout.mailbase import Outgoing

_PART = re.compile(r"(\d+)\s*([wdhm])", re.IGNORECASE)
_UNITS = {"w": timedelta(weeks=1), "d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}
DEFAULT_REMIND_BEFORE = "24h"


def parse_duration(text: str) -> timedelta:
    """``72h``, ``3d``, ``1d12h``, ``90m``, ``2w`` -> a positive :class:`timedelta`."""
    compact = re.sub(r"\s+", "", text or "")
    parts = _PART.findall(compact)
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


def _msgid(kind: str, game: Game, turn: str, seat: str, sender: str) -> str:
    from pbem.mailout.mailbase import domain_of

    domain = domain_of(sender)
    return f"<{kind}.{game.game_id}.{hashlib.sha256(game.mail_key(turn).encode()).hexdigest()[:16]}.{seat}@{domain}>"


def _mail(game: Game, seat: str, sender: str, kind: str, subject: str, lines: list[str],
          msgid: str | None = None) -> Outgoing:
    """A mail to ``seat`` (call inside :func:`pbem.mailout.mailbase.speaking_to`: its text,
    subject and ``Content-Language`` are in the seat's language)."""
    from pbem.mailout.mailbase import Outgoing, base_message

    to = game.seats[seat]["email"]
    msg = base_message(game, to, f"[{game.game_id}] {subject}", sender, kind)
    if msgid:
        msg.replace_header("Message-ID", msgid)
    msg.set_content("\n".join(lines) + "\n")
    return Outgoing(to, msg["Subject"], msg, kind)


def reminder(game: Game, seat: str, sender: str) -> tuple[str, Outgoing]:
    """The reminder of ``seat`` for the pending turn, with its (per seat and turn) Message-ID,
    in the seat's language."""
    from pbem.mailout.mailbase import format_deadline, speaking_to, turn_words, wrapped
    from reports.i18n import _

    pending = game.pending
    assert pending is not None
    msgid = _msgid("remind", game, pending.turn, seat, sender)
    with speaking_to(game, seat):
        turn = turn_words(game, pending.turn)
        lines = [*wrapped(_("Reminder: game {game} still awaits your orders, {seat}, for {turn} (TURN {label}).")
                          .format(game=game.game_id, seat=seat, turn=turn, label=pending.turn)),
                 _("Deadline: {deadline}").format(deadline=format_deadline(game.deadline)),
                 "",
                 *wrapped(_("If nothing arrives by then, the missed-orders default of the game is applied for you.")),
                 _("Send a block starting with: {line}").format(line=f"GAME {game.game_id} {seat} " + _("<your password>"))]
        subject = _("reminder: your orders are due ({turn})").format(turn=turn)
        return msgid, _mail(game, seat, sender, "reminder", subject, lines, msgid)


def late_notice(game: Game, seat: str, turn: str, orders_text: str, sender: str, kind: str = "") -> Outgoing:
    """The notice to a seat whose orders were missing when ``turn`` (a ``kind`` decision)
    was adjudicated: the orders played for it, and what they meant where the game's default
    is no order a player writes (Wallenstein's money cards)."""
    import textwrap

    from pbem.mailout.mailbase import speaking_to, turn_words, wrapped
    from reports.i18n import _

    played = [line for line in orders_text.strip().splitlines() if line.strip() and not line.lstrip().startswith("#")]
    with speaking_to(game, seat):
        meaning = _(_missed_help(game, kind)) if not played and _missed_help(game, kind) else ""
        words = turn_words(game, turn)
        lines = [*wrapped(_("Game {game}: your orders for {turn} (TURN {label}) had not arrived when it was "
                            "adjudicated, so the game's missed-orders default was played for you:").format(
                     game=game.game_id, turn=words, label=turn)), "",
                 *(["  " + line for line in played] or
                   textwrap.wrap(meaning or _("(no orders)"), 74, initial_indent="  ", subsequent_indent="  ")), "",
                 *wrapped(_("Your next report or 'your move' mail says what happened and what is due next."))]
        return _mail(game, seat, sender, "late", _("orders missed ({turn})").format(turn=words), lines,
                     _msgid("late", game, turn, seat, sender))


def _missed_help(game: Game, kind: str) -> str:
    """The game's words for what its missed-orders default does in a ``kind`` turn (empty
    when the default is orders a player could have written, listed as they are)."""
    import importlib

    try:
        module = importlib.import_module(f"turns.{game.engine.name.replace('-', '_')}")
    except ModuleNotFoundError:
        return ""
    helper = getattr(module, "missed_help", None)
    return str(helper(kind, game.created.get("options"))) if helper is not None else ""


def changed_notice(game: Game, seat: str, turn: str, sender: str) -> Outgoing:
    """The mail to every seat when the GM sets or moves a deadline, in the seat's language."""
    from pbem.mailout.mailbase import format_deadline, speaking_to, turn_words
    from reports.i18n import _

    with speaking_to(game, seat):
        lines = [_("Game {game}: the GM set the deadline of turn {turn} to").format(game=game.game_id, turn=turn),
                 f"  {format_deadline(game.deadlines.get(turn) or game.deadline)}"]
        return _mail(game, seat, sender, "deadline",
                     _("deadline changed ({turn})").format(turn=turn_words(game, turn)), lines)


def status_fields(game: Game, now: datetime) -> dict[str, Any]:
    """Deadline figures for ``pbem status``: the UTC instant, whether the game is overdue, and
    the deadline for every turn that passed before the pending turn opened (it applies to no
    later turn: the turn waits for every seat's orders until the GM sets a deadline)."""
    deadline = game.deadline
    stale = game.deadlines.get("*") if game.pending is not None and deadline is None and game.every_passed() else None
    return {"deadline_utc": utc_text(instant(deadline)) if deadline else None,
            "overdue": bool(game.pending is not None and is_due(deadline, now)),
            "deadline_passed_before_turn": stale}
