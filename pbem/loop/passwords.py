"""A seat's new password by mail, always with proof.

Anyone can write a player's address into ``From:``, so a mail alone proves nothing. A new
password is issued only to whoever shows one of these:

- the current password: a ``GAME`` block whose one line is ``PASSWORD``
  (``GAME w1 red <password>`` / ``PASSWORD`` / ``END``), from the seat's registered address
  like any order block; the new password goes to the registered address and the old one
  stops working at once;
- a one-time code, for a player who lost the password: the mail command ``PASSWORD``
  (subject or first line, as the other mail commands) mails a code to the seat's registered
  address and changes nothing: the old password keeps working. ``PASSWORD <code>`` (or
  ``PASSWORD <game> <seat> <code>``) within :data:`CODE_LIFETIME` then issues the new
  password in a welcome mail, and the old one stops working. A forged ``PASSWORD`` mail
  thus only makes the real player receive a code they can ignore.

Each of these is limited per seat (:data:`CODES_PER_WINDOW` codes and :data:`CHANGES_PER_WINDOW`
new passwords in :data:`pbem.mailin.guard.WINDOW`, :data:`WRONG_CODE_ANSWERS` answers to wrong
codes), and each is noted in the guard log, which ``pbem status`` and ``pbem ingest`` show
the GM. Codes are kept only as salted HMAC-SHA256 hashes (a code carries as many random bits
as a password and lives a day, so a slow hash buys nothing) and are used once.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
from datetime import timedelta
from typing import Any

from pbem.mailin import guard
from pbem.store.auth import new_password
from pbem.store.events import Game
from pbem.mailout.mailbase import Outgoing, base_message, fold_prose, format_deadline, wrapped
from reports.i18n import _
from pbem.store.db import iso

CODE_LIFETIME = timedelta(hours=24)
CODES_PER_WINDOW = 3
CHANGES_PER_WINDOW = 3
WRONG_CODE_ANSWERS = 3


#: A code as :func:`pbem.store.auth.new_password` makes it (``k7mq-2xpd-9rtw``).
@functools.cache
def _code() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$", re.IGNORECASE)


KIND = "command"


def is_code(word: str) -> bool:
    """True when ``word`` has the shape of a reset code."""
    return bool(_code().match(word))


def is_password_block(body: str) -> bool:
    """True when a GAME block's one order line is ``PASSWORD`` (comments and blank lines aside)."""
    lines = [line.split("#", 1)[0].strip() for line in body.split("\n")]
    words = [line.upper() for line in lines if line]
    return words in (["PASSWORD"], ["NEW PASSWORD"])


def change(service: Any, game: Game, seat: str, how: str, address: str | None, mail_key: str | None) -> tuple[bool, str]:
    """Mail ``seat`` a new password (the old one stops working at once), unless the seat had
    :data:`CHANGES_PER_WINDOW` new passwords in the window. ``(done, what to tell the player)``."""
    store = service.store
    done = guard.count(store, [guard.CHANGED], guard.since(store), game.game_id, seat)
    if done >= CHANGES_PER_WINDOW:
        guard.note(store, guard.LIMITED, game.game_id, seat, address, "PASSWORD", mail_key)
        return False, _("not changed: this seat got {n} new passwords in the last 24 hours, the most we issue; "
                        "your password is unchanged. Try again tomorrow, or ask the GM.").format(n=done)
    service.change_seat(game.game_id, seat, None, (), reset_password=True)
    store.conn.execute("update reset_codes set used_at = ? where game_id = ? and seat = ? and used_at is null",
                       [store.now(), game.game_id, seat])  # any code still open is spent too
    guard.note(store, guard.CHANGED, game.game_id, seat, address, how, mail_key)
    return True, _("a new password was mailed to your registered address ({address}); the old one no longer "
                   "works.").format(address=game.seats[seat]["email"])


def request_code(service: Any, game: Game, seat: str, address: str | None, mail_key: str | None) -> str:
    """Mail a one-time reset code to ``seat``'s registered address (nothing else changes), unless
    :data:`CODES_PER_WINDOW` were mailed in the window. Returns the GM's note."""
    store = service.store
    sent = guard.count(store, [guard.CODE], guard.since(store), game.game_id, seat)
    if sent >= CODES_PER_WINDOW:
        guard.note(store, guard.LIMITED, game.game_id, seat, address, "PASSWORD", mail_key)
        return f"PASSWORD {game.game_id} {seat}: not answered ({sent} reset codes mailed in 24 hours, the most)"
    code = new_password()
    salt = _salt()
    expires = iso(store.clock() + CODE_LIFETIME)
    store.conn.execute(
        "insert into reset_codes (game_id, seat, address, salt, code_hash, created_at, expires_at) "
        "values (?, ?, ?, ?, ?, ?, ?)", [game.game_id, seat, address, salt, _digest(code, salt), store.now(), expires])
    guard.note(store, guard.CODE, game.game_id, seat, address, "", mail_key)
    from pbem.mailout.notify import queue

    queue(store, game, _code_mail(game, seat, code, expires, service.sender))
    return f"PASSWORD {game.game_id} {seat}: one-time reset code mailed to the seat's address; password unchanged"


def redeem(service: Any, game: Game, seat: str, code: str, address: str | None, mail_key: str | None) -> str:
    """A new password for ``seat`` if ``code`` is one of its open reset codes; else a short
    answer (at most :data:`WRONG_CODE_ANSWERS` in the window). Returns the GM's note."""
    store = service.store
    now = store.now()
    rows = store.conn.execute(
        "select id, salt, code_hash from reset_codes where game_id = ? and seat = ? and used_at is null "
        "and expires_at > ?", [game.game_id, seat, now]).fetchall()
    found = next((row[0] for row in rows if hmac.compare_digest(_digest(code.lower(), row[1]), row[2])), None)
    if found is None:
        wrong = guard.count(store, [guard.WRONG_CODE], guard.since(store), game.game_id, seat)
        guard.note(store, guard.WRONG_CODE, game.game_id, seat, address, "", mail_key)
        if wrong >= WRONG_CODE_ANSWERS:
            return f"PASSWORD {game.game_id} {seat}: wrong or expired reset code; not answered (limit)"
        _answer(service, game, seat, _("your password was not changed"), [
            *wrapped(_("Game {game}, seat {seat}: that reset code is not valid (wrong, used, or older than {hours} "
                       "hours), so your password was not changed and still works.").format(
                game=game.game_id, seat=seat, hours=int(CODE_LIFETIME.total_seconds() // 3600))),
            "", _("Mail PASSWORD for a new code; it goes to this address.")])
        return f"PASSWORD {game.game_id} {seat}: wrong or expired reset code"
    store.conn.execute("update reset_codes set used_at = ? where id = ?", [now, found])
    done, text = change(service, game, seat, "reset code", address, mail_key)
    if not done:
        _answer(service, game, seat, _("your password was not changed"),
                wrapped(_("Game {game}, seat {seat}: {text}").format(game=game.game_id, seat=seat, text=text)))
        return f"PASSWORD {game.game_id} {seat}: reset code used, but not changed (limit)"
    return f"PASSWORD {game.game_id} {seat}: reset code used; new password mailed, the old one stops working"


def _code_mail(game: Game, seat: str, code: str, expires: str, sender: str) -> Outgoing:
    """The mail carrying a reset code to the seat's registered address."""
    to = game.seats[seat]["email"]
    lines = [
        *wrapped(_("Someone asked for a new password for your seat {seat} in game {game}, in a mail sent in the name "
                   "of your address. If that was you, send a mail from this address whose subject or first line "
                   "is:").format(seat=seat, game=game.game_id)),
        "",
        f"    PASSWORD {game.game_id} {seat} {code}",
        "",
        *wrapped(_("and a new password comes back in a welcome mail. The code works once, until {when}.").format(
            when=format_deadline(expires)),
                 "",
                 _("Your current password keeps working until the code is used. If you did not ask for this, ignore "
                   "this mail: nothing changes, and the game master has been told of the request.")),
    ]
    msg = base_message(game, to, _("[{game}] password reset code for {seat}").format(game=game.game_id, seat=seat),
                       sender, KIND)
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    return Outgoing(to, msg["Subject"], msg, KIND)


def _answer(service: Any, game: Game, seat: str, subject: str, lines: list[str]) -> None:
    """A short answer to the seat's registered address."""
    from pbem.mailout.notify import queue

    to = game.seats[seat]["email"]
    msg = base_message(game, to, f"[{game.game_id}] {subject}", service.sender, KIND)
    msg["Auto-Submitted"] = "auto-replied"
    msg.set_content("\n".join(fold_prose(lines)) + "\n")
    queue(service.store, game, Outgoing(to, msg["Subject"], msg, KIND))


def _salt() -> str:
    import secrets

    return secrets.token_hex(16)


def _digest(code: str, salt: str) -> str:
    return hmac.new(bytes.fromhex(salt), code.lower().encode("utf-8"), hashlib.sha256).hexdigest()
