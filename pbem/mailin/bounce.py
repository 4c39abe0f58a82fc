"""Bounces and auto-replies at the game address: whom they concern.

Such mail is never answered (see :func:`pbem.mailin.parse.ignore_reason`); here it is read for
the GM. A delivery status notification (RFC 3464: ``multipart/report`` with a
``message/delivery-status`` part) names each recipient with its ``Action`` and
``Status``; a recipient that ``failed`` is recorded as a delivery problem of its seat
(``pbem status`` shows it). A bounce without a machine-readable part (an old mailer
daemon) is matched on the seat addresses quoted in its text. An auto-reply is shown with
the seat of its sender.
"""

from __future__ import annotations

import functools
import re
from email import policy
from email.message import Message
from email.parser import BytesParser

from pbem.store.db import Store


@functools.cache
def _address_pattern() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+")


def failed_recipients(raw: bytes) -> list[tuple[str, str, str]]:
    """``(address, action, status text)`` of each recipient of a DSN (empty otherwise)."""
    try:
        msg = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception:  # noqa: BLE001 - hostile mail must never stop ingest
        return []
    out = []
    for part in _parts(msg):
        if part.get_content_type() != "message/delivery-status":
            continue
        for block in _blocks(part):
            addr = _address(str(block.get("Final-Recipient") or block.get("Original-Recipient") or ""))
            if addr:
                action = str(block.get("Action") or "").strip().lower()
                status = " ".join(f"{block.get(k) or ''}" for k in ("Status", "Diagnostic-Code")).strip()
                out.append((addr, action, " ".join(status.split())[:300]))
    return out


def _parts(msg: Message, depth: int = 0) -> list[Message]:
    if depth > 20:
        return []
    if not msg.is_multipart():
        return [msg]
    found = [msg]
    for sub in msg.get_payload() or []:
        if isinstance(sub, Message):
            found += _parts(sub, depth + 1)
    return found


def _blocks(part: Message) -> list[Message]:
    """The header blocks of a ``message/delivery-status`` part."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [p for p in payload if isinstance(p, Message)]
    text = payload if isinstance(payload, str) else ""
    parser = BytesParser(policy=policy.default)
    return [parser.parsebytes(chunk.strip().encode("utf-8", "replace") + b"\n\n")
            for chunk in re.split(r"\r?\n\r?\n", text) if chunk.strip()]


def _address(value: str) -> str:
    """The address of a ``Final-Recipient: rfc822; addr`` field."""
    kind, _, addr = value.partition(";")
    found = _address_pattern().search(addr if _ else kind)
    return found.group(0).lower() if found else ""


class _SeatAddresses:
    """Registered seat address -> its (game, seat) pairs (a player may sit in several games),
    looked up in the address index (:mod:`pbem.store.projection`) one address at a time."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._found: dict[str, list[tuple[str, str]]] = {}

    def get(self, address: str, default: list[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
        from pbem.store import projection

        if address not in self._found:
            self._found[address] = projection.games_of_address(self.store, address, running=False, registered=True)
        return self._found[address] or (default if default is not None else [])

    def __contains__(self, address: object) -> bool:
        return isinstance(address, str) and bool(self.get(address))

    def __getitem__(self, address: str) -> list[tuple[str, str]]:
        return self.get(address)


def _seat_addresses(store: Store) -> _SeatAddresses:
    """Every registered seat address -> its (game, seat) pairs, by the address index."""
    return _SeatAddresses(store)


def _seats_text(pairs: list[tuple[str, str]]) -> str:
    return ", ".join(f"seat {seat} of {game}" for game, seat in pairs)


def note(store: Store, raw: bytes, sender: str | None, reason: str, key: str) -> str:
    """What the GM should know about an ignored mail: for a bounce, whose mail failed
    (recorded as a delivery problem of each seat with that address); for an auto-reply,
    whose it is. ``""`` otherwise."""
    if "bounce" not in reason and not sender:
        return ""
    seats = _seat_addresses(store)
    if "bounce" in reason:
        recipients = failed_recipients(raw)
        if not recipients:
            text = raw.decode("utf-8", "replace")
            recipients = [(a.lower(), "failed", "bounced (no delivery status part)")
                          for a in dict.fromkeys(_address_pattern().findall(text)) if a.lower() in seats]
        said = []
        from pbem.mailout import outqueue  # only for a bounce: a mail hook's order mail needs no outbox queue

        for addr, action, status in recipients:
            pairs = seats.get(addr, [])
            if action == "failed":
                for game in [g for g, _ in pairs] or [None]:
                    outqueue.add_problem(store, addr, game, "bounce", status or "bounced", mail_key=key)
            said.append(f"{action or 'bounce'} for {addr}" + (f" ({_seats_text(pairs)})" if pairs else "")
                        + (f": {status}" if status else ""))
        return "; ".join(said)
    if sender and sender.lower() in seats:
        return "from " + _seats_text(seats[sender.lower()])
    return ""
