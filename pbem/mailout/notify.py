"""Outgoing mail built by the shell: welcome mails and per-turn reports, queued in the outbox.

Messages are built with the stdlib ``email`` package and written to the outbox in the
transaction of the events that cause them; ``pbem send`` delivers them.
"""

from __future__ import annotations

import io
from email.generator import NLCRE, BytesGenerator
from email.message import Message
from typing import Any

from pbem.store.events import Game
from pbem.mailout.mailbase import (WIDTH, LOOP_HEADER, Outgoing, TextOutgoing, base_message, format_deadline,
                                   thread_id, wrapped)
from pbem.store.db import Store

__all__ = ["LOOP_HEADER", "Outgoing", "base_message", "thread_id", "welcome", "turn_reports", "queue",
           "message_bytes"]


def welcome(game: Game, seat: str, password: str, sender: str, after_turn: str | None = None,
            takeover: bool = False) -> Outgoing:
    """The welcome mail of a seat, in its language: its password, the seed commitment, how to
    send orders, and the seat's opening report (text, HTML and map) made from its own view.
    ``takeover``: a new player takes over the seat of a game under way (``after_turn`` was
    played last)."""
    from pbem.mailout.mailbase import speaking_to

    with speaking_to(game, seat):
        return _welcome(game, seat, password, sender, after_turn, takeover)


def _welcome(game: Game, seat: str, password: str, sender: str, after_turn: str | None,
             takeover: bool) -> Outgoing:
    from pbem.mailout.reporting import order_help, order_help_text
    from reports.gamenames import game_title
    from reports.i18n import _

    row = game.seats[seat]
    pending = game.pending
    lines = [
        *wrapped(_("Welcome to {title}, game {game}. You play the seat '{seat}'.").format(
            title=game_title(game.engine.name, game.created.get("options")), game=game.game_id, seat=seat)),
        *_takeover_lines(game, seat, after_turn, takeover),
        "",
        _("Your password: {password}").format(password=password),
        _("Keep it secret: anyone with it can send orders for your seat."),
        "",
        *wrapped(_("Send orders in a plain-text mail from {address}, with a block like this").format(
            address=row["email"])),
        *wrapped(_("(one order per line; '#' starts a comment; text outside the block is ignored):")),
        "",
        f"GAME {game.game_id} {seat} " + _("<your password>"),
        *_turn_line(pending.turn if pending else _("<turn>"), _("# optional: the turn these orders are for")),
        _("... your orders ..."),
        "END",
        "",
    ]
    help_text = order_help(game.engine.name, game.created.get("options"))
    if help_text:
        lines += [_("Orders, in short:"), order_help_text(help_text).rstrip(), ""]
    from pbem.mailout.playerdocs import docs_lines

    lines += [*docs_lines(), ""]
    from pbem.mailout.press import welcome_lines

    lines += welcome_lines(game)
    lines += [
        *wrapped(_("Seed commitment (sha256 of the game's secret seed): {commitment}").format(
            commitment=game.created["commitment"])),
        *wrapped(_("The seed itself is revealed when the game ends, so you can verify every draw.")),
    ]
    if pending is not None:
        lines += ["", _("Orders are now awaited for turn {turn}.").format(turn=pending.turn),
                  _("Deadline: {deadline}").format(deadline=format_deadline(game.deadline))]
    from pbem.mailout.turnmail import compose, seat_report, view_summary

    # the position (the opening one, or the current one for a replacement player), from this seat's view only
    rendered = seat_report(game, seat, after_turn) if after_turn else seat_report(game, seat)
    if rendered is not None:
        if after_turn:
            text = (_("Your current position follows (see the map picture); write your orders from it.")
                    if "map.png" in rendered.images else
                    _("Your current position follows; write your orders from it."))
        else:
            text = (_("Your opening position follows (see the map picture); write your orders from it.")
                    if "map.png" in rendered.images else
                    _("Your opening position follows; write your orders from it."))
        lines += ["", *wrapped(text)]
    else:
        lines += ["", *view_summary(game.engine.view(game.state, seat))]
    subject = _("[{game}] Welcome, {seat}").format(game=game.game_id, seat=seat)
    return compose(game, row["email"], subject, sender, "welcome", lines, rendered)


def _turn_line(turn: str, comment: str) -> list[str]:
    """The example block's TURN line with its comment beside it, or above it where the two
    would not fit on a mail line (a folded comment would read as an order)."""
    line = f"TURN {turn}     {comment}"
    return [line] if len(line) <= WIDTH else [comment, f"TURN {turn}"]


def _takeover_lines(game: Game, seat: str, after_turn: str | None, takeover: bool) -> list[str]:
    """What a player who takes over a seat mid-game is told first."""
    if not takeover:
        return []
    from pbem.mailout.mailbase import turn_words
    from reports.i18n import _, ngettext

    played = len(game.turns)
    if not played:
        return [_("You take over this seat from its first player; no turn has been played yet.")]
    text = ngettext("You take over this seat in a game under way: {n} turn has been played (the last: {last}), "
                    "and the seat's cards, money and standing are as its last player left them. The position "
                    "below is the seat's current one.",
                    "You take over this seat in a game under way: {n} turns have been played (the last: {last}), "
                    "and the seat's cards, money and standing are as its last player left them. The position "
                    "below is the seat's current one.", played).format(
        n=played, last=turn_words(game, after_turn) if after_turn else "?")
    return wrapped(text)


def turn_reports(game: Game, payload: dict[str, Any], sender: str, store: Store) -> list[Outgoing]:
    """The report mails of an adjudicated turn: one per seat, plus public and GM copies."""
    from pbem.mailout import reporting

    return reporting.turn_messages(game, payload, sender, store)


def queue(store: Store, game: Game | None, out: Outgoing | TextOutgoing, cause_seq: int | None = None) -> int:
    """Put ``out`` in the outbox (inside the caller's transaction); a plain-text message is
    kept as its headers and text (:func:`pbem.store.mailpack.pack_text`), built when read or sent."""
    game_id = game.game_id if game else None
    from pbem.store.auth import is_bot_address

    if is_bot_address(out.to):  # a seat of an open game nobody took (pbem.club.lobby): no mail
        return 0
    if isinstance(out, TextOutgoing):
        from pbem.store.mailpack import pack_text

        return store.enqueue(game_id, out.to, out.subject, b"", out.kind, out.message_id, cause_seq,
                             stored=pack_text(out.headers, out.body))
    return store.enqueue(game_id, out.to, out.subject, message_bytes(out.message), out.kind,
                         str(out.message["Message-ID"]), cause_seq)


class _Generator(BytesGenerator):
    """The stdlib's bytes generator writing each body in one piece: the stdlib writes a body
    line by line (a report mail's base64 pictures are thousands of lines: serialising a
    season's report mails was a tenth of adjudicating it). The same bytes: the
    stdlib's loop writes every line followed by the line separator, i.e. it replaces each
    line break by the separator, as this does at once; where the separator is ``\n`` and
    the body holds no ``\r`` (every body pbem writes), that changes nothing, and the body is
    written as it is (the replacement was a millisecond per picture)."""

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        if self._NL == "\n" and "\r" not in lines:
            self.write(lines)
        else:
            self.write(NLCRE.sub(self._NL, lines))


def message_bytes(msg: Message) -> bytes:
    """``bytes(msg)``: the same bytes, faster for large messages."""
    out = io.BytesIO()
    _Generator(out, mangle_from_=False, policy=msg.policy).flatten(msg, unixfrom=False)
    return out.getvalue()
