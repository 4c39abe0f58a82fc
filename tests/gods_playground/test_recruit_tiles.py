"""Recruitment one army tile a turn (rules version 3, Phase 9: „Játéksorrendben mind
vásárolhattok egyetlen sereglapkát, felrakva azt egy tartományra.”): a RECRUIT naming several
units is a standing list, placed one tile a turn, its fallbacks kept with its rest; version 2
placed the whole line in one turn."""

from __future__ import annotations

from typing import Any

from adjudicator.gods_playground import ENGINE
from adjudicator.versions import pin

SEATS = ["white", "blue", "red"]


def _recruiting(engine: Any = ENGINE) -> dict[str, Any]:
    """Round 2's recruitment, white first, each seat with 20 thalers and 2 cubes on Ukraine
    and Lithuania, both Cossacks on their box."""
    state, _ = engine.create(SEATS, {}, "tiles")
    state.update(round=2, phase="recruit", start="white", q={"order": list(SEATS), "out": [], "i": 0})
    for seat in SEATS:
        state["money"][seat] = 20
        for p in ("ukraine", "lithuania"):
            state["prov"][p]["nobles"][seat] = 2
    state["plans"] = {s: [] for s in SEATS}
    return state


def _recruit(*alts: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"kind": "recruit", "alts": list(alts)}]


def _turn(engine: Any, state: dict[str, Any], orders: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The pending seat's turn: ``orders``, else its plan's line (the shell's auto orders)."""
    seat = engine.pending(state).seats[0]
    given = orders if orders is not None else engine.auto_orders(state, seat)
    assert given is not None, (seat, state["plans"][seat])
    state, _ = engine.advance(state, {seat: given}, "tiles")
    return state


def test_a_line_of_several_units_waits_in_the_plan_and_is_placed_one_tile_a_turn():
    state = _recruiting()
    state = ENGINE.apply_standing(state, "white", _recruit({"province": "ukraine", "inf": 2, "cav": 1}, {"pass": True}))
    state = _turn(ENGINE, state)  # white: an infantry, its cube
    assert state["prov"]["ukraine"]["units"]["white"] == {"inf": 1, "cav": 0, "can": 0}
    assert state["prov"]["ukraine"]["nobles"]["white"] == 1 and state["money"]["white"] == 18
    assert state["plans"]["white"] == _recruit({"province": "ukraine", "inf": 1, "cav": 1}, {"pass": True})
    assert ENGINE.pending(state).seats == ("blue",)
    state = _turn(ENGINE, state, _recruit({"pass": True}))
    state = _turn(ENGINE, state, _recruit({"pass": True}))
    state = _turn(ENGINE, state)  # white again: the second infantry, no cube
    state = _turn(ENGINE, state)  # and the cavalry; the line is spent
    assert state["prov"]["ukraine"]["units"]["white"] == {"inf": 2, "cav": 1, "can": 0}
    assert state["prov"]["ukraine"]["nobles"]["white"] == 1 and state["money"]["white"] == 12
    assert state["plans"]["white"] == [] and ENGINE.pending(state).seats == ("white",)  # asked: no line left


def test_the_rest_keeps_its_fallbacks_when_another_seat_hires_the_cossack():
    """The Cossacks come first; when blue hires the second before white's next turn, the rest
    of white's first alternative (a Cossack and an infantry) cannot be placed, and the line's
    next alternative is used."""
    state = _recruiting()
    line = _recruit({"province": "ukraine", "inf": 1, "cossack": 2}, {"province": "lithuania", "cav": 1}, {"pass": True})
    state = ENGINE.apply_standing(state, "white", line)
    state = _turn(ENGINE, state)
    assert state["prov"]["ukraine"]["cossacks"] == 1 and state["cossack_box"] == 1
    state = _turn(ENGINE, state, _recruit({"province": "ukraine", "cossack": 1}))  # blue takes the other
    state = _turn(ENGINE, state, _recruit({"pass": True}))
    state = _turn(ENGINE, state)  # white: Ukraine's rest is illegal now; Lithuania's cavalry
    assert state["prov"]["lithuania"]["units"]["white"]["cav"] == 1
    assert state["prov"]["ukraine"]["units"]["white"]["inf"] == 0 and state["plans"]["white"] == []


def test_an_order_given_directly_leaves_its_rest_as_the_seat_s_next_recruit_line():
    state = _recruiting()
    state = ENGINE.apply_standing(state, "white", _recruit({"pass": True}))
    state = _turn(ENGINE, state, _recruit({"province": "lithuania", "inf": 2}))
    assert state["plans"]["white"] == _recruit({"province": "lithuania", "inf": 1}) + _recruit({"pass": True})


def test_version_2_placed_the_whole_line_in_one_turn():
    old = pin(ENGINE, "2")
    state = _recruiting(old)
    state = _turn(old, state, _recruit({"province": "ukraine", "inf": 2, "cav": 1, "cossack": 2}))
    assert state["prov"]["ukraine"]["units"]["white"] == {"inf": 2, "cav": 1, "can": 0}
    assert state["cossack_box"] == 0 and state["plans"]["white"] == []
    assert "one_tile" not in old.pending(state).info


def test_the_pending_recruitment_says_one_tile_a_turn():
    state = _recruiting()
    assert ENGINE.pending(state).info["one_tile"] is True
