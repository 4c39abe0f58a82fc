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
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbem.store.clock import (DEFAULT_REMIND_BEFORE, clock_of, counted_from, instant, is_due,  # noqa: F401
                              parse_deadline, parse_duration, remind_at, remind_before, resolve, utc_text)
from pbem.store.events import Game

if TYPE_CHECKING:  # the mail package is imported by the notices only (``pbem status`` needs none)
    from pbem.mailout.mailbase import Outgoing


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
    from pbem.mailout.mailbase import fold_prose

    msg.set_content("\n".join(fold_prose(lines)) + "\n")
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
    is no order a player writes (e.g. money cards)."""
    import textwrap

    from pbem.mailout.mailbase import speaking_to, turn_words, wrapped
    from reports.i18n import _

    played = [line for line in orders_text.strip().splitlines() if line.strip() and not line.lstrip().startswith("#")]
    with speaking_to(game, seat):
        meaning = _missed_meaning(game, kind) if not played else ""
        words = turn_words(game, turn)
        lines = [*wrapped(_("Game {game}: your orders for {turn} (TURN {label}) had not arrived when it was "
                            "adjudicated, so the game's missed-orders default was played for you:").format(
                     game=game.game_id, turn=words, label=turn)), "",
                 *(["  " + line for line in played] or
                   textwrap.wrap(meaning or _("(no orders)"), 74, initial_indent="  ", subsequent_indent="  ")), "",
                 *wrapped(_("Your next report or 'your move' mail says what happened and what is due next."))]
        return _mail(game, seat, sender, "late", _("orders missed ({turn})").format(turn=words), lines,
                     _msgid("late", game, turn, seat, sender))


def _missed_meaning(game: Game, kind: str) -> str:
    """The game's words for what its missed-orders default does in a ``kind`` turn, in the
    current language (empty when the default is orders a player could have written, listed
    as they are). The grammar joins texts of its ``MISSED_HELP`` (each a catalogue message:
    the plan's, then the court's); each is translated."""
    from adjudicator import games
    from reports.i18n import _

    grammar = games.hook(game.engine.name, "grammar")
    if not grammar:
        return ""
    module = grammar[0]
    helper = getattr(module, "missed_help", None)
    text = str(helper(kind, game.created.get("options"))) if helper is not None else ""
    for part in sorted(getattr(module, "MISSED_HELP", {}).values(), key=len, reverse=True):
        text = text.replace(part, _(part))
    return text


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
