"""What an archive's order events say of the mail that carried them, checked against that mail.

An ``OrdersSubmitted`` or ``StandingOrders`` event names its mail: ``source.raw_sha256`` (the
hash of the original bytes), ``message_id``, ``date`` and ``mail_key`` (the Message-ID and a
hash of the body). The archive keeps the mail itself (its passwords, press and addresses
masked, its Message-ID and Date as they were), so a forger who edits a source's Message-ID or
date, and recomputes the hash chain, is caught here. An event whose mail the archive does not
hold (exported with ``--no-mail``, or its mail taken out) cannot be checked: it is counted as
unverifiable, never as checked.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from typing import Any

from pbem.archives.publish import is_sealed
from pbem.store.db import StoredEvent
from pbem.archives.withhold import SHOWN

#: What stands for a withheld address: the events' text, or the kept mail's asterisks.
_WITHHELD = re.compile(re.escape(SHOWN) + r"|\*{3,}")


def check_sources(mails: Iterable[dict[str, Any]], events: Iterable[StoredEvent]) -> tuple[list[str], list[str]]:
    """``(problems, unverifiable)``: each order event's source against the kept mail it names."""
    from pbem.mailin.parse import _date, parse_headers

    kept = {m["sha256"]: m for m in mails if isinstance(m, dict) and isinstance(m.get("sha256"), str)}
    problems: list[str] = []
    missing = 0
    for ev in events:
        source = ev.payload.get("source")
        if ev.type not in ("OrdersSubmitted", "StandingOrders") or is_sealed(source) or not isinstance(source, dict):
            continue
        if source.get("kind") != "mail" or not isinstance(source.get("raw_sha256"), str):
            continue
        mail = kept.get(source["raw_sha256"])
        if mail is None:
            missing += 1
            continue
        raw = base64.b64decode(mail["raw"])
        head = parse_headers(raw)
        where = f"event {ev.seq} ({ev.type})"
        mid, kept_mid = _unmasked(source.get("message_id")), _unmasked(head.message_id)
        if "message_id" in source and mid != kept_mid:  # a source names what it has (older ones less)
            problems.append(f"{where}: its source names the Message-ID {str(source.get('message_id'))[:60]!r}, "
                            f"the kept mail has {str(head.message_id)[:60]!r}")
        key = _unmasked(source.get("mail_key"))
        if kept_mid and isinstance(key, str) and not key.startswith(f"{kept_mid}#"):
            problems.append(f"{where}: its source's mail key does not name the kept mail's Message-ID")
        if isinstance(source.get("sender"), str) and head.sender and head.sender != source["sender"].lower():
            problems.append(f"{where}: its source's sender is not the kept mail's From")  # a GM's backup
        date = _date(_header_value(raw, "Date"))
        if "date" in source and source["date"] != (date.isoformat() if date else None):
            problems.append(f"{where}: its source's date {source.get('date')!r} is not the kept mail's Date")
    notes = [f"{missing} order event(s) whose mail the archive does not hold: their Message-ID and date cannot be "
             "checked"] if missing else []
    return problems, notes


def _unmasked(value: Any) -> Any:
    """A Message-ID (or mail key) with what a published file withholds made alike on both sides:
    an address in it reads ``(address withheld)`` in the event and asterisks in the kept mail."""
    return _WITHHELD.sub("\0", value) if isinstance(value, str) else value


def _header_value(raw: bytes, name: str) -> str:
    """One header of a kept mail, as the parser reads it (``""`` when missing)."""
    from email import policy
    from email.parser import BytesHeaderParser

    from pbem.mailin.maillimits import MAX_HEADER_BYTES

    try:
        value = BytesHeaderParser(policy=policy.default).parsebytes(raw[:MAX_HEADER_BYTES]).get(name)
    except Exception:  # noqa: BLE001 - a header the parser cannot read: compared as missing
        return ""
    return str(value) if value is not None else ""
