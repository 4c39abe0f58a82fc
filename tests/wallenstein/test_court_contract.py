"""The engine contract with the Imperial Court on, plus the court's invariants on every state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.court import figure
from adjudicator.chance import Chance
from adjudicator.wallenstein.bot import heuristic_orders
from tests.contract import SEAT_NAMES, EngineContract, play_random_game
from turns.wallenstein import format_orders, parse
from tests.wallenstein.test_contract import check_state


def check_court(state: dict[str, Any], seats: Sequence[str]) -> None:
    """The base invariants, and 7 courtiers per seat in supply + antechamber + audience hall."""
    check_state(state, seats)
    court = state["court"]
    for seat in seats:
        held = court["supply"][seat] + court["antechamber"][seat] + court["hall"][seat]
        assert held == figure("courtiers_per_seat"), f"{seat}: {held} courtiers accounted for"
        assert min(court["supply"][seat], court["antechamber"][seat], court["hall"][seat]) >= 0
        assert court["hall"][seat] == 0, "courtiers go back to the antechamber after the audiences"
    taken = [n for s in seats for n in court["taken"][s]]
    shown = [d["number"] for d in court["display"]]
    every = court["deck"] + shown + taken + court["removed"]
    assert sorted(every) == sorted(c["number"] for c in court["cards"]), "favour cards accounted for"
    assert len(shown) == (3 if state["phase"] == "plan" else 0) or state["phase"] == "draft"
    assert court["protect"] == {}, "a favour's protection ends with its season"


class TestCourtContract(EngineContract):
    engine = ENGINE
    seat_counts = (3, 4, 5)
    options = ({"expansion": "court"},)
    games = 3

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        check_court(state, seats)


def test_random_games_use_the_court() -> None:
    """The random bot's court lines are exercised: courtiers placed, cards taken, spaces skipped."""
    seen: dict[str, int] = {}
    for n in (3, 4, 5):
        trace = play_random_game(ENGINE, list(SEAT_NAMES[:n]), {"expansion": "court"}, f"use-{n}", 50)
        for events in trace["events"]:
            for e in events:
                seen[e["type"]] = seen.get(e["type"], 0) + 1
    for kind in ("CourtSetup", "FavourCards", "Courtiers", "CourtSkipped", "Audience", "Favour", "CourtEnd"):
        assert seen.get(kind), f"no {kind} event in 3 random court games"


def test_bots_court_orders_survive_the_mail() -> None:
    """Random and heuristic court plans are legal and read back the same from their text."""
    bots = Chance("mail-bots")
    for n in (3, 5):
        seats = list(SEAT_NAMES[:n])

        def check(state: dict[str, Any], seats: Sequence[str] = seats) -> None:
            if state["phase"] != "plan":
                return
            for seat in seats:
                for orders in (ENGINE.random_orders(state, seat, bots.stream(f"r/{seat}/{state['season']}")),
                               heuristic_orders(state, seat, bots.stream(f"h/{seat}"))):
                    assert not ENGINE.validate(state, seat, orders), orders
                    text = format_orders(orders)
                    assert parse(text).orders == orders, text
                    assert parse(text).problems == []
        play_random_game(ENGINE, seats, {"expansion": "court"}, f"mail-{n}", 50, on_state=check)
