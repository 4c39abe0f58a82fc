"""The input and derived event types of a game's log, and the fold that rebuilds a game.

Event types (stable names, version 1 each):

- ``GameCreated``: game, engine, engine_version, seats [{name, email, addresses, and the
  optional display_name and language}], options (the engine's), the optional language (the
  game's default, :mod:`pbem.mailout.languages`; none: English), press (the optional press rules
  {mode, max_bytes, per_turn} of :mod:`pbem.mailout.press`, never given to the engine),
  commitment (sha256 of the seed), data_files, setup_events, state_hash, deadlines,
  state_digest (the digest scheme of every state hash of the game, see below), and the
  optional relative clocks deadline_every, decision_every, remind_before (seconds), and
  ``chance = "recorded"`` for a historical game (its "seed" is the text of its
  recorded chance lines, :mod:`adjudicator.recorded`, and its commitment their hash). The seed
  and the password hashes are NOT in the log (they live in the store's ``secrets`` table),
  so a running game's log can be exported without revealing them.
- ``OrdersSubmitted``: seat, turn, orders (engine dicts), text (canonical order text),
  source {kind: mail|gm|bot, message_id, raw_sha256, date, sender}.
- ``OrdersVoided``: seat, turn, reason (a GM correction).
- ``StandingOrders``: seat, orders, text, source (games with standing orders).
- ``DeadlineSet``: turn, deadline (ISO 8601 with zone), utc (the same instant in UTC; deadlines
  are compared as instants), relative (true when set by a relative clock).
- ``SeatChanged``: seat, and what changed of email, addresses, display_name (a GM correction:
  a seat's addresses) and language with by (gm|player) (the language the seat reads).
- ``TurnAdjudicated``: turn, orders {seat: orders}, defaulted [seats], forced, events
  (the engine's derived events), state_hash, scores, over, winner.
- ``GameAbandoned``: reason.
- ``SeedRevealed``: seed (appended when the game ends; its sha256 must equal the commitment).
- ``RolledBack``: to (the turn opened again), reason, undone (the turn labels set aside, in
  order), keep_orders, state_hash (of the state rebuilt), turn (the pending turn after it).
  Nothing is deleted: :func:`pbem.store.rollback.live_events` says which events still count
  (see docs/gm-guide.md, "Rolling back").
- ``EngineUpgraded``: from, to (rules versions), reason, turn (the pending turn: an upgrade is
  made between turns), data_files (the new version's), state_hash (of the state as the new
  version keeps it). From there on the game is played under ``to`` (``pbem upgrade``).
- The club's events (absences, civil disorder, resignations, draw and concession votes, how the
  game ended, observers), folded into ``Game.club`` by :mod:`pbem.store.clubstate`, which lists them.
- ``SeatPreference``: seat, digest (true: the seat's reports come as plain text without
  pictures), source {kind: mail|gm, message_id, raw_sha256, date, sender} (a ``DIGEST ON``
  block, or ``pbem seat --digest``). Kept in :attr:`Game.prefs`; a rollback leaves it in force.

Rules versions: a game is replayed, verified and continued under the rules version and data
files its ``GameCreated`` recorded, and after an ``EngineUpgraded`` under the newer one
(:func:`engine_for`, :mod:`adjudicator.versions`); a version this pbem does not know is
refused by name, with the versions it knows.

The state is never stored as the truth: :func:`fold` rebuilds it from these events.

State hashes are published (reports, records, archives), so they must not let a seat test
guesses about hidden information (e.g. the 120 orders of five face-down action cards). Games created with ``state_digest = "hmac-sha256/seed"`` record every state
hash as an HMAC-SHA256 of the canonical state keyed with a key derived from the seed: nobody
can compute it before the seed is revealed at the end of the game, after which anyone can
re-check every one. Older games (no ``state_digest``) carry the plain :func:`state_hash`.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable
from typing import Any

from adjudicator.base import State, canonical_json
from adjudicator.chance import commitment
from pbem.store.clubstate import apply as club_apply
from pbem.store.db import StoredEvent
# a game's published hashes and the game as rebuilt are modules of their own, named here too
from pbem.store.digest import KEYED_DIGEST, state_digest, text_digest  # noqa: F401
from pbem.store.game import Game, chance_seed, engine_for  # noqa: F401
from pbem.store.mismatch import EngineVersionMismatch, ReplayMismatch  # noqa: F401 - defined apart, named here
from pbem.store.rollback import ROLLED_BACK, live_events, rollbacks_of

INPUT_TYPES = ("GameCreated", "OrdersSubmitted", "OrdersVoided", "StandingOrders", "DeadlineSet",
               "SeatChanged", "GameAbandoned", "SeedRevealed", "RolledBack", "EngineUpgraded", "SeatPreference",
               # the club's (pbem.store.clubstate): absences, civil disorder, votes, endings, observers
               "AbsenceDeclared", "AbsenceEnded", "CivilDisorder", "SeatReturned", "SeatResigned", "DrawVoted",
               "ConcessionVoted", "VotesClosed", "GameEnded", "ObserverAdded", "ObserverRemoved")
DERIVED_TYPES = ("TurnAdjudicated",)

#: Whether :func:`fold` hands each state it made over to the engine's ``advance_owned`` (changed
#: in place) instead of ``advance`` (a copy): the same states, hashes and verification results
#: (``tests/store/test_replay_in_place.py`` compares the two over the test games and the corpus).
IN_PLACE = True


class SeedUnknown(Exception):
    """The game cannot be replayed: its seed is neither known nor revealed in the log."""


def fold(game_id: str, events: Iterable[StoredEvent], seed: str | None = None, verify: bool = False,
         until_turn: str | None = None, snapshot: tuple[int, State] | None = None) -> Game:
    """Rebuild a game from its events; ``verify`` re-checks every hash and derived event.

    ``seed`` is the game's secret (from the store); without it the log must hold a
    ``SeedRevealed`` event. ``until_turn`` stops after that turn's ``TurnAdjudicated``.
    ``snapshot`` = (seq, state) of a cached state right after the ``TurnAdjudicated`` event
    ``seq``: the engine is not re-run up to there, and the cached state must hash to the
    recorded state hash (else :class:`ReplayMismatch`; the caller then folds without it).
    """
    events = list(events)
    if any(e.type == "RolledBack" for e in events):
        return _fold_rolled_back(game_id, events, seed, verify, until_turn, snapshot)
    return fold_live(game_id, events, seed, verify, until_turn, snapshot)


def _fold_rolled_back(game_id: str, events: list[StoredEvent], seed: str | None, verify: bool,
                     until_turn: str | None, snapshot: tuple[int, Any] | None) -> Game:
    """:func:`pbem.store.events.fold` of a log holding rollbacks: the events that still count are
    folded; ``verify`` also re-runs the history as it stood before each rollback (every turn
    adjudicated then, the ones set aside included) and checks each rollback's state hash."""
    seed = seed or next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    if verify:
        _verify_history(game_id, events, seed)
    live = live_events(events)
    game = fold_live(game_id, live, seed, verify, until_turn, None if verify else snapshot)
    if until_turn is None:
        game.last_seq = events[-1].seq
    game.rollbacks = [r for r in rollbacks_of(events) if r["seq"] <= game.last_seq]
    return game


def _verify_history(game_id: str, events: list[StoredEvent], seed: str | None) -> None:
    """Re-run (verifying) the log as it stood before its last rollback, which recursively
    covers the earlier ones, and check each rollback's recorded state hash."""
    last = max(i for i, e in enumerate(events) if e.type == ROLLED_BACK)
    fold(game_id, events[:last], seed, verify=True)  # checks the earlier rollbacks on the way
    for i in (last,):
        rebuilt = fold_live(game_id, live_events(events[:i + 1]), seed)
        want = events[i].payload.get("state_hash")
        got = state_digest(rebuilt.state, rebuilt.seed, rebuilt.digest_scheme)
        if want is not None and got != want:
            raise ReplayMismatch(f"event {events[i].seq} (RolledBack): the rebuilt state {got[:12]} differs "
                                 f"from the recorded {want[:12]}")


def fold_live(game_id: str, events: list[StoredEvent], seed: str | None = None, verify: bool = False,
              until_turn: str | None = None, snapshot: tuple[int, State] | None = None) -> Game:
    """:func:`fold` of a log without ``RolledBack`` events (or of the events that still
    count after them, :func:`pbem.store.rollback.live_events`)."""
    if snapshot is not None and not verify and until_turn is None:
        return _fold_from_snapshot(game_id, events, seed, snapshot)
    seed = seed or next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    if seed is None:
        raise SeedUnknown(f"game {game_id}: the seed is not known here and not revealed in the log, "
                          "so the game cannot be replayed (its hash chain can still be verified)")
    game: Game | None = None
    for ev in events:
        if ev.type == "GameCreated":
            game = _created(game_id, ev, seed, verify)
        elif game is None:
            raise ReplayMismatch(f"event {ev.seq} ({ev.type}) comes before GameCreated")
        else:
            # every state of this loop was made by the engine for this fold alone (the engine
            # contract's ownership rule), so it is handed over to the next decision, not copied
            _apply(game, ev, verify, owned=IN_PLACE)
            if ev.type == "TurnAdjudicated" and until_turn is not None and ev.payload["turn"] == until_turn:
                game.last_seq = ev.seq
                return game
        game.last_seq = ev.seq
    if game is None:
        raise ReplayMismatch(f"game {game_id} has no GameCreated event")
    return game


def _fold_from_snapshot(game_id: str, events: list[StoredEvent], seed: str | None,
                        snapshot: tuple[int, State]) -> Game:
    snap_seq, snap_state = snapshot
    head = [e for e in events if e.seq <= snap_seq]
    seed = seed or next((e.payload["seed"] for e in events if e.type == "SeedRevealed"), None)
    if not head or head[0].type != "GameCreated" or seed is None:
        raise ReplayMismatch(f"game {game_id}: cannot use the snapshot")
    created = head[0].payload
    scheme = created.get("state_digest")
    if head[-1].type != "TurnAdjudicated" or head[-1].seq != snap_seq or state_digest(snap_state, seed, scheme) != head[-1].payload["state_hash"]:
        raise ReplayMismatch(f"game {game_id}: snapshot at event {snap_seq} does not match the log")
    game = Game(game_id, engine_for(game_id, created, created_at=head[0].recorded_at), created, snap_state, seed, snap_seq,
                seats={s["name"]: dict(s) for s in created["seats"]}, deadlines=dict(created.get("deadlines", {})),
                opened_at=head[0].recorded_at)
    for ev in head[1:]:  # the bookkeeping of the events before the snapshot, without the engine
        _apply(game, ev, False, engine=False)
    game.state = snap_state
    for ev in events[len(head):]:
        _apply(game, ev, False)
        game.last_seq = ev.seq
    return game


def fold_more(game: Game, events: Iterable[StoredEvent]) -> Game:
    """Apply events that follow ``game.last_seq`` to ``game`` (in place) and return it."""
    for ev in events:
        if ev.seq != game.last_seq + 1:
            raise ReplayMismatch(f"event {ev.seq} does not follow event {game.last_seq}")
        if ev.type == "RolledBack":  # needs the whole log (pbem.store.rollback): the caller folds again
            raise ReplayMismatch(f"event {ev.seq} rolls the game back")
        _apply(game, ev, False)
        game.last_seq = ev.seq
    return game


def fold_known(game: Game, events: Iterable[StoredEvent], state: State) -> Game:
    """Apply events just recorded after ``game.last_seq`` to ``game`` (in place) when the state
    they lead to is known already (``state``: the engine's result the caller recorded): the
    bookkeeping is folded without running the engine again. Returns ``game``."""
    for ev in events:
        if ev.seq != game.last_seq + 1:
            raise ReplayMismatch(f"event {ev.seq} does not follow event {game.last_seq}")
        if ev.type == "RolledBack":
            raise ReplayMismatch(f"event {ev.seq} rolls the game back")
        _apply(game, ev, False, engine=False)
        game.last_seq = ev.seq
    game.state = state
    return game


def copy_game(game: Game, state: State | None = None) -> Game:
    """A copy of ``game`` that can be advanced without touching the original; ``state``
    (already a private copy, e.g. from :func:`thaw`) replaces a copy of ``game.state``."""
    import copy

    clone = copy.copy(game)
    clone.state = thaw(freeze(game.state)) if state is None else state
    clone.submitted = dict(game.submitted)
    clone.standing = dict(game.standing)
    clone.deadlines = dict(game.deadlines)
    clone.seats = {k: dict(v) for k, v in game.seats.items()}
    clone.turns = game.turns.copy()  # a list, or the turns of a head (pbem.store.heads.Turns)
    clone.rollbacks = list(game.rollbacks)
    clone.upgrades = list(game.upgrades)
    clone.club = game.club.copy()
    clone.prefs = {k: dict(v) for k, v in game.prefs.items()}
    return clone


def freeze(state: State) -> bytes:
    """``state`` as bytes that :func:`thaw` turns back into an equal, independent copy.

    A deep copy through pickle: for the plain JSON-like data of a state it is what
    ``copy.deepcopy`` gives (same types, same order, shared parts stay shared), several
    times faster; the bytes are kept by the service's cache, so each load costs one thaw."""
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)


def thaw(frozen: bytes) -> State:
    """A new copy of the state :func:`freeze` made ``frozen`` from."""
    return pickle.loads(frozen)  # noqa: S301 - our own bytes, made in this process


def fold_steps(game_id: str, events: Iterable[StoredEvent], seed: str) -> Iterable[Game]:
    """Like :func:`fold`, yielding the game after each ``TurnAdjudicated`` event.

    The same :class:`Game` object is yielded each time, updated in place: read what you
    need before asking for the next step.
    """
    events = list(events)
    live, rolled = live_events(events), rollbacks_of(events)
    game: Game | None = None
    for ev in live:
        if ev.type == "GameCreated":
            game = _created(game_id, ev, seed, False)
        elif game is not None:
            _apply(game, ev, False)
            game.rollbacks = [r for r in rolled if r["seq"] < ev.seq] if rolled else []
            game.last_seq = ev.seq
            if ev.type == "TurnAdjudicated":
                yield game


def _created(game_id: str, ev: StoredEvent, seed: str, verify: bool) -> Game:
    p = ev.payload
    if commitment(seed) != p["commitment"]:
        raise ReplayMismatch(f"game {game_id}: the seed does not match the published commitment")
    engine = engine_for(game_id, p, created_at=ev.recorded_at)
    state, setup_events = engine.create([s["name"] for s in p["seats"]], p["options"], chance_seed(p, seed, 0))
    if verify:
        _check(state_digest(state, seed, p.get("state_digest")), p["state_hash"], canonical_json(setup_events),
               ev, "setup_events", "setup")
    seats = {s["name"]: dict(s) for s in p["seats"]}
    return Game(game_id, engine, p, state, seed, ev.seq, seats=seats, deadlines=dict(p.get("deadlines", {})),
                opened_at=ev.recorded_at)


def _apply(game: Game, ev: StoredEvent, verify: bool, engine: bool = True, owned: bool = False) -> None:
    """Fold ``ev`` into ``game``; ``owned``: nothing but ``game`` holds ``game.state``, so the
    engine may change it in place (:func:`_advance`)."""
    p = ev.payload
    if verify and ev.type in ("OrdersSubmitted", "StandingOrders"):
        from pbem.store.verifyturn import check_text

        check_text(game, ev)
    if ev.type == "OrdersSubmitted":
        game.submitted[p["seat"]] = {**p, "seq": ev.seq}
    elif ev.type == "OrdersVoided":
        if game.submitted.get(p["seat"], {}).get("turn") == p["turn"]:
            del game.submitted[p["seat"]]
    elif ev.type == "StandingOrders":
        # standing orders live in the engine state, applied where they were recorded
        game.standing[p["seat"]] = {**p, "seq": ev.seq}
        if engine:
            game.state = game.engine.apply_standing(game.state, p["seat"], p["orders"])  # type: ignore[attr-defined]
    elif ev.type == "DeadlineSet":
        game.deadlines[p["turn"]] = p["deadline"]
        if p["turn"] == "*":
            game.every_set_at = ev.recorded_at
    elif ev.type == "SeatChanged":
        game.seats[p["seat"]].update({k: p[k] for k in ("email", "addresses", "display_name", "language") if k in p})
    elif ev.type == "SeatPreference":
        game.prefs[p["seat"]] = {**game.prefs.get(p["seat"], {}), "digest": bool(p["digest"])}
    elif ev.type == "SeedRevealed":
        if commitment(ev.payload["seed"]) != game.created["commitment"]:
            raise ReplayMismatch(f"event {ev.seq}: the revealed seed does not match the commitment")
    elif ev.type == "GameAbandoned":
        game.abandoned = p.get("reason", "abandoned")
    elif ev.type == "EngineUpgraded":
        _upgraded(game, ev, verify, engine)
    elif ev.type == "TurnAdjudicated" and not engine:
        game.opened_at = ev.recorded_at
        game.turns.append({**p, "seq": ev.seq})
        game.submitted = {s: o for s, o in game.submitted.items() if o["turn"] != p["turn"]}
    elif ev.type == "TurnAdjudicated":
        _adjudicated(game, ev, verify, owned)
    club_apply(game, ev, verify)  # absences, civil disorder, votes, endings, observers (pbem.club)


def _upgraded(game: Game, ev: StoredEvent, verify: bool, engine: bool) -> None:
    """``EngineUpgraded``: the game goes on under the newer rules version; its state becomes the
    state as that version keeps it (:func:`adjudicator.versions.upgraded_state`)."""
    from adjudicator.versions import upgraded_state

    p = ev.payload
    if game.engine.version != p["from"]:
        raise ReplayMismatch(f"event {ev.seq}: upgrades from rules {p['from']} but the game plays {game.engine.version}")
    new = engine_for(game.game_id, game.created, p["to"], p.get("data_files"))
    if engine:
        game.state = upgraded_state(game.engine, p["to"], game.state)
        if verify and game.digest(game.state) != p["state_hash"]:
            raise ReplayMismatch(f"event {ev.seq}: the state upgraded to rules {p['to']} does not match its "
                                 "recorded hash")
    game.engine = new
    game.upgrades.append({**p, "seq": ev.seq})


def _adjudicated(game: Game, ev: StoredEvent, verify: bool, owned: bool = False) -> None:
    p = ev.payload
    pending = game.pending_of(game.state)
    if pending is None or pending.turn != p["turn"]:
        raise ReplayMismatch(f"event {ev.seq}: adjudicates turn {p['turn']} but the game waits for "
                             f"{pending.turn if pending else 'nothing (over)'}")
    orders_checked = None
    if verify:
        from pbem.store.verifyturn import check_orders

        orders_checked = check_orders(game, ev, pending)  # of the state before: it may change in place
    state, derived = _advance(game, p["orders"], owned)
    if verify:
        derived_text = canonical_json(derived)
        # an engine whose state keeps the derived events (as its ``log``) has them encoded once
        known = ("log", derived_text) if isinstance(state, dict) and state.get("log") is derived else None
        # a sequential game's many small decisions leave most of its state as it was: its texts
        # are kept from one decision to the next (a whole season changes most of it)
        texts = game._texts if known is None else None
        _check(state_digest(state, game.seed, game.digest_scheme, known, texts), p["state_hash"], derived_text,
               ev, "events", f"turn {p['turn']} (event {ev.seq})")
        from pbem.store.verifyturn import check_turn

        check_turn(game, ev, orders_checked, state)  # every other field of the event
    game.state = state
    game.opened_at = ev.recorded_at
    game.turns.append({**p, "seq": ev.seq})
    game.submitted = {s: o for s, o in game.submitted.items() if o["turn"] != p["turn"]}


def _advance(game: Game, orders: dict[str, Any], owned: bool) -> tuple[State, list[dict[str, Any]]]:
    """The engine's ``advance`` of ``game.state``; with ``owned`` its ``advance_owned`` where it
    has one (the state is handed over: changed in place, not copied; the engine contract's
    ownership rule in :mod:`adjudicator.base`). What the game kept of the state it held
    (its pending decision) is dropped then: the state object may now hold another state."""
    in_place = getattr(game.engine, "advance_owned", None) if owned else None
    if in_place is None:
        return game.engine.advance(game.state, orders, game.chance_seed)
    game._pending = None
    return in_place(game.state, orders, game.chance_seed)


def _check(got_hash: str, want_hash: str, got_text: str, ev: StoredEvent, key: str, where: str) -> None:
    """Raise :class:`ReplayMismatch` unless the hashes and the derived events (``got_text``, the
    canonical text of the engine's; the recorded ones are ``ev.payload[key]``) are the same."""
    if not _same_events(got_text, ev, key):
        raise ReplayMismatch(f"{where}: the engine's derived events differ from the recorded ones")
    if got_hash != want_hash:
        raise ReplayMismatch(f"{where}: state hash {got_hash[:12]} differs from recorded {want_hash[:12]}")


def _same_events(got_text: str, ev: StoredEvent, key: str) -> bool:
    """Whether ``got_text`` is the canonical text of the recorded ``ev.payload[key]``.

    When the payload's stored JSON is at hand (``ev.text``, canonical as the store writes it),
    the recorded events are found in it instead of being encoded again: the text must begin
    with the canonical ``{"k":v,...`` of the keys that sort before ``key``, then ``"key":``
    and ``got_text`` ending there (a JSON value ends where its brackets close), and name
    ``key`` nowhere after it (so no second ``key`` overrides it; inside a JSON string a quote
    is escaped, so a string cannot contain ``"key":``). Otherwise, e.g. for events not read
    from a store, the recorded events are encoded."""
    text = ev.text
    if text is not None:
        name = canonical_json(key) + ":"
        before = canonical_json({k: v for k, v in ev.payload.items() if k < key})
        head = before[:-1] + ("," if len(before) > 2 else "") + name
        end = len(head) + len(got_text)
        if (text.startswith(head) and text.startswith(got_text, len(head)) and text[end:end + 1] in (",", "}")
                and text.find(name, end) == -1):
            return True
    return got_text == canonical_json(ev.payload[key])
