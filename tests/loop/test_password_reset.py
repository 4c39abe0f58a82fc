"""A seat's password is changed by mail only with proof: the current password, or a one-time
code mailed to the seat's registered address (the old password works until the code is used).
Each step is limited per seat and shown to the GM."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

from tests.loop.mailrun import SEATS, Setup, text

ANNA = SEATS["red"]


@pytest.fixture
def gm(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game()
    return setup


def _welcome_password(gm: Setup, to: str) -> str:
    rows = gm.outbox("welcome", to)
    return text(rows[-1]).split("Your password: ", 1)[1].split()[0]


def _orders(gm: Setup, password: str, bid: int = 1) -> str:
    gm.mail(ANNA, "orders", f"GAME w1 red {password}\nBID {bid}\nEND\n")
    return gm.ingest()


def test_a_forged_password_mail_changes_nothing_and_mails_a_code_to_the_seat(gm):
    old = gm.passwords["red"]
    gm.mail(ANNA, "PASSWORD", "please")  # anyone can write anna's address in From
    out = gm.ingest()
    assert "command" in out and "reset code mailed" in out  # the GM is told at once
    assert len(gm.outbox("welcome", ANNA)) == 1  # no new password was issued
    code_mail = gm.outbox("command", ANNA)[-1]
    assert "password reset code" in code_mail["subject"]
    body = text(code_mail)
    assert "Your current password keeps working" in body
    assert re.search(r"PASSWORD w1 red [a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}", body)
    assert old not in body
    assert "accepted" in _orders(gm, old)  # the old password still works
    status = gm.run("status", "w1")
    assert "seat red: password reset code mailed" in status


def test_the_code_from_the_registered_address_issues_a_new_password(gm):
    old = gm.passwords["red"]
    gm.mail(ANNA, "PASSWORD", "I lost my password")
    gm.ingest()
    code = re.search(r"PASSWORD w1 red (\S+)", text(gm.outbox("command", ANNA)[-1])).group(1)
    gm.mail(ANNA, "Re: [w1] password reset code for red", f"PASSWORD w1 red {code}\n\n> quoted code mail\n")
    out = gm.ingest()
    assert "reset code used" in out
    new = _welcome_password(gm, ANNA)
    assert new != old and len(gm.outbox("welcome", ANNA)) == 2
    assert "rejected" in _orders(gm, old)  # the old one stops with the new one
    assert "accepted" in _orders(gm, new, 2)
    gm.mail(ANNA, "PASSWORD", f"PASSWORD {code}")  # a code works once
    assert "wrong or expired reset code" in gm.ingest()
    assert len(gm.outbox("welcome", ANNA)) == 2
    assert "password changed by mail (reset code)" in gm.run("status", "w1")


def test_a_wrong_or_expired_code_is_refused(gm, clock):
    gm.mail(ANNA, "PASSWORD", "")
    gm.ingest()
    code = re.search(r"PASSWORD w1 red (\S+)", text(gm.outbox("command", ANNA)[-1])).group(1)
    gm.mail(ANNA, "PASSWORD abcd-efgh-jkmn", "")
    assert "wrong or expired reset code" in gm.ingest()
    assert "not valid" in text(gm.outbox("command", ANNA)[-1])
    clock.now += timedelta(hours=25)
    gm.mail(ANNA, f"PASSWORD {code}", "")
    assert "wrong or expired reset code" in gm.ingest()
    assert len(gm.outbox("welcome", ANNA)) == 1
    assert "accepted" in _orders(gm, gm.passwords["red"])


def test_a_block_with_the_current_password_changes_it_at_once(gm):
    old = gm.passwords["red"]
    gm.mail(ANNA, "new password please", f"GAME w1 red {old}\nPASSWORD\nEND\n")
    out = gm.ingest()
    assert "accepted" in out and "new password mailed" in out
    reply = text(gm.outbox("reply", ANNA)[-1])
    assert "PASSWORD for game w1, seat red" in reply and "the old one no longer works" in " ".join(reply.split())
    assert old not in reply
    new = _welcome_password(gm, ANNA)
    assert new != old
    assert "rejected" in _orders(gm, old)
    assert "accepted" in _orders(gm, new)


def test_a_block_with_a_wrong_password_changes_nothing(gm):
    gm.mail(ANNA, "new password please", "GAME w1 red aaaa-bbbb-cccc\nPASSWORD\nEND\n")
    assert "rejected" in gm.ingest()
    assert len(gm.outbox("welcome", ANNA)) == 1


def test_codes_and_new_passwords_are_limited_per_seat_and_listed_for_the_gm(gm, clock):
    for n in range(5):
        gm.mail(ANNA, "PASSWORD", f"number {n}")
    out = gm.ingest()
    assert out.count("reset code mailed") == 3 and out.count("not answered") == 2
    assert len([r for r in gm.outbox("command", ANNA) if "reset code" in r["subject"]]) == 3
    status = json.loads(gm.run("status", "w1", "--json"))
    limited = [g for g in status["mail_guard"] if g["kind"] == "limited"]
    assert limited and limited[0]["count"] == 2 and limited[0]["seat"] == "red"
    password = gm.passwords["red"]
    for _ in range(4):
        gm.mail(ANNA, "again", f"GAME w1 red {password}\nPASSWORD\nEND\n")
        gm.ingest()
        if "NOT" not in text(gm.outbox("reply", ANNA)[-1]) and "not changed" not in text(gm.outbox("reply", ANNA)[-1]):
            password = _welcome_password(gm, ANNA)
    assert len(gm.outbox("welcome", ANNA)) == 1 + 3  # three new passwords a day at most
    assert "not changed" in text(gm.outbox("reply", ANNA)[-1])
    clock.now += timedelta(hours=25)  # a day later the seat may ask again
    gm.mail(ANNA, "PASSWORD", "")
    assert "reset code mailed" in gm.ingest()
