"""Reading a PNG's size from its header (IHDR), for tests."""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG; raises AssertionError if the header is not a valid IHDR."""
    assert data[:8] == SIGNATURE, "not a PNG signature"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13, "first chunk is not IHDR"
    body = data[16:29]
    (crc,) = struct.unpack(">I", data[29:33])
    assert zlib.crc32(b"IHDR" + body) == crc, "IHDR checksum mismatch"
    width, height = struct.unpack(">II", body[:8])
    return width, height


def png_text_chunks(data: bytes) -> list[bytes]:
    """Keys of the tEXt/iTXt/zTXt chunks and any tIME chunk (metadata that must not vary)."""
    found, pos = [], 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind in (b"tEXt", b"iTXt", b"zTXt"):
            found.append(data[pos + 8:pos + 8 + length].split(b"\0", 1)[0])
        elif kind == b"tIME":
            found.append(b"tIME")
        pos += 12 + length
    return found
