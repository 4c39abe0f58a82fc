"""The GM's operations on games: the imperative shell around the pure engines.

Every operation loads the game from its events, calls the pure engine, and appends the
resulting events together with the outbox mail they cause in ONE transaction (so a crash
never leaves half a turn, and nothing is recorded twice).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from adjudicator.base import GM, GameError, canonical_json, state_hash
from adjudicator.registry import get_engine
from adjudicator.chance import commitment
from pbem.loop import deadlines
from pbem.loop.deadlines import parse_deadline  # noqa: F401  (kept importable from here)
from pbem.store.auth import (check_game_id, check_password, check_seat_name, hash_password, new_password,
                       parse_address)
from pbem.errors import DomainError
from pbem.store.events import (KEYED_DIGEST, Game, ReplayMismatch, SeedUnknown, copy_game, fold, fold_known, fold_more,
                         text_digest,
                         freeze, state_digest, thaw)
from pbem.store.db import NewEvent, StoredEvent, Store
from pbem.store.clubstate import TYPES as CLUB_TYPES
from pbem.store.projection import final_winner


@dataclass
class Created:
    """The result of :meth:`Service.new_game`: the game and each seat's password (shown once)."""

    game: Game
    passwords: dict[str, str]


@dataclass
class Submitted:
    """The result of recording a seat's orders."""

    event: StoredEvent
    duplicate: bool
    turn: str
    game: Game | None = None  # the game with these orders recorded (the caller's to keep)


#: Games already folded in this process: (database, game) -> (hash of last event, game, its
#: state frozen), the most recently used last. A cache only: checked against the log's hash
#: before every use; at most :data:`CACHE_GAMES` games, so a command over thousands of games
#: keeps a few in memory. The cached game's state is never handed out: every load thaws a
#: private copy from the frozen bytes.
_CACHE: OrderedDict[tuple[str, str], tuple[str, Game, bytes]] = OrderedDict()
CACHE_GAMES = 32
#: The event types whose fold leaves the engine state alone (pbem.store.events._apply): they change
#: only the game's bookkeeping (submitted orders, deadlines, seats...).
_STATELESS_EVENTS = frozenset({"OrdersSubmitted", "OrdersVoided", "DeadlineSet", "SeatChanged",
                               "GameAbandoned", "SeedRevealed", "SeatPreference"}) | CLUB_TYPES


def _remember(key: tuple[str, str], entry: tuple[str, Game, bytes]) -> None:
    _CACHE[key] = entry
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_GAMES:
        _CACHE.popitem(last=False)


class Service:
    """Game operations over one :class:`pbem.store.db.Store`."""

    def __init__(self, store: Store, sender: str = "pbem@localhost") -> None:
        self.store = store
        self.sender = sender

    # -- reading --------------------------------------------------------------------
    def game_record(self, game: Game) -> str:
        """The readable record of ``game`` (:mod:`pbem.archives.records`), as the observers'
        final mail carries it: the club asks the service, as it sits below the archives."""
        from pbem.archives.records import record_of
        from turns.record import write_record

        return write_record(record_of(game, self.store.events(game.game_id)))

    def load(self, game_id: str, verify: bool = False, until_turn: str | None = None) -> Game:
        """``game_id`` as of its last event: from this process's cache, else from its head in
        the store (:mod:`pbem.store.heads`), else rebuilt from its events; ``verify`` rebuilds it and
        re-checks every recorded hash, ``until_turn`` rebuilds it up to that turn."""
        from pbem.store import heads

        check_game_id(game_id)
        self.store.require_game(game_id)
        seed, credentials = self.store.secrets(game_id)
        game = None
        if not verify and until_turn is None:
            game = self._from_cache(game_id)
            if game is None:
                game = heads.read(self.store, game_id, seed)
                if game is not None and self.store.path != ":memory:":
                    _remember((self.store.path, game_id),
                              _cached(self.store.event_hash(game_id, game.last_seq) or "", game))
        if game is None:
            game = self._replay(game_id, seed, verify, until_turn)
        if isinstance(game.turns, heads.Turns):
            game.turns.bind(heads.payload_reader(self.store, game_id))
        for name, cred in credentials.items():  # always the current password hashes
            if name in game.seats:
                game.seats[name].update(cred)
        return game

    def _replay(self, game_id: str, seed: str | None, verify: bool, until_turn: str | None) -> Game:
        """``game_id`` rebuilt from its events (from the last turn's snapshot unless verifying)."""
        events = self.store.events(game_id)
        snapshot = None if verify or until_turn else self.store.snapshot(game_id)
        try:
            try:
                game = fold(game_id, events, seed, verify=verify, until_turn=until_turn, snapshot=snapshot)
            except ReplayMismatch:
                if snapshot is None:
                    raise
                game = fold(game_id, events, seed)  # a stale cache: ignore it
        except SeedUnknown as exc:
            raise DomainError(str(exc)) from None
        if not verify and until_turn is None and events and self.store.path != ":memory:":
            _remember((self.store.path, game_id), _cached(events[-1].hash, game))
        return game

    def _from_cache(self, game_id: str) -> Game | None:
        """The game from this process's cache, brought up to date with newer events."""
        key = (self.store.path, game_id)
        if key not in _CACHE or self.store.path == ":memory:":
            return None
        last_hash, cached, frozen = _CACHE[key]
        if self.store.event_hash(game_id, cached.last_seq) != last_hash:
            del _CACHE[key]  # the log changed under us (rolled back, or another database)
            return None
        newer = self.store.events(game_id, after=cached.last_seq)
        try:
            game = fold_more(copy_game(cached, thaw(frozen)), newer)
        except ReplayMismatch:
            del _CACHE[key]
            return None
        if newer:
            # events that leave the state alone (orders, deadlines, seats...): the frozen
            # bytes still hold it, and are kept instead of pickling the state again
            same = all(ev.type in _STATELESS_EVENTS for ev in newer)
            _remember(key, _cached(newer[-1].hash, game, frozen if same else None))
        else:
            _CACHE.move_to_end(key)
        return game

    def seat_names(self, game_id: str) -> list[str]:
        """The seat names of ``game_id`` (fixed when the game is created), in seating order:
        read from its ``GameCreated`` event, without loading the game."""
        rows = self.store.conn.execute(
            "select json_extract(s.value, '$.name') from events e, json_each(e.payload, '$.seats') s "
            "where e.game_id = ? and e.seq = 1 and e.type = 'GameCreated' order by s.key", [game_id]).fetchall()
        if not rows:
            return list(self.load(game_id).seats)
        return [str(r[0]) for r in rows]

    def status(self, game_id: str | None = None) -> list[dict[str, Any]]:
        """Per game: turn, who has submitted, who is awaited, deadline, over, winner, and
        the press rules with the press each seat has sent in the pending turn."""
        from pbem.mailout import press

        ids = [game_id] if game_id else self.store.game_ids()
        now = self.store.clock()
        from pbem.club import hooks as club

        from pbem.mailout import languages

        return [{**self.game_status(game), **deadlines.status_fields(game, now), **press.status_fields(self.store, game),
                 **club.status_fields(game, now, self.store), **languages.status_fields(game)}
                for game in (self.load(g) for g in ids)]

    @staticmethod
    def game_status(game: Game) -> dict[str, Any]:
        """The status dict of one loaded game."""
        pending = game.pending
        submitted, awaiting = submitted_and_awaiting(game)
        return {
            "game": game.game_id, "engine": game.engine.name, **rules_fields(game),
            "turn": pending.turn if pending else None, "kind": pending.kind if pending else None,
            "submitted": submitted, "awaiting": awaiting, "planned": planned_seats(game, awaiting),
            "deadline": game.deadline, "over": pending is None,
            "winner": final_winner(game) if pending is None else None, "ended": club_ended(game),
            "abandoned": game.abandoned, "scores": game.engine.scores(game.state),
            "seats": list(game.seats), "state_hash": game.state_hash,
            "digest": [s for s in game.seats if game.wants_digest(s)],
        }

    # -- creating ---------------------------------------------------------------------
    def new_game(self, game_id: str, engine_name: str, seats: Sequence[tuple[str, str]],
                 options: Mapping[str, str] | None = None, seed: str | None = None,
                 deadline: str | None = None, deadline_every: str | None = None,
                 decision_every: str | None = None, remind_before: str | None = None,
                 colors: Mapping[str, str] | None = None, language: str | None = None,
                 languages: Mapping[str, str] | None = None) -> Created:
        """Create a game; returns it with the seats' passwords (the GM's only chance to see them).
        ``language``: the game's default language; ``languages``: a seat's own (pbem.mailout.languages)."""
        from pbem.mailout import notify
        from pbem.loop.seeds import new_seed

        check_game_id(game_id)
        engine = _engine(engine_name)
        names = [check_seat_name(n) for n, _ in seats]
        addresses = {name: parse_address(email) for name, email in seats}  # refused before anything is made
        if len(set(names)) != len(names):
            raise DomainError("seat names must be different")
        from pbem.mailout.languages import check as check_language

        language = check_language(language) if language else None
        languages = {s: check_language(code) for s, code in (languages or {}).items()}
        if not engine.min_seats <= len(names) <= engine.max_seats:
            raise DomainError(f"{engine.name} needs {engine.min_seats}-{engine.max_seats} seats, got {len(names)}")
        if deadline and deadlines.is_due(parse_deadline(deadline), self.store.clock()):
            raise DomainError(f"the deadline {deadline} has already passed; give a later one, or a relative "
                              "clock (--deadline-every 72h: each turn is due 72 hours after it opens)")
        seed = seed or new_seed()
        from pbem.mailout.press import split_options

        options, press_rules = split_options(dict(options or {}))  # press options are the service's
        from pbem.club.options import split as club_split

        options, club_rules = club_split(options)  # so are the club's (absences, civil disorder, joining)
        check = getattr(engine, "check_options", None)  # at creation only: a replay never runs it
        problems = check(options) if check is not None else []
        if problems:
            raise DomainError(f"{len(problems)} problem(s) in the options; nothing was created:\n"
                              + "\n".join(f"  - {p}" for p in problems))
        try:
            state, setup_events = engine.create(names, options, seed)
        except GameError as exc:
            raise DomainError(str(exc)) from None
        passwords = {name: new_password() for name in names}
        seat_rows, credentials = [], {}
        for name, email in seats:
            salt, digest = hash_password(passwords[name])
            credentials[name] = {"salt": salt, "password_hash": digest}
            display, address = addresses[name]
            seat_rows.append({"name": name, "email": address, "addresses": [address],
                              **({"display_name": display} if display else {}),
                              **({"language": languages[name]} if name in languages else {})})
        payload = {
            "game": game_id, "engine": engine.name, "engine_version": engine.version, "seats": seat_rows,
            "options": options, "commitment": commitment(seed), "data_files": engine.data_files(),
            "setup_events": setup_events, "state_hash": state_digest(state, seed, KEYED_DIGEST),
            "state_digest": KEYED_DIGEST, "deadlines": {"*": parse_deadline(deadline)} if deadline else {},
        }
        if language:
            payload["language"] = language
        if press_rules is not None:
            payload["press"] = press_rules
        if club_rules is not None:
            payload["club"] = club_rules
        from pbem.mailout import colours

        wanted = colours.assign(engine.name, names, colors)
        if wanted != colours.of_view(engine.view(state, GM)):  # recorded only where the engine's differ
            payload["colors"] = wanted
        for key, text in (("deadline_every", deadline_every), ("decision_every", decision_every),
                          ("remind_before", remind_before)):
            if text:  # relative clocks, in seconds (pbem.loop.deadlines)
                payload[key] = int(deadlines.parse_duration(text).total_seconds())
        with self.store.transaction():
            if self.store.game_row(game_id) is not None:
                raise DomainError(f"game {game_id!r} already exists")
            self.store.append(game_id, [NewEvent("GameCreated", payload)], expected_seq=0)
            self.store.put_secrets(game_id, seed, credentials)
            game = fold(game_id, self.store.events(game_id), seed)
            self._project(game, created=True)
            game = self._start_clock(game, self.store.clock())
            self._project(game)
            for name, _ in seats:
                notify.queue(self.store, game, notify.welcome(game, name, passwords[name], self.sender))
        return Created(game, passwords)

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
                        source: Mapping[str, Any], key: str | None = None) -> Submitted:
        """Record ``seat``'s standing orders (games that have them, e.g. Havoc): they replace
        the seat's earlier standing orders and apply whenever its decisions come up."""
        with self.store.transaction():
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
                self._project(self.load(game_id))
            else:  # this call's own copy, brought to the new event (its standing orders applied once)
                after = fold_more(game, result.events)
                self._project(after)
                self.remember(after)
            return Submitted(result.events[0], result.duplicate, "standing")

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
            if seat not in game.seats:
                raise DomainError(f"no seat {seat!r} in {game_id}")
            if game.pending is None:
                raise DomainError(f"game {game_id} is over: no more reports are mailed")
            if game.wants_digest(seat) == on:
                return None
            payload = {"seat": seat, "digest": on, "source": dict(source)}
            event = self.store.append(game_id, [NewEvent("SeatPreference", payload, key=key)], game.last_seq).events[0]
            self._project(self.load(game_id))
            return event

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
                game = club.turn_open(self, self.load(game_id), now)  # bots for the seats they play, absences
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
                payload = {"turn": pending.turn, "orders": orders, "defaulted": defaulted, "forced": bool(defaulted),
                           "events": derived, "state_hash": text_digest(text, game.seed, game.digest_scheme),
                           "scores": game.engine.scores(state), "over": over,
                           "winner": game.engine.winner(state) if over else None}
                new = [NewEvent("TurnAdjudicated", payload)]
                if over:  # the game ended: reveal the seed so every draw can be verified
                    new.append(NewEvent("SeedRevealed", {"seed": game.seed}))
                stored = self.store.append(game_id, new, game.last_seq)
                self._snapshot(game_id, stored.events[0].seq, text)
                # this call's own copy, brought to the recorded events without running the engine again
                after = self._start_clock(fold_known(game, stored.events, state), now)
                self._project(after, text if after.state is state else None)
                self.remember(after)
                from pbem.store import turnhistory

                turnhistory.keep(self.store, game_id, stored.events[0].seq,
                                 turnhistory.entry_after(after, {**payload, "seq": stored.events[0].seq}))
                for seat in defaulted:  # a late notice: what was played for the seat
                    from turns.base import format_orders

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

    def awaited(self, game: Game) -> list[str]:
        """The pending seats that have no orders yet (neither submitted nor standing)."""
        from pbem.store.projection import awaited

        return awaited(game)

    def _announce(self, game: Game, cause_seq: int, reported: set[str]) -> None:
        """Queue a "your move" mail for each awaited seat that got no report in this step."""
        from pbem.mailout import notify
        from pbem.mailout.turnmail import announce

        for message in announce(self.store, game, self.awaited(game), self.sender, cause_seq, reported):
            notify.queue(self.store, game, message, cause_seq=cause_seq)

    def abandon(self, game_id: str, reason: str) -> None:
        """End a game early (GM decision); recorded as an event."""
        with self.store.transaction():
            game = self.load(game_id)
            self.store.append(game_id, [NewEvent("GameAbandoned", {"reason": reason}),
                                        NewEvent("SeedRevealed", {"seed": game.seed})], game.last_seq)
            self._project(self.load(game_id))

    # -- projections ---------------------------------------------------------------------
    def _project(self, game: Game, state_text: str | None = None, created: bool = False) -> None:
        """Write the games row, the due index, the head and the seat addresses of ``game``
        (folded at its last event) inside the caller's transaction (:mod:`pbem.store.projection`);
        ``state_text``: the canonical JSON of its state, made already."""
        from pbem.store import projection

        projection.project(self.store, game, created, state_text)

    def remember(self, game: Game) -> None:
        """Keep ``game`` (folded at the log's last event, which this caller recorded) in this
        process's cache, so the next load needs neither the store's head nor a replay."""
        if self.store.path != ":memory:":
            last = self.store.log_head(game.game_id)
            if last[0] == game.last_seq:
                _remember((self.store.path, game.game_id), _cached(last[1], game))

    def _snapshot(self, game_id: str, seq: int, text: str) -> None:
        """Cache the state right after the TurnAdjudicated event ``seq`` (never the truth), given
        as its canonical JSON ``text``."""
        import hashlib

        self.store.conn.execute(
            "insert or replace into snapshots (game_id, seq, state, state_hash) values (?, ?, ?, ?)",
            [game_id, seq, text, hashlib.sha256(text.encode("utf-8")).hexdigest()])  # GM-only cache

    def view(self, game: Game, viewer: str = GM) -> Any:
        """The engine's view of the current state for ``viewer``, with the game's seat colours
        (the GM's choice at creation, as the reports draw them)."""
        from pbem.mailout import colours

        if viewer not in (GM, "@public") and viewer not in game.seats:
            raise DomainError(f"no seat {viewer!r} in {game.game_id}")
        return colours.seat_view(game, viewer)  # the game's seat colours, as every output has them


def rules_fields(game: Game) -> dict[str, Any]:
    """The rules version a game plays, the newest this pbem has, and the upgrades it had."""
    releases = getattr(game.engine, "releases", None)
    newest = releases.newest.version if releases is not None else game.engine.version
    return {"engine_version": game.engine.version, "newest_version": newest,
            "upgrades": [{"from": u["from"], "to": u["to"], "turn": u["turn"]} for u in game.upgrades]}


def club_ended(game: Game) -> dict[str, Any] | None:
    """How the players ended the game ({how, seats, turn}), or None (:mod:`pbem.club.endings`)."""
    ended = game.club.ended
    return None if ended is None else {k: ended[k] for k in ("how", "seats", "turn")}


def submitted_and_awaiting(game: Game) -> tuple[list[str], list[str]]:
    """The pending turn's seats that have submitted orders (sorted), and those still awaited
    (in the engine's order); both empty when nothing is pending."""
    pending = game.pending
    if pending is None:
        return [], []
    submitted = sorted(s for s, o in game.submitted.items() if o["turn"] == pending.turn)
    return submitted, [s for s in pending.seats if s not in submitted]


def planned_seats(game: Game, awaiting: list[str]) -> list[str]:
    """The ``awaiting`` seats whose standing orders or plan lines (Havoc, God's Playground)
    answer the pending decision: nothing more is awaited from them unless those fail."""
    auto = getattr(game.engine, "auto_orders", None)
    return [s for s in awaiting if auto is not None and auto(game.state, s) is not None]


def _cached(last_hash: str, game: Game, frozen: bytes | None = None) -> tuple[str, Game, bytes]:
    """A cache entry for ``game``: its own copy of the bookkeeping, and the state only frozen
    (the entry's ``state`` is left empty: loads thaw theirs from the bytes); ``frozen``: the
    state's bytes when they are known already."""
    return last_hash, copy_game(game, {}), freeze(game.state) if frozen is None else frozen


def _engine(name: str) -> Any:
    try:
        return get_engine(name)
    except GameError as exc:
        raise DomainError(str(exc)) from None
