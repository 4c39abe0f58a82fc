"""A transcriber's start: the skeleton record of a game played at a table.

``pbem record template --game wallenstein --seat red --seat blue --seat yellow`` writes the
headers, the setup's chance lines and the first turn with its seats and chance lines, each
filled with an example outcome (drawn from the seed ``template``, so the skeleton imports as
it is) for the archivist to replace with what happened at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError
from adjudicator.recorded import RecordingSeed, merged_lines
from adjudicator.registry import get_engine
from pbem.store.auth import check_game_id, check_seat_name
from pbem.errors import DomainError
from turns.record import Record, RecordTurn

#: What each kind of chance line says (the first word of its outcome).
KINDS = (
    "order A, B, C -- a shuffle: the items in the order they came (those not named follow as listed)",
    "picked X -- one item chosen at random (an event card, a target)",
    "rolled 4 -- a die; 'rolled 4, 6, 1': several dice of one draw, in turn",
    "number 2 -- a plain number drawn",
)

#: Engine-specific hints for the first turn's lines (shown as notes in the skeleton).
HINTS = {
    "wallenstein": (
        "out red 3, peasants 1; stayed red 1 -- a tower throw: the cubes that fell out, by colour, then those "
        "left inside (rule 5.1); '; stayed ...' may be left out (nobody sees inside the tower: the import works it "
        "out); setup tower = the first filling (rule 3.5)",
        "each battle adds a line 'CHANCE <year>-<season> battle N for <county>: out ...; stayed ...', N counting "
        "the season's battles (revolts too) in the order they were fought, or 'battle for <county>' without N; "
        "the import asks for a missing one with the colours thrown in; winter adds famine and event lines",
        "orders: docs/orders-wallenstein.md",
    ),
    "havoc": ("deal initial: hands <seat> <its 7 ordinary cards>; <next seat> ...; recruits <the 3 recruits> (each "
              "seat's Dog of War is dealt apart); deal deck: the draw pile, top card first (those not named follow "
              "as listed); a reshuffle of the discard adds 'battle N deck reshuffle M: order ...' (N: the battle "
              "being played towards, M: the game's reshuffles so far)", "orders: docs/orders-havoc.md"),
    "gods-playground": (
        "every die rolled, one line per roll, named by the round and what was rolled for: 'round 1 events: "
        "rolled 2, 2, 4, 6' (and 'round N invasions'), 'round 2 white's campaign against the Tatars: rolled "
        "5, 3, 1' (the seat's troops, then the Cossacks, then the royal army), 'round 2 white's counterattack on "
        "<province>', 'round 3 blue's diplomacy die: rolled 5', 'round 2 defence of <province> against the "
        "Turks' (each seat's units in seat order, then the Cossacks); a second roll of the same words in a round "
        "is the next such line; the older 'round 2 campaign 14' (the internal step) still reads",
        "orders: docs/orders-gods-playground.md"),
}


def template(engine_name: str, seats: Sequence[str], options: Mapping[str, str], game_id: str = "table-1") -> Record:
    """The skeleton record (headers, notes, setup chance, the first turn to fill in)."""
    try:
        engine = get_engine(engine_name)
    except Exception as exc:  # noqa: BLE001 - an unknown game is one line
        raise DomainError(str(exc)) from None
    check_game_id(game_id)
    seats = [check_seat_name(s) for s in seats]
    seed = RecordingSeed("template")
    try:
        state, _ = engine.create(seats, dict(options), seed)
    except (GameError, KeyError, TypeError, ValueError) as exc:
        raise DomainError(f"{engine_name} cannot be set up with these seats and options: {str(exc)[:120]}") from None
    headers = [("Game", game_id), ("Engine", engine.name), ("EngineVersion", engine.version)]
    headers += [("Seat", s) for s in seats] + [("Option", f"{k}={v}") for k, v in sorted(options.items())]
    headers.append(("Chance", "recorded"))
    notes = _notes(engine.name)
    record = Record(headers, notes=notes[:-1] + _setup_notes(engine.name, state) + notes[-1:])
    record.chance = [_trimmed(line, state) for line in merged_lines(seed.log)]
    pending = engine.pending(state)
    if pending is not None:  # the first decision, every seat missed: its chance lines as an example
        orders = {s: engine.default_orders(state, s) for s in pending.seats}
        done = len(seed.log)
        engine.advance(state, orders, seed)
        record.turns.append(RecordTurn(pending.turn, {s: None for s in pending.seats},
                                       ["replace each 'missed' by the seat's orders, two spaces in"],
                                       chance=merged_lines(seed.log[done:])))
    return record


def _dealt(state: Mapping[str, Any]) -> dict[str, int]:
    """Wallenstein: how many items of the setup's shuffles the game uses (the rest lie unseen)."""
    owned = sum(1 for c in state.get("counties", {}).values() if c.get("owner"))
    return {"setup deal": owned, "setup events": len(state.get("events", {}).get("face_up", []))}


def _trimmed(line: str, state: Mapping[str, Any]) -> str:
    """A Wallenstein setup shuffle cut to the cards the game uses: the deal's dealt county
    cards, the event cards turned up (rules 3.3, 3.4; the unnamed rest follow as listed)."""
    words, _, outcome = line.partition(": ")
    keep = _dealt(state).get(words) if "counties" in state else None
    if not keep or not outcome.startswith("order "):
        return line
    return f"{words}: order " + ", ".join(outcome[len("order "):].split(", ")[:keep])


def _setup_notes(engine_name: str, state: Mapping[str, Any]) -> list[str]:
    """Wallenstein: what the setup lines say, for these seats (rules 3.3, 3.4)."""
    if engine_name != "wallenstein" or not state.get("counties"):
        return []
    dealt, seats = _dealt(state), state["seats"]
    out = [f"setup events: the {dealt['setup events']} event cards turned up, in the order they were turned"]
    if dealt["setup deal"]:
        rounds = dealt["setup deal"] // len(seats)
        out.append(f"setup deal: the {dealt['setup deal']} county cards as dealt, one to each seat in seating order "
                   f"({', '.join(seats)}), {rounds} rounds; round 1 places the group of 5 armies, then 4, 4, 3, ... "
                   "(the printed order, rule 3.3)")
    out.append("<season> actions: the 10 action cards in the order they were carried out (places 1-5 face up, "
               "6-10 face down; rule 4.1.1); <season> bonus: the 5 bonus tiles on places 1-5 (rule 4.1.2)")
    return out


def _notes(engine_name: str) -> list[str]:
    lines = ["A game played at a table, transcribed (docs/archivist-guide.md, 'Historical games').",
             "Each CHANCE line is one draw, named in the game's words; the outcomes written here are",
             "an EXAMPLE (drawn from the seed 'template'): replace each with what happened at the table.",
             "Kinds of outcome:", *(f"- {k}" for k in KINDS), *HINTS.get(engine_name, ()),
             "Check as you go: pbem import FILE --until TURN names the line of any impossible draw."]
    return lines
