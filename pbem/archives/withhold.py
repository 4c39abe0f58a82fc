"""Seat addresses withheld from everything published about a game.

Players give the GM their mail addresses to play, not to have them handed to every reader of
a game's archive, record or site (press is relayed so that the seats need not know each
other's addresses). A published file therefore carries no seat address, whether the game runs
or is over; only the GM's own backup (``pbem export --gm-backup``) keeps the log as recorded.

In a published log:

- each seat of ``GameCreated`` and each ``SeatChanged`` gets :func:`placeholder` as its
  address (``red@withheld.invalid``: the ``.invalid`` domain can never be mailed), no other
  addresses, and no display name (the player's name as the GM wrote it beside the address);
- the ``sender`` of an order event's source is left out;
- any other text (a GM's reason, an idempotency key) that holds a seat's address or a
  sender's has it replaced by :data:`SHOWN`.

Kept mails are masked likewise (:func:`mask_addresses`). Nothing here can be checked by a
reader, and verification says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from pbem.store.db import StoredEvent

#: The domain of a withheld seat address (RFC 2606: ``.invalid`` is never delivered).
DOMAIN = "withheld.invalid"
#: What replaces an address inside other text.
SHOWN = "(address withheld)"
#: An address as it may appear in a mail's headers or text.
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                     r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")
#: Mail headers whose addresses are message ids, not anybody's mailbox.
_ID_HEADERS = re.compile(r"(?im)^(message-id|in-reply-to|references|content-id)[ \t]*:")


def placeholder(seat: str) -> str:
    """The address a published log gives ``seat`` (``red@withheld.invalid``)."""
    return f"{seat}@{DOMAIN}"


def is_withheld(address: Any) -> bool:
    """True for an address :func:`placeholder` made."""
    return isinstance(address, str) and address.lower().endswith("@" + DOMAIN)


def addresses(events: Iterable[StoredEvent]) -> set[str]:
    """Every address a game's log names: seats' registered and allowed ones, and senders (lower case)."""
    found: set[str] = set()
    for ev in events:
        p = ev.payload
        rows = p.get("seats", []) if ev.type == "GameCreated" else [p] if ev.type == "SeatChanged" else []
        for row in rows:
            if isinstance(row, dict):
                found |= {a for a in [row.get("email"), *(row.get("addresses") or [])] if isinstance(a, str)}
        source = p.get("source")
        if isinstance(source, dict) and isinstance(source.get("sender"), str):
            found.add(source["sender"])
    return {a.strip().lower() for a in found if "@" in a and not is_withheld(a)}


def withhold(events: Iterable[StoredEvent], known: set[str] | None = None) -> list[StoredEvent]:
    """``events`` without any address (the chain is not recomputed: the caller does that)."""
    events = list(events)
    known = addresses(events) if known is None else known
    return [_event(ev, known) for ev in events]


def _event(ev: StoredEvent, known: set[str]) -> StoredEvent:
    p = ev.payload
    if ev.type == "GameCreated" and isinstance(p.get("seats"), list):
        p = {**p, "seats": [_seat(row, row.get("name")) if isinstance(row, dict) else row for row in p["seats"]]}
    elif ev.type == "SeatChanged" and isinstance(p.get("seat"), str):
        p = _seat(p, p["seat"])
    source = p.get("source")
    if isinstance(source, dict) and "sender" in source:
        p = {**p, "source": {k: v for k, v in source.items() if k != "sender"}}
    payload, key = scrub(p, known), scrub(ev.key, known)
    if payload == ev.payload and key == ev.key:
        return ev
    return replace(ev, payload=payload, key=key)


def _seat(row: dict[str, Any], seat: Any) -> dict[str, Any]:
    """A seat row (or ``SeatChanged``) with its addresses withheld."""
    out = {k: v for k, v in row.items() if k != "display_name"}
    if "email" in out:
        out["email"] = placeholder(str(seat))
    if "addresses" in out:
        out["addresses"] = []
    return out


def scrub(value: Any, known: set[str]) -> Any:
    """``value`` with each of the ``known`` addresses in any of its texts replaced by :data:`SHOWN`."""
    if not known:
        return value
    if isinstance(value, str):
        return _pattern(known).sub(SHOWN, value) if "@" in value else value
    if isinstance(value, dict):
        out = {k: scrub(v, known) for k, v in value.items()}
        return value if out == value else out
    if isinstance(value, list):
        items = [scrub(v, known) for v in value]
        return value if items == value else items
    return value


def _pattern(known: set[str]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(a) for a in sorted(known, key=len, reverse=True)), re.IGNORECASE)


def mask_addresses(text: str, known: Iterable[str] = ()) -> str:
    """``text`` (a mail, headers and body) with every address masked by asterisks of its length:
    each of ``known`` wherever it is, and any other address but in message-id headers."""
    known = {a.lower() for a in known if a}
    if known:
        text = _pattern(known).sub(lambda m: "*" * len(m.group(0)), text)
    out = []
    in_id = False
    for line in text.splitlines(keepends=True):
        if line[:1] not in (" ", "\t"):
            in_id = bool(_ID_HEADERS.match(line))
        out.append(line if in_id else ADDRESS.sub(lambda m: "*" * len(m.group(0)), line))
    return "".join(out)
