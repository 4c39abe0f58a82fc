"""Playing a game: a seat's credentials checked, its orders and standing orders recorded, the
pending turn adjudicated and announced, relative clocks started."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.base import canonical_json
from pbem.loop import deadlines
from pbem.store.auth import check_game_id, check_password
from pbem.errors import DomainError
from pbem.store.events import Game, fold_known, fold_more, text_digest
from pbem.store.db import NewEvent, StoredEvent


@dataclass
class Submitted:
    """The result of recording a seat's orders."""

    event: StoredEvent
    duplicate: bool
    turn: str
    game: Game | None = None  # the game with these orders recorded (the caller's to keep)


class Playing:
    """Orders and adjudication (a part of :class:`~pbem.loop.service.Service`)."""

    # -- orders ------------------------------------------------------------------------
    def authenticate(self, game_id: str, seat: str, password: str, sender: str | None) -> Game | None:
        """The game if ``seat``'s password (and the sender's address, when given) match, else None."""
        return self.check_credentials(game_id, seat, password, sender)[0]

    def check_credentials(self, game_id: str, seat: str, password: str, sender: str | None,
                          game: Game | None = None) -> tuple[Game | None, str]:
        """``(game, "")`` when the credentials match, else ``(None, why)`` with why one of
        ``unknown game``, ``unknown seat``, ``wrong password``, ``sender not registered``
        (for the GM only: the player's reply never says which). ``game``: the caller's own
        copy of the game, up to date, used instead of loading it."""
        try:
            check_game_id(game_id)
        except DomainError:
            return None, "unknown game"
        if game is None or game.game_id != game_id:
            if self.store.game_row(game_id) is None:
                return None, "unknown game"
            game = self.load(game_id)
        row = game.seats.get(seat)
        if row is None:
            return None, "unknown seat"
        # the sender first: a block from an address the seat has not registered costs no password hash
        if sender is not None and sender.strip().lower() not in {a.lower() for a in row["addresses"]}:
            return None, "sender not registered"
        if not check_password(password, row["salt"], row["password_hash"]):
            return None, "wrong password"
        return game, ""

    def submit(self, game_id: str, seat: str, orders: list[dict[str, Any]], text: str,
               source: Mapping[str, Any], key: str | None = None, expected_seq: int | None = None,
               game: Game | None = None, validated: bool = False) -> Submitted:
        """Record ``seat``'s validated orders for the pending turn (the last accepted set counts).

        ``game``: the caller's own copy of the game, loaded inside the caller's transaction
        and not changed since (ingest has just checked the orders against it): it is used
        instead of loading the game again, and advanced in place. The append still checks
        that no event was recorded after it (else :class:`pbem.store.db.ConflictError`).
        ``validated``: the caller has just validated ``orders`` with the engine against that
        ``game`` (ingest's :func:`turns.base.check_orders`), so they are not validated again."""
        with self.store.transaction():
            if game is None or game.game_id != game_id:
                game, validated = self.load(game_id), False
            pending = game.pending
            if pending is None:
                raise DomainError(f"game {game_id} is over; no orders are awaited")
            if seat not in pending.seats:
                raise DomainError(f"{seat} has no decision pending in {game_id} (turn {pending.turn})")
            problems = [] if validated else game.engine.validate(game.state, seat, orders)
            if problems:
                raise DomainError(f"orders for {seat} are not legal: {problems[0].message}")
            payload = {"seat": seat, "turn": pending.turn, "orders": orders, "text": text, "source": dict(source)}
            result = self.store.append(game_id, [NewEvent("OrdersSubmitted", payload, key=key)],
                                       expected_seq if expected_seq is not None else game.last_seq)
            if not result.duplicate and expected_seq is None:
                after = fold_more(game, result.events)  # ``game`` is this call's own copy: advanced in place
                # an OrdersSubmitted changes none of the projected fields but the log's head and
                # the due index (not the state, its hash, turn or deadline): only those are written
                from pbem.store import projection

                projection.after_orders(self.store, after, result.events[-1].hash)
            else:
                after = self.load(game_id)
                self._project(after)
            return Submitted(result.events[0], result.duplicate, pending.turn, after)

    def submit_standing(self, game_id: str, seat: str, orders: list[dict[str, Any]], text: str,
                        source: Mapping[str, Any], key: str | None = None, game: Game | None = None) -> Submitted:
        """Record ``seat``'s standing orders (games that have them): they replace
        the seat's earlier standing orders and apply whenever its decisions come up.
        ``game``: the caller's own copy of the game, as :meth:`submit` takes it (used instead
        of loading the game, advanced in place; the append checks that no event came after
        it). The result's ``game`` is the game with the orders recorded."""
        with self.store.transaction():
            if game is None or game.game_id != game_id:
                game = self.load(game_id)
            check = getattr(game.engine, "validate_standing", None)
            if check is None:
                raise DomainError(f"{game.engine.name} has no standing orders")
            if game.pending is None:
                raise DomainError(f"game {game_id} is over; no orders are awaited")
            problems = check(game.state, seat, orders)
            if problems:
                raise DomainError(f"standing orders for {seat} are not legal: {problems[0].message}")
            payload = {"seat": seat, "orders": orders, "text": text, "source": dict(source)}
            result = self.store.append(game_id, [NewEvent("StandingOrders", payload, key=key)], game.last_seq)
            if result.duplicate:
                after = self.load(game_id)
                self._project(after)
            else:  # this call's own copy, brought to the new event (its standing orders applied once)
                after = fold_more(game, result.events)
                text = canonical_json(after.state)  # the head's text, and the process cache's
                # standing orders just changed the state: no event records the hash of this one
                self._project(after, text, hash_seq=None, known_hash_seq=True)
                self.remember(after, text)
            return Submitted(result.events[0], result.duplicate, "standing", after)

    # -- adjudication ------------------------------------------------------------------
    def ready(self, game: Game) -> bool:
        """True when every pending seat has orders (submitted or standing) for the pending turn."""
        from pbem.store.projection import orders_for

        pending = game.pending
        return pending is not None and all(orders_for(game, s) is not None for s in pending.seats)

    def _orders_for(self, game: Game, seat: str) -> list[dict[str, Any]] | None:
        from pbem.store.projection import orders_for

        return orders_for(game, seat)

    def adjudicate(self, game_id: str, force: bool = False, limit: int = 10_000,
                   force_turn: str | None = None, now: datetime | None = None) -> list[dict[str, Any]]:
        """Resolve pending turns while their orders are in; ``force`` applies the missed-orders
        policy to the first pending turn, and only if it is ``force_turn`` (the turn the caller
        looked at) when that is given. Each turn is decided and resolved in one write
        transaction, so two overlapping runs never resolve a turn they did not see.
        Returns the ``TurnAdjudicated`` payloads recorded."""
        from pbem.mailout import notify
        from pbem.club import hooks as club

        done: list[dict[str, Any]] = []
        now = now or self.store.clock()
        while len(done) < limit:
            with self.store.transaction():
                # bots for the seats they play, absences; the game decided is kept once decided (remember)
                game = club.turn_open(self, self.load(game_id, keep=False), now)
                pending = game.pending
                forced = force and not done and (force_turn is None or pending is not None
                                                 and pending.turn == force_turn)
                if pending is None or not (self.ready(game) or forced):
                    break
                if game.created.get("chance") == "recorded":  # a historical game has no seed to draw from
                    raise DomainError(f"{game_id} is a historical game (its chance was recorded at the table): "
                                      "type its next turns into its record and import that again")
                orders, defaulted = {}, []
                for seat in pending.seats:
                    chosen = self._orders_for(game, seat)
                    if chosen is None:
                        chosen = game.engine.default_orders(game.state, seat)
                        defaulted.append(seat)
                    orders[seat] = chosen
                state, derived = game.engine.advance(game.state, orders, game.chance_seed)
                over = game.engine.pending(state) is None
                text = canonical_json(state)  # encoded once: the recorded hash, the snapshot, the head
                digest = text_digest(text, game.seed, game.digest_scheme)  # hashed once: the event and the head
                payload = {"turn": pending.turn, "orders": orders, "defaulted": defaulted, "forced": bool(defaulted),
                           "events": derived, "state_hash": digest,
                           "scores": game.engine.scores(state), "over": over,
                           "winner": game.engine.winner(state) if over else None}
                new = [NewEvent("TurnAdjudicated", payload)]
                if over:  # the game ended: reveal the seed so every draw can be verified
                    new.append(NewEvent("SeedRevealed", {"seed": game.seed}))
                stored = self.store.append(game_id, new, game.last_seq)
                self._snapshot(game_id, stored.events[0].seq, text)
                # this call's own copy, brought to the recorded events without running the engine again
                after = self._start_clock(fold_known(game, stored.events, state), now)
                if after.state is state:  # the TurnAdjudicated just recorded holds this state's hash
                    self._project(after, text, state_digest=digest, hash_seq=stored.events[0].seq,
                                  known_hash_seq=True)
                    self.remember(after, text)
                else:
                    self._project(after)
                    self.remember(after)
                from pbem.store import turnhistory

                turnhistory.keep(self.store, game_id, stored.events[0].seq,
                                 turnhistory.entry_after(after, {**payload, "seq": stored.events[0].seq}))
                for seat in defaulted:  # a late notice: what was played for the seat
                    from turns.games import format_orders

                    notice = deadlines.late_notice(after, seat, pending.turn,
                                                   format_orders(game.engine.name, orders[seat]), self.sender,
                                                   pending.kind)
                    notify.queue(self.store, after, notice, cause_seq=stored.events[0].seq)
                reports = notify.turn_reports(after, payload, self.sender, self.store)
                for message in reports:
                    notify.queue(self.store, after, message, cause_seq=stored.events[0].seq)
                self._announce(after, stored.events[0].seq, {m.to for m in reports if m.kind == "report"})
                club.after_turn(self, after, payload, reports, stored.events[0].seq)  # observers, civil disorder, votes
                done.append(payload)
        return done

    def _start_clock(self, game: Game, now: datetime) -> Game:
        """Give the pending turn its relative deadline (``--deadline-every``/``--decision-every``),
        counted from ``now``; inside the caller's transaction. Returns the game, reloaded."""
        every = deadlines.clock_of(game)
        if every is None or game.pending is None or game.pending.turn in game.deadlines:
            return game
        value = deadlines.utc_text(now + every)
        stored = self.store.append(game.game_id, [NewEvent("DeadlineSet", {"turn": game.pending.turn, "deadline": value,
                                                                            "utc": value, "relative": True})],
                                   game.last_seq)
        return fold_more(game, stored.events)  # a deadline leaves the state alone: no reload

    def _announce(self, game: Game, cause_seq: int, reported: set[str]) -> None:
        """Queue a "your move" mail for each awaited seat that got no report in this step."""
        from pbem.mailout import notify
        from pbem.mailout.turnmail import announce

        for message in announce(self.store, game, self.awaited(game), self.sender, cause_seq, reported):
            notify.queue(self.store, game, message, cause_seq=cause_seq)
