"""The engine contract over seeded random God's Playground games, plus the invariant runs:
a few hundred games in every test run, 10,000 with PBEM_SLOW=1."""

from __future__ import annotations

import os
from typing import Any, Sequence

import pytest

from adjudicator.chance import Chance
from adjudicator.gods_playground import ENGINE
from tests.contract import EngineContract
from tests.gods_playground import invariants
from tests.randomgames import random_steps

SEATS = ["white", "blue", "red"]


class TestGodsPlaygroundContract(EngineContract):
    engine = ENGINE
    seat_counts = (3,)
    games = 3
    max_steps = 3000

    def _cases(self):
        for g in range(self.games):
            yield list(SEATS), {}, f"contract-gp-{g}"

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        invariants.check(state)


def play_fast(seed: str, check: bool = True) -> dict[str, Any]:
    """One random game without the contract's re-validation; invariants on every state."""
    state, _ = ENGINE.create(SEATS, {}, seed)
    bot = Chance("bot:" + seed)
    for step in range(3000):
        if check:
            invariants.check(state)
        p = ENGINE.pending(state)
        if p is None:
            return state
        orders = {s: ENGINE.random_orders(state, s, bot.stream(f"{step}/{s}")) for s in p.seats}
        state, _ = ENGINE.advance(state, orders, seed)
    raise AssertionError(f"game {seed} did not end")


def test_a_few_hundred_random_games_keep_every_invariant():
    for i in range(int(os.environ.get("PBEM_GP_GAMES", "200"))):
        final = play_fast(f"inv-{i}")
        assert final["over"] and final["winner"] in SEATS


@pytest.mark.slow
def test_ten_thousand_random_games_keep_every_invariant():
    if not os.environ.get("PBEM_SLOW"):
        pytest.skip("set PBEM_SLOW=1 for the 10,000-game run")
    for i in range(10_000):
        play_fast(f"inv10k-{i}")


def test_plans_never_leak_into_other_views():
    """Random games played through plans: each seat's unused plan (its hidden nobles and
    bids) never shows in another seat's or the public view."""
    from adjudicator.base import PUBLIC, canonical_json

    for g in range(3):
        seed = f"leak-{g}"
        state, _ = ENGINE.create(SEATS, {}, seed)
        bot = Chance("bot:" + seed)
        for step in range(3000):
            p = ENGINE.pending(state)
            if p is None:
                break
            for seat in SEATS:  # everyone (re)plans its next decision of this kind in advance
                guess = ENGINE.random_orders(state, seat, bot.stream(f"{step}/{seat}/plan")) if seat in p.seats else \
                    [{"kind": "nobles", "place": dict(zip(["royal", "royal_prussia", "lithuania", "ukraine",
                                                           "little_poland", "greater_poland"],
                                                          bot.stream(f"{step}/{seat}/n").shuffled(range(6))))}]
                state = ENGINE.apply_standing(state, seat, guess)
            views = {v: canonical_json(ENGINE.view(state, v)) for v in [*SEATS, PUBLIC]}
            for owner in SEATS:
                for secret in ENGINE.private_keys(state, owner):
                    assert secret in views[owner]
                    for viewer, text in views.items():
                        assert viewer == owner or secret not in text, (viewer, owner)
                for line in state["plans"][owner]:
                    written = canonical_json(line)
                    for viewer, text in views.items():
                        if viewer != owner and line not in state["plans"].get(viewer, []):
                            assert written not in text, (viewer, owner, written)
            orders = {s: ENGINE.auto_orders(state, s) or ENGINE.default_orders(state, s) for s in p.seats}
            state, _ = ENGINE.advance(state, orders, seed)


def test_the_heuristic_bot_plays_legal_orders_to_the_end():
    from adjudicator.gods_playground.bots import heuristic_orders

    def legal(state: dict[str, Any], seat: str, rng: Any) -> list[dict[str, Any]]:
        orders = heuristic_orders(state, seat, rng)
        assert not ENGINE.validate(state, seat, orders), (ENGINE.pending(state), orders)
        return orders

    for g in range(3):
        for _, state, _ in random_steps(ENGINE, SEATS, f"heur-{g}", bot=legal):
            invariants.check(state)
        assert state["over"]
