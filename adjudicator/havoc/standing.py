"""Standing and conditional orders: decisions sent in advance, kept in the engine state.

A standing order is ``{"kind": "standing", "when": W, "then": [orders], "if": COND,
"else": [orders]}`` (``if``/``else`` optional) or ``{"kind": "standing", "clear": true}``.
``W`` names the decision it answers: ``recruit`` (a turn), ``join`` (the first decision in a
battle), ``round`` (later battle rounds), ``dogsout`` (version 3: the Dogs declared out at
the end of a battle), ``dogs``, ``discard``, ``exchange``, ``final``, ``choose``. ``COND`` is ``{"laid_max": n}`` (the initiator has laid at most ``n`` cards) or
``{"hand_min": n}`` (the seat holds at least ``n`` cards).

The shell records them with :func:`apply_standing` (the latest set replaces the previous
one) and, before waiting for mail, asks :func:`auto_orders` for the pending seat: the first
entry for the decision whose chosen branch validates gives the orders; ``None`` otherwise.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from adjudicator.base import Order, Problem, State
from adjudicator.havoc.cards import JOHN
from adjudicator.havoc.flow import VALIDATORS, pending
from adjudicator.havoc.releases import RELEASES
from adjudicator.havoc.state import deep_copy

WHENS = ("recruit", "join", "round", "dogsout", "dogs", "discard", "exchange", "final", "choose")
CONDITIONS = ("laid_max", "hand_min")


def is_standing(orders: Sequence[Order]) -> bool:
    """True when ``orders`` is a (non-empty) block of standing orders only."""
    return bool(orders) and all(o.get("kind") == "standing" for o in orders)


def validate_standing(orders: Sequence[Order]) -> list[Problem]:
    """Shape problems of a standing block (the inner orders are checked when they apply)."""
    problems = []
    for i, o in enumerate(orders):
        if o.get("kind") != "standing":
            problems.append(Problem(i, "a standing block holds only STANDING lines"))
        elif o.get("clear"):
            continue
        elif o.get("when") not in WHENS:
            problems.append(Problem(i, f"STANDING needs one of: {', '.join(WHENS)}"))
        elif o.get("when") == "dogsout" and not RELEASES.rule("dogs_out_asked"):
            problems.append(Problem(i, RELEASES.not_yet("dogs_out_asked", "STANDING DOGSOUT")))
        elif not _orders_list(o.get("then")) or ("else" in o and not _orders_list(o["else"], empty=True)):
            problems.append(Problem(i, "STANDING needs orders after ':'"))
        elif "if" in o and not _condition(o["if"]):
            problems.append(Problem(i, "conditions: LAID <= n or HAND >= n"))
    return problems


def _orders_list(value: object, empty: bool = False) -> bool:
    return isinstance(value, list) and (empty or bool(value)) and all(
        isinstance(x, dict) and isinstance(x.get("kind"), str) and x["kind"] != "standing" for x in value)


def _condition(cond: object) -> bool:
    return (isinstance(cond, dict) and len(cond) == 1 and next(iter(cond)) in CONDITIONS
            and isinstance(next(iter(cond.values())), int))


def apply_standing(state: State, seat: str, orders: Sequence[Order]) -> State:
    """A new state with ``seat``'s standing orders replaced by ``orders`` (CLEAR empties)."""
    new = deep_copy(state)
    new["standing"][seat] = [copy.deepcopy(dict(o)) for o in orders if not o.get("clear")]
    return new


def _when(state: State) -> str | None:
    p = pending(state)
    if p is None:
        return None
    if p.kind == "battle":
        return "join" if p.info["round"] == 1 else "round"
    return p.kind


def _holds(state: State, seat: str, cond: dict | None) -> bool:
    if not cond:
        return True
    key, n = next(iter(cond.items()))
    if key == "hand_min":
        return len(state["hands"][seat]) >= n
    phase = state["phase"]
    initiator = phase.get("initiator")
    laid = 3 if initiator == JOHN else len(state["field"].get(initiator, [])) if initiator else 0
    return laid <= n


def auto_orders(state: State, seat: str) -> list[Order] | None:
    """The concrete orders ``seat``'s standing orders give for the pending decision, or None."""
    p = pending(state)
    when = _when(state)
    if p is None or seat not in p.seats:
        return None
    for entry in state["standing"].get(seat, []):
        if entry.get("when") != when:
            continue
        orders = entry["then"] if _holds(state, seat, entry.get("if")) else entry.get("else", [])
        if orders and not VALIDATORS[p.kind](state, seat, orders):
            return copy.deepcopy(list(orders))
    return None
