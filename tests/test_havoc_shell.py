"""Havoc through the shell: standing orders recorded as events, applied on replay, and
``adjudicate`` resolving every decision the standing orders cover."""

from __future__ import annotations

import pytest

from pbem.errors import DomainError
from turns.games import grammar_for

STANDING = """STANDING RECRUIT: RECRUIT DECK; RECRUIT DECK; LAY LOWEST
STANDING JOIN: STAY
STANDING ROUND: PASS
STANDING DISCARD: DISCARD LOWEST
"""


def _new(service, seats=3):
    names = ["red", "blue", "green", "yellow"][:seats]
    return service.new_game("h1", "havoc", [(n, f"{n}@x.org") for n in names], {}, "havoc-shell-seed")


def test_standing_orders_drive_adjudication_and_replay(service):
    created = _new(service)
    game = created.game
    parsed = grammar_for("havoc")(STANDING, game.state)
    assert parsed.ok and game.engine.is_standing(parsed.orders)
    for seat in game.seats:
        service.submit_standing("h1", seat, parsed.orders, STANDING, {"kind": "gm"})
    before = service.load("h1").pending
    done = service.adjudicate("h1")
    assert done, f"standing orders should resolve decisions from {before}"
    game = service.load("h1")
    assert game.turns[-1]["turn"] == done[-1]["turn"]
    replayed = service.load("h1", verify=True)  # the fold re-applies StandingOrders and re-runs every decision
    assert replayed.state_hash == game.state_hash


def test_standing_orders_rejected_for_games_without_them(service):
    service.new_game("w1", "wallenstein", [("a", "a@x"), ("b", "b@x"), ("c", "c@x")], {}, "s")
    with pytest.raises(DomainError, match="no standing orders"):
        service.submit_standing("w1", "a", [{"kind": "standing"}], "", {"kind": "gm"})


def test_standing_orders_by_mail_from_any_seat(service):
    from email import message_from_bytes, policy

    from pbem.loop.demo import order_mail
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import RawMail

    created = _new(service)
    game = created.game
    waiting = game.pending.seats[0]
    other = next(s for s in game.seats if s != waiting)
    raw = order_mail(game, other, created.passwords[other], STANDING.strip(), service.store.clock(), service.sender)
    outcome = Ingestor(service).ingest(RawMail(raw, "standing.eml"))
    assert outcome.outcome == "accepted", outcome.as_dict()
    events = [e.type for e in service.store.events("h1")]
    assert events.count("StandingOrders") == 1
    reply = message_from_bytes(service.store.outbox()[-1]["message"], policy=policy.default)
    body = reply.get_body(preferencelist=("plain",)).get_content()
    assert "STANDING RECRUIT" in body and created.passwords[other] not in body
    bad = order_mail(game, other, created.passwords[other], "STANDING DOGS: SCAVENGE blue99",
                     service.store.clock(), service.sender).replace(b".h1.", b".h1b.")
    outcome = Ingestor(service).ingest(RawMail(bad, "bad.eml"))
    assert outcome.outcome == "rejected"


def test_a_mistyped_standing_block_gets_its_syntax_problem(service):
    from pbem.loop.demo import order_mail
    from pbem.loop.ingest import Ingestor
    from pbem.mailin.parse import RawMail

    created = _new(service)
    game = created.game
    other = next(s for s in game.seats if s != game.pending.seats[0])
    raw = order_mail(game, other, created.passwords[other], "STANDING RECRUT: RECRUIT DECK",
                     service.store.clock(), service.sender)
    outcome = Ingestor(service).ingest(RawMail(raw, "typo.eml"))
    assert outcome.outcome == "rejected"
    block = outcome.blocks[0]
    assert block.problems and "no decision pending" not in (block.reason or "")


def test_bots_write_the_same_orders_again_on_a_later_turn(service):
    from pbem.loop.demo import bot_texts

    created = _new(service)
    game = created.game
    texts = bot_texts(game, list(game.seats), "random", list(game.pending.seats))
    assert all(f"TURN {game.pending.turn}\n" in t for t in texts.values())
