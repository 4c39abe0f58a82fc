"""Game records (see :mod:`turns.record`) written from a stored game and imported back."""

from __future__ import annotations

from typing import Any

from adjudicator.base import GameError, state_hash
from adjudicator.registry import get_engine
from adjudicator.chance import commitment
from adjudicator.recorded import (ChanceLineError, RecordedSeed, RecordingSeed, is_recorded, merged_lines, same_draw,
                                 seed_text)
from pbem.store.auth import check_game_id, check_seat_name
from pbem.errors import DomainError
from pbem.store.events import Game, ReplayMismatch, fold, fold_steps, state_digest
from pbem.store.db import NewEvent, Store, StoredEvent
from turns.games import format_orders, grammar_for
from turns.record import Record, RecordTurn, read_record


def _engine_of(record: Record, game_id: str) -> Any:
    """The engine of a record, held to the rules version it names (``EngineVersion``), or, for
    a record that names none, to the version that was newest on its ``Created`` date; a record
    with neither, or with a version this pbem does not know, is refused by name."""
    from pbem.store.events import EngineVersionMismatch, engine_for

    name = str(record.header("Engine"))
    try:
        engine = get_engine(name)
    except GameError as exc:
        raise DomainError(str(exc)) from None
    version = record.header("EngineVersion")
    releases = getattr(engine, "releases", None)
    if version is None and releases is not None:
        created = record.header("Created")
        if created is None:
            raise DomainError(f"the record names no EngineVersion and no Created date, so the {name} rules it was "
                              f"played with are not known: add a header [EngineVersion \"...\"] "
                              f"(this pbem knows {', '.join(releases.versions)})")
        try:
            version = releases.on_date(created).version
        except GameError as exc:
            raise DomainError(str(exc)) from None
    data = dict(v.split(" ", 1) for v in record.headers_named("DataFile") if " " in v)
    # a record names its data files (DataFile, since records were versioned); an older record
    # that names none read the files of its version on its Created date
    if not data and releases is not None and record.header("Created"):
        data = releases.get(version or engine.version).data_on(str(record.header("Created")))
    try:
        return engine_for(game_id, {"engine": name, "engine_version": version or engine.version, "data_files": data},
                          created_at=rules_as_of(record))
    except EngineVersionMismatch as exc:
        raise DomainError(str(exc)) from None


def rules_as_of(record: Record) -> str | None:
    """The moment a record's rules version is read as of (:meth:`adjudicator.versions.Release.as_created`):
    its ``RulesAsOf`` header (a branch's or an imported game's), else its ``Created`` date."""
    moment = record.header("RulesAsOf") or record.header("Created")
    return str(moment) if moment else None


def _as_of(game: Game, events: list[StoredEvent]) -> list[tuple[str, str]]:
    """A ``RulesAsOf`` header when the game's rules are read as of another moment than its
    ``Created`` one (a branch, an imported record) and that moment changes a reading."""
    moment = game.created.get("rules_as_of")
    return [("RulesAsOf", moment)] if moment and moment != events[0].recorded_at else []


def record_of(game: Game, events: list[StoredEvent], reveal_seed: bool | None = None,
              chance: bool = False, published: bool = False) -> Record:
    """The record of a loaded game; the seed is written only once the game is over.

    With ``chance`` (and always for a game whose chance was recorded) every chance outcome
    is written out as a ``CHANCE`` line and the ``# state`` hashes are the plain ones, so the
    record replays to the same states without its seed line. ``published``: of a
    running game, what the public may not see yet is sealed (:mod:`pbem.archives.publish`; a sealed
    seat's orders and a sealed draw are a note naming their commitment).
    """
    created = game.created
    recorded = is_recorded(game.seed)
    chance = chance or recorded
    headers = [("Game", game.game_id), ("Engine", created["engine"]), ("EngineVersion", created["engine_version"])]
    headers += [("DataFile", f"{name} {sha}") for name, sha in sorted((created.get("data_files") or {}).items())]
    headers += [("Seat", s["name"]) for s in created["seats"]]
    headers += [("Option", f"{k}={v}") for k, v in sorted(created["options"].items())]
    headers += [("Commitment", created["commitment"]), ("Created", events[0].recorded_at)]
    headers += _as_of(game, events)
    branch = created.get("branch")
    if branch:  # a branch says where it starts
        headers += [("BranchOf", branch["of"]), ("BranchAt", branch["at"]), ("BranchTurns", str(branch["turns"])),
                    ("BranchSeed", "same" if branch.get("same_seed") else "own"),
                    ("BranchEvent", f"{branch['parent_seq']} {branch['parent_hash']}")]
    if game.digest_scheme and not chance:  # how the '# state' hashes are made (keyed with the seed)
        headers.append(("StateDigest", game.digest_scheme))
    if recorded:
        headers.append(("Chance", "recorded"))
    elif reveal_seed if reveal_seed is not None else game.over:
        headers.append(("Seed", game.seed))
    if game.over:
        from pbem.club import endings

        headers.append(("Result", endings.result(game) or game.engine.winner(game.state) or "none"))
        if game.club.ended is not None:  # how the players ended it (a draw, a concession, resignations)
            headers.append(("Ended", endings.describe(game)))
    from pbem.store.rollback import record_line, summary

    rolled = summary(events)  # a rollback shows with its reason; nothing is left out
    headers += [("Rollback", record_line(r)) for r in rolled]
    payloads = _published_turns(game, events) if published and not game.over else game.turns
    turns = [_turn(game.engine.name, t) for t in payloads]
    from pbem.club.notes import turn_notes

    club_notes = turn_notes(events)  # absences, civil disorder, resignations, closed votes, observers
    for turn, payload in zip(turns, game.turns):
        turn.notes += [f"adjudicated again after the rollback at event {r['seq']}: {r['reason']}"
                       for r in rolled if r["to"] == payload["turn"] and payload["seq"] > r["seq"]]
        turn.notes += club_notes.get(payload["seq"], [])
    record_notes = club_notes.get(0, [])
    record = Record(headers, turns)
    record.notes += record_notes
    if chance:
        _write_chance(game, events, record)
    return record


def _write_chance(game: Game, events: list[StoredEvent], record: Record) -> None:
    """Replay ``game`` with a recording seed: each turn's chance lines and plain state hash."""
    seats = [s["name"] for s in game.created["seats"]]
    setup = RecordingSeed(game.seed)  # the setup alone, to know how many draws are its own
    game.engine.create(seats, created_options(game), setup)
    record.chance = merged_lines(setup.log)
    seed, done = RecordingSeed(game.seed), len(setup.log)
    for step, turn in zip(fold_steps(game.game_id, events, seed), record.turns):
        turn.chance, done = merged_lines(seed.log[done:]), len(seed.log)
        turn.state_hash = state_hash(step.state)


def created_options(game: Game) -> dict[str, str]:
    """The options the game was created with."""
    return dict(game.created["options"])


def _published_turns(game: Game, events: list[StoredEvent]) -> list[dict[str, Any]]:
    """The ``TurnAdjudicated`` payloads of ``game.turns`` as a published file shows them."""
    from pbem.archives.publish import publish

    shown = {e.seq: e.payload for e in publish(events, game.engine, game.seed, running=True).events}
    return [{**shown[t["seq"]], "seq": t["seq"]} for t in game.turns]


def _turn(engine_name: str, payload: dict[str, Any]) -> RecordTurn:
    from pbem.archives.publish import MARK, is_sealed

    orders: dict[str, str | None] = {}
    notes = []
    for seat, seat_orders in payload["orders"].items():
        if is_sealed(seat_orders) and seat not in payload["defaulted"]:
            notes.append(f"orders of {seat} sealed until the game ends (commitment {seat_orders[MARK][:16]})")
            continue
        orders[seat] = None if seat in payload["defaulted"] else format_orders(engine_name, seat_orders)
    notes += [f"chance {e['label']}: " + (f"sealed until the game ends (commitment {e[MARK][:16]})" if is_sealed(e)
                                          else _outcome(engine_name, e))
              for e in payload["events"] if isinstance(e, dict) and "label" in e]
    notes.append("scores " + ", ".join(f"{s} {v}" for s, v in payload["scores"].items()))
    if payload.get("over"):
        notes.append(f"game over; winner {payload.get('winner') or 'none'}")
    return RecordTurn(payload["turn"], orders, notes, payload["state_hash"])


def _outcome(engine_name: str, event: dict[str, Any]) -> str:
    """A chance outcome in words, as the reports say it (the game's own ``describe_event``
    of its registry entry, else the generic words; the archive keeps the exact JSON)."""
    from adjudicator import games
    from reports.eventwords import generic

    describe = games.hook(engine_name, "describe_event") or generic
    line = describe(event)
    return " ".join(line.split())  # a note is one line


def import_record(store: Store, text: str, game_id: str | None = None, until: str | None = None) -> Game:
    """Replay a record into a new game; every turn must reproduce the recorded state hash.

    A record with a ``Seed`` draws its chance from it; one without a seed but with ``CHANCE``
    lines is a historical game: every outcome is read from its line and checked against the
    state it applies to, and a missing, impossible or left-over line is refused with its
    line number. ``until`` stops after that turn (a game still being transcribed).
    """
    record = read_record(text)
    game_id = game_id or record.header("Game")
    if not game_id or not record.header("Engine"):
        raise DomainError("the record has no Game or Engine header")
    if record.header("BranchSeed") == "own":  # two seeds (pbem/loop/branch.py): its archive imports, not its record
        raise DomainError("this is the record of a branch with its own seed, which a record cannot replay yet: "
                          "import the branch's archive (pbem export) instead")
    turns = _turns_until(record, until)
    seed, scheme = _seed_of(record, turns)
    historical = isinstance(seed, RecordedSeed)
    engine = _engine_of(record, game_id)
    check_game_id(game_id)  # one rule for names on every path in
    seats = [check_seat_name(s) for s in record.headers_named("Seat")]
    options = option_headers(record.headers_named("Option"))
    has_lines = bool(record.chance or any(t.chance for t in turns))
    play_seed = RecordingSeed(seed) if historical or has_lines else seed
    check = _ChanceCheck(seed, play_seed, historical)
    try:
        state, setup = engine.create(seats, options, play_seed)
    except ChanceLineError as exc:
        raise DomainError(_chance_message(exc, record.turns[0].line if record.turns else None, "the setup")) from None
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise DomainError(f"the record's game cannot be set up: {str(exc)[:120]}") from None
    check.after(record.chance, record.chance_lines, "the setup", record.turns[0].line if record.turns else 0)
    created = {"game": game_id, "engine": engine.name, "engine_version": engine.version,
               "seats": [{"name": s, "email": f"{s}@record.invalid", "addresses": []} for s in seats],
               "options": options, "commitment": "", "data_files": engine.data_files(),
               "setup_events": setup, "state_hash": _digest(state, seed, scheme), "deadlines": {}}
    if scheme:
        created["state_digest"] = scheme
    moment = rules_as_of(record)
    if moment and getattr(engine, "release", None) is not None and engine.release.window_readings(moment):
        created["rules_as_of"] = moment  # the record's game read its rules in a window (versions.py)
    if historical:
        created["chance"] = "recorded"  # no seed: the outcomes were recorded at the table
    events = [NewEvent("GameCreated", created)]
    for turn in turns:
        try:
            state, payload = _replay_turn(engine, state, play_seed, turn, scheme)
        except ChanceLineError as exc:
            raise DomainError(_chance_message(exc, turn.line, f"turn {turn.turn}")) from None
        except DomainError:
            raise
        except (GameError, KeyError, TypeError, ValueError, IndexError) as exc:  # orders the engine chokes on
            raise DomainError(f"turn {turn.turn}: the record cannot be replayed ({str(exc)[:120]})") from None
        check.after(turn.chance, turn.chance_lines, f"turn {turn.turn}", turn.line)
        events.append(NewEvent("TurnAdjudicated", payload))
    if historical:  # the game's seed: its chance lines as pbem writes them; the commitment is their hash
        seed = seed_text(merged_lines(play_seed.log))  # type: ignore[attr-defined]
        _check_commitment(record, seed, until)
    created["commitment"] = commitment(seed)
    from pbem.club.endings import from_result

    ending = from_result(record.header("Result"), seats) if until is None else None
    pending = engine.pending(state)
    if pending is not None and ending is not None:  # the players ended it (a draw, a concession...)
        events.append(NewEvent("GameEnded", {"how": ending[0], "seats": ending[1], "turn": pending.turn,
                                             "recorded": True}))
    if engine.pending(state) is None or ending is not None:
        events.append(NewEvent("SeedRevealed", {"seed": seed}))
    with store.transaction():
        if store.game_row(game_id) is not None:
            raise DomainError(f"game {game_id!r} already exists in {store.path}")
        store.append(game_id, events, expected_seq=0)
        store.put_secrets(game_id, seed, {})
        game = fold(game_id, store.events(game_id), seed)
        from pbem.store import projection

        projection.project(store, game, created=True)
    return game


def _turns_until(record: Record, until: str | None) -> list[RecordTurn]:
    """The record's turns up to and including ``until`` (all of them without it)."""
    if until is None:
        return record.turns
    names = [t.turn for t in record.turns]
    if until not in names:
        raise DomainError(f"the record has no turn {until!r} (its turns: {', '.join(names[:6]) or 'none'}"
                          f"{', ...' if len(names) > 6 else ''})")
    return record.turns[:names.index(until) + 1]


def _seed_of(record: Record, turns: list[RecordTurn]) -> tuple[str, str | None]:
    """The seed to replay with (a :class:`RecordedSeed` for a historical game) and the digest scheme."""
    seed, scheme = record.header("Seed"), record.header("StateDigest")
    if seed is not None:
        if commitment(seed) != record.header("Commitment"):
            raise DomainError("the record's seed does not match its commitment")
        return seed, scheme
    lines = record.chance + [c for t in turns for c in t.chance]
    numbers = record.chance_lines + [n for t in turns for n in t.chance_lines]
    if not lines:
        raise DomainError("the record has no Seed header (the game is not over) and no CHANCE lines: "
                          "it cannot be replayed")
    if scheme:
        raise DomainError(f"the record's state hashes are keyed with its seed (StateDigest {scheme}), which it "
                          "does not carry: export the game again with --chance, or add its Seed line")
    try:
        return RecordedSeed(seed_text(lines), numbers), None
    except ChanceLineError as exc:
        raise DomainError(str(exc)) from None


def _chance_message(exc: ChanceLineError, turn_line: int | None, where: str) -> str:
    """``line 57: 1618-summer battle 2 for Anhalt: 9 red cubes fell out, ...`` (a missing line: the turn's)."""
    if exc.line is not None:
        return str(exc)
    at = f"line {turn_line} ({where})" if turn_line else where
    return f"{at}: {exc.words}: {exc.sentence}"


class _ChanceCheck:
    """After the setup and each turn: a historical record's lines must all have been drawn;
    a seeded record's CHANCE lines (``export --chance``) must say what the seed drew."""

    def __init__(self, seed: Any, play_seed: Any, historical: bool) -> None:
        self.seed, self.play_seed, self.historical = seed, play_seed, historical
        self.seen: list[int] = []
        self.done = 0

    def after(self, lines: list[str], numbers: list[int], where: str, section_line: int) -> None:
        """Check the section just replayed (its chance lines and their line numbers)."""
        if self.historical:
            self.seen += numbers
            _left_over(self.seed, self.seen, where)
        elif isinstance(self.play_seed, RecordingSeed):
            drawn = merged_lines(self.play_seed.log[self.done:])
            self.done = len(self.play_seed.log)
            _same_as_drawn(lines, numbers, drawn, where, section_line)


def _same_as_drawn(lines: list[str], numbers: list[int], drawn: list[str], where: str, section_line: int) -> None:
    for i in range(max(len(lines), len(drawn))):
        want, got = (lines[i] if i < len(lines) else None), (drawn[i] if i < len(drawn) else None)
        if want == got or (want is not None and got is not None and same_draw(want, got)):
            continue
        at = f"line {numbers[i]}" if i < len(numbers) else f"line {section_line} ({where})"
        if want is None:
            raise DomainError(f"{at}: the seed draws '{got}' here, the record has no line for it")
        if got is None:
            raise DomainError(f"{at}: the seed makes no such draw in {where}: '{want}'")
        raise DomainError(f"{at}: the seed draws '{got}' here, the line says '{want}'")


def _left_over(seed: Any, seen: list[int], where: str) -> None:
    """Refuse a chance line given so far that the game never drew."""
    left = seed.recorded.unused(len(seen))
    if left is not None:
        index, words, outcome = left
        raise DomainError(f"line {seen[index]}: {words}: the game makes no such draw in {where} (or fewer of "
                          f"them), so '{outcome}' is left over: remove the line or put it under its turn")


def _check_commitment(record: Record, seed: str, until: str | None) -> None:
    """A historical record's own Commitment header must be the hash of its chance lines."""
    stated = record.header("Commitment")
    if until is None and stated and record.header("Chance") == "recorded" and stated != commitment(seed):
        raise DomainError("the record's Commitment is not the hash of its CHANCE lines: a chance line was "
                          "changed since it was written (remove the Commitment header to import it anyway)")


def option_headers(values: list[str]) -> dict[str, str]:
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
        at = f"line {turn.line}: " if turn.line else ""
        raise DomainError(f"{at}turn {turn.turn}: the game waits for {pending.turn if pending else 'nothing'}")
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
            at = f"line {turn.seat_lines[seat]}: " if turn.seat_lines.get(seat) else ""
            raise DomainError(f"{at}turn {turn.turn}, {seat}: " + "; ".join(problems))
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
