"""The reply to orders sent in advance (Havoc's standing orders, a God's Playground plan)
says what they are and what they replace, without contradicting itself, and gives the
deadline of a game with a relative clock: never "turn standing", never "no deadline is set"
in a game whose every turn has one."""

from __future__ import annotations

import itertools
from email.message import EmailMessage

from pbem.mailout.deliver import message_of
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail

_ids = itertools.count()


def _reply(service, address: str, body: str) -> str:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address, "gm@pbem.example", "orders"
    msg["Message-ID"] = f"<standing.{next(_ids)}@example.org>"
    msg.set_content(body)
    out = Ingestor(service).ingest(RawMail(bytes(msg), "orders.eml"))
    row = next(r for r in service.store.outbox() if r["id"] == out.outbox_id)
    return message_of(row).get_body(preferencelist=("plain",)).get_content()


def _clean(reply: str) -> None:
    assert "ACCEPTED" in reply, reply
    assert "turn standing" not in reply and "no deadline is set" not in reply, reply
    assert "replace any you sent before for this turn" not in reply  # the standing note says what they replace
    assert "Deadline" in reply and "UTC" in reply


def test_havoc_standing_orders_in_a_game_with_a_relative_clock(service):
    seats = [("red", "r@x.org"), ("blue", "b@x.org"), ("green", "g@x.org")]
    created = service.new_game("h1", "havoc", seats, {}, seed="standing-" + "x" * 40, deadline_every="72h")
    waiting = next(s for s, _ in seats if s not in created.game.pending.seats)
    reply = _reply(service, dict(seats)[waiting],
                   f"GAME h1 {waiting} {created.passwords[waiting]}\nSTANDING RECRUIT: RECRUIT DECK; RECRUIT DECK; "
                   "LAY LOWEST\nEND\n")
    _clean(reply)
    assert "ACCEPTED: standing orders for game h1" in reply
    assert "Deadline of the decision awaited now" in reply  # not this seat's own


def test_a_gods_playground_plan_in_a_game_with_a_relative_clock(service):
    seats = [("white", "w@x.org"), ("blue", "b@x.org"), ("red", "r@x.org")]
    created = service.new_game("g1", "gods-playground", seats, {}, seed="standing-" + "x" * 40, deadline_every="72h")
    seat = created.game.pending.seats[0]
    reply = _reply(service, dict(seats)[seat], f"GAME g1 {seat} {created.passwords[seat]}\nESTATE Ukraine\nBUY PASS\nEND\n")
    _clean(reply)
    assert "ACCEPTED: round 1 plan for game g1" in reply and "Deadline of" not in reply
