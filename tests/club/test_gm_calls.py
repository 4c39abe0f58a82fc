"""The GM's calls under ``pbem observe`` and ``pbem press``, made as a program makes them."""

from __future__ import annotations

import pytest

from pbem.club.observers import current
from pbem.club.observing import gm_observe
from pbem.errors import DomainError
from pbem.mailout.press import press_log

SEATS = [("red", "anna@x.org"), ("blue", "ben@x.org")]


def test_the_gm_makes_an_address_observe_and_stop_and_an_unknown_game_is_refused(service, store):
    service.new_game("g1", "toy-dice-duel", SEATS, {}, "observe-" + "x" * 50)
    observer, bare = gm_observe(service, "g1", "Watcher <Watch@Example.org>")
    assert bare == "watch@example.org" and [r["address"] for r in current(store, "g1")] == [bare]
    assert gm_observe(service, "g1", "watch@example.org", stopping=True) == (observer, bare)
    assert current(store, "g1") == []
    with pytest.raises(DomainError, match="no game 'g9'"):
        gm_observe(service, "g9", "watch@example.org")


def test_the_press_log_of_a_game_and_an_unknown_seat(service, store):
    service.new_game("g1", "toy-dice-duel", SEATS, {}, "press-" + "x" * 50)
    assert press_log(store, "g1").items == [] and press_log(store, "g1", "red").chain_problems == []
    with pytest.raises(DomainError, match="no seat 'green' in g1"):
        press_log(store, "g1", "green")


def test_the_gm_puts_a_seat_in_civil_disorder_and_gives_it_to_the_first_standby_player(service, store):
    from pbem.club.absence import gm_disorder, gm_standby, replace_from_standby, standby_list

    service.new_game("g1", "toy-dice-duel", SEATS, {}, "disorder-" + "x" * 50)
    game = gm_disorder(service, "g1", "blue", "gone quiet")
    assert game.club.bot_played("blue")
    with pytest.raises(DomainError, match="already played by the bot"):
        gm_disorder(service, "g1", "blue", "again")
    with pytest.raises(DomainError, match="nobody on the standby list"):
        replace_from_standby(service, "g1", "blue")
    gm_standby(store, add="Anna <anna@x.org>", game_id="g1")  # she plays red: passed over
    gm_standby(store, add="Zoe <zoe@x.org>", game_id="g1")
    with pytest.raises(DomainError, match="nobody@x.org is not on the standby list for g1"):
        gm_standby(store, remove="nobody@x.org", game_id="g1")
    email, password = replace_from_standby(service, "g1", "blue")
    assert email == "zoe@x.org" and password
    assert not service.load("g1").club.bot_played("blue")
    gm_standby(store, remove="anna@x.org", game_id="g1")
    assert [r["address"] for r in standby_list(store, "g1")] == []


def test_a_seat_the_game_has_not_and_a_game_over_are_refused_alike(service, store):
    """Disorder, offer, resignation, a draw vote and a digest preference ask alike for a seat
    of a running game, each refusal one line naming the seat or the game."""
    from pbem.club.absence import gm_disorder
    from pbem.club.endings import resign, vote_draw
    from pbem.club.lobby import offer

    service.new_game("g1", "toy-dice-duel", SEATS, {}, "refused-" + "x" * 50)
    calls = {"disorder": lambda seat: gm_disorder(service, "g1", seat, "why"),
             "offer": lambda seat: offer(service, "g1", seat),
             "resign": lambda seat: resign(service, "g1", seat, None),
             "draw": lambda seat: vote_draw(service, "g1", seat, True),
             "digest": lambda seat: service.set_digest("g1", seat, True, {"kind": "gm"})}
    for name, call in calls.items():
        with pytest.raises(DomainError, match=r"^no seat 'green' in g1$"):
            call("green")
    service.abandon("g1", "a test")
    over = {"draw": ": there is no turn to vote in", "digest": ": no more reports are mailed"}
    for name, call in calls.items():
        with pytest.raises(DomainError) as refused:
            call("red")
        assert str(refused.value) == f"game g1 is over{over.get(name, '')}", name
