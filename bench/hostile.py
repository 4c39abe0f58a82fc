"""Hostile mails as an attacker sends them, for the hostile-mail bench row and the campaign.

Each maker returns the raw bytes of one mail. ``sender`` is the From address (a stranger's,
or a seat's registered address, which anyone can forge); ``block`` is a GAME line with a seat's
real password where the attack needs one (an insider, or a stolen password).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from email.utils import format_datetime
from datetime import datetime, timezone

#: The Date of every hostile mail.
DATE = format_datetime(datetime(2026, 1, 5, 12, 0, tzinfo=timezone.utc))


def _head(sender: str, mid: str, subject: str = "orders", extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: gm@pbem.example\r\nSubject: {subject}\r\nDate: {DATE}\r\n"
            f"Message-ID: <{mid}@attack.example>\r\nMIME-Version: 1.0\r\n{extra}").encode()


def nested_mime(sender: str, mid: str, depth: int = 2000) -> bytes:
    """A multipart nested ``depth`` deep (each level one part holding the next)."""
    opening = b"".join(b"Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n" % (i, i)
                       for i in range(depth))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return _head(sender, mid) + opening + b"Content-Type: text/plain\r\n\r\nGAME x y z\r\nEND\r\n" + closing


def many_parts(sender: str, mid: str, parts: int = 5000) -> bytes:
    """A flat multipart of ``parts`` small text parts."""
    body = b"".join(b"--p\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(parts)) + b"--p--\r\n"
    return _head(sender, mid, extra="Content-Type: multipart/mixed; boundary=\"p\"\r\n\r\n") + body


def big_base64(sender: str, mid: str, size: int = 3 * 1024 * 1024, block: str = "") -> bytes:
    """A text/plain body of ``size`` bytes, base64-encoded (order-like lines, a GAME block first)."""
    line = b"MARCH Sachsen Brandenburg 3\n"
    text = (block.encode() + b"\n" if block else b"") + line * (size // len(line)) + (b"END\n" if block else b"")
    encoded = base64.encodebytes(text)
    return _head(sender, mid, extra="Content-Type: text/plain; charset=utf-8\r\n"
                                    "Content-Transfer-Encoding: base64\r\n\r\n") + encoded


def bad_lines(sender: str, mid: str, block: str, lines: int = 20000) -> bytes:
    """One GAME block (``block``: its GAME line) of ``lines`` order lines that mean nothing."""
    body = "\n".join(f"FROB Nowhereville{i} Elsewhere{i} {i}" for i in range(lines))
    return _head(sender, mid, extra="Content-Type: text/plain; charset=utf-8\r\n\r\n") + \
        f"{block}\n{body}\nEND\n".encode()


def wrong_passwords(sender: str, mid: str, game: str, seat: str, blocks: int = 10) -> bytes:
    """``blocks`` GAME blocks for ``game``/``seat`` with wrong passwords."""
    body = "".join(f"GAME {game} {seat} zzzz-zzzz-zz{n:02d}\nBID 1\nEND\n" for n in range(blocks))
    return _head(sender, mid, extra="Content-Type: text/plain; charset=utf-8\r\n\r\n") + body.encode()


def huge_headers(sender: str, mid: str, size: int = 2 * 1024 * 1024) -> bytes:
    """A header block of ``size`` bytes (one folded Subject)."""
    folded = b"Subject: x" + b"\r\n x" * (size // 4)
    return _head(sender, mid, extra="X-Pad: 1\r\n") + folded + b"\r\n\r\nhello\r\n"


def under_limits(sender: str, mid: str, block: str, game: str, seat: str) -> bytes:
    """Just under every limit of :mod:`pbem.mailin.maillimits`: ten GAME blocks of the seat (its real
    password) of as many bad order lines as are read, in a base64 text part of almost the
    largest decoded size, beside 90 small parts, in a mail of almost the largest size."""
    from pbem.mailin import maillimits

    per_block = maillimits.MAX_MAIL_LINES // 10
    blocks = "".join(f"{block}\n" + "\n".join(f"FROB Nowhereville{b}x{i} Elsewhere{i} {i}" for i in range(per_block))
                     + "\nEND\n" for b in range(10))
    lines = maillimits.MAX_TEXT_LINES - 20 - blocks.count("\n")
    pad = max(0, maillimits.MAX_TEXT_BYTES - 2048 - len(blocks)) // max(1, lines)
    text = blocks.encode() + (b"#" * max(0, pad - 1) + b"\n") * lines
    parts = [b"--p\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n"
             + base64.encodebytes(text)]
    parts += [b"--p\r\nContent-Type: text/plain\r\n\r\npart %d\r\n" % i for i in range(90)]
    head = _head(sender, mid, extra="Content-Type: multipart/mixed; boundary=\"p\"\r\n\r\n")
    room = maillimits.MAX_MAIL_BYTES - 4096 - len(head) - sum(map(len, parts))
    parts.append(b"--p\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
                 + base64.encodebytes(b"\0" * (room * 57 // 77)))  # 57 bytes: one base64 line of 77
    return head + b"".join(parts) + b"--p--\r\n"


#: The kinds of hostile mail, by name: ``maker(sender, mid, game, seat, block)``.
KINDS: dict[str, Callable[[str, str, str, str, str], bytes]] = {
    "nested MIME": lambda s, m, g, seat, b: nested_mime(s, m),
    "5,000 parts": lambda s, m, g, seat, b: many_parts(s, m),
    "3 MB base64 body": lambda s, m, g, seat, b: big_base64(s, m, block=b),
    "20,000 bad order lines": lambda s, m, g, seat, b: bad_lines(s, m, b),
    "10 wrong-password GAME blocks": lambda s, m, g, seat, b: wrong_passwords(s, m, g, seat),
    "2 MB of headers": lambda s, m, g, seat, b: huge_headers(s, m),
    "just under every limit": lambda s, m, g, seat, b: under_limits(s, m, b, g, seat),
}
