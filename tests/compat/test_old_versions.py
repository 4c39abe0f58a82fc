"""The engine contract under every earlier rules version: seeded random games of Wallenstein
1.0 and 1.1, Havoc 1 and 2 and God's Playground 1 are deterministic, replay, never leak a
seat's secrets, take the default orders, end, and keep each game's invariants (as the newest
versions do)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.gods_playground import ENGINE as GODS_PLAYGROUND
from adjudicator.havoc import ENGINE as HAVOC
from adjudicator.versions import pin
from adjudicator.wallenstein import ENGINE as WALLENSTEIN
from tests.gods_playground import invariants
from tests.gods_playground import test_contract as gp  # modules, not classes: pytest would run those too
from tests.havoc import test_contract as havoc
from tests.wallenstein import test_contract as wallenstein


class TestWallenstein10Contract(wallenstein.TestWallensteinContract):
    engine = pin(WALLENSTEIN, "1.0")
    options = ({"setup": "random"}, {"setup": "draft"}, {"expansion": "court"})
    games = 2

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        wallenstein.check_state(state, seats, box=False, bank=False)  # 1.0: only building spaces limit the pieces


class TestWallenstein11Contract(wallenstein.TestWallensteinContract):
    engine = pin(WALLENSTEIN, "1.1")
    options = ({"setup": "random"}, {"setup": "draft"}, {"expansion": "court"})
    games = 2

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        wallenstein.check_state(state, seats, bank=False)  # 1.1: the bank was not limited


class TestHavoc1Contract(havoc.TestHavocContract):
    engine = pin(HAVOC, "1")
    options = ({}, {"gaunt": "on"}, {"peace": "12"})
    games = 1


class TestHavoc2Contract(havoc.TestHavocContract):
    engine = pin(HAVOC, "2")
    options = ({}, {"gaunt": "on"}, {"gaunt": "extra", "order": "winner"})
    games = 1

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        super().check_invariants(state, seats)
        assert state["phase"]["name"] != "recruiting" and "declare" not in state["phase"]  # version 3's
        assert "sic" not in state["options"] and "small_third" not in state["options"]


class TestGodsPlayground1Contract(gp.TestGodsPlaygroundContract):
    engine = pin(GODS_PLAYGROUND, "1")
    games = 2

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        assert "turks_overran" not in state  # version 1's states never hold version 2's flags
        invariants.check(state)
