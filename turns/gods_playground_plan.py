"""Checking a God's Playground plan when it arrives (every order block is a plan for the
round, docs/orders-gods-playground.md).

A plan may come from any seat at any time, so most of its lines can only be judged when
their decision comes up. What can be known when the mail arrives is said at once, in one
list, so that one resend fixes everything:

- every line's syntax and names, with suggestions (the grammar);
- a line for the decision the seat is asked now: the rules, as that decision will apply
  them;
- NOBLES before this round's nobles are placed: the seat's hand does not change until then,
  so the values are checked against it (a ``King 6`` is never legal);
- lines for a decision of this round that is already past (plans end with the round), and
  ESTATE lines after the setup: they would never be used.

A kind with any problem is left out of the plan as a whole (the seat's earlier lines of it
stand, and the order of its lines is never shifted); the other lines are kept.

These checks read the state and decide nothing: the engine's own checks when a line is used
are unchanged, so recorded games replay as before.
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.base import Engine, State
from adjudicator.gods_playground.board import PROVINCES, default_board
from adjudicator.gods_playground.decisions import problem_nobles
from turns.base import LineProblem, PlanCheck, register_plan_checker
from turns.gods_playground import CANONICAL, KEYWORDS, parse

#: The phases of a round in their order (adjudicator/gods_playground/flow.py); a decision
#: kind is decided in the phase of the same name.
PHASES = ("estate", "income", "nobles", "reveal", "cubes", "king", "bid", "royal_army", "buy", "action",
          "recruit", "campaign", "invasions", "counter", "end")
PAST = {"nobles": "the nobles of round {r} are placed already", "cubes": "the noble cubes of round {r} are placed already",
        "bid": "the bids of round {r} are over", "buy": "the buying of estates in round {r} is over",
        "action": "the special actions of round {r} are over", "recruit": "recruitment in round {r} is over",
        "campaign": "the campaigns of round {r} are over", "counter": "the royal counterattacks of round {r} are over"}


def check_plan(engine: Engine, state: State, seat: str, text: str, first_line: int = 1) -> PlanCheck:
    """``text`` (a block body) read as ``seat``'s plan: the lines kept, every problem."""
    parsed = parse(text, state)
    offset = first_line - 1
    source = text.splitlines()
    problems = [LineProblem(p.line + offset, p.message, p.suggestions, p.stage, p.text) for p in parsed.problems]
    dropped = {k for k in (_kind_of(p.text) for p in parsed.problems) if k}
    pending = engine.pending(state)
    seen: set[str] = set()
    for order, line in zip(parsed.orders, parsed.lines):
        kind = order["kind"]
        first = kind not in seen
        seen.add(kind)
        why = _problem(engine, state, seat, order, pending, first)
        if why:
            problems.append(LineProblem(line + offset, why, (), "rules", source[line - 1] if line <= len(source) else ""))
            dropped.add(kind)
    kept = [(o, n + offset) for o, n in zip(parsed.orders, parsed.lines) if o["kind"] not in dropped]
    return PlanCheck([o for o, _ in kept], [n for _, n in kept], sorted(problems, key=lambda p: p.line),
                     [CANONICAL[k] for k in sorted(dropped, key=_place)])


def _problem(engine: Engine, state: State, seat: str, order: dict[str, Any], pending: Any, first: bool) -> str | None:
    """What is already known to be wrong with one plan line (None: nothing yet)."""
    kind, phase = order["kind"], state["phase"]
    if kind == "estate" and phase != "estate":
        return "the starting estates were chosen in the setup; an ESTATE line would never be used"
    if _place(kind) < _place(phase):
        return (PAST[kind].format(r=state["round"]) + "; a plan holds this round's decisions still to come "
                "(plans end with the round), so this line would never be used")
    if pending is not None and seat in pending.seats and kind == pending.kind:
        if not first:
            return None
        found = engine.validate(state, seat, [order])
        return _names(found[0].message) if found else None
    if kind == "nobles":  # the hand does not change before this round's nobles are placed
        why = problem_nobles(state, seat, order.get("place"))
        if why and why.startswith("nobles are worth"):
            why = f"nobles are worth 0 to 5 (yours this round: {', '.join(map(str, sorted(state['hand'][seat])))})"
        return _names(why) if why else None
    return None


def _place(kind: str) -> int:
    return PHASES.index(kind) if kind in PHASES else len(PHASES)


def _kind_of(line: str) -> str | None:
    """The decision kind a line is for, by its first word (None: not an order word)."""
    word = line.split("#", 1)[0].strip().split(" ", 1)[0].upper()
    return KEYWORDS.get(word)


_IDS = re.compile(r"\b(" + "|".join(sorted(PROVINCES, key=len, reverse=True)) + r")\b")


def _names(message: str) -> str:
    """An engine message with province ids written as the board names them."""
    board = default_board()
    return _IDS.sub(lambda m: board["provinces"][m.group(1)]["name"], message)


register_plan_checker("gods-playground", check_plan)
