"""Delivering the outbox: by SMTP (``smtplib``) or into a Maildir (``mailbox``).

Each message is marked sent right after the server (or the Maildir) accepted it, so an
interrupted ``pbem send`` re-run sends only what was not sent. A failed message stays
queued with its attempt count and last error, and is tried again by the next run.

SMTP credentials come from the environment (``PBEM_SMTP_USER``, ``PBEM_SMTP_PASSWORD``),
never from the command line, and are never printed or logged.
"""

from __future__ import annotations

import logging
import mailbox
import os
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import format_datetime
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import DomainError
from pbem.store import Store

log = logging.getLogger("pbem.deliver")


class Unavailable(Exception):
    """The server could not be reached or refused the login: stop this run."""


class Transport(Protocol):
    """Something that can deliver one message (raises on failure)."""

    def deliver(self, message: EmailMessage, to: str) -> None:
        """Deliver ``message`` to ``to``."""

    def close(self) -> None:
        """Release connections."""


@dataclass
class SmtpSettings:
    """Where and how to reach the SMTP server."""

    host: str
    port: int = 25
    starttls: bool = False
    user: str | None = field(default=None)
    password: str | None = field(default=None, repr=False)
    timeout: float = 60.0


def smtp_settings(spec: str | None, starttls: bool, env: Mapping[str, str] = os.environ) -> SmtpSettings:
    """Settings from ``--smtp HOST:PORT`` (or ``PBEM_SMTP_HOST``/``PBEM_SMTP_PORT``) and
    the login from ``PBEM_SMTP_USER``/``PBEM_SMTP_PASSWORD``."""
    host, port = env.get("PBEM_SMTP_HOST", ""), env.get("PBEM_SMTP_PORT", "")
    if spec:
        host, _, port = spec.rpartition(":") if ":" in spec else (spec, "", port)
    if not host:
        raise DomainError("nowhere to send: give --smtp HOST:PORT (or set PBEM_SMTP_HOST) or --maildir DIR")
    try:
        number = int(port or (587 if starttls else 25))
    except ValueError:
        raise DomainError(f"SMTP port {port!r} is not a number") from None
    return SmtpSettings(host, number, starttls, env.get("PBEM_SMTP_USER") or None,
                        env.get("PBEM_SMTP_PASSWORD") or None)


class SmtpTransport:
    """One SMTP connection, opened on first use and re-opened after it breaks."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self._smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        try:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        except (smtplib.SMTPException, OSError) as exc:
            raise Unavailable(f"cannot reach {s.host}:{s.port}: {describe(exc)}") from None
        try:
            if s.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if s.user:
                smtp.login(s.user, s.password or "")
        except (smtplib.SMTPException, OSError) as exc:
            smtp.close()
            raise Unavailable(f"{s.host}:{s.port} refused the session: {describe(exc)}") from None
        return smtp

    def deliver(self, message: EmailMessage, to: str) -> None:
        """Send one message; a broken connection is dropped so the next call reconnects."""
        if self._smtp is None:
            self._smtp = self._connect()
        try:
            refused = self._smtp.send_message(message, to_addrs=[to])
        except (smtplib.SMTPServerDisconnected, OSError):
            self._drop()
            raise
        if refused:
            raise smtplib.SMTPRecipientsRefused(refused)

    def _drop(self) -> None:
        if self._smtp is not None:
            try:
                self._smtp.close()
            finally:
                self._smtp = None

    def close(self) -> None:
        """Say QUIT (politely, ignoring a dead connection)."""
        if self._smtp is not None:
            try:
                self._smtp.quit()
            except (smtplib.SMTPException, OSError):
                pass
            self._drop()


class MaildirTransport:
    """Delivers into a Maildir (e.g. for the GM to send with their own mail client)."""

    def __init__(self, path: str | Path) -> None:
        self.box = mailbox.Maildir(str(path), create=True)

    def deliver(self, message: EmailMessage, to: str) -> None:
        """Add the message to the Maildir's ``new/``."""
        self.box.add(message.as_bytes())

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Sent:
    """The result of one delivery attempt (or of a dry run)."""

    id: int
    to: str
    subject: str
    kind: str
    ok: bool
    error: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"id": self.id, "to": self.to, "subject": self.subject, "kind": self.kind,
                "ok": self.ok, "error": self.error}


def message_of(row: Mapping[str, Any]) -> EmailMessage:
    """The stored message of an outbox row."""
    msg = BytesParser(policy=policy.default).parsebytes(row["message"])
    assert isinstance(msg, EmailMessage)
    return msg


def send_outbox(store: Store, transport: Transport | None, dry_run: bool = False) -> list[Sent]:
    """Deliver every unsent message once, in queue order (``dry_run``: only list them)."""
    results: list[Sent] = []
    try:
        for row in store.outbox(unsent_only=True):
            try:
                results.append(_send_one(store, transport, row, dry_run))
            except Unavailable as exc:
                store.mark_failed(row["id"], str(exc))
                results.append(Sent(row["id"], row["to_addr"], row["subject"], row["kind"], False, str(exc)))
                log.warning("delivery stopped: %s", exc)
                break
    finally:
        if transport is not None:
            transport.close()
    return results


def _send_one(store: Store, transport: Transport | None, row: Mapping[str, Any], dry_run: bool) -> Sent:
    sent = Sent(row["id"], row["to_addr"], row["subject"], row["kind"], ok=True)
    if dry_run or transport is None:
        return sent
    message = message_of(row)
    if message["Date"] is None:  # stamped when it leaves, as a mail client does
        message["Date"] = format_datetime(datetime.now(timezone.utc))
    try:
        transport.deliver(message, row["to_addr"])
    except (smtplib.SMTPException, OSError, ValueError) as exc:
        sent.ok, sent.error = False, describe(exc)
        store.mark_failed(row["id"], sent.error)
        log.warning("outbox %s to %s failed: %s", row["id"], row["to_addr"], sent.error)
        return sent
    store.mark_sent(row["id"])
    return sent


def describe(exc: BaseException) -> str:
    """A one-line description of a delivery error (SMTP code and text when there is one)."""
    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
        return f"{exc.smtp_code} {' '.join(text.split())}"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [f"{code} {msg.decode('utf-8', 'replace') if isinstance(msg, bytes) else msg}"
                 for code, msg in exc.recipients.values()]
        return "recipient refused: " + "; ".join(codes)
    return f"{type(exc).__name__}: {' '.join(str(exc).split())}"
