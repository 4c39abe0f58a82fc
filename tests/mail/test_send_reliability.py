"""Delivery against real SMTP servers on 127.0.0.1: retries with backoff and a cap, 5xx
failing at once, bad recipients, TLS (STARTTLS and implicit), exit status, leases
(concurrent senders, kill -9 during send)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.mailout.deliver import SmtpSettings, SmtpTransport, send_outbox
from pbem.mailout.outqueue import RetryPolicy, problems
from pbem.store.db import Store
from tests.mail.servers import ROOT, Scripted, free_port, make_certificate, pbem, server_context


def enqueue(store: Store, n: int, to: str = "p{i}@example.org", game: str | None = None) -> list[str]:
    """Queue ``n`` messages directly; returns their Message-IDs."""
    ids = []
    for i in range(n):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "gm@pbem.example", to.format(i=i), f"message {i}"
        msg["Message-ID"] = make_msgid(idstring=f"m{i}", domain="pbem.example")
        msg.set_content(f"body {i}\n")
        store.enqueue(game, to.format(i=i), msg["Subject"], bytes(msg), "reply", msg["Message-ID"])
        ids.append(msg["Message-ID"])
    return ids


def transport(port: int) -> SmtpTransport:
    return SmtpTransport(SmtpSettings("127.0.0.1", port, timeout=10))


# -- retries ------------------------------------------------------------------------------------
def test_451_then_250_is_retried_after_the_backoff(store, clock, smtp):
    handler = Scripted(data=["451 4.3.0 try later"])
    port = smtp(handler)
    enqueue(store, 1)
    first = send_outbox(store, transport(port))
    assert [(r.ok, r.permanent) for r in first] == [(False, False)] and first[0].error.startswith("451")
    row = store.outbox()[0]
    assert row["attempts"] == 1 and row["next_attempt_at"] and row["failed_at"] is None
    assert send_outbox(store, transport(port)) == []  # backoff: not due yet
    clock.now += timedelta(minutes=6)
    assert [r.ok for r in send_outbox(store, transport(port))] == [True]
    assert len(handler.messages) == 1 and store.outbox()[0]["sent_at"]


def test_backoff_doubles_and_the_cap_fails_the_message(store, clock, smtp):
    handler = Scripted(data=["451 4.3.0 try later"] * 10)
    port = smtp(handler)
    enqueue(store, 1)
    policy = RetryPolicy(max_attempts=3)
    waits = []
    for _ in range(3):
        results = send_outbox(store, transport(port), retry=policy)
        assert len(results) == 1 and not results[0].ok
        row = store.outbox()[0]
        if row["next_attempt_at"] and not row["failed_at"]:
            waits.append(row["next_attempt_at"])
        clock.now += timedelta(hours=1)
    row = store.outbox()[0]
    assert row["failed_at"] and row["attempts"] == 3 and "gave up after 3 attempts" in row["last_error"]
    assert results[0].permanent
    assert send_outbox(store, transport(port), retry=policy) == []  # never again
    assert policy.delay(1) == timedelta(minutes=5) and policy.delay(2) == timedelta(minutes=10)
    assert policy.delay(20) == timedelta(hours=6)
    assert [p["address"] for p in problems(store)] == ["p0@example.org"]


def test_550_fails_at_once_and_status_shows_the_seat(service, clock, smtp, tmp_path):
    service.new_game("g1", "toy-dice-duel", [("red", "gone@example.org"), ("blue", "ok@example.org")])
    handler = Scripted(rcpt={"gone@example.org": "550 5.1.1 no such user"})
    port = smtp(handler)
    results = send_outbox(service.store, transport(port))
    by_to = {r.to: r for r in results}
    assert by_to["ok@example.org"].ok
    bad = by_to["gone@example.org"]
    assert not bad.ok and bad.permanent and "550" in bad.error
    clock.now += timedelta(days=2)
    assert send_outbox(service.store, transport(port)) == []  # never retried
    assert handler.rcpt_seen.count("gone@example.org") == 1
    assert problems(service.store, "g1") == [{"address": "gone@example.org", "game": "g1", "seat": "red",
                                              "source": "smtp", "error": bad.error, "at": problems(
                                                  service.store)[0]["at"], "count": 1}]
    db = service.store.path
    shown = CliRunner().invoke(cli, ["--db", db, "status", "g1"])
    assert "mail to gone@example.org (seat red) fails: recipient refused: 550" in shown.output
    listed = json.loads(CliRunner().invoke(cli, ["--db", db, "status", "g1", "--json"]).output)
    assert [p["seat"] for p in listed["delivery_problems"]] == ["red"]


def test_550_after_data_is_permanent_too(store, smtp):
    port = smtp(Scripted(data=["554 5.7.1 rejected as spam"]))
    enqueue(store, 2)
    results = send_outbox(store, transport(port))
    assert [(r.ok, r.permanent) for r in results] == [(False, True), (True, False)]


def test_unencodable_recipients_fail_permanently_without_reaching_the_server(store, smtp):
    handler = Scripted()
    port = smtp(handler)
    for to in ("anna@exämple.hu", "évi@example.hu", "nul\x00@example.org", "two words@example.org",
               "Anna <a@example.org>", "p0@example.org"):
        enqueue(store, 1, to=to)
    results = send_outbox(store, transport(port))
    assert [(r.to, r.ok, r.permanent) for r in results][-1] == ("p0@example.org", True, False)
    assert all(not r.ok and r.permanent and "cannot be sent" in r.error for r in results[:-1])
    assert handler.rcpt_seen == ["p0@example.org"]
    assert send_outbox(store, transport(port)) == []


# -- TLS -----------------------------------------------------------------------------------------
def test_starttls_and_smtps_with_a_verified_certificate(store, smtp, tmp_path):
    cert, key = make_certificate(tmp_path)
    plain = Scripted()
    starttls_port = smtp(plain, tls_context=server_context(cert, key), require_starttls=True)
    implicit = Scripted()
    smtps_port = smtp(implicit, ssl_context=server_context(cert, key))
    enqueue(store, 2)
    s1 = SmtpTransport(SmtpSettings("127.0.0.1", starttls_port, starttls=True, cafile=str(cert), timeout=10))
    assert [r.ok for r in send_outbox(store, s1)] == [True, True]
    assert len(plain.messages) == 2
    enqueue(store, 1)
    s2 = SmtpTransport(SmtpSettings("127.0.0.1", smtps_port, smtps=True, cafile=str(cert), timeout=10))
    assert [r.ok for r in send_outbox(store, s2)] == [True]
    assert len(implicit.messages) == 1


def test_unverified_certificate_and_missing_starttls_stop_the_run(store, smtp, tmp_path):
    cert, key = make_certificate(tmp_path)
    handler = Scripted()
    port = smtp(handler, ssl_context=server_context(cert, key))
    enqueue(store, 2)
    results = send_outbox(store, SmtpTransport(SmtpSettings("127.0.0.1", port, smtps=True, timeout=10)))
    assert len(results) == 1 and not results[0].ok and "CERTIFICATE_VERIFY_FAILED" in results[0].error
    assert all(r["attempts"] == 0 and r["sent_at"] is None for r in store.outbox())  # nothing counted
    wants_tls = Scripted()
    plain_port = smtp(wants_tls, tls_context=server_context(cert, key), require_starttls=True)
    results = send_outbox(store, SmtpTransport(SmtpSettings("127.0.0.1", plain_port, starttls=False, timeout=10)))
    assert len(results) == 1 and not results[0].ok and "530" in results[0].error
    assert handler.messages == [] and wants_tls.messages == []
    assert all(r["attempts"] == 0 and r["failed_at"] is None for r in store.outbox())


# -- the command's exit status, through the real entry point ---------------------------------------
def test_cli_exit_status_tells_the_truth(tmp_path, smtp):
    db = str(tmp_path / "pbem.db")
    enqueue(Store(db), 2)
    env = {**os.environ, "PBEM_SMTP_HOST": "", "PBEM_SMTP_PASSWORD": ""}
    unreachable = pbem("--db", db, "send", "--smtp", f"127.0.0.1:{free_port()}", "--json", env=env)
    assert unreachable.returncode == 1, unreachable.stdout + unreachable.stderr
    data = json.loads(unreachable.stdout)
    assert len(data) == 1 and not data[0]["ok"] and "cannot reach" in data[0]["error"]
    nowhere = pbem("--db", db, "send", env=env)
    assert nowhere.returncode == 1 and "nowhere to send" in nowhere.stderr
    port = smtp(Scripted(rcpt={"p1@example.org": "550 5.1.1 unknown"}))
    refused = pbem("--db", db, "send", "--smtp", f"127.0.0.1:{port}", env=env)
    assert refused.returncode == 1 and "FAILED" in refused.stdout and "1 sent, 1 failed" in refused.stdout
    again = pbem("--db", db, "send", "--smtp", f"127.0.0.1:{port}", env=env)
    assert again.returncode == 0 and "nothing to send" in again.stdout
    status = pbem("--db", db, "status", "--json", env=env)
    assert status.returncode == 0


def test_config_file_drives_send_and_secrets_need_a_private_file(tmp_path, smtp, monkeypatch):
    db = tmp_path / "pbem.db"
    enqueue(Store(db), 1)
    logins = []

    from aiosmtpd.smtp import AuthResult

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=True)

    cert, key = make_certificate(tmp_path)
    handler = Scripted()
    port = smtp(handler, ssl_context=server_context(cert, key), authenticator=authenticator,
                auth_require_tls=False)
    secret = tmp_path / "smtp-password"
    secret.write_text("pw-from-file\n")
    secret.chmod(0o644)
    (tmp_path / "pbem.toml").write_text(
        f'sender = "GM <gm@pbem.example>"\n[smtp]\nhost = "127.0.0.1"\nport = {port}\ntls = "smtps"\n'
        f'user = "gm"\npassword_file = "{secret}"\ncafile = "{cert}"\n')
    for name in ("PBEM_SMTP_HOST", "PBEM_SMTP_PORT", "PBEM_SMTP_USER", "PBEM_SMTP_PASSWORD", "PBEM_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    refused = CliRunner().invoke(cli, ["--db", str(db), "send"])
    assert refused.exit_code == 1 and "can be read by others" in refused.output and not handler.messages
    secret.chmod(0o600)
    done = CliRunner().invoke(cli, ["--db", str(db), "send"])
    assert done.exit_code == 0, done.output
    assert logins == [(b"gm", b"pw-from-file")] and len(handler.messages) == 1
    assert "pw-from-file" not in done.output
    (tmp_path / "pbem.toml").write_text('[smtp]\nhost = "x"\npassword = "inline"\n')
    inline = CliRunner().invoke(cli, ["--db", str(db), "send"])
    assert inline.exit_code == 1 and "never read from the config file" in inline.output


# -- leases: concurrent senders and kill -9 --------------------------------------------------------
def _sender(db: str, port: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pbem", "--db", db, "send", "--smtp", f"127.0.0.1:{port}"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PBEM_SMTP_USER": "", "PBEM_CONFIG": ""})


def test_concurrent_senders_never_send_a_message_twice(tmp_path, smtp):
    db = str(tmp_path / "pbem.db")
    ids = enqueue(Store(db), 40)
    handler = Scripted(delay=0.01)
    port = smtp(handler)
    runs = [_sender(db, port) for _ in range(4)]
    outputs = [p.communicate(timeout=120) for p in runs]
    assert [p.returncode for p in runs] == [0] * 4, outputs
    counts = Counter(handler.message_ids())
    assert sorted(counts) == sorted(ids) and set(counts.values()) == {1}
    assert sum(1 for out, _ in outputs if " sent, 0 failed" in out) >= 2  # the work was shared


KILLS = int(os.environ.get("PBEM_SEND_KILLS", "4"))


@pytest.mark.parametrize("attempt", range(KILLS))
def test_kill_9_during_send_duplicates_at_most_one_message_and_says_so(tmp_path, smtp, attempt):
    db = str(tmp_path / "pbem.db")
    ids = enqueue(Store(db), 30)
    handler = Scripted(delay=0.03)
    port = smtp(handler)
    run = _sender(db, port)
    rng = random.Random(attempt)
    deadline = time.monotonic() + 60
    target = rng.randint(1, 25)
    while len(handler.messages) < target and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.002)
    time.sleep(rng.random() * 0.03)
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=30)
    second = _sender(db, port)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, out + err
    counts = Counter(handler.message_ids())
    assert sorted(counts) == sorted(ids)  # every message arrived
    twice = [m for m, n in counts.items() if n > 1]
    assert len(twice) <= 1 and max(counts.values()) <= 2
    if twice:
        assert "may reach" in err and "twice" in err and "may be delivered twice" in out
    assert all(r["sent_at"] and r["lease_owner"] is None for r in Store(db).outbox())
