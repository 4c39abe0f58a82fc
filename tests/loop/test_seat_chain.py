"""A routine seat correction leaves the log's integrity checks quiet: after `pbem seat ...
--new-password` (a new player takes a seat), `--email`, `--allow` and a player's PASSWORD
mail, `pbem log` says the chain is intact and `pbem replay --verify` passes, as they do
before it. A false "chain BROKEN" teaches GMs to ignore the real one."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from tests.clirun import run

SEATS = ["--seat", "red=anna@example.org", "--seat", "blue=ben@example.org",
         "--seat", "green=cis@example.org", "--seat", "yellow=dan@example.org"]


def _quiet(db: str) -> None:
    log = run("--db", db, "log", "w1")
    assert "BROKEN" not in log and "chain: intact" in log, log
    run("--db", db, "replay", "w1", "--verify")


@pytest.mark.parametrize("change", [
    ["yellow", "--email", "zoe@example.org", "--new-password"],
    ["yellow", "--email", "zoe@example.org"],
    ["red", "--allow", "anna@work.example"],
])
def test_a_seat_change_keeps_the_chain_intact(tmp_path, change):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h", "--weak-seed",
        "--seed", "chain")
    _quiet(db)
    run("--db", db, "seat", "w1", *change)
    _quiet(db)


def test_a_password_mail_keeps_the_chain_intact(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--weak-seed", "--seed", "chain")
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ben@example.org", "gm@pbem.example", "PASSWORD"
    msg["Message-ID"] = "<pw.1@example.org>"
    msg.set_content("PASSWORD\n")
    mail = tmp_path / "pw.eml"
    mail.write_bytes(bytes(msg))
    assert "command" in run("--db", db, "ingest", str(mail))
    _quiet(db)


def test_the_other_corrections_keep_the_chain_intact(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--weak-seed", "--seed", "chain")
    for command in (["deadline", "w1", "+3d"], ["seat", "w1", "red", "--allow", "a@b.example"],
                    ["adjudicate", "w1", "--force"], ["seat", "w1", "blue", "--new-password"],
                    ["abandon", "w1", "--reason", "test"]):
        run("--db", db, *command)
        _quiet(db)
