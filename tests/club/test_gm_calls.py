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
