"""The Havoc engine: the contract of :mod:`adjudicator.base` plus standing orders.

Beyond the :class:`~adjudicator.base.Engine` protocol the shell uses:
``is_standing(orders)``, ``validate_standing(state, seat, orders)``,
``apply_standing(state, seat, orders) -> state`` and ``auto_orders(state, seat)``
(see :mod:`adjudicator.havoc.standing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.base import Event, GameError, Order, Pending, Problem, State
from adjudicator.chance import Stream
from adjudicator.havoc import bots, flow, setup, standing, tables, view
from adjudicator.havoc.cards import JOHN
from adjudicator.havoc.state import Ctx


class HavocEngine:
    """Havoc: The Hundred Years War (2005) with John of Gaunt, for 2-6 seats."""

    name = "havoc"
    # "2": the rules review (docs/havoc-rules.md): full recruits bind the first card of any
    # kind, the 2-3 seat variant shifts places (Castillon 11-5-3-1-0) and spares the
    # Chevauchées, the first-round Peace exemption is for 5-6 seats only. Logs made under
    # "1" may hold orders "2" refuses or reach other scores on replay.
    version = "2"
    min_seats = 2
    max_seats = 6

    def create(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[dict]]:
        """A new game dealt and settled up to the first decision."""
        state, events = setup.create(seats, options, seed)
        ctx = Ctx(state, seed)
        ctx.events = events
        flow.settle(ctx)
        return ctx.s, ctx.events

    def pending(self, state: State) -> Pending | None:
        """The decision the game waits for (None when over)."""
        return flow.pending(state)

    def validate(self, state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """Problems with ``seat``'s orders for the pending decision."""
        p = flow.pending(state)
        if p is None:
            return [Problem(None, "the game is over")]
        if seat not in p.seats:
            return [Problem(None, f"no decision of {seat} is pending (waiting for {', '.join(p.seats)})")]
        if not all(isinstance(o, Mapping) for o in orders):
            return [Problem(None, "orders must be objects")]
        if standing.is_standing(orders):
            return [Problem(None, "standing orders are recorded with apply_standing, not as this turn's orders")]
        return flow.VALIDATORS[p.kind](state, seat, [dict(o) for o in orders])

    def default_orders(self, state: State, seat: str) -> list[Order]:
        """The missed-orders policy (see :func:`adjudicator.havoc.bots.default_orders`)."""
        return bots.default_orders(state, seat)

    def advance(self, state: State, orders: Mapping[str, Sequence[Order]], seed: str) -> tuple[State, list[dict]]:
        """Apply the pending decision and resolve up to the next one."""
        p = flow.pending(state)
        if p is None:
            raise GameError("the game is over")
        missing = [s for s in p.seats if s not in orders]
        if missing:
            raise GameError(f"orders missing for {', '.join(missing)} at {p.turn}")
        for seat in p.seats:
            problems = self.validate(state, seat, orders[seat])
            if problems:
                raise GameError(f"illegal orders for {seat} at {p.turn}: {problems[0].message}")
        ctx = Ctx(state, seed)
        flow.apply(ctx, p.kind, {s: [dict(o) for o in orders[s]] for s in p.seats})
        flow.settle(ctx)
        return ctx.s, ctx.events

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

    def view(self, state: State, viewer: str) -> dict:
        """What ``viewer`` may see."""
        return view.view(state, viewer)

    def scores(self, state: State) -> dict[str, int]:
        """Victory points per seat."""
        return dict(state["points"])

    def winner(self, state: State) -> str | None:
        """The crowned seat once the game is over."""
        return state["winner"] if state["over"] else None

    def random_orders(self, state: State, seat: str, rng: Stream) -> list[Order]:
        """A random legal order set."""
        return bots.random_orders(state, seat, rng)

    def private_keys(self, state: State, seat: str) -> list[str]:
        """The cards in ``seat``'s hand."""
        return list(state["hands"].get(seat, [])) if seat != JOHN else []

    def data_files(self) -> dict[str, str]:
        """The packaged data files and their hashes."""
        return tables.data_files()

    def event_view(self, event: Event, viewer: str) -> Event | None:
        """``event`` as ``viewer`` may see it (hidden cards redacted; ``None``: not seen)."""
        return view.event_view(event, viewer)

    # -- standing orders (beyond the Engine protocol) --------------------------------
    def is_standing(self, orders: Sequence[Order]) -> bool:
        """True when a block holds only standing orders."""
        return standing.is_standing(orders)

    def validate_standing(self, state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """Problems with a standing block of ``seat`` (any time, pending or not)."""
        if seat not in state["seats"]:
            return [Problem(None, f"unknown seat {seat}")]
        return standing.validate_standing(orders)

    def apply_standing(self, state: State, seat: str, orders: Sequence[Order]) -> State:
        """A new state with ``seat``'s standing orders replaced."""
        problems = self.validate_standing(state, seat, orders)
        if problems:
            raise GameError(problems[0].message)
        return standing.apply_standing(state, seat, orders)

    def auto_orders(self, state: State, seat: str) -> list[Order] | None:
        """The orders ``seat``'s standing orders give for the pending decision, or None."""
        return standing.auto_orders(state, seat)


ENGINE = HavocEngine()
