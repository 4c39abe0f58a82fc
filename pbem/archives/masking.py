"""Passwords masked out of raw order mails before they leave the GM's database in an export.

A raw order mail carries its seat's password on the GAME line. An export
keeps each mail byte for byte except that every password candidate — each word after the
game id on a GAME line that is not a seat name, and the part after ``:`` of ``seat:pw`` —
is replaced by asterisks of the same length. The archive keeps the SHA-256 of the original
mail (the one its ``OrdersSubmitted`` event names), so whoever holds the original can
still prove it is the mail that was played, and the SHA-256 of the masked bytes.

A mail that carries press (``PRESS TO ...`` ... ``END`` in a block) as well as
orders has its press masked too, line by line (the PRESS line and its text; its END
stays): press is private to its sender, its recipients and the GM, in archives always.

A published archive masks every mail address too (the headers' From, To, Cc... and any address
in the text; message ids are kept): a published file holds no seat address
(:mod:`pbem.archives.withhold`). A GM's backup keeps them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from pbem.mailin.parse import parse_mail
from pbem.archives.withhold import mask_addresses as _mask_addresses
from turns.envelope import parse_blocks

_GAME_LINE = re.compile(r"(?im)^[ \t>]*GAME[ \t]+\S+[ \t]+(.+)$")


def password_candidates(text: str, seats: Iterable[str]) -> set[str]:
    """Every word of ``text`` that could be a password: the words after ``GAME <id>``."""
    names = {s.lower() for s in seats}
    found: set[str] = set()
    for match in _GAME_LINE.finditer(text):
        for word in match.group(1).split():
            for piece in (word, *word.split(":")[1:]):
                if piece and piece.lower() not in names and piece.upper() != "END":
                    found.add(piece)
    return found


def mask_mail(raw: bytes, seats: Iterable[str], addresses: Iterable[str] | None = None) -> bytes:
    """``raw`` with every password candidate masked, and unless ``addresses`` is None (a GM's
    backup) every mail address (``addresses``: the seats' and senders', masked wherever they
    are; any other is masked but in message-id headers, :func:`pbem.archives.withhold.mask_addresses`);
    a mail whose body is encoded (base64, quoted-printable) so that a candidate is not found
    literally is replaced by its header and decoded text, masked."""
    seats = list(seats)
    mask_addresses = _no_mask if addresses is None else functools.partial(_mask_addresses, known=list(addresses))
    try:
        text = parse_mail(raw).text or ""
    except Exception:  # noqa: BLE001 - a mail the parser chokes on: mask what is literally there
        text = raw.decode("utf-8", "replace")
    literal = raw.decode("utf-8", "surrogateescape")
    words = password_candidates(text, seats) | password_candidates(literal, seats)
    masked = mask_addresses(literal)
    for word in sorted(words, key=len, reverse=True):
        masked = masked.replace(word, "*" * len(word))
    out = masked.encode("utf-8", "surrogateescape")
    text = mask_addresses(text)
    press = press_lines(text)
    if press:  # the press lines masked in the decoded text: the body is written from it
        head = mask_addresses(literal.split("\r\n\r\n", 1)[0].split("\n\n", 1)[0])
        lines = text.split("\n")
        body = "\n".join("*" * len(line) if n in press else line for n, line in enumerate(lines, 1))
        for word in sorted(words, key=len, reverse=True):
            body = body.replace(word, "*" * len(word))
            head = head.replace(word, "*" * len(word))
        return (_plain_head(head) + "\r\n\r\n" + body).encode("utf-8", "surrogateescape")
    decoded = _decoded(out)
    if any(w.encode("utf-8") in out for w in words) or any(w in decoded for w in words) \
            or mask_addresses(decoded) != decoded:
        head = mask_addresses(literal.split("\r\n\r\n", 1)[0].split("\n\n", 1)[0])
        body = text
        for word in sorted(words, key=len, reverse=True):
            body = body.replace(word, "*" * len(word))
            head = head.replace(word, "*" * len(word))
        out = (_plain_head(head) + "\r\n\r\n" + body).encode("utf-8", "surrogateescape")
    return out


def press_lines(text: str) -> set[int]:
    """The line numbers of ``text`` that hold press: each PRESS line and its text (to its
    END, or to the end of the text when it has none)."""
    found: set[int] = set()
    last = len(text.split("\n"))
    for block in parse_blocks(text).blocks:
        for press in block.press:
            found |= set(range(press.line, (press.end_line or last + 1)))
    return found


def _decoded(raw: bytes) -> str:
    try:
        return parse_mail(raw).text or ""
    except Exception:  # noqa: BLE001
        return ""


def _plain_head(head: str) -> str:
    keep = [line for line in head.splitlines()
            if not line.lower().startswith(("content-transfer-encoding:", "content-type:"))]
    return "\r\n".join([*keep, "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: 8bit",
                        "X-Pbem-Masked: the body was re-written from its decoded text"])


def _no_mask(text: str) -> str:
    """A GM's backup keeps the addresses."""
    return text
