"""Delivering the outbox: by SMTP (``smtplib``) or into a Maildir (``mailbox``).

Each message is claimed with a lease before it is sent and marked sent right after the
server (or the Maildir) accepted it, so concurrent runs never send the same message and an
interrupted ``pbem send`` re-run sends only what was not sent (at most the one message
that was on the wire may go twice, and the log says so; see :mod:`pbem.mailout.outqueue`). A
temporary failure (4xx) is retried after a growing backoff up to a cap; a permanent one
(5xx, an address that cannot be sent) fails the message at once and is shown in ``status``.

SMTP credentials come from the environment (``PBEM_SMTP_USER``, ``PBEM_SMTP_PASSWORD``),
never from the command line, and are never printed or logged.
"""

from __future__ import annotations

import logging
import mailbox
import os
import re
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

from pbem.mailout import outqueue
from pbem.mailout.config import Config
from pbem.errors import DomainError
from pbem.mailout.outqueue import RetryPolicy
from pbem.store.db import Store

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
    """Where and how to reach the SMTP server.

    ``smtps``: implicit TLS from the first byte (port 465); ``starttls``: plain connection
    upgraded with STARTTLS (port 587). ``cafile`` trusts one more certificate authority
    (e.g. a self-signed relay); the server certificate is always verified."""

    host: str
    port: int = 25
    starttls: bool = False
    user: str | None = field(default=None)
    password: str | None = field(default=None, repr=False)
    timeout: float = 60.0
    smtps: bool = False
    cafile: str | None = None

    def tls_context(self) -> ssl.SSLContext:
        """A verifying TLS context (system CAs, plus ``cafile`` when given)."""
        return ssl.create_default_context(cafile=self.cafile)


def smtp_settings(spec: str | None, starttls: bool, env: Mapping[str, str] = os.environ,
                  smtps: bool = False, cafile: str | None = None) -> SmtpSettings:
    """Settings from ``--smtp HOST:PORT`` / ``--smtps HOST:PORT`` (or ``PBEM_SMTP_HOST``/
    ``PBEM_SMTP_PORT``) and the login from ``PBEM_SMTP_USER``/``PBEM_SMTP_PASSWORD``."""
    host, port = env.get("PBEM_SMTP_HOST", ""), env.get("PBEM_SMTP_PORT", "")
    if spec:
        host, _, port = spec.rpartition(":") if ":" in spec else (spec, "", port)
    if not host:
        raise DomainError("nowhere to send: give --smtp HOST:PORT or --smtps HOST:465 (or set PBEM_SMTP_HOST), "
                          "or --maildir DIR")
    if smtps and starttls:
        raise DomainError("choose --smtps (implicit TLS) or --starttls, not both")
    try:
        number = int(port or (465 if smtps else 587 if starttls else 25))
    except ValueError:
        raise DomainError(f"SMTP port {port!r} is not a number") from None
    return SmtpSettings(host, number, starttls, env.get("PBEM_SMTP_USER") or None,
                        env.get("PBEM_SMTP_PASSWORD") or None, smtps=smtps,
                        cafile=cafile or env.get("PBEM_SMTP_CAFILE") or None)


def settings_from_config(config: Config, smtp: str | None = None, smtps: str | None = None,
                         starttls: bool = False) -> SmtpSettings:
    """SMTP settings from the command line (``--smtp``/``--smtps`` win), else the
    environment and ``[smtp]`` of ``pbem.toml``; the password from the environment or a
    password file (see :mod:`pbem.mailout.config`)."""
    if smtp and smtps:
        raise DomainError("give --smtp or --smtps, not both")
    if smtp or smtps:
        spec, tls = smtp or smtps, "smtps" if smtps else "starttls" if starttls else "none"
    else:
        host = config.value("smtp", "host", "PBEM_SMTP_HOST")
        port = config.value("smtp", "port", "PBEM_SMTP_PORT")
        spec = f"{host}:{port}" if host and port else host
        tls = str(config.value("smtp", "tls", "PBEM_SMTP_TLS") or ("starttls" if starttls else "none")).lower()
    if tls not in ("none", "starttls", "smtps"):
        raise DomainError(f"[smtp] tls must be 'smtps', 'starttls' or 'none', not {tls!r}")
    settings = smtp_settings(spec, tls == "starttls", {}, smtps=tls == "smtps",
                             cafile=config.value("smtp", "cafile", "PBEM_SMTP_CAFILE"))
    settings.user = config.value("smtp", "user", "PBEM_SMTP_USER") or None
    settings.password = config.secret("smtp", "PBEM_SMTP_PASSWORD", settings.host, settings.user)
    return settings


def transport_for(config: Config, smtp: str | None = None, smtps: str | None = None, starttls: bool = False,
                  maildir: str | None = None) -> Transport:
    """The transport the GM asked for: a Maildir, else SMTP from the command line or config."""
    if maildir:
        if smtp or smtps:
            raise DomainError("give --smtp/--smtps or --maildir, not both")
        return MaildirTransport(maildir)
    return SmtpTransport(settings_from_config(config, smtp, smtps, starttls))


def send_configured(store: Store, config: Config, dry_run: bool = False, send_now: bool = False,
                    **where: Any) -> list[Sent]:
    """``pbem send`` as a function (for ``pbem tick``): the transport and retry policy
    from ``config`` (``where``: ``smtp``, ``smtps``, ``starttls``, ``maildir`` overrides);
    ``send_now``: the messages waiting for a retry are sent now too."""
    transport = None if dry_run else transport_for(config, **where)
    return send_outbox(store, transport, dry_run, config.retry_policy(), send_now)


class SmtpTransport:
    """One SMTP connection, opened on first use and re-opened after it breaks."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self._smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        try:
            if s.smtps:
                smtp: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=s.tls_context())
            else:
                smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        except (smtplib.SMTPException, OSError) as exc:
            raise Unavailable(f"cannot reach {s.host}:{s.port}: {describe(exc)}") from None
        try:
            if s.starttls:
                smtp.starttls(context=s.tls_context())
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
        except smtplib.SMTPResponseException:
            self._reset()
            raise
        if refused:
            raise smtplib.SMTPRecipientsRefused(refused)

    def _reset(self) -> None:
        """After a refused transaction, RSET so the next message starts clean."""
        try:
            if self._smtp is not None:
                self._smtp.rset()
        except (smtplib.SMTPException, OSError):
            self._drop()

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
    """Delivers into a Maildir (e.g. for the GM to send with their own mail client).

    The folder and its ``tmp/``, ``new/`` and ``cur/`` are made when missing (``mkdir out;
    pbem send --maildir out`` works); a folder that cannot be made is refused at once, and
    a message that cannot be written (a full disk) stops the run without counting an
    attempt: it is a problem of this machine, not of the recipient's address."""

    def __init__(self, path: str | Path) -> None:
        from pbem.outfiles import out_dir, reason

        out_dir(path)
        try:
            for sub in ("tmp", "new", "cur"):
                os.makedirs(os.path.join(path, sub), mode=0o700, exist_ok=True)
        except OSError as exc:
            raise DomainError(f"cannot write into the Maildir {path}: {reason(exc)}") from None
        self.path = str(path)
        self.box = mailbox.Maildir(self.path, create=False)

    def deliver(self, message: EmailMessage, to: str) -> None:
        """Add the message to the Maildir's ``new/``."""
        from pbem.outfiles import reason

        try:
            self.box.add(message.as_bytes())
        except OSError as exc:
            raise Unavailable(f"cannot write into the Maildir {self.path}: {reason(exc)}") from None

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Sent:
    """The result of one delivery attempt (or of a dry run).

    ``permanent``: the message is failed for good (5xx, a bad address, or too many
    attempts); ``note`` says e.g. that a crashed run may already have delivered it."""

    id: int
    to: str
    subject: str
    kind: str
    ok: bool
    error: str = ""
    permanent: bool = False
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"id": self.id, "to": self.to, "subject": self.subject, "kind": self.kind,
                "ok": self.ok, "error": self.error, "permanent": self.permanent, "note": self.note}


def message_of(row: Mapping[str, Any]) -> EmailMessage:
    """The stored message of an outbox row."""
    msg = BytesParser(policy=policy.default).parsebytes(row["message"])
    assert isinstance(msg, EmailMessage)
    return msg


def send_outbox(store: Store, transport: Transport | None, dry_run: bool = False,
                retry: RetryPolicy | None = None, send_now: bool = False) -> list[Sent]:
    """Deliver every due message once, in queue order (``dry_run``: only list them;
    ``send_now``: the messages waiting for a retry are due too).

    Each message is claimed (leased) before it is sent, so concurrent runs never take the
    same one. A run stops at the first :class:`Unavailable` (server unreachable, login
    refused): that message is given back without counting an attempt."""
    retry = retry or RetryPolicy()
    if dry_run or transport is None:
        return [Sent(r["id"], r["to_addr"], r["subject"], r["kind"], ok=True) for r in outqueue.due(store, send_now)]
    owner, tried, results = outqueue.new_owner(), set(), []
    try:
        while (claim := outqueue.claim_next(store, owner, retry, tried, send_now)) is not None:
            tried.add(claim.row["id"])
            sent = _send_one(store, transport, claim, retry)
            results.append(sent)
            if sent.error.startswith(_STOPPED):
                log.info("%s", sent.error)
                break
    finally:
        transport.close()
    return results


_STOPPED = "delivery stopped: "


def _send_one(store: Store, transport: Transport, claim: outqueue.Claim, retry: RetryPolicy) -> Sent:
    row = claim.row
    sent = Sent(row["id"], row["to_addr"], row["subject"], row["kind"], ok=True)
    if claim.taken_over:
        sent.note = "a send run that stopped was sending this message: it may be delivered twice"
    problem = bad_address(row["to_addr"])
    if problem:
        return _failed(store, claim, sent, problem, permanent=True, retry=retry)
    message = message_of(row)
    if message["Date"] is None:  # stamped when it leaves, as a mail client does
        message["Date"] = format_datetime(datetime.now(timezone.utc))
    try:
        transport.deliver(message, row["to_addr"])
    except Unavailable as exc:
        outqueue.release(store, claim, str(exc))
        sent.ok, sent.error = False, _STOPPED + str(exc)
        return sent
    except (smtplib.SMTPException, OSError, ValueError) as exc:
        kind = classify(exc)
        if kind == "stop":
            outqueue.release(store, claim, describe(exc))
            sent.ok, sent.error = False, _STOPPED + f"the server refused our sender: {describe(exc)}"
            return sent
        return _failed(store, claim, sent, describe(exc), permanent=kind == "permanent", retry=retry)
    outqueue.mark_sent(store, claim)
    return sent


def _failed(store: Store, claim: outqueue.Claim, sent: Sent, error: str, permanent: bool,
            retry: RetryPolicy) -> Sent:
    """Record a failed attempt (permanent, or temporary with backoff and a cap)."""
    sent.ok, sent.error = False, error
    if permanent:
        outqueue.mark_permanent(store, claim, error)
        sent.permanent = True
    else:
        sent.permanent = outqueue.mark_temporary(store, claim, error, retry)
    # info, not warning: the command that sent it prints each failure once itself
    log.info("outbox %s to %s failed%s: %s", sent.id, sent.to, " permanently" if sent.permanent else "", error)
    return sent


def classify(exc: BaseException) -> str:
    """``permanent`` (5xx, an unencodable address), ``temporary`` (4xx, a broken
    connection) or ``stop`` (the server refuses our sender: nothing can be sent)."""
    if isinstance(exc, smtplib.SMTPSenderRefused):
        return "stop" if exc.smtp_code >= 500 else "temporary"
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return "permanent" if codes and all(c >= 500 for c in codes) else "temporary"
    if isinstance(exc, smtplib.SMTPNotSupportedError):
        return "permanent"
    if isinstance(exc, smtplib.SMTPResponseException):
        return "permanent" if exc.smtp_code >= 500 else "temporary"
    if isinstance(exc, (smtplib.SMTPServerDisconnected, OSError)):
        return "temporary"
    return "permanent"  # ValueError / UnicodeEncodeError: the message or address cannot be sent


_ADDRESS_CHARS = re.compile(r"^[!-~]+@[A-Za-z0-9.-]+$")


def bad_address(address: str) -> str:
    """Why ``address`` cannot go into ``RCPT TO`` (empty when it can): RFC 5321 wants
    printable ASCII without spaces (no SMTPUTF8 here), one ``@`` and a domain."""
    if not address or not address.isascii() or not _ADDRESS_CHARS.match(address) or address.count("@") != 1:
        return f"recipient address {address[:80]!r} cannot be sent (not a plain ASCII address)"
    if len(address) > 254 or any(c in address for c in "<>()[],;:\\\""):
        return f"recipient address {address[:80]!r} cannot be sent (not a plain ASCII address)"
    return ""


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
