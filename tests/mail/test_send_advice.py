"""`pbem send` as the GM runs it: `mkdir out; pbem send --maildir out` delivers (the Maildir's
folders are made); a message waiting for its retry goes at once with `--now`; a run with
failures says each failure once and what to do about each kind once (a refused address:
fix it, then `--retry-failed`; a temporary refusal: later, or `--now`); `pbem tick` sends
with implicit TLS like `pbem send` (`--smtps`)."""

from __future__ import annotations

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


def test_tick_sends_with_implicit_tls(tmp_path, smtp, monkeypatch):
    db = _game(tmp_path)
    cert, key = make_certificate(tmp_path)
    handler = Scripted()
    port = smtp(handler, ssl_context=server_context(cert, key))
    monkeypatch.setenv("PBEM_SMTP_CAFILE", str(cert))
    out = run("--db", db, "tick", "--smtps", f"127.0.0.1:{port}")
    assert "sent 3 message(s)" in out and len(handler.messages) == 3, out
