"""The published form of a game's log: what an archive, a record or a site may carry.

The log in the GM's database holds everything: every seat's hand and the draw pile of a
deal, each private draw, every seat's orders and plans. While a game runs, a file
given to anyone must carry only what every reader may see, so its events are *sealed*:

- a derived event (``GameCreated.setup_events``, ``TurnAdjudicated.events``) that the public
  may not see whole is replaced by its ``@public`` view (:func:`adjudicator.base.visible_events`,
  the engine's own rule; an event the public may not see at all by nothing but the seal);
- the orders of an adjudicated turn are kept only where the engine's ``order_view(orders,
  "@public")`` shows them whole (an engine without it: sealed); orders never applied
  (replaced before the deadline, voided), standing orders and plans (but a one-line plan
  spent whole as the answer of its decision), a void's reason and events of a type this
  module does not know are sealed whole;
- a sealed value keeps a *commitment*: ``{"sealed": HMAC-SHA256(key, canonical JSON of
  [game, seq, path, value])}`` with ``key = SHA-256("pbem seal key" NUL seed)``. Nobody can
  test a guess (which card was drawn) against it before the seed is revealed at the end of
  the game; after that, anyone holding the running game's file can check that every sealed
  value is what the finished game's archive shows (:func:`check_earlier`).

The events of a published file are chained again over what they hold (the same event hash
as the store's, :func:`pbem.store.db.event_hash`), so the file verifies by itself; the GM's
log hashes are not published, because they cover what is sealed (a hash of a turn with
one private draw would let a reader try every card).

Once a game is over nothing is sealed. Whether it runs or is over, a published file holds no
seat's mail address (:mod:`pbem.archives.withhold`; withheld before anything is sealed, so that the
commitments are to what the finished game's published file shows). A GM's own backup
(``pbem export --gm-backup``) keeps the events exactly as recorded.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import PUBLIC, canonical_json, visible_events
from pbem.store.clubstate import SECRET as CLUB_SECRET, TYPES as CLUB_TYPES
from pbem.errors import DomainError
from pbem.store.db import GENESIS, StoredEvent, event_hash
from pbem.archives.withhold import withhold

#: How commitments are made (the archive header's ``seal``).
SEAL_SCHEME = "hmac-sha256/seed"
#: The key of a sealed value.
MARK = "sealed"
#: Input events whose payload the public may always see.
PUBLIC_TYPES = frozenset({"DeadlineSet", "SeatChanged", "GameAbandoned", "SeedRevealed", "RolledBack", "EngineUpgraded"}) \
    | (CLUB_TYPES - CLUB_SECRET)  # the club's events but the votes of a running game (pbem.store.clubstate)


def seal_key(seed: str) -> bytes:
    """The key every commitment of a game is made with (derived from its secret seed)."""
    return hashlib.sha256(("pbem seal key\0" + seed).encode("utf-8")).digest()


def commit(key: bytes, game_id: str, seq: int, path: str, value: Any) -> str:
    """The commitment to ``value`` at ``path`` of event ``seq`` (hex HMAC-SHA256)."""
    return hmac.new(key, canonical_json([game_id, seq, path, value]).encode("utf-8"), "sha256").hexdigest()


def is_sealed(value: Any) -> bool:
    """True for a sealed value (a dict holding a ``sealed`` commitment)."""
    return isinstance(value, dict) and isinstance(value.get(MARK), str)


def sealed_paths(value: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every sealed value inside ``value`` with its path (``events/3``, ``orders/red``)."""
    if is_sealed(value):
        return [(path, value)]
    found: list[tuple[str, dict[str, Any]]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        found += sealed_paths(v, f"{path}/{k}" if path else str(k))
    return found


def count_sealed(events: Iterable[StoredEvent]) -> int:
    """How many sealed values ``events`` hold."""
    return sum(len(sealed_paths(e.payload)) for e in events)


@dataclass
class Published:
    """The published events of a game and how many values were sealed."""

    events: list[StoredEvent]
    sealed: int = 0
    paths: list[str] = field(default_factory=list)


class _Sealer:
    """Seals values of one game's events (the commitments need its seed)."""

    def __init__(self, game_id: str, seed: str | None) -> None:
        self.game_id = game_id
        self.key = seal_key(seed) if seed is not None else None
        self.paths: list[str] = []

    def seal(self, seq: int, path: str, value: Any, public: dict[str, Any] | None = None) -> dict[str, Any]:
        if is_sealed(value):  # sealed already (a published file imported, then exported again)
            return value
        if self.key is None:
            raise DomainError(f"game {self.game_id}: its seed is not known here, so what the public may not see "
                              "cannot be sealed with a commitment; export it with --gm-backup (for the GM only)")
        self.paths.append(f"{seq}:{path}")
        return {**(public or {}), MARK: commit(self.key, self.game_id, seq, path, value)}


def publish(events: Sequence[StoredEvent], engine: Any, seed: str | None, running: bool) -> Published:
    """The events of one game as a published file carries them, chained again.

    ``engine`` gives ``event_view``/``order_view`` (None: every derived event and order is
    sealed while the game runs); ``seed`` makes the commitments (needed only when something
    must be sealed); ``running``: the game is not over, so what the public may not see is sealed.
    """
    sealer = _Sealer(events[0].game_id if events else "", seed)
    events = withhold(events)
    applied = _applied_public(events, engine) if running else set()
    out: list[StoredEvent] = []
    prev = GENESIS
    for ev in events:
        payload, key = ev.payload, ev.key
        if running:
            payload = _sealed_payload(ev, engine, sealer, ev.seq in applied)
            if payload is not ev.payload and key is not None:  # an idempotency key names the mail's bytes
                key = "sealed:" + commit(sealer.key or b"", ev.game_id, ev.seq, "key", key)[:40]
        digest = event_hash(ev.game_id, ev.seq, ev.type, ev.version, payload, ev.recorded_at, prev)
        out.append(StoredEvent(ev.game_id, ev.seq, ev.type, ev.version, payload, ev.recorded_at, prev, digest, key))
        prev = digest
    return Published(out, count_sealed(out), sealer.paths)  # sealed before (an imported file) counted too


def _sealed_payload(ev: StoredEvent, engine: Any, sealer: _Sealer, applied: bool) -> dict[str, Any]:
    """``ev``'s payload with what the public may not see of it sealed (the same object when nothing is)."""
    p = ev.payload
    if ev.type in PUBLIC_TYPES:
        return p
    if ev.type == "GameCreated":
        return _with(p, "setup_events", _events(ev.seq, "setup_events", p.get("setup_events"), engine, sealer))
    if ev.type == "TurnAdjudicated":
        out = _with(p, "events", _events(ev.seq, "events", p.get("events"), engine, sealer))
        return _with(out, "orders", _orders(ev.seq, p.get("orders"), engine, sealer))
    if ev.type in ("OrdersSubmitted", "StandingOrders") and applied:
        return p
    if ev.type in ("OrdersSubmitted", "StandingOrders"):
        source = p.get("source") if isinstance(p.get("source"), dict) else {}
        sealed = {k: sealer.seal(ev.seq, k, p[k]) for k in ("orders", "text") if k in p}
        sealed["source"] = sealer.seal(ev.seq, "source", p.get("source"),
                                       {"kind": source["kind"]} if "kind" in source else None)
        return {**p, **sealed}
    if ev.type == "OrdersVoided":
        return {**p, "reason": sealer.seal(ev.seq, "reason", p.get("reason"))} if "reason" in p else p
    if ev.type == "SeatPreference":  # the preference is public; where it came from (mail id, sender) is not
        source = p.get("source") if isinstance(p.get("source"), dict) else {}
        return {**p, "source": sealer.seal(ev.seq, "source", p.get("source"),
                                           {"kind": source["kind"]} if "kind" in source else None)}
    return sealer.seal(ev.seq, "payload", p)  # a type not known here: the whole payload


def _with(payload: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    return payload if value is payload.get(key) else {**payload, key: value}


def _events(seq: int, path: str, events: Any, engine: Any, sealer: _Sealer) -> Any:
    """A list of derived events, each the public may not see whole replaced by its public view and seal."""
    if not isinstance(events, list):
        return events
    out, changed = [], False
    for i, event in enumerate(events):
        seen = _public_event(engine, event)
        if seen == event:
            out.append(event)
            continue
        out.append(sealer.seal(seq, f"{path}/{i}", event, seen))
        changed = True
    return out if changed else events


def _public_event(engine: Any, event: Any) -> dict[str, Any] | None:
    if is_sealed(event) or engine is None or not isinstance(event, dict):
        return event if is_sealed(event) else None
    try:
        seen = visible_events(engine, [event], PUBLIC)
    except Exception:  # noqa: BLE001 - an event the engine's view cannot read is not shown
        return None
    return seen[0] if seen else None


def _orders(seq: int, orders: Any, engine: Any, sealer: _Sealer) -> Any:
    """``TurnAdjudicated.orders``: each seat's orders kept only where the engine shows them whole."""
    if not isinstance(orders, dict):
        return orders
    out = {seat: o if public_orders(engine, o) else sealer.seal(seq, f"orders/{seat}", o) for seat, o in orders.items()}
    return orders if all(out[s] is orders[s] for s in orders) else out


def public_orders(engine: Any, orders: Any) -> bool:
    """Whether the public may see ``orders`` of an adjudicated turn as they are (the engine's
    ``order_view(orders, "@public")`` equal to them; an engine without it keeps orders secret)."""
    if is_sealed(orders):
        return True  # nothing more to seal
    rule = getattr(engine, "order_view", None)
    if rule is None or not isinstance(orders, list):
        return False
    try:
        return bool(rule(orders, PUBLIC) == orders)
    except Exception:  # noqa: BLE001 - orders the view cannot read stay sealed
        return False


def _applied_public(events: Iterable[StoredEvent], engine: Any) -> set[int]:
    """The sequence numbers of the order events whose orders an adjudication applied as they
    were and the public may see: an ``OrdersSubmitted`` (not one replaced or voided before it),
    or a ``StandingOrders`` block spent whole as the answer of one decision (a one-line plan)."""
    last: dict[tuple[str, str], StoredEvent] = {}
    standing: dict[str, StoredEvent] = {}
    out: set[int] = set()
    for ev in events:
        p = ev.payload
        if ev.type == "OrdersSubmitted":
            last[(p.get("seat"), p.get("turn"))] = ev
        elif ev.type == "StandingOrders":
            standing[p.get("seat")] = ev
        elif ev.type == "OrdersVoided":
            last.pop((p.get("seat"), p.get("turn")), None)
        elif ev.type == "TurnAdjudicated" and isinstance(p.get("orders"), dict):
            for seat, orders in p["orders"].items():
                used = [last.pop((seat, p.get("turn")), None)]
                if standing.get(seat) is not None and standing[seat].payload.get("orders") == orders:
                    used.append(standing.pop(seat))
                if seat in (p.get("defaulted") or []) or not public_orders(engine, orders):
                    continue
                out |= {sub.seq for sub in used if sub is not None and sub.payload.get("orders") == orders}
    return out


def check_earlier(earlier: Sequence[StoredEvent], final: Sequence[StoredEvent], seed: str) -> tuple[list[str], int]:
    """Compare a running game's published events (``earlier``) with the finished game's
    (``final``, nothing sealed): every value the earlier file shows must be the same, and every
    sealed one must match its commitment. Returns the problems and how many seals were checked."""
    key = seal_key(seed)
    by_seq = {e.seq: e for e in withhold(final)}  # as published (a GM's backup holds the addresses)
    problems: list[str] = []
    checked = 0
    for ev in earlier:
        later = by_seq.get(ev.seq)
        if later is None or later.type != ev.type:
            problems.append(f"event {ev.seq} ({ev.type}) of the earlier file is not in the finished game's log")
            continue
        for path, seal in sealed_paths(ev.payload):
            value = _at(later.payload, path) if path != "payload" else later.payload
            if commit(key, ev.game_id, ev.seq, path, value) != seal[MARK]:
                problems.append(f"event {ev.seq} ({ev.type}): the sealed {path} is not what the finished game shows")
            checked += 1
        if _unsealed(ev.payload) != _unsealed(later.payload, ev.payload):
            problems.append(f"event {ev.seq} ({ev.type}) differs from the finished game's")
    return problems, checked


def _at(value: Any, path: str) -> Any:
    for part in path.split("/"):
        value = value[int(part)] if isinstance(value, list) else value.get(part) if isinstance(value, dict) else None
    return value


def _unsealed(value: Any, shape: Any = None) -> Any:
    """``value`` with every place ``shape`` (default: ``value`` itself) seals left out, to
    compare what an earlier file showed with the finished game."""
    shape = value if shape is None else shape
    if is_sealed(shape):
        return None
    if isinstance(shape, dict) and isinstance(value, dict):
        return {k: _unsealed(value.get(k), v) for k, v in shape.items()}
    if isinstance(shape, list) and isinstance(value, list) and len(shape) == len(value):
        return [_unsealed(v, s) for v, s in zip(value, shape)]
    return value
