"""Setup (rule 3): money, groups, counties in play, the tower fill, the draft, turn labels."""

from __future__ import annotations

import pytest

from adjudicator.base import GameError
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.state import hand

MONEY = {3: 18, 4: 15, 5: 12}
GROUPS = {3: [5, 4, 4, 3, 3, 2, 2, 2, 2], 4: [5, 4, 4, 3, 3, 2, 2, 2], 5: [5, 4, 4, 3, 3, 2, 2]}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_setup(n: int) -> None:
    seats = [f"s{i}" for i in range(n)]
    state, events = ENGINE.create(seats, {"setup": "random"}, "setup")
    assert len(state["counties"]) == (37 if n == 3 else 45)
    assert ("Tirol" in state["counties"]) == (n > 3)
    fill = next(e for e in events if e["type"] == "TowerFill")
    assert fill["thrown"] == {**{s: 7 for s in seats}, "peasants": 10}
    assert sum(state["tower"].values()) == sum(fill["tower"].values())
    for s in seats:
        p = state["players"][s]
        assert p["taler"] == MONEY[n] and p["grain"] == 0 and p["vp"] == 0
        armies = sorted((state["counties"][c]["armies"] for c in hand(state, s)), reverse=True)
        assert armies == GROUPS[n]
    assert len(state["events"]["face_up"]) == 4 and len(state["events"]["deck"]) == 8
    assert ENGINE.pending(state).turn == "1618-spring"
    assert ENGINE.pending(state).kind == "plan"


def test_draft_picks_follow_wishes_and_groups() -> None:
    seats = ["a", "b", "c"]
    state, _ = ENGINE.create(seats, {"setup": "draft"}, "draft-1")
    pending = ENGINE.pending(state)
    assert (pending.turn, pending.kind, pending.seats) == ("setup", "draft", tuple(seats))
    first = state["draft"]["face_up"][0]
    orders = {"a": [{"kind": "draft", "counties": [first]}, {"kind": "groups", "sizes": [2, 2, 2, 2, 3, 3, 4, 4, 5]}],
              "b": ENGINE.default_orders(state, "b"), "c": [{"kind": "draft", "counties": ["Böhmen"]}]}
    new, events = ENGINE.advance(state, orders, "draft-1")
    picks = [e for e in events if e["type"] == "DraftPick"]
    assert len(picks) == 27
    assert picks[0] == {**picks[0], "seat": "a", "county": first, "source": "face_up", "armies": 2}
    assert [p["seat"] for p in picks[:6]] == ["a", "b", "c", "a", "b", "c"]
    assert picks[1]["source"] == "blind" and picks[1]["armies"] == 5  # missed: blind, printed order
    assert new["counties"][first]["owner"] == "a"
    assert ENGINE.pending(new).turn == "1618-spring"


def test_labels_and_end() -> None:
    state, _ = ENGINE.create(["a", "b", "c"], {}, "labels")
    labels = []
    while (p := ENGINE.pending(state)) is not None:
        labels.append(p.turn)
        state, events = ENGINE.advance(state, {s: ENGINE.default_orders(state, s) for s in p.seats}, "labels")
    assert labels == ["1618-spring", "1618-summer", "1618-autumn", "1619-spring", "1619-summer", "1619-autumn"]
    assert events[-1]["type"] == "GameOver"
    assert ENGINE.winner(state) in (None, "a", "b", "c")


def test_bad_options() -> None:
    with pytest.raises(GameError):
        ENGINE.create(["a", "b"], {}, "x")
    with pytest.raises(GameError):
        ENGINE.create(["a", "b", "c"], {"setup": "beginner"}, "x")


def test_data_files_hashed() -> None:
    files = ENGINE.data_files()
    assert {"counties.json", "events.json", "famine.json", "tower.json", "setup.json"} <= set(files)
    assert all(len(h) == 64 for h in files.values())
