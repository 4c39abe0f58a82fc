"""The Havoc engine: the contract of :mod:`adjudicator.base` plus standing orders.

The shell of a sequential engine (the checks every decision shares, ``create``/``advance``
plumbing, the standing-order hooks ``is_standing``, ``validate_standing``,
``apply_standing`` and ``auto_orders`` beyond the protocol) is
:class:`adjudicator.sequential.SequentialEngine`; the standing orders themselves are
:mod:`adjudicator.havoc.standing`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.base import Event, Order, Pending, Problem, State
from adjudicator.havoc import bots, flow, setup, standing, tables, view
from adjudicator.havoc.cards import JOHN
from adjudicator.havoc.releases import RELEASES
from adjudicator.sequential import Ctx, SequentialEngine


class HavocEngine(SequentialEngine):
    """Havoc: The Hundred Years War (2005) with John of Gaunt, for 2-6 seats."""

    name = "havoc"
    releases = RELEASES  # the rules versions (adjudicator/havoc/releases.py)
    version = RELEASES.newest.version  # new games; a game keeps its own (adjudicator.versions.pin)
    min_seats = 2
    max_seats = 6
    views = view
    bots = bots
    standing = standing

    def _setup(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[Event]]:
        """The deal (:func:`adjudicator.havoc.setup.create`)."""
        return setup.create(seats, options, seed)

    def _settle(self, ctx: Ctx) -> None:
        """Resolve automatic steps (:func:`adjudicator.havoc.flow.settle`)."""
        flow.settle(ctx)

    def pending(self, state: State) -> Pending | None:
        """The decision the game waits for (None when over)."""
        return flow.pending(state)

    def _check(self, state: State, p: Pending, seat: str, orders: list[Order]) -> list[Problem]:
        """The pending kind's validator; a standing block is not this turn's orders."""
        if standing.is_standing(orders):
            return [Problem(None, "standing orders are recorded with apply_standing, not as this turn's orders")]
        return later_words(orders) or flow.VALIDATORS[p.kind](state, seat, orders)

    def _apply(self, ctx: Ctx, p: Pending, orders: dict[str, list[Order]]) -> None:
        """Apply the pending decision (:func:`adjudicator.havoc.flow.apply`)."""
        flow.apply(ctx, p.kind, orders)

    def report_due(self, state: State, derived_events: Sequence[dict]) -> bool:
        """True when the decision just resolved ended a battle, a Year of Peace or the game
        (the shell then mails reports); False for the small decisions in between.

        ``state`` is the state after the advance that produced ``derived_events``. A battle
        ends with its aftermath (the Dogs, the winner's deal): the ``Peacekeeper`` event;
        Castillon with ``FinalBattle``/``GameOver``. A Year of Peace ends when its discards
        are made (``PeaceDiscard``), or at once when nobody has a card to discard.
        """
        types = {e.get("type") for e in derived_events}
        if types & {"Peacekeeper", "FinalBattle", "GameOver", "PeaceDiscard"}:
            return True
        return "YearOfPeace" in types and state["phase"]["name"] != "peace_discard"

    def scores(self, state: State) -> dict[str, int]:
        """Victory points per seat."""
        return dict(state["points"])

    def winner(self, state: State) -> str | None:
        """The crowned seat once the game is over."""
        return state["winner"] if state["over"] else None

    def private_keys(self, state: State, seat: str) -> list[str]:
        """The cards in ``seat``'s hand."""
        return list(state["hands"].get(seat, [])) if seat != JOHN else []

    def data_files(self) -> dict[str, str]:
        """The packaged data files and their hashes."""
        return tables.data_files()


def later_words(orders: Sequence[Order]) -> list[Problem]:
    """Orders that came with a later rules version than the game's (DOGS OUT, LOOT LOOK)."""
    problems = []
    for i, o in enumerate(orders):
        if isinstance(o, dict) and o.get("kind") == "dogsout" and not RELEASES.rule("dogs_out"):
            problems.append(Problem(i, RELEASES.not_yet("dogs_out", "DOGS OUT")))
        elif isinstance(o, dict) and o.get("kind") == "loot" and o.get("look") and not RELEASES.rule("loot_look"):
            problems.append(Problem(i, RELEASES.not_yet("loot_look", "LOOT LOOK")))
    return problems


ENGINE = HavocEngine()
