"""Looting: the discard pile is shown to the looting seat only, and only
while it loots (seed 002: "A dobott lapokat csak hullarablás közben lehet megnézni")."""

from adjudicator.base import PUBLIC
from adjudicator.havoc import ENGINE
from tests.havoc.scenario import SEED, build
from turns.havoc import parse

CASE = {"seats": ["a", "b"],
        "setup": {"hands": {"a": ["dog01", "dog02", "blue01"], "b": ["grey01"]},
                  "recruits": ["orange01", "orange02", "orange03"], "discard": ["orange08", "grey08", "dog03"]}}


def _advance(state, seat, text):
    return ENGINE.advance(state, {seat: parse(text, state).orders}, SEED)[0]


def test_only_the_looting_seat_sees_the_discard_pile_and_only_then():
    state = build(CASE)
    assert "discard" not in ENGINE.view(state, "a")
    state = _advance(state, "a", "RECRUIT DECK\nRECRUIT DECK\nLOOT LOOK\nLAY blue1")
    assert ENGINE.pending(state).kind == "loot"
    assert set(ENGINE.view(state, "a")["discard"]) >= {"orange08", "grey08", "dog03"}
    assert "discard" not in ENGINE.view(state, "b") and "discard" not in ENGINE.view(state, PUBLIC)
    state = _advance(state, "a", "LOOT grey8")
    assert "grey08" in state["hands"]["a"] and "discard" not in ENGINE.view(state, "a")


def test_a_missed_looting_takes_the_highest():
    state = _advance(build(CASE), "a", "RECRUIT DECK\nRECRUIT DECK\nLOOT LOOK\nLAY blue1")
    state = ENGINE.advance(state, {"a": ENGINE.default_orders(state, "a")}, SEED)[0]
    assert "orange08" in state["hands"]["a"] or "grey08" in state["hands"]["a"]
    assert ENGINE.pending(state).kind == "recruit" and ENGINE.pending(state).seats == ("b",)


def test_the_looting_seats_report_shows_the_discard_pile():
    from reports.havoc.content import _hand
    from reports.model import ReportInput

    state = _advance(build(CASE), "a", "RECRUIT DECK\nRECRUIT DECK\nLOOT LOOK\nLAY blue1")
    mine = repr(_hand(ReportInput("g", "havoc", "a", "t", ENGINE.view(state, "a"))))
    theirs = repr(_hand(ReportInput("g", "havoc", "b", "t", ENGINE.view(state, "b"))))
    assert "You are looting" in mine and "orange08" in mine
    assert "You are looting" not in theirs
