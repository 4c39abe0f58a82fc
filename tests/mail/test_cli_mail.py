"""The mail commands as a GM runs them: ingest (paths, stdin, --json), outbox, send."""

from __future__ import annotations

import json
import mailbox

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.mail.conftest import FIXTURES, PASSWORDS, create, fixture


@pytest.fixture
def db(tmp_path, monkeypatch):
    path = str(tmp_path / "cli.db")
    service = Service(Store(path))
    create(service, monkeypatch, "duel", ["red", "blue", "green", "yellow"])
    create(service, monkeypatch, "duel2", ["red", "blue"])
    service.store.close()
    return path


def run(db, *args, input=None, code=0):
    result = CliRunner().invoke(cli, ["--db", db, *args], input=input)
    assert result.exit_code == code, result.output
    return result.output


def test_ingest_files_json_and_text(db):
    out = json.loads(run(db, "ingest", str(FIXTURES / "plain.eml"), str(FIXTURES / "wrong_sender.eml"),
                         str(FIXTURES / "auto_reply.eml"), "--json"))
    assert [o["outcome"] for o in out] == ["accepted", "ignored", "ignored"]
    assert out[0]["sender"] == "ben@example.org" and out[0]["blocks"][0]["seat"] == "blue"
    assert out[1]["note"].startswith("unknown sender") and out[1]["blocks"] == []  # no game knows mallory
    text = run(db, "ingest", str(FIXTURES / "plain.eml"))
    assert text.startswith("duplicate") and "1 mail(s): 1 duplicate" in text


def test_ingest_stdin_gm_text_prints_the_result(db):
    out = run(db, "ingest", "-", input=fixture("gm_orders.txt"))
    assert "accepted" in out and "ACCEPTED: orders for game duel, seat green" in out
    status = json.loads(run(db, "status", "duel", "--json"))
    assert status["submitted"] == ["green"]


def test_ingest_stdin_mbox(db):
    out = json.loads(run(db, "ingest", "--json", input=(FIXTURES / "inbox.mbox").read_bytes()))
    assert [o["outcome"] for o in out] == ["accepted", "accepted", "ignored"]


def test_ingest_maildir_with_progress_bar_twice(db, tmp_path):
    box = mailbox.Maildir(tmp_path / "md", create=True)
    for path in sorted(FIXTURES.glob("*.eml")):
        box.add(path.read_bytes())
    first = run(db, "ingest", str(tmp_path / "md"))
    assert f"{len(box)} mail(s)" in first
    queued = json.loads(run(db, "outbox", "--json"))
    second = run(db, "ingest", str(tmp_path / "md"))
    assert f"{len(box)} mail(s): {len(box)} duplicate" in second
    assert json.loads(run(db, "outbox", "--json")) == queued
    for secret in PASSWORDS.values():
        assert secret not in first and secret not in second


def test_outbox_and_send_to_maildir(db, tmp_path):
    run(db, "ingest", str(FIXTURES / "plain.eml"))
    listed = json.loads(run(db, "outbox", "--json"))
    assert [r["kind"] for r in listed] == ["welcome"] * 6 + ["reply"]
    assert set(listed[0]) == {"id", "game", "to", "subject", "kind", "created", "sent", "attempts", "last_error",
                              "failed", "next_attempt"}
    assert "Re: duel orders round 1" in run(db, "outbox")
    assert "would send" in run(db, "send", "--dry-run")
    assert "7 sent, 0 failed" in run(db, "send", "--maildir", str(tmp_path / "out"))
    assert run(db, "outbox").strip() == "nothing to send"
    assert len(json.loads(run(db, "outbox", "--all", "--json"))) == 7
    assert len(mailbox.Maildir(tmp_path / "out")) == 7


def test_send_without_destination_is_a_domain_error(db, monkeypatch):
    monkeypatch.delenv("PBEM_SMTP_HOST", raising=False)
    out = run(db, "send", code=1)
    assert "nowhere to send" in out
    assert "not both" in run(db, "send", "--smtp", "x:25", "--maildir", "d", code=2)


def test_missing_path_is_a_usage_error(db, tmp_path):
    assert "does not exist" in run(db, "ingest", str(tmp_path / "nope.eml"), code=2)


def test_retry_rejected_after_allowing_the_sender(db):
    path = str(FIXTURES / "wrong_sender.eml")
    assert run(db, "ingest", path).startswith("ignored")  # an address no game knows: not answered
    assert "use --retry-rejected" in run(db, "ingest", path)
    run(db, "seat", "duel", "blue", "--allow", "mallory@example.net")
    assert run(db, "ingest", "--retry-rejected", path).startswith("accepted")
    assert "--retry-rejected" in run(db, "ingest", "--help")


def test_send_to_an_unreachable_server_counts_what_stays_queued(db):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = CliRunner().invoke(cli, ["--db", db, "send", "--smtp", f"127.0.0.1:{port}"])
    assert result.exit_code == 1
    queued = len(json.loads(run(db, "outbox", "--json")))
    assert queued == 6 and f"{queued} message(s) stay queued" in result.output


def test_outbox_columns_line_up(db):
    lines = run(db, "outbox").splitlines()
    assert len({line.index("queued") for line in lines}) == 1


def test_outbox_show_prints_a_message_as_read_and_masks_the_welcome_password(db):
    run(db, "ingest", str(FIXTURES / "bad_orders.eml"))
    rows = json.loads(run(db, "outbox", "--json"))
    reply = next(r for r in rows if r["kind"] == "reply")
    text = run(db, "outbox", "--show", str(reply["id"]))
    assert "To: dan@example.org" in text and "line 4: BDI 2" in text
    welcome = run(db, "outbox", "--show", str(rows[0]["id"]))
    assert "Your password: ******" in welcome and not any(p in welcome for p in PASSWORDS.values())
    assert json.loads(run(db, "outbox", "--show", str(reply["id"]), "--json"))["kind"] == "reply"
    assert "no message 999" in run(db, "outbox", "--show", "999", code=1)
