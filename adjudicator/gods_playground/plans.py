"""Pre-sent orders ("plans"): one mail holds a seat's orders for every decision of the
round it can foresee, each line with fallbacks. Kept in the state (hidden from the others),
used in order when the seat's turn comes if still legal, otherwise the seat is asked
(the pending decision says which line failed and why). Plans end with the round.

Every God's Playground order block is a plan: its lines replace the seat's earlier lines
of the same kinds (``BUY`` lines replace ``BUY`` lines, and so on); other lines are kept.

The public functions bear the names of the shell's standing-order hooks, which
:class:`adjudicator.sequential.SequentialEngine` answers from this module (Havoc's is
:mod:`adjudicator.havoc.standing`): ``is_standing``, ``validate_standing``,
``apply_standing``, ``auto_orders``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from adjudicator.base import Order, Problem
from adjudicator.gods_playground.flow import KINDS, order_problem, pending
from adjudicator.gods_playground.releases import RELEASES, rule

State = dict[str, Any]


def is_standing(orders: Sequence[Order]) -> bool:
    """True for a non-empty block of God's Playground orders."""
    return bool(orders) and all(isinstance(o, dict) and o.get("kind") in KINDS for o in orders)


def validate_standing(orders: Sequence[Order]) -> list[Problem]:
    """Shape problems of a plan (the rules are checked when each line comes to be used)."""
    problems = []
    for i, o in enumerate(orders):
        if o.get("kind") not in KINDS:
            problems.append(Problem(i, f"unknown order kind {o.get('kind')!r}"))
        elif o["kind"] not in ("nobles", "cubes", "bid") and not (isinstance(o.get("alts"), list) and o["alts"]):
            problems.append(Problem(i, "an order needs at least one alternative"))
        elif not rule("estate_choice") and any(isinstance(a, dict) and a.get("value") is not None for a in o.get("alts", [])):
            problems.append(Problem(i, RELEASES.not_yet("estate_choice", "ON <value>")))
    return problems


def apply_standing(state: State, seat: str, orders: Sequence[Order]) -> State:
    """A new state with ``seat``'s plan updated: the lines of each kind ``orders`` holds
    replace the earlier lines of that kind; lines of other kinds are kept (so answering
    one decision does not drop the rest of the plan)."""
    from adjudicator.sequential import deep_copy

    new = deep_copy(state)  # what copy.deepcopy gives, several times faster (a plan mail copies the state)
    kinds = {o.get("kind") for o in orders}
    kept = [o for o in new["plans"][seat] if o.get("kind") not in kinds]
    new["plans"][seat] = kept + [copy.deepcopy(dict(o)) for o in orders]
    return new


def _line(state: State, seat: str) -> Order | None:
    p = pending(state)
    if p is None or seat not in p.seats:
        return None
    return next((o for o in state["plans"].get(seat, []) if o.get("kind") == p.kind), None)


def auto_orders(state: State, seat: str) -> list[Order] | None:
    """The plan line answering ``seat``'s pending decision when it is legal, else None."""
    line = _line(state, seat)
    p = pending(state)
    if line is None or p is None or order_problem(state, seat, p.kind, line) is not None:
        return None
    return [copy.deepcopy(line)]


def plan_problem(state: State, seat: str) -> str | None:
    """Why ``seat``'s plan line for the pending decision cannot be used (for the mail asking it)."""
    line = _line(state, seat)
    p = pending(state)
    if line is None or p is None:
        return None
    return order_problem(state, seat, p.kind, line)


def consume(state: State, seat: str, used: Order, rest: Order | None = None) -> None:
    """Drop the plan line that was used (the first equal one), in place; or, when ``rest``
    is left of it (a recruitment naming several units, placed one tile a turn from rules
    version 3), put ``rest`` in its place. A ``rest`` of an order not from the plan goes
    before the seat's other lines of its kind: a standing list, used on its next turns."""
    plan = state["plans"].setdefault(seat, [])
    for i, o in enumerate(plan):
        if o == used:
            if rest is None:
                del plan[i]
            else:
                plan[i] = rest
            return
    if rest is not None:
        plan.insert(next((i for i, o in enumerate(plan) if o.get("kind") == rest["kind"]), len(plan)), rest)
