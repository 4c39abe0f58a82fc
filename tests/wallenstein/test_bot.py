"""The heuristic bot plays legal orders and beats the random bot more often than not."""

from __future__ import annotations

from adjudicator.base import state_hash
from adjudicator.chance import Chance
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.bot import heuristic_orders
from tests.wallenstein.test_contract import check_state


def play(seed: str, heuristic: set[str], seats: list[str]) -> dict:
    state, _ = ENGINE.create(seats, {"setup": "random"}, seed)
    bot = Chance("bot:" + seed)
    step = 0
    while (p := ENGINE.pending(state)) is not None:
        orders = {}
        for seat in p.seats:
            rng = bot.stream(f"{step}/{seat}")
            orders[seat] = heuristic_orders(state, seat, rng) if seat in heuristic else ENGINE.random_orders(state, seat, rng)
            assert not ENGINE.validate(state, seat, orders[seat]), (seat, orders[seat])
        state, _ = ENGINE.advance(state, orders, seed)
        check_state(state, seats)
        step += 1
    return state


def test_heuristic_plans_are_legal_and_deterministic() -> None:
    a = play("h-1", {"a", "b", "c", "d"}, ["a", "b", "c", "d"])
    b = play("h-1", {"a", "b", "c", "d"}, ["a", "b", "c", "d"])
    assert state_hash(a) == state_hash(b)


def test_heuristic_beats_random() -> None:
    wins = 0
    for g in range(20):
        final = play(f"h-vs-r-{g}", {"a"}, ["a", "b", "c"])
        wins += final["ranking"][0] == "a"
    assert wins >= 10, f"the heuristic seat won only {wins} of 20 three-seat games"
