"""Bounces (RFC 3464 delivery status notifications, old mailer-daemon texts) and
auto-replies at the game address: recorded, never answered, shown with the seat."""

from __future__ import annotations

from click.testing import CliRunner

from pbem.mailin.bounce import failed_recipients
from pbem.cli.main import cli
from pbem.mailout.outqueue import problems
from tests.mail.conftest import replies

DSN = b"""\
From: Mail Delivery System <MAILER-DAEMON@mx.example.hu>
To: gm@pbem.example
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn-1@mx.example.hu>
Date: Thu, 01 Jan 2026 12:00:00 +0000
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Your message could not be delivered.

--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.hu
Arrival-Date: Thu, 01 Jan 2026 11:59:58 +0000

Final-Recipient: rfc822; anna.kovacs@example.hu
Original-Recipient: rfc822;anna.kovacs@example.hu
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 <anna.kovacs@example.hu>: mailbox unavailable

Final-Recipient: rfc822; dan@example.org
Action: delayed
Status: 4.4.1

--B
Content-Type: text/rfc822-headers

From: gm@pbem.example
To: anna.kovacs@example.hu
Subject: [duel] Welcome, red
X-PBEM-Loop: welcome

--B--
"""

OLD_BOUNCE = b"""\
From: postmaster@relay.example.org
To: gm@pbem.example
Subject: failure notice
Message-ID: <old-bounce@relay.example.org>

Hi. This is the qmail-send program at relay.example.org.
I'm afraid I wasn't able to deliver your message to the following addresses.

<ben@example.org>:
Sorry, no mailbox here by that name. (#5.1.1)
"""

VACATION = b"""\
From: Cis <cis@example.cz>
To: gm@pbem.example
Subject: Out of office: [duel] report
Message-ID: <vacation-1@example.cz>
Auto-Submitted: auto-replied

I am away until Monday.
"""


def test_dsn_is_parsed_per_recipient():
    assert failed_recipients(DSN) == [
        ("anna.kovacs@example.hu", "failed", "5.1.1 smtp; 550 5.1.1 <anna.kovacs@example.hu>: mailbox unavailable"),
        ("dan@example.org", "delayed", "4.4.1")]
    assert failed_recipients(VACATION) == []


def test_dsn_is_never_answered_and_shows_the_seat(ingest, games):
    out = ingest(DSN)
    assert out.outcome == "ignored" and "seat red of duel" in out.note and "delayed for dan@example.org" in out.note
    assert replies(games) == []
    listed = problems(games.store, "duel")
    assert [(p["address"], p["seat"], p["source"]) for p in listed] == [("anna.kovacs@example.hu", "red", "bounce")]
    assert ingest(DSN).outcome == "duplicate" and len(problems(games.store, "duel")) == 1
    shown = CliRunner().invoke(cli, ["--db", games.store.path, "status", "duel"]).output
    assert "mail to anna.kovacs@example.hu (seat red) fails" in shown and "(bounce," in shown


def test_old_style_bounce_is_matched_on_seat_addresses(ingest, games):
    out = ingest(OLD_BOUNCE)
    assert out.outcome == "ignored" and "ben@example.org (seat blue of duel, seat blue of duel2)" in out.note
    assert [p["seat"] for p in problems(games.store, "duel")] == ["blue"] and replies(games) == []


def test_auto_reply_is_shown_with_its_seat_and_is_no_delivery_problem(ingest, games):
    out = ingest(VACATION)
    assert out.outcome == "ignored" and out.note.endswith("from seat green of duel")
    assert replies(games) == [] and problems(games.store) == []
