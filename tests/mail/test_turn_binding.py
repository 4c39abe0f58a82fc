"""Orders bound to their turn: an old order mail sent again with a new
Message-ID is never taken for orders of a later turn."""

from __future__ import annotations

from datetime import datetime, timezone

from tests.mail.conftest import fixture, replies, reply_text


def _resent(raw: bytes, n: int) -> bytes:
    """The same mail with a new Message-ID (what a replay looks like)."""
    return raw.replace(b"<a1b2c3d4-0001@example.org>", b"<replay-%d@evil.example>" % n)


def test_a_replayed_mail_without_turn_line_is_refused_with_the_fix(games, ingest, clock):
    clock.now = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)  # the game runs in late November
    plain = fixture("plain.eml")  # dated Mon, 30 Nov 2026 09:15 +0100, no TURN line
    assert ingest(plain).outcome == "accepted"
    clock.now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    games.adjudicate("duel", force=True)  # turn round-2 begins on 1 Dec
    out = ingest(_resent(plain, 1))
    assert out.outcome == "rejected" and "before turn round-2 began" in out.blocks[0].reason
    assert "blue" not in games.load("duel").submitted
    text = " ".join(reply_text(replies(games)[-1]).split())
    assert "write 'TURN round-2' as the first line of the block" in text
    # the player's own fix: the same orders with the TURN line are accepted
    fixed = _resent(plain, 2).replace(b"bq3n-8vhs-4kfa\n", b"bq3n-8vhs-4kfa\nTURN round-2\n")
    assert ingest(fixed).outcome == "accepted"


def test_a_mail_dated_after_the_turn_began_needs_no_turn_line(games, ingest, clock):
    clock.now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    games.adjudicate("duel", force=True)
    assert ingest(fixture("plain.eml")).outcome == "accepted"


def test_a_turn_line_naming_another_turn_is_refused_with_the_fix(games, ingest):
    raw = fixture("old_turn.eml").replace(b"TURN round-1", b"TURN round-7")
    out = ingest(raw)
    assert out.outcome == "rejected" and "round-7 is not the pending turn" in out.blocks[0].reason
    assert "write 'TURN round-1' (or no TURN line)" in " ".join(reply_text(replies(games)[-1]).split())


def test_a_mail_without_date_is_taken_for_an_old_one(games, ingest, clock):
    """An old order body sent again with a new Message-ID and no Date,
    without a TURN line, is refused after the first turn; with the TURN line it counts."""
    clock.now = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
    plain = fixture("plain.eml")
    assert ingest(plain).outcome == "accepted"
    clock.now = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
    games.adjudicate("duel", force=True)
    undated = b"\n".join(line for line in _resent(plain, 3).split(b"\n") if not line.startswith(b"Date:"))
    assert b"\nDate:" not in undated
    out = ingest(undated)
    assert out.outcome == "rejected" and "has no Date" in out.blocks[0].reason
    assert "blue" not in games.load("duel").submitted
    text = " ".join(reply_text(replies(games)[-1]).split())
    assert "write 'TURN round-2' as the first line of the block" in text
    fixed = undated.replace(b"replay-3", b"replay-4").replace(b"bq3n-8vhs-4kfa\n", b"bq3n-8vhs-4kfa\nTURN round-2\n")
    assert ingest(fixed).outcome == "accepted"


def test_an_undated_mail_in_the_first_turn_and_a_gm_text_need_no_turn_line(games, ingest):
    plain = fixture("plain.eml")
    undated = b"\n".join(line for line in plain.split(b"\n") if not line.startswith(b"Date:"))
    assert ingest(undated).outcome == "accepted"
    games.adjudicate("duel", force=True)
    assert ingest(b"GAME duel red\nBID 1\nEND\n").outcome == "accepted"  # typed by the GM
