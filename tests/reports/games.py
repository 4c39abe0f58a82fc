"""Seeded random Wallenstein games turned into report inputs (tests, goldens, bench, docs)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import PUBLIC, state_hash, visible_events
from adjudicator.registry import get_engine
from pbem.mailout import colours
from reports.model import ReportInput
from tests.randomgames import commitment, random_steps, viewers

ORDER_HELP = """BID <0-4> | BID COUNTY <county> | BID NONE
BONUS attack tax grain recruit defend   (your preference, best first)
TAX <county> / GRAIN <county> / PALACE|CHURCH|TRADE <county>
RECRUIT5|RECRUIT3 <county> / RECRUIT1 <county> [MOVE ALL|n TO <county>]
ATTACKA|ATTACKB <county> TO <county> WITH ALL|n"""
DEADLINE = "2026-12-06T18:00:00+01:00"


@dataclass
class Turn:
    """One adjudicated turn: the state after it and its public history so far."""

    label: str
    state: dict[str, Any]
    history: list[dict[str, Any]]
    recent: list[dict[str, Any]] = field(default_factory=list)  # the turns since the last report: label, events


def play(seed: str, seats: Sequence[str] = ("red", "blue", "green"), options: dict[str, str] | None = None,
         max_steps: int = 200) -> list[Turn]:
    """Play a seeded random game; the state after every adjudicated turn the seats get a report
    of, in order (rules 1.2: not between two picks of the draft, as the shell mails them)."""
    engine = get_engine("wallenstein")
    turns: list[Turn] = []
    history: list[dict[str, Any]] = []
    recent: list[dict[str, Any]] = []
    for pending, state, events in random_steps(engine, seats, seed, options, max_steps):
        history = history + [public_figures(pending.turn, engine.view(state, PUBLIC))]
        recent.append({"turn": pending.turn, "events": events})
        if engine.report_due(state, events):
            turns.append(Turn(pending.turn, state, history, recent))
            recent = []
    return turns


def public_figures(turn: str, view: dict[str, Any]) -> dict[str, Any]:
    """The history entry of one turn: VP and armies on the map per seat (public figures)."""
    armies = {s: 0 for s in view["seats"]}
    for c in view["counties"].values():
        if c.get("owner") in armies:
            armies[c["owner"]] += c["armies"]
    return {"turn": turn, "scores": {s: d["vp"] for s, d in view["seats"].items()}, "armies": armies}


def report_input(game_id: str, seed: str, turn: Turn, viewer: str, state: dict[str, Any] | None = None) -> ReportInput:
    """The ReportInput the shell would build for ``viewer`` after ``turn``.

    ``state`` replaces the turn's state in the view only (leak tests perturb it); the
    state hash stays that of the turn's real state.
    """
    engine = get_engine("wallenstein")
    real_hash = state_hash(turn.state)
    state = turn.state if state is None else state
    over = engine.pending(state) is None
    # the seat colours as pbem fixes them at creation (pbem/mailout/colours.py): a seat named green is green
    view = colours.apply(engine.view(state, viewer), colours.assign("wallenstein", list(state["seats"])))
    return ReportInput(game_id=game_id, game="wallenstein", viewer=viewer, turn=turn.label,
                       view=view, history=turn.history,
                       seed_commitment=commitment(seed),
                       state_hash=real_hash, seed=seed if over else None,
                       deadline=None if over else DEADLINE, order_help=ORDER_HELP,
                       recent=[{"turn": t["turn"], "events": visible_events(engine, t["events"], viewer)}
                               for t in turn.recent])


def all_inputs(game_id: str, seed: str, **kw: Any) -> Iterator[ReportInput]:
    """Every report of a seeded game: each turn, each viewer."""
    for turn in play(seed, **kw):
        for viewer in viewers(turn.state):
            yield report_input(game_id, seed, turn, viewer)
