"""A whole season through the engine: the order of the steps and what the events record."""

from __future__ import annotations

from adjudicator.chance import Chance
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.data import counties, events
from adjudicator.wallenstein.state import hand


def test_season_steps_and_tax() -> None:
    seats = ["a", "b", "c"]
    state, _ = ENGINE.create(seats, {}, "season")
    planned_actions = list(state["actions"])
    rich = max(hand(state, "a"), key=lambda n: counties()[n]["tax"])
    orders = {s: ENGINE.random_orders(state, s, Chance("x").stream(s)) for s in seats}
    orders["a"] = [o for o in orders["a"] if not (o["kind"] == "action" and (o["action"] == "tax" or o["county"] == rich))
                   and not (o["kind"] == "bid" and o["card"] == "county" and o["county"] == rich)]
    orders["a"].append({"kind": "action", "action": "tax", "county": rich})
    orders["a"] = [o for o in orders["a"] if o["kind"] != "bonus"] + [{"kind": "bonus", "order": ["tax"]}]
    assert not ENGINE.validate(state, "a", orders["a"])
    new, evs = ENGINE.advance(state, orders, "season")
    types = [e["type"] for e in evs]
    assert types[:2] == ["Bids", "EventDrawn"]
    assert types.index("TurnOrder") < types.index("ActionRevealed")
    assert [e["action"] for e in evs if e["type"] == "ActionRevealed"] == planned_actions
    drawn = next(e for e in evs if e["type"] == "EventDrawn")
    assert drawn["event"] in state["events"]["face_up"] and len(drawn["remaining"]) == 3
    order = next(e for e in evs if e["type"] == "TurnOrder")
    tile_a = next(c["tile"] for c in order["choices"] if c["seat"] == "a")
    tax = [e for e in evs if e["type"] == "Tax" and e["seat"] == "a"]
    skipped = [e for e in evs if e["type"] == "Skipped" and e["seat"] == "a" and e["action"] == "tax"]
    assert len(tax) + len(skipped) == 1
    if tax:
        card = events()[drawn["event"]]
        expected = counties()[rich]["tax"]
        if card["effect"] == "tax_max":
            expected = min(expected, card["value"])
        if card["effect"] == "tax_min":
            expected = max(expected, card["value"])
        assert tax[0]["amount"] == expected + (tile_a == "tax")
    assert types[-3:] == ["SeasonStart", "ActionCards", "BonusTiles"]
    assert ENGINE.pending(new).turn == "1618-summer"
    assert new["events"]["used"] == [drawn["event"]]
