"""A player's record across games: ``pbem players``, STATS by mail (own figures only), a second
address by a confirmed mail, the public table only when the GM enables it."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from tests.club.helpers import SEATS, Setup, block, last_answer

# anna plays red, ben blue, cis green (tests.loop.mailrun.SEATS)


def _season(tmp_path, clock) -> Setup:
    """Two games: g1 drawn after ben missed a turn (anna away for one, excused); g2 won by the rules."""
    setup = Setup(tmp_path, clock)
    setup.new_game("g1", "toy-dice-duel", ("red", "blue", "green"), options={"rounds": "3"}, deadline_every="72h")
    block(setup, "red", "g1", "ABSENT FOR 20d")
    block(setup, "green", "g1", "BID 1")
    setup.ingest()
    clock.now += timedelta(days=11)  # past the deadline, which waited 7 days (the cap) for red
    setup.run("tick")  # round-1: red away (excused), blue missed
    for seat in ("red", "blue", "green"):
        block(setup, seat, "g1", "BID 1")
        block(setup, seat, "g1", "DRAW")
    setup.ingest()  # round-2 orders in; then the draw passes
    passwords = setup.new_game("g2", "toy-dice-duel", ("red", "blue"), options={"rounds": "1"})
    setup.passwords.update(passwords)
    for seat in ("red", "blue"):
        block(setup, seat, "g2", "BID 3")
    setup.ingest()
    setup.run("adjudicate", "g2")
    return setup


def test_players_lists_games_results_and_reliability(tmp_path, clock):
    setup = _season(tmp_path, clock)
    rows = {r["player"]: r for r in json.loads(setup.run("players", "--json"))}
    anna, ben, cis = rows["anna@example.org"], rows["ben@example.org"], rows["cis@example.org"]
    assert anna["games"] == 2 and ben["games"] == 2 and cis["games"] == 1
    assert cis["results"]["drawn"] == 1 and cis["turns_due"] == 1 and cis["on_time"] == 1
    assert anna["excused"] == 1 and anna["missed"] == 0 and anna["turns_due"] == 1 and anna["reliability"] == 1.0
    assert ben["missed"] == 1 and ben["turns_due"] == 2 and ben["reliability"] == 0.5
    g2 = json.loads(setup.run("status", "g2", "--json"))
    winner = g2["winner"]
    assert rows[SEATS[winner]]["results"]["won"] == 1
    text = setup.run("players")
    assert "ben@example.org" in text and "reliability 50%" in text


def test_stats_by_mail_answers_only_the_senders_own_figures(tmp_path, clock):
    setup = _season(tmp_path, clock)
    for sender, subject in (("ben@example.org", "STATS"), ("stranger@example.org", "STATS"),
                            ("ben@example.org", "STATS ALL")):
        setup.mail(sender, subject, "")
        setup.ingest()  # one at a time: mails of one second may be read in any order
    mine = last_answer(setup, "ben@example.org")
    assert "STATS: the GM keeps the players' figures private" in mine
    from tests.club.helpers import answers

    own = " ".join(answers(setup, "ben@example.org")[0].split())
    assert "Your figures (ben@example.org)" in own and "1 of 2 sent on time (reliability 50%)" in own
    assert "anna" not in own and "cis" not in own
    assert "No game of this pbem has a seat played from this address" in last_answer(setup, "stranger@example.org")
    setup.run("players", "--public-table", "on")
    setup.mail("cis@example.org", "STATS ALL", "")
    setup.ingest()
    table = last_answer(setup, "cis@example.org")
    assert "an...@example.org: 2 games" in table and "@example.org:" in table
    assert not re.search(r"\b(anna|ben|cis)@example\.org", table)  # names, never addresses


def test_a_second_address_by_a_confirmed_mail(tmp_path, clock):
    setup = _season(tmp_path, clock)
    setup.mail("ben@example.org", "ADDRESS ADD ben@work.example", "")
    setup.ingest()
    assert "A confirmation code was mailed to ben@work.example" in last_answer(setup, "ben@example.org")
    code = re.search(r"ADDRESS CONFIRM (\S+)", last_answer(setup, "ben@work.example")).group(1)
    setup.mail("mallory@example.org", f"ADDRESS CONFIRM {code}", "")  # from another address: refused
    setup.ingest()
    setup.mail("ben@work.example", "ADDRESS CONFIRM 0000-0000-0000", "")
    setup.ingest()
    assert "not one mailed to this address" in last_answer(setup, "mallory@example.org")
    assert "not one mailed to this address" in last_answer(setup, "ben@work.example")
    setup.mail("ben@work.example", f"ADDRESS CONFIRM {code}", "")
    setup.ingest()
    assert "ben@work.example is now an address of the player ben@example.org" in last_answer(setup, "ben@work.example")
    setup.mail("ben@work.example", "STATS", "")
    setup.ingest()
    assert "Your figures (ben@example.org, ben@work.example)" in last_answer(setup, "ben@work.example")
    setup.mail("ben@example.org", "ADDRESS ADD anna@example.org", "")  # another player's address
    setup.ingest()
    assert "belongs to another player's record" in last_answer(setup, "ben@example.org")
    rows = {r["player"]: r for r in json.loads(setup.run("players", "--json"))}
    assert rows["ben@example.org"]["addresses"] == ["ben@example.org", "ben@work.example"]
