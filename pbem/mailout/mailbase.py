"""What mail in and mail out share: the loop header, the outgoing message and our headers.

:mod:`pbem.mailin.parse` (reading), :mod:`pbem.mailout.replies` (answers) and :mod:`pbem.mailout.notify`
(welcome mails, reports) all build on this module, and it imports none of them, so the
three never import each other in a circle.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid, parseaddr
from functools import lru_cache
from typing import Any

from pbem.store.events import Game
from pbem.store.mailmime import MAIL_POLICY, text_message, with_headers
from reports.timefmt import deadline_text

__all__ = ["LOOP_HEADER", "MAIL_POLICY", "Outgoing", "TextOutgoing", "address_of", "base_headers",
           "base_message", "domain_of", "format_deadline", "text_message", "thread_id", "with_headers"]

#: The width of a mail's prose, in characters (an accented letter is one): lines of orders,
#: problems quoted from the player and addresses are kept whole.
WIDTH = 72
#: The header on every mail we send; a mail that comes back with it is never answered.
LOOP_HEADER = "X-PBEM-Loop"


@dataclass
class Outgoing:
    """One message to queue: recipient, subject, the message and its kind."""

    to: str
    subject: str
    message: EmailMessage
    kind: str


@lru_cache(maxsize=64)
def address_of(header: str) -> str:
    """The bare address of a From/To value: ``Club GM <gm@example.org>`` ->
    ``gm@example.org`` (the GM guide writes the sender so); a bare address as it is."""
    address = parseaddr(header)[1].strip()
    return address if "@" in address else header.strip()


def domain_of(header: str) -> str:
    """The domain of the address of ``header`` (for our Message-IDs), ``localhost`` if none."""
    return address_of(header).rsplit("@", 1)[-1] if "@" in address_of(header) else "localhost"


def thread_id(game: Game, sender: str) -> str:
    """The Message-ID every mail of a game refers to (threading per game)."""
    return f"<game.{game.game_id}@{domain_of(sender)}>"


def base_headers(game: Game | None, to: str, subject: str, sender: str, kind: str) -> list[tuple[str, str]]:
    """Our headers of a new message, in order: From/To/Subject, a new Message-ID, the loop
    header, threading on the game."""
    domain = domain_of(sender)
    headers = [("From", sender), ("To", to), ("Subject", subject),
               ("Message-ID", make_msgid(idstring=kind, domain=domain)), (LOOP_HEADER, kind)]
    if game is not None:
        headers += [("In-Reply-To", thread_id(game, sender)), ("References", thread_id(game, sender))]
    return headers + language_headers()


def language_headers() -> list[tuple[str, str]]:
    """``Content-Language`` (RFC 3282) of a mail written inside :func:`speaking_to` (or
    :func:`reports.i18n.speaking`): the reader's language; none outside."""
    from reports.i18n import speaking_now

    code = speaking_now()
    return [("Content-Language", code)] if code else []


def speaking_to(game: Game | None, seat: str | None) -> Any:
    """Write in ``seat``'s language inside the block (the game's default for the GM and the
    public; English without a game): every text, subject, date and number of a mail built in
    it, and its ``Content-Language`` header."""
    from pbem.mailout.languages import seat_language
    from reports.i18n import speaking

    if game is None:
        return speaking(None)
    return speaking(seat_language(game, seat or ""))


def base_message(game: Game | None, to: str, subject: str, sender: str, kind: str) -> EmailMessage:
    """A message with our headers: From/To/Subject, Message-ID, loop header, threading."""
    return with_headers(base_headers(game, to, subject, sender, kind))


@dataclass
class TextOutgoing:
    """A plain-text message to queue, kept as its headers and text (see
    :func:`pbem.store.mailpack.pack_text`): the MIME message is built when it is read or sent
    (:attr:`message`, the same bytes every time), not when it is queued."""

    to: str
    subject: str
    headers: list[tuple[str, str]]
    body: str
    kind: str

    @property
    def message(self) -> EmailMessage:
        """The message as it will be sent."""
        return text_message(self.headers, self.body)

    @property
    def message_id(self) -> str:
        """Its Message-ID header."""
        return next(value for name, value in self.headers if name.lower() == "message-id")


def wrapped(*texts: str, width: int = WIDTH) -> list[str]:
    """Each of ``texts`` wrapped at ``width`` columns counted in characters (an accented letter
    is one); an empty text is an empty line."""
    import textwrap

    out: list[str] = []
    for text in texts:
        out.extend(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""])
    return out


def fold_prose(lines: list[str], width: int = WIDTH) -> list[str]:
    """Prose lines longer than ``width`` (counted in characters: an accented letter is one)
    folded at their spaces, as a mail line should be. Indented lines (order examples, lists,
    tables) and a block's GAME and TURN lines are kept whole: a player copies them as they are."""
    import textwrap

    out: list[str] = []
    for line in lines:
        if len(line) <= width or line[:1].isspace() or "\n" in line or line.startswith(("GAME ", "TURN ")):
            out.append(line)
        else:
            out.extend(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False))
    return out


def format_deadline(iso: str | None) -> str:
    """A deadline as an absolute time with its zone, plus UTC, e.g.
    ``Mon 07 Dec 2026 18:00 UTC+01:00 (17:00 UTC)``, in the current language."""
    from reports.i18n import _

    if not iso:
        return _("no deadline is set; the turn is resolved when every seat's orders are in")
    return deadline_text(iso.replace("Z", "+00:00"))


def turn_words(game: Game, turn: str, after: bool = False) -> str:
    """``turn`` of ``game`` in the game's words for a subject or a sentence (``round 1,
    starting estates``; the label itself stays in the mail where a TURN line needs it)."""
    from reports.gamenames import turn_name

    return turn_name(game.engine.name, turn, _PublicView(game), after=after)


class _PublicView(Mapping[str, Any]):
    """The public view of ``game``'s state, made when a game's turn names first read it (a
    label alone names most turns: the view is then never built)."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self._view: Mapping[str, Any] | None = None

    def _made(self) -> Mapping[str, Any]:
        if self._view is None:
            from adjudicator.base import PUBLIC

            view = self._game.engine.view(self._game.state, PUBLIC)
            self._view = view if isinstance(view, Mapping) else {}
        return self._view

    def __bool__(self) -> bool:  # ``view or {}`` reads the same either way: no need to build it
        return True

    def __getitem__(self, key: str) -> Any:
        return self._made()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())
