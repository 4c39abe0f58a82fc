"""Observers: the GM's ``pbem observe``, OBSERVE and STOP by mail (open games only); an observer
gets the public report after each turn and the record at the end, and nothing else."""

from __future__ import annotations

import json

from tests.club.helpers import Setup, answers, events, last_answer, status, text


def test_an_observer_gets_the_public_report_each_turn_and_the_record_at_the_end(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game("w1", "wallenstein", ("red", "blue", "green"))
    out = json.loads(setup.run("observe", "w1", "Watcher <watcher@example.org>", "--json"))
    assert out == {"game": "w1", "observer": "o1", "address": "watcher@example.org", "observing": True}
    assert events(setup, "w1", "ObserverAdded")[0].payload == {"observer": "o1"}  # no address in the log
    assert "watcher@example.org" not in json.dumps([e.payload for e in events(setup, "w1")])
    assert "observers: 1 (o1)" in setup.run("status", "w1") and status(setup, "w1")["observers"] == ["o1"]
    setup.run("bots", "w1", "--seat", "red", "--seat", "blue", "--seat", "green")
    setup.run("adjudicate", "w1")
    copies = setup.outbox("report-observer", "watcher@example.org")
    public = setup.outbox("report-public")
    assert len(copies) == 1 and len(public) == 1
    assert text(copies[0]) == text(public[0]) and "report for the public" in text(copies[0])
    assert "(you observe this game)" in copies[0]["subject"]
    # nothing else reaches the observer: no seat's report, reply or notice
    assert {r["kind"] for r in setup.outbox(to="watcher@example.org")} == {"report-observer"}
    setup.run("abandon", "w1", "--reason", "the test")  # an abandoned game sends no record
    assert not setup.outbox("final-observer")


def test_observe_and_stop_by_mail_for_open_games_only(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game("d1", "toy-dice-duel", ("red", "blue"), options={"rounds": "1"})
    setup.run("new", "o1", "--game", "toy-dice-duel", "--open", "--seats", "2", "--option", "rounds=1")
    before = len(events(setup, "d1"))
    for subject in ("OBSERVE d1", "OBSERVE nosuch", "OBSERVE o1", "observe o1"):
        setup.mail("watcher@example.org", subject, "")
        setup.ingest()  # one at a time: mails of one second may be read in any order
    said = [" ".join(a.split()) for a in answers(setup, "watcher@example.org")]
    assert said[0] == ("OBSERVE: game d1 is not open to observers by mail; ask its GM. Nothing was recorded.")
    assert "there is no game 'nosuch'" in said[1]
    assert "You observe o1 from now on" in said[2] and "watcher@example.org observes o1 already" in said[3]
    assert len(events(setup, "d1")) == before
    for address in ("ann@example.org", "bob@example.org"):
        setup.mail(address, "JOIN o1", "")
    setup.ingest()  # full: the game starts, the observer recorded
    assert events(setup, "o1", "ObserverAdded")[0].payload == {"observer": "o1"}
    passwords = {}
    for address in ("ann@example.org", "bob@example.org"):
        welcome = last_answer(setup, address, "welcome")
        seat = welcome.split("You play the seat '", 1)[1].split("'", 1)[0]
        passwords[seat] = (address, welcome.split("Your password: ", 1)[1].split()[0])
    for seat, (address, password) in passwords.items():
        setup.mail(address, "orders", f"GAME o1 {seat} {password}\nBID 2\nEND\n")
    setup.ingest()
    setup.run("adjudicate", "o1")  # the last turn: the observer gets the record
    record = last_answer(setup, "watcher@example.org", "final-observer")
    assert "Game o1 is over" in record and '[Game "o1"]' in record and "BID 2" in record
    for _ in range(2):
        setup.mail("watcher@example.org", "STOP o1", "")
        setup.ingest()
    said = [" ".join(a.split()) for a in answers(setup, "watcher@example.org")]
    assert "You no longer observe o1" in said[-2] and "watcher@example.org does not observe o1" in said[-1]
    assert "verified" in setup.run("replay", "o1", "--verify")


def test_the_gm_stops_an_observer_and_misuse_is_one_line(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    setup.new_game("d1", "toy-dice-duel", ("red", "blue"), options={"rounds": "2"})
    setup.run("observe", "d1", "watcher@example.org")
    assert "watcher@example.org observes d1 already" in setup.run("observe", "d1", "watcher@example.org", code=1)
    assert "plays a seat of d1" in setup.run("observe", "d1", "anna@example.org", code=1)
    out = json.loads(setup.run("observe", "d1", "watcher@example.org", "--stop", "--json"))
    assert out["observing"] is False and events(setup, "d1", "ObserverRemoved")[0].payload["observer"] == "o1"
    assert "does not observe d1" in setup.run("observe", "d1", "watcher@example.org", "--stop", code=1)
    assert "verified" in setup.run("replay", "d1", "--verify")
