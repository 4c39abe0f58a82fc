"""The God's Playground engine: the contract of :mod:`adjudicator.base` plus plans.

Beyond the :class:`~adjudicator.base.Engine` protocol the shell uses the standing-order
hooks ``is_standing``, ``validate_standing``, ``apply_standing`` and ``auto_orders``: in
this game every order block is a plan for the round (:mod:`adjudicator.gods_playground.plans`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.base import Event, GameError, Order, Pending, Problem, State
from adjudicator.chance import Stream
from adjudicator.gods_playground import board, bots, flow, plans, setup, view
from adjudicator.gods_playground.aftermath import winner_of
from adjudicator.gods_playground.state import Ctx


class GodsPlaygroundEngine:
    """God's Playground (Martin Wallace, Treefrog 2009), exactly 3 seats."""

    name = "gods-playground"
    version = "2"
    min_seats = 3
    max_seats = 3
    #: What the reply to an accepted order block says (pbem/ingest.py).
    standing_note = ("Your orders are your plan for this round: lines of a kind replace your earlier lines of "
                     "that kind, and each is used in order when that decision comes up, if still legal; "
                     "otherwise you are asked.")

    def create(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[dict]]:
        """A new game waiting for the first starting estate."""
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
        if not all(isinstance(o, Mapping) for o in orders):
            return [Problem(None, "orders must be objects")]
        return flow.validate(state, seat, [dict(o) for o in orders])

    def default_orders(self, state: State, seat: str) -> list[Order]:
        """The missed-orders policy (see :func:`adjudicator.gods_playground.bots.default_orders`)."""
        return bots.default_orders(state, seat)

    def advance(self, state: State, orders: Mapping[str, Sequence[Order]], seed: str) -> tuple[State, list[dict]]:
        """Apply the pending decision and resolve up to the next one."""
        p = flow.pending(state)
        if p is None:
            raise GameError("the game is over")
        for seat in p.seats:
            if seat not in orders:
                raise GameError(f"orders missing for {seat} at {p.turn}")
            problems = self.validate(state, seat, orders[seat])
            if problems:
                raise GameError(f"illegal orders for {seat} at {p.turn}: {problems[0].message}")
        ctx = Ctx(state, seed)
        used = flow.apply(ctx, {s: [dict(o) for o in orders[s]] for s in p.seats})
        for seat, order in used.items():
            plans.consume(ctx.s, seat, order)
        flow.settle(ctx)
        return ctx.s, ctx.events

    def report_due(self, state: State, derived_events: Sequence[dict]) -> bool:
        """Reports go out when a round (or the game) has ended; a seat asked in between gets
        the shell's "your move" mail (with the pending info, which names its failed line)."""
        return any(e.get("type") in ("RoundEnded", "GameOver") for e in derived_events)

    def view(self, state: State, viewer: str) -> dict:
        """What ``viewer`` may see."""
        return view.view(state, viewer)

    def scores(self, state: State) -> dict[str, int]:
        """Victory points per seat."""
        return dict(state["vp"])

    def winner(self, state: State) -> str | None:
        """The winner once the game is over (VP, cubes on the board, money, turn order)."""
        return winner_of(state) if state["over"] else None

    def random_orders(self, state: State, seat: str, rng: Stream) -> list[Order]:
        """A random legal order set."""
        return bots.random_orders(state, seat, rng)

    def private_keys(self, state: State, seat: str) -> list[str]:
        """The fingerprint of ``seat``'s unused plan (its hidden nobles and bids)."""
        code = view.secret_code(state, seat)
        return [code] if code else []

    def event_view(self, event: Event, viewer: str) -> Event | None:
        """``event`` as ``viewer`` may see it (``None``: not seen)."""
        return view.event_view(event, viewer)

    def data_files(self) -> dict[str, str]:
        """The packaged board file and its hash."""
        return board.data_files()

    # -- plans (the shell's standing-order hooks) ------------------------------------
    def is_standing(self, orders: Sequence[Order]) -> bool:
        """Every God's Playground block is a plan."""
        return plans.is_plan(orders)

    def validate_standing(self, state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """Shape problems of a plan (rules are checked when each line is used)."""
        if seat not in state["seats"]:
            return [Problem(None, f"unknown seat {seat}")]
        return plans.validate_plan(orders)

    def apply_standing(self, state: State, seat: str, orders: Sequence[Order]) -> State:
        """A new state with ``seat``'s plan replaced."""
        problems = self.validate_standing(state, seat, orders)
        if problems:
            raise GameError(problems[0].message)
        return plans.set_plan(state, seat, orders)

    def auto_orders(self, state: State, seat: str) -> list[Order] | None:
        """The plan line for ``seat``'s pending decision when still legal, else None."""
        return plans.plan_orders(state, seat)


ENGINE = GodsPlaygroundEngine()
