"""God's Playground plans by mail as players send them: the answer to a "your move" mail
that starts with its TURN line and carries the rest of the round; a plan sent early with
a typo, every problem named and the valid lines kept; lines that can never be used."""

from __future__ import annotations

import itertools
from email.message import EmailMessage

import pytest

from pbem.mailout.deliver import message_of
from pbem.loop.ingest import Ingestor
from pbem.mailin.parse import RawMail

SEATS = [("white", "w@x.org"), ("blue", "b@x.org"), ("red", "r@x.org")]
ADDRESS = dict(SEATS)
REST = """NOBLES Royal Prussia 3, Lithuania 2, Ukraine 0, Little Poland 1, Greater Poland 4, King 5
BUY Ukraine OR Lithuania OR PASS
BUY PASS
ACTION STEWARD Lithuania OR DANZIG
ACTION PASS
RECRUIT Ukraine 2 INF 1 CAV OR PASS
RECRUIT PASS
CAMPAIGN Tatars ROYAL OR CAMPAIGN Tatars OR PASS
COUNTER PASS
"""
_ids = itertools.count()


@pytest.fixture
def game(service):
    created = service.new_game("g1", "gods-playground", SEATS, {}, seed="gp-plan-mail-" + "x" * 40)
    return created.passwords


def _send(service, passwords, seat: str, body: str) -> tuple[str, str]:
    """Mail ``body`` (PW: the seat's password) from the seat; (outcome, the reply's text)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ADDRESS[seat], "gm@pbem.example", "my plan"
    msg["Message-ID"] = f"<plan.{next(_ids)}@x.org>"
    msg.set_content(body.replace("PW", passwords[seat]))
    out = Ingestor(service).ingest(RawMail(bytes(msg), "plan.eml"))
    reply = message_of(next(r for r in service.store.outbox() if r["id"] == out.outbox_id))
    return out.outcome, reply.get_body(preferencelist=("plain",)).get_content()


def _plan(service, seat: str) -> list[str]:
    from turns.games import format_orders

    state = service.load("g1").state
    return format_orders("gods-playground", state["plans"][seat]).splitlines()


def _your_move_turn(service, seat: str) -> str:
    """The TURN line of the seat's latest "your move" mail, as the player copies it."""
    row = [r for r in service.store.outbox() if r["kind"] == "your-move" and r["to_addr"] == ADDRESS[seat]][-1]
    text = message_of(row).get_body(preferencelist=("plain",)).get_content()
    return next(line.strip() for line in text.splitlines() if line.strip().startswith("TURN "))


def test_answering_a_your_move_mail_with_the_rest_of_the_round_keeps_the_whole_plan(service, game):
    first = service.load("g1").pending.seats[0]
    assert _send(service, game, first, f"GAME g1 {first} PW\nESTATE Ukraine\nESTATE Ukraine\nESTATE Ukraine\n"
                 + REST + "END\n")[0] == "accepted"
    service.adjudicate("g1")
    seat = service.load("g1").pending.seats[0]
    assert seat != first
    turn = _your_move_turn(service, seat)
    outcome, reply = _send(service, game, seat, f"GAME g1 {seat} PW\n{turn}\nESTATE Lithuania\n" + REST + "END\n")
    assert outcome == "accepted", reply
    plan = _plan(service, seat)
    assert len(plan) == 10 and plan[0] == "ESTATE Lithuania" and plan[-1] == "COUNTER PASS", plan
    assert "You owe nothing more" not in reply
    service.adjudicate("g1")
    game_now = service.load("g1")
    assert any(e["owner"] == seat for e in game_now.state["prov"]["lithuania"]["estates"])
    assert _plan(service, seat) == plan[1:]  # the ESTATE line was used, the rest of the round stands


def test_a_plan_sent_early_with_a_typo_names_it_and_keeps_the_valid_lines(service, game):
    pending = service.load("g1").pending
    seat = next(s for s, _ in SEATS if s not in pending.seats)  # not to move yet
    outcome, reply = _send(service, game, seat, f"GAME g1 {seat} PW\nESTATE Lituania OR Ukraine\n" + REST + "END\n")
    assert "no decision pending" not in reply, reply
    assert "line 2: ESTATE Lituania OR Ukraine" in reply and "Lithuania" in reply  # named, with "did you mean"
    assert outcome == "partial"
    plan = _plan(service, seat)
    assert len(plan) == 9 and plan[0].startswith("NOBLES") and not any(p.startswith("ESTATE") for p in plan), plan
    assert "NOT recorded" in reply and "ESTATE" in reply


def test_every_problem_of_a_plan_is_listed_at_once(service, game):
    pending = service.load("g1").pending
    seat = next(s for s, _ in SEATS if s not in pending.seats)
    body = (f"GAME g1 {seat} PW\nESTATE Lituania\nNOBLES Royal Prussia 3, Lithuania 2, Ukraine 0, "
            "Little Poland 1, Greater Poland 4, King 6\nBUY Ukrane OR PASS\nRECRUIT PASS\nEND\n")
    outcome, reply = _send(service, game, seat, body)
    assert outcome == "partial", reply
    assert "3 problems" in reply, reply
    assert "line 2:" in reply and "line 3:" in reply and "line 4:" in reply
    assert "nobles are worth 0 to 5 (yours this round: 0, 0, 1, 1," in reply  # a King 6 is never legal: said now, not at phase 2
    assert _plan(service, seat) == ["RECRUIT PASS"]


def test_a_plan_whose_every_line_fails_is_rejected_and_keeps_the_earlier_plan(service, game):
    pending = service.load("g1").pending
    seat = next(s for s, _ in SEATS if s not in pending.seats)
    assert _send(service, game, seat, f"GAME g1 {seat} PW\nBUY PASS\nEND\n")[0] == "accepted"
    outcome, reply = _send(service, game, seat, f"GAME g1 {seat} PW\nBUY Ukrane\nEND\n")
    assert outcome == "rejected" and "Ukraine" in reply and "no decision pending" not in reply, reply
    assert _plan(service, seat) == ["BUY PASS"]


def test_a_line_for_the_decision_awaited_now_is_checked_now(service, game):
    """Each awaited seat in turn sends ESTATE Ukraine: the seventh finds Ukraine's six
    estates taken and is told so at once (the rest of its plan kept)."""
    for _ in range(6):
        seat = service.load("g1").pending.seats[0]
        outcome, reply = _send(service, game, seat, f"GAME g1 {seat} PW\nESTATE Ukraine\nEND\n")
        assert outcome == "accepted" and "will be used" in reply, reply
        service.adjudicate("g1")
    seat = service.load("g1").pending.seats[0]
    outcome, reply = _send(service, game, seat, f"GAME g1 {seat} PW\nESTATE Ukraine\nBUY PASS\nEND\n")
    assert outcome == "partial" and "no empty estate in Ukraine" in reply, reply
    assert _plan(service, seat) == ["BUY PASS"]


ROUND1 = """ESTATE Ukraine OR Lithuania OR Royal Prussia OR Little Poland OR Greater Poland
ESTATE Ukraine OR Lithuania OR Royal Prussia OR Little Poland OR Greater Poland
ESTATE Ukraine OR Lithuania OR Royal Prussia OR Little Poland OR Greater Poland
NOBLES Royal Prussia 4, Lithuania 3, Ukraine 5, Little Poland 2, Greater Poland 1, King 0
BID {bid}
BUY PASS
ACTION PASS
ACTION PASS
RECRUIT Ukraine 2 INF 1 CAV OR PASS
RECRUIT PASS
CAMPAIGN PASS
COUNTER PASS
"""


def test_a_recruit_line_of_several_units_is_placed_one_tile_a_turn_from_one_mail(service, game):
    """Rules version 3 (Phase 9: one army tile a turn): each seat's one plan mail of the round
    holds RECRUIT Ukraine 2 INF 1 CAV; the three seats' tiles go down one a turn in turn order
    (its cube with the first), the rest of the line waiting for the seat's next turn, and
    nobody is asked about recruiting."""
    for n, (seat, _) in enumerate(SEATS):
        outcome, reply = _send(service, game, seat, f"GAME g1 {seat} PW\n" + ROUND1.format(bid=n + 1) + "END\n")
        assert outcome == "accepted", reply
    service.adjudicate("g1")
    events = [e for row in service.store.events("g1") if row.type == "TurnAdjudicated"
              for e in row.payload["events"]]
    recruited = [e for e in events if e["type"] == "Recruited"]
    assert len(recruited) == 9 and all(e["inf"] + e["cav"] + e["can"] + e["cossack"] == 1 for e in recruited)
    order = [e["seat"] for e in recruited]
    assert order[:3] == order[3:6] == order[6:] and len(set(order[:3])) == 3  # round and round, one tile each
    assert [e["cube"] for e in recruited] == [1, 1, 1] + [0] * 6  # the cube with the first tile only
    assert [e["inf"] for e in recruited] == [1] * 6 + [0] * 3  # infantry, then the cavalry
    assert not [r for r in service.store.outbox() if r["kind"] == "your-move"]  # one mail did the round
    state = service.load("g1").state
    assert state["round"] == 2 and state["plans"] == {s: [] for s, _ in SEATS}
