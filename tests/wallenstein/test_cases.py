"""Rulebook cases as data (tests/wallenstein/cases/*.json): one pytest case per entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.base import GameError
from adjudicator.wallenstein import battle, court, draft, favour, setup, winter
from adjudicator.wallenstein.data import BONUS_TILES
from adjudicator.wallenstein.draft_orders import read_draft, validate_draft
from adjudicator.wallenstein.orders import MISSED, read_plan, validate_plan
from adjudicator.wallenstein.season import bidding_order, choose_tiles
from adjudicator.wallenstein.releases import RELEASES
from tests.versioned import rules_of
from tests.wallenstein import scenario

CASES = sorted((Path(__file__).parent / "cases").glob("*.json"))


def _load() -> list[Any]:
    out = []
    for path in CASES:
        for case in json.loads(path.read_text(encoding="utf-8")):
            out.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return out


def _fail(case: dict[str, Any], diffs: list[str]) -> None:
    if diffs:
        pytest.fail(f"case {case['id']} ({case['rule']}):\n  " + "\n  ".join(diffs), pytrace=False)


def run_battle(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    got = battle.resolve(case["attacker"], case["defender"], case["peasants"], case["peasants_side"]).as_dict()
    return [f"{k}: expected {v!r}, got {got[k]!r}" for k, v in case["expect"].items() if got[k] != v]


def run_actions(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    if "tower_out" in case:
        monkeypatch.setattr(scenario.tower, "throw", scenario.scripted_tower(case["tower_out"]))
    state, emitted = scenario.run_actions(case)
    return scenario.differences(state, emitted, case["expect"])


def run_winter(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    if "tower_out" in case:
        monkeypatch.setattr(scenario.tower, "throw", scenario.scripted_tower(case["tower_out"]))
    state = scenario.build(case["position"])
    ctx = scenario.context(state, case, "autumn")
    winter.resolve(ctx, case.get("last", False), case.get("famine_orders"))
    return scenario.differences(state, ctx.events, case["expect"])


def run_score(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    state = scenario.build(case["position"])
    got = {s: d["total"] for s, d in winter.score(state).items()}
    want = case["expect"]["vp"]
    return [f"vp.{s}: expected {v}, got {got[s]} ({winter.score(state)[s]})" for s, v in want.items() if got[s] != v]


def run_bids(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    state = scenario.build({"seats": list(case["bids"])})
    state["bonus"] = case.get("places", list(BONUS_TILES))
    ctx = scenario.context(state, case)
    plans = {s: {"bid": {"kind": "bid", **b}, "bonus": case.get("prefs", {}).get(s, []),
                 "missed": s in case.get("missed", [])} for s, b in case["bids"].items()}
    choose_tiles(ctx, plans, bidding_order(ctx, plans))
    diffs = scenario.differences(state, ctx.events, {k: v for k, v in case["expect"].items()
                                                     if k in ("events", "no_events")})
    if "order" in case["expect"] and state["turn_order"] != case["expect"]["order"]:
        diffs.append(f"turn order: expected {case['expect']['order']}, got {state['turn_order']}")
    ties = [e["seats"] for e in ctx.events if e["type"] == "TieDraw"]
    if ties != case["expect"].get("ties", []):
        diffs.append(f"tie draws: expected {case['expect'].get('ties', [])}, got {ties}")
    if "holders" in case["expect"] and ctx.holders != case["expect"]["holders"]:
        diffs.append(f"tiles: expected {case['expect']['holders']}, got {ctx.holders}")
    return diffs


def run_validate(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    state = scenario.build(case["position"])
    check = validate_draft if case.get("draft") else validate_plan
    got = check(state, case["seat"], case["orders"])
    want = case["expect"]["problems"]
    shown = [f"[{p.index}] {p.message}" for p in got]
    if len(got) != len(want):
        return [f"expected {len(want)} problem(s) {want}, got {shown}"]
    return [f"problem {i}: expected index {w['index']} containing {w['contains']!r}, got {shown[i]}"
            for i, (p, w) in enumerate(zip(got, want)) if p.index != w["index"] or w["contains"] not in p.message]


def _with_court(position: dict[str, Any]) -> dict[str, Any]:
    return {**position, "options": {"expansion": "court", **position.get("options", {})}}


def run_court(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    """Rule 9.4: step 1 (reveal the court spaces) and/or step 2 (the Emperor's favour)."""
    state = scenario.build(_with_court(case["position"]))
    state["turn_order"] = case.get("turn_order", state["seats"])
    ctx = scenario.context(state, case)
    plans = {s: read_plan(case.get("plans", {}).get(s, [])) for s in state["seats"]}
    step = case.get("step")
    if step in (None, "reveal"):
        court.reveal(ctx, plans)
    if step in (None, "audience"):
        court.audience(ctx, plans)
    return scenario.differences(state, ctx.events, case["expect"])


def run_lay_out(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    """Rule 9.1: the top three favour cards of a stacked deck (``deck``, top first) laid out."""
    state = scenario.build(_with_court(case.get("position", {})))
    state["court"]["deck"] = list(case["deck"])
    ctx = scenario.context(state, case)
    court.lay_out(ctx)
    return scenario.differences(state, ctx.events, case["expect"])


def run_tower_fill(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    """Rules 3.5 and 8: the tower fill (and, with the court, courtiers for the armies that fell out)."""
    monkeypatch.setattr(setup.tower, "throw", scenario.scripted_tower([case["tower_out"]]))
    state = setup.new_state(case["seats"], case.get("options", {"expansion": "court"}))
    ctx = scenario.context(state, case, "setup")
    out = setup.fill_tower(ctx)
    if court.enabled(state):
        court.setup(ctx, out)
    return scenario.differences(state, ctx.events, case["expect"])


def run_favour(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    """A favour card's effects, carried out at once (rule 9.4, the vocabulary of favour.py)."""
    state = scenario.build(_with_court(case["position"]))
    ctx = scenario.context(state, case)
    card = favour.parse_deck([{"number": 1, **case["card"]}, {"number": 2, "effects": [{"do": "vp", "n": 1}]},
                              {"number": 3, "effects": [{"do": "vp", "n": 1}]}])["cards"][0]
    wanted = case.get("counties", case.get("county"))
    ctx.emit("Favour", seat=case["seat"], effects=favour.apply(ctx, case["seat"], card, wanted))
    return scenario.differences(state, ctx.events, case["expect"])


def run_draft(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    """Rule 3.3: the draft's picks from a given deck (``face_up``, ``deck``) and the seats' orders.

    From rules 1.2 on each pick is asked when it comes up: ``orders`` are the lines each seat
    sent before pick 1 (standing orders), ``answers`` what a seat sends when asked at a turn
    (``"deadline"``: nothing by the deadline); the draft stops where a seat is asked and the
    case gives no answer (``expect.asked``: the turns at which seats were asked)."""
    state = setup.new_state(case.get("seats", scenario.DEFAULT_SEATS), {"setup": "draft"})
    listed = [*case["face_up"], *case["deck"]]  # the rest of the deck follows, in name order
    state["draft"] = {"face_up": list(case["face_up"]),
                      "deck": [*case["deck"], *sorted(c for c in state["counties"] if c not in listed)]}
    if RELEASES.rule("draft_asked"):
        state, emitted, asked = _asked_draft(state, case)
    else:
        if case.get("answers"):
            return ["this rules version has no picks asked one at a time (answers)"]
        for seat, orders in case["orders"].items():
            problems = validate_draft(state, seat, orders)
            if problems:
                return [f"{seat}'s orders: {[p.message for p in problems]}"]
        ctx = scenario.context(state, case, "setup")
        draft.run_draft(ctx, {s: read_draft(state, case["orders"].get(s, MISSED)) for s in state["seats"]})
        emitted, asked = ctx.events, []
    if isinstance(emitted, str):
        return [emitted]
    diffs = scenario.differences(state, emitted, case["expect"])
    picks = [[e["seat"], e["county"], e["armies"]] for e in emitted if e["type"] == "DraftPick"]
    want = case["expect"].get("picks")
    if want is not None and picks[:len(want)] != want:
        diffs.append(f"picks: expected {want}, got {picks[:len(want)]}")
    if "asked" in case["expect"] and asked != case["expect"]["asked"]:
        diffs.append(f"asked at: expected {case['expect']['asked']}, got {asked}")
    return diffs


def _asked_draft(state: dict[str, Any], case: dict[str, Any]) -> tuple[dict[str, Any], Any, list[str]]:
    """The draft one pick at a time through the engine, as the shell runs it (rules 1.2 on)."""
    from adjudicator.wallenstein.draft_asked import begin
    from adjudicator.wallenstein.engine import ENGINE

    begin(state)
    for seat, orders in case["orders"].items():
        problems = ENGINE.validate_standing(state, seat, orders)
        if problems:
            return state, f"{seat}'s orders: {[p.message for p in problems]}", []
        state = ENGINE.apply_standing(state, seat, orders)
    emitted: list[dict[str, Any]] = []
    asked: list[str] = []
    answers = dict(case.get("answers", {}))
    while state["phase"] == "draft":
        pending = ENGINE.pending(state)
        seat = pending.seats[0]
        orders = ENGINE.auto_orders(state, seat)
        if orders is None:
            asked.append(pending.turn)
            answer = answers.pop(pending.turn, None)
            if answer is None:
                break
            if answer == "deadline":
                orders = ENGINE.default_orders(state, seat)
            else:
                state = ENGINE.apply_standing(state, seat, answer)
                orders = ENGINE.auto_orders(state, seat)
                if orders is None:
                    return state, f"{seat}'s answer at {pending.turn} does not make the pick", asked
        state, events = ENGINE.advance(state, {seat: orders}, case.get("seed", "scenario"))
        emitted += [e for e in events if e["type"] in ("DraftPick", "DraftRefresh", "ChosenForSeat")]
    return state, emitted, asked


def run_options(case: dict[str, Any], monkeypatch: Any) -> list[str]:
    """Game options: a new game's readings (``expect.readings``) or the refusal (``expect.error``)."""
    try:
        state, events = setup.create(case.get("seats", scenario.DEFAULT_SEATS), case["options"], "options")
    except GameError as exc:
        want = case["expect"].get("error")
        return [] if want and want in str(exc) else [f"refused: {exc}"]
    if "error" in case["expect"]:
        return [f"expected the refusal {case['expect']['error']!r}; the game was created"]
    created = events[0]
    want = case["expect"].get("readings")
    return [] if created.get("readings") == want else [f"readings: expected {want}, got {created.get('readings')}"]


RUNNERS = {"battle": run_battle, "actions": run_actions, "winter": run_winter, "score": run_score,
           "bids": run_bids, "validate": run_validate, "court": run_court, "tower_fill": run_tower_fill, "lay_out": run_lay_out,
           "favour": run_favour, "draft": run_draft, "options": run_options}


@pytest.mark.parametrize("case", _load())
def test_case(case: dict[str, Any], monkeypatch: Any) -> None:
    with rules_of(RELEASES, case):  # a case of an earlier version says which ("version")
        _fail(case, RUNNERS[case["kind"]](case, monkeypatch))


#: The cases of the fixes of rules version 1.2: each must fail under the version before it.
FIXES_1_2 = Path(__file__).parent / "cases" / "fidelity3.json"


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in json.loads(FIXES_1_2.read_text("utf-8"))])
def test_a_case_of_1_2_fails_under_1_1(case: dict[str, Any], monkeypatch: Any) -> None:
    """A case that also passed under 1.1 would not show that 1.2 changed anything (a ``boundary``
    case pins the edge of a fix, where both versions agree)."""
    assert "version" not in case
    if case.get("boundary"):
        pytest.skip("the edge of a fix: both versions agree")
    with RELEASES.pinned(RELEASES.get("1.1")):
        try:
            diffs = RUNNERS[case["kind"]](case, monkeypatch)
        except GameError as exc:  # 1.1 refuses what the case needs (an option of 1.2)
            diffs = [str(exc)]
    assert diffs, f"{case['id']} passes under rules 1.1 too"
