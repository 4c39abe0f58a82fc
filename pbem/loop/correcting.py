"""The GM's corrections of a running game: voided orders, a rules upgrade, deadlines, a seat's
address or player, a seat's digest preference, abandoning the game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.loop import deadlines
from pbem.store.auth import hash_password, new_password, parse_address
from pbem.errors import DomainError
from pbem.store.db import NewEvent, StoredEvent



class Correcting:
    """GM corrections (a part of :class:`~pbem.loop.service.Service`)."""

    def void(self, game_id: str, seat: str, reason: str) -> StoredEvent:
        """GM correction: void ``seat``'s accepted orders for the pending turn. The seat is
        told by mail, and an ACCEPTED reply to those orders still unsent is withdrawn
        (``event.payload['reply_withdrawn']``)."""
        from pbem.mailout import notify
        from pbem.loop.seats import void_notice, withdraw_accepted_reply

        with self.store.transaction():
            game = self.load(game_id)
            sub = game.submitted.get(seat)
            if sub is None or game.pending is None or sub["turn"] != game.pending.turn:
                raise DomainError(f"{seat} has no accepted orders for the pending turn of {game_id}")
            withdrawn = withdraw_accepted_reply(self.store, game, seat, (sub.get("source") or {}).get("message_id"))
            payload = {"seat": seat, "turn": sub["turn"], "reason": reason, "reply_withdrawn": withdrawn}
            event = self.store.append(game_id, [NewEvent("OrdersVoided", payload)], game.last_seq).events[0]
            after = self.load(game_id)
            self._project(after)
            notify.queue(self.store, after, void_notice(after, seat, sub["turn"], reason, withdrawn, self.sender),
                         cause_seq=event.seq)
            return event

    def upgrade(self, game_id: str, to: str | None, reason: str) -> StoredEvent:
        """Move a running game to newer rules (:mod:`pbem.loop.upgrade`): one ``EngineUpgraded``
        event between turns, every seat mailed what changes; refused with a clear message (and
        nothing written) for an older, unknown or current version, or in the middle of a turn."""
        from pbem.mailout import notify
        from pbem.loop import upgrade

        if not reason.strip():
            raise DomainError("an upgrade needs a reason (--reason TEXT): it is recorded and mailed to every seat")
        with self.store.transaction():
            game = self.load(game_id)
            steps, state = upgrade.plan(game, to)
            payload = upgrade.payload(game, steps, game.digest(state), reason.strip())
            event = self.store.append(game_id, [NewEvent("EngineUpgraded", payload)], game.last_seq).events[0]
            after = self.load(game_id)
            self._project(after)
            for seat in after.seats:
                notify.queue(self.store, after, upgrade.notice(after, seat, payload, steps, self.sender),
                             cause_seq=event.seq)
            return event

    def set_deadline(self, game_id: str, when: str, turn: str | None = None) -> tuple[str, str, bool, str]:
        """Set or move the deadline of the pending turn (or of every turn with ``turn='*'``);
        ``when`` is ISO 8601 with a zone, ``+3d`` (added to the current deadline, or to now when
        there is none) or ``now+3d`` (:func:`pbem.loop.deadlines.resolve`). Every seat is mailed the
        new deadline. Returns (turn, deadline, whether it is past, what ``+3d`` was counted from)."""
        from pbem.mailout import notify

        now = self.store.clock()
        with self.store.transaction():
            game = self.load(game_id)
            if turn is None:
                if game.pending is None:
                    raise DomainError(f"game {game_id} is over")
                turn = game.pending.turn
            current = game.deadlines.get(turn) or (game.deadline if turn == game.pending.turn else None) \
                if game.pending else None
            value = deadlines.resolve(when, current, now)
            payload = {"turn": turn, "deadline": value, "utc": deadlines.utc_text(deadlines.instant(value))}
            self.store.append(game_id, [NewEvent("DeadlineSet", payload)], game.last_seq)
            after = self.load(game_id)
            self._project(after)
            for seat in after.seats:
                notify.queue(self.store, after, deadlines.changed_notice(after, seat, turn, self.sender),
                             cause_seq=after.last_seq)
            return turn, value, deadlines.is_due(value, now), deadlines.counted_from(when, current)

    def change_seat(self, game_id: str, seat: str, email: str | None, extra: Sequence[str] = (),
                    reset_password: bool = False) -> str | None:
        """GM correction: replace a seat's address and/or allow more sender addresses.

        ``reset_password`` replaces the seat's player: a new password (returned; the old one no
        longer works) and a welcome mail with the current position to the seat's address."""
        from pbem.mailout import notify

        password = new_password_text = None
        if reset_password:
            new_password_text = password = new_password()
            salt, digest = hash_password(password)  # hashed before the write transaction
        with self.store.transaction():
            game = self.load(game_id)
            if seat not in game.seats:
                raise DomainError(f"no seat {seat!r} in {game_id}")
            row = game.seats[seat]
            display, new_email = parse_address(email) if email else (None, row["email"])
            addresses = sorted({new_email.lower(), *(parse_address(a)[1] for a in extra)}
                               | ({a for a in row["addresses"]} if not email else set()))
            payload = {"seat": seat, "email": new_email, "addresses": addresses}
            if email:  # a new player's name replaces the old one's
                payload["display_name"] = display
            if new_password_text:
                payload["password_reset"] = True  # the hash lives in the secrets table, never the log
            event = self.store.append(game_id, [NewEvent("SeatChanged", payload)], game.last_seq).events[0]
            # the projection's log head moves with the log, or `pbem log` and `replay --verify`
            # would take the correction for a truncated log
            moved = bool(email) and new_email.lower() != row["email"].lower()
            if moved:  # the one who played the seat is told (the new address is not named)
                from pbem.loop.seats import seat_left_notice

                notify.queue(self.store, game, seat_left_notice(game, seat, row["email"], bool(new_password_text),
                                                                self.sender), cause_seq=event.seq)
            if new_password_text:
                seed, credentials = self.store.secrets(game_id)
                credentials[seat] = {"salt": salt, "password_hash": digest}
                self.store.put_secrets(game_id, seed or game.seed, credentials)
            after = self.load(game_id)
            self._project(after)
            if new_password_text:
                last = after.turns[-1]["turn"] if after.turns else None
                notify.queue(self.store, after, notify.welcome(after, seat, new_password_text, self.sender, last,
                                                               takeover=moved), cause_seq=event.seq)
        return password

    def set_digest(self, game_id: str, seat: str, on: bool, source: Mapping[str, Any],
                   key: str | None = None) -> StoredEvent | None:
        """Record ``seat``'s mail preference (``SeatPreference``): with ``on``, its reports come
        as plain text without pictures (the "digest"); None when it is so already (nothing is
        recorded)."""
        with self.store.transaction():
            game = self.load(game_id)
            game.require_running_seat(seat, ": no more reports are mailed")
            if game.wants_digest(seat) == on:
                return None
            payload = {"seat": seat, "digest": on, "source": dict(source)}
            event = self.store.append(game_id, [NewEvent("SeatPreference", payload, key=key)], game.last_seq).events[0]
            self._project(self.load(game_id))
            return event

    def abandon(self, game_id: str, reason: str) -> None:
        """End a game early (GM decision); recorded as an event."""
        with self.store.transaction():
            game = self.load(game_id)
            self.store.append(game_id, [NewEvent("GameAbandoned", {"reason": reason}),
                                        NewEvent("SeedRevealed", {"seed": game.seed})], game.last_seq)
            self._project(self.load(game_id))
