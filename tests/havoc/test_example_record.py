"""The Havoc rulebook's example game (seed 002, 'Példajáték': Anita, Péter, Krisztina, Jenő)
transcribed as a historical record with its stated cards: imported with no seed,
every step checked against the same expectations as the scenario case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.errors import DomainError
from pbem.store.events import fold_steps
from pbem.archives.records import import_record
from pbem.store.db import Store
from tests.havoc.scenario import check

HERE = Path(__file__).parent
RECORD = HERE / "records" / "example_game.txt"
CASE = json.loads((HERE / "cases" / "scenario_example_game.json").read_text(encoding="utf-8"))["cases"][0]


def test_example_game_record_replays_to_the_rulebook_position(tmp_path):
    store = Store(tmp_path / "h.db")
    game = import_record(store, RECORD.read_text(encoding="utf-8"))
    assert game.created["chance"] == "recorded"
    steps = [s for s in CASE["steps"] if "problems" not in s.get("expect", {})]
    assert len(steps) == len(game.turns)
    # fold_steps updates one game in place: check each step as it comes
    for i, (step_game, step) in enumerate(zip(fold_steps(game.game_id, store.events(game.game_id), game.seed),
                                              steps), start=1):
        events = step_game.turns[-1]["events"]
        check(step_game.state, events, step.get("expect", {}), f"record turn {i} ({step['orders']!r})")
    hands = {s: sorted(c for c in h) for s, h in CASE["setup"]["hands"].items()}
    opening = store.events(game.game_id)[0].payload["setup_events"]
    dealt = {e["seat"]: sorted(e["cards"]) for e in opening if e["type"] == "Deal"}
    assert dealt == hands


def test_a_card_dealt_twice_is_refused_with_its_line(tmp_path):
    text = RECORD.read_text(encoding="utf-8")
    n = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("CHANCE deal initial"))
    bad = text.replace("Peter blue05,", "Peter yellow02,", 1)
    with pytest.raises(DomainError, match=rf"^line {n}: deal initial: yellow02 is named twice"):
        import_record(Store(tmp_path / "x.db"), bad)
    bad = text.replace("Peter blue05,", "Peter dog05,", 1)
    with pytest.raises(DomainError, match=rf"^line {n}: deal initial: dog05 is a Dog of War"):
        import_record(Store(tmp_path / "y.db"), bad)
