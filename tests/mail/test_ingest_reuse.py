"""Ingest's fast paths keep their guarantees: the game copy one mail was checked
against serves the next mail only while the log has not moved, orders rolled back with a
failed mail never count, a reply queued as headers and text is sent as the same bytes the
email package builds, and a batch of mails in one transaction undoes a failing mail alone
and a crash's whole batch."""

from __future__ import annotations

import json
from email import policy
from email.message import EmailMessage

import pytest

import pbem.loop.correcting
import pbem.loop.service
from pbem.store import mailpack
from pbem.loop.ingest import BATCH, Ingestor
from pbem.mailin.parse import RawMail
from tests.mail.conftest import PASSWORDS, SEATS, reply_text, replies


def _mail(seat: str, bid: int, n: int) -> RawMail:
    raw = (f"From: {SEATS[seat]}\nMessage-ID: <reuse-{n}@example.org>\nSubject: orders {n}\n\n"
           f"GAME duel {seat} {PASSWORDS[seat]}\nBID {bid}\nEND\n").encode()
    return RawMail(raw, f"<test {n}>")


def _submitted(service) -> dict[str, str]:
    return {s: o["text"] for s, o in service.load("duel").submitted.items()}


def test_one_copy_of_the_game_serves_the_mails_while_the_log_has_not_moved(games, monkeypatch):
    loads = []
    real = pbem.loop.service.Service.load
    monkeypatch.setattr(pbem.loop.service.Service, "load", lambda self, *a, **k: loads.append(a[0]) or real(self, *a, **k))
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
    assert "1 seat still to send orders" in reply_text(replies(games)[-1])


def test_an_event_recorded_elsewhere_between_two_mails_is_seen_by_the_next(games):
    ingestor = Ingestor(games)
    assert ingestor.ingest(_mail("red", 1, 1)).outcome == "accepted"
    games.void("duel", "red", "the GM voids them")  # another command, between two mails
    out = ingestor.ingest(_mail("blue", 2, 2))
    assert out.outcome == "accepted", out.as_dict()
    assert _submitted(games) == {"blue": "BID 2"}
    assert "3 seats still to send orders" in reply_text(replies(games)[-1])  # red is awaited again


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
    assert "3 seats still to send orders" in reply_text(replies(games)[-1])


def test_a_reply_is_stored_as_headers_and_text_and_sent_as_the_email_package_builds_it(games):
    Ingestor(games).ingest(_mail("red", 1, 1))
    [(stored,)] = games.store.db.execute("select message from outbox where kind = 'reply'").fetchall()
    assert stored.startswith(mailpack.TEXT_MAGIC)
    parts = json.loads(stored[len(mailpack.TEXT_MAGIC):])
    expected = EmailMessage(policy=policy.default)  # what replies were built as before
    for name, value in parts["headers"]:
        if name != "Content-Language":
            expected[name] = value
    expected.set_content(parts["body"])
    expected["Content-Language"] = dict(parts["headers"])["Content-Language"]  # after the content's headers
    sent = replies(games)[0]["message"]
    assert sent == bytes(expected) == mailpack.unpack(games.store.conn, stored)
    assert [n for n, _ in parts["headers"]] == ["From", "To", "Subject", "Message-ID", "X-PBEM-Loop",
                                                "Content-Language", "Auto-Submitted", "In-Reply-To", "References"]
    assert dict(parts["headers"])["Message-ID"] == replies(games)[0]["message_id"]
    assert "ACCEPTED" in reply_text(replies(games)[0])


def test_a_batch_is_one_transaction_and_a_failing_mail_in_it_is_undone_alone(games, monkeypatch):
    statements: list[str] = []
    games.store.conn.set_trace_callback(statements.append)
    real = Ingestor._answer

    def answer(self, mail, *args):
        if b"<reuse-2@" in mail.raw:
            raise RuntimeError("disk trouble after the orders were recorded")
        return real(self, mail, *args)

    monkeypatch.setattr(Ingestor, "_answer", answer)
    mails = [_mail(("red", "blue", "green")[n % 3], n % 4, n) for n in range(BATCH + 10)]
    outcomes = Ingestor(games).ingest_all(mails)
    games.store.conn.set_trace_callback(None)
    assert [o.outcome for o in outcomes[:4]] == ["accepted", "accepted", "error", "accepted"]
    assert statements.count("COMMIT") == 2  # two batches, not a commit per mail
    submitted = [e.payload["source"]["message_id"] for e in games.store.events("duel") if e.type == "OrdersSubmitted"]
    assert len(submitted) == BATCH + 9 and "<reuse-2@example.org>" not in submitted
    status = dict(games.store.db.execute("select message_id, status from mails").fetchall())
    assert status["<reuse-2@example.org>"] == "error" and len(status) == BATCH + 10


def test_a_crash_inside_a_batch_undoes_the_whole_batch_and_a_rerun_resumes(games, monkeypatch):
    real = Ingestor._process

    def process(self, mail, origin):
        if b"<reuse-55@" in mail.raw:
            raise KeyboardInterrupt  # the process dies here (nothing catches it)
        return real(self, mail, origin)

    monkeypatch.setattr(Ingestor, "_process", process)
    mails = [_mail(("red", "blue", "green")[n % 3], n % 4, n) for n in range(BATCH + 10)]
    with pytest.raises(KeyboardInterrupt):
        Ingestor(games).ingest_all(mails)
    kept = games.store.db.execute("select count(*) from mails").fetchone()[0]
    assert kept == BATCH  # the first batch was committed, nothing of the second
    monkeypatch.setattr(Ingestor, "_process", real)
    outcomes = Ingestor(games).ingest_all(mails)
    assert [o.outcome for o in outcomes] == ["duplicate"] * BATCH + ["accepted"] * 10
    assert games.store.db.execute("select count(*) from mails").fetchone()[0] == BATCH + 10
    assert len(replies(games)) == BATCH + 10  # one reply per mail


def test_a_password_reset_by_mail_in_the_same_batch_stops_the_old_password_at_once(games, monkeypatch):
    monkeypatch.setattr(pbem.loop.correcting, "new_password", lambda: "zx9q-7mkd-3vbn")
    # (a new password by mail needs the current one: a GAME block of one line PASSWORD)
    reset = (f"From: {SEATS['red']}\nMessage-ID: <reuse-reset@example.org>\nSubject: new password\n\n"
             f"GAME duel red {PASSWORDS['red']}\nPASSWORD\nEND\n").encode()
    outcomes = Ingestor(games).ingest_all([_mail("red", 1, 1), RawMail(reset, "<reset>"), _mail("red", 2, 2)])
    assert [o.outcome for o in outcomes] == ["accepted", "accepted", "rejected"]
    assert outcomes[2].blocks[0].auth_reason == "wrong password"  # the copy's old credentials were not used
    assert _submitted(games) == {"red": "BID 1"}
