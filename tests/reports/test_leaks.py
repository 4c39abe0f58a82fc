"""No report shows a viewer what its view hides.

Reports are built from ``engine.view`` alone, so the test perturbs what only the GM may
see (the face-down action cards, the event deck, the draft deck) and checks that every
seat's and the public report stays byte-identical, while the GM's report does change
(so the perturbation is real). Hands: a seat's hand section lists exactly its own cards,
and no other report has a hand section for it.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from adjudicator.base import GM, PUBLIC
from adjudicator.registry import get_engine
from reports.wallenstein.render import render_documents, render_images
from tests.reports.games import play, report_input

GAMES = [("leak-3", ("red", "blue", "green"), {}),
         ("leak-4", ("red", "blue", "green", "yellow"), {}),
         ("leak-5", ("red", "blue", "green", "yellow", "purple"), {"setup": "draft"})]


def _perturbed(state: dict[str, Any]) -> dict[str, Any] | None:
    """``state`` with its GM-only parts changed, or None if nothing is hidden now."""
    s = copy.deepcopy(state)
    changed = False
    if s.get("phase") == "plan" and len(set(s["actions"][5:])) > 1:
        s["actions"][5:] = list(reversed(s["actions"][5:]))
        changed = True
    deck = s.get("events", {}).get("deck") or []
    if len(set(deck)) > 1:
        s["events"]["deck"] = list(reversed(deck))
        changed = True
    draft = s.get("draft")
    if draft and len(set(draft.get("deck") or [])) > 1:
        draft["deck"] = list(reversed(draft["deck"]))
        changed = True
    return s if changed else None


def _games():
    for seed, seats, options in GAMES:
        yield seed, play(seed, seats, options)


@pytest.fixture(scope="module")
def games():
    return list(_games())


def _text_and_html(inp):
    return render_documents(inp)


def test_hidden_parts_never_change_a_seat_or_public_map(games):
    """Pictures too (one turn per game: they are slow to draw)."""
    for seed, turns in games:
        turn = next(t for t in turns if _perturbed(t.state) is not None)
        other = _perturbed(turn.state)
        for viewer in [*turn.state["seats"], PUBLIC]:
            assert render_images(report_input(seed, seed, turn, viewer, state=other)) == \
                render_images(report_input(seed, seed, turn, viewer)), f"{viewer}'s pictures after {turn.label}"


def test_hidden_parts_never_change_a_seat_or_public_report(games):
    checked = 0
    for seed, turns in games:
        for turn in turns:
            other = _perturbed(turn.state)
            if other is None:
                continue
            for viewer in [*turn.state["seats"], PUBLIC]:
                plain = _text_and_html(report_input(seed, seed, turn, viewer))
                assert _text_and_html(report_input(seed, seed, turn, viewer, state=other)) == plain, \
                    f"{viewer}'s report after {turn.label} of {seed} depends on hidden data"
                checked += 1
            gm = _text_and_html(report_input(seed, seed, turn, GM))
            assert _text_and_html(report_input(seed, seed, turn, GM, state=other)) != gm
    assert checked >= 20


class _Doc:
    def __init__(self, inp):
        self.text, self.html = render_documents(inp)


_report = _Doc


def _hand_section(text: str) -> list[str] | None:
    """The cards listed under the seat's hand heading, or None if there is none."""
    m = re.search(r"^YOUR COUNTY CARDS.*\n-+\n(.*?)(?:\n\n|\n-{72}\n)", text, re.S | re.M)
    if m is None:
        return None
    return [line[2:] for line in m.group(1).splitlines() if line.startswith("- ")]


def test_hand_sections_hold_only_the_viewers_cards(games):
    engine = get_engine("wallenstein")
    for seed, turns in games:
        for turn in turns:
            gm_view = engine.view(turn.state, GM)
            for viewer in turn.state["seats"]:
                r = _report(report_input(seed, seed, turn, viewer))
                own = gm_view["seats"][viewer]["hand"]
                listed = _hand_section(r.text)
                if own:
                    assert listed == own, f"{viewer} after {turn.label}"
                html_hand = r.html.split('id="hand"', 1)[1].split("<h2", 1)[0] if 'id="hand"' in r.html else ""
                for seat, data in gm_view["seats"].items():
                    if seat != viewer:
                        assert f"{seat}'s" not in html_hand
                        extra = set(data["hand"]) - set(own)
                        assert not any(f"<li>{c}</li>" in html_hand for c in extra)
                # the pattern above is how the HTML lists a hand: the viewer's own cards match it
                assert all(f"<li>{c}</li>" in html_hand for c in own)
            for viewer in (PUBLIC,):
                text = _report(report_input(seed, seed, turn, viewer)).text
                assert _hand_section(text) is None and "COUNTY CARDS" not in text


def test_gm_sees_every_hand(games):
    seed, turns = games[0]
    turn = turns[0]
    text = _report(report_input(seed, seed, turn, GM)).text
    section = text.split("HIDDEN CARDS (GM ONLY)")[1]
    for seat in turn.state["seats"]:
        assert re.search(rf"^{seat}\s", section, re.M)
