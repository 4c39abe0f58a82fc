"""Reports of real seeded games: every event formatted, 72 columns, determinism across
processes, every viewer renders."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reports.render import render_report
from reports.doc import WIDTH
from reports.wallenstein.content import NEXT_TYPES
from reports.wallenstein.events import FORMATTERS, describe, generic
from reports.wallenstein.render import render_documents
from tests.reports.games import play, report_input, viewers

ROOT = Path(__file__).resolve().parents[2]
GAMES = [("real-3", ("red", "blue", "green"), {}), ("real-5", ("red", "blue", "green", "yellow", "purple"),
                                                     {"setup": "draft"})]


@pytest.fixture(scope="module")
def games():
    return [(seed, play(seed, seats, opts)) for seed, seats, opts in GAMES]


def test_every_event_has_its_own_formatter(games):
    seen = set()
    for _, turns in games:
        for turn in turns:
            for ev in turn.state["log"]:
                if ev["type"] in NEXT_TYPES:  # shown as the next season's cards and tiles instead
                    continue
                seen.add(ev["type"])
                assert ev["type"] in FORMATTERS, f"no formatter for {ev['type']}"
                line = describe(ev)
                assert line != generic(ev), f"{ev['type']} fell back to the generic form: {line}"
    assert {"Bids", "TurnOrder", "ActionRevealed", "Battle", "Scoring", "Winter", "GameOver", "DraftPick"} <= seen


def test_unknown_event_is_still_shown():
    assert describe({"type": "Plague", "county": "Böhmen", "deaths": 3}) == "Plague: county: Böhmen; deaths: 3"


def test_every_viewer_every_turn_fits_72_columns(games):
    for seed, turns in games:
        for turn in turns:
            for viewer in viewers(turn.state):
                text, html = render_documents(report_input(seed, seed, turn, viewer))
                long = [line for line in text.splitlines() if len(line) > WIDTH]
                assert long == [], f"{viewer} after {turn.label}: {long[:3]}"
                assert html.count("<table") == html.count("</table>")


def test_final_report_reveals_the_seed_and_the_winner(games):
    seed, turns = games[0]
    final = turns[-1]
    text, _ = render_documents(report_input("g", seed, final, "@public"))
    assert f"Seed (the game is over; check it against the commitment): {seed}" in text
    assert "The game is over." in text
    earlier, _ = render_documents(report_input("g", seed, turns[-2], "@public"))
    assert seed not in earlier and "Seed (" not in earlier


_DIGEST = """
import hashlib, json, sys
from reports.render import render_report
from tests.reports.games import play, report_input
turn = play("real-3")[2]
r = render_report(report_input("real-3", "real-3", turn, "red"))
parts = {"text": r.text.encode(), "html": r.html.encode(), **r.images}
print(json.dumps({k: hashlib.sha256(v).hexdigest() for k, v in sorted(parts.items())}))
"""


def _digests(r) -> dict[str, str]:
    parts = {"text": r.text.encode(), "html": r.html.encode(), **r.images}
    return {k: hashlib.sha256(v).hexdigest() for k, v in sorted(parts.items())}


def test_same_bytes_in_another_process(games):
    """Byte-identical text, HTML and PNGs from a fresh interpreter with another hash seed."""
    turn = games[0][1][2]
    here = _digests(render_report(report_input("real-3", "real-3", turn, "red")))
    again = _digests(render_report(report_input("real-3", "real-3", turn, "red")))
    assert here == again
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", _DIGEST], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout) == here
