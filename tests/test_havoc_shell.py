"""Havoc through the shell: standing orders recorded as events, applied on replay, and
``adjudicate`` resolving every decision the standing orders cover."""

from __future__ import annotations

import pytest

from pbem.errors import DomainError
from turns.base import grammar_for

STANDING = """STANDING RECRUIT: RECRUIT DECK; RECRUIT DECK; LAY LOWEST
STANDING JOIN: STAY
STANDING ROUND: PASS
STANDING DISCARD: DISCARD LOWEST
"""


def _new(service, seats=3):
    names = ["red", "blue", "green", "yellow"][:seats]
    return service.new_game("h1", "havoc", [(n, f"{n}@x.org") for n in names], {}, "havoc-shell-seed")


def test_standing_orders_drive_adjudication_and_replay(service):
    created = _new(service)
    game = created.game
    parsed = grammar_for("havoc")(STANDING, game.state)
    assert parsed.ok and game.engine.is_standing(parsed.orders)
    for seat in game.seats:
        service.submit_standing("h1", seat, parsed.orders, STANDING, {"kind": "gm"})
    before = service.load("h1").pending
    done = service.adjudicate("h1")
    assert done, f"standing orders should resolve decisions from {before}"
    game = service.load("h1")
    assert game.turns[-1]["turn"] == done[-1]["turn"]
    replayed = service.load("h1", verify=True)  # the fold re-applies StandingOrders and re-runs every decision
    assert replayed.state_hash == game.state_hash


def test_standing_orders_rejected_for_games_without_them(service):
    service.new_game("w1", "wallenstein", [("a", "a@x"), ("b", "b@x"), ("c", "c@x")], {}, "s")
    with pytest.raises(DomainError, match="no standing orders"):
        service.submit_standing("w1", "a", [{"kind": "standing"}], "", {"kind": "gm"})
