"""Recording an authenticated block: its orders, standing orders or plan checked against the
game's current state and recorded as events; its press relayed; a seat's digest preference."""

from __future__ import annotations


from dataclasses import replace

from pbem.loop import passwords
from pbem.mailout import planmail, replies
from pbem.errors import DomainError
from pbem.store.events import Game
from pbem.mailout.languages import seat_language
from pbem.mailin.parse import ParsedMail
from pbem.mailout.replies import BlockResult
from reports.i18n import _
from turns.base import LineProblem, PlanChecker, check_orders
from turns.games import format_orders, grammar_for, plan_checker_for
from turns.envelope import Block, shown_word
from turns.warnings import order_warnings
from pbem.loop.inbound import (digest_word, _mentions_standing, _source, _line_problem, _with_line_refs,
                               _trailing_text, _only_missing_end, _envelope_problems, _turn_state,
                               _date_warnings, _owes)



class Recording:
    """What a block records (a part of :class:`~pbem.loop.ingest.Ingestor`)."""

    # -- one block ------------------------------------------------------------------
    def _block(self, mail: ParsedMail, block: Block, key: str, games: list[Game]) -> BlockResult:
        block = self._resolve_case(block)
        seat = block.shown_seat if mail.is_mail else shown_word(block.seat)
        result = BlockResult(block.shown_game, seat, block.game_line)
        problems = _envelope_problems(block, trusted=not mail.is_mail)
        if problems:
            result.problems = problems
            if _only_missing_end(block, problems):
                self._check_unended(mail, block, result, games)
            return result
        game = self._authenticate(mail, block, result)
        if game is None:
            return result
        games.append(game)
        if not mail.is_mail:  # the GM's own order text: answered in the GM's words
            return self._authenticated(mail, game, block, key, result)
        from reports.i18n import speaking

        with speaking(seat_language(game, block.seat)) as words:  # the seat's language (pbem.languages)
            result.language = words.language
            return self._authenticated(mail, game, block, key, result)

    def _authenticated(self, mail: ParsedMail, game: Game, block: Block, key: str,
                       result: BlockResult) -> BlockResult:
        """The rest of :meth:`_block` for a block whose seat is proven (``game``)."""
        if block.press:  # relayed whatever becomes of the orders (each judged on its own)
            self._press(mail, game, block, key, result)
            if not block.has_orders:
                return result
        if passwords.is_password_block(block.body):  # a new password, proven by the current one
            self._new_password(mail, game, block, result)
            return result
        if digest_word(block.body) is not None:  # the seat's mail preference (docs/order-mail.md)
            self._digest(mail, game, block, key, result)
            return result
        if not self._within_lines(block, result):
            return result
        from pbem.club import mail as club_mail

        club_lines = club_mail.block_lines(block.body)
        if club_lines:  # ABSENT, BACK, DRAW, CONCEDE, RESIGN (pbem.club)
            result.turn = None
            result.accepted, result.command = club_mail.run_block(self.service, mail, game, block.seat, club_lines)
            return result
        if self._standing(mail, game, block, key, result):
            return result
        body = self._turn_line(game, block, result, mail.date, undated=mail.is_mail and mail.date is None)
        if body is None:
            return result
        self._orders(mail, game, block, body, key, result)
        if result.accepted and game.club.disorder.get(block.seat):  # the player is back (pbem.club)
            from pbem.club.absence import returned_by_orders

            if returned_by_orders(self.service, game.game_id, block.seat):
                result.warnings.append(_("your seat was in civil disorder: you play it again from now on"))
        return result

    def _press(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult) -> None:
        """Relay each PRESS block of an authenticated block; the reply says to
        whom, or why not. A block with only press is accepted when all of it was relayed."""
        from pbem.mailout import press as press_log

        result.press_only = not block.has_orders
        for n, item in enumerate(block.press, 1):
            where = f"PRESS on line {item.line}"
            if not mail.is_mail:
                result.press.append(f"{where}: not relayed: press is sent by a seat's own mail, not typed by the GM")
                result.press_refused += 1
                continue
            item = replace(item, text=replies.mask_passwords(item.text, block.secrets))
            try:
                to, before = press_log.relay(self.store, game, block.seat, item, f"{key}/press{n}",
                                             _source(mail, block), self.service.sender)
            except DomainError as exc:
                result.press.append(_("PRESS on line {line}: NOT relayed: {why}").format(line=item.line, why=exc.message))
                result.press_refused += 1
                continue
            result.press.append(_relayed(item.line, to, before))
        if result.press_only:
            result.accepted = not result.press_refused
            result.turn = game.pending.turn if game.pending else None

    def _digest(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult) -> None:
        """A GAME block whose one line is ``DIGEST ON`` or ``DIGEST OFF``: the seat's reports
        come as plain text without pictures (ON) or whole again (OFF); recorded as an event."""
        on = digest_word(block.body) == "ON"
        result.turn = None
        try:
            event = self.service.set_digest(game.game_id, block.seat, on, _source(mail, block), key=f"{key}/digest")
        except DomainError as exc:
            result.reason = exc.message
            return
        result.accepted, result.digest_note = True, _digest_note(on, event is not None)

    def _check_unended(self, mail: ParsedMail, block: Block, result: BlockResult, games: list[Game]) -> None:
        """A block without END is rejected, but once it is authenticated its order lines are
        checked too, so that the reply shows every problem (typically the signature or
        greeting lines that were read as orders because END was missing)."""
        game = self._authenticate(mail, block, result)
        if game is None:
            return
        games.append(game)
        if mail.is_mail:  # the seat is proven: the reply may speak its language
            from reports.i18n import speaking

            with speaking(seat_language(game, block.seat)) as words:
                result.language = words.language
                self._check_unended_lines(mail, game, block, result)
        else:
            self._check_unended_lines(mail, game, block, result)

    def _check_unended_lines(self, mail: ParsedMail, game: Game, block: Block, result: BlockResult) -> None:
        """The order lines of an authenticated block without END (:meth:`_check_unended`)."""
        if not self._within_lines(block, result):
            return
        body = self._turn_line(game, block, result, mail.date, undated=mail.is_mail and mail.date is None)
        try:
            grammar = grammar_for(game.engine.name)
        except KeyError:
            return
        if body is None:
            return
        parsed = check_orders(game.engine, grammar, game.state, block.seat, body, block.first_line)
        if not parsed.problems:
            return
        lines = body.split("\n")
        first_bad = _trailing_text(parsed, lines, block.first_line)
        if first_bad:
            # Nothing from this line on reads as an order: the block ran on into the
            # signature or sign-off. Say where END belongs and check the orders above it.
            cut = first_bad - block.first_line
            parsed = check_orders(game.engine, grammar, game.state, block.seat,
                                  "\n".join(lines[:cut] + [""] * (len(lines) - cut)), block.first_line)
            last = max(parsed.lines, default=0)
            last_text = lines[last - block.first_line].strip() if last else ""
            trailing = lines[cut].strip()
            where = f"line {last + 1}, right after your last order (line {last}: {last_text})" if last else \
                "a line of its own right after your last order"
            result.problems = [LineProblem(
                block.game_line, f"block for game {block.game} opened on line {block.game_line} has no END "
                f"line, so the text below your orders (from line {first_bad}: {trailing!r}) was read as orders "
                f"too; write END on {where}", text=block.header())]
        result.problems += _with_line_refs(parsed.problems, parsed.lines)

    def _standing(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult) -> bool:
        """A block of standing orders (games that have them): accepted at any
        time, from any seat, and applied when that seat's decisions come up. True if the
        block was one (accepted or rejected), False to go on with ordinary orders."""
        is_standing = getattr(game.engine, "is_standing", None)
        if is_standing is None or game.pending is None:
            return False
        name = game.engine.name
        checker = plan_checker_for(name)
        if checker is not None:  # every block of this game is a plan for the round
            self._plan(mail, game, block, key, result, checker)
            return True
        parsed = grammar_for(name)(block.body, game.state)
        if parsed.problems and _mentions_standing(block.body):
            # a block meant as standing orders with a typo: say what is wrong with it, not
            # that the seat has no decision pending
            result.turn, result.standing = "standing", "standing orders"
            result.problems = [LineProblem(p.line + block.first_line - 1 if p.line else 0, p.message,
                                           p.suggestions, p.stage, p.text) for p in parsed.problems]
            return True
        if parsed.problems or not parsed.orders or not is_standing(parsed.orders):
            return False
        result.turn, result.standing, result.deadline = "standing", "standing orders", game.deadline
        if block.seat not in game.pending.seats:
            result.deadline_of = _("the decision awaited now ({turn}, from {seats})").format(
                turn=game.pending.turn, seats=", ".join(game.pending.seats))
        problems = game.engine.validate_standing(game.state, block.seat, parsed.orders)
        if problems:
            result.problems = [_line_problem(p, parsed, block) for p in problems]
            return True
        text = format_orders(name, parsed.orders)
        try:
            self.service.submit_standing(game.game_id, block.seat, parsed.orders, text,
                                         _source(mail, block), key=key)
        except DomainError as exc:
            result.reason = str(exc.message)
            return True
        result.accepted, result.orders_text = True, text
        result.owes = planmail.standing_note(game.engine)
        result.warnings = order_warnings(name, game.state, block.seat, parsed.orders)
        return True

    def _plan(self, mail: ParsedMail, game: Game, block: Block, key: str, result: BlockResult,
              checker: PlanChecker) -> None:
        """A block of a game whose every block is a plan for the round (it registers a plan checker),
        from any seat at any time: an optional TURN line must name the pending decision;
        every problem is listed at once, and the kinds of line without one are recorded
        (the game's ``checker``, :func:`turns.games.plan_checker_for`)."""
        pending = game.pending
        assert pending is not None
        label, body = planmail.split_turn(block.body)
        result.turn, result.standing, result.deadline = "standing", planmail.label(game), game.deadline
        if block.seat not in pending.seats:
            result.deadline_of = _("the decision awaited now ({turn}, from {seats})").format(
                turn=pending.turn, seats=", ".join(pending.seats))
        if label is not None and label.lower() != pending.turn.lower():
            result.turn = shown_word(label) or None
            result.reason = _turn_state(game, shown_word(label))
            return
        check = checker(game.engine, game.state, block.seat, body, block.first_line)
        result.problems, result.dropped = check.problems, check.dropped
        if not check.orders:
            result.reason = "" if check.problems else _("the block holds no orders")
            return
        text = format_orders(game.engine.name, check.orders)
        try:
            submitted = self.service.submit_standing(game.game_id, block.seat, check.orders, text,
                                                     _source(mail, block), key=key, game=game)
        except DomainError as exc:
            result.reason = str(exc.message)
            return
        result.accepted, result.orders_text = True, text
        result.owes = planmail.owes(submitted.game or self.service.load(game.game_id), block.seat)

    def _orders(self, mail: ParsedMail, game: Game, block: Block, body: str, key: str,
                result: BlockResult) -> None:
        name = game.engine.name
        try:
            grammar = grammar_for(name)
        except KeyError:
            result.reason = _("orders for {game} cannot be read by mail in this version").format(game=name)
            return
        parsed = check_orders(game.engine, grammar, game.state, block.seat, body, block.first_line)
        if parsed.problems:
            result.problems = _with_line_refs(parsed.problems, parsed.lines)
            return
        if not parsed.orders:
            result.reason = _("the block holds no orders")
            return
        text = format_orders(name, parsed.orders)
        result.warnings = _date_warnings(game, block.seat, mail.date) + order_warnings(
            name, game.state, block.seat, parsed.orders)  # legal, but doing nothing as things stand
        try:
            submitted = self.service.submit(game.game_id, block.seat, parsed.orders, text, _source(mail, block),
                                            key=key, game=game, validated=True)  # the copy just checked
        except DomainError as exc:
            result.reason = str(exc.message)
            return
        result.accepted, result.orders_text, result.turn = True, text, submitted.turn
        result.owes = _owes(submitted.game or self.service.load(game.game_id), block.seat, submitted.turn)


def _digest_note(on: bool, changed: bool) -> str:
    """What a DIGEST ON/OFF block did, in the current language."""
    if not changed:
        return (_("unchanged: your reports now come as plain text without pictures") if on else
                _("unchanged: your reports now come whole again (text, HTML and pictures)"))
    return (_("your reports now come as plain text without pictures; a block with the one line DIGEST OFF brings "
              "them back") if on else _("your reports now come whole again (text, HTML and pictures)"))


def _relayed(line: int, to: list[str], before: bool) -> str:
    """A press line's relaying, in the current language."""
    return (_("PRESS on line {line}: relayed to {seats} (relayed before)") if before else
            _("PRESS on line {line}: relayed to {seats}")).format(line=line, seats=", ".join(to))
