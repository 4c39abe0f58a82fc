"""Outbox messages stored small: each picture once, the rest compressed, sent byte for byte.

A plain-text message (a reply to an order mail) is stored as its headers and text
(:func:`pack_text`) and built with the email package when it is read (:func:`unpack`):
building and serialising it costs more than ingesting the mail it answers.

A season's reports carry the same map and chart in every viewer's mail. The outbox keeps
each message exactly as it will be sent, but not verbatim: every base64 picture part's body
is replaced by a reference to a row of the ``blobs`` table (content-addressed by the
SHA-256 of the picture's bytes, so a picture is stored once however many messages carry
it), and the rest of the message is zlib-compressed. :func:`unpack` rebuilds the exact
bytes; :func:`pack` checks that before it keeps the packed form, and keeps the message
verbatim when a message would not come back identical (nothing is ever lost or altered).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import re
import zlib
from typing import Any

#: The prefix of a packed message (a stored message without it is kept verbatim).
MAGIC = b"pbem-packed-1\n"
#: The prefix of a message stored as headers and text (JSON after it: see :func:`pack_text`).
TEXT_MAGIC = b"pbem-text-1\n"


#: A picture's body in a packed message: ``\0blob <sha256> <line length>\0``.
@functools.cache
def _ref() -> re.Pattern[bytes]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(rb"\x00blob ([0-9a-f]{64}) (\d+)\x00")


#: Parts smaller than this stay in the message (a reference would not save anything).
MIN_BLOB = 1024


def encode_base64(data: bytes, line_length: int) -> str:
    """``data`` in base64 lines of ``line_length`` characters, each ending in a newline
    (the form the stdlib ``email`` package writes a binary part's body in)."""
    key = (data, line_length)
    text = _ENCODED.get(key)
    if text is None:
        step = line_length // 4 * 3
        text = "".join(binascii.b2a_base64(data[i:i + step]).decode("ascii") for i in range(0, len(data), step))
        if len(_ENCODED) >= 8:
            _ENCODED.clear()
        _ENCODED[key] = text
    return text


#: The last pictures encoded: a season's map and chart are encoded for every viewer's mail,
#: twice each (checking the body found, checking the rebuilt message).
_ENCODED: dict[tuple[bytes, int], str] = {}


def pack(db: Any, message: bytes) -> bytes:
    """The stored form of ``message``: its pictures put in ``blobs`` (inside the caller's
    transaction), the rest compressed. Falls back to ``message`` itself when the packed form
    would not unpack to exactly ``message``."""
    skeleton, blobs = message, {}
    for body, raw, length in _pictures(message):
        digest = hashlib.sha256(raw).hexdigest()
        if skeleton.count(body) != 1:
            continue
        skeleton = skeleton.replace(body, b"\x00blob %s %d\x00" % (digest.encode("ascii"), length))
        blobs[digest] = raw
    packed = MAGIC + zlib.compress(skeleton, 6)
    if _rebuild(skeleton, blobs.get) != message:
        return message
    for digest, raw in blobs.items():
        db.execute("insert or ignore into blobs (sha256, data) values (?, ?)", [digest, raw])
    return packed


def pack_text(headers: list[tuple[str, str]], body: str) -> bytes:
    """The stored form of the text/plain message with ``headers`` (in order) and ``body``
    (:func:`pbem.store.mailmime.text_message`): everything needed to build exactly that message."""
    return TEXT_MAGIC + json.dumps({"headers": headers, "body": body}, ensure_ascii=False).encode("utf-8")


def unpack(db: Any, stored: bytes) -> bytes:
    """The message exactly as queued, from its stored form (text, packed or verbatim)."""
    if stored.startswith(TEXT_MAGIC):
        from pbem.store.mailmime import text_message

        parts = json.loads(stored[len(TEXT_MAGIC):].decode("utf-8"))
        return bytes(text_message([(name, value) for name, value in parts["headers"]], parts["body"]))
    if not stored.startswith(MAGIC):
        return stored
    skeleton = zlib.decompress(stored[len(MAGIC):])

    def blob(digest: str) -> bytes | None:
        row = db.execute("select data from blobs where sha256 = ?", [digest]).fetchone()
        return None if row is None else bytes(row[0])

    return _rebuild(skeleton, blob)


def unpack_row(db: Any, row: dict[str, Any]) -> dict[str, Any]:
    """An outbox row with its ``message`` as queued."""
    if isinstance(row.get("message"), (bytes, bytearray)):
        row["message"] = unpack(db, bytes(row["message"]))
    return row


def _rebuild(skeleton: bytes, blob: Any) -> bytes:
    def body(match: re.Match[bytes]) -> bytes:
        raw = blob(match.group(1).decode("ascii"))
        if raw is None:
            raise LookupError(f"outbox picture {match.group(1).decode('ascii')} is missing from the blobs table")
        return encode_base64(raw, int(match.group(2))).encode("ascii")

    return _ref().sub(body, skeleton)


#: A base64 body as the stdlib writes it: after a part's headers (one of them naming base64)
#: and a blank line, lines of base64 up to the next boundary line.
@functools.cache
def _base64_body() -> re.Pattern[bytes]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(rb"^Content-Transfer-Encoding: base64\n(?:[^\n]+\n)*?\n((?:[A-Za-z0-9+/=]+\n)+)",
                      re.MULTILINE | re.IGNORECASE)


def _pictures(message: bytes) -> list[tuple[bytes, bytes, int]]:
    """``(body as written, decoded bytes, line length)`` of each base64 part body large
    enough to be worth a blob (found without parsing the whole message; :func:`pack` checks
    that the message rebuilds exactly before keeping the packed form)."""
    out = []
    for body in _base64_bodies(message):
        if len(body) < MIN_BLOB:
            continue
        try:
            raw = base64.b64decode(body, validate=False)
        except (binascii.Error, ValueError):
            continue
        length = body.index(b"\n")
        if length % 4 or encode_base64(raw, length).encode("ascii") != body:
            continue
        out.append((body, raw, length))
    return out


#: The header of a base64 part and the rest of its headers (:func:`_base64_body` without the body).
@functools.cache
def _base64_headers() -> re.Pattern[bytes]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(rb"^Content-Transfer-Encoding: base64\n(?:[^\n]+\n)*?\n", re.MULTILINE | re.IGNORECASE)


#: The body of :func:`_base64_body`.
@functools.cache
def _base64_lines() -> re.Pattern[bytes]:
    """Compiled when first used (a mail hook's one-mail process may never need it)."""
    return re.compile(rb"(?:[A-Za-z0-9+/=]+\n)+")


_BASE64_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n"


def _base64_bodies(message: bytes) -> list[bytes]:
    """The bodies ``_base64_body().finditer(message)`` finds (group 1), found faster: a body
    runs to the first blank line when everything before it is base64 (checked at C speed),
    and the regular expression decides the other cases (matching a season report's
    pictures line by line was a third of packing it)."""
    out, pos = [], 0
    while (head := _base64_headers().search(message, pos)) is not None:
        start = head.end()
        blank = message.find(b"\n\n", start)
        first_line_empty = message[start:start + 1] == b"\n"
        if blank > start and not first_line_empty and not message[start:blank + 1].translate(None, _BASE64_CHARS):
            end = blank + 1  # lines of base64 (none empty: the first blank line ends them)
        else:
            lines = _base64_lines().match(message, start)
            if lines is None:  # no body here: search on from the next character, as finditer does
                pos = head.start() + 1
                continue
            end = lines.end()
        out.append(message[start:end])
        pos = end
    return out
