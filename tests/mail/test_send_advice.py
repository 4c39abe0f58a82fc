"""`pbem send` as the GM runs it: `mkdir out; pbem send --maildir out` delivers (the Maildir's
folders are made); a message waiting for its retry goes at once with `--now`; a run with
failures says each failure once and what to do about each kind once (a refused address:
fix it, then `--retry-failed`; a temporary refusal: later, or `--now`); `pbem tick` sends
with implicit TLS like `pbem send` (`--smtps`)."""

from __future__ import annotations

import json
import mailbox

from click.testing import CliRunner

from pbem.cli.main import cli
from tests.clirun import SEATS, run
from tests.mail.servers import Scripted, make_certificate, server_context


def _game(tmp_path) -> str:
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h")
    return db


def test_send_into_an_empty_folder_makes_the_maildir(tmp_path):
    db = _game(tmp_path)
    out = tmp_path / "out"
    out.mkdir()  # mkdir out; pbem send --maildir out
    assert "3 sent, 0 failed" in run("--db", db, "send", "--maildir", str(out))
    assert len(mailbox.Maildir(str(out), create=False)) == 3
    assert sorted(p.name for p in out.iterdir()) == ["cur", "new", "tmp"]


def test_failures_are_said_once_with_what_to_do(tmp_path, smtp):
    db = _game(tmp_path)
    port = smtp(Scripted(rcpt={"red@example.org": "550 5.1.1 no such user"}, data=["451 4.3.0 try later"]))
    result = CliRunner().invoke(cli, ["--db", db, "send", "--smtp", f"127.0.0.1:{port}"])
    out = result.output
    assert result.exit_code == 1, out
    assert out.count("550 5.1.1 no such user") == 1 and out.count("451 4.3.0 try later") == 1, out
    assert out.count("--retry-failed") == 1 and "run 'pbem send' again to retry" not in out, out
    assert out.count("pbem send --now") == 1, out
    later = run("--db", db, "send", "--smtp", f"127.0.0.1:{port}")  # the 451 waits for its retry time
    assert "nothing to send" in later and "1 message(s) wait to be retried" in later, later
    now = run("--db", db, "send", "--smtp", f"127.0.0.1:{port}", "--now")
    assert "1 sent, 0 failed" in now, now


def test_send_and_outbox_say_each_message_and_what_waits_word_for_word(tmp_path, smtp):
    """The whole text of ``pbem send`` (stdout: a line a message and the count; stderr: what to
    do) and of ``pbem outbox``, the retry time read back from ``pbem outbox --json``; then the
    JSON of a run."""
    db = _game(tmp_path)
    dry = run("--db", db, "send", "--dry-run")
    assert dry == "".join(f"would send {i:>5} {s}@example.org  [w1] Welcome, {s}\n"
                          for i, s in enumerate(("red", "blue", "yellow"), 1)) + \
        "dry run: 3 message(s) would be sent; nothing was sent\n"
    port = smtp(Scripted(rcpt={"red@example.org": "550 5.1.1 no such user"}, data=["451 4.3.0 try later"]))
    result = CliRunner().invoke(cli, ["--db", db, "send", "--smtp", f"127.0.0.1:{port}"])
    rows = json.loads(run("--db", db, "outbox", "--json"))
    assert [(r["id"], r["kind"], r["attempts"]) for r in rows] == [(1, "welcome", 1), (2, "welcome", 1)]
    failed, at = rows[0]["failed"], rows[1]["next_attempt"]
    assert result.exit_code == 1 and result.stdout == (
        "FAILED         1 red@example.org  [w1] Welcome, red  (recipient refused: 550 5.1.1 no such user)\n"
        "RETRY          2 blue@example.org  [w1] Welcome, blue  (451 4.3.0 try later)\n"
        "sent           3 yellow@example.org  [w1] Welcome, yellow\n"
        "1 sent, 2 failed (1 for good)\n")
    assert result.stderr == (
        "1 message(s) failed for good: 'pbem status' lists the address; fix it (pbem seat GAME SEAT --email ...), "
        "then run 'pbem send --retry-failed' to send them again\n"
        f"1 message(s) will be tried again from {at} by 'pbem send' ('pbem send --now' tries them at once)\n")
    refused = (f"    1 welcome FAILED {failed} red@example.org  [w1] Welcome, red  "
               "[1 failed attempt(s): recipient refused: 550 5.1.1 no such user]\n")
    assert run("--db", db, "outbox") == refused + (
        f"    2 welcome retry at {at} blue@example.org  [w1] Welcome, blue  [1 failed attempt(s): 451 4.3.0 try later]\n")
    assert run("--db", db, "send", "--smtp", f"127.0.0.1:{port}") == (
        f"nothing to send\n1 message(s) wait to be retried (next at {at}; 'pbem send --now' sends them now)\n")
    assert json.loads(run("--db", db, "send", "--smtp", f"127.0.0.1:{port}", "--now", "--json")) == [
        {"error": "", "id": 2, "kind": "welcome", "note": "", "ok": True, "permanent": False,
         "subject": "[w1] Welcome, blue", "to": "blue@example.org"}]
    assert run("--db", db, "send", "--maildir", str(tmp_path / "out")) == "nothing to send\n"
    assert run("--db", db, "outbox") == refused  # a message failed for good waits for --retry-failed


def test_tick_sends_with_implicit_tls(tmp_path, smtp, monkeypatch):
    db = _game(tmp_path)
    cert, key = make_certificate(tmp_path)
    handler = Scripted()
    port = smtp(handler, ssl_context=server_context(cert, key))
    monkeypatch.setenv("PBEM_SMTP_CAFILE", str(cert))
    out = run("--db", db, "tick", "--smtps", f"127.0.0.1:{port}")
    assert "sent 3 message(s)" in out and len(handler.messages) == 3, out
