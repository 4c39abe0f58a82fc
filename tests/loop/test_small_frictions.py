"""Small things players and GMs met: the Wallenstein late notice says what was played for the
seat; "place N of 4" follows the documented ranking (VP, then Taler) and says when a place is
shared, not seat order; four Dogs are "four of a kind: Dogs", not "four of a kind 0"; reports
say Taler (the event cards' data spell it Thaler); `+3d` means the same in `pbem deadline` and
`pbem rollback --deadline` (added to the turn's deadline, or to now when it has none), and
`now+3d` is three days from now in both."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from adjudicator.wallenstein.data import events
from pbem.loop.deadlines import instant
from pbem.store.db import Store
from reports.havoc.content import combination_text
from reports.wallenstein.content import _place
from reports.wallenstein.events import event_text
from tests.clirun import SEATS, run
from tests.loop.mailrun import text


def test_the_wallenstein_late_notice_says_what_was_played(tmp_path):
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline-every", "72h")
    run("--db", db, "adjudicate", "w1", "--force")
    late = text(next(r for r in Store(db).outbox() if r["kind"] == "late"))
    flat = " ".join(late.split())
    assert "money cards on every action space: you did no action this season and paid nothing" in flat, late
    assert "no orders received" not in late


def test_place_follows_vp_then_taler_and_says_shared():
    seats = {"red": {"vp": 0, "taler": 10}, "blue": {"vp": 0, "taler": 10}, "yellow": {"vp": 0, "taler": 12},
             "green": {"vp": 3, "taler": 0}}
    assert _place(seats, "green") == "place 1 of 4 by VP, then Taler"
    assert _place(seats, "yellow") == "place 2 of 4 by VP, then Taler"
    assert _place(seats, "red") == _place(seats, "blue") == "shared place 3 of 4 by VP, then Taler, with 1 other seat"


def test_four_dogs_are_named():
    assert combination_text({"name": "four of a kind", "tiebreak": [0]}) == "four of a kind: Dogs"
    assert combination_text({"name": "four of a kind", "tiebreak": [7]}) == "four of a kind 7"


def test_reports_say_taler():
    texts = [event_text(card) for card in events()]
    assert any("Taler" in t for t in texts) and not any("Thaler" in t for t in texts)


def _deadline(db: str) -> datetime:
    return instant(json.loads(run("--db", db, "status", "w1", "--json"))["deadline"])


def test_plus_and_now_plus_mean_the_same_in_deadline_and_rollback(tmp_path):
    db = str(tmp_path / "pbem.db")
    now = datetime.now(timezone.utc)
    run("--db", db, "new", "w1", "--game", "wallenstein", *SEATS, "--deadline",
        (now + timedelta(days=1)).replace(microsecond=0).isoformat())
    first = _deadline(db)
    out = run("--db", db, "deadline", "w1", "+3d")
    assert _deadline(db) == first + timedelta(days=3) and "(3d after the previous deadline" in out, out
    out = run("--db", db, "deadline", "w1", "now+3d")
    assert abs(_deadline(db) - (now + timedelta(days=3))) < timedelta(minutes=5) and "(3d from now)" in out, out
    run("--db", db, "adjudicate", "w1", "--force")
    for when in ("+3d", "now+3d"):  # the reopened turn has no deadline: both count from now
        run("--db", db, "rollback", "w1", "--to", "1618-spring", "--reason", f"test {when}", "--deadline", when)
        assert abs(_deadline(db) - (now + timedelta(days=3))) < timedelta(minutes=5)
        run("--db", db, "adjudicate", "w1", "--force")


def test_standing_clear_beside_other_standing_lines_is_warned(tmp_path):
    from tests.loop.mailrun import Setup

    class Clock:
        now = datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)

        def __call__(self) -> datetime:
            return self.now

    gm = Setup(tmp_path, Clock())
    passwords = gm.new_game("h1", "havoc", ("red", "blue", "green"))
    gm.mail("ben@example.org", "standing", f"GAME h1 blue {passwords['blue']}\nSTANDING ROUND: PASS\n"
                                           "STANDING CLEAR\nEND\n")
    gm.mail("ben@example.org", "standing", f"GAME h1 blue {passwords['blue']}\nSTANDING ROUND: PASS\nEND\n")
    gm.ingest()
    replies = [" ".join(text(r).split()) for r in gm.outbox("reply")]
    warned = [r for r in replies if "STANDING CLEAR does nothing beside other STANDING lines" in r]
    assert len(warned) == 1 and "STANDING CLEAR" in warned[0], replies


def test_status_tells_a_seat_whose_plan_answers_apart(tmp_path):
    """Standing orders (or a plan) that answer the pending decision: the seat is not listed
    as awaited in `pbem status` (the GM would chase a player who owes nothing)."""
    db = str(tmp_path / "pbem.db")
    run("--db", db, "new", "h1", "--game", "havoc", *SEATS)
    status = json.loads(run("--db", db, "status", "h1", "--json"))
    assert status["turn"] == "b1/recruit/red/0" and status["planned"] == [], status
    standing = tmp_path / "standing.txt"
    standing.write_text("GAME h1 red\nSTANDING RECRUIT: RECRUIT DECK; RECRUIT DECK; LAY LOWEST\nEND\n")
    run("--db", db, "ingest", str(standing))
    status = json.loads(run("--db", db, "status", "h1", "--json"))
    assert status["turn"] == "b1/recruit/red/0" and status["planned"] == ["red"], status
    assert "awaiting: - (red: standing orders or plan answer it)" in run("--db", db, "status", "h1")
