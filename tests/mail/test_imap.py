"""IMAP ingest against a real Dovecot on 127.0.0.1 (IMAPS and IMAP+STARTTLS): every
message recorded once, flagged or moved after it is recorded, batches, a kill -9 at
random points of a run followed by a second run that records every message exactly once."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli.main import cli
from pbem.mailout.config import Config
from pbem.errors import DomainError
from pbem.mailin.imap import KEYWORD, ingest_configured, ingest_mailbox, parse_url, settings_from_config
from pbem.loop.ingest import Ingestor
from pbem.loop.service import Service
from pbem.store.db import Store
from tests.mail.conftest import PASSWORDS
from tests.mail.dovecot import PASSWORD, USER, dovecot  # noqa: F401 - the fixture
from tests.mail.servers import ROOT

KILLS = int(os.environ.get("PBEM_IMAP_KILLS", "3"))


def order_mail(n: int, seat: str = "red", sender: str = "anna.kovacs@example.hu") -> bytes:
    """An order mail for the toy game ``duel``."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, USER, f"orders {n}"
    msg["Message-ID"] = f"<order-{n}-{seat}@example.hu>"
    msg["Date"] = "Thu, 01 Jan 2026 12:00:00 +0000"
    msg.set_content(f"GAME duel {seat} {PASSWORDS[seat]}\nBID 2\nEND\n")
    return bytes(msg)


def stray_mail(n: int) -> bytes:
    """A mail to no game from a known address (see :func:`known_strays`): recorded and
    answered once (a stranger's would be kept and never answered)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = f"player{n}@example.org", USER, f"hello {n}"
    msg["Message-ID"] = f"<stray-{n}@example.org>"
    msg.set_content(f"GAME nosuchgame red pw-{n}\nBID 2\nEND\n")
    return bytes(msg)


def known_strays(service: Service, count: int = 40) -> Service:
    """Allow the senders of :func:`stray_mail` for a seat of ``duel`` (created here when the
    store has no such game), so their mails are answered."""
    if service.store.game_row("duel") is None:
        service.new_game("duel", "toy-dice-duel", [("red", "anna.kovacs@example.hu"), ("blue", "ben@example.org")])
    service.change_seat("duel", "red", None, tuple(f"player{n}@example.org" for n in range(count)))
    return service


def known_db(db: str) -> None:
    """A fresh database at ``db`` that knows the senders of :func:`stray_mail`."""
    store = Store(db)
    try:
        known_strays(Service(store, sender="gm@pbem.example"))
    finally:
        store.close()


def config(server, **mailbox) -> Config:
    env = {"PBEM_IMAP_PASSWORD": PASSWORD}
    return Config(mailbox={"cafile": str(server.cert), **mailbox}, env=env)


def test_url_parsing_and_refusals():
    s = parse_url("imaps://gm@example.org@imap.example.org/Games/pbem")
    assert (s.user, s.host, s.port, s.folder, s.implicit_tls) == ("gm@example.org", "imap.example.org", 993,
                                                                  "Games/pbem", True)
    s = parse_url("imap://gm%40example.org@mail.example.org:1143")
    assert (s.user, s.port, s.folder, s.implicit_tls) == ("gm@example.org", 1143, "INBOX", False)
    for bad in ("imaps://gm:secret@host/INBOX", "imaps://host/INBOX", "pop3://gm@host/"):
        with pytest.raises(DomainError):
            parse_url(bad)
    with pytest.raises(DomainError, match="no IMAP password"):
        settings_from_config(Config(env={}), "imaps://gm@host/INBOX")


@pytest.mark.parametrize("scheme", ["imaps", "imap"])
def test_ingest_flags_after_recording_and_reads_each_mail_once(dovecot, games, scheme):  # noqa: F811
    known_strays(games)
    dovecot.append([order_mail(1), stray_mail(1), stray_mail(2)])
    settings = settings_from_config(config(dovecot), dovecot.url(scheme))
    settings.batch = 2
    seen = []
    outcomes = ingest_mailbox(Ingestor(games), settings, progress=lambda done, total: seen.append((done, total)))
    assert [o.outcome for o in outcomes] == ["accepted", "rejected", "rejected"]
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert dovecot.count("INBOX", f"KEYWORD {KEYWORD}") == 3 and dovecot.count("INBOX", "SEEN") == 3
    assert ingest_mailbox(Ingestor(games), settings) == []  # flagged: not fetched again
    dovecot.append([stray_mail(3)])
    assert [o.key.startswith("<stray-3@") for o in ingest_mailbox(Ingestor(games), settings)] == [True]


def test_move_to_processed_and_recognise_a_recorded_but_unflagged_mail(dovecot, games):  # noqa: F811
    known_strays(games)
    dovecot.append([order_mail(1), stray_mail(1)])
    settings = settings_from_config(config(dovecot, move_to="Processed"), dovecot.url())
    first = ingest_mailbox(Ingestor(games), settings)
    assert [o.outcome for o in first] == ["accepted", "rejected"]
    assert dovecot.count("INBOX") == 0 and dovecot.count("Processed") == 2
    # a crash after recording but before moving: the same mail is in the folder again
    dovecot.append([order_mail(1)])
    again = ingest_mailbox(Ingestor(games), settings)
    assert [o.outcome for o in again] == ["duplicate"] and dovecot.count("Processed") == 3
    assert len([r for r in games.store.outbox() if r["kind"] == "reply"]) == 2  # no second reply


def test_the_configured_mailbox_as_a_function_for_tick(dovecot, games):  # noqa: F811
    known_strays(games)
    assert ingest_configured(Ingestor(games), Config(env={})) == []  # no mailbox configured: nothing
    dovecot.append([stray_mail(7)])
    cfg = config(dovecot, url=dovecot.url("imap"), move_to="Done")
    assert [o.outcome for o in ingest_configured(Ingestor(games), cfg)] == ["rejected"]
    assert dovecot.count("Done") == 1 and ingest_configured(Ingestor(games), cfg) == []


def test_wrong_password_and_unverified_certificate_are_one_line_errors(dovecot, monkeypatch, tmp_path):  # noqa: F811
    db = str(tmp_path / "pbem.db")
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", "wrong")
    monkeypatch.setenv("PBEM_IMAP_CAFILE", str(dovecot.cert))
    wrong = CliRunner().invoke(cli, ["--db", db, "ingest", dovecot.url()])
    assert wrong.exit_code == 1 and "login as gm@pbem.example refused" in wrong.output and "wrong" not in wrong.output
    monkeypatch.delenv("PBEM_IMAP_CAFILE")
    monkeypatch.setenv("PBEM_IMAP_PASSWORD", PASSWORD)
    unverified = CliRunner().invoke(cli, ["--db", db, "ingest", dovecot.url()])
    assert unverified.exit_code == 1 and "CERTIFICATE_VERIFY_FAILED" in unverified.output


def test_cli_ingest_from_the_config_file_with_a_password_file(dovecot, tmp_path, monkeypatch):  # noqa: F811
    dovecot.append([stray_mail(n) for n in range(12)])
    secret = tmp_path / "imap-password"
    secret.write_text(PASSWORD + "\n")
    secret.chmod(0o600)
    (tmp_path / "pbem.toml").write_text(
        f'[mailbox]\nurl = "{dovecot.url()}"\nmove_to = "Done"\npassword_file = "{secret}"\n'
        f'cafile = "{dovecot.cert}"\n')
    for name in ("PBEM_IMAP_PASSWORD", "PBEM_IMAP_URL", "PBEM_CONFIG", "PBEM_IMAP_CAFILE"):
        monkeypatch.delenv(name, raising=False)
    db = str(tmp_path / "pbem.db")
    result = CliRunner().invoke(cli, ["--db", db, "ingest", "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)) == 12 and dovecot.count("Done") == 12
    assert "ingesting" in result.stderr  # the progress bar
    assert PASSWORD not in result.output


def test_one_config_file_and_one_cron_line(dovecot, tmp_path, monkeypatch):  # noqa: F811
    """pbem tick with only pbem.toml: the mailbox over IMAPS in, the replies over SMTPS out."""
    from aiosmtpd.controller import Controller

    from tests.mail.servers import Scripted, free_port, server_context

    handler, port = Scripted(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port,
                            ssl_context=server_context(dovecot.cert, dovecot.root / "key.pem"))
    controller.start()
    try:
        dovecot.append([stray_mail(1), stray_mail(2)])
        secret = tmp_path / "password"
        secret.write_text(PASSWORD)
        secret.chmod(0o600)
        (tmp_path / "pbem.toml").write_text(
            f'sender = "gm@pbem.example"\n[mailbox]\nurl = "{dovecot.url()}"\npassword_file = "{secret}"\n'
            f'cafile = "{dovecot.cert}"\n[smtp]\nhost = "127.0.0.1"\nport = {port}\ntls = "smtps"\n'
            f'cafile = "{dovecot.cert}"\n')
        for name in ("PBEM_IMAP_PASSWORD", "PBEM_IMAP_URL", "PBEM_CONFIG", "PBEM_SMTP_HOST", "PBEM_SMTP_PORT",
                     "PBEM_SMTP_USER", "PBEM_SMTP_PASSWORD", "PBEM_FROM"):
            monkeypatch.delenv(name, raising=False)
        db = str(tmp_path / "pbem.db")
        known_db(db)
        first = CliRunner().invoke(cli, ["--db", db, "tick"])
        assert first.exit_code == 0, first.output
        replied = sorted(m[1][0] for m in handler.messages if m[1][0].startswith("player"))
        assert replied == ["player1@example.org", "player2@example.org"]  # and the two welcome mails
        sent = len(handler.messages)
        assert dovecot.count("INBOX", f"KEYWORD {KEYWORD}") == 2
        again = CliRunner().invoke(cli, ["--db", db, "tick"])
        assert again.exit_code == 0 and again.output == "" and len(handler.messages) == sent
    finally:
        controller.stop()


# -- kill -9 at random points, then a second run ------------------------------------------------------
def _ingest(db: str, url: str, cert: Path, move_to: str | None) -> subprocess.Popen:
    env = {**os.environ, "PBEM_IMAP_PASSWORD": PASSWORD, "PBEM_IMAP_CAFILE": str(cert), "PBEM_IMAP_BATCH": "4",
           "PBEM_CONFIG": "", "PBEM_IMAP_MOVE_TO": move_to or ""}
    return subprocess.Popen([sys.executable, "-m", "pbem", "--db", db, "ingest", url, "--json"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _recorded(db: str) -> list[str]:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            return [r[0] for r in conn.execute("select message_id from mails")]
    except sqlite3.Error:
        return []


@pytest.mark.parametrize("attempt", range(KILLS))
@pytest.mark.parametrize("move", [False, True])
def test_kill_9_during_an_imap_run_then_every_mail_is_recorded_exactly_once(dovecot, tmp_path, attempt,  # noqa: F811
                                                                             move):
    total = 30
    dovecot.append([stray_mail(n) for n in range(total)])
    db = str(tmp_path / "pbem.db")
    known_db(db)
    rng = random.Random(attempt * 2 + move)
    args = (db, dovecot.url(), dovecot.cert, "Processed" if move else None)
    run = _ingest(*args)
    target, deadline = rng.randint(0, total - 1), time.monotonic() + 60
    while len(_recorded(db)) < target and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(rng.random() * 0.05)
    os.kill(run.pid, signal.SIGKILL)
    run.communicate(timeout=30)
    second = _ingest(*args)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 0, err
    counts = Counter(_recorded(db))
    assert sorted(counts) == sorted(f"<stray-{n}@example.org>" for n in range(total))
    assert set(counts.values()) == {1}
    with sqlite3.connect(db) as conn:
        replies = Counter(r[0] for r in conn.execute("select to_addr from outbox where kind = 'reply'"))
    assert len(replies) == total and set(replies.values()) == {1}  # each answered once
    assert all(o["outcome"] in ("rejected", "duplicate") for o in json.loads(out))
    if move:
        assert dovecot.count("INBOX") == 0 and dovecot.count("Processed") == total
    else:
        assert dovecot.count("INBOX", f"UNKEYWORD {KEYWORD}") == 0
