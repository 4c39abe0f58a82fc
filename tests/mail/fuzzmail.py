"""Hostile and malformed mails for the ingest fuzz test, generated from a seed.

Two families: mails generated from pieces (hostile header lines, odd MIME structures,
random bytes) and real fixtures mutated (bytes flipped, inserted, deleted, truncated,
spliced, a hostile header injected). Everything comes from one :class:`random.Random`,
so a failing case is re-made from its seed and index (:func:`make`).
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.mail.conftest import FIXTURES, PASSWORDS

#: Header lines that broke, or could break, a mail parser or the store.
HOSTILE_HEADERS = [
    b"Message-ID: <>\xff\n",
    b"Message-ID: <\xc3\x28@x>\n",
    b"Message-ID: \x00\n",
    b"Message-ID: <" + b"a" * 5000 + b"@x>\n",
    b"Message-ID:\n",
    b"From: \xff\xfe@example.org\n",
    b"From: ben@example.org\x00evil\n",
    b"From: =?utf-8?b?/w==?= <ben@example.org>\n",
    b"From: =?x-unknown?q?=FF?= <ben@example.org>\n",
    b"From: <>\n",
    b"From: \"\\\" <@>\n",
    b"From: a@b, c@d, " + b"e@f, " * 200 + b"\n",
    b"Subject: =?utf-8?q?=E9=ZZ?=\n",
    b"Subject: \xe9\xe8\n",
    b"Subject: " + b"GAME duel blue " + PASSWORDS["blue"].encode() + b"\n",
    b"Date: Mon, 99 Foo 99999 99:99:99 +9999\n",
    b"Date: \xff\n",
    b"References: <" + b"<>" * 500 + b">\n",
    b"Content-Type: multipart/mixed\n",
    b"Content-Type: multipart/mixed; boundary=\"\"\n",
    b"Content-Type: text/plain; charset=\"\xff\"\n",
    b"Content-Type: text/plain; charset=utf-7\n",
    b"Content-Type: text/plain; charset=bogus-42\n",
    b"Content-Type: message/rfc822\n",
    b"Content-Transfer-Encoding: base64\n",
    b"Content-Transfer-Encoding: quoted-printable\n",
    b"Content-Transfer-Encoding: x-uuencode\n",
    b"Content-Disposition: attachment; filename*=utf-8''%FF%FE\n",
    b"Auto-Submitted: \xff\n",
    b"X-PBEM-Loop: \x00\n",
    b"Received: from x by y; " + b"x" * 3000 + b"\n",
    b"\tfolded continuation without a header\n",
    b": no name\n",
    b"Name With Space: value\n",
]

BODY_LINES = [
    b"GAME duel blue " + PASSWORDS["blue"].encode() + b"\n", b"GAME duel red " + PASSWORDS["red"].encode() + b"\n",
    b"GAME duel blue\n", b"GAME duel " + PASSWORDS["blue"].encode() + b"\n", b"GAME " + b"x" * 2000 + b" a b\n",
    b"BID 1\n", b"BID 2\n", b"BID \xff\n", b"TURN round-1\n", b"TURN round-9\n", b"END\n", b"> GAME duel blue x\n",
    b"-- \n", b"\x00\x00\n", b"=\n", b"=FF=FE\n", b"\xe9t\xe9\n", b"\r\n", b"\r", b"--x\n", b"--x--\n",
    b"<html><body><p>GAME duel blue x</p>", b"\n",
    # press: headers, recipients and text of every shape
    b"PRESS TO red\n", b"PRESS TO ALL\n", b"PRESS TO red, green, purple\n", b"PRESS\n", b"press to \xff\n",
    b"PRESS TO " + b"red," * 400 + b"\n", b"PRESS TO blue\n", b"Bcc: all@example.org\r\nSubject: injected\n",
    b"x" * 9000 + b"\n", b"End of story\n", b"PRESS TO ALL\nhello\nEND\n",
]


def fixtures() -> list[bytes]:
    """The checked-in mail fixtures (the seeds of the mutations)."""
    return [p.read_bytes() for p in sorted(Path(FIXTURES).glob("*.eml"))]


def nested(depth: int, kind: str = "multipart") -> bytes:
    """A mail with MIME parts nested ``depth`` deep (multiparts or forwarded messages)."""
    head = b"From: ben@example.org\nMessage-ID: <deep-%d-%s@x>\nSubject: deep\n" % (depth, kind.encode())
    if kind == "rfc822":
        inner = b"Content-Type: text/plain\n\nGAME duel blue x\nEND\n"
        for _ in range(depth):
            inner = b"Content-Type: message/rfc822\n\n" + inner
        return head + inner
    out = b"Content-Type: text/plain\n\nGAME duel blue x\nEND\n"
    for n in range(depth):
        out = b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n%s\n--b%d--\n" % (n, n, out, n)
    return head + out


def generated(rng: random.Random) -> bytes:
    """A mail made of random hostile header lines and body lines (or pure noise)."""
    roll = rng.random()
    if roll < 0.08:
        return rng.randbytes(rng.randrange(0, 600))
    if roll < 0.12:
        return nested(rng.choice([50, 200, 1000]), rng.choice(["multipart", "rfc822"]))
    heads = [b"From: ben@example.org\n", b"Message-ID: <g%d@x>\n" % rng.randrange(10**9)]
    heads += rng.choices(HOSTILE_HEADERS, k=rng.randrange(0, 5))
    rng.shuffle(heads)
    body = b"".join(rng.choices(BODY_LINES, k=rng.randrange(0, 12)))
    if rng.random() < 0.3:
        body += rng.randbytes(rng.randrange(0, 80))
    return b"".join(heads) + b"\n" + body


def mutated(rng: random.Random, seeds: list[bytes]) -> bytes:
    """A fixture changed by one to three random edits."""
    data = bytearray(rng.choice(seeds))
    for _ in range(rng.randrange(1, 4)):
        pos = rng.randrange(len(data) + 1)
        edit = rng.randrange(7)
        if edit == 0 and data:  # flip bytes
            for _ in range(rng.randrange(1, 8)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif edit == 1:  # insert noise
            data[pos:pos] = rng.randbytes(rng.randrange(1, 40))
        elif edit == 2:  # delete a range
            del data[pos:pos + rng.randrange(1, 200)]
        elif edit == 3:  # truncate
            del data[pos:]
        elif edit == 4:  # inject a hostile header at the top
            data[0:0] = rng.choice(HOSTILE_HEADERS)
        elif edit == 5:  # splice in a piece of another fixture
            other = rng.choice(seeds)
            start = rng.randrange(len(other))
            data[pos:pos] = other[start:start + rng.randrange(1, 400)]
        else:  # line endings changed
            data = bytearray(bytes(data).replace(b"\n", rng.choice([b"\r\n", b"\r", b"\n\n", b"\x00\n"])))
    return bytes(data)


def make(seed: int, count: int) -> list[bytes]:
    """``count`` fuzzed mails from ``seed`` (half generated, half mutated fixtures)."""
    rng = random.Random(seed)
    seeds = fixtures()
    return [generated(rng) if rng.random() < 0.5 else mutated(rng, seeds) for _ in range(count)]
