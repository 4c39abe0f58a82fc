"""The engine contract every game implements, and the shared value types.

A *state* is a JSON value (dicts with string keys, lists, str, int, bool, None): the
engine may use richer types inside, but what crosses the contract is plain JSON, so that
its canonical form and hash are well defined (see :func:`canonical_json`).

*Orders* are a list of JSON objects (dicts), one per order line, in the order the player
wrote them; each dict has at least a ``"kind"`` key. Problems refer to an order by its
index in that list, and the text layer (``turns``) maps the index back to a line number.

The life of a game, as the shell (``pbem``) drives it::

    state, events = engine.create(seats, options, seed)
    while (p := engine.pending(state)) is not None:
        orders = {seat: <validated orders, or engine.default_orders(state, seat)>
                  for seat in p.seats}
        state, events = engine.advance(state, orders, seed)

``advance`` resolves everything that needs no further decision, drawing chance only from
:class:`adjudicator.chance.Chance` streams whose labels name the draw (never call order
across turns), and returns derived events recording what happened, including every
chance outcome. Same seed + same orders = same states and events, byte for byte.

Ownership: every state an engine returns (``create``, ``advance``, ``apply_standing``, a
release's ``upgrade``) belongs to the caller alone: no dict or list in it is also held by the
orders it was given, by the engine's data tables, cached values or module constants
(:func:`adjudicator.versions.kept_values`), or by a state it returned before. An engine may
offer ``advance_owned(state, orders, seed)``: the same state and events as ``advance``, but it
may change ``state`` itself and return it instead of working on a copy; the caller hands
``state`` over (nothing else holds it or a part of it, and the caller reads only what is
returned). Only a replay's fold (:func:`pbem.store.events.fold`), which owns every state it
makes, calls it; ``tests/contract.py`` checks both promises.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from adjudicator.chance import Stream

JSON = Any
State = dict[str, Any]
Order = dict[str, Any]
Event = dict[str, Any]

#: Viewer names besides seat names.
GM = "@gm"
PUBLIC = "@public"


#: ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``, made once;
#: a JSON value is a tree, so the encoder need not look for cycles (one would end in RecursionError)
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False)
#: the C encoder ``_CANONICAL.encode`` makes anew on every call (``JSONEncoder.iterencode`` with
#: ``_one_shot``), made once with the same arguments: the same text without the per-call set-up
#: that costs more than encoding a small value (None where the C accelerator is missing)
_C_ENCODE = (json.encoder.c_make_encoder(None, _CANONICAL.default, json.encoder.encode_basestring, None, ":", ",",
                                         True, False, True)
             if json.encoder.c_make_encoder is not None else None)
_ENCODE_STRING = json.encoder.encode_basestring


def canonical_json(value: JSON) -> str:
    """The one canonical text form of a JSON value: sorted keys, no spaces, UTF-8."""
    if isinstance(value, str):  # as JSONEncoder.encode does for a string
        return _ENCODE_STRING(value)
    if _C_ENCODE is None:
        return _CANONICAL.encode(value)
    return "".join(_C_ENCODE(value, 0))


def state_hash(state: JSON) -> str:
    """SHA-256 (hex) of the canonical JSON of ``state``."""
    return hashlib.sha256(canonical_json(state).encode("utf-8")).hexdigest()


class GameError(Exception):
    """A domain error raised by an engine (bad options, advancing a finished game...)."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a seat's orders.

    ``index`` is the position of the offending order in the orders list, or ``None``
    when the problem concerns the whole set (e.g. a missing bid). ``stage`` names what
    failed: ``syntax``, ``name`` (unknown or ambiguous name) or ``rule`` (illegal order).
    """

    index: int | None
    message: str
    suggestions: tuple[str, ...] = ()
    stage: str = "rule"


@dataclass(frozen=True)
class Pending:
    """Who must decide now.

    ``seats`` are the seats whose orders are needed before ``advance`` can run: one seat
    for a sequential decision, several for a simultaneous one. ``turn`` is a stable label
    of the decision point (e.g. ``1618-spring``, ``battle-3/join-1``) used to key orders
    and deadlines. ``kind`` names the decision (``plan``, ``draft``, ``recruit``...), and
    ``forms`` lists the order keywords legal now (for the order reminder in replies).
    """

    seats: tuple[str, ...]
    turn: str
    kind: str
    simultaneous: bool
    forms: tuple[str, ...] = ()
    info: Mapping[str, JSON] = field(default_factory=dict)


@runtime_checkable
class Engine(Protocol):
    """What every game engine provides. Implementations are pure: no I/O, no clock."""

    name: str
    version: str
    min_seats: int
    max_seats: int

    def create(self, seats: Sequence[str], options: Mapping[str, str], seed: str) -> tuple[State, list[Event]]:
        """A new game's state (waiting for the first decision) and its setup events."""
        ...

    def pending(self, state: State) -> Pending | None:
        """The decision the game waits for, or ``None`` when the game is over."""
        ...

    def validate(self, state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
        """Every problem with ``seat``'s orders for the pending decision (empty = legal)."""
        ...

    def default_orders(self, state: State, seat: str) -> list[Order]:
        """The missed-orders policy: the orders applied for a seat that sent none."""
        ...

    def advance(self, state: State, orders: Mapping[str, Sequence[Order]], seed: str) -> tuple[State, list[Event]]:
        """Resolve the pending decision with ``orders`` (one entry per pending seat)."""
        ...

    def view(self, state: State, viewer: str) -> JSON:
        """What ``viewer`` (a seat, :data:`PUBLIC` or :data:`GM`) may see of ``state``."""
        ...

    def scores(self, state: State) -> dict[str, int]:
        """Current score (victory points) per seat."""
        ...

    def winner(self, state: State) -> str | None:
        """The winner once the game is over (rulebook tie-breaks), else ``None``."""
        ...

    def random_orders(self, state: State, seat: str, rng: Stream) -> list[Order]:
        """A random *legal* order set for ``seat`` (the random bot and contract tests)."""
        ...

    def private_keys(self, state: State, seat: str) -> list[str]:
        """Strings that only ``seat`` (and the GM) may see now, for leak tests."""
        ...

    def data_files(self) -> dict[str, str]:
        """The data files the engine reads: name -> SHA-256 of the file's bytes."""
        ...


def file_sha256(path: str) -> str:
    """SHA-256 of a file's bytes (for :meth:`Engine.data_files`)."""
    with open(path, "rb") as fh:  # reading packaged data is allowed: it is an input, not state
        return hashlib.sha256(fh.read()).hexdigest()


def visible_events(engine: Any, events: Sequence[Event], viewer: str) -> list[Event]:
    """``events`` (derived events) as ``viewer`` may see them, by the engine's optional
    ``event_view(event, viewer)`` (the event, redacted for ``viewer``, or ``None`` to hide it).

    An engine without ``event_view`` shows its derived events to the GM only: derived events
    may name hidden things (docs/CONTRACTS.md, "Derived events")."""
    rule = getattr(engine, "event_view", None)
    if rule is None:
        return [dict(e) for e in events] if viewer == GM else []
    out = []
    for event in events:
        seen = rule(event, viewer)
        if seen is not None:
            out.append(seen)
    return out
