"""The shell shared by the sequential engines (each seat deciding in turn).

A sequential game is a chain of decisions: ``pending`` names one seat (or, for a hidden
simultaneous step, several), ``advance`` applies that one decision and then resolves every
step that needs none, until a seat must decide again. Both games also keep orders sent in
advance in their state (standing orders, a round's plans) and offer the
shell's standing-order hooks for them.

What is the same in every such engine lives here:

- :class:`Ctx`, the working state ``advance`` changes (a deep copy of the state, or for
  ``advance_owned`` the state itself; the seed's chance, the derived events emitted so far);
- :func:`settle`, the loop that resolves automatic steps;
- :class:`SequentialEngine`, the engine contract of :mod:`adjudicator.base` on top of a
  game's hooks: the checks every decision shares (game over, whose decision, orders are
  objects), the plumbing of ``create``/``advance`` and the delegation to the game's
  ``view``, ``bots`` and standing-order modules.

A game supplies what is its own: ``_setup``, ``_settle``, ``pending``, ``_check`` (the rules
of the pending decision), ``_apply`` and those three modules (docs/architecture.md, "Adding
a sequential game").
"""

from __future__ import annotations

import marshal
import pickle
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from adjudicator.base import GM, Event, GameError, Order, Pending, Problem, State
from adjudicator.chance import Chance, Stream


def deep_copy(state: State) -> State:
    """A deep copy of a state: through marshal, which for plain JSON-like data (dicts, lists,
    tuples, strings, numbers, booleans, None of exactly those types) gives what
    ``copy.deepcopy`` gives (same types, same order, shared parts still shared) faster still
    than pickle; a value of any other type (marshal refuses it) goes through pickle. (A
    bytes-like value would come back as bytes: a state holds none, being JSON.)"""
    try:
        return marshal.loads(marshal.dumps(state))
    except ValueError:
        return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))  # noqa: S301 - our own bytes


class Ctx:
    """A mutable working copy of a state, the seed's chance, and the events produced so far.

    ``owned``: the caller handed ``state`` over (:meth:`SequentialEngine.advance_owned`), so it is
    changed in place instead of copied (a deep copy keeps the sharing inside the state, so the
    same steps on either give the same result)."""

    def __init__(self, state: State, seed: str, owned: bool = False) -> None:
        self.s: State = state if owned else deep_copy(state)
        self.chance = Chance(seed)
        self.events: list[Event] = []

    def emit(self, type_: str, **fields: Any) -> None:
        """Record a derived event."""
        self.events.append({"type": type_, **fields})


def settle(ctx: Ctx, step: Callable[[Any], bool], guard: int = 10_000) -> None:
    """Run ``step(ctx)`` (one automatic step; False when a seat must decide or the game is
    over) until it stops; an engine that never stops is a bug, not a hang."""
    for _ in range(guard):
        if not step(ctx):
            return
    raise GameError("the game does not settle (engine bug)")


class SequentialEngine:
    """The engine contract for a game of sequential decisions, on top of the game's hooks.

    Class attributes a game sets: ``name``, ``version``, ``min_seats``, ``max_seats`` (the
    contract's), ``views`` (its module with ``view(state, viewer)`` and ``event_view(event,
    viewer)``), ``bots`` (its module with ``default_orders(state, seat)`` and
    ``random_orders(state, seat, rng)``) and ``standing`` (its module of orders sent in
    advance, kept in the state: ``is_standing(orders)``, ``validate_standing(orders)`` for
    the shape, ``apply_standing(state, seat, orders)`` returning a new state, and
    ``auto_orders(state, seat)``: the orders they give for the pending decision, or None).
    """

    name: str
    version: str
    min_seats: int
    max_seats: int
    views: ModuleType
    bots: ModuleType
    standing: ModuleType

    # -- the game's hooks -------------------------------------------------------------
    def _setup(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[Event]]:
        """The dealt state before settling, and the setup events."""
        raise NotImplementedError

    def _ctx(self, state: State, seed: str, owned: bool = False) -> Ctx:
        """The working copy ``advance`` changes (``owned``: ``state`` itself, see :class:`Ctx`)."""
        return Ctx(state, seed, owned)

    def _settle(self, ctx: Ctx) -> None:
        """Resolve automatic steps until a seat must decide (see :func:`settle`)."""
        raise NotImplementedError

    def pending(self, state: State) -> Pending | None:
        """The decision the game waits for (None when over)."""
        raise NotImplementedError

    def _check(self, state: State, p: Pending, seat: str, orders: list[Order]) -> list[Problem]:
        """The rule problems of ``seat``'s orders (plain dicts) for the pending decision ``p``."""
        raise NotImplementedError

    def _apply(self, ctx: Ctx, p: Pending, orders: dict[str, list[Order]]) -> None:
        """Apply the checked orders of every seat ``p`` waits for to the working state."""
        raise NotImplementedError

    # -- the contract -----------------------------------------------------------------
    def create(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[Event]]:
        """A new game set up and settled up to its first decision."""
        state, events = self._setup(seats, options, seed)
        ctx = self._ctx(state, seed)
        ctx.events = events
        self._settle(ctx)
        return ctx.s, ctx.events

    def validate(self, state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """Problems with ``seat``'s orders for the pending decision."""
        return self._problems(state, self.pending(state), seat, orders)

    def _problems(self, state: State, p: Pending | None, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """What every decision checks first (the game is on, it is ``seat``'s decision, the
        orders are objects), then the game's rules for it."""
        if p is None:
            return [Problem(None, "the game is over")]
        if seat not in p.seats:
            return [Problem(None, f"no decision of {seat} is pending (waiting for {', '.join(p.seats)})")]
        if not all(isinstance(o, Mapping) for o in orders):
            return [Problem(None, "orders must be objects")]
        return self._check(state, p, seat, [dict(o) for o in orders])

    def advance(self, state: State, orders: Mapping[str, Sequence[Order]], seed: str) -> tuple[State, list[Event]]:
        """Apply the pending decision and resolve up to the next one."""
        return self._advance(state, orders, seed, False)

    def advance_owned(self, state: State, orders: Mapping[str, Sequence[Order]], seed: str) -> tuple[State, list[Event]]:
        """:meth:`advance` changing ``state`` itself, which the caller hands over (the engine
        contract's ownership rule, :mod:`adjudicator.base`): the same state and events, without
        the copy of the state (a replay's fold)."""
        return self._advance(state, orders, seed, True)

    def _advance(self, state: State, orders: Mapping[str, Sequence[Order]], seed: str,
                 owned: bool) -> tuple[State, list[Event]]:
        p = self.pending(state)
        if p is None:
            raise GameError("the game is over")
        missing = [s for s in p.seats if s not in orders]
        if missing:
            raise GameError(f"orders missing for {', '.join(missing)} at {p.turn}")
        for seat in p.seats:
            problems = self._problems(state, p, seat, orders[seat])
            if problems:
                raise GameError(f"illegal orders for {seat} at {p.turn}: {problems[0].message}")
        ctx = self._ctx(state, seed, owned)
        self._apply(ctx, p, {s: [dict(o) for o in orders[s]] for s in p.seats})
        self._settle(ctx)
        return ctx.s, ctx.events

    def view(self, state: State, viewer: str) -> dict:
        """What ``viewer`` may see."""
        return self.views.view(state, viewer)

    def event_view(self, event: Event, viewer: str) -> Event | None:
        """``event`` as ``viewer`` may see it (hidden parts redacted; ``None``: not seen)."""
        return self.views.event_view(event, viewer)

    def order_view(self, orders: Sequence[Order], viewer: str) -> list[Order] | None:
        """The orders of an adjudicated decision as ``viewer`` may see them (the game's
        ``views.order_view``; a game without one shows them to the GM only). The shell
        publishes a running game's orders only where the public may see them whole."""
        rule = getattr(self.views, "order_view", None)
        if rule is not None:
            return rule(orders, viewer)
        return [dict(o) for o in orders] if viewer == GM else None

    def default_orders(self, state: State, seat: str) -> list[Order]:
        """The missed-orders policy (the game's ``bots.default_orders``)."""
        return self.bots.default_orders(state, seat)

    def random_orders(self, state: State, seat: str, rng: Stream) -> list[Order]:
        """A random legal order set."""
        return self.bots.random_orders(state, seat, rng)

    # -- orders sent in advance (the shell's standing-order hooks) --------------------
    def is_standing(self, orders: Sequence[Order]) -> bool:
        """True when a block holds orders sent in advance (recorded with ``apply_standing``)."""
        return self.standing.is_standing(orders)

    def validate_standing(self, state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """Shape problems of a block of ``seat``'s orders sent in advance (any time, pending
        or not; the rules are checked when each order comes to be used)."""
        if seat not in state["seats"]:
            return [Problem(None, f"unknown seat {seat}")]
        return self.standing.validate_standing(orders)

    def apply_standing(self, state: State, seat: str, orders: Sequence[Order]) -> State:
        """A new state with ``seat``'s orders sent in advance replaced."""
        problems = self.validate_standing(state, seat, orders)
        if problems:
            raise GameError(problems[0].message)
        return self.standing.apply_standing(state, seat, orders)

    def auto_orders(self, state: State, seat: str) -> list[Order] | None:
        """The orders ``seat``'s orders sent in advance give for the pending decision when
        still legal, else None (the seat is asked)."""
        return self.standing.auto_orders(state, seat)
