"""The reusable engine contract test. Subclass :class:`EngineContract` per engine.

It plays seeded random games from legal orders (``engine.random_orders``) and checks:
determinism (same seed, same orders -> same hashes and events), replay (re-applying the
recorded orders from a fresh ``create`` reaches the same states, also through
``advance_owned`` where the engine has it, with no state sharing what it does not own), every order set the
random bot produces validates, views never contain another seat's private strings,
views and states are JSON, and the game terminates within ``max_steps``.

Subclasses set ``engine`` and may override ``seat_counts``, ``options``, ``games``,
``max_steps`` and :meth:`check_invariants` (called on every state).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from adjudicator.base import GM, PUBLIC, Engine, canonical_json, state_hash
from adjudicator.chance import Chance

SEAT_NAMES = ("red", "blue", "green", "yellow", "purple", "orange")


def play_random_game(engine: Engine, seats: Sequence[str], options: Mapping[str, str], seed: str,
                     max_steps: int, on_state: Any = None) -> dict[str, Any]:
    """Play one game with random legal orders; return its trace (orders, hashes, events)."""
    state, events = engine.create(seats, options, seed)
    bot = Chance("bot:" + seed)
    trace: dict[str, Any] = {"orders": [], "hashes": [state_hash(state)], "events": [events], "final": None}
    for step in range(max_steps):
        if on_state is not None:
            on_state(state)
        pending = engine.pending(state)
        if pending is None:
            trace["final"] = state
            return trace
        orders = {}
        for seat in pending.seats:
            chosen = engine.random_orders(state, seat, bot.stream(f"{step}/{seat}"))
            problems = engine.validate(state, seat, chosen)
            assert not problems, f"random_orders gave illegal orders for {seat} at {pending.turn}: {problems}\n{chosen}"
            orders[seat] = chosen
        trace["orders"].append(orders)
        state, events = engine.advance(state, orders, seed)
        trace["hashes"].append(state_hash(state))
        trace["events"].append(events)
    raise AssertionError(f"game did not end within {max_steps} steps (seed {seed})")


class EngineContract:
    """Mix into a pytest test class and set ``engine``."""

    engine: ClassVar[Engine]
    seat_counts: ClassVar[Sequence[int]] = (3,)
    options: ClassVar[Sequence[Mapping[str, str]]] = ({},)
    games: ClassVar[int] = 5
    max_steps: ClassVar[int] = 2000

    def check_invariants(self, state: dict[str, Any], seats: Sequence[str]) -> None:
        """Game-specific invariants on every state; override."""

    def _cases(self):
        for n in self.seat_counts:
            for opts in self.options:
                for g in range(self.games):
                    yield list(SEAT_NAMES[:n]), dict(opts), f"contract-{self.engine.name}-{n}-{g}-{canonical_json(opts)}"

    def test_random_games_terminate_and_keep_invariants(self) -> None:
        for seats, opts, seed in self._cases():
            trace = play_random_game(self.engine, seats, opts, seed, self.max_steps,
                                     on_state=lambda s, seats=seats: self.check_invariants(s, seats))
            final = trace["final"]
            assert self.engine.pending(final) is None
            winner = self.engine.winner(final)
            assert winner is None or winner in seats
            assert set(self.engine.scores(final)) == set(seats)

    def test_determinism_and_replay(self) -> None:
        for seats, opts, seed in list(self._cases())[:3]:
            a = play_random_game(self.engine, seats, opts, seed, self.max_steps)
            b = play_random_game(self.engine, seats, opts, seed, self.max_steps)
            assert a["hashes"] == b["hashes"]
            assert canonical_json(a["events"]) == canonical_json(b["events"])
            # replay: the recorded orders alone reproduce every state, also from a state that
            # went through JSON (as snapshots and archives do): the state is plain JSON
            state, _ = self.engine.create(seats, opts, seed)
            for i, orders in enumerate(a["orders"]):
                state = json.loads(canonical_json(state))
                state, _ = self.engine.advance(state, orders, seed)
                assert state_hash(state) == a["hashes"][i + 1]

    def test_advance_owned_gives_the_same_states_and_owns_them(self) -> None:
        """An engine offering ``advance_owned`` (a replay's fold hands it each state, changed
        in place): the same states and events as ``advance``, and no state it or ``create``
        returns shares a part with the orders given or what the engine keeps (the ownership
        rule of :mod:`adjudicator.base`; tests/ownership.py)."""
        from tests.ownership import Owned

        advance_owned = getattr(self.engine, "advance_owned", None)
        if advance_owned is None:
            return  # the engine copies: the rule's in-place half does not apply
        for seats, opts, seed in list(self._cases())[:2]:
            a = play_random_game(self.engine, seats, opts, seed, self.max_steps)
            guard = Owned(a["orders"])
            state, _ = self.engine.create(seats, opts, seed)
            for i, orders in enumerate(a["orders"]):
                guard.check(state, f"the state before step {i} ({seed})")
                state, events = advance_owned(state, orders, seed)
                assert state_hash(state) == a["hashes"][i + 1], (seed, i)
                assert canonical_json(events) == canonical_json(a["events"][i + 1]), (seed, i)
            guard.check(state, f"the last state ({seed})")

    def test_different_seeds_differ(self) -> None:
        seats = list(SEAT_NAMES[: self.seat_counts[0]])
        a = play_random_game(self.engine, seats, dict(self.options[0]), "seed-a", self.max_steps)
        b = play_random_game(self.engine, seats, dict(self.options[0]), "seed-b", self.max_steps)
        assert a["hashes"] != b["hashes"]

    def test_views_never_leak(self) -> None:
        for seats, opts, seed in list(self._cases())[:3]:
            def check(state: dict[str, Any], seats: Sequence[str] = seats) -> None:
                views = {v: canonical_json(self.engine.view(state, v)) for v in [*seats, PUBLIC]}
                json.loads(views[PUBLIC])
                json.dumps(self.engine.view(state, GM))
                for owner in seats:
                    for secret in self.engine.private_keys(state, owner):
                        for viewer, text in views.items():
                            if viewer != owner:
                                assert secret not in text, f"{viewer} sees {owner}'s secret {secret!r}"
            play_random_game(self.engine, seats, opts, seed, self.max_steps, on_state=check)

    def test_default_orders_are_legal(self) -> None:
        for seats, opts, seed in list(self._cases())[:2]:
            def check(state: dict[str, Any]) -> None:
                pending = self.engine.pending(state)
                if pending is None:
                    return
                for seat in pending.seats:
                    assert not self.engine.validate(state, seat, self.engine.default_orders(state, seat))
            play_random_game(self.engine, seats, opts, seed, self.max_steps, on_state=check)

    def test_views_never_contain_the_seed(self) -> None:
        seats, opts, seed = next(iter(self._cases()))
        def check(state: dict[str, Any]) -> None:
            for viewer in [*seats, PUBLIC, GM]:
                assert seed not in canonical_json(self.engine.view(state, viewer))
        play_random_game(self.engine, seats, opts, seed, self.max_steps, on_state=check)
