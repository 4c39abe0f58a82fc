"""A sender written as the GM guide recommends, ``Wallenstein GM <gm@example.org>``: every
mail, the GM's and the public reports included, goes to the bare address over real SMTP, and
the threading headers name the bare domain."""

from __future__ import annotations

from email import message_from_bytes, policy

from tests.loop.mailrun import SEATS, Setup
from tests.mail.servers import Scripted

SENDER = "Wallenstein GM <gm@example.org>"


def test_reports_and_replies_reach_the_gm_address_and_thread_on_the_bare_domain(tmp_path, clock, smtp):
    gm = Setup(tmp_path, clock, sender=SENDER)
    passwords = gm.new_game("w1", "wallenstein", ("red", "blue", "green"))
    gm.mail(SEATS["red"], "orders", f"GAME w1 red {passwords['red']}\nhello\nEND\n")
    gm.ingest()
    gm.run("adjudicate", "w1", "--force")
    kinds = {r["kind"] for r in gm.outbox()}
    assert {"welcome", "reply", "report", "report-gm", "report-public"} <= kinds
    handler = Scripted()
    port = smtp(handler)
    out = gm.run("send", "--smtp", f"127.0.0.1:{port}")  # exit status 0: nothing failed
    assert "FAILED" not in out and " 0 failed" in out
    recipients = [rcpt for _, rcpts, _ in handler.messages for rcpt in rcpts]
    assert recipients.count("gm@example.org") == 2  # the GM's and the public report
    assert set(recipients) == {"gm@example.org", *(SEATS[s] for s in ("red", "blue", "green"))}
    for mail_from, _, raw in handler.messages:
        msg = message_from_bytes(raw, policy=policy.default)
        assert mail_from == "gm@example.org"
        assert msg["From"] == SENDER
        for name in ("In-Reply-To", "References", "Message-ID"):
            value = str(msg[name] or "")
            assert ">>" not in value and "GM <" not in value, (name, value)
        if msg["X-PBEM-Loop"] != "reply":
            assert "<game.w1@example.org>" in str(msg["References"])
        assert str(msg["Message-ID"]).endswith("@example.org>")
    assert not [r for r in gm.outbox() if r["sent_at"] is None]

