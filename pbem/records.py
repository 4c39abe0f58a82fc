"""Game records (see :mod:`turns.record`) written from a stored game and imported back."""

from __future__ import annotations

from typing import Any

from adjudicator.base import GameError
from adjudicator.registry import get_engine
from adjudicator.chance import commitment
from pbem.auth import check_game_id, check_seat_name
from pbem.errors import DomainError
from pbem.events import Game, ReplayMismatch, fold, state_digest
from pbem.store import NewEvent, Store, StoredEvent
from turns.base import format_orders, grammar_for
from turns.record import Record, RecordTurn, read_record


def record_of(game: Game, events: list[StoredEvent], reveal_seed: bool | None = None) -> Record:
    """The record of a loaded game; the seed is written only once the game is over."""
    created = game.created
    headers = [("Game", game.game_id), ("Engine", created["engine"]), ("EngineVersion", created["engine_version"])]
    headers += [("Seat", s["name"]) for s in created["seats"]]
    headers += [("Option", f"{k}={v}") for k, v in sorted(created["options"].items())]
    headers += [("Commitment", created["commitment"]), ("Created", events[0].recorded_at)]
    if game.digest_scheme:  # how the '# state' hashes are made (keyed with the seed)
        headers.append(("StateDigest", game.digest_scheme))
    if reveal_seed if reveal_seed is not None else game.over:
        headers.append(("Seed", game.seed))
    if game.over:
        headers.append(("Result", game.engine.winner(game.state) or "none"))
    from pbem.rollback import record_line, summary

    rolled = summary(events)  # issue 19: a rollback shows with its reason; nothing is left out
    headers += [("Rollback", record_line(r)) for r in rolled]
    turns = [_turn(game.engine.name, t) for t in game.turns]
    for turn, payload in zip(turns, game.turns):
        turn.notes += [f"adjudicated again after the rollback at event {r['seq']}: {r['reason']}"
                       for r in rolled if r["to"] == payload["turn"] and payload["seq"] > r["seq"]]
    return Record(headers, turns)


def _turn(engine_name: str, payload: dict[str, Any]) -> RecordTurn:
    orders: dict[str, str | None] = {}
    for seat, seat_orders in payload["orders"].items():
        orders[seat] = None if seat in payload["defaulted"] else format_orders(engine_name, seat_orders)
    notes = [f"chance {e['label']}: {_outcome(engine_name, e)}" for e in payload["events"]
             if isinstance(e, dict) and "label" in e]
    notes.append("scores " + ", ".join(f"{s} {v}" for s, v in payload["scores"].items()))
    if payload.get("over"):
        notes.append(f"game over; winner {payload.get('winner') or 'none'}")
    return RecordTurn(payload["turn"], orders, notes, payload["state_hash"])


def _outcome(engine_name: str, event: dict[str, Any]) -> str:
    """A chance outcome in words, as the reports say it (the archive keeps the exact JSON)."""
    from reports.wallenstein.events import describe, generic

    line = describe(event) if engine_name == "wallenstein" else generic(event)
    return " ".join(line.split())  # a note is one line


def import_record(store: Store, text: str, game_id: str | None = None) -> Game:
    """Replay a record into a new game; every turn must reproduce the recorded state hash."""
    record = read_record(text)
    game_id = game_id or record.header("Game")
    seed = record.header("Seed")
    if not game_id or not record.header("Engine"):
        raise DomainError("the record has no Game or Engine header")
    if seed is None:
        raise DomainError("the record has no Seed header (the game is not over): it cannot be replayed")
    if commitment(seed) != record.header("Commitment"):
        raise DomainError("the record's seed does not match its commitment")
    engine = get_engine(str(record.header("Engine")))
    check_game_id(game_id)  # one rule for names on every path in (issue 17 item 9)
    seats = [check_seat_name(s) for s in record.headers_named("Seat")]
    options = _options(record.headers_named("Option"))
    scheme = record.header("StateDigest")
    try:
        state, setup = engine.create(seats, options, seed)
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise DomainError(f"the record's game cannot be set up: {str(exc)[:120]}") from None
    created = {"game": game_id, "engine": engine.name, "engine_version": record.header("EngineVersion"),
               "seats": [{"name": s, "email": f"{s}@record.invalid", "addresses": []} for s in seats],
               "options": options, "commitment": commitment(seed), "data_files": engine.data_files(),
               "setup_events": setup, "state_hash": _digest(state, seed, scheme), "deadlines": {}}
    if scheme:
        created["state_digest"] = scheme
    events = [NewEvent("GameCreated", created)]
    for turn in record.turns:
        try:
            state, payload = _replay_turn(engine, state, seed, turn, scheme)
        except DomainError:
            raise
        except (GameError, KeyError, TypeError, ValueError, IndexError) as exc:  # orders the engine chokes on
            raise DomainError(f"turn {turn.turn}: the record cannot be replayed ({str(exc)[:120]})") from None
        events.append(NewEvent("TurnAdjudicated", payload))
    if engine.pending(state) is None:
        events.append(NewEvent("SeedRevealed", {"seed": seed}))
    with store.transaction():
        if store.game_row(game_id) is not None:
            raise DomainError(f"game {game_id!r} already exists in {store.path}")
        store.append(game_id, events, expected_seq=0)
        store.put_secrets(game_id, seed, {})
        game = fold(game_id, store.events(game_id), seed)
        pending = game.pending
        store.upsert_game(game_id, engine=engine.name, created_at=store.now(), turn=pending.turn if pending else None,
                          over=int(pending is None), state_hash=game.state_hash,
                          winner=engine.winner(game.state) if pending is None else None)
    return game


def _options(values: list[str]) -> dict[str, str]:
    """The ``[Option "k=v"]`` headers as a dict; one without ``=`` is a one-line error."""
    out = {}
    for value in values:
        key, sep, val = value.partition("=")
        if not sep or not key.strip():
            raise DomainError(f"the record's [Option {value[:40]!r}] is not NAME=VALUE")
        out[key] = val
    return out


def _digest(state: Any, seed: str, scheme: str | None) -> str:
    try:
        return state_digest(state, seed, scheme)
    except ReplayMismatch as exc:
        raise DomainError(f"the record's StateDigest header: {exc}") from None


def _replay_turn(engine: Any, state: Any, seed: str, turn: RecordTurn,
                 scheme: str | None = None) -> tuple[Any, dict[str, Any]]:
    pending = engine.pending(state)
    if pending is None or pending.turn != turn.turn:
        raise DomainError(f"turn {turn.turn}: the game waits for {pending.turn if pending else 'nothing'}")
    orders, defaulted = {}, []
    for seat in pending.seats:
        text = turn.orders.get(seat)
        if text is None:
            orders[seat] = engine.default_orders(state, seat)
            defaulted.append(seat)
            continue
        parsed = grammar_for(engine.name)(text, state)
        problems = [str(p) for p in parsed.problems] + [p.message for p in engine.validate(state, seat, parsed.orders)]
        if problems:
            raise DomainError(f"turn {turn.turn}, {seat}: " + "; ".join(problems))
        orders[seat] = parsed.orders
    state, derived = engine.advance(state, orders, seed)
    digest = _digest(state, seed, scheme)
    if turn.state_hash and digest != turn.state_hash:
        raise DomainError(f"turn {turn.turn}: replay gives state {digest[:12]}, the record says "
                          f"{turn.state_hash[:12]}")
    over = engine.pending(state) is None
    payload = {"turn": turn.turn, "orders": orders, "defaulted": defaulted, "forced": bool(defaulted),
               "events": derived, "state_hash": digest, "scores": engine.scores(state), "over": over,
               "winner": engine.winner(state) if over else None}
    return state, payload
