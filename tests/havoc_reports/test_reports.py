"""Havoc reports over whole seeded random games: no leaks, determinism, report_due."""

from __future__ import annotations

import pytest

from adjudicator.base import GM, PUBLIC
from adjudicator.havoc.engine import ENGINE
from reports.havoc.content import plain_provisional
from reports.render import render_report
from tests.havoc_reports.games import due_steps, play, report_input, viewers

GAMES = [(3, "hr-3a", {}), (4, "hr-4a", {"gaunt": "on"}), (2, "hr-2a", {"gaunt": "extra", "order": "random"}),
         (5, "hr-5a", {"gaunt": "on", "order": "winner"}), (3, "hr-3b", {"small": "on", "peace": "12"}),
         (6, "hr-6a", {})]

_CACHE: dict[str, list] = {}


def _steps(n, seed, opts):
    if seed not in _CACHE:
        _CACHE[seed] = play(n, seed, opts)
    return _CACHE[seed]


@pytest.mark.parametrize("n,seed,opts", GAMES, ids=[g[1] for g in GAMES])
def test_no_report_shows_another_seats_hand(n, seed, opts):
    steps = _steps(n, seed, opts)
    due = list(due_steps(steps))
    assert due, "a whole game has battles"
    for step in due:
        hands = {s: ENGINE.private_keys(step.state, s) for s in step.state["seats"]}
        every = {c for cards in hands.values() for c in cards}
        for viewer in viewers(step.state):
            r = render_report(report_input(step, viewer, seed))
            for body in (r.text, r.html):
                if viewer == PUBLIC:
                    leaked = [c for c in every if c in body]
                    assert not leaked, f"public report after {step.turn} names hand cards {leaked}"
                elif viewer != GM:
                    others = {c for s, cards in hands.items() if s != viewer for c in cards}
                    leaked = [c for c in others if c in body]
                    assert not leaked, f"{viewer}'s report after {step.turn} names {leaked}"
                    for card in hands[viewer]:  # its own hand is there
                        assert card in body
                else:
                    assert all(c in body for c in every)  # the GM sees everything


@pytest.mark.parametrize("n,seed,opts", GAMES[:3], ids=[g[1] for g in GAMES[:3]])
def test_reports_are_deterministic_and_complete(n, seed, opts):
    steps = _steps(n, seed, opts)
    due = list(due_steps(steps))
    for step in (due[0], due[len(due) // 2], due[-1]):
        for viewer in viewers(step.state):
            a = render_report(report_input(step, viewer, seed))
            b = render_report(report_input(step, viewer, seed))
            assert a.text == b.text and a.html == b.html and a.images == b.images
            assert a.images["chart.png"].startswith(b"\x89PNG")
            assert all(len(line) <= 72 for line in a.text.splitlines()), \
                [line for line in a.text.splitlines() if len(line) > 72]
            text = a.text
            view = ENGINE.view(step.state, viewer)
            for battle in view["battles"]:
                assert battle["name"] in text
            if view["last_battle"]:
                assert view["last_battle"]["name"] in text
            assert report_input(step, viewer, seed).seed_commitment in text.replace("\n", "")
            assert report_input(step, viewer, seed).state_hash in text.replace("\n", "")
            assert "PROVISIONAL" in text and "PROVISIONAL" in a.html
            if viewer == GM:  # in full, with the sources: the GM's reports
                for p in view["provisional"]:
                    assert p.split(" (")[0] in " ".join(text.split())
            elif step.turn.startswith("b1/"):  # a seat's first reports: a plain short list by battle
                plain = " ".join(text.split())
                assert "- provisional:" not in text and "BGG" not in plain
                for item in plain_provisional(view["provisional"]):
                    assert item in plain, item
            else:  # said once, in one line with where they are listed
                assert f"PROVISIONAL: {len(view['provisional'])} figures in use" in text
                assert "- provisional:" not in text
            over = step.state["over"]
            assert (seed in text) == over  # the seed only in the final report
            if not over:
                assert "Whose turn it is" in a.html and view["pending"]["turn"] in text
            else:
                assert "The war is over" in text


def test_html_escapes_and_inline_css():
    steps = _steps(*GAMES[0])
    step = next(iter(due_steps(steps)))
    inp = report_input(step, "red", GAMES[0][1], game_id="<b>h&1</b>")
    r = render_report(inp)
    assert "<b>h&1</b>" not in r.html and "&lt;b&gt;h&amp;1&lt;/b&gt;" in r.html
    assert "<style" not in r.html.split("</head>", 1)[1] and 'style="' in r.html
    assert '<img src="chart.png"' in r.html


@pytest.mark.parametrize("n,seed,opts", GAMES, ids=[g[1] for g in GAMES])
def test_report_due_exactly_when_a_battle_ends(n, seed, opts):
    steps = _steps(n, seed, opts)
    battles = 0
    for step in steps:
        types = [e["type"] for e in step.events]
        ended_battle = "Peacekeeper" in types or "FinalBattle" in types
        ended_peace = "PeaceDiscard" in types or ("YearOfPeace" in types and
                                                  step.state["phase"]["name"] != "peace_discard")
        due = ENGINE.report_due(step.state, step.events)
        assert due == (ended_battle or ended_peace or "GameOver" in types), (step.turn, types)
        if ended_battle:
            assert step.state["last_battle"] is not None
            battles += 1
        if "BattleResult" in types and not ended_battle:
            assert step.state["phase"]["name"] == "dogs"  # the Dogs still to come: no report yet
    fought = sum(len(w) for w in steps[-1].state["won"].values()) + len(steps[-1].state["john"]["won"])
    winnerless_castillon = steps[-1].state["last_battle"]["winner"] is None
    assert battles == fought + winnerless_castillon
    assert ENGINE.report_due(steps[-1].state, steps[-1].events)  # the game's end
    small = [s for s in steps if not ENGINE.report_due(s.state, s.events)]
    assert len(small) > len(steps) // 2  # most decisions are small


def test_chart_has_one_point_per_battle():
    from reports.havoc.chart import by_battle

    steps = _steps(*GAMES[0])
    rows = by_battle(steps[-1].history)
    labels = [r["turn"] for r in rows]
    assert labels[0] == "start" and labels[-1] == "Castillon"
    assert rows[-1]["scores"] == ENGINE.scores(steps[-1].state)
    assert labels[1:-1] == [str(i) for i in range(1, len(labels) - 1)]
