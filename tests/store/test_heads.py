"""A game is loaded from its head (the game as folded at its last event) and never silently
from a wrong one: the head agrees with a replay after every kind of event, in all three games;
a head whose event, state or format no longer matches the log is not used; a load from a head
reads no more than the events after it, whatever the length of the game."""

from __future__ import annotations

import pytest

import pbem.loop.service
from adjudicator.base import canonical_json
from adjudicator.chance import Chance
from pbem.store import heads, projection
from pbem.store.events import fold
from pbem.loop.service import Service
from pbem.store.db import Store

GAMES = {"wallenstein": ("red", "blue", "yellow"), "havoc": ("red", "blue", "green"),
         "gods-playground": ("white", "blue", "red")}


def _service(tmp_path, name="p.db") -> Service:
    return Service(Store(tmp_path / name), "gm@x.org")


def _replayed(service: Service, game_id: str):
    return fold(game_id, service.store.events(game_id), service.store.secrets(game_id)[0])


def _same(service: Service, game_id: str) -> None:
    """The stored head (and every projection) agrees with a replay of the whole log."""
    replay = _replayed(service, game_id)
    head = heads.read(service.store, game_id, service.store.secrets(game_id)[0])
    assert head is not None, "no usable head"
    assert canonical_json(head.state) == canonical_json(replay.state)
    assert heads.book_of(head, None) == heads.book_of(replay, None)
    assert list(head.seats) == list(replay.seats) and list(head.submitted) == list(replay.submitted)
    assert list(head.deadlines) == list(replay.deadlines)
    assert head.engine.version == replay.engine.version and head.last_seq == replay.last_seq
    assert [t for t in head.turns] == [t for t in replay.turns]
    assert projection.check(service.store, replay) == []


def _step(service: Service, game_id: str, chance: Chance, n: int) -> None:
    game = service.load(game_id)
    for seat in service.awaited(game):
        orders = game.engine.random_orders(game.state, seat, chance.stream(f"{n}/{seat}"))
        service.submit(game_id, seat, orders, "", {"kind": "bot"})
        _same(service, game_id)  # after each order
    service.adjudicate(game_id, limit=1)


@pytest.mark.parametrize("engine", sorted(GAMES))
def test_the_head_is_the_replayed_game_after_every_kind_of_event(engine, tmp_path):
    service = _service(tmp_path)
    service.new_game("g", engine, [(s, f"{s}@x.org") for s in GAMES[engine]], {}, "heads-" + engine * 3,
                     deadline_every="72h")
    _same(service, "g")
    chance = Chance("heads")
    for n in range(4 if engine == "wallenstein" else 12):
        _step(service, "g", chance, n)
        _same(service, "g")
    service.set_deadline("g", "+2d")
    _same(service, "g")
    service.change_seat("g", GAMES[engine][0], "new@x.org")
    _same(service, "g")
    service.set_digest("g", GAMES[engine][1], True, {"kind": "gm"})
    _same(service, "g")
    from pbem.club import absence

    absence.declare(service, "g", GAMES[engine][2], "2026-12-01T00:00:00+00:00", "2099-12-01T00:00:00+00:00", "gm")
    _same(service, "g")
    assert service.store.game_row("g")["watch"] == 1  # the club looks at it in every tick
    game = service.load("g")
    if engine == "havoc":  # standing orders change the state without a recorded hash
        from pbem.loop.demo import bot_for  # noqa: F401

        standing = [{"when": "join", "then": [{"kind": "pass"}]}]
        if not game.engine.validate_standing(game.state, "red", standing):
            service.submit_standing("g", "red", standing, "", {"kind": "bot"})
            _same(service, "g")
    from pbem.loop.reopen import rollback

    done = [t["turn"] for t in game.turns]
    rollback(service, "g", done[-2], "a GM's correction", deadline="+3d")
    _same(service, "g")
    _step(service, "g", chance, 99)
    _same(service, "g")
    service.abandon("g", "test over")
    _same(service, "g")


def _played(tmp_path) -> Service:
    service = _service(tmp_path)
    service.new_game("g", "wallenstein", [(s, f"{s}@x.org") for s in GAMES["wallenstein"]], {}, "heads-w" * 4)
    chance = Chance("heads")
    for n in range(3):
        _step(service, "g", chance, n)
    pbem.loop.service._CACHE.clear()
    return service


def test_a_load_reads_the_head_and_only_the_events_after_it(tmp_path, monkeypatch):
    service = _played(tmp_path)
    reads: list[tuple[int, object]] = []
    real = Store.events

    def events(self, game_id, after=0, until=None):
        reads.append((after, until))
        return real(self, game_id, after, until)

    monkeypatch.setattr(Store, "events", events)
    game = service.load("g")
    assert reads == [(0, 1), (game.last_seq, None)]  # the GameCreated event, then what follows the head
    assert len(game.turns) == 3 and game.turns[-1]["turn"] == _replayed(service, "g").turns[-1]["turn"]


@pytest.mark.parametrize("column,value", [
    ("event_hash", "0" * 64),  # the log was rewritten since: another event at that number
    ("state", None),  # a state that is not the one recorded (digest differs)
    ("format", 999),  # written by another pbem
])
def test_a_head_that_no_longer_matches_the_log_is_not_used(tmp_path, column, value):
    service = _played(tmp_path)
    want = canonical_json(_replayed(service, "g").state)
    if column == "state":
        text = service.store.conn.execute("select state from heads where game_id = 'g'").fetchone()[0]
        value = text.replace('"year":', '"year":1', 1)
        assert value != text
    service.store.conn.execute(f"update heads set {column} = ? where game_id = 'g'", [value])
    assert heads.read(service.store, "g", service.store.secrets("g")[0]) is None
    pbem.loop.service._CACHE.clear()
    assert canonical_json(service.load("g").state) == want  # replayed instead
    assert projection.check(service.store, _replayed(service, "g")) != []  # and pbem repair --check says so


def test_a_head_whose_state_and_digest_were_both_replaced_is_refused_by_the_recorded_hash(tmp_path):
    from pbem.store.events import text_digest

    service = _played(tmp_path)
    game = service.load("g")
    text = service.store.conn.execute("select state from heads where game_id = 'g'").fetchone()[0]
    forged = text.replace('"year":', '"year":1', 1)
    service.store.conn.execute("update heads set state = ?, digest = ? where game_id = 'g'",
                               [forged, text_digest(forged, game.seed, game.digest_scheme)])
    assert heads.read(service.store, "g", game.seed) is None


def test_an_upgraded_game_is_loaded_under_its_new_rules_and_an_old_one_under_its_own(tmp_path):
    from tests.clirun import run
    from tests.compat.test_corpus import unpack

    db = unpack("r1", "running", tmp_path)
    store = Store(db)
    service = Service(store, "gm@x.org")
    assert service.load("demo-wallenstein").engine.version == "1.0"  # the old database has no heads yet
    with store.transaction():
        service._project(service.load("demo-wallenstein"))
    assert heads.read(store, "demo-wallenstein", store.secrets("demo-wallenstein")[0]).engine.version == "1.0"
    store.close()
    run("--db", db, "upgrade", "demo-wallenstein", "--reason", "the rules fixes")
    store = Store(db)
    head = heads.read(store, "demo-wallenstein", store.secrets("demo-wallenstein")[0])
    from adjudicator.registry import get_engine

    newest = get_engine("wallenstein").releases.newest.version
    assert head is not None and head.engine.version == newest != "1.0" and head.upgrades
    pbem.loop.service._CACHE.clear()
    service = Service(store, "gm@x.org")
    assert projection.check(store, _replayed(service, "demo-wallenstein")) == []
