"""The engine contract over seeded random Havoc games, 2-6 seats, with and without John of
Gaunt, checking that every card is always in exactly one place."""

from collections import Counter
from typing import Any, Sequence

from adjudicator.havoc import ENGINE
from adjudicator.havoc.cards import all_cards
from adjudicator.havoc.state import all_zones
from tests.contract import EngineContract

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
        for laid in state["field"].values():
            assert len(laid) <= 8
