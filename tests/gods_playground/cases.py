"""Running the rulebook's worked examples, kept as data in ``cases/*.json``.

A case names its example and rule, sets up a state (``round``, ``start``, and ``set``:
dotted paths -> values, applied to a fresh game's state), gives the dice the example
rolls (in the order the engine rolls them), runs ``steps`` and checks ``expect``
(dotted paths -> values) and ``events`` (event types with fields that must match).

A case of an earlier rules version names it (``"version": "2"``); ``options`` are the GM's
options of ``pbem new``; ``board`` changes figures of the packaged board (a printed board).

Steps: ``["round_start"]`` (the Habsburgs' influence of the round's start), ``["income"]``,
``["royal_army"]``, ``["events"]``, ``["elections"]``, ``["king"]``,
``["bids", {seat: n}]`` (results ``tied``: the seats
tied after the last bids, ``tied_each``: after each), ``["influence"]``, ``["invasions"]``, ``["raids"]``,
``["estates"]``, ``["vp"]``, ``["end_of_round"]``, ``["end_of_game"]``, ``["invasion_dice"]`` and
``["invade"]`` (the two halves of ``["invasions"]``), ``["expect", {path: value}]`` (checked there),
``[<decision kind>, seat, alt]`` for buy/action/recruit/campaign/counter (checked legal
first), ``["illegal", kind, seat, alt, "part of the reason"]``, ``["legal", kind, seat, alt]``
(could be done; is not), ``["income_of", province]``, ``["winner"]``,
``["free", seat]`` (who has the free counterattack).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from adjudicator.gods_playground import aftermath, decisions, phases
from adjudicator.gods_playground.board import default_board
from adjudicator.gods_playground.engine import ENGINE
from adjudicator.gods_playground.state import Ctx, income_of

CASES = Path(__file__).parent / "cases"
#: Clockwise as in the rulebook's examples (red, white, blue; blue, white, red in turn order).
SEATS = ["white", "red", "blue"]


class FixedDice:
    """A chance stream that rolls the example's dice, in order (and fails when they run out)."""

    def __init__(self, dice: list[int]) -> None:
        self.dice = list(dice)
        self.label = "fixed"

    def die(self, sides: int = 6) -> int:
        if not self.dice:
            raise AssertionError("the case ran out of dice")
        return self.dice.pop(0)

    def choice(self, items: list[Any]) -> Any:
        return items[0]

    def below(self, n: int) -> int:
        return 0


class CaseCtx(Ctx):
    """A working state whose every chance stream is the case's dice."""

    def __init__(self, state: dict[str, Any], dice: list[int]) -> None:
        super().__init__(state, "case")
        self.s = state
        self.fixed = FixedDice(dice)

    def stream(self, *parts: Any, words: str = "") -> Any:  # type: ignore[override]
        return self.fixed


def _walk(obj: Any, path: str) -> tuple[Any, str]:
    keys = path.split(".")
    for k in keys[:-1]:
        obj = obj[int(k)] if isinstance(obj, list) else obj[k]
    return obj, keys[-1]


def get(obj: Any, path: str) -> Any:
    """The value at a dotted path (list indices as numbers)."""
    parent, last = _walk(obj, path)
    return parent[int(last)] if isinstance(parent, list) else parent[last]


def put(obj: Any, path: str, value: Any) -> None:
    """Set the value at a dotted path."""
    parent, last = _walk(obj, path)
    if isinstance(parent, list):
        parent[int(last)] = value
    else:
        parent[last] = value


def load(name: str) -> dict[str, Any]:
    """A case file."""
    return json.loads((CASES / name).read_text(encoding="utf-8"))


def start_state(case: dict[str, Any]) -> dict[str, Any]:
    """A fresh game's state with the case's settings (``options``: the GM's, as ``pbem new``
    passes them; ``board``: dotted paths into the packaged board's tables, a printed board
    that differs there)."""
    state, _ = ENGINE.create(SEATS, case.get("options", {}), "case-seed")
    if case.get("board"):
        state["board"] = copy.deepcopy(default_board())
        for path, value in case["board"].items():
            put(state["board"], path, value)
    for e in state["prov"].values():
        for est in e["estates"]:
            est["owner"] = None
    state["round"] = case.get("round", 1)
    state["start"] = case.get("start", "white")
    state["phase"] = case.get("phase", "buy")
    state["q"] = case.get("q", {"order": SEATS, "out": [], "i": 0})
    for path, value in case.get("set", {}).items():
        put(state, path, value)
    return state


AUTO = {"round_start": phases.influence_at_round_start, "invasion_dice": phases.invasion_dice,
        "invade": phases.invasions, "income": phases.income, "royal_army": phases.royal_army, "events": phases.events,
        "elections": phases.elections, "influence": phases._influence, "raids": aftermath.raids,
        "estates": aftermath.estates, "vp": aftermath.victory_points, "end_of_round": aftermath.end_of_round,
        "end_of_game": aftermath.end_of_game}


def run(case: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Run a case: the final state, the events, and named results."""
    state = start_state(case)
    ctx = CaseCtx(state, case.get("dice", []))
    results: dict[str, Any] = {}
    for step in case["steps"]:
        _step(ctx, step, results)
    assert not ctx.fixed.dice, f"dice left over: {ctx.fixed.dice}"
    return ctx.s, ctx.events, results


def _step(ctx: CaseCtx, step: list[Any], results: dict[str, Any]) -> None:
    name = step[0]
    s = ctx.s
    if name in AUTO:
        AUTO[name](ctx)
    elif name == "king":
        results["tied"] = phases.elect_king(ctx)
    elif name == "bids":
        results["tied"] = phases.settle_bids(ctx, step[1])
        results.setdefault("tied_each", []).append(results["tied"])
    elif name == "invasions":
        phases.invasion_dice(ctx)
        phases.invasions(ctx)
    elif name == "expect":  # a check on the way, e.g. the markers on the box before the Turks strike
        for path, value in step[1].items():
            assert get(s, path) == value, f"{step}: {path} is {get(s, path)!r}"
    elif name == "income_of":
        results["income_of"] = {seat: income_of(s, seat, step[1]) for seat in SEATS}
    elif name == "winner":
        results["winner"] = aftermath.winner_of(s)
    elif name == "legal":  # could be done (and is not)
        why = decisions.PROBLEMS[step[1]](s, step[2], step[3])
        assert why is None, f"{step}: {why}"
    elif name == "illegal":
        why = decisions.PROBLEMS[step[1]](s, step[2], step[3])
        assert why is not None and step[4] in why, f"{step}: {why!r}"
    elif name in decisions.APPLY:
        why = decisions.PROBLEMS[name](s, step[1], step[2])
        assert why is None, f"{step}: {why}"
        if name == "counter":
            s["q"].setdefault("free", step[3] if len(step) > 3 else None)
        decisions.APPLY[name](ctx, step[1], step[2])
    elif name == "free":
        s["q"]["free"] = step[1]
    else:
        raise AssertionError(f"unknown step {name!r}")
