"""A "your move" mail speaks to a player in sentences: the decision in the game's words (as
its report says it), what changed for the seat (its hand, its money and points), and of its
last orders only what was carried out; never raw state (codes, flags, diffs of figures)."""

from __future__ import annotations

import re

from pbem.mailout.deliver import message_of

SEATS = [("white", "w@x.org"), ("blue", "b@x.org"), ("red", "r@x.org")]
ADDRESS = dict(SEATS)
RAW = ("my_secret", ":plan:", "must_havoc", "plan_failed", "(details in the report below)", "  phase:", "  round:")


def _moves(service, seat: str) -> list[str]:
    rows = [r for r in service.store.outbox() if r["kind"] == "your-move" and r["to_addr"] == ADDRESS[seat]]
    out = []
    for row in rows:
        text = message_of(row).get_body(preferencelist=("plain",)).get_content()
        out.append(text[:text.index("Reply with")])  # the mail's own part, before the block and the report
    return out


def test_a_gods_playground_your_move_mail_in_sentences(service):
    service.new_game("g1", "gods-playground", SEATS, {}, seed="words-" + "x" * 40)
    first = service.load("g1").pending.seats[0]
    # a block of several lines recorded as orders for one decision (as older games hold them):
    # only its ESTATE line was used
    lines = [{"kind": "estate", "alts": [{"province": "ukraine"}]}, {"kind": "buy", "alts": [{"pass": True}]},
             {"kind": "action", "alts": [{"pass": True}]}]
    service.submit("g1", first, lines, "", {"kind": "gm"})
    for _ in range(8):
        service.adjudicate("g1")
        game = service.load("g1")
        if first in game.pending.seats:
            break
        for seat in game.pending.seats:
            service.submit("g1", seat, game.engine.default_orders(game.state, seat), "", {"kind": "gm"})
    mails = [m for s, _ in SEATS for m in _moves(service, s)]
    assert mails
    for text in mails:
        assert not any(word in text for word in RAW), text
        assert re.search(r"Your decision \(r1/estate/\d+/\w+, starting estates\): choose a starting\sestate", text)
    again = _moves(service, first)
    assert again, "the first seat is asked again for its second estate"
    carried = again[-1].split("Your last orders, as carried out:\n", 1)[1].split("\n\n", 1)[0]
    assert carried.strip() == "ESTATE Ukraine", carried
