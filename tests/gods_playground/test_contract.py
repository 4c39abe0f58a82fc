"""The engine contract over seeded random God's Playground games, plus the invariant runs:
a few hundred games in every test run, 10,000 with PBEM_SLOW=1."""

from __future__ import annotations

import os
from typing import Any, Sequence

import pytest

from adjudicator.chance import Chance
from adjudicator.gods_playground import ENGINE
from adjudicator.versions import pin
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


class TestGodsPlayground2Contract(TestGodsPlaygroundContract):
    """The contract under rules version 2 (version 1's is in tests/compat/test_old_versions.py)."""

    engine = pin(ENGINE, "2")
    games = 2

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        assert "readings" not in state  # version 2's states never hold version 3's readings
        invariants.check(state)


def play_fast(seed: str, check: bool = True, engine: Any = ENGINE, options: dict[str, str] | None = None,
              orders_of: Any = None) -> dict[str, Any]:
    """One random game without the contract's re-validation; invariants on every state."""
    state, _ = engine.create(SEATS, options or {}, seed)
    bot = Chance("bot:" + seed)
    pick = orders_of or engine.random_orders
    for step in range(3000):
        if check:
            invariants.check(state)
        p = engine.pending(state)
        if p is None:
            return state
        orders = {s: pick(state, s, bot.stream(f"{step}/{s}")) for s in p.seats}
        state, _ = engine.advance(state, orders, seed)
    raise AssertionError(f"game {seed} did not end")


def test_a_few_hundred_random_games_keep_every_invariant():
    for i in range(int(os.environ.get("PBEM_GP_GAMES", "200"))):
        final = play_fast(f"inv-{i}")
        assert final["over"] and final["winner"] in SEATS


def test_random_games_of_rules_version_2_keep_every_invariant():
    """Version 2 played on beside version 3: its invariants (no 132-thaler bank) hold."""
    for i in range(40):
        final = play_fast(f"inv2-{i}", engine=pin(ENGINE, "2"))
        assert final["over"] and "readings" not in final


def test_the_bank_limit_is_reached_and_kept():
    """Random games reach the bank's 132 thalers (income or Danzig paid short), and no state
    holds more in the players' hands (the invariant); under version 2 some exceed it."""
    from adjudicator.gods_playground.state import COINS

    def richest(engine: Any, seed: str) -> int:
        state, _ = engine.create(SEATS, {}, seed)
        bot = Chance("bot:" + seed)
        most = 0
        for step in range(3000):
            most = max(most, sum(state["money"].values()))
            p = engine.pending(state)
            if p is None:
                return most
            orders = {s: _hoarder(engine, state, s, bot.stream(f"{step}/{s}")) for s in p.seats}
            state, _ = engine.advance(state, orders, seed)
        raise AssertionError(seed)

    old = [richest(pin(ENGINE, "2"), f"bank-{i}") for i in range(6)]
    new = [richest(ENGINE, f"bank-{i}") for i in range(6)]
    assert max(old) > COINS, old
    assert max(new) == COINS, new


def _hoarder(engine: Any, state: dict[str, Any], seat: str, rng: Any) -> list[dict[str, Any]]:
    """A bot that spends nothing and trades through Danzig whenever it can (a rich table)."""
    p = engine.pending(state)
    if p is not None and p.kind == "action":
        return [{"kind": "action", "alts": [{"action": "danzig"}, {"pass": True}]}]
    if p is not None and p.kind in ("buy", "recruit", "campaign", "counter", "bid"):
        return engine.default_orders(state, seat)
    return engine.random_orders(state, seat, rng)


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
