"""Delivering the outbox: a real SMTP server (aiosmtpd on 127.0.0.1) and a Maildir."""

from __future__ import annotations

import json
import mailbox
from datetime import timedelta
from email import message_from_bytes, policy

import pytest
from aiosmtpd.smtp import AuthResult
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.mailout.deliver import MaildirTransport, SmtpSettings, SmtpTransport, send_outbox, smtp_settings
from pbem.errors import DomainError
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.mail.servers import free_port


class Recorder:
    """An SMTP handler that keeps every message; ``fail`` lists DATA numbers answered 451."""

    def __init__(self, fail: tuple[int, ...] = ()) -> None:
        self.fail = set(fail)
        self.seen = 0
        self.messages: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.seen += 1
        if self.seen in self.fail:
            return "451 4.3.0 Temporary failure, try again later"
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 2.0.0 OK"


def _queue(service: Service, n: int) -> None:
    service.new_game("g1", "toy-dice-duel", [(f"s{i}", f"p{i}@example.org") for i in range(n)])


def test_all_delivered_once(service, smtp):
    _queue(service, 4)
    handler = Recorder()
    port = smtp(handler)
    results = send_outbox(service.store, SmtpTransport(SmtpSettings("127.0.0.1", port)))
    assert [r.ok for r in results] == [True] * 4
    assert [m[1] for m in handler.messages] == [[f"p{i}@example.org"] for i in range(4)]
    assert all(r["sent_at"] for r in service.store.outbox())
    msg = message_from_bytes(handler.messages[0][2], policy=policy.default)
    assert msg["Subject"] == "[g1] Welcome, s0" and msg["X-PBEM-Loop"] == "welcome"
    assert send_outbox(service.store, SmtpTransport(SmtpSettings("127.0.0.1", port))) == []
    assert len(handler.messages) == 4


def test_failure_mid_batch_then_rerun_sends_only_the_rest(service, smtp, clock):
    _queue(service, 4)
    handler = Recorder(fail=(3,))
    port = smtp(handler)
    results = send_outbox(service.store, SmtpTransport(SmtpSettings("127.0.0.1", port)))
    assert [r.ok for r in results] == [True, True, False, True]
    assert results[2].error.startswith("451")
    rows = service.store.outbox()
    assert [bool(r["sent_at"]) for r in rows] == [True, True, False, True]
    assert rows[2]["attempts"] == 1 and "451" in rows[2]["last_error"]
    assert send_outbox(service.store, SmtpTransport(SmtpSettings("127.0.0.1", port))) == []  # backoff: not yet
    clock.now += timedelta(minutes=6)
    again = send_outbox(service.store, SmtpTransport(SmtpSettings("127.0.0.1", port)))
    assert [(r.id, r.ok) for r in again] == [(rows[2]["id"], True)]
    assert sorted(m[1][0] for m in handler.messages) == [f"p{i}@example.org" for i in range(4)]


def test_unreachable_server_stops_the_run_and_keeps_everything(service):
    _queue(service, 3)
    results = send_outbox(service.store, SmtpTransport(SmtpSettings("127.0.0.1", free_port(), timeout=5)))
    assert len(results) == 1 and not results[0].ok and "cannot reach" in results[0].error
    assert [r["sent_at"] for r in service.store.outbox()] == [None] * 3


def test_maildir_delivery(service, tmp_path):
    _queue(service, 2)
    results = send_outbox(service.store, MaildirTransport(tmp_path / "out"))
    assert all(r.ok for r in results)
    box = mailbox.Maildir(tmp_path / "out")
    assert sorted(m["To"] for m in box) == ["p0@example.org", "p1@example.org"]
    assert send_outbox(service.store, MaildirTransport(tmp_path / "out")) == []
    assert len(box) == 2


def test_delivered_mail_carries_a_date(service, tmp_path):
    _queue(service, 2)
    send_outbox(service.store, MaildirTransport(tmp_path / "out"))
    msgs = list(mailbox.Maildir(tmp_path / "out"))
    assert len(msgs) == 2 and all(m["Date"] and "+0000" in m["Date"] for m in msgs)


def test_dry_run_sends_nothing(service):
    _queue(service, 2)
    assert [r.ok for r in send_outbox(service.store, None, dry_run=True)] == [True, True]
    assert all(r["sent_at"] is None for r in service.store.outbox())


def test_settings_from_environment():
    env = {"PBEM_SMTP_HOST": "mx.example.org", "PBEM_SMTP_PORT": "2525", "PBEM_SMTP_USER": "gm",
           "PBEM_SMTP_PASSWORD": "hunter2hunter2"}
    s = smtp_settings(None, False, env)
    assert (s.host, s.port, s.user, s.password) == ("mx.example.org", 2525, "gm", "hunter2hunter2")
    assert "hunter2" not in repr(s)
    assert smtp_settings("relay:587", True, env).port == 587
    assert smtp_settings("relay", True, {}).port == 587
    with pytest.raises(DomainError):
        smtp_settings(None, False, {})


def test_cli_send_with_login_from_env_and_failure_exit_code(tmp_path, smtp, monkeypatch):
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=True)

    handler = Recorder(fail=(2,))
    port = smtp(handler, authenticator=authenticator, auth_require_tls=False)
    db = str(tmp_path / "cli.db")
    Service(Store(db)).new_game("g1", "toy-dice-duel", [("a", "a@example.org"), ("b", "b@example.org"),
                                                       ("c", "c@example.org")])
    monkeypatch.setenv("PBEM_SMTP_USER", "gm-user")
    monkeypatch.setenv("PBEM_SMTP_PASSWORD", "s3cret-smtp-pw")
    monkeypatch.setenv("PBEM_SEND_BACKOFF_MINUTES", "0")  # retry at once in the second run
    result = CliRunner().invoke(cli, ["--db", db, "send", "--smtp", f"127.0.0.1:{port}"])
    assert result.exit_code == 1, result.output
    assert "2 sent, 1 failed" in result.output and "s3cret-smtp-pw" not in result.output
    assert logins and logins[0] == (b"gm-user", b"s3cret-smtp-pw")
    listed = json.loads(CliRunner().invoke(cli, ["--db", db, "outbox", "--json"]).output)
    assert len(listed) == 1 and listed[0]["attempts"] == 1 and listed[0]["last_error"].startswith("451")
    result = CliRunner().invoke(cli, ["--db", db, "send", "--smtp", f"127.0.0.1:{port}", "--json"])
    assert result.exit_code == 0 and [r["ok"] for r in json.loads(result.output)] == [True]
    everything = json.loads(CliRunner().invoke(cli, ["--db", db, "outbox", "--all", "--json"]).output)
    assert len(everything) == 3 and all(r["sent"] for r in everything)
    assert len(handler.messages) == 3
