"""Views: no seat sees another's hand; only the GM sees face-down action cards and decks."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.base import GM, PUBLIC, canonical_json
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.state import hand
from tests.contract import SEAT_NAMES, play_random_game


def check_views(state: dict[str, Any]) -> None:
    seats = state["seats"]
    for viewer in [*seats, PUBLIC]:
        v = ENGINE.view(state, viewer)
        text = canonical_json(v)
        for seat in seats:
            shown = v["seats"][seat]["hand"]
            assert shown == (hand(state, seat) if seat == viewer else None), (viewer, seat)
        assert "event_deck" not in v
        if state["phase"] == "plan":
            assert v["actions"][5:] == [None] * 5 and None not in v["actions"][:5]
            for ev in v["log"]:  # nothing of the face-down cards of the season being planned
                if ev["type"] == "ActionRevealed":
                    assert (ev["year"], ev["season"]) != (state["year"], state["season"])
        if state["draft"] is not None:
            assert "deck" not in v["draft"]
            for county in state["draft"]["deck"][:3]:
                assert county not in canonical_json(v["draft"])
        assert '"deck"' not in text
    gm = ENGINE.view(state, GM)
    assert None not in gm["actions"]
    assert gm["event_deck"] == state["events"]["deck"]


@pytest.mark.parametrize("setup", ["random", "draft"])
@pytest.mark.parametrize("n", [3, 5])
def test_no_leaks(n: int, setup: str) -> None:
    play_random_game(ENGINE, list(SEAT_NAMES[:n]), {"setup": setup}, f"leak-{n}-{setup}", 50, on_state=check_views)


def test_view_keys() -> None:
    state, _ = ENGINE.create(["a", "b", "c", "d"], {}, "keys")
    v = ENGINE.view(state, "a")
    for key in ("game", "turn", "over", "winner", "seats", "counties", "actions", "events", "bonus", "tower",
                "tray", "provisional", "log"):
        assert key in v
    assert v["turn"] == {"year": 1618, "season": "spring", "label": "1618-spring", "phase": "plan"}
    assert set(v["seats"]["a"]) >= {"taler", "grain", "vp", "supply", "hand", "color"}
    assert set(v["counties"]["Böhmen"]) == {"owner", "armies", "buildings", "revolt_markers", "region"}
    assert len(v["events"]) == 4 and len(v["bonus"]) == 5
    assert any(p["file"] == "tower.json" for p in v["provisional"])
