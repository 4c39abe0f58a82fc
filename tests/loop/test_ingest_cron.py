"""Ingest for cron (--quiet, handled mail not listed again, --retry-rejected
answering again only when the outcome changed, the GM seeing why authentication failed)."""

from __future__ import annotations

import json
import mailbox
from email.message import EmailMessage

import pytest
from click.testing import CliRunner

from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.loop.service import Service
from pbem.store.db import Store

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org")]
PW = "pw-" + "q" * 12


@pytest.fixture
def setup(tmp_path, monkeypatch):
    import pbem.loop.creating

    monkeypatch.setattr(pbem.loop.creating, "new_password", lambda: PW)
    db = str(tmp_path / "p.db")
    Service(Store(db)).new_game("d1", "toy-dice-duel", SEATS, {}, seed="cron-" + "x" * 40)
    box = mailbox.Maildir(tmp_path / "md", create=True)

    def add(sender: str, block: str, n: int) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "gm@pbem.example", "orders"
        msg["Message-ID"] = f"<m{n}@example.org>"
        msg.set_content(f"{block}\nBID 1\nEND\n")
        box.add(bytes(msg))

    def run(*args):
        result = CliRunner().invoke(cli, ["--db", db, *args], obj=App(db))
        assert result.exit_code == 0, result.output
        return result.output

    return db, str(tmp_path / "md"), add, run


def _replies(db):
    return [r for r in Store(db).outbox() if r["kind"] == "reply"]


def test_quiet_lists_only_new_mail(setup):
    db, md, add, run = setup
    add("anna@example.org", f"GAME d1 red {PW}", 1)
    first = run("ingest", "--quiet", md)
    assert first.startswith("accepted") and "mail(s)" not in first and "ACCEPTED" not in first
    assert run("ingest", "--quiet", md) == ""  # nothing new: silent
    add("ben@example.org", f"GAME d1 blue {PW}", 2)
    assert run("ingest", "--quiet", md).count("\n") == 1


def test_the_gm_sees_why_authentication_failed(setup):
    db, md, add, run = setup
    add("anna@example.org", "GAME d1 red not-the-password", 1)
    add("anna@example.org", f"GAME d9 red {PW}", 2)
    add("anna@example.org", f"GAME d1 green {PW}", 3)
    add("ben@example.org", f"GAME d1 red {PW}", 4)  # another seat's address
    add("eve@example.org", f"GAME d1 red {PW}", 5)  # an address no game knows: kept, never answered
    out = json.loads(run("ingest", md, "--json"))
    reasons = sorted(b["auth_failure"] for o in out for b in o["blocks"])
    assert reasons == ["sender not registered", "unknown game", "unknown seat", "wrong password"]
    [eve] = [o for o in out if o["sender"] == "eve@example.org"]
    assert eve["outcome"] == "ignored" and eve["note"].startswith("unknown sender")
    assert not [r for r in _replies(db) if r["to_addr"] == "eve@example.org"]
    for row in _replies(db):  # the player's reply says the same thing for every cause
        text = row["message"].decode("utf-8", "replace")
        assert not any(r in text for r in reasons)
    assert "wrong password" in run("ingest", "--retry-rejected", md)


def test_retry_rejected_answers_again_only_when_the_outcome_changed(setup):
    db, md, add, run = setup
    add("ben@example.org", f"GAME d1 red {PW}", 1)  # anna writing from ben's address
    run("ingest", md)
    assert len(_replies(db)) == 1
    again = run("ingest", "--retry-rejected", md)
    assert "still rejected" in again and len(_replies(db)) == 1  # nothing changed: no second reply
    run("seat", "d1", "red", "--allow", "ben@example.org")
    fixed = run("ingest", "--retry-rejected", md)
    assert fixed.startswith("accepted") and len(_replies(db)) == 2
