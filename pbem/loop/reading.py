"""Reading games for the GM's operations: a game loaded from its events (through a per-process
cache checked against the log), its status, a seat's view, its record.

The base of :class:`pbem.loop.service.Service`: the store, the clock and the sender it is
made with, and everything the other parts (creating, playing, correcting) read a game with."""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from adjudicator.base import GM, GameError
from adjudicator.registry import get_engine
from pbem.loop import deadlines
from pbem.store.auth import check_game_id
from pbem.errors import DomainError
from pbem.store.events import Game, ReplayMismatch, SeedUnknown, copy_game, fold, fold_more, freeze, thaw
from pbem.store.db import Store
from pbem.store.clubstate import TYPES as CLUB_TYPES
from pbem.store.projection import final_winner

#: A cached state: its :func:`pbem.store.events.freeze` bytes (a JSON text is thawed too, but
#: no caller keeps one: the canonical text's keys are sorted, see pbem.store.heads.FORMAT).
Frozen = str | bytes


#: Games already folded in this process: (database, game) -> (hash of last event, game, its
#: state frozen), the most recently used last. A cache only: checked against the log's hash
#: before every use; at most :data:`CACHE_GAMES` games, so a command over thousands of games
#: keeps a few in memory. The cached game's state is never handed out: every load thaws a
#: private copy from its pickled bytes (:func:`_thawed`), which keep every mapping's key order.
_CACHE: OrderedDict[tuple[str, str], tuple[str, Game, Frozen]] = OrderedDict()

CACHE_GAMES = 32

#: The event types whose fold leaves the engine state alone (pbem.store.events._apply): they change
#: only the game's bookkeeping (submitted orders, deadlines, seats...).
_STATELESS_EVENTS = frozenset({"OrdersSubmitted", "OrdersVoided", "DeadlineSet", "SeatChanged",
                               "GameAbandoned", "SeedRevealed", "SeatPreference"}) | CLUB_TYPES

def _remember(key: tuple[str, str], entry: tuple[str, Game, Frozen]) -> None:
    _CACHE[key] = entry
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_GAMES:
        _CACHE.popitem(last=False)

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
    """The ``awaiting`` seats whose standing orders or plan lines (the engine's ``auto_orders``)
    answer the pending decision: nothing more is awaited from them unless those fail."""
    auto = getattr(game.engine, "auto_orders", None)
    return [s for s in awaiting if auto is not None and auto(game.state, s) is not None]

def _cached(last_hash: str, game: Game, frozen: Frozen | None = None) -> tuple[str, Game, Frozen]:
    """A cache entry for ``game``: its own copy of the bookkeeping, and the state only frozen
    (the entry's ``state`` is left empty: loads thaw theirs from the frozen form); ``frozen``:
    the state's frozen form when it is known already (its canonical text, or its bytes)."""
    return last_hash, copy_game(game, {}), freeze(game.state) if frozen is None else frozen


def _thawed(frozen: Frozen) -> Any:
    """A new copy of a cached state (see :data:`_CACHE`)."""
    return json.loads(frozen) if isinstance(frozen, str) else thaw(frozen)

def _engine(name: str) -> Any:
    try:
        return get_engine(name)
    except GameError as exc:
        raise DomainError(str(exc)) from None


class Reading:
    """Loading and reading games: the part of :class:`~pbem.loop.service.Service` the others build on."""

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

    def load(self, game_id: str, verify: bool = False, until_turn: str | None = None, keep: bool = True) -> Game:
        """``game_id`` as of its last event: from this process's cache, else from its head in
        the store (:mod:`pbem.store.heads`), else rebuilt from its events; ``verify`` rebuilds it and
        re-checks every recorded hash, ``until_turn`` rebuilds it up to that turn. ``keep``
        False: a game read from the store is not put in the cache (the caller records events
        and keeps the game it ends with, :meth:`remember`: a copy made now would be replaced
        before anyone read it)."""
        from pbem.store import heads

        check_game_id(game_id)
        self.store.require_game(game_id)
        seed, credentials = self.store.secrets(game_id)
        game = None
        if not verify and until_turn is None:
            game = self._from_cache(game_id)
            if game is None:
                found = heads.read_with_text(self.store, game_id, seed)
                if found is not None:
                    game, _, last_hash = found
                    if keep and self.store.path != ":memory:":
                        _remember((self.store.path, game_id), _cached(last_hash, game))  # a pickled copy: key order kept
        if game is None:
            game = self._replay(game_id, seed, verify, until_turn, keep)
        if isinstance(game.turns, heads.Turns):
            game.turns.bind(heads.payload_reader(self.store, game_id))
        for name, cred in credentials.items():  # always the current password hashes
            if name in game.seats:
                game.seats[name].update(cred)
        return game

    def _replay(self, game_id: str, seed: str | None, verify: bool, until_turn: str | None,
                keep: bool = True) -> Game:
        """``game_id`` rebuilt from its events (from the last turn's snapshot unless verifying);
        ``keep``: put it in the cache (see :meth:`load`)."""
        events = self.store.events(game_id)
        # No snapshot: a snapshot holds a state's canonical text, whose keys are sorted, and a
        # released engine may list things in a mapping's key order (see pbem.store.heads.FORMAT);
        # a live load folds from the first event, as a replay does, when the head is not usable.
        snapshot = None
        try:
            try:
                game = fold(game_id, events, seed, verify=verify, until_turn=until_turn, snapshot=snapshot)
            except ReplayMismatch:
                if snapshot is None:
                    raise
                game = fold(game_id, events, seed)  # a stale cache: ignore it
        except SeedUnknown as exc:
            raise DomainError(str(exc)) from None
        if keep and not verify and until_turn is None and events and self.store.path != ":memory:":
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
            game = fold_more(copy_game(cached, _thawed(frozen)), newer)
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

    def awaited(self, game: Game) -> list[str]:
        """The pending seats that have no orders yet (neither submitted nor standing)."""
        from pbem.store.projection import awaited

        return awaited(game)

    # -- projections ---------------------------------------------------------------------
    def _project(self, game: Game, state_text: str | None = None, created: bool = False,
                 state_digest: str | None = None, hash_seq: Any = None, known_hash_seq: bool = False) -> None:
        """Write the games row, the due index, the head and the seat addresses of ``game``
        (folded at its last event) inside the caller's transaction (:mod:`pbem.store.projection`);
        ``state_text``: the canonical JSON of its state, made already; ``state_digest``: its
        digest, made already (the adjudication's recorded hash); ``hash_seq`` with
        ``known_hash_seq``: the last event that recorded the hash of this very state (None:
        standing orders changed it since), known from the events the caller just recorded."""
        from pbem.store import projection

        projection.project(self.store, game, created, state_text, state_digest,
                           hash_seq if known_hash_seq else projection.LOOK_UP)

    def remember(self, game: Game, state_text: str | None = None) -> None:
        """Keep ``game`` (folded at the log's last event, which this caller recorded) in this
        process's cache, so the next load needs neither the store's head nor a replay.

        The state is kept as a pickled copy, never as its canonical text (``state_text`` is
        not used for it): the canonical text sorts every mapping's keys, and a released engine
        may list things in the order of a mapping's keys (one lists the seats of a scoring
        box so), so a state thawed from that text could make the next
        decision record events in another order than a replay from the first event makes."""
        del state_text  # kept in the signature for the callers; see above
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
