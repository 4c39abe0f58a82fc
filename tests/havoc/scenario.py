"""Scenario cases: a set-up table (hands, recruits, deck top...), order steps, expectations.

Case format (JSON, see tests/havoc/cases/*.json)::

    {"id": ..., "seats": [...], "options": {...},
     "setup": {"hands": {seat: [cards]}, "recruits": [...], "discard": [...], "deck_top": [...],
               "peace": {...}, "battles": [...], "turn": seat, "points": {seat: n},
               "won": {seat: [battle ids]}, "john": {...}},
     "steps": [{"seat": s, "orders": "<order text>", "expect": {...}}, ...]}

A case that expects a provisional battle figure (adjudicator/havoc/data/battles.json) says so in
a ``provisional`` field. Cards not placed go to the deck after ``deck_top`` (sorted). ``expect`` keys: ``problems``
(substrings; the orders must be rejected and nothing happens), ``pending`` {seat, kind,
must_join...}, ``points``, ``recruits``, ``peace`` (subset), ``hand_has`` / ``hand_lacks``
{seat: [cards]}, ``hand_size`` {seat: n}, ``events`` (each must match an event of the step
by its listed fields), ``battles`` (remaining ids), ``winner``, ``over``, ``john`` (subset),
``view`` {viewer: {key: value}} (entries of that viewer's view), ``view_lacks`` {viewer:
[strings]} (not in that viewer's view, as JSON). A step with ``"default": true`` instead of
``orders`` sends the seat's missed-orders default (``engine.default_orders``).
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.base import GM
from adjudicator.havoc import ENGINE
from adjudicator.havoc.flow import settle
from adjudicator.havoc.state import Ctx, all_zones
from turns.havoc import parse

SEED = "havoc-scenario"


def build(case: dict[str, Any]) -> dict[str, Any]:
    """The state the case describes (every card still in exactly one place)."""
    state, _ = ENGINE.create(case["seats"], case.get("options", {}), SEED)
    setup = case.get("setup", {})
    placed = [c for h in setup.get("hands", {}).values() for c in h]
    placed += setup.get("recruits", []) + setup.get("discard", []) + setup.get("deck_top", [])
    pool = [c for c in all_zones(state) if c not in state["box"] and c not in state["table"]]
    missing = [c for c in placed if c not in pool]
    assert not missing, f"cards not in play: {missing}"
    assert len(placed) == len(set(placed)), "a card is placed twice"
    for seat in state["seats"]:
        state["hands"][seat] = sorted(setup.get("hands", {}).get(seat, []))
    state["recruits"] = list(setup.get("recruits", []))
    state["discard"] = list(setup.get("discard", []))
    rest = sorted(c for c in pool if c not in placed)
    if "rest_to" in setup:  # everything else into one hand: an empty deck
        state["hands"][setup["rest_to"]] = sorted(state["hands"][setup["rest_to"]] + rest)
        rest = []
    state["deck"] = list(setup.get("deck_top", [])) + rest
    if "peace" in setup:
        state["peace"].update(setup["peace"])
    if "battles" in setup:
        state["battles"] = list(setup["battles"])
    for key in ("points", "won"):  # scores and battle cards won before the scene
        state[key].update(setup.get(key, {}))
    if "john" in setup:
        state["john"].update(setup["john"])
        if state["john"]["where"] in ("waiting", "active") and "gaunt" in state["deck"]:
            state["deck"].remove("gaunt")  # John is on the table, at his drawer's left
            state["table"].append("gaunt")
    state["phase"] = {"name": "turn", "seat": setup.get("turn", state["seats"][0])}
    ctx = Ctx(state, SEED)
    settle(ctx)
    return ctx.s


def _matches(event: dict[str, Any], want: dict[str, Any]) -> bool:
    return all(event.get(k) == v for k, v in want.items())


def check(state: dict[str, Any], events: list[dict[str, Any]], expect: dict[str, Any], where: str) -> None:
    """Assert every expectation, naming the step on failure."""
    view = ENGINE.view(state, GM)
    pending = ENGINE.pending(state)
    for key, want in expect.items():
        if key == "pending":
            got = None if pending is None else {"seat": pending.seats[0], "kind": pending.kind, **pending.info}
            assert got is not None and all(got.get(k) == v for k, v in want.items()), f"{where}: pending {got}"
        elif key in ("points", "recruits", "battles", "winner", "over"):
            got = {"battles": [b["id"] for b in view["battles"]]}.get(key, view.get(key))
            assert got == want, f"{where}: {key} is {got}, expected {want}"
        elif key in ("peace", "john"):
            assert all(view[key].get(k) == v for k, v in want.items()), f"{where}: {key} is {view[key]}"
        elif key == "hand_has":
            for seat, cards in want.items():
                assert set(cards) <= set(state["hands"][seat]), f"{where}: {seat} holds {state['hands'][seat]}"
        elif key == "hand_lacks":
            for seat, cards in want.items():
                assert not set(cards) & set(state["hands"][seat]), f"{where}: {seat} holds {state['hands'][seat]}"
        elif key == "hand_size":
            got = {seat: len(state["hands"][seat]) for seat in want}
            assert got == want, f"{where}: hand sizes {got}"
        elif key == "events":
            for w in want:
                assert any(_matches(e, w) for e in events), f"{where}: no event like {w} in {events}"
        elif key == "view":
            for viewer, entries in want.items():
                seen = ENGINE.view(state, viewer)
                for k, v in entries.items():
                    assert seen.get(k) == v, f"{where}: {viewer}'s view has {k} = {seen.get(k)}, expected {v}"
        elif key == "view_lacks":
            for viewer, words in want.items():
                text = json.dumps(ENGINE.view(state, viewer))
                assert not [w for w in words if w in text], f"{where}: {viewer}'s view names {words}"
        elif key != "problems":
            raise AssertionError(f"{where}: unknown expectation {key}")


def run(case: dict[str, Any]) -> None:
    """Play the case's steps and check each expectation."""
    state = build(case)
    check(state, [], case.get("expect_start", {}), f"{case['id']} start")
    for i, step in enumerate(case["steps"], start=1):
        if step.get("default"):
            texts = {step["seat"]: None}
        else:
            texts = step["orders"] if isinstance(step["orders"], dict) else {step["seat"]: step["orders"]}
        where = f"{case['id']} step {i} ({texts!r})"
        orders, problems = {}, []
        for seat, text in texts.items():
            if text is None:  # the missed-orders default
                orders[seat] = ENGINE.default_orders(state, seat)
            else:
                parsed = parse(text, state)
                assert parsed.ok, f"{where}: {parsed.problems}"
                orders[seat] = parsed.orders
            problems += ENGINE.validate(state, seat, orders[seat])
        if "problems" in step.get("expect", {}):
            text = " | ".join(p.message for p in problems)
            assert problems and all(w in text for w in step["expect"]["problems"]), f"{where}: problems {text!r}"
            continue
        assert not problems, f"{where}: {problems}"
        state, events = ENGINE.advance(state, orders, SEED)
        check(state, events, step.get("expect", {}), where)
