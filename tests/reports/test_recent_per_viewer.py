"""``ReportInput.recent`` per viewer: the derived events since the last report
reach a renderer only as the engine's ``event_view`` lets that viewer see them. Havoc's
events name the cards a seat drew from the deck; no other seat's report input may carry them."""

from __future__ import annotations

from adjudicator.base import GM, PUBLIC, visible_events
from adjudicator.chance import Chance
from pbem.mailout import reporting
from pbem.mailout.reporting import recent_turns, render_turn

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("yellow", "cis@example.org")]


def _havoc(service, steps: int = 14):
    service.new_game("h1", "havoc", SEATS, {}, seed="recent-" + "r" * 40)
    chance = Chance("recent-bots")
    for _ in range(steps):
        game = service.load("h1")
        for seat in service.awaited(game):
            orders = game.engine.random_orders(game.state, seat, chance.stream(f"{game.pending.turn}/{seat}"))
            service.submit("h1", seat, orders, "", {"kind": "bot"})
        service.adjudicate("h1")
    return service.load("h1")


def _events(recent):
    return [e for t in recent for e in t["events"]]


def _deck_cards(event):
    """Cards named as drawn from the deck (Draw, Recruit)."""
    if event["type"] == "Draw":
        return [event["card"]] if event["card"] else []
    if event["type"] == "Recruit":
        return [t["card"] for t in event.get("took") or [] if t["from"] == "deck" and t["card"]]
    return []


def test_recent_names_no_other_seats_drawn_cards(service):
    game = _havoc(service)
    every = _events(recent_turns(game, [], GM))
    drawn = {(e["seat"], c) for e in every for c in _deck_cards(e)}
    assert {s for s, _ in drawn} >= {"red", "blue"}, "the game drew cards for several seats"
    for viewer in [*game.seats, PUBLIC]:
        seen = _events(recent_turns(game, [], viewer))
        assert len(seen) == len(every)  # Havoc shows every event, redacted
        named = {(e["seat"], c) for e in seen for c in _deck_cards(e)}
        assert named == {(s, c) for s, c in drawn if s == viewer}, viewer
        assert not any(e["type"] in ("Shuffle", "Reshuffle") and "order" in e for e in seen)


def test_render_turn_passes_each_viewer_its_own_events(service, monkeypatch):
    game = _havoc(service)
    got = {}
    monkeypatch.setattr(reporting, "_cached", lambda inp: got.setdefault(inp.viewer, inp))
    render_turn(game, game.turns[-1], [], only=[*game.seats, PUBLIC, GM])
    for viewer, inp in got.items():
        assert inp.recent == recent_turns(game, [], viewer)
    assert got["red"].recent != got["blue"].recent


def test_unknown_events_and_engines_reach_the_gm_only():
    from adjudicator.gods_playground.engine import ENGINE as GP
    from tests.toy import DiceDuel

    events = [{"type": "Income", "paid": {}}, {"type": "SomethingNew", "secret": 3}]
    assert visible_events(GP, events, "white") == events[:1]
    assert visible_events(GP, events, GM) == events
    assert visible_events(DiceDuel(), events, "white") == []
    assert visible_events(DiceDuel(), events, GM) == events
