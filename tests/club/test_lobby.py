"""Open games joined by mail (LIST, JOIN, LEAVE, the waiting list), started when full or by the
GM with bots in the empty seats; seats of running games offered to new players; by real mails
through ``pbem ingest``, the answers read back."""

from __future__ import annotations

import json

from tests.club.helpers import Setup, answers, events, last_answer, status


def _open(setup: Setup, *args: str) -> dict:
    return json.loads(setup.run("new", "o1", "--game", "toy-dice-duel", "--open", "--seats", "3",
                                "--option", "rounds=3", *args, "--json"))


def test_players_list_and_join_by_mail_and_the_game_starts_when_full(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    out = _open(setup, "--deadline-every", "72h")
    assert out["seats"] == ["red", "blue", "green"] and out["free"] == ["red", "blue", "green"]
    setup.mail("ann@example.org", "LIST", "")
    setup.ingest()
    listed = last_answer(setup, "ann@example.org")
    assert "o1: toy-dice-duel, 3 seats, free: red, blue, green" in listed and "OBSERVE" in listed
    setup.mail("ann@example.org", "join o1", "")
    setup.ingest()
    setup.mail("bob@example.org", "JOIN o1 green", "")
    setup.ingest()
    assert "You have seat red of o1" in last_answer(setup, "ann@example.org")
    assert "You have seat green of o1" in last_answer(setup, "bob@example.org")
    setup.mail("cy@example.org", "JOIN o1 green", "")  # taken: one line, nothing recorded
    setup.ingest()
    assert last_answer(setup, "cy@example.org") == ("JOIN: seat green of o1 is taken; free: blue. Nothing was "
                                                    "recorded.")
    assert json.loads(setup.run("lobby", "o1", "--json"))["taken"] == {"red": "ann@example.org",
                                                                      "green": "bob@example.org"}
    assert json.loads(setup.run("games", "--json")) == []  # not created yet: announced
    assert "o1 (toy-dice-duel): open, not started; free seats: blue; taken: green, red" in setup.run("status")
    assert json.loads(setup.run("status", "o1", "--json"))["open"]["free"] == ["blue"]
    setup.mail("cy@example.org", "JOIN o1", "")  # the last seat: the game starts
    setup.ingest()  # (mails delivered in one second may be read in any order: one at a time here)
    setup.mail("dee@example.org", "JOIN o1", "")  # full and started: the waiting (standby) list
    setup.ingest()
    assert "Every seat is taken: the game starts now" in last_answer(setup, "cy@example.org")
    assert "the game has started: you are on its waiting list, its standby list" in last_answer(setup, "dee@example.org")
    st = status(setup, "o1")
    assert st["seats"] == ["red", "blue", "green"] and st["turn"] == "round-1" and st["deadline"]
    for address, seat in (("ann@example.org", "red"), ("cy@example.org", "blue"), ("bob@example.org", "green")):
        welcome = last_answer(setup, address, "welcome")
        assert f"You play the seat '{seat}'" in welcome and "Your password:" in welcome
    created = events(setup, "o1", "GameCreated")[0].payload
    assert created["club"]["open"] == "yes" and created["options"] == {"rounds": "3"}
    assert "verified" in setup.run("replay", "o1", "--verify")
    setup.mail("eve@example.org", "JOIN o1", "")  # started, nothing offered
    setup.ingest()
    setup.mail("eve@example.org", "JOIN nosuch", "")
    setup.ingest()
    said = answers(setup, "eve@example.org")
    assert "the game has started: you are on its waiting list, its standby list" in " ".join(said[0].split())
    assert "there is no open game 'nosuch'" in said[1]
    # the waiting list is the game's standby list now
    assert [r["address"] for r in json.loads(setup.run("standby", "--game", "o1", "--json"))] == \
        ["dee@example.org", "eve@example.org"]
    setup.new_game("d9", "toy-dice-duel", ("red", "blue"))
    setup.mail("eve@example.org", "JOIN d9", "")
    setup.ingest()
    assert "game d9 is not open to players joining by mail" in last_answer(setup, "eve@example.org")


def test_the_gm_starts_an_open_game_with_bots_in_the_empty_seats(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _open(setup, "--seat", "red=gm-friend@example.org")
    setup.mail("ann@example.org", "JOIN o1 blue", "")
    setup.ingest()
    out = json.loads(setup.run("start", "o1", "--json"))
    assert out["bots"] == ["green"] and out["seats"] == {"red": "gm-friend@example.org", "blue": "ann@example.org"}
    st = status(setup, "o1")
    assert st["bot_played"] == {"green": "civil disorder"} and "green" in st["submitted"]
    assert events(setup, "o1", "CivilDisorder")[0].payload["by"] == "start"
    assert not setup.outbox(to="green.o1@bot.pbem.invalid")  # a seat nobody took gets no mail
    assert "green is in civil disorder as nobody took it" in last_answer(setup, "ann@example.org", "disorder")
    # the GM offers the empty seat; the first JOIN takes it
    setup.mail("zoe@example.org", "STANDBY o1", "")
    setup.ingest()
    assert json.loads(setup.run("offer", "o1", "green", "--json"))["told"] == ["zoe@example.org"]
    assert "JOIN o1 green" in last_answer(setup, "zoe@example.org")
    setup.mail("yan@example.org", "LIST", "")
    setup.ingest()
    assert "o1 green" in last_answer(setup, "yan@example.org")
    setup.mail("zoe@example.org", "JOIN o1 green", "")
    setup.ingest()
    assert "You have seat green of o1 from now on" in last_answer(setup, "zoe@example.org")
    assert "You play the seat 'green'" in last_answer(setup, "zoe@example.org", "welcome")
    assert status(setup, "o1")["bot_played"] == {}
    setup.mail("yan@example.org", "JOIN o1 green", "")
    setup.ingest()
    assert "seat green of o1 is not offered: it has a player" in last_answer(setup, "yan@example.org")
    assert "verified" in setup.run("replay", "o1", "--verify")


def test_join_by_approval_the_gm_seating_players_and_leave(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _open(setup, "--option", "join=approve")
    setup.mail("ann@example.org", "JOIN o1", "")
    setup.ingest()
    assert "sent to the GM" in last_answer(setup, "ann@example.org")
    assert json.loads(setup.run("lobby", "o1", "--json"))["asked"] == [{"address": "ann@example.org", "seat": "red"}]
    setup.run("lobby", "o1", "--approve", "ann@example.org")
    assert "The GM approved you. You have seat red of o1" in last_answer(setup, "ann@example.org")
    setup.mail("bob@example.org", "JOIN o1", "")
    setup.ingest()
    assert "bob@example.org is not taken into o1" in setup.run("lobby", "o1", "--reject", "bob@example.org")
    assert "did not take you" in last_answer(setup, "bob@example.org")
    setup.run("lobby", "o1", "--seat", "blue=bob@example.org")
    setup.mail("ann@example.org", "LEAVE o1", "")  # before the start: the seat is free again
    setup.ingest()
    assert "You have left o1: seat red is free again." in last_answer(setup, "ann@example.org")
    assert json.loads(setup.run("lobby", "o1", "--json"))["free"] == ["red", "green"]
    setup.run("lobby", "o1", "--seat", "red=dee@example.org", "--seat", "green=cy@example.org")  # full: it starts
    assert status(setup, "o1")["turn"] == "round-1"
    setup.mail("bob@example.org", "LEAVE o1", "")
    setup.ingest()
    assert "has started: send RESIGN in a GAME block to leave it" in last_answer(setup, "bob@example.org")


def test_lobby_misuse_one_line_each_and_rate_limited(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    _open(setup)
    for body, why in (("JOIN", "write JOIN <game> [seat]"), ("JOIN o1 pink", "o1 has no seat 'pink' (seats: red, blue, green)"),
                      ("LEAVE o1", "you have not joined o1")):
        setup.mail("ann@example.org", body, "")
        setup.ingest()
        assert why in last_answer(setup, "ann@example.org")
    assert "already exists" in setup.run("new", "o1", "--game", "toy-dice-duel", "--open", "--seats", "2", code=1)
    assert "needs 2-4 seats" in setup.run("new", "o2", "--game", "toy-dice-duel", "--open", "--seats", "9", code=1)
    assert "nobody has joined o1" in setup.run("start", "o1", code=1)
    for _ in range(8):
        setup.mail("spam@example.org", "LIST", "")
    setup.ingest()
    assert len(answers(setup, "spam@example.org")) == 6  # the rest kept, not answered
    assert json.loads(setup.run("lobby", "--json"))[0]["game"] == "o1"
    setup.run("lobby", "o1", "--cancel")
    setup.mail("ann@example.org", "JOIN o1", "")
    setup.ingest()
    assert "game o1 was cancelled" in last_answer(setup, "ann@example.org")
