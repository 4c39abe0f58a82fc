"""A reply names every problem whole, in one list: the game's explanation is never cut (its
figures and lists of valid words are what the player needs; only the player's own echoed
line is shortened), and the problems found only once the lines are right (Wallenstein's
card counts) are listed with the typos, so that one resend fixes everything."""

from __future__ import annotations

import itertools
from email.message import EmailMessage

from pbem.mailout.deliver import message_of
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("green", "cis@example.org")]
_ids = itertools.count()


def _reply(service, passwords, seat: str, game: str, body: str) -> str:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = dict(SEATS)[seat], "gm@pbem.example", "orders"
    msg["Message-ID"] = f"<whole.{next(_ids)}@example.org>"
    msg.set_content(f"GAME {game} {seat} {passwords[seat]}\n{body}END\n")
    out = Ingestor(service).ingest(RawMail(bytes(msg), "orders.eml"))
    row = next(r for r in service.store.outbox() if r["id"] == out.outbox_id)
    return " ".join(message_of(row).get_body(preferencelist=("plain",)).get_content().split())


def _wallenstein(service) -> tuple[dict[str, str], list[str]]:
    created = service.new_game("w1", "wallenstein", SEATS, {}, seed="whole-" + "x" * 40)
    owned = sorted(c for c, v in created.game.state["counties"].items() if v.get("owner") == "red")
    return created.passwords, owned


def test_the_explanation_of_a_problem_is_never_cut(service):
    passwords, owned = _wallenstein(service)
    reply = _reply(service, passwords, "red", "w1", f"TAX {owned[0]}\nGRAIN {owned[1]}\nBID 0\n")
    assert "you must plan at least" in reply and "(you planned 2)" in reply, reply
    assert "\u2026" not in reply


def test_a_long_list_of_valid_words_reaches_the_player(service):
    created = service.new_game("h1", "havoc", SEATS, {}, seed="whole-havoc-" + "x" * 40)
    reply = _reply(service, created.passwords, "red", "h1", "STANDING SOMETIME: PASS\n")
    assert "(<when> is one of" in reply and "\u2026" not in reply, reply
    assert reply.split("(<when> is one of", 1)[1].split(")", 1)[0].count(",") >= 2  # the list, whole


def test_a_typo_and_too_few_actions_are_listed_in_one_reply(service):
    passwords, owned = _wallenstein(service)
    typo = owned[0][:-1] + "x" + owned[0][-1]
    reply = _reply(service, passwords, "red", "w1", f"TAX {typo}\nGRAIN {owned[1]}\nBID 0\n")
    assert "2 problems" in reply, reply
    assert f"line 2: TAX {typo}" in reply and "did you mean" in reply
    assert "too few actions planned" in reply and "counting only the lines without a problem" in reply


def test_a_rule_problem_and_too_few_actions_are_listed_in_one_reply(service):
    passwords, owned = _wallenstein(service)
    reply = _reply(service, passwords, "red", "w1", f"TAX {owned[0]}\nTAX {owned[1]}\nBID 0\n")
    assert "TAX is planned twice" in reply, reply
    assert "too few actions planned" in reply
