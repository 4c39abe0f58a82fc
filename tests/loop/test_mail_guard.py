"""What a hostile or merely automatic sender can make the service do, met by mail: a GAME
block from an address no game knows is kept and never answered, and costs no password hash;
guessing a seat's password locks the seat, the player is told how to get back in and the GM
is alerted; mail commands are answered a few times a day per seat; autoresponders get no
reply, and neither does an address that keeps mailing without proving anything."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

import pbem.store.auth
from pbem.loop import lockout
from pbem.loop.ingest import NO_BLOCK_REPLIES, UNAUTHENTICATED_REPLIES
from pbem.loop.mailcmd import LIMITS
from tests.loop.mailrun import SEATS, Setup, text

ANNA = SEATS["red"]
STRANGER = "mallory@evil.example"


@pytest.fixture
def gm(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game()
    return setup


@pytest.fixture
def hashes(monkeypatch):
    """Every password hash (scrypt) computed from here on, by password."""
    seen: list[str] = []
    real = pbem.store.auth.hash_password

    def counting(password, salt=None):
        seen.append(password)
        return real(password, salt)

    pbem.store.auth._scrypt_hex.cache_clear()
    monkeypatch.setattr(pbem.store.auth, "hash_password", counting)
    return seen


def _replies_to(gm: Setup, address: str) -> list[dict]:
    return [r for r in gm.outbox() if r["to_addr"] == address and r["kind"] != "welcome"]


# -- item 10: no backscatter ------------------------------------------------------------
def test_a_game_block_from_an_address_no_game_knows_is_kept_unanswered_and_costs_no_hash(gm, hashes):
    password = gm.passwords["red"]
    body = "".join(f"GAME w1 red {p}\nBID 1\nEND\n" for p in [password] + [f"zzzz-zzzz-zz{n:02d}" for n in range(9)])
    gm.mail(STRANGER, "orders", body)
    out = gm.ingest()
    assert "ignored" in out and "unknown sender" in out and "not answered" in out
    assert _replies_to(gm, STRANGER) == [] and hashes == []
    assert "ignored" in gm.ingest()  # kept: the same mail again is a duplicate, still not answered
    # a player who wrote from a new address: the GM allows it and reads the mail again
    gm.run("seat", "w1", "red", "--allow", STRANGER)
    out = gm.ingest("--retry-rejected")
    assert "partial" in out and "w1/red:ok" in out  # the block with the right password: 9 wrong ones
    assert len(_replies_to(gm, STRANGER)) == 1


def test_a_block_from_another_seats_address_costs_no_hash(gm, hashes):
    gm.mail(SEATS["blue"], "orders", "GAME w1 red zzzz-zzzz-zzzz\nBID 1\nEND\n")
    assert "rejected" in gm.ingest()
    assert hashes == []  # the sender is checked before the password


# -- item 11: lockout -------------------------------------------------------------------
def test_guessing_a_seats_password_locks_it_tells_the_player_how_back_in_and_alerts_the_gm(gm, hashes):
    for n in range(lockout.LOCK_AFTER - 1):
        gm.mail(ANNA, "orders", f"GAME w1 red zzzz-zzzz-zz{n:02d}\nBID 1\nEND\n")
    gm.ingest()
    assert not [r for r in gm.outbox(to=ANNA) if "locked" in r["subject"]]
    gm.mail(ANNA, "orders", "GAME w1 red zzzz-zzzz-zzz9\nBID 1\nEND\n")
    assert "LOCKED" in gm.ingest()
    notice = [r for r in gm.outbox(to=ANNA) if "locked for mail orders" in r["subject"]]
    assert len(notice) == 1
    body = text(notice[0])
    assert "PASSWORD w1 red" in body and "Your password was not changed" in body
    alert = [r for r in gm.outbox(to="gm@pbem.example") if "locked" in r["subject"]]
    assert len(alert) == 1 and "pbem seat w1 red --unlock" in text(alert[0])
    status = gm.run("status", "w1")
    assert "LOCKED for mail orders" in status and f"({lockout.LOCK_AFTER} times" in status
    # locked: even the right password is refused unread, and answered with the notice a few times
    guesses = len(hashes)
    for n in range(lockout.LOCKED_ANSWERS + 2):
        gm.mail(ANNA, "orders", f"GAME w1 red {gm.passwords['red']}\nBID {n % 3}\nEND\n")
    out = gm.ingest()
    assert "accepted" not in out and len(hashes) == guesses
    assert len([r for r in gm.outbox(to=ANNA) if "locked" in r["subject"]]) == 1 + lockout.LOCKED_ANSWERS
    # the way back in: a reset code to the registered address, then the code
    gm.mail(ANNA, "PASSWORD", "")
    gm.ingest()
    code = re.search(r"PASSWORD w1 red (\S+)", text(gm.outbox("command", ANNA)[-1])).group(1)
    gm.mail(ANNA, f"PASSWORD w1 red {code}", "")
    assert "new password mailed" in gm.ingest()
    new = text(gm.outbox("welcome", ANNA)[-1]).split("Your password: ", 1)[1].split()[0]
    gm.mail(ANNA, "orders", f"GAME w1 red {new}\nBID 2\nEND\n")
    assert "accepted" in gm.ingest()


def test_the_gm_unlocks_a_seat_and_one_mail_is_one_guess(gm, hashes):
    for n in range(lockout.LOCK_AFTER):
        blocks = "".join(f"GAME w1 red zzzz-zzzz-z{n:02d}{k}\nBID 1\nEND\n" for k in range(5))
        gm.mail(ANNA, "orders", blocks)
    gm.ingest()
    assert len(hashes) == lockout.LOCK_AFTER  # one password checked per seat and mail
    assert "LOCKED" in gm.run("status", "w1")
    assert "unlocked" in gm.run("seat", "w1", "red", "--unlock")
    gm.mail(ANNA, "orders", f"GAME w1 red {gm.passwords['red']}\nBID 1\nEND\n")
    assert "accepted" in gm.ingest()


def test_a_lock_ends_by_itself_after_a_day(gm, clock):
    for n in range(lockout.LOCK_AFTER):
        gm.mail(ANNA, "orders", f"GAME w1 red zzzz-zzzz-zz{n:02d}\nBID 1\nEND\n")
    gm.ingest()
    clock.now += lockout.LOCK_FOR + timedelta(minutes=1)
    gm.mail(ANNA, "orders", f"GAME w1 red {gm.passwords['red']}\nBID 1\nEND\n")
    assert "accepted" in gm.ingest()


# -- item 8: mail commands are rate-limited per seat and command --------------------------
def test_twenty_forged_report_commands_queue_three_reports_and_the_rest_is_listed(gm):
    for _ in range(20):
        gm.mail(ANNA, "REPORT", "")
    out = gm.ingest()
    assert out.count("NOT answered") == 20 - LIMITS["REPORT"]
    reports = [r for r in gm.outbox("command", ANNA) if "report for red" in r["subject"]]
    assert len(reports) == LIMITS["REPORT"]
    for _ in range(10):
        gm.mail(ANNA, "HELP", "")
    gm.ingest()
    assert len([r for r in gm.outbox("command", ANNA) if "help" in r["subject"]]) == LIMITS["HELP"]
    guard = json.loads(gm.run("status", "w1", "--json"))["mail_guard"]
    limited = {g["detail"]: g["count"] for g in guard if g["kind"] == "limited"}
    assert limited == {"REPORT": 20 - LIMITS["REPORT"], "HELP": 10 - LIMITS["HELP"]}
    assert "mail command REPORT NOT answered (over its limit)" in gm.run("status", "w1")


def test_command_limits_count_per_day(gm, clock):
    for _ in range(LIMITS["STATUS"] + 1):
        gm.mail(ANNA, "STATUS", "")
    assert "NOT answered" in gm.ingest()
    clock.now += timedelta(hours=25)
    gm.mail(ANNA, "STATUS", "")
    out = gm.ingest()
    assert "NOT answered" not in out and "STATUS w1 red" in out


# -- item 12: autoresponders ------------------------------------------------------------
@pytest.mark.parametrize("subject, headers", [
    ("Automatic reply: [w1] report for red", {}),
    ("Out of Office: [w1] your move", {}),
    ("Abwesenheitsnotiz: [w1] report", {}),
    ("Házon kívül: [w1] report", {}),
    ("Re: [w1] report", {"X-Auto-Response-Suppress": "All"}),
    ("Re: [w1] report", {"Precedence": "auto_reply"}),
])
def test_an_autoresponder_without_rfc_3834_headers_gets_no_reply(gm, subject, headers):
    gm.mail(ANNA, subject, "I am away until Monday.", headers=headers)
    out = gm.ingest()
    assert "ignored" in out and re.search("auto.reply", out)
    assert _replies_to(gm, ANNA) == []


def test_orders_under_an_out_of_office_subject_are_still_read(gm):
    gm.mail(ANNA, "Out of Office: [w1] orders", f"GAME w1 red {gm.passwords['red']}\nBID 1\nEND\n")
    assert "accepted" in gm.ingest()


def test_an_address_mailing_without_a_game_block_is_answered_a_few_times_a_day(gm, clock):
    for n in range(NO_BLOCK_REPLIES + 3):
        gm.mail(ANNA, f"thanks {n}", "thanks for the report!")
    out = gm.ingest()
    assert out.count("not answered") == 3
    assert len(_replies_to(gm, ANNA)) == NO_BLOCK_REPLIES
    assert "silenced" in gm.run("status", "w1", "--json")
    for n in range(UNAUTHENTICATED_REPLIES + 2):
        gm.mail(ANNA, f"orders {n}", f"GAME w9 red zzzz-zzzz-zz{n:02d}\nBID 1\nEND\n")  # no such game
    gm.ingest()
    assert len(_replies_to(gm, ANNA)) == NO_BLOCK_REPLIES + UNAUTHENTICATED_REPLIES
    clock.now += timedelta(hours=25)
    gm.mail(ANNA, "thanks again", "thanks!")
    gm.ingest()
    assert len(_replies_to(gm, ANNA)) == NO_BLOCK_REPLIES + UNAUTHENTICATED_REPLIES + 1
