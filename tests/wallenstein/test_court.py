"""The Imperial Court's options, favour-deck files, view and season flow (cases: cases/court*.json)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adjudicator.base import GM, PUBLIC, GameError, canonical_json
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.data import load
from adjudicator.wallenstein.favour import VOCABULARY, parse_deck

SEATS = ["red", "blue", "green"]
GOOD = [{"number": n, "name": f"Card {n}", "effects": [{"do": "taler", "n": n % 5 + 1}]} for n in range(1, 22)]


def _deck(cards: Any) -> str:
    return json.dumps({"cards": cards, "source": "the GM's printed deck"})


BAD_DECKS = [
    ("not json", "{cards", "favour_json is not valid JSON"),
    ("no cards", json.dumps({"deck": []}), "expected an object with a \"cards\" list"),
    ("number out of range", _deck([*GOOD[:20], {"number": 22, "effects": [{"do": "vp", "n": 1}]}]), "\"number\" must be a whole number 1-21"),
    ("number twice", _deck([*GOOD[:20], {"number": 3, "effects": [{"do": "vp", "n": 1}]}]), "card 3: the number 3 is used twice"),
    ("unknown primitive", _deck([*GOOD[:20], {"number": 21, "effects": [{"do": "gold", "n": 1}]}]), "card 21, effect 1: unknown primitive 'gold'"),
    ("bad amount", _deck([*GOOD[:20], {"number": 21, "effects": [{"do": "grain", "n": 0}]}]), "grain needs \"n\": a whole number 1-20, not 0"),
    ("bad building", _deck([*GOOD[:20], {"number": 21, "effects": [{"do": "build", "building": "castle"}]}]), "build needs \"building\""),
    ("bad protect", _deck([*GOOD[:20], {"number": 21, "effects": [{"do": "protect", "actions": ["tax"]}]}]), "protect needs \"actions\""),
    ("extra parameter", _deck([*GOOD[:20], {"number": 21, "effects": [{"do": "vp", "n": 1, "county": "Anhalt"}]}]), "vp takes n, not county"),
    ("no effects", _deck([*GOOD[:20], {"number": 21, "effects": []}]), "\"effects\" must be a non-empty list"),
    ("unknown card field", _deck([*GOOD[:20], {"number": 21, "cost": 4, "effects": [{"do": "vp", "n": 1}]}]), "unknown field(s) cost"),
    ("too few", _deck(GOOD[:2]), "at least 3 are needed"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_DECKS, ids=[b[0] for b in BAD_DECKS])
def test_bad_favour_files_are_refused_clearly(name: str, text: str, message: str) -> None:
    with pytest.raises(GameError) as err:
        ENGINE.create(SEATS, {"expansion": "court", "favour_json": text}, "s")
    assert message in str(err.value)


def test_packaged_deck_is_21_provisional_cards_in_the_vocabulary() -> None:
    doc = load("favour_cards.json")
    deck = parse_deck(doc)
    assert [c["number"] for c in deck["cards"]] == list(range(1, 22))
    assert doc["provisional"] is True and "not in the seed" in doc["reason"]
    used = {e["do"] for c in deck["cards"] for e in c["effects"]}
    assert used == set(VOCABULARY), "every primitive appears in the provisional deck"


def test_gm_deck_is_used_and_not_labelled_provisional() -> None:
    state, _ = ENGINE.create(SEATS, {"expansion": "court", "favour_json": _deck(GOOD)}, "s")
    view = ENGINE.view(state, PUBLIC)
    assert not any(p["figure"] == "favour deck" for p in view["provisional"])
    assert view["court"]["deck"]["source"] == "the GM's printed deck"
    assert all(d["text"] == f"{d['number'] % 5 + 1} Taler" for d in view["court"]["display"])


def test_provisional_deck_is_labelled_in_every_view() -> None:
    state, _ = ENGINE.create(SEATS, {"expansion": "court"}, "s")
    for viewer in [*SEATS, PUBLIC, GM]:
        labels = [p for p in ENGINE.view(state, viewer)["provisional"] if p["figure"] == "favour deck"]
        assert labels and labels[0]["file"] == "favour_cards.json"


def test_options_checked() -> None:
    with pytest.raises(GameError, match="expansion must be 'court'"):
        ENGINE.create(SEATS, {"expansion": "kaiserhof"}, "s")
    with pytest.raises(GameError, match="favour_json needs expansion=court"):
        ENGINE.create(SEATS, {"favour_json": _deck(GOOD)}, "s")


def test_base_game_unchanged_without_the_option() -> None:
    """expansion=none is the base game, state for state (same hashes as no option at all)."""
    a, _ = ENGINE.create(SEATS, {}, "same")
    b, _ = ENGINE.create(SEATS, {"expansion": "none"}, "same")
    assert canonical_json(a) == canonical_json(b)
    assert "court" not in a and "court" not in ENGINE.view(a, GM)
    assert "COURT3" not in ENGINE.pending(a).forms


def test_deck_order_is_for_the_gm_only() -> None:
    state, _ = ENGINE.create(SEATS, {"expansion": "court"}, "s")
    assert ENGINE.view(state, GM)["court"]["deck_order"] == state["court"]["deck"]
    for viewer in [*SEATS, PUBLIC]:
        assert "deck_order" not in ENGINE.view(state, viewer)["court"]


def test_a_season_with_the_court() -> None:
    """Seeded spring: display laid out by number, court events between TurnOrder and the actions."""
    state, events = ENGINE.create(SEATS, {"expansion": "court"}, "season")
    shown = state["court"]["display"]
    assert [d["place"] for d in shown] == [4, 3, 2]
    assert [d["number"] for d in shown] == sorted((d["number"] for d in shown), reverse=True)
    assert "COURT3" in ENGINE.pending(state).forms
    orders = {s: ENGINE.default_orders(state, s) for s in SEATS}
    biggest = max(state["court"]["antechamber"], key=lambda s: (state["court"]["antechamber"][s], s))
    orders[biggest] = [{"kind": "favour", "prefs": [shown[-1]["number"]]}, *[o for o in _plan(state, biggest)]]
    assert not ENGINE.validate(state, biggest, orders[biggest])
    new, evs = ENGINE.advance(state, orders, "season")
    types = [e["type"] for e in evs]
    assert types.index("TurnOrder") < types.index("Audience") < types.index("CourtEnd") < types.index("ActionRevealed")
    assert shown[-1]["number"] in new["court"]["taken"][biggest]
    assert len(new["court"]["display"]) == 3 and new["season"] == "summer"


def _plan(state: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    """A legal base plan: the seat's counties on the first action spaces, a 0 bid by tower card."""
    from adjudicator.wallenstein.data import ACTIONS
    from adjudicator.wallenstein.state import hand

    cards = hand(state, seat)
    return [*({"kind": "action", "action": a, "county": c} for a, c in zip(["tax", "grain", "palace", "church", "trade", "recruit3"], cards)),
            {"kind": "bid", "card": "tower"}] if len(cards) > 5 else [
            *({"kind": "action", "action": a, "county": c} for a, c in zip(ACTIONS, cards)), {"kind": "bid", "card": "none"}]


def test_court_doc_lists_the_provisional_deck_and_the_vocabulary() -> None:
    """docs/wallenstein-court.md stays true to the data: every card row and every primitive."""
    from pathlib import Path

    from adjudicator.wallenstein.favour import card_text

    doc = (Path(__file__).resolve().parents[2] / "docs" / "wallenstein-court.md").read_text("utf-8")
    for c in parse_deck(load("favour_cards.json"))["cards"]:
        assert f"| {c['number']} | {c['name']} | {card_text(c)} |" in doc, c
    for primitive in VOCABULARY:
        assert f"| `{primitive}` |" in doc


def test_a_short_gm_deck_runs_out_gracefully() -> None:
    """A GM deck of 4 cards: the first season shows 3, the second the last one (on the 2 place), then none."""
    from tests.contract import play_random_game

    short = _deck([{"number": n, "effects": [{"do": "grain", "n": 1}]} for n in (2, 5, 9, 17)])
    trace = play_random_game(ENGINE, SEATS, {"expansion": "court", "favour_json": short}, "short", 50)
    layouts = [e["display"] for events in trace["events"] for e in events if e["type"] == "FavourCards"]
    assert [len(d) for d in layouts] == [3, 1, 0, 0, 0, 0]
    assert layouts[1][0]["place"] == 2 and ENGINE.pending(trace["final"]) is None
