"""``pbem tick`` over many games reads what is due from the index on the games table and
loads only those games; the index follows every event and is never read stale."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

import pbem.loop.service
from bench.gamedb import copy_games
from pbem.store import projection
from pbem.store.events import fold
from pbem.loop.service import Service
from pbem.store.db import NewEvent, Store
from pbem.loop.tick import tick
from tests.clirun import run

START = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
SEATS = [("red", "r@x.org"), ("blue", "b@x.org"), ("yellow", "y@x.org")]


class Clock:
    """A settable clock (each reading a second later)."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def many(tmp_path):
    """Twenty running Wallenstein games (copies of one), each due 72 hours after it opened."""
    clock = Clock()
    db = tmp_path / "many.db"
    service = Service(Store(db, clock=clock), "gm@x.org")
    service.new_game("w", "wallenstein", SEATS, {}, "due-index-seed" * 3, deadline_every="72h",
                     remind_before="24h")
    service.store.close()
    copy_games(db, "w", 19, "w", 1)
    pbem.loop.service._CACHE.clear()
    return Service(Store(db, clock=clock), "gm@x.org"), clock


def _loads(monkeypatch) -> list[str]:
    loaded: list[str] = []
    real = Service.load

    def load(self, game_id, *args, **kwargs):
        loaded.append(game_id)
        return real(self, game_id, *args, **kwargs)

    monkeypatch.setattr(Service, "load", load)
    return loaded


def test_a_quiet_tick_loads_no_game(many, monkeypatch):
    service, clock = many
    assert projection.stale_games(service.store) == []
    loaded = _loads(monkeypatch)
    assert tick(service) == []
    assert loaded == []


def test_a_tick_loads_only_the_games_that_are_due(many, monkeypatch):
    service, clock = many
    game = service.load("w7")
    for seat in game.pending.seats:  # w7: every order in
        service.submit("w7", seat, game.engine.default_orders(game.state, seat), "", {"kind": "gm"})
    service.set_deadline("w12", (clock.now + timedelta(hours=1)).isoformat())  # w12: due in an hour
    clock.now += timedelta(hours=2)
    loaded = _loads(monkeypatch)
    done = tick(service)
    assert sorted(d.game for d in done if d.what == "adjudicate") == ["w12", "w7"]
    assert set(loaded) == {"w7", "w12"}
    assert "missed orders: red, blue, yellow" in next(d.text for d in done if d.game == "w12")
    loaded.clear()
    assert tick(service) == [] and loaded == []  # both wait for their next turn now


def test_reminders_are_found_by_the_index_and_sent_once(many, monkeypatch):
    service, clock = many
    clock.now += timedelta(hours=50)  # 22 hours before every deadline: inside the 24 hours
    loaded = _loads(monkeypatch)
    done = tick(service)
    assert len([d for d in done if d.what == "remind"]) == 20 * 3
    assert set(loaded) == {f"w{n}" if n else "w" for n in range(20)}
    loaded.clear()
    clock.now += timedelta(hours=1)
    assert tick(service) == [] and loaded == []  # reminded: the index says so, nothing is loaded


def test_an_event_recorded_without_the_index_is_caught_and_the_index_derived_again(many):
    service, clock = many
    game = service.load("w3")
    # an event appended behind the service's back (an older pbem, a bug): a passed deadline
    service.store.append("w3", [NewEvent("DeadlineSet", {"turn": game.pending.turn, "deadline": "2026-12-01T10:00:00Z",
                                                          "utc": "2026-12-01T10:00:00Z"})], game.last_seq)
    assert projection.stale_games(service.store) == ["w3"]
    clock.now += timedelta(hours=2)
    done = tick(service)
    assert [d.game for d in done if d.what == "adjudicate"] == ["w3"]
    assert projection.stale_games(service.store) == []


def test_repair_checks_and_rebuilds_every_projection(many, tmp_path):
    service, _ = many
    db = service.store.path
    service.store.conn.execute("update games set due_at = '2000-01-01T00:00:00Z' where game_id = 'w5'")
    service.store.conn.execute("delete from heads where game_id = 'w9'")
    out = run("--db", db, "repair", "--check", code=1)
    assert "w5: due_at: stored '2000-01-01T00:00:00Z'" in out and "w9: head: missing" in out
    assert "w1:" not in out
    out = run("--db", db, "repair")
    assert "w5" in out and "w9" in out and "2 of 20 games" in out
    assert "all 20 games agree with their logs" in run("--db", db, "repair", "--check")
    for game_id in ("w5", "w9"):
        store = Store(db)
        assert projection.check(store, fold(game_id, store.events(game_id), store.secrets(game_id)[0])) == []


def test_a_sender_s_seats_come_from_the_address_index(many):
    service, _ = many
    assert len(projection.games_of_address(service.store, "R@x.org")) == 20
    service.change_seat("w4", "red", "anna@y.org")
    assert projection.games_of_address(service.store, "anna@y.org") == [("w4", "red")]
    assert ("w4", "red") not in projection.games_of_address(service.store, "r@x.org")


def test_repair_of_one_game_and_of_a_game_there_is_not(tmp_path):
    db = str(tmp_path / "one.db")
    run("--db", db, "new", "w1", "--game", "wallenstein", "--seat", "red=r@x.org", "--seat", "blue=b@x.org",
        "--seat", "yellow=y@x.org")
    assert run("--db", db, "repair", "w1", "--check") == "all 1 game agree with their logs\n"
    assert json.loads(run("--db", db, "repair", "--json")) == {"games": 1, "differed": {}, "repaired": True}
    out = run("--db", db, "repair", "w2", code=1)
    assert "no game 'w2'" in out and len(out.strip().splitlines()) == 1
