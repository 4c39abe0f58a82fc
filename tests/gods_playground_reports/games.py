"""Seeded random God's Playground games turned into report inputs, as the shell builds them
(pbem/mailout/reporting.py: public history with money and ``reported``, the derived events since
the last report in ``recent``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import PUBLIC, state_hash, visible_events
from adjudicator.gods_playground.engine import ENGINE
from pbem.mailout.reporting import history_entry, order_help
from reports.model import ReportInput
from tests.randomgames import commitment, random_steps, viewers  # noqa: F401 - viewers: for the tests

SEATS = ("white", "blue", "red")
DEADLINE = "2026-12-06T18:00:00+01:00"


@dataclass
class Step:
    """One adjudicated decision: label, state after it, its derived events, the public history
    so far and the turns since the previous report (this one included)."""

    turn: str
    state: dict[str, Any]
    events: list[dict[str, Any]]
    history: list[dict[str, Any]] = field(default_factory=list)
    recent: list[dict[str, Any]] = field(default_factory=list)
    due: bool = False


def play(seed: str, max_steps: int = 800) -> list[Step]:
    """Every decision of one random game (random legal orders, seeded)."""
    steps: list[Step] = []
    history: list[dict[str, Any]] = []
    recent: list[dict[str, Any]] = []
    for pending, state, events in random_steps(ENGINE, SEATS, seed, max_steps=max_steps):
        due = ENGINE.report_due(state, events)
        entry = history_entry(pending.turn, ENGINE.view(state, PUBLIC), ENGINE.scores(state))
        history = [*history, {**entry, "reported": due}]
        recent = [*recent, {"turn": pending.turn, "events": events}]
        steps.append(Step(pending.turn, state, events, history, recent, due))
        if due:
            recent = []
    return steps


def report_input(step: Step, viewer: str, seed: str, game_id: str = "gp1",
                 state: dict[str, Any] | None = None) -> ReportInput:
    """The input the shell would pass for ``viewer`` after ``step`` (``state`` replaces the
    state in the view only: leak tests perturb it)."""
    over = step.state["over"]
    return ReportInput(game_id=game_id, game="gods-playground", viewer=viewer, turn=step.turn,
                       view=ENGINE.view(step.state if state is None else state, viewer), history=step.history,
                       seed_commitment=commitment(seed),
                       state_hash=state_hash(step.state), seed=seed if over else None,
                       deadline=None if over else DEADLINE, order_help=order_help("gods-playground"),
                       recent=[{"turn": t["turn"], "events": visible_events(ENGINE, t["events"], viewer)}
                               for t in step.recent])


def due_steps(steps: Sequence[Step]) -> Iterator[Step]:
    """The steps after which a report goes out."""
    return (s for s in steps if s.due)
