"""Seeded random Havoc games turned into report inputs, as the shell would build them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import GM, PUBLIC, state_hash
from adjudicator.chance import Chance
from adjudicator.havoc.engine import ENGINE
from reports.model import ReportInput

SEATS = ("red", "blue", "green", "yellow", "purple", "orange")


@dataclass
class Step:
    """One adjudicated decision: the turn label, the state after it, its derived events,
    and the public history up to and including it."""

    turn: str
    state: dict[str, Any]
    events: list[dict[str, Any]]
    history: list[dict[str, Any]] = field(default_factory=list)


def play(nseats: int, seed: str, options: dict[str, str] | None = None, max_steps: int = 3000) -> list[Step]:
    """Every decision of one random game (random legal orders, seeded)."""
    seats = list(SEATS[:nseats])
    state, _ = ENGINE.create(seats, options or {}, seed)
    bot = Chance("bot:" + seed)
    steps: list[Step] = []
    history: list[dict[str, Any]] = []
    for i in range(max_steps):
        pending = ENGINE.pending(state)
        if pending is None:
            return steps
        orders = {s: ENGINE.random_orders(state, s, bot.stream(f"{i}/{s}")) for s in pending.seats}
        state, events = ENGINE.advance(state, orders, seed)
        history = [*history, {"turn": pending.turn, "scores": ENGINE.scores(state), "armies": {}}]
        steps.append(Step(pending.turn, state, events, history))
    raise AssertionError(f"no end within {max_steps} steps")


def report_input(step: Step, viewer: str, seed: str, game_id: str = "h1") -> ReportInput:
    """The input the shell (pbem/reporting.py) would pass for ``viewer`` after ``step``."""
    over = step.state["over"]
    return ReportInput(game_id=game_id, game="havoc", viewer=viewer, turn=step.turn,
                       view=ENGINE.view(step.state, viewer), history=step.history,
                       seed_commitment=hashlib.sha256(seed.encode()).hexdigest(),
                       state_hash=state_hash(step.state), seed=seed if over else None,
                       deadline="2026-12-06T18:00:00+01:00")


def viewers(state: dict[str, Any]) -> list[str]:
    """Every seat, the public and the GM."""
    return [*state["seats"], PUBLIC, GM]


def due_steps(steps: Sequence[Step]) -> Iterator[Step]:
    """The steps after which the engine says a report is due."""
    return (s for s in steps if ENGINE.report_due(s.state, s.events))
