"""A delivery problem in `pbem status` lasts only as long as it matters, as the GM meets it:
an SMTP server refuses red's address, `pbem status` warns; then the warning goes once a later
message to that address was delivered (`pbem send --retry-failed`), once the seat got
another player (`pbem seat w1 red --email ...`), or once the game ended (`pbem abandon`,
which `pbem status` and `pbem games` show with the GM's reason). A warning that never clears
teaches the GM to ignore the ones that matter."""

from __future__ import annotations

import json

import pytest

from tests.clirun import SEATS, run
from tests.mail.servers import Scripted

REFUSED = "550 5.1.1 no such user"


@pytest.fixture
def refused(tmp_path, smtp):
    """A game whose welcome mail to red was refused; returns (db, port, handler)."""
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h")
    handler = Scripted(rcpt={"red@example.org": REFUSED})
    port = smtp(handler)
    run("--db", db, "send", "--smtp", f"127.0.0.1:{port}", code=1)
    assert f"mail to red@example.org (seat red) fails: recipient refused: {REFUSED}" in run("--db", db, "status", "w1")
    return db, port, handler


def _warned(db: str) -> bool:
    text = run("--db", db, "status", "w1")
    data = json.loads(run("--db", db, "status", "w1", "--json"))
    assert ("fails:" in text) == bool(data["delivery_problems"]), (text, data["delivery_problems"])
    return "fails:" in text


def test_a_later_delivery_to_the_address_clears_it(refused):
    db, port, handler = refused
    handler.rcpt.clear()  # the player fixed their mailbox
    assert "1 sent, 0 failed" in run("--db", db, "send", "--smtp", f"127.0.0.1:{port}", "--retry-failed")
    assert not _warned(db)


def test_a_failed_retry_keeps_it(refused):
    db, port, _ = refused
    run("--db", db, "send", "--smtp", f"127.0.0.1:{port}", "--retry-failed", code=1)
    assert _warned(db)


def test_a_new_address_for_the_seat_clears_it(refused):
    db, _, _ = refused
    run("--db", db, "seat", "w1", "red", "--email", "zoe@example.org", "--new-password")
    assert not _warned(db)


def test_an_allowed_address_keeps_it(refused):
    db, _, _ = refused
    run("--db", db, "seat", "w1", "red", "--allow", "red@work.example")  # red@example.org still the seat's
    assert _warned(db)


def test_the_end_of_the_game_clears_it_and_says_why_it_ended(refused):
    db, _, _ = refused
    run("--db", db, "abandon", "w1", "--reason", "two players left")
    assert not _warned(db)
    assert run("--db", db, "status", "w1").splitlines()[0] == \
        "w1 (wallenstein): abandoned by the GM: two players left"
    assert "abandoned: two players left" in run("--db", db, "games")


def test_a_refusal_after_a_delivery_in_the_same_run_stays(tmp_path, smtp):
    from pbem.mailout.deliver import SmtpSettings, SmtpTransport, send_outbox
    from pbem.mailout.outqueue import problems
    from pbem.store.db import Store
    from tests.mail.test_send_reliability import enqueue

    store = Store(str(tmp_path / "pbem.db"))
    enqueue(store, 2, to="anna@example.org")  # the welcome mail goes, the report is refused
    port = smtp(Scripted(data=["250 2.0.0 OK", "554 5.7.1 rejected as spam"]))
    results = send_outbox(store, SmtpTransport(SmtpSettings("127.0.0.1", port, timeout=10)))
    assert [r.ok for r in results] == [True, False]
    assert [p["address"] for p in problems(store)] == ["anna@example.org"]
