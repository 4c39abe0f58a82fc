"""Seat passwords and game ids.

Passwords are generated at ``pbem new``, shown once to the GM, mailed to the seat, and
stored only as salted scrypt hashes. They never appear in a reply, a log or any command
output except ``pbem new --json``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re

from pbem.errors import DomainError

_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: easy to copy from a mail
_GAME_ID = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?$")


@functools.cache
def _seat() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")


#: A mail address as pbem accepts it for a seat: ASCII only (what every SMTP server takes
#: without SMTPUTF8), a dot-atom local part and a domain name (``localhost`` too).
_ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"


@functools.cache
def _address() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(rf"^{_ATOM}(?:\.{_ATOM})*@{_LABEL}(?:\.{_LABEL})*$")


@functools.cache
def _control() -> re.Pattern[str]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(r"[\x00-\x1f\x7f-\x9f]")


def new_password() -> str:
    """A fresh password like ``k7mq-2xpd-9rtw`` (about 64 bits)."""
    import secrets  # imported by the commands that make passwords, not by every command

    groups = ["".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(3)]
    return "-".join(groups)


def hash_password(password: str, salt: str | None = None) -> tuple[str, str]:
    """``(salt, hash)`` of ``password`` with scrypt; a new random salt when none is given."""
    if not salt:
        import secrets  # a new salt; checking a password needs none

        salt = secrets.token_hex(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=2**14, r=8, p=1, dklen=32)
    return salt, digest.hex()


def check_password(password: str, salt: str, expected: str) -> bool:
    """True when ``password`` hashes to ``expected`` under ``salt`` (constant-time compare).

    scrypt is slow on purpose; within one process a (password, salt) pair is hashed once
    (an in-memory cache, never written anywhere), so ingesting a mailbox stays fast.
    """
    return hmac.compare_digest(_scrypt_hex(password, salt), expected)


@functools.lru_cache(maxsize=256)
def _scrypt_hex(password: str, salt: str) -> str:
    return hash_password(password, salt)[1]


def check_game_id(game_id: str) -> str:
    """``game_id`` if it is letters, digits and inner hyphens (no path tricks), else an error."""
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise DomainError(f"invalid game id {_short(game_id)}: use letters, digits and hyphens (at most 64)")
    return game_id


def check_seat_name(seat: str) -> str:
    """``seat`` if it is a valid seat name (a letter, then letters, digits, _ or -)."""
    if not isinstance(seat, str) or not _seat().fullmatch(seat):
        raise DomainError(f"invalid seat name {_short(seat)}: start with a letter; letters, digits, _ and - only")
    return seat


def _short(value: object) -> str:
    """``repr`` of a refused name, cut to 40 characters (it may be hostile and long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_address(text: str) -> tuple[str, str]:
    """``(display name, address)`` of a seat's address as the GM wrote it, e.g.
    ``Anna Kovács <Anna@Example.org>`` -> (``Anna Kovács``, ``anna@example.org``).

    The address is normalised (lower case) and must be one plain ASCII address; no part may
    hold a control character (NUL, CR, LF...), so nothing odd ever reaches a mail header or
    ``RCPT TO``. Anything else is a :class:`DomainError` naming the problem.
    """
    shown = text if len(text) <= 80 else text[:79] + "\u2026"
    if _control().search(text):
        raise DomainError(f"address {shown!r} holds a control character (a line break, NUL, ...); "
                          "give one address on one line")
    from email.utils import getaddresses  # the mail package only where an address is read

    pairs = getaddresses([text])
    if len(pairs) != 1:
        raise DomainError(f"{shown!r} is not one mail address: give one address per seat")
    name, address = pairs[0][0].strip(), pairs[0][1].strip()
    if not address.isascii():
        raise DomainError(f"address {shown!r} has non-ASCII characters; give the plain ASCII address "
                          "(an international domain in its xn-- form)")
    if len(address) > 254 or not _address().match(address):
        raise DomainError(f"{shown!r} is not a mail address; write name@example.org or "
                          "'Name <name@example.org>'")
    return name, address.lower()


#: The domain of the address of a seat nobody took (RFC 2606 ``.invalid``: never delivered):
#: a seat of an open game started by a bot (:mod:`pbem.club.lobby`) gets no mail.
BOT_DOMAIN = "bot.pbem.invalid"


def is_bot_address(address: str) -> bool:
    """True for the address of a seat started by a bot (:data:`BOT_DOMAIN`)."""
    return address.strip().lower().endswith("@" + BOT_DOMAIN)
