"""A small decision's mails cost what they say, with the same words: the seat's view put in
seat order by two plain sorts is the one sort it always was; a subject's turn words build the
public view only for a game whose turn names read it; the order reminder is translated once
per language and never handed to a reader of another; a plan mailed in loads its game once."""

from __future__ import annotations

import random

import pytest

import pbem.loop.service
from email.message import EmailMessage

from adjudicator.base import PUBLIC
from pbem.loop.ingest import Ingestor
from pbem.loop.service import Service
from pbem.mailin.parse import RawMail
from pbem.mailout import reporting
from pbem.mailout.mailbase import turn_words
from reports.gamenames import turn_name
from reports.i18n import speaking

SEATS = ["white", "blue", "red"]


def _one_sort(value, rank):
    """The seat order as one sort by ``(seat?, rank, name)`` (what the report inputs always had)."""
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: (0, rank[k], "") if k in rank else (1, 0, str(k)))
        return {k: _one_sort(value[k], rank) for k in keys}
    if isinstance(value, list):
        return [_one_sort(v, rank) for v in value]
    return value


def _nested(rng: random.Random, depth: int):
    keys = ["white", "blue", "red", "a", "Z", "10", "9", 1, 2, 10, "1", None, 3.5]
    if depth == 0 or rng.random() < 0.3:
        return rng.choice([1, "x", None, 2.5, [1, 2]])
    if rng.random() < 0.5:
        return {k: _nested(rng, depth - 1) for k in rng.sample(keys, rng.randrange(0, 8))}
    return [_nested(rng, depth - 1) for _ in range(rng.randrange(0, 4))]


def test_the_seat_order_is_the_one_sort_by_seat_rank_then_name():
    rng = random.Random(5)
    rank = {s: i for i, s in enumerate(SEATS)}
    for _ in range(3000):
        value = _nested(rng, 4)
        got = reporting.in_seat_order(value, SEATS)
        assert repr(got) == repr(_one_sort(value, rank))  # keys in the same order, at every depth
    # numbers and texts that read alike keep the order a sort by their text gives (10 before 9)
    assert list(reporting.in_seat_order({9: 0, 10: 0, "red": 0, "b": 0, "white": 0}, SEATS)) == \
        ["white", "red", 10, 9, "b"]


def _counting_views(game):
    calls = []
    engine = game.engine

    class Engine:
        def __getattr__(self, name):
            return getattr(engine, name)

        def view(self, state, viewer):
            calls.append(viewer)
            return engine.view(state, viewer)

    game.engine = Engine()
    return calls


def test_turn_words_build_the_public_view_only_for_names_that_read_it(service: Service):
    service.new_game("g1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {}, seed="fast-words-" + "x" * 40)
    game = service.load("g1")
    expected = turn_name("gods-playground", game.pending.turn, game.engine.view(game.state, PUBLIC))
    calls = _counting_views(game)
    assert turn_words(game, game.pending.turn) == expected
    assert calls == []  # God's Playground names a turn by its label alone
    havoc = [(s, f"{s}@x.org") for s in ("red", "blue", "green", "yellow")]
    service.new_game("h1", "havoc", havoc, {}, seed="fast-words-havoc-" + "x" * 40)
    game = service.load("h1")
    turn = "b1/battle/round2"  # a battle's turn: named by the view's battle
    expected = turn_name("havoc", turn, game.engine.view(game.state, PUBLIC))
    calls = _counting_views(game)
    assert turn_words(game, turn) == expected
    assert calls == [PUBLIC]  # a battle's name is the view's: built once, the public one


def test_the_order_reminder_is_translated_per_language():
    text = reporting.order_help("gods-playground")
    with speaking("hu"):
        hungarian = reporting._help_text(text)
    english = reporting._help_text(text)
    assert hungarian != english
    reporting._HELP_TEXTS.clear()
    assert reporting.order_help_text(text) == english
    with speaking("hu"):
        assert reporting.order_help_text(text) == hungarian
    assert reporting.order_help_text(text) == english


def test_a_plan_mailed_in_loads_its_game_once(service: Service, monkeypatch):
    created = service.new_game("g1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {},
                               seed="fast-plan-" + "x" * 40)
    seat = service.load("g1").pending.seats[0]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = f"{seat}@x.org", "gm@pbem.example", "plan", "<p1@x.org>"
    msg.set_content(f"GAME g1 {seat} {created.passwords[seat]}\nESTATE Ukraine\nBUY PASS\nEND\n")
    loads = []
    real = Service.load
    monkeypatch.setattr(Service, "load", lambda self, *a, **k: (loads.append(a[0]), real(self, *a, **k))[1])
    out = Ingestor(service).ingest(RawMail(bytes(msg), "plan.eml"))
    assert out.outcome == "accepted", out.note
    assert loads == ["g1"]  # checked, recorded and answered with the one copy
    assert service.load("g1").standing[seat]


def test_an_adjudication_hashes_its_state_once(service: Service, monkeypatch):
    """The decided state's digest is made once: the event records it, and the games row and
    the head carry the same one (a load from the head checks it against the event)."""
    import pbem.loop.playing
    import pbem.store.projection
    from pbem.store import digest as digests

    service.new_game("g1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {}, seed="fast-hash-" + "x" * 40)
    for seat in service.load("g1").pending.seats:
        game = service.load("g1")
        service.submit("g1", seat, game.engine.default_orders(game.state, seat), "", {})
    made = []

    def counting(text, seed, scheme):
        made.append(text)
        return digests.text_digest(text, seed, scheme)

    monkeypatch.setattr(pbem.loop.playing, "text_digest", counting)
    monkeypatch.setattr(pbem.store.events, "text_digest", counting)  # the projection's own import
    done = service.adjudicate("g1", limit=1)
    assert len(done) == 1 and len(made) == 1  # one digest: the event's, reused by the head
    monkeypatch.undo()
    row = service.store.conn.execute("select state_hash from games where game_id = 'g1'").fetchone()
    head = service.store.conn.execute("select digest from heads where game_id = 'g1'").fetchone()
    assert row[0] == head[0] == done[0]["state_hash"] == digests.text_digest(made[0], service.load("g1").seed,
                                                                              service.load("g1").digest_scheme)
    pbem.loop.service._CACHE.clear()
    assert service.load("g1", verify=True).state == service.load("g1").state  # the head reads back, checked


def _plan_mail(service: Service, created, seat: str, n: int) -> RawMail:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = f"{seat}@x.org", "gm@pbem.example", "plan", f"<p{n}@x.org>"
    msg.set_content(f"GAME g1 {seat} {created.passwords[seat]}\nESTATE Ukraine\nBUY PASS\nEND\n")
    return RawMail(bytes(msg), f"plan-{n}.eml")


def test_a_state_kept_after_a_decision_keeps_the_engines_key_order(service: Service):
    """After a plan and a decision recorded in this process, a load from the process cache
    gives the state with the key order of every mapping as a replay from the first event
    makes it, not the sorted order of the canonical text: a released engine may list things
    in a mapping's key order (God's Playground's victory-point boxes), so a state thawed from
    the canonical text would make the next decision record its events in another order."""
    import json

    from pbem.store.events import fold

    created = service.new_game("g1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {},
                               seed="fast-order-" + "x" * 40)
    seat = service.load("g1").pending.seats[0]
    assert Ingestor(service).ingest(_plan_mail(service, created, seat, 1)).outcome == "accepted"
    assert service.adjudicate("g1", limit=1)
    cached = service.load("g1")
    replayed = fold("g1", service.store.events("g1"), service.store.secrets("g1")[0])
    assert cached.last_seq == replayed.last_seq
    assert json.dumps(cached.state) == json.dumps(replayed.state)  # the same keys in the same order
    assert json.dumps(cached.state) != json.dumps(cached.state, sort_keys=True)  # the test can tell them apart


def test_the_head_names_the_event_that_hashed_its_state(service: Service):
    """After a plan (standing orders changed the state: no event hashed it) and after a
    decision (its TurnAdjudicated did), the head names what a look-up in the log finds, and
    the projections check clean against a replay."""
    import json

    from pbem.store import projection

    created = service.new_game("g1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {},
                               seed="fast-head-" + "x" * 40)

    def named() -> object:
        book = service.store.conn.execute("select book from heads where game_id = 'g1'").fetchone()[0]
        return json.loads(book)["hash_seq"]

    seat = service.load("g1").pending.seats[0]
    assert Ingestor(service).ingest(_plan_mail(service, created, seat, 1)).outcome == "accepted"
    assert named() is None and projection.hashed_seq(service.store, "g1") is None
    done = service.adjudicate("g1", limit=1)
    assert done
    decided = service.store.conn.execute("select max(seq) from events where game_id = 'g1' and "
                                         "type = 'TurnAdjudicated'").fetchone()[0]
    assert named() == decided == projection.hashed_seq(service.store, "g1")
    pbem.loop.service._CACHE.clear()
    game = service.load("g1", verify=True)
    assert projection.check(service.store, game) == []


def test_an_ingest_reads_a_games_seat_names_once(service: Service, monkeypatch):
    created = service.new_game("g1", "gods-playground", [(s, f"{s}@x.org") for s in SEATS], {},
                               seed="fast-names-" + "x" * 40)
    asked = []
    real = Service.seat_names
    monkeypatch.setattr(Service, "seat_names", lambda self, g: (asked.append(g), real(self, g))[1])
    seat = service.load("g1").pending.seats[0]
    outcomes = Ingestor(service).ingest_all([_plan_mail(service, created, seat, n) for n in (1, 2)])
    assert [o.outcome for o in outcomes] == ["accepted", "accepted"]
    assert asked == ["g1"]  # fixed when the game was created: read once for both mails
