"""The club's outgoing mail: short plain-text notices to seats, observers and other addresses.

Every notice is a :class:`pbem.mailout.mailbase.TextOutgoing` queued in the caller's transaction, with
our loop header and ``Auto-Submitted`` (an answer to a mail command) where it answers a mail.
A seat of an open game started by a bot has no player and no address (:data:`BOT_DOMAIN`):
nothing is queued for it.
"""

from __future__ import annotations

from typing import Any

from pbem.store.auth import BOT_DOMAIN, is_bot_address  # noqa: F401 - the club's names for them


def text_mail(game: Any, to: str, subject: str, lines: list[str], sender: str, kind: str,
              answer: bool = False) -> Any:
    """A plain-text message to ``to`` (threaded on ``game`` when given), a
    :class:`pbem.mailout.mailbase.TextOutgoing` (imported here: ``pbem status`` loads no mail package)."""
    from pbem.mailout.mailbase import TextOutgoing, base_headers

    prefix = f"[{game.game_id}] " if game is not None else ""
    headers = base_headers(game, to, prefix + subject, sender, kind)
    if answer:
        headers.append(("Auto-Submitted", "auto-replied"))
    return TextOutgoing(to, prefix + subject, headers, "\n".join(lines).rstrip() + "\n", kind)


def queue(service: Any, game: Any, out: Any, cause_seq: int | None = None) -> None:
    """Queue ``out`` unless it goes to a seat nobody took."""
    from pbem.mailout.notify import queue as put

    put(service.store, game, out, cause_seq=cause_seq)  # nothing for a seat nobody took (is_bot_address)


def tell_seats(service: Any, game: Any, subject: Any, lines: Any, kind: str,
               cause_seq: int | None = None, only: list[str] | None = None) -> None:
    """The same notice to every seat of ``game`` (or ``only`` those), each at its own address
    and in its own language: ``subject`` and ``lines`` may be functions (no arguments) called
    while the seat's language is spoken (:func:`pbem.mailout.mailbase.speaking_to`)."""
    from pbem.mailout.mailbase import speaking_to

    for seat in only if only is not None else list(game.seats):
        with speaking_to(game, seat):
            said = subject() if callable(subject) else subject
            text = lines() if callable(lines) else lines
            out = text_mail(game, game.seats[seat]["email"], said, text, service.sender, kind)
        queue(service, game, out, cause_seq)


def answer(service: Any, game: Any, to: str, subject: str, lines: list[str]) -> None:
    """The answer to a mail command (kind ``command``), to ``to``."""
    queue(service, game, text_mail(game, to, subject, lines, service.sender, "command", answer=True))
