"""Undeclared or mislabelled 8-bit text: valid UTF-8 is read as UTF-8,
anything else in the declared charset, else as Latin-1."""

from __future__ import annotations

import pytest

from pbem.mailin.parse import parse_mail, read_path

HEADS = {
    "none": b"",
    "no charset": b"Content-Type: text/plain\n",
    "us-ascii": b"Content-Type: text/plain; charset=us-ascii\n",
    "latin-1 label": b"Content-Type: text/plain; charset=iso-8859-1\n",
    "unknown": b"Content-Type: text/plain; charset=x-bogus\n",
}


def raw(head: bytes, body: bytes) -> bytes:
    return (b"From: Ben <ben@example.org>\nMessage-ID: <c@example.org>\nSubject: orders\n" + head
            + b"Content-Transfer-Encoding: 8bit\n\nGAME w1 blue pw\nTAX " + body + b"\nEND\n")


@pytest.mark.parametrize("head", HEADS.values(), ids=HEADS.keys())
def test_valid_utf8_is_read_as_utf8_whatever_the_label(tmp_path, head):
    path = tmp_path / "m.eml"
    path.write_bytes(raw(head, "Lüneburg".encode("utf-8")))
    mail = parse_mail(read_path(path)[0].raw, trusted=False)
    assert "TAX Lüneburg" in mail.text


@pytest.mark.parametrize("head", HEADS.values(), ids=HEADS.keys())
def test_other_8bit_is_read_as_declared_else_latin1(head):
    assert "TAX Lüneburg" in parse_mail(raw(head, "Lüneburg".encode("latin-1"))).text


def test_a_declared_8bit_charset_still_counts():
    text = parse_mail(raw(b"Content-Type: text/plain; charset=iso-8859-2\n", "Łódź".encode("iso-8859-2"))).text
    assert "TAX Łódź" in text
