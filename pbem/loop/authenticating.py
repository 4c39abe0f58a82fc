"""Authenticating a GAME block: the game and seat it names, the seat's password (with lockouts
after repeated guesses), new passwords by mail, and the turn the block is bound to."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from pbem.mailin import maillimits
from pbem.loop import lockout, passwords
from pbem.mailout import planmail
from pbem.store.events import Game
from pbem.mailin.parse import ParsedMail
from pbem.mailout.replies import BlockResult
from reports.i18n import _
from turns.envelope import Block, shown_word
from pbem.loop.inbound import SEAT_LOCKED, _turn_state



class Authenticating:
    """Who wrote a block, and for which turn (a part of :class:`~pbem.loop.ingest.Ingestor`)."""

    def _authenticate(self, mail: ParsedMail, block: Block, result: BlockResult) -> Game | None:
        if mail.is_mail:
            return self._check_seat(mail, block, result)
        copy = self._copy(block.game)
        if copy is None and self.store.game_row(block.game) is None:
            result.reason = f"there is no game {shown_word(block.game)!r}"
            return None
        game = copy or self.service.load(block.game)
        if block.seat not in game.seats:
            result.reason = f"game {block.game} has no seat {shown_word(block.seat)!r} (seats: {', '.join(game.seats)})"
            return None
        result.authenticated = True
        return game

    def _check_seat(self, mail: ParsedMail, block: Block, result: BlockResult) -> Game | None:
        """The game of a mailed block whose sender and password are the seat's (else None, the
        reason on ``result`` for the GM only). A block for a locked seat is refused unread; a
        seat whose password was wrong in an earlier block of this mail is not checked again
        (one guess per seat and mail); a wrong password from the seat's address counts toward
        its lock (:mod:`pbem.loop.lockout`)."""
        pair = (block.game, block.seat)
        why = ""
        if pair in self._guessed:
            why = "not checked: a wrong password for this seat earlier in the mail"
        elif pair in self.senders.seats_of(mail.sender) and lockout.locked_since(self.store, *pair):
            why = SEAT_LOCKED
        if why:
            result.auth_failed, result.auth_reason = True, why
            return None
        copy = self._copy(block.game)
        game, why = self.service.check_credentials(block.game, block.seat, block.password, mail.sender, copy)
        result.auth_failed, result.auth_reason = game is None, why  # why: for the GM, never the reply
        result.authenticated = game is not None
        if game is None and copy is not None:  # untouched: still current
            self._copies[copy.game_id] = copy
        if why == "wrong password":  # from the seat's own address (the sender is checked first)
            self._guessed.add(pair)
            if lockout.wrong_password(self.service, copy or self.service.load(block.game), block.seat,
                                      mail.sender, mail.key):
                result.auth_reason = "wrong password; the seat is now LOCKED"
        return game

    def _turn_line(self, game: Game, block: Block, result: BlockResult,
                   date: datetime | None = None, undated: bool = False) -> str | None:
        """The block body without its optional ``TURN <label>`` line; None if the block
        cannot be for the pending turn (the reason is put on ``result``).

        Orders are bound to their turn, so that an old order mail sent again (with a new
        Message-ID) is never taken for orders of a later turn: a TURN line must name the
        pending turn, and a block without one is refused when the mail is dated before
        the pending turn began, i.e. before the last adjudication, or has no Date
        at all (``undated``: it may be as old as any)."""
        pending = game.pending
        label, body = planmail.split_turn(block.body)
        if pending is None:
            result.reason = _("game {game} is over; no orders are awaited").format(game=game.game_id)
            return None
        result.turn = pending.turn
        result.deadline = game.deadline
        if label is not None and label.lower() != pending.turn.lower():
            result.turn = shown_word(label) or None
            result.reason = _turn_state(game, shown_word(label))
            return None
        began = self._turn_began(game) if label is None and (date is not None or undated) else None
        if began is not None and undated:  # no Date: it may be as old as any
            result.reason = _("this mail has no Date header, so it may be an old mail sent again, and the block has "
                              "no TURN line; if these are your orders for turn {turn}, write 'TURN {turn}' as the "
                              "first line of the block and send it again").format(turn=pending.turn)
            return None
        if began is not None and date is not None and date < began:
            result.reason = _("this mail is dated {date}, before turn {turn} began ({began}), and the block has no "
                              "TURN line, so it may be an old mail sent again; if these are your orders for turn "
                              "{turn}, write 'TURN {turn}' as the first line of the block and send it again").format(
                date=date.isoformat(), turn=pending.turn, began=began.isoformat())
            return None
        if block.seat not in pending.seats:
            result.reason = _("seat {seat} has no decision pending in turn {turn}; you will be mailed when your "
                              "orders are needed").format(seat=block.seat, turn=pending.turn)
            return None
        return body

    def _new_password(self, mail: ParsedMail, game: Game, block: Block, result: BlockResult) -> None:
        """A GAME block whose one line is PASSWORD: its password (just checked) proves the
        seat, so a new one is mailed to the seat's registered address (:mod:`pbem.loop.passwords`)."""
        result.turn = None
        if not mail.is_mail:
            result.reason = (f"a new password is mailed by 'pbem seat {game.game_id} {block.seat} --new-password', "
                             "not by a GM's order text")
            return
        result.accepted, result.password_note = passwords.change(self.service, game, block.seat, "current password",
                                                                 mail.sender, mail.key)

    def _within_lines(self, block: Block, result: BlockResult) -> bool:
        """True when the block's order lines may be read (:data:`pbem.mailin.maillimits.MAX_BLOCK_LINES`,
        and :data:`~pbem.mailin.maillimits.MAX_MAIL_LINES` with the mail's blocks before it); else the
        block is refused unread, the reason on ``result``."""
        lines = maillimits.order_lines(block.body)
        if lines > maillimits.MAX_BLOCK_LINES:
            result.reason = _("this block has {lines} order lines, more than the {most} read in one block: none of "
                              "them was read and nothing was recorded").format(lines=lines,
                                                                                most=maillimits.MAX_BLOCK_LINES)
        elif self._lines + lines > maillimits.MAX_MAIL_LINES:
            result.reason = _("this mail has more than {most} order lines: the block from line {line} on was not "
                              "read and nothing of it was recorded; send it in another mail").format(
                most=maillimits.MAX_MAIL_LINES, line=block.game_line)
        else:
            self._lines += lines
            return True
        return False

    def _resolve_case(self, block: Block) -> Block:
        """The block with its game id and seat spelt as the game has them, when the player
        wrote them in another case (``Game W1 Red ...`` from a phone that capitalises) and
        exactly one game (and seat) matches. The password is still checked as written."""
        copy = self._copies.get(block.game)
        if copy is not None and block.seat in copy.seats:  # as the game spells them (checked when used)
            return block
        game_id = block.game
        seats = self._seat_names.get(game_id) if game_id else None  # a game this ingest found already
        known = seats is not None or (bool(game_id) and self.store.game_row(game_id) is not None)
        if game_id and not known:
            matches = [g for g in self.store.game_ids() if g.lower() == game_id.lower()]
            game_id, known = (matches[0], True) if len(matches) == 1 else (game_id, False)
        seat = block.seat
        if seat and game_id and known:
            if seats is None:  # a game's seat names are fixed when it is created: read once per ingest
                seats = self._seat_names[game_id] = self.service.seat_names(game_id)
            if seat not in seats:
                matches = [s for s in seats if s.lower() == seat.lower()]
                seat = matches[0] if len(matches) == 1 else seat
        if (game_id, seat) == (block.game, block.seat):
            return block
        return replace(block, game=game_id, seat=seat)
