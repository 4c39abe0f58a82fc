"""The piece-count invariants of God's Playground, checked on every state of random games."""

from __future__ import annotations

from typing import Any

from adjudicator.gods_playground.board import ENEMIES, board
from adjudicator.gods_playground.state import (
    COINS, INFLUENCE, ROYAL_CUBES, TOWNS, cube_supply, disc_supply, enemy_supply, estates_of, influence_on_board,
    sejm_discs, stewards_used)


def check(state: dict[str, Any], bank_limit: bool | None = None) -> None:
    """Every piece accounted for; every figure within its limits (the rulebook's component list). The
    players' thalers are within the bank's 132 when ``bank_limit`` (default: in a game made
    under rules version 3 on, whose state names the GM's readings)."""
    b = board(state)
    for seat in state["seats"]:
        assert 0 <= cube_supply(state, seat) <= 20, (seat, "noble cubes")
        assert 0 <= disc_supply(state, seat) <= 16, (seat, "discs")
        # 16 discs; from rules version 3 one of them marks the score (Phase 15): at most 15 on the board
        assert estates_of(state, seat) + sejm_discs(state, seat) <= (15 if "readings" in state else 16), (seat, "discs")
        expected = 0 if state["over"] else (12 if state["round"] in (1, 3) else 6) - len(state["placed"][seat])
        assert len(state["hand"][seat]) == expected, (seat, "nobles", state["hand"][seat], state["placed"][seat])
        assert state["money"][seat] >= 0, (seat, "money")
        for prov in state["prov"].values():
            assert prov["nobles"][seat] >= 0
            assert all(v >= 0 for v in prov["units"][seat].values())
    if "readings" in state if bank_limit is None else bank_limit:  # rules version 3: the bank's 22 gold and 22 silver coins, 132 thalers
        assert sum(state["money"].values()) <= COINS, ("thalers", state["money"])
    for e in ENEMIES:
        assert 0 <= enemy_supply(state, e) <= 25, (e, "enemy cubes")
    assert stewards_used(state) <= 8
    towns = sum(1 for p in state["prov"].values() for est in p["estates"] if est["town"])
    assert towns <= state["towns_founded"] <= TOWNS
    assert sum(1 for box in state["box"].values() if box["treaty"]) <= 1
    for prov in state["prov"].values():
        assert b["track"]["min"] <= prov["track"] <= b["track"]["max"]
        assert all(n >= 0 for n in prov["enemy"].values())
    for unit, most in b["royal_max"].items():
        assert 0 <= state["royal"][unit] <= most
    assert sum(box["royal"] for box in state["box"].values()) <= ROYAL_CUBES
    assert influence_on_board(state) <= INFLUENCE
    cossacks = state["cossack_box"] + state["prov"]["ukraine"]["cossacks"] + state["box"]["tatars"]["cossacks"]
    assert cossacks == 2, "Cossacks"
    assert sum(p["cossacks"] for p in state["prov"].values()) == state["prov"]["ukraine"]["cossacks"]
