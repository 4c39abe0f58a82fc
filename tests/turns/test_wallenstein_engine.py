"""The grammar against the real engine: its random legal orders survive text, and
``check_orders`` maps the engine's problems to the player's lines."""

from __future__ import annotations

import pytest

from adjudicator.base import GameError
from adjudicator.registry import get_engine
from adjudicator.chance import Stream
from turns.base import check_orders
from turns.wallenstein import format_orders, parse


def _engine():  # type: ignore[no-untyped-def]
    try:
        return get_engine("wallenstein")
    except GameError:
        pytest.skip("the Wallenstein engine is not registered yet")


GAMES = [({}, "seed-a"), ({"setup": "draft"}, "seed-b"), ({}, "seed-c")]


@pytest.mark.parametrize(("options", "seed"), GAMES, ids=[f"{s}-{o}" for o, s in GAMES])
def test_random_legal_orders_survive_the_text_round_trip(options: dict[str, str], seed: str) -> None:
    engine = _engine()
    try:
        state, _ = engine.create(["anna", "bob", "carl", "dora"], options, seed)
    except GameError as error:
        pytest.skip(f"engine refuses {options}: {error}")
    for step in range(4):
        pending = engine.pending(state)
        if pending is None:
            break
        orders = {}
        for seat in pending.seats:
            chosen = engine.random_orders(state, seat, Stream(seed, f"test/{step}/{seat}"))
            text = format_orders(chosen)
            result = check_orders(engine, parse, state, seat, text)
            assert result.problems == [] and result.orders == chosen, (pending.turn, text, result.problems)
            orders[seat] = result.orders
        state, _ = engine.advance(state, orders, seed)


def test_engine_problems_point_at_mail_lines() -> None:
    engine = _engine()
    state, _ = engine.create(["anna", "bob", "carl"], {}, "seed-d")
    not_mine = next(n for n, c in engine.view(state, "@gm")["counties"].items() if c.get("owner") != "anna")
    text = f"# my plan\nTAX {not_mine}\nBID 2\n"
    result = check_orders(engine, parse, state, "anna", text, first_line=10)
    assert result.lines == [11, 12]
    assert any(p.line == 11 and p.stage == "rule" for p in result.problems), [str(p) for p in result.problems]
