"""The outbox as the GM reads and sends it (``pbem outbox``, ``pbem outbox show``, ``pbem send``):
the queued messages as rows, one message as its recipient reads it (a welcome mail's password
masked), and one delivery run with what is left waiting after it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pbem.errors import DomainError
from pbem.mailout import outqueue
from pbem.mailout.config import Config
from pbem.mailout.deliver import Sent, message_of, send_configured
from pbem.store.db import Store

#: A welcome mail's password line: masked when the GM reads the message back.
_PASSWORD_LINE = re.compile(r"(?im)^(Your password:[ \t]*)\S+")


def listing(store: Store, show_all: bool = False) -> list[dict[str, Any]]:
    """The GM-facing fields of each message not sent yet (``show_all``: of every message), in
    queue order (:func:`pbem.mailout.outqueue.as_row`)."""
    return [outqueue.as_row(r) for r in store.outbox(unsent_only=not show_all)]


@dataclass(frozen=True)
class Shown:
    """One outbox message as its recipient reads it: its headers, its text part (a password
    masked) and the content type and file name of each other part."""

    id: int
    kind: str
    sent: str | None
    headers: dict[str, str]
    text: str
    other_parts: list[str]

    def as_dict(self) -> dict[str, Any]:
        """What ``pbem outbox show --json`` prints."""
        return {"id": self.id, "kind": self.kind, "sent": self.sent, "headers": self.headers, "text": self.text,
                "other_parts": self.other_parts}


def shown(store: Store, outbox_id: int) -> Shown:
    """Message ``outbox_id`` of the outbox, sent or not; an unknown id is a one-line
    :class:`DomainError`."""
    row = next((r for r in store.outbox() if r["id"] == outbox_id), None)
    if row is None:
        raise DomainError(f"there is no message {outbox_id} in the outbox (see 'pbem outbox --all')")
    msg = message_of(row)
    try:
        body = msg.get_body(preferencelist=("plain", "html"))
        text = body.get_content() if body is not None else ""
    except (KeyError, LookupError):
        text = ""
    parts = [f"{p.get_content_type()} {p.get_filename() or ''}".strip() for p in msg.walk()
             if not p.is_multipart() and p is not body]
    headers = {k: str(msg[k]) for k in ("From", "To", "Subject", "Date", "In-Reply-To") if msg[k] is not None}
    return Shown(row["id"], row["kind"], row["sent_at"], headers, _PASSWORD_LINE.sub(r"\1******", text), parts)


@dataclass(frozen=True)
class SendRun:
    """One ``pbem send``: each message tried (or listed, a dry run), then what waits in the
    outbox: ``queued`` messages not failed, the earliest retry time among them
    (``retry_from``), and those this run did not try that wait for a retry (``waiting``, the
    first due at ``waiting_next``)."""

    results: list[Sent]
    queued: int
    retry_from: str | None
    waiting: int
    waiting_next: str | None

    @property
    def failed(self) -> list[Sent]:
        """The messages of this run not delivered."""
        return [r for r in self.results if not r.ok]


def send_due(store: Store, config: Config, dry_run: bool = False, send_now: bool = False, retry_failed: bool = False,
             smtp: str | None = None, smtps: str | None = None, starttls: bool = False,
             maildir: str | None = None) -> SendRun:
    """Deliver every due message once by the transport of ``config`` (``smtp``, ``smtps`` with
    ``starttls``, or ``maildir`` instead); ``retry_failed`` queues the failed messages again
    first (not in a ``dry_run``, which sends nothing); ``send_now`` sends the messages waiting
    for a retry too (:func:`pbem.mailout.deliver.send_configured`)."""
    if retry_failed and not dry_run:
        outqueue.retry_failed(store)
    results = send_configured(store, config, dry_run, send_now, smtp=smtp, smtps=smtps, starttls=starttls,
                              maildir=maildir)
    left = [r for r in store.outbox(unsent_only=True) if not r.get("failed_at")]
    retrying = [r["next_attempt_at"] for r in left if r.get("next_attempt_at")]
    tried = {r.id for r in results}
    waiting = [r["next_attempt_at"] for r in left if r.get("next_attempt_at") and r["id"] not in tried]
    return SendRun(results, len(left), min(retrying, default=None), len(waiting), min(waiting, default=None))
