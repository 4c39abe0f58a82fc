"""When a sequential decision falls to a seat, that seat gets a "your move"
mail with its position, what changed since its last mail (its own last orders included) and
the orders it may send; a standing order that could not be applied says why."""

from __future__ import annotations

import re

from adjudicator.chance import Chance
from pbem.mailout.deliver import message_of
from pbem.loop.demo import bot_for
from pbem.loop.service import Service
from turns.games import grammar_for

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("yellow", "cis@example.org")]
ADDR = {a: s for s, a in SEATS}


def _moves(service: Service, game_id: str) -> list[dict]:
    return [r for r in service.store.outbox() if r["game_id"] == game_id and r["kind"] == "your-move"]


def _text(row: dict) -> str:
    return message_of(row).get_body(preferencelist=("plain",)).get_content()


def _play(service: Service, game_id: str, steps: int) -> list[tuple[str, str, int]]:
    """Bots answer ``steps`` decisions; (turn, seat, your-move mails queued for it) per step."""
    chance, seen = Chance("loop-test"), []
    for _ in range(steps):
        game = service.load(game_id)
        if game.pending is None:
            break
        for seat in service.awaited(game):
            orders = bot_for(game, "random")(game.state, seat, chance.stream(f"{game.pending.turn}/{seat}"))
            service.submit(game_id, seat, orders, "", {"kind": "bot"})
        service.adjudicate(game_id)
        after = service.load(game_id)
        if after.pending is not None and not after.pending.simultaneous:
            seat = after.pending.seats[0]
            mails = [r for r in _moves(service, game_id) if ADDR[r["to_addr"]] == seat
                     and f"TURN {after.pending.turn}\n" in _text(r)]
            seen.append((after.pending.turn, seat, len(mails)))
    return seen


def test_each_sequential_decision_is_announced_once_to_its_seat(service):
    service.new_game("h1", "havoc", SEATS, {}, seed="your-move-" + "a" * 40)
    seen = _play(service, "h1", 25)
    assert len(seen) >= 10
    reported = {r["cause_seq"] for r in service.store.outbox() if r["kind"] == "report"}
    for turn, seat, count in seen:
        # a seat hears of its decision once: by a "your move" mail, or by the report of a battle's end
        assert count == 1 or (count == 0 and reported), (turn, seat)
    assert sum(1 for _, _, c in seen if c == 1) >= 8
    service.adjudicate("h1")  # nothing new: no second mail for the same decision
    assert len({r["message_id"] for r in _moves(service, "h1")}) == len(_moves(service, "h1"))


def test_your_move_shows_own_orders_and_changes_but_no_other_hand(service):
    service.new_game("h1", "havoc", SEATS, {}, seed="your-move-" + "b" * 40)
    _play(service, "h1", 12)
    game = service.load("h1")
    with_orders = [r for r in _moves(service, "h1") if "Your last orders, as carried out:" in _text(r)]
    assert with_orders
    for row in _moves(service, "h1"):
        text, seat = _text(row), ADDR[row["to_addr"]]
        assert f"your move, {seat}" in text and "Order keywords accepted now:" in text
        assert "TURN " in text and f"GAME h1 {seat} <your password>" in text
        for other in (s for s, _ in SEATS if s != seat):
            assert f"hands: {other}" not in text  # only the seat's own hand is ever described
    changed = [t for t in map(_text, with_orders) if "What changed for you since your last mail" in t]
    assert any("- Cards in your hand: " in t and "(new: " in t for t in changed)  # e.g. the cards it drew
    assert game.turns


def test_a_standing_order_that_cannot_apply_says_why(service):
    created = service.new_game("h1", "havoc", SEATS, {}, seed="your-move-" + "c" * 40)
    game = created.game
    first = game.pending.seats[0]
    text = "STANDING RECRUIT: RECRUIT DECK; LAY LOWEST"  # one RECRUIT line: never legal
    parsed = grammar_for("havoc")(text, game.state)
    for seat, _ in SEATS:
        service.submit_standing("h1", seat, parsed.orders, text, {"kind": "gm"})
    _play(service, "h1", 30)
    notes = [_text(r) for r in _moves(service, "h1") if re.search(r"Your decision \(b\d+/recruit/", _text(r))]
    assert notes, "a recruit decision should have been announced"
    assert all("Note: your standing orders could not be applied here: recruiting draws exactly two cards"
               in " ".join(t.split()) for t in notes)
    assert first

