"""What mail in and mail out share: the loop header, the outgoing message and our headers.

:mod:`pbem.mailin` (reading), :mod:`pbem.replies` (answers) and :mod:`pbem.notify`
(welcome mails, reports) all build on this module, and it imports none of them, so the
three never import each other in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from email import policy
from email.headerregistry import HeaderRegistry
from email.message import EmailMessage
from email.utils import make_msgid
from functools import lru_cache
from typing import Any

from pbem.events import Game
from reports.timefmt import deadline_text

#: The header on every mail we send; a mail that comes back with it is never answered.
LOOP_HEADER = "X-PBEM-Loop"


class _RememberingHeaders(HeaderRegistry):
    """The default policy's header classes, each (name, value) parsed once: reading a mail
    asks for its headers (Content-Type above all) many times, and every mail of a game
    carries the same Content-Type, MIME-Version, To... The header objects are immutable."""

    def __call__(self, name: str, value: str) -> Any:
        if type(value) is not str or len(value) > 500:  # only short texts are kept (a hostile
            # mail must not fill memory; Address objects and lists are not hashable)
            return super().__call__(name, value)
        return self._remembered(name, value)

    @lru_cache(maxsize=2048)  # noqa: B019 - one instance for the process (MAIL_POLICY below)
    def _remembered(self, name: str, value: str) -> Any:
        return super().__call__(name, value)


#: ``policy.default`` with remembered headers: inbound mail is parsed and outgoing mail
#: built with it (the same header classes, so the same bytes as ``policy.default``).
MAIL_POLICY = policy.default.clone(header_factory=_RememberingHeaders())


@dataclass
class Outgoing:
    """One message to queue: recipient, subject, the message and its kind."""

    to: str
    subject: str
    message: EmailMessage
    kind: str


def thread_id(game: Game, sender: str) -> str:
    """The Message-ID every mail of a game refers to (threading per game)."""
    domain = sender.rsplit("@", 1)[-1] or "localhost"
    return f"<game.{game.game_id}@{domain}>"


def base_message(game: Game | None, to: str, subject: str, sender: str, kind: str) -> EmailMessage:
    """A message with our headers: From/To/Subject, Message-ID, loop header, threading."""
    msg = EmailMessage(policy=MAIL_POLICY)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    domain = sender.rsplit("@", 1)[-1] or "localhost"
    msg["Message-ID"] = make_msgid(idstring=kind, domain=domain)
    msg[LOOP_HEADER] = kind
    if game is not None:
        msg["In-Reply-To"] = thread_id(game, sender)
        msg["References"] = thread_id(game, sender)
    return msg


def format_deadline(iso: str | None) -> str:
    """A deadline as an absolute time with its zone, plus UTC, e.g.
    ``Mon 07 Dec 2026 18:00 UTC+01:00 (17:00 UTC)``."""
    if not iso:
        return "no deadline is set; the turn is resolved when every seat's orders are in"
    return deadline_text(iso.replace("Z", "+00:00"))
