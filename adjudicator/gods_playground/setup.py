"""Creating a game (seed 004, "Előkészületek"): options, the board, the pieces, the start
player by a die roll; the three passes of starting estates are the first decisions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError, State
from adjudicator.chance import Chance
from adjudicator.gods_playground.board import ENEMIES, PROVINCES, board_from_option, default_board
from adjudicator.gods_playground.flow import rotation
from adjudicator.gods_playground.releases import RELEASES, rule
from adjudicator.gods_playground.state import (
    NOBLES, READINGS, START_MONEY, new_box, new_province, order_from, provisional)

OPTIONS = ("board_json",)
#: A board file without the Habsburgs' figures for rounds 1-3 under ``habsburg_influence=track``.
TRACK_MISSING = ("enemies.habsburgs.strength[0-2]: give the Habsburgs' influence markers of rounds 1-3 "
                 "(habsburg_influence=track, the default), or choose --option habsburg_influence=dice")


def option_problems(options: Mapping[str, str]) -> list[str]:
    """Every problem of the options but the board file's content: unknown keys, and GM
    readings (:data:`adjudicator.gods_playground.state.READINGS`) with an unknown value or in
    a rules version before they came."""
    known = (*OPTIONS, *READINGS)
    out = []
    for key, value in options.items():
        if key not in known:
            out.append(f"unknown option {key!r} (known: {', '.join(known)})")
        elif key in READINGS and not rule("gm_readings"):
            out.append(RELEASES.not_yet("gm_readings", f"option {key}"))
        elif key in READINGS and str(value) not in READINGS[key]:
            out.append(f"option {key}={value!r}: choose one of {', '.join(READINGS[key])}")
    return out


def track_problems(options: Mapping[str, str]) -> list[str]:
    """A GM's board file that gives no Habsburg influence for rounds 1-3 while the game reads
    them from the track (``habsburg_influence=track``): one problem; else none. Checked when a
    game is made (``pbem new``), never in a replay: a board without them puts no markers."""
    if not rule("influence_track") or options.get("habsburg_influence", READINGS["habsburg_influence"][0]) != "track":
        return []
    b = board_from_option(options["board_json"])
    return [f"board_json: {TRACK_MISSING}"] if None in b.get("influence_track", [None]) else []


def create(seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[dict[str, Any]]]:
    """A new game waiting for the first starting estate."""
    problems = option_problems(options)
    if problems:
        raise GameError(problems[0])
    if len(seats) != 3:
        raise GameError("God's Playground is for exactly 3 players")
    custom = board_from_option(options["board_json"]) if "board_json" in options else None
    b = custom or default_board()
    seats = list(seats)
    # the same draw as seats[below(3)]; a recorded game says it as 'setup start: picked <seat>'
    start = Chance(seed).stream("gods_playground/setup/start").choice(seats)
    s: State = {
        "game": "gods-playground", "seats": seats, "round": 1, "phase": "estate", "step": 0, "start": start,
        "money": {x: START_MONEY for x in seats}, "vp": {x: 0 for x in seats},
        "hand": {x: list(NOBLES) for x in seats}, "placed": {x: {} for x in seats}, "revealed": False,
        "prov": {p: new_province(seats, b["provinces"][p]["estates"], b["track"]["start"]) for p in PROVINCES},
        "box": {e: new_box(seats) for e in ENEMIES}, "cossack_box": 2,
        "sejm": {p: None for p in b["sejm"]}, "royal": {"inf": 0, "cav": 0, "can": 0},
        "treaty_made": False, "town_round": False, "towns_founded": 0,
        "plans": {x: [] for x in seats}, "board": custom, "over": False, "winner": None,
        "q": rotation(order_from({"seats": seats}, start)),
    }
    if rule("turks_fixed_for_round"):  # from rules version 2 the Turks' hold is fixed per round
        s.update(turks_overran=False, turkish_habsburgs=False)
    if rule("gm_readings"):  # from rules version 3 the GM's readings, every one named (defaults too)
        s["readings"] = {key: str(options.get(key, values[0])) for key, values in READINGS.items()}
    events = [{"type": "Setup", "round": 1, "seats": seats, "start": start,
               "label": "gods_playground/setup/start", "provisional": provisional(s)}]
    return s, events
