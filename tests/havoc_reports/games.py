"""Seeded random Havoc games turned into report inputs, as the shell would build them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import state_hash
from adjudicator.havoc.engine import ENGINE
from reports.model import ReportInput
from tests.randomgames import commitment, random_steps, viewers  # noqa: F401 - viewers: for the tests

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
    steps: list[Step] = []
    history: list[dict[str, Any]] = []
    for pending, state, events in random_steps(ENGINE, SEATS[:nseats], seed, options, max_steps):
        history = [*history, {"turn": pending.turn, "scores": ENGINE.scores(state), "armies": {}}]
        steps.append(Step(pending.turn, state, events, history))
    return steps


def report_input(step: Step, viewer: str, seed: str, game_id: str = "h1") -> ReportInput:
    """The input the shell (pbem/mailout/reporting.py) would pass for ``viewer`` after ``step``."""
    over = step.state["over"]
    return ReportInput(game_id=game_id, game="havoc", viewer=viewer, turn=step.turn,
                       view=ENGINE.view(step.state, viewer), history=step.history,
                       seed_commitment=commitment(seed),
                       state_hash=state_hash(step.state), seed=seed if over else None,
                       deadline="2026-12-06T18:00:00+01:00")


def due_steps(steps: Sequence[Step]) -> Iterator[Step]:
    """The steps after which the engine says a report is due."""
    return (s for s in steps if ENGINE.report_due(s.state, s.events))
