"""The typed operations under the GM's commands (pbem.loop.gm, pbem.loop.overview), called as
a program would call them: no command line, plain values and dataclasses back."""

from __future__ import annotations

import pytest

from pbem.errors import DomainError
from pbem.loop.gm import Clocks, adjudicate_pending, change_seat, create_game, created_summary
from pbem.loop.overview import event_log, game_list, game_view, status_rows
from pbem.loop.reading import _CACHE

SEED = "api-" + "x" * 60
SEATS = [("red", "anna@x.org:hu"), ("blue", "ben@x.org")]


def _game(service, game_id="g1", **kw):
    return create_game(service, game_id, "toy-dice-duel", SEATS, {"rounds": "2"}, SEED, **kw)


def test_a_new_game_reads_each_seats_language_and_shows_each_password_once(service):
    created = _game(service, language="de", clocks=Clocks(deadline_every="3d"))
    summary = created_summary(created)
    assert summary["game"] == "g1" and summary["turn"] == "round-1" and summary["deadline"]
    assert {s: v["language"] for s, v in summary["seats"].items()} == {"red": "hu", "blue": "de"}
    assert {s: v["password"] for s, v in summary["seats"].items()} == created.passwords
    assert summary["seats"]["red"]["email"] == "anna@x.org"


def test_a_weak_seed_or_an_unknown_language_is_refused_and_nothing_is_made(service, store):
    with pytest.raises(DomainError, match="seed"):
        create_game(service, "g1", "toy-dice-duel", SEATS, {}, "short")
    with pytest.raises(DomainError, match="xx"):
        _game(service, language="xx")
    assert store.game_ids() == []
    assert create_game(service, "g1", "toy-dice-duel", SEATS, {}, "short", weak_seed=True).game.game_id == "g1"


def test_adjudicate_waits_for_orders_then_forces_the_turn_looked_at_and_refuses_a_game_over(service):
    _game(service)
    waiting = adjudicate_pending(service, "g1")
    assert (waiting.turn, waiting.done, waiting.resolved_elsewhere) == ("round-1", [], False)
    assert sorted(waiting.status["awaiting"]) == ["blue", "red"]
    forced = adjudicate_pending(service, "g1", force=True)
    assert [d["turn"] for d in forced.done] == ["round-1"]
    assert sorted(forced.done[0]["defaulted"]) == ["blue", "red"]
    last = adjudicate_pending(service, "g1", force=True)
    assert last.done[-1]["over"] is True
    with pytest.raises(DomainError, match="is over"):
        adjudicate_pending(service, "g1")


def test_a_seat_change_says_what_changed(service):
    _game(service)
    with pytest.raises(DomainError, match="no seat 'green'"):
        change_seat(service, "g1", "green", language="hu")
    first = change_seat(service, "g1", "blue", digest=True)
    assert (first.password, first.unlocked, first.digest_changed, first.language) == (None, False, True, "en")
    assert change_seat(service, "g1", "blue", digest=True).digest_changed is False
    assert change_seat(service, "g1", "blue", language="hu").language == "hu"
    handed = change_seat(service, "g1", "blue", email="cis@x.org", reset=True)
    assert handed.password and service.load("g1").seats["blue"]["email"] == "cis@x.org"


def test_the_overview_lists_games_their_logs_and_a_broken_one_beside_the_others(service, store):
    _game(service, "g1")
    _game(service, "g2")
    service.abandon("g2", "players left")
    assert [(r["game"], r["abandoned"]) for r in game_list(store)] == [("g1", None), ("g2", "players left")]
    log = event_log(store, "g1")
    assert log.events[0]["type"] == "GameCreated" and log.chain_problems == []
    assert game_view(service, "g1", "red")["seat_colors"].keys() == {"red", "blue"}
    store.conn.execute("update events set payload = replace(payload, 'toy-dice-duel', 'no-such-game') "
                       "where game_id = 'g1' and seq = 1")
    _CACHE.clear()  # the next load reads the altered log
    assert event_log(store, "g1").chain_problems  # the altered event no longer matches its hash
    rows = {r["game"]: r for r in status_rows(service)}
    assert rows["g1"]["error"] and rows["g2"]["abandoned"] == "players left"
    with pytest.raises(DomainError, match="g1"):
        status_rows(service, "g1")
    with pytest.raises(DomainError, match="no game 'g3'"):
        event_log(store, "g3")
