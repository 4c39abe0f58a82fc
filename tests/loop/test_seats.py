"""Seat replacement (new password, old one invalid, welcome with the
current position to the new player) and `pbem void` (the seat is told; an ACCEPTED reply
still in the outbox is withdrawn)."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.cli.app import App
from pbem.cli.main import cli
from pbem.mailout.deliver import message_of
from pbem.loop.demo import order_mail
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail
from pbem.loop.service import Service
from pbem.store.db import Store

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("yellow", "cis@example.org")]


def _text(row) -> str:
    return message_of(row).get_body(preferencelist=("plain",)).get_content()


def test_a_new_player_takes_a_seat(service):
    created = service.new_game("w1", "wallenstein", SEATS, {}, seed="seats-" + "x" * 40)
    game = created.game
    for seat in game.seats:
        service.submit("w1", seat, game.engine.default_orders(game.state, seat), "", {"kind": "gm"})
    service.adjudicate("w1")
    old = created.passwords["red"]
    assert service.authenticate("w1", "red", old, "anna@example.org") is not None
    new = service.change_seat("w1", "red", "zoe@example.org", reset_password=True)
    assert new and new != old
    assert service.authenticate("w1", "red", old, "zoe@example.org") is None  # the old password is dead
    assert service.authenticate("w1", "red", new, "anna@example.org") is None  # and so is the old address
    assert service.authenticate("w1", "red", new, "zoe@example.org") is not None
    fresh = Service(Store(service.store.path))  # another process: same answer, from the store
    assert fresh.authenticate("w1", "red", old, "zoe@example.org") is None
    welcome = [r for r in service.store.outbox() if r["kind"] == "welcome" and r["to_addr"] == "zoe@example.org"]
    assert len(welcome) == 1
    text = _text(welcome[0])
    assert f"Your password: {new}" in text and "current position" in text
    assert "1618-spring" in text and "You (red) have" in text  # the position after the last turn
    assert old not in welcome[0]["message"].decode("utf-8", "replace")
    log = [e for e in service.store.events("w1") if e.type == "SeatChanged"]
    assert log[-1].payload["password_reset"] is True and new not in str(log[-1].payload)


def test_void_tells_the_seat_and_withdraws_the_unsent_accepted_reply(service, monkeypatch):
    import pbem.loop.creating

    monkeypatch.setattr(pbem.loop.creating, "new_password", lambda: "pw-" + "k" * 12)
    service.new_game("d1", "toy-dice-duel", SEATS[:2], {}, seed="void-" + "x" * 40)
    game = service.load("d1")
    raw = order_mail(game, "red", "pw-" + "k" * 12, "BID 1", service.store.clock(), service.sender)
    assert Ingestor(service).ingest(RawMail(raw, "red.eml")).outcome == "accepted"
    replies = [r for r in service.store.outbox() if r["kind"] == "reply"]
    assert len(replies) == 1 and "ACCEPTED" in _text(replies[0])
    event = service.void("d1", "red", "sent by mistake")
    assert event.payload["reply_withdrawn"] is True
    assert [r for r in service.store.outbox() if r["kind"] == "reply"] == []
    notice = [r for r in service.store.outbox() if r["kind"] == "void"]
    assert len(notice) == 1 and notice[0]["to_addr"] == "anna@example.org"
    assert "voided your accepted orders" in _text(notice[0]) and "sent by mistake" in _text(notice[0])


def test_void_keeps_a_reply_already_sent(service, monkeypatch):
    import pbem.loop.creating

    monkeypatch.setattr(pbem.loop.creating, "new_password", lambda: "pw-" + "k" * 12)
    service.new_game("d1", "toy-dice-duel", SEATS[:2], {}, seed="void-" + "y" * 40)
    game = service.load("d1")
    raw = order_mail(game, "red", "pw-" + "k" * 12, "BID 1", service.store.clock(), service.sender)
    Ingestor(service).ingest(RawMail(raw, "red.eml"))
    reply = next(r for r in service.store.outbox() if r["kind"] == "reply")
    service.store.mark_sent(reply["id"])
    assert service.void("d1", "red", "late change").payload["reply_withdrawn"] is False
    assert any(r["id"] == reply["id"] for r in service.store.outbox())


def test_seat_command_prints_the_new_password(tmp_path):
    db = str(tmp_path / "p.db")
    Service(Store(db)).new_game("d1", "toy-dice-duel", SEATS[:2], {}, seed="cmd-" + "x" * 40)
    result = CliRunner().invoke(cli, ["--db", db, "seat", "d1", "blue", "--email", "bo@example.org",
                                      "--new-password"], obj=App(db))
    assert result.exit_code == 0 and "new password" in result.output
