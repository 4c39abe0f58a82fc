"""The court in a season report (reports/wallenstein/court.py), from the view only."""

from __future__ import annotations

from adjudicator.base import GM, PUBLIC
from adjudicator.wallenstein import ENGINE
from reports.model import ReportInput
from reports.render import render_report
from reports.wallenstein.court import FORMATTERS
from reports.wallenstein.events import describe

SEATS = ["red", "blue", "green"]


def _season() -> tuple[dict, list]:
    state, _ = ENGINE.create(SEATS, {"expansion": "court"}, "report")
    orders = {s: [*ENGINE.default_orders(state, s)] for s in SEATS}
    new, events = ENGINE.advance(state, orders, "report")
    return new, events


def _report(state: dict, viewer: str) -> str:
    view = ENGINE.view(state, viewer)
    inp = ReportInput("g", "wallenstein", viewer, "1618-spring", view)
    return " ".join(render_report(inp).text.split()).lower()  # headings are upper case, lines wrapped


def test_court_section_in_every_report_and_the_deck_labelled_provisional() -> None:
    state, _ = _season()
    for viewer in [*SEATS, PUBLIC, GM]:
        text = _report(state, viewer)
        assert "the imperial court" in text and "courtiers and favour cards" in text
        assert "provisional stand-in cards" in text
        if viewer == GM:  # with its source; a seat's first report names it plainly
            assert "favour deck (favour_cards.json)" in text
        else:
            assert "- the favour cards (a stand-in deck)" in text and "favour_cards.json" not in text
        for d in state["court"]["display"]:
            assert f"card {d['number']} " in text
        assert ("favour deck, top first (gm only)" in text) == (viewer == GM)


def test_court_events_have_sentences() -> None:
    state, events = _season()
    court_events = [e for e in state["log"] if e["type"] in FORMATTERS]
    assert {e["type"] for e in court_events} >= {"CourtEnd", "FavourCards"}
    for e in court_events:
        line = describe(e)
        assert not line.startswith(e["type"] + ":"), f"no sentence for {e}"
    sample = {"type": "Favour", "seat": "red", "card": 8, "name": "Recruiting Patent",
              "effects": [{"do": "armies", "county": "Vogtland", "armies": 2}, {"do": "vp", "amount": 1, "vp": 3}]}
    assert describe(sample) == "Favour card 8 (Recruiting Patent) for red: 2 armies onto Vogtland; +1 VP."
    bids = describe({"type": "Bids", "bids": {"red": {"card": "tower"}}, "paid": {}, "missed": []})
    assert "red a cube-tower card (0)" in bids


def test_base_report_has_no_court_section() -> None:
    state, _ = ENGINE.create(SEATS, {}, "report")
    text = _report(state, PUBLIC)
    assert "the imperial court" not in text
