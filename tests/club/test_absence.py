"""Absences, missed turns and civil disorder, coming back, the standby list and replacements,
by real mails through ``pbem ingest`` and the GM's commands, with the replies read back."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import pytest

from pbem.store.events import ReplayMismatch, fold
from pbem.store.db import Store
from tests.club.helpers import SEATS, Setup, answers, block, events, last_answer, status, text

THREE = ("red", "blue", "green")


def _game(tmp_path, clock, **options: str) -> Setup:
    setup = Setup(tmp_path, clock)
    setup.new_game("d1", "toy-dice-duel", THREE, options={"rounds": "5", **options}, deadline_every="72h")
    return setup


def _bids(setup: Setup, *seats: str) -> None:
    for seat in seats:
        block(setup, seat, "d1", "BID 1")
    setup.ingest()


def test_an_absence_by_mail_moves_the_deadline_up_to_the_cap_and_every_seat_is_told(tmp_path, clock):
    setup = _game(tmp_path, clock, absence_cap="2d")
    before = status(setup, "d1")["deadline_utc"]
    block(setup, "red", "d1", "ABSENT FOR 20d")
    assert "1 accepted" in setup.ingest()
    reply = last_answer(setup, SEATS["red"], "reply")
    assert "DONE: for game d1, seat red" in reply and "ABSENT: noted: you are away from" in reply
    assert "at most 2 days past its deadline" in reply
    st = status(setup, "d1")
    assert st["absences"]["red"]["now"] is True
    moved = events(setup, "d1", "DeadlineSet")[-1].payload
    assert moved["absence"] == ["red"] and moved["base"] == before
    from pbem.loop.deadlines import instant

    assert instant(st["deadline_utc"]) - instant(before) == timedelta(days=2)  # the cap, not 20 days
    for seat in THREE:  # every seat is told why the deadline moved
        assert "waits for red, away by a declared absence" in last_answer(setup, SEATS[seat], "deadline")
    assert "absent: red from" in setup.run("status", "d1")
    # the turn's deadline waits no longer: a tick at the moved deadline plays the default for red
    _bids(setup, "blue", "green")
    clock.now += timedelta(days=5, hours=1)
    assert "adjudicated d1 round-1 (missed orders: red)" in setup.run("tick")
    assert status(setup, "d1").get("missed", {}) == {}  # away: not counted as missed in a row
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_under_the_bot_policy_the_bot_plays_an_absent_seat_and_the_game_goes_on(tmp_path, clock):
    setup = _game(tmp_path, clock, absence="bot")
    block(setup, "red", "d1", "ABSENT FROM 2026-01-01 TO 2026-01-20")
    setup.ingest()
    assert "the game's bot writes your orders" in last_answer(setup, SEATS["red"], "reply")
    bot = events(setup, "d1", "OrdersSubmitted")[-1].payload
    assert bot["seat"] == "red" and bot["source"]["kind"] == "bot" and bot["source"]["reason"] == "absent"
    assert status(setup, "d1")["bot_played"] == {"red": "absent"}
    _bids(setup, "blue", "green")
    out = setup.run("tick")
    assert "adjudicated d1 round-1" in out and "missed" not in out
    # the next turn opened with the bot's orders for red already in
    assert [e.payload["seat"] for e in events(setup, "d1", "OrdersSubmitted")][-1] == "red"
    block(setup, "red", "d1", "BACK")
    setup.ingest()
    assert "welcome back" in last_answer(setup, SEATS["red"], "reply")
    assert status(setup, "d1")["bot_played"] == {} and events(setup, "d1", "AbsenceEnded")
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_missed_turns_in_a_row_make_civil_disorder_the_bot_plays_and_the_player_comes_back(tmp_path, clock):
    setup = _game(tmp_path, clock, disorder_after="2")
    for _ in range(2):  # green sends nothing for two turns
        _bids(setup, "red", "blue")
        clock.now += timedelta(days=4)
        assert "missed orders: green" in setup.run("tick")
    fell = events(setup, "d1", "CivilDisorder")
    assert [e.payload for e in fell] == [{"seat": "green", "turn": "round-3", "missed": 2, "by": "missed"}]
    for seat in ("red", "blue"):
        assert "seat green is in civil disorder after 2 missed turns" in last_answer(setup, SEATS[seat], "disorder")
    mine = last_answer(setup, SEATS["green"], "disorder")
    assert "your seat is in civil disorder" in mine and "the one line BACK" in mine
    st = status(setup, "d1")
    assert st["bot_played"] == {"green": "civil disorder"} and st["missed"] == {"green": 2}
    assert "played by the bot: green (civil disorder)" in setup.run("status", "d1")
    assert events(setup, "d1", "OrdersSubmitted")[-1].payload["source"]["kind"] == "bot"
    _bids(setup, "red", "blue")  # the bot's orders are in: the turn goes on without a deadline
    assert "adjudicated d1 round-3" in setup.run("tick")
    block(setup, "green", "d1", "BID 2")  # the player's own orders bring the seat back
    setup.ingest()
    assert "you play it again" in last_answer(setup, SEATS["green"], "reply")
    assert events(setup, "d1", "SeatReturned")[-1].payload == {"seat": "green", "how": "password"}
    assert status(setup, "d1")["bot_played"] == {}
    assert "seat green is played by its player again" in last_answer(setup, SEATS["red"], "disorder")
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_a_civil_disorder_the_log_does_not_give_fails_verification(tmp_path, clock):
    setup = _game(tmp_path, clock, disorder_after="1")
    _bids(setup, "red", "blue")
    clock.now += timedelta(days=4)
    setup.run("tick")
    store = Store(setup.db)
    log = store.events("d1")
    seed = store.secrets("d1")[0]
    fold("d1", log, seed, verify=True)  # as recorded: verifies
    forged = [dataclasses.replace(e, payload={**e.payload, "seat": "red"}) if e.type == "CivilDisorder"
              else e for e in log]
    with pytest.raises(ReplayMismatch, match="civil disorder after 1 missed turns, but the log gives 0"):
        fold("d1", forged, seed, verify=True)


def test_misuse_gets_one_clear_line_and_nothing_is_recorded(tmp_path, clock):
    setup = _game(tmp_path, clock)
    before = len(events(setup, "d1"))
    cases = [("ABSENT FROM 2026-02-10 TO 2026-02-01", "the absence ends before it begins"),
             ("ABSENT SOMETIME", "write ABSENT FROM 2026-12-10 TO 2026-12-20"),
             ("ABSENT FOR 200d", "at most 90 days"),
             ("ABSENT NONE", "red has no absence declared in d1"),
             ("BACK", "red is neither away nor in civil disorder in d1")]
    for line, why in cases:
        block(setup, "red", "d1", line)
        setup.ingest()
        reply = last_answer(setup, SEATS["red"], "reply")
        assert "NOT ALL DONE" in reply and why in reply and "nothing was recorded" in reply, reply
    assert len(events(setup, "d1")) == before
    setup.mail(SEATS["red"], "away", "GAME d1 red wrong-password\nABSENT FOR 2d\nEND\n")
    setup.ingest()
    assert "No order block of your mail was recorded" in last_answer(setup, SEATS["red"], "reply")
    assert len(events(setup, "d1")) == before


def test_club_lines_are_rate_limited_per_seat(tmp_path, clock):
    setup = _game(tmp_path, clock)
    block(setup, "red", "d1", *["ABSENT FOR 1d"] * 11)
    setup.ingest()
    reply = last_answer(setup, SEATS["red"], "reply")
    assert reply.count("ABSENT: noted") == 10 and "used 10 times in the last 24 hours" in reply
    assert len(events(setup, "d1", "AbsenceDeclared")) == 10
    assert "mail command ABSENT NOT answered (over its limit)" in setup.run("status", "d1")


def test_standby_by_mail_and_the_gm_gives_a_dropped_seat_to_a_standby_player(tmp_path, clock):
    setup = _game(tmp_path, clock, disorder_after="1")
    _bids(setup, "red", "blue")
    clock.now += timedelta(days=4)
    setup.run("tick")
    assert status(setup, "d1")["bot_played"] == {"green": "civil disorder"}
    for sender, subject in (("zoe@example.org", "STANDBY d1"), ("yan@example.org", "standby"),
                            ("xi@example.org", "STANDBY nosuchgame")):
        setup.mail(sender, subject, "please")
        setup.ingest()  # one at a time: mails of one second may be read in any order
    assert "You are now on the standby list for game d1" in last_answer(setup, "zoe@example.org")
    assert "any game" in last_answer(setup, "yan@example.org")
    assert last_answer(setup, "xi@example.org").startswith("STANDBY: there is no game 'nosuchgame'. Nothing")
    listed = json.loads(setup.run("standby", "--json"))
    assert [r["address"] for r in listed] == ["zoe@example.org", "yan@example.org"]
    out = json.loads(setup.run("replace", "d1", "green", "--standby", "--json"))
    assert out["email"] == "zoe@example.org" and out["password"]
    welcome = last_answer(setup, "zoe@example.org", "welcome")
    assert out["password"] in welcome and "You play the seat 'green'" in welcome
    assert events(setup, "d1", "SeatReturned")[-1].payload == {"seat": "green", "how": "replacement"}
    assert status(setup, "d1")["bot_played"] == {}
    assert "seat green is played by a new player" in last_answer(setup, SEATS["red"], "disorder")
    assert [r["address"] for r in json.loads(setup.run("standby", "--json"))] == ["yan@example.org"]
    setup.mail("yan@example.org", "STANDBY OFF", "")
    setup.ingest()
    assert "You are off the standby list" in last_answer(setup, "yan@example.org")
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_the_gm_commands_take_json_and_refuse_with_one_line(tmp_path, clock):
    setup = _game(tmp_path, clock)
    out = json.loads(setup.run("absent", "d1", "red", "--from", "2026-01-02", "--to", "2026-01-05", "--json"))
    assert out["from"] == "2026-01-02T00:00:00Z" and out["to"] == "2026-01-05T23:59:59Z"
    assert "the GM noted that you are away" in last_answer(setup, SEATS["red"], "absence")
    assert json.loads(setup.run("absent", "d1", "red", "--end", "--json"))["absent"] is False
    assert json.loads(setup.run("disorder", "d1", "blue", "--reason", "gone", "--json"))["seat"] == "blue"
    assert events(setup, "d1", "CivilDisorder")[-1].payload["by"] == "gm"
    assert events(setup, "d1", "OrdersSubmitted")[-1].payload["source"]["kind"] == "bot"
    assert "is already played by the bot" in setup.run("disorder", "d1", "blue", code=1)
    assert json.loads(setup.run("back", "d1", "blue", "--json"))["seat"] == "blue"
    for args, why in ((("absent", "d1", "nobody", "--for", "2d"), "no seat 'nobody' in d1"),
                      (("back", "d1", "red"), "neither away nor in civil disorder"),
                      (("replace", "d1", "red", "--standby"), "nobody on the standby list")):
        out = setup.run(*args, code=1)
        assert why in out and len(out.strip().splitlines()) == 1, out
    assert "give --to (and --from) or --for, or --end" in setup.run("absent", "d1", "red", code=2)
    assert "give --for DURATION alone" in setup.run("absent", "d1", "red", "--for", "2d", "--from", "x", code=2)


def test_absent_says_the_period_and_the_event(tmp_path, clock):
    setup = _game(tmp_path, clock)
    out = setup.run("absent", "d1", "red", "--from", "2026-01-02", "--to", "2026-01-05")
    seq = events(setup, "d1", "AbsenceDeclared")[-1].seq
    assert out == (f"red is away from 2026-01-02T00:00:00Z to 2026-01-05T23:59:59Z in d1 (event {seq}); "
                   "the seat is told by mail\n")
