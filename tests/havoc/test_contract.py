"""The engine contract over seeded random Havoc games, 2-6 seats, with and without John of
Gaunt, checking that every card is always in exactly one place."""

import os
from collections import Counter
from typing import Any, Sequence

import pytest

from adjudicator.havoc import ENGINE
from adjudicator.havoc.cards import all_cards
from adjudicator.havoc.state import all_zones
from adjudicator.chance import Stream
from adjudicator.versions import pin
from tests.contract import SEAT_NAMES, EngineContract, play_random_game

FULL = Counter(all_cards())


class TestHavocContract(EngineContract):
    engine = ENGINE
    seat_counts = (2, 3, 4, 5, 6)
    options = ({}, {"gaunt": "on"}, {"gaunt": "extra", "order": "winner"}, {"order": "random", "peace": "12"})
    games = 2
    max_steps = 3000

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        zones = Counter(all_zones(state))
        assert zones == FULL, f"cards misplaced: extra {zones - FULL}, missing {FULL - zones}"
        assert set(state["hands"]) == set(seats)
        assert sum(state["points"].values()) >= 0
        assert len(state["recruits"]) <= state["limit"]
        assert 0 <= state["peace"]["position"] <= state["peace"]["max"]
        for laid in state["field"].values():
            assert len(laid) <= 8
        phase = state["phase"]
        if phase["name"] == "recruiting":  # rules version 3: a recruiting under way
            took = phase["took"]
            assert sum(1 for t in took if t["how"] == "recruit") <= 2
            assert sum(1 if t["how"] == "sic" else 2 if t["how"] == "loot" else 0 for t in took) <= 2
        for seat in phase.get("declare", []):  # rules version 3: only seats with a choice are asked
            dogs = sum(1 for c in state["field"][seat] if c.startswith("dog"))
            assert max(0, len(state["field"][seat]) - 6) < min(2, dogs)


class TableDecisions:
    """The engine, with random orders that also use the table decisions: DOGS OUT with
    battle orders and LOOT LOOK (then a named card) instead of LOOT."""

    def __init__(self, engine: Any = ENGINE) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def random_orders(self, state: dict[str, Any], seat: str, rng: Stream) -> list:
        orders = self.engine.random_orders(state, seat, rng)
        kinds = [o.get("kind") for o in orders]
        for o in orders:
            if o.get("kind") == "loot" and self.engine.pending(state).kind != "loot" and rng.below(2):
                o.pop("prefs", None)
                o.update(prefs=[], look=True)
        if kinds and kinds[0] in ("havoc", "join", "add", "pass") and rng.below(3) == 0:
            orders.append({"kind": "dogsout", "count": rng.choice([0, 1, 2, "best"])})
        return orders


#: Games per seat count (2-6) and option set; PBEM_GAMES=500 plays 10,000 games.
GAMES = int(os.environ.get("PBEM_GAMES", "10"))
OPTIONS = ({}, {"gaunt": "on"}, {"gaunt": "extra", "order": "winner"}, {"order": "random", "peace": "12"})


@pytest.mark.slow
@pytest.mark.parametrize("version", ["2", "3"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_many_random_games(n: int, version: str) -> None:
    """Seeded random games (PBEM_GAMES per seat count and option set) keep every card in
    exactly one place and end, under rules version 2 and 3 (version 1: the contract of
    tests/compat/test_old_versions.py); every other game also uses DOGS OUT and LOOT LOOK."""
    contract = TestHavocContract()
    pinned = pin(ENGINE, version)
    options = OPTIONS + (({"sic": "once", "small": "on"},) if version == "3" and n <= 3 else ()) \
        + (({"peace_first_round": "turned"},) if version == "3" and n >= 5 else ())
    for g in range(GAMES):
        for opts in options:
            seats = list(SEAT_NAMES[:n])
            engine = TableDecisions(pinned) if g % 2 else pinned
            trace = play_random_game(engine, seats, dict(opts), f"many-{n}-{g}-{sorted(opts.items())}", 4000,
                                     on_state=lambda s, seats=seats: contract.check_invariants(s, seats))
            assert pinned.pending(trace["final"]) is None
