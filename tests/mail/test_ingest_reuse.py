"""Ingest's fast paths (issue 14) keep their guarantees: the game copy one mail was checked
against serves the next mail only while the log has not moved, orders rolled back with a
failed mail never count, and a reply queued as headers and text is sent as the same bytes
the email package builds."""

from __future__ import annotations

import json
from email import policy
from email.message import EmailMessage

import pbem.service
from pbem import mailpack
from pbem.ingest import Ingestor
from pbem.mailin import RawMail
from tests.mail.conftest import PASSWORDS, SEATS, reply_text, replies


def _mail(seat: str, bid: int, n: int) -> RawMail:
    raw = (f"From: {SEATS[seat]}\nMessage-ID: <reuse-{n}@example.org>\nSubject: orders {n}\n\n"
           f"GAME duel {seat} {PASSWORDS[seat]}\nBID {bid}\nEND\n").encode()
    return RawMail(raw, f"<test {n}>")


def _submitted(service) -> dict[str, str]:
    return {s: o["text"] for s, o in service.load("duel").submitted.items()}


def test_one_copy_of_the_game_serves_the_mails_while_the_log_has_not_moved(games, monkeypatch):
    loads = []
    real = pbem.service.Service.load
    monkeypatch.setattr(pbem.service.Service, "load", lambda self, *a, **k: loads.append(a[0]) or real(self, *a, **k))
    ingestor = Ingestor(games)
    assert ingestor.ingest(_mail("red", 1, 1)).outcome == "accepted"
    assert loads
    loads.clear()
    outcomes = ingestor.ingest_all([_mail("blue", 2, 2), _mail("green", 0, 3)])
    assert [o.outcome for o in outcomes] == ["accepted"] * 2
    assert loads == []  # the copy the first mail was checked against, with the orders it recorded
    loads.append("checked")
    row, game = games.store.game_row("duel"), games.load("duel")
    assert (row["last_seq"], row["last_hash"]) == games.store.log_head("duel") and games.store.verify("duel") == []
    assert (row["turn"], row["state_hash"]) == (game.pending.turn, game.state_hash)
    assert "1 seat(s) still to send orders" in reply_text(replies(games)[-1])


def test_an_event_recorded_elsewhere_between_two_mails_is_seen_by_the_next(games):
    ingestor = Ingestor(games)
    assert ingestor.ingest(_mail("red", 1, 1)).outcome == "accepted"
    games.void("duel", "red", "the GM voids them")  # another command, between two mails
    out = ingestor.ingest(_mail("blue", 2, 2))
    assert out.outcome == "accepted", out.as_dict()
    assert _submitted(games) == {"blue": "BID 2"}
    assert "3 seat(s) still to send orders" in reply_text(replies(games)[-1])  # red is awaited again


def test_orders_rolled_back_with_a_failed_mail_never_count_for_the_next(games, monkeypatch):
    ingestor = Ingestor(games)
    real = Ingestor._answer
    fail = [True]

    def answer(self, *args):
        if fail.pop() if fail else False:
            raise RuntimeError("disk trouble after the orders were recorded")
        return real(self, *args)

    monkeypatch.setattr(Ingestor, "_answer", answer)
    assert ingestor.ingest(_mail("red", 1, 1)).outcome == "error"
    assert ingestor.ingest(_mail("blue", 2, 2)).outcome == "accepted"
    assert _submitted(games) == {"blue": "BID 2"}
    assert [e.type for e in games.store.events("duel")].count("OrdersSubmitted") == 1
    assert "3 seat(s) still to send orders" in reply_text(replies(games)[-1])


def test_a_reply_is_stored_as_headers_and_text_and_sent_as_the_email_package_builds_it(games):
    Ingestor(games).ingest(_mail("red", 1, 1))
    [(stored,)] = games.store.db.execute("select message from outbox where kind = 'reply'").fetchall()
    assert stored.startswith(mailpack.TEXT_MAGIC)
    parts = json.loads(stored[len(mailpack.TEXT_MAGIC):])
    expected = EmailMessage(policy=policy.default)  # what replies were built as before
    for name, value in parts["headers"]:
        expected[name] = value
    expected.set_content(parts["body"])
    sent = replies(games)[0]["message"]
    assert sent == bytes(expected) == mailpack.unpack(games.store.conn, stored)
    assert [n for n, _ in parts["headers"]] == ["From", "To", "Subject", "Message-ID", "X-PBEM-Loop",
                                                "Auto-Submitted", "In-Reply-To", "References"]
    assert dict(parts["headers"])["Message-ID"] == replies(games)[0]["message_id"]
    assert "ACCEPTED" in reply_text(replies(games)[0])
