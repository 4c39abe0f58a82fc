"""What mail in and mail out share: the loop header, the outgoing message and our headers.

:mod:`pbem.mailin` (reading), :mod:`pbem.replies` (answers) and :mod:`pbem.notify`
(welcome mails, reports) all build on this module, and it imports none of them, so the
three never import each other in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid

from pbem.events import Game
from reports.timefmt import deadline_text

#: The header on every mail we send; a mail that comes back with it is never answered.
LOOP_HEADER = "X-PBEM-Loop"


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
    msg = EmailMessage()
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
