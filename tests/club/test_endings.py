"""Ending a game by agreement, by real mails through ``pbem ingest``: draw votes (secret until
the round ends or the draw passes), concessions, resignations; the record, the status, the
replay and the final mails name how the game ended."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pbem.store.events import ReplayMismatch, fold
from pbem.store.db import Store
from tests.club.helpers import SEATS, Setup, answers, block, events, last_answer, status

THREE = ("red", "blue", "green")


def _game(tmp_path, clock, seats=THREE, **options: str) -> Setup:
    setup = Setup(tmp_path, clock)
    setup.new_game("d1", "toy-dice-duel", seats, options={"rounds": "4", **options})
    return setup


def _turn(setup: Setup) -> None:
    for seat in THREE:
        block(setup, seat, "d1", "BID 1")
    setup.ingest()
    setup.run("adjudicate", "d1")


def test_a_draw_passes_when_every_seat_votes_for_it_in_one_round(tmp_path, clock):
    setup = _game(tmp_path, clock)
    block(setup, "red", "d1", "DRAW")
    block(setup, "blue", "d1", "draw yes  # enough")
    setup.ingest()
    reply = last_answer(setup, SEATS["red"], "reply")
    assert "your vote for a draw is recorded. It is secret" in reply and "red, blue, green" in reply
    assert not status(setup, "d1")["over"]
    block(setup, "green", "d1", "DRAW")
    setup.ingest()
    assert "the draw passes with your vote" in last_answer(setup, SEATS["green"], "reply")
    st = status(setup, "d1")
    assert st["over"] and st["winner"] is None
    assert st["ended"] == {"how": "draw", "seats": ["red", "blue", "green"], "turn": "round-1"}
    assert "over; drawn between red, blue, green (turn round-1)" in setup.run("status", "d1")
    assert [e.type for e in events(setup, "d1")][-2:] == ["GameEnded", "SeedRevealed"]
    for seat in THREE:
        final = last_answer(setup, SEATS[seat], "final")
        assert "The game ended in a draw between red, blue and green" in final and "t" * 40 in final
    assert "draw between red, blue and green" in last_answer(setup, setup.sender, "final-public")
    record = setup.run("export", "d1", "--format", "record", "-o", str(tmp_path / "d1.txt"))
    text = (tmp_path / "d1.txt").read_text(encoding="utf-8")
    assert '[Result "draw: red, blue, green"]' in text and '[Ended "The game ended in a draw' in text, record
    out = setup.run("replay", "d1", "--verify")
    assert "verified" in out
    from tests.clirun import run

    other = str(tmp_path / "other.db")  # the record imported elsewhere ends the same way
    run("--db", other, "import", str(tmp_path / "d1.txt"))
    assert "over; drawn between red, blue, green (turn round-1)" in run("--db", other, "status", "d1")
    checked = run("--db", other, "replay", "d1", "--verify")
    assert "verified" in checked and "a record holds no votes" in checked
    block(setup, "red", "d1", "DRAW")  # a vote outside a turn
    setup.ingest()
    assert "game d1 is over: there is no turn to vote in" in last_answer(setup, SEATS["red"], "reply")


def test_draw_votes_are_secret_until_the_round_ends_then_every_seat_is_told(tmp_path, clock):
    setup = _game(tmp_path, clock)
    block(setup, "red", "d1", "DRAW")
    setup.ingest()
    setup.mail(SEATS["blue"], "STATUS", "")
    setup.mail(SEATS["red"], "STATUS", "")
    setup.ingest()
    assert "draw" not in last_answer(setup, SEATS["blue"]).lower()  # blue learns nothing of red's vote
    assert "Your vote this round: for a draw" in last_answer(setup, SEATS["red"])
    archive = tmp_path / "run.json"
    setup.run("export", "d1", "-o", str(archive))
    voted = [e for e in json.loads(archive.read_text())["events"] if e["type"] == "DrawVoted"]
    assert voted and all(set(e["payload"]) == {"sealed"} for e in voted)  # sealed while the game runs
    assert "verified" in setup.run("replay", str(archive), "--verify")
    site = json.loads(setup.run("site", "d1", "--out", str(tmp_path / "site"), "--json"))
    pages = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert site["files"] >= 1 and pages and "DrawVoted" not in pages and "vote" not in pages.lower()
    assert not any("draw" in a.lower() for s in ("blue", "green") for a in answers(setup, SEATS[s], "ending"))
    _turn(setup)  # the round ends: the votes are closed and told
    assert events(setup, "d1", "VotesClosed")[-1].payload == {"turn": "round-1", "draw": ["red"], "concede": {}}
    for seat in THREE:
        told = last_answer(setup, SEATS[seat], "ending")
        assert "For a draw: red; not: blue, green." in told
    block(setup, "blue", "d1", "DRAW")
    block(setup, "green", "d1", "DRAW")
    setup.ingest()
    assert not status(setup, "d1")["over"]  # red's vote was of the round before
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_a_concession_ends_the_game_in_favour_of_the_stated_seat(tmp_path, clock):
    setup = _game(tmp_path, clock)
    block(setup, "red", "d1", "CONCEDE green")
    setup.ingest()
    assert "your concession to green is recorded" in last_answer(setup, SEATS["red"], "reply")
    block(setup, "blue", "d1", "CONCEDE Green")
    setup.ingest()
    st = status(setup, "d1")
    assert st["over"] and st["winner"] == "green" and st["ended"]["how"] == "concession"
    assert "The game was conceded to green" in last_answer(setup, SEATS["green"], "final")
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_resigned_seats_are_played_by_the_bot_and_the_last_one_left_wins(tmp_path, clock):
    setup = _game(tmp_path, clock)
    block(setup, "red", "d1", "RESIGN")
    setup.ingest()
    assert "the game's bot plays your seat to the end" in last_answer(setup, SEATS["red"], "reply")
    assert "seat red has resigned" in last_answer(setup, SEATS["blue"], "ending")
    st = status(setup, "d1")
    assert st["bot_played"] == {"red": "resigned"} and "red" in st["submitted"]  # the bot's orders are in
    assert events(setup, "d1", "OrdersSubmitted")[-1].payload["source"]["reason"] == "resigned"
    block(setup, "red", "d1", "DRAW")
    block(setup, "red", "d1", "BACK")
    setup.ingest()
    replies = " ".join(" ".join(a.split()) for a in answers(setup, SEATS["red"], "reply")[-2:])
    assert "red has resigned from d1 and no longer votes" in replies
    assert "only the GM can give the seat back" in replies
    block(setup, "blue", "d1", "CONCEDE")  # CONCEDE alone: resigns
    setup.ingest()
    st = status(setup, "d1")
    assert st["over"] and st["winner"] == "green" and st["ended"]["how"] == "resignation"
    assert "every other seat resigned, so green wins by resignation" in last_answer(setup, SEATS["green"], "final")
    assert "verified" in setup.run("replay", "d1", "--verify")


def test_misused_votes_get_one_line_and_record_nothing(tmp_path, clock):
    setup = _game(tmp_path, clock, disorder_after="1")
    block(setup, "red", "d1", "DRAW")
    setup.ingest()
    before = len(events(setup, "d1"))
    cases = [("DRAW", "you have voted for a draw in this round already"),
             ("DRAW NO", ""), ("DRAW NO", "you have not voted for a draw in this round"),
             ("CONCEDE red", "you cannot concede the game to your own seat"),
             ("CONCEDE purple", "d1 has no seat 'purple' (seats: red, blue, green)"),
             ("CONCEDE NO", "you have not conceded in this round"),
             ("RESIGN now", "RESIGN stands alone on its line")]
    for line, why in cases:
        block(setup, "red", "d1", line)
        setup.ingest()
        reply = last_answer(setup, SEATS["red"], "reply")
        if why:
            assert why in reply and "nothing was recorded" in reply, reply
        else:
            assert "your vote for a draw is withdrawn" in reply
    assert len(events(setup, "d1")) == before + 1  # only the withdrawal
    for seat in ("red", "blue"):
        block(setup, seat, "d1", "BID 1")
    setup.ingest()
    setup.run("adjudicate", "d1", "--force")  # green missed: civil disorder
    block(setup, "green", "d1", "DRAW")
    setup.ingest()
    assert "green is in civil disorder and does not vote: send BACK first" in last_answer(setup, SEATS["green"], "reply")
    block(setup, "red", "d1", "DRAW")
    block(setup, "blue", "d1", "DRAW")
    setup.ingest()  # green is played by the bot: the two voting seats make the draw, shared by all three
    assert status(setup, "d1")["ended"] == {"how": "draw", "seats": ["red", "blue", "green"], "turn": "round-2"}


def test_an_ending_the_votes_do_not_give_fails_verification(tmp_path, clock):
    setup = _game(tmp_path, clock)
    for seat in THREE:
        block(setup, seat, "d1", "DRAW")
    setup.ingest()
    store = Store(setup.db)
    log, seed = store.events("d1"), store.secrets("d1")[0]
    fold("d1", log, seed, verify=True)
    forged = [e for e in log if not (e.type == "DrawVoted" and e.payload["seat"] == "blue")]
    forged = [dataclasses.replace(e, seq=n) for n, e in enumerate(forged, 1)]
    with pytest.raises(ReplayMismatch, match="not every voting seat voted for it"):
        fold("d1", forged, seed, verify=True)
