"""The shell the sequential engines share (adjudicator/sequential.py): the checks every
decision makes first, the advance plumbing and the standing-order hooks, the same for
Havoc and God's Playground."""

from __future__ import annotations

import pytest

from adjudicator import sequential
from adjudicator.base import GameError
from adjudicator.gods_playground import ENGINE as GP
from adjudicator.gods_playground.state import Ctx as GPCtx
from adjudicator.havoc import ENGINE as HAVOC
from adjudicator.havoc.state import Ctx as HavocCtx
from tests.randomgames import random_steps

GAMES = [(HAVOC, ["red", "blue", "green"]), (GP, ["white", "blue", "red"])]


@pytest.fixture(params=GAMES, ids=lambda g: g[0].name)
def game(request):
    engine, seats = request.param
    state, _ = engine.create(seats, {}, "seq-shell")
    return engine, state


def test_both_engines_are_sequential_engines():
    assert isinstance(HAVOC, sequential.SequentialEngine) and isinstance(GP, sequential.SequentialEngine)


def test_the_shared_checks_come_first_in_one_order(game):
    engine, state = game
    seat = engine.pending(state).seats[0]
    # who before what: a seat not awaited is told so even when its orders are not objects
    assert engine.validate(state, "nobody", ["x"])[0].message.startswith("no decision of nobody is pending")
    assert [p.message for p in engine.validate(state, seat, ["x"])] == ["orders must be objects"]


def test_advance_names_every_missing_seat_and_refuses_illegal_orders(game):
    engine, state = game
    p = engine.pending(state)
    with pytest.raises(GameError, match=f"orders missing for {', '.join(p.seats)} at {p.turn}"):
        engine.advance(state, {}, "seq-shell")
    with pytest.raises(GameError, match=f"illegal orders for {p.seats[0]} at {p.turn}"):
        engine.advance(state, {s: [{"kind": "bogus"}] for s in p.seats}, "seq-shell")


def test_a_simultaneous_decision_names_every_missing_seat():
    state = next(s for p, s, _ in random_steps(GP, ["white", "blue", "red"], "seq-simul")
                 if (q := GP.pending(s)) is not None and len(q.seats) > 1)
    p = GP.pending(state)
    with pytest.raises(GameError, match=f"orders missing for {', '.join(p.seats[1:])} at"):
        GP.advance(state, {p.seats[0]: GP.default_orders(state, p.seats[0])}, "seq-simul")


def test_a_finished_game_takes_no_orders():
    for engine, seats in GAMES:
        *_, (_, final, _) = random_steps(engine, seats, "seq-over")
        assert engine.validate(final, seats[0], [])[0].message == "the game is over"
        with pytest.raises(GameError, match="the game is over"):
            engine.advance(final, {}, "seq-over")


def test_standing_hooks_check_the_seat_then_the_shape(game):
    engine, state = game
    assert engine.validate_standing(state, "nobody", [])[0].message == "unknown seat nobody"
    with pytest.raises(GameError, match="unknown seat nobody"):
        engine.apply_standing(state, "nobody", [])


def test_settle_stops_an_engine_that_never_settles():
    ctx = sequential.Ctx({"round": 1}, "s")
    steps = []
    with pytest.raises(GameError, match="does not settle"):
        sequential.settle(ctx, lambda c: steps.append(1) or True, guard=5)
    assert len(steps) == 5
    sequential.settle(ctx, lambda c: False)


def test_the_working_copy_is_a_copy_and_gods_playground_events_carry_the_round():
    state = {"round": 2, "seats": ["a"]}
    ctx = HavocCtx(state, "s")
    ctx.s["seats"].append("b")
    ctx.emit("Thing", x=1)
    assert state["seats"] == ["a"] and ctx.events == [{"type": "Thing", "x": 1}]
    gp = GPCtx(state, "s")
    gp.emit("Thing", x=1)
    assert gp.events == [{"type": "Thing", "round": 2, "x": 1}]
