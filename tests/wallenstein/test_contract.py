"""The engine contract (tests/contract.py) plus Wallenstein's invariants on every state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.data import counties, setup_value
from tests.contract import SEAT_NAMES, EngineContract, play_random_game


def check_state(state: dict[str, Any], seats: Sequence[str]) -> None:
    """Cube accounting, no negative money or grain, owners hold armies, buildings fit."""
    total = setup_value("armies_per_seat")
    for seat in seats:
        p = state["players"][seat]
        on_board = sum(c["armies"] for c in state["counties"].values() if c["owner"] == seat)
        held = p["supply"] + on_board + state["tower"][seat] + state["tray"][seat]
        assert held == total, f"{seat}: {held} armies accounted for, not {total}"
        assert p["supply"] >= 0 and p["taler"] >= 0 and p["grain"] >= 0, (seat, p)
    peasants = state["peasants"] + state["tower"]["peasants"] + state["tray"]["peasants"]
    assert peasants == setup_value("peasants"), f"{peasants} peasants accounted for"
    for name, c in state["counties"].items():
        assert (c["owner"] is None) == (c["armies"] == 0), f"{name}: owner {c['owner']} with {c['armies']} armies"
        assert len(c["buildings"]) <= counties()[name]["spaces"], name
        assert len(set(c["buildings"])) == len(c["buildings"]), name
        assert c["markers"] >= 0
        if c["owner"] is None:
            assert not c["buildings"] and not c["markers"], f"neutral {name} keeps buildings/markers"
    assert len(state["counties"]) == (37 if len(seats) == 3 else 45)


class TestWallensteinContract(EngineContract):
    engine = ENGINE
    seat_counts = (3, 4, 5)
    options = ({"setup": "random"}, {"setup": "draft"})
    games = 3

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        check_state(state, seats)


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_many_random_games(n: int) -> None:
    """~1,000 seeded random games in all keep the invariants and end with a score."""
    for g in range(340):
        seats = list(SEAT_NAMES[:n])
        opts = {"setup": "draft" if g % 2 else "random"}
        trace = play_random_game(ENGINE, seats, opts, f"many-{n}-{g}", 50,
                                 on_state=lambda s, seats=seats: check_state(s, seats))
        assert ENGINE.pending(trace["final"]) is None
