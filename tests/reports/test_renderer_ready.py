"""The first reports of a game in a process freeze what its renderer imported (matplotlib,
numpy, Pillow, jinja2), so the garbage collector no longer walks it at every full
collection: once per game and process, before the first report is drawn."""

from __future__ import annotations

import gc
import sys

from adjudicator.chance import Chance
from pbem.mailout import reporting

SEATS = [("red", "anna@example.org"), ("blue", "ben@example.org"), ("green", "cis@example.org")]


def test_a_season_freezes_what_its_renderer_imported_once(monkeypatch, service):
    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append("reports.wallenstein.render" in sys.modules))
    monkeypatch.setattr(reporting, "_READY", set())
    service.new_game("w1", "wallenstein", SEATS, {}, seed="ready-" + "r" * 40)
    chance = Chance("ready-bots")
    for step in range(3):
        game = service.load("w1")
        for seat in service.awaited(game):
            orders = game.engine.random_orders(game.state, seat, chance.stream(f"{step}/{seat}"))
            service.submit("w1", seat, orders, "", {"kind": "bot"})
        service.adjudicate("w1")
    assert frozen == [True]  # once, with the renderer imported
    assert reporting._READY == {"wallenstein"}
