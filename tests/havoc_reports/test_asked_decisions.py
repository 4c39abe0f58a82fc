"""Rules version 3's decisions asked when they arise (a recruiting a part at a time, the Dogs
out at the end of a battle) in reports and "your move" words: the seat is told what it drew
and what to decide next; no other seat, nor the public, learns the cards it drew."""

from __future__ import annotations

import pytest

from adjudicator.base import GM, PUBLIC
from adjudicator.havoc.engine import ENGINE
from adjudicator.havoc.releases import RELEASES
from adjudicator.versions import pin
from reports.decisions import decision_lines
from reports.render import render_report
from tests.havoc_reports.games import play, report_input, viewers

GAMES = [(3, "asked-3", {}), (4, "asked-4", {"gaunt": "on"}), (5, "asked-5", {"sic": "once"})]


def _drawn(state) -> list[str]:
    """The cards the recruiting under way drew blind from the deck (the GM's state)."""
    return [t["card"] for t in state["phase"]["took"] if t["from"] == "deck" and t["card"]]


@pytest.mark.parametrize("n,seed,opts", GAMES, ids=[g[1] for g in GAMES])
def test_only_the_drawer_is_told_what_it_drew(n, seed, opts):
    steps = play(n, seed, opts)
    asked = [s for s in steps if ENGINE.pending(s.state) and ENGINE.pending(s.state).kind == "recruiting"]
    assert len(asked) >= 5, "the random players send a first part alone now and then"
    told = 0
    for step in asked[:12]:
        drawer = step.state["phase"]["seat"]
        drawn = _drawn(step.state)
        for viewer in viewers(step.state):
            view = ENGINE.view(step.state, viewer)
            words = " ".join(decision_lines("havoc", view, viewer))
            report = render_report(report_input(step, viewer, seed))
            for body in (words, report.text, report.html):
                if viewer in (drawer, GM):
                    continue
                leaked = [c for c in drawn if c in body]
                assert not leaked, f"{viewer} learns {drawer}'s drawn {leaked} at {step.turn}"
            if viewer == drawer and drawn:
                assert f"You drew {' '.join(drawn)} from the deck" in words, words
                assert all(c in report.text for c in drawn)
                told += 1
            elif viewer == drawer:
                assert "You have taken so far:" in words, words
            if viewer == PUBLIC or (viewer != drawer and viewer != GM):
                assert "is recruiting and has taken so far:" in words, words
    assert told


def test_the_end_of_a_battle_asks_for_the_dogs_out():
    steps = play(4, "asked-dogs", {})
    asked = [s for s in steps if ENGINE.pending(s.state) and ENGINE.pending(s.state).kind == "dogsout"]
    assert asked, "some seat laid Dogs with a choice left"
    for step in asked[:5]:
        pending = ENGINE.pending(step.state)
        seat = pending.seats[0]
        mine = " ".join(decision_lines("havoc", ENGINE.view(step.state, seat), seat))
        assert f"DOGS OUT {pending.info['min']}-{pending.info['max']}" in mine and "your Dogs fight" in mine
        other = next(s for s in step.state["seats"] if s != seat)
        theirs = " ".join(decision_lines("havoc", ENGINE.view(step.state, other), other))
        assert f"{seat} declares how many laid Dogs of War" in theirs


def test_version_2_games_are_never_asked():
    old = pin(ENGINE, "2")
    state, _ = old.create(["a", "b", "c"], {}, "asked-v2")
    seen = set()
    with RELEASES.pinned(RELEASES.get("2")):
        from tests.randomgames import random_steps

        for pending, _, _ in random_steps(ENGINE, ["a", "b", "c"], "asked-v2"):
            seen.add(pending.kind)
    assert "recruit" in seen and not seen & {"recruiting", "dogsout"}
    assert "asked" not in old.pending(state).info
