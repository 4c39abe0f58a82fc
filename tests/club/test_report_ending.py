"""Every game's report names how the players ended the game (a draw, a concession, resignations):
on top, in "what comes next" and in the footer; a report without an ending says none of it."""

from __future__ import annotations

import pytest

from adjudicator.base import PUBLIC
from adjudicator.registry import get_engine
from reports.model import ReportInput
from reports.render import render_report

SEATS = {"wallenstein": ["red", "blue", "yellow"], "havoc": ["red", "blue", "black"],
         "gods-playground": ["white", "blue", "red"]}
ENDING = "The game ended in a draw between red and blue, agreed by every seat still playing in turn t1."


@pytest.mark.parametrize("game", ["wallenstein", "havoc", "gods-playground"])
@pytest.mark.parametrize("viewer", [PUBLIC, "blue"])
def test_the_report_names_how_the_game_ended(game, viewer):
    engine = get_engine(game)
    state, _ = engine.create(SEATS[game], {}, "report-ending-" + "x" * 40)
    inp = ReportInput(game_id="g1", game=game, viewer=viewer, turn="start", view=engine.view(state, viewer),
                      ending=ENDING, seed="s" * 40)
    text = " ".join(render_report(inp).text.split())
    assert text.count(ENDING) >= 3, text[:400]  # the banner, what comes next, the footer
    assert "Nothing: the game is over. " + ENDING in text and "How the game ended: " + ENDING in text
    plain = " ".join(render_report(ReportInput(**{**inp.__dict__, "ending": ""})).text.split())
    assert "How the game ended" not in plain and ENDING not in plain
