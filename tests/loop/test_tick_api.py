"""``pbem tick`` as a program calls it (pbem.loop.tick): the transport chosen once there is mail
to send, the run over mail files, no command line."""

from __future__ import annotations

import pytest

from pbem.errors import DomainError
from pbem.loop.tick import tick_configured, transport_maker
from pbem.mailout.config import load_config


@pytest.fixture
def config(tmp_path, monkeypatch):
    for name in ("PBEM_SMTP_HOST", "PBEM_IMAP_URL", "PBEM_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    return load_config(None, str(tmp_path / "pbem.db"), env={})


def test_no_server_means_no_transport_and_a_maildir_is_checked_before_anything_is_done(config, tmp_path):
    assert transport_maker(config) is None
    make = transport_maker(config, maildir=str(tmp_path / "out"))
    from pbem.mailout.deliver import MaildirTransport

    assert isinstance(make(), MaildirTransport)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(DomainError):
        transport_maker(config, maildir=str(tmp_path / "file" / "out"))
    assert transport_maker(config, smtp="mail.example.org:587") is not None


def test_a_run_without_a_mailbox_adjudicates_what_is_due_and_sends_into_the_maildir(service, config, tmp_path, clock):
    from datetime import timedelta

    service.new_game("g1", "toy-dice-duel", [("red", "a@x.org"), ("blue", "b@x.org")], {}, "tick-" + "x" * 50,
                     deadline="2026-01-02T12:00:00+00:00")
    clock.now += timedelta(days=2)
    done = tick_configured(service, config, (), transport_maker(config, maildir=str(tmp_path / "out")))
    assert any(d.what == "adjudicate" for d in done), [d.text for d in done]
    assert list((tmp_path / "out" / "new").iterdir())
    assert service.load("g1").pending.turn == "round-2"
