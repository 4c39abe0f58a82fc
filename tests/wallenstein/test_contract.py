"""The engine contract (tests/contract.py) plus Wallenstein's invariants on every state."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest

from adjudicator.chance import Stream
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.data import counties, neighbours, rules, setup_value
from adjudicator.wallenstein.state import hand
from tests.contract import SEAT_NAMES, EngineContract, play_random_game


def check_state(state: dict[str, Any], seats: Sequence[str], box: bool = True, bank: bool = True) -> None:
    """Cube accounting, no negative money or grain, owners hold armies, buildings fit,
    (``box``: rules version 1.1 on) no more pieces than the box holds and (``bank``: 1.2 on,
    unless the game plays ``bank=unlimited``) no more Taler than the box's coins."""
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
    if not box:
        return
    pieces = rules()["pieces"]["value"]  # rule 1: the box's pieces are the limit
    for piece in ("palace", "church", "trade"):
        assert sum(piece in c["buildings"] for c in state["counties"].values()) <= pieces[piece], piece
    assert sum(c["markers"] for c in state["counties"].values()) <= pieces["revolt_markers"]
    if bank and state["options"].get("bank") != "unlimited":  # rule 1: 60 coins, 160 Taler
        held = sum(state["players"][s]["taler"] for s in seats)
        assert held <= rules()["coins"]["taler"], f"the players hold {held} Taler"


class TestWallensteinContract(EngineContract):
    engine = ENGINE
    seat_counts = (3, 4, 5)
    options = ({"setup": "random"}, {"setup": "draft"})
    games = 3

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        check_state(state, seats)


class TableDecisions:
    """The engine, with random plans that also use the table-decision words:
    manoeuvre LEAVE/IF/ELSE alternatives and a FAMINE order."""

    def __init__(self) -> None:
        self.engine = ENGINE

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def random_orders(self, state: dict[str, Any], seat: str, rng: Stream) -> list[dict[str, Any]]:
        orders = ENGINE.random_orders(state, seat, rng)
        if state["phase"] != "plan":
            return orders
        for o in orders:
            if o.get("action") in ("attacka", "attackb") and "to" in o and rng.below(2):
                near = list(neighbours(o["county"], len(state["seats"])))
                o["else"] = [{"to": rng.choice(near), "armies": "ALL" if rng.below(2) else rng.randint(1, 3)}
                             for _ in range(rng.randint(1, 2))]
                if rng.below(2):
                    o["leave"] = rng.randint(1, 3)
                if rng.below(2):
                    o["at_least"] = rng.randint(2, 6)
        mine = hand(state, seat)
        if mine and rng.below(2):
            orders.append({"kind": "famine", "counties": rng.shuffled(mine)[: rng.randint(1, len(mine))]})
        return orders


#: Games per seat count (3, 4, 5); PBEM_GAMES=3334 plays 10,000 games.
GAMES = int(os.environ.get("PBEM_GAMES", "340"))


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5])
def test_many_random_games(n: int) -> None:
    """~1,000 seeded random games in all (PBEM_GAMES per seat count) keep the invariants and
    end with a score; every other game also uses the table-decision words."""
    for g in range(GAMES):
        seats = list(SEAT_NAMES[:n])
        opts = {"setup": "draft" if g % 2 else "random"}
        engine = TableDecisions() if g % 2 else ENGINE
        trace = play_random_game(engine, seats, opts, f"many-{n}-{g}", 50,
                                 on_state=lambda s, seats=seats: check_state(s, seats))
        assert ENGINE.pending(trace["final"]) is None
