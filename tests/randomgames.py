"""Seeded random games as the report tests, goldens, benches and docs play them: every
engine's decisions with random legal orders, the same way for each game (the per-game
``tests/*/games.py`` helpers turn the steps into report inputs)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence

from adjudicator.base import GM, PUBLIC, Engine, Event, Order, Pending, State
from adjudicator.chance import Chance, Stream


#: A bot: the orders of one seat for the pending decision, from its chance stream.
Bot = Callable[[State, str, Stream], list[Order]]


def random_steps(engine: Engine, seats: Sequence[str], seed: str, options: Mapping[str, str] | None = None,
                 max_steps: int = 3000, bot: Bot | None = None) -> Iterator[tuple[Pending, State, list[Event]]]:
    """Every decision of one game: the pending decision, the state after it and its derived
    events. Orders are ``bot``'s (default: the engine's random legal ones), each seat's from
    the stream ``<step>/<seat>`` of ``bot:<seed>``; a game that has not ended after
    ``max_steps`` fails the test."""
    choose = bot or engine.random_orders
    state, _ = engine.create(list(seats), dict(options or {}), seed)
    chance = Chance("bot:" + seed)
    for step in range(max_steps):
        pending = engine.pending(state)
        if pending is None:
            return
        orders = {s: choose(state, s, chance.stream(f"{step}/{s}")) for s in pending.seats}
        state, events = engine.advance(state, orders, seed)
        yield pending, state, events
    raise AssertionError(f"game {seed} did not end in {max_steps} steps")


def viewers(state: State) -> list[str]:
    """Every seat, then the public and the GM."""
    return [*state["seats"], PUBLIC, GM]


def commitment(seed: str) -> str:
    """The seed commitment the shell publishes (SHA-256 of the seed)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()

