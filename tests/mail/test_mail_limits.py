"""Hostile mails cannot hold the mailbox: every size is bounded before the mail is parsed or
its lines read as orders, the mail is kept as ``refused`` (never lost), a seat's address is
told which limit (a few times a day), a stranger nothing; and ``pbem ingest DIR`` reads a
Maildir one mail at a time. (How long each hostile mail takes, and the memory of a 10,000-mail
run, are measured by ``make bench``: bench/hostile_bench.py.)"""

from __future__ import annotations

import mailbox

import pytest

from bench import hostile
from pbem.mailin import maillimits
from pbem.mailin.parse import read_sources
from pbem.store.db import Store
from tests.loop.mailrun import SEATS, Setup, text

ANNA = SEATS["red"]
STRANGER = "mallory@evil.example"


@pytest.fixture
def gm(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game()
    return setup


def _block(gm: Setup) -> str:
    return f"GAME w1 red {gm.passwords['red']}"


def _status(gm: Setup, mid_part: str) -> tuple[str, str]:
    row = Store(gm.db).db.execute("select status, note from mails where key like ?", [f"%{mid_part}%"]).fetchone()
    assert row is not None, f"the mail {mid_part} was not kept"
    return row[0], row[1]


HOSTILE = ["nested MIME", "5,000 parts", "3 MB base64 body", "2 MB of headers", "20,000 bad order lines"]
WHY = {"nested MIME": "MIME containers", "5,000 parts": "MIME parts", "3 MB base64 body": "the mail is",
       "2 MB of headers": "the mail is", "20,000 bad order lines": "decoded"}


@pytest.mark.parametrize("kind", HOSTILE)
def test_a_hostile_mail_is_kept_refused_and_only_a_seats_address_is_told_why(gm, kind):
    make = hostile.KINDS[kind]
    gm.raw(make(ANNA, "seat-" + kind.replace(" ", "").replace(",", ""), "w1", "red", _block(gm)))
    gm.raw(make(STRANGER, "stranger-" + kind.replace(" ", "").replace(",", ""), "w1", "red", _block(gm)))
    out = gm.ingest()
    assert out.count("refused") >= 2 and "2 mail(s): 2 refused" in out, out
    status, note = _status(gm, "seat-")
    assert status == "refused" and WHY[kind] in note
    assert _status(gm, "stranger-")[0] == "refused"
    [reply] = [r for r in gm.outbox("reply") if r["to_addr"] == ANNA]
    body = text(reply)
    assert "was not read" in body and WHY[kind] in body and "Nothing of it was recorded" in body
    assert not [r for r in gm.outbox() if r["to_addr"] == STRANGER]  # no backscatter
    assert "duplicate" in gm.ingest()  # kept: the same mails again change nothing


def test_the_order_lines_of_a_block_and_of_a_mail_are_bounded(gm):
    many = "\n".join(f"BID {n % 3}" for n in range(maillimits.MAX_BLOCK_LINES + 1))
    gm.mail(ANNA, "orders", f"{_block(gm)}\n{many}\nEND\n")
    out = gm.ingest()
    assert "rejected" in out
    assert f"more than the {maillimits.MAX_BLOCK_LINES} read in one block" in text(gm.outbox("reply", ANNA)[-1])
    full = f"{_block(gm)}\n" + "\n".join(f"BID {n % 3}" for n in range(maillimits.MAX_BLOCK_LINES)) + "\nEND\n"
    gm.mail(ANNA, "orders", full * (maillimits.MAX_MAIL_LINES // maillimits.MAX_BLOCK_LINES) + f"{_block(gm)}\nBID 1\nEND\n")
    gm.ingest()
    reply = text(gm.outbox("reply", ANNA)[-1])
    assert f"this mail has more than {maillimits.MAX_MAIL_LINES} order lines" in reply
    assert reply.count("more than") == 1  # the full blocks were read (and answered line by line)


def test_a_text_of_too_many_lines_is_refused_unread(gm):
    body = f"{_block(gm)}\nBID 1\nEND\n" + "> quoted\n" * (maillimits.MAX_TEXT_LINES + 1)
    gm.mail(ANNA, "orders", body)
    assert "refused" in gm.ingest()
    assert "lines, more than the" in text(gm.outbox("reply", ANNA)[-1])


def test_refusals_to_a_seats_address_are_answered_a_few_times_a_day(gm):
    for n in range(5):
        gm.raw(hostile.nested_mime(ANNA, f"deep{n}"))
    out = gm.ingest()
    assert out.count("not answered") == 2
    assert len(gm.outbox("reply", ANNA)) == 3


def test_mail_just_under_every_limit_is_read(gm):
    gm.raw(hostile.under_limits(ANNA, "under", _block(gm), "w1", "red"))
    out = gm.ingest()
    assert "refused" not in out and "rejected" in out  # read: its bad order lines were answered
    assert "line" in text(gm.outbox("reply", ANNA)[-1])


def test_ingest_reads_a_maildir_one_mail_at_a_time(tmp_path):
    box = mailbox.Maildir(tmp_path / "md", create=True)
    keys = [box.add(f"From: a@b.example\nSubject: {n}\nMessage-ID: <{n}@x>\n\nhello\n".encode()) for n in range(3)]
    mails = read_sources([str(tmp_path / "md")], None)
    assert len(mails) == 3
    read = iter(mails)
    first = next(read)
    box.remove(sorted(keys)[2])  # taken away by a mail client after ingest began: not yet read
    rest = list(read)
    assert first.raw.startswith(b"From: a@b.example") and len(rest) == 1
