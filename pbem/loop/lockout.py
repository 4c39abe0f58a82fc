"""A seat guessed at too often is locked for mail orders; the player is told how to get back in.

Every GAME block from a seat's registered address whose password is wrong is a guess (a block
from any other address costs no password check at all: :meth:`pbem.loop.service.Service.check_credentials`
checks the sender first). After :data:`LOCK_AFTER` guesses for one seat within
:data:`pbem.mailin.guard.WINDOW` the seat is locked:

- its blocks are refused unread (no password is hashed), as ``refused-locked`` in the guard log;
- the player is mailed, at the registered address only, what happened and how to get back in:
  the mail command ``PASSWORD`` sends a one-time code to that address, and using the code
  (``PASSWORD <game> <seat> <code>``) issues a new password and ends the lock at once; the lock
  also ends by itself after :data:`LOCK_FOR`, or when the GM runs ``pbem seat G S --unlock``;
- the GM is mailed an alert, and ``pbem status`` lists the lock and the guesses.

A forger who writes the player's address into ``From:`` can cause a lock, but never learns
anything from it: every answer goes to the registered address, and the way back in needs that
mailbox. Blocks refused for a lock are answered at most :data:`LOCKED_ANSWERS` times a window.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pbem.mailin import guard
from pbem.store.events import Game
from pbem.mailout.mailbase import Outgoing, address_of, base_message, fold_prose, format_deadline
from pbem.store.db import iso

#: Wrong passwords for one seat (from its registered address) that lock it.
LOCK_AFTER = 10
#: How long a lock lasts unless lifted sooner.
LOCK_FOR = timedelta(hours=24)
#: Answers to blocks refused for a lock, per seat and window (the rest are kept, not answered).
LOCKED_ANSWERS = 3
#: The kind of the mails sent here.
KIND = "command"


def locked_since(store: Any, game_id: str, seat: str) -> str | None:
    """When ``seat`` was locked, if it is locked now (else None)."""
    locked = guard.last(store, [guard.LOCKED], game_id, seat)
    if locked is None or locked < guard.since(store, LOCK_FOR):
        return None
    lifted = guard.last(store, [guard.UNLOCKED, guard.CHANGED], game_id, seat)
    return None if lifted is not None and lifted >= locked else locked


def until(store: Any, game_id: str, seat: str) -> str | None:
    """When the lock of ``seat`` ends by itself (None: not locked)."""
    since = locked_since(store, game_id, seat)
    return iso(guard.parse_time(since) + LOCK_FOR) if since else None


def wrong_password(service: Any, game: Game, seat: str, address: str | None, mail_key: str | None) -> bool:
    """Note a wrong password for ``seat`` from its registered ``address``; lock the seat (and mail
    the player and the GM) when it is the :data:`LOCK_AFTER`-th guess. True when it locked."""
    store = service.store
    guard.note(store, guard.WRONG_PASSWORD, game.game_id, seat, address, "", mail_key)
    start = max([guard.since(store)] + [t for t in [guard.last(
        store, [guard.LOCKED, guard.UNLOCKED, guard.CHANGED], game.game_id, seat)] if t])
    guesses = guard.count(store, [guard.WRONG_PASSWORD], start, game.game_id, seat)
    if guesses < LOCK_AFTER:
        return False
    guard.note(store, guard.LOCKED, game.game_id, seat, address, f"{guesses} wrong passwords", mail_key)
    from pbem.mailout.notify import queue

    queue(store, game, _player_mail(service, game, seat, guesses))
    queue(store, game, _gm_mail(service, game, seat, guesses))
    return True


def refused(service: Any, game: Game, seat: str, address: str | None, mail_key: str | None) -> bool:
    """Note a block refused because ``seat`` is locked; True when it may be answered (the lock
    notice again, to the registered address), False once :data:`LOCKED_ANSWERS` were."""
    store = service.store
    answered = guard.count(store, [guard.REFUSED_LOCKED], guard.since(store), game.game_id, seat,
                           detail="answered")
    detail = "answered" if answered < LOCKED_ANSWERS else "not answered (limit)"
    guard.note(store, guard.REFUSED_LOCKED, game.game_id, seat, address, detail, mail_key)
    return answered < LOCKED_ANSWERS


def unlock(service: Any, game: Game, seat: str) -> bool:
    """The GM lifts the lock of ``seat`` (``pbem seat G S --unlock``); False when it was not locked."""
    if locked_since(service.store, game.game_id, seat) is None:
        return False
    guard.note(service.store, guard.UNLOCKED, game.game_id, seat, None, "by the GM")
    return True


def notice(service: Any, game: Game, seat: str) -> Outgoing:
    """The lock notice to the seat's registered address (also the answer to a refused block)."""
    return _player_mail(service, game, seat, None)


def _player_mail(service: Any, game: Game, seat: str, guesses: int | None) -> Outgoing:
    from pbem.mailout.mailbase import speaking_to

    with speaking_to(game, seat):
        return _player_text(service, game, seat, guesses)


def _player_text(service: Any, game: Game, seat: str, guesses: int | None) -> Outgoing:
    from pbem.mailout.mailbase import wrapped
    from reports.i18n import _, ngettext

    store = service.store
    ends = until(store, game.game_id, seat) or iso(store.clock() + LOCK_FOR)
    what = (ngettext("{n} mail with a wrong password for your seat", "{n} mails with a wrong password for your seat",
                     guesses).format(n=guesses) if guesses else
            _("too many mails with a wrong password for your seat"))
    lines = [
        *wrapped(_("Game {game}, seat {seat}: {what} came in the name of your address within a day, so the seat is "
                   "locked for orders by mail: blocks for it are not read.").format(game=game.game_id, seat=seat,
                                                                                   what=what),
                 _("Your password was not changed. If these mails were not yours, someone may be guessing."),
                 "",
                 _("To get back in at once, mail from this address a mail whose subject or first line is")),
        "",
        f"    PASSWORD {game.game_id} {seat}",
        "",
        *wrapped(_("A one-time code comes back to this address; send it as told in that mail and you get a new "
                   "password, which ends the lock. Otherwise the lock ends by itself on {when}, or when the game "
                   "master lifts it. The game master has been told.").format(when=format_deadline(ends))),
    ]
    to = game.seats[seat]["email"]
    msg = base_message(game, to, _("[{game}] seat {seat} locked for mail orders").format(game=game.game_id, seat=seat),
                       service.sender, KIND)
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, KIND)


def _gm_mail(service: Any, game: Game, seat: str, guesses: int) -> Outgoing:
    to = address_of(service.sender)
    lines = [
        f"Game {game.game_id}, seat {seat}: {guesses} GAME blocks with a wrong password came from the seat's",
        "registered address within a day, so the seat is locked for mail orders. The player was mailed",
        "how to get back in (a password reset code to the registered address).",
        "",
        f"Lift the lock: pbem seat {game.game_id} {seat} --unlock   (pbem status {game.game_id} lists the guesses)",
    ]
    msg = base_message(game, to, f"[{game.game_id}] mail guard: seat {seat} locked", service.sender, "guard")
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, "guard")
