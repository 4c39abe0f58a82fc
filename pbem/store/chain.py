"""The events as the store records them: a new event to append, an event as recorded, and
the hash chain that links each game's events (SHA-256 of the canonical JSON of every field
and the previous event's hash), so a tampered, reordered or truncated log is found."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.base import canonical_json

GENESIS = "0" * 64


@dataclass(frozen=True)
class NewEvent:
    """An event to append: type, payload and an optional idempotency key."""

    type: str
    payload: dict[str, Any]
    version: int = 1
    key: str | None = None


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: dict[str, Any]
    recorded_at: str
    prev_hash: str
    hash: str
    key: str | None = None
    #: the payload's canonical JSON as stored, set by the store that read or wrote the event
    #: (``None`` otherwise, and in a copy made by ``dataclasses.replace``): a replay checks the
    #: derived events against it without encoding them again (:mod:`pbem.store.events`)
    text: str | None = field(default=None, init=False, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the event."""
        return {"game": self.game_id, "seq": self.seq, "type": self.type, "version": self.version,
                "payload": self.payload, "recorded_at": self.recorded_at,
                "prev_hash": self.prev_hash, "hash": self.hash, "key": self.key}


def event_hash(game_id: str, seq: int, type_: str, version: int, payload: Any,
               recorded_at: str, prev_hash: str, payload_text: str | None = None) -> str:
    """The chain hash of one event: SHA-256 of the canonical JSON of all its fields.
    ``payload_text``: ``canonical_json(payload)`` when it is made already."""
    body = {"game": game_id, "seq": seq, "type": type_, "version": version,
            "payload": None if payload_text is not None else payload, "recorded_at": recorded_at,
            "prev_hash": prev_hash}
    text = canonical_json(body)
    if payload_text is not None:  # the same bytes: a key's value is encoded on its own, and
        # '"payload":null' can only be that key (a quote inside a JSON string is escaped)
        text = text.replace('"payload":null', '"payload":' + payload_text, 1)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class AppendResult:
    """What an append did: the events now recorded for it, and whether they are new."""

    events: list[StoredEvent] = field(default_factory=list)
    duplicate: bool = False


def verify_chain(events: Sequence[StoredEvent], game_id: str,
                 head: tuple[int, str] | None = None) -> list[str]:
    """Check a game's events: gap-free sequence, each hash right, each linked to the last."""
    problems: list[str] = []
    prev = GENESIS
    for expected, ev in enumerate(events, start=1):
        if ev.seq != expected:
            problems.append(f"event {expected}: missing or out of order (found seq {ev.seq})")
        if ev.prev_hash != prev:
            problems.append(f"event {ev.seq}: does not follow the event before it (reordered or removed)")
        digest = event_hash(game_id, ev.seq, ev.type, ev.version, ev.payload, ev.recorded_at, ev.prev_hash)
        if digest != ev.hash:
            problems.append(f"event {ev.seq} ({ev.type}): content does not match its hash (tampered)")
        prev = ev.hash
    if head is not None and events and (events[-1].seq, events[-1].hash) != head:
        problems.append(f"log ends at event {events[-1].seq} but event {head[0]} was recorded (truncated)")
    if head is not None and not events:
        problems.append(f"log is empty but event {head[0]} was recorded (truncated)")
    return problems


def normal(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as it is read back: JSON types only."""
    return json.loads(canonical_json(payload))  # type: ignore[no-any-return]


def row_event(row: dict[str, Any]) -> StoredEvent:
    """The event of one row of the ``events`` table."""
    return with_text(StoredEvent(row["game_id"], row["seq"], row["type"], row["version"], json.loads(row["payload"]),
                                  row["recorded_at"], row["prev_hash"], row["hash"], row["key"]), row["payload"])


def with_text(event: StoredEvent, text: str) -> StoredEvent:
    """``event`` with :attr:`StoredEvent.text` set to its payload's stored JSON."""
    object.__setattr__(event, "text", text)
    return event
