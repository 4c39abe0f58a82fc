"""Havoc rules version 3 by mail, as players live it: a recruiting sent a part at a time.
The seat mails a lone RECRUIT DECK; its "your move" mail names the card it drew and asks for
the rest; no mail to another seat names that card; the rest by mail ends the turn."""

from __future__ import annotations

from pbem.loop.service import Service
from pbem.store.db import Store
from tests.loop.mailrun import SEATS, Setup, text


def _block(game: str, seat: str, password: str, lines: str) -> str:
    return f"Hello,\n\nGAME {game} {seat} {password}\n{lines}\nEND\n\n-- \n{seat}\n"


def test_a_recruiting_by_mail_one_part_at_a_time(tmp_path, clock):
    setup = Setup(tmp_path, clock)
    passwords = setup.new_game("h3", "havoc", ("red", "blue", "green"))
    service = Service(Store(setup.db, clock=clock), sender=setup.sender)
    assert service.load("h3").engine.version == "3"
    first = service.load("h3").pending.seats[0]
    setup.mail(SEATS[first], "orders", _block("h3", first, passwords[first], "RECRUIT DECK"))
    setup.ingest()
    replies = setup.outbox(kind="reply", to=SEATS[first])
    assert replies and "RECRUIT DECK" in text(replies[-1]) and "accepted" in text(replies[-1]).lower()
    before = {r["id"] for r in setup.outbox()}
    setup.run("adjudicate", "h3")
    game = service.load("h3")
    assert game.pending.kind == "recruiting" and game.pending.seats == (first,)
    drawn = [t["card"] for t in game.state["phase"]["took"] if t["from"] == "deck"]
    assert len(drawn) == 1 and drawn[0] in game.state["hands"][first]
    moves = setup.outbox(kind="your-move", to=SEATS[first])
    mail = text(moves[-1])
    assert f"You drew {drawn[0]} from the deck" in mail
    assert "Decide your second card: RECRUIT DECK or RECRUIT <recruit>" in mail
    assert f"TURN {game.pending.turn}" in mail and "Order keywords accepted now: RECRUIT" in mail
    for row in setup.outbox():  # nothing queued for another seat (or the public) names the drawn card
        if row["id"] not in before and row["to_addr"] != SEATS[first]:
            assert drawn[0] not in text(row), (row["kind"], row["to_addr"])
    setup.mail(SEATS[first], "orders", _block("h3", first, passwords[first], f"TURN {game.pending.turn}\nRECRUIT DECK\nLAY LOWEST"))
    setup.ingest()
    setup.run("adjudicate", "h3")
    game = service.load("h3")
    assert game.pending.kind == "recruit" and game.pending.seats != (first,)
    recruit = [e for t in game.turns for e in t["events"] if e.get("type") == "Recruit"]
    assert recruit and recruit[-1]["seat"] == first and len(recruit[-1]["took"]) == 2
    nxt = game.pending.seats[0]
    mail = text(setup.outbox(kind="your-move", to=SEATS[nxt])[-1])
    assert "RECRUIT DECK or RECRUIT <recruit> for your first card: you are then asked" in " ".join(mail.split())
    assert drawn[0] not in mail or drawn[0] in game.state["recruits"]  # laid into the recruits: public now



def test_the_bots_answer_the_decisions_asked_when_they_arise(tmp_path, clock):
    """``pbem bots`` (heuristic, which is Havoc's random player, and random) answers a
    recruiting under way and the Dogs out at a battle's end, in the order syntax."""
    setup = Setup(tmp_path, clock)
    passwords = setup.new_game("h4", "havoc", ("red", "blue"))
    service = Service(Store(setup.db, clock=clock), sender=setup.sender)
    first = service.load("h4").pending.seats[0]
    setup.mail(SEATS[first], "orders", _block("h4", first, passwords[first], "RECRUIT DECK"))
    setup.ingest()
    setup.run("adjudicate", "h4")
    kinds = {service.load("h4").pending.kind}
    for step in range(150):
        game = service.load("h4")
        if game.pending is None:
            break
        kinds.add(game.pending.kind)
        setup.run("bots", "h4", *[f"--seat={s}" for s in service.awaited(game)],
                  "--bot", "random" if step % 2 else "heuristic")
        setup.run("adjudicate", "h4")
    assert {"recruiting", "dogsout"} <= kinds, kinds
