"""Setup (rule 3): money, groups, counties in play, the tower fill, the draft, turn labels."""

from __future__ import annotations

import pytest

from adjudicator.base import GameError
from adjudicator.wallenstein import ENGINE
from adjudicator.wallenstein.releases import RELEASES
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
    """Rules 1.0 and 1.1: the draft is one simultaneous decision of every seat's wish list."""
    with RELEASES.pinned(RELEASES.get("1.1")):
        _simultaneous_draft()
        assert not ENGINE.is_standing([{"kind": "draft", "counties": ["Böhmen"]}])


def _simultaneous_draft() -> None:
    seats = ["a", "b", "c"]
    state, _ = ENGINE.create(seats, {"setup": "draft"}, "draft-1")
    assert ENGINE.auto_orders(state, "a") is None
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


def test_draft_asks_one_pick_at_a_time() -> None:
    """Rules 1.2 (rule 3.3, 'körbe és körbe'): each pick is pending for one seat; draft lines are
    standing orders used while they make the pick; a seat without them is asked, and at a
    deadline draws the top card of the deck."""
    seats = ["a", "b", "c"]
    state, _ = ENGINE.create(seats, {"setup": "draft"}, "draft-1")
    pending = ENGINE.pending(state)
    assert (pending.turn, pending.kind, pending.seats, pending.simultaneous) == ("setup/pick-1", "draft", ("a",), False)
    assert pending.info["face_up"] == state["draft"]["face_up"]
    lines = [{"kind": "draft", "counties": [], "deck": True}, {"kind": "groups", "sizes": [2, 2, 2, 2, 3, 3, 4, 4, 5]}]
    assert ENGINE.is_standing(lines) and not ENGINE.is_standing([{"kind": "bid", "card": "none"}])
    state = ENGINE.apply_standing(state, "b", lines)
    assert ENGINE.auto_orders(state, "b") is None  # not b's pick
    assert ENGINE.auto_orders(state, "a") is None  # a sent nothing: a is asked
    assert ENGINE.validate(state, "b", lines)[0].message.startswith("the pick awaited now is a's")
    elsewhere = next(c for c in sorted(state["counties"]) if c not in state["draft"]["face_up"])
    assert "none of your wishes is face up" in ENGINE.validate(state, "a", [{"kind": "draft", "counties": [elsewhere]}])[0].message
    labels, picks, notes = [], [], []
    while (p := ENGINE.pending(state)) is not None and p.kind == "draft":
        labels.append(p.turn)
        seat = p.seats[0]
        orders = ENGINE.auto_orders(state, seat) or ENGINE.default_orders(state, seat)
        state, events = ENGINE.advance(state, {seat: orders}, "draft-1")
        picks += [e for e in events if e["type"] == "DraftPick"]
        notes += [e for e in events if e["type"] == "ChosenForSeat" and e["decision"] == "pick"]
    assert labels[:4] == ["setup/pick-1", "setup/pick-2", "setup/pick-3", "setup/pick-4"] and len(picks) == 27
    assert [e["seat"] for e in picks[:6]] == ["a", "b", "c", "a", "b", "c"]
    assert [e["armies"] for e in picks if e["seat"] == "b"] == [2, 2, 2, 2, 3, 3, 4, 4, 5]
    assert all(e["source"] == "blind" for e in picks)
    assert len(notes) == 18 and {e["seat"] for e in notes} == {"a", "c"}  # every pick of a and c at its deadline
    assert ENGINE.pending(state).turn == "1618-spring" and state["draft"] is None


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


def test_a_draft_of_1_1_moved_to_1_2_drafts_pick_by_pick() -> None:
    """``pbem upgrade`` of a 1.1 game still waiting for its draft: the 1.2 release's upgrade
    adds what the draft asked pick by pick keeps, from pick 1."""
    from adjudicator.versions import pin, upgraded_state

    old, _ = pin(ENGINE, "1.1").create(["a", "b", "c"], {"setup": "draft"}, "upgrade-draft")
    new = upgraded_state(pin(ENGINE, "1.1"), "1.2", old)
    pending = ENGINE.pending(new)
    assert (pending.turn, pending.seats) == ("setup/pick-1", ("a",))
    assert new["draft"]["face_up"] == old["draft"]["face_up"] and new["draft"]["left"]["c"] == GROUPS[3]


def test_a_seats_draft_lines_are_seen_by_nobody_else() -> None:
    """Standing draft lines are kept in the state; no other seat's view (nor the public one) shows them."""
    from adjudicator.base import PUBLIC, canonical_json

    state, _ = ENGINE.create(["a", "b", "c"], {"setup": "draft"}, "draft-leak")
    secret = next(c for c in sorted(state["counties"]) if c not in state["draft"]["face_up"])
    kept = ENGINE.apply_standing(state, "b", [{"kind": "draft", "counties": [secret], "groups": {secret: 3}},
                                              {"kind": "refresh"}])
    assert kept["draft"]["standing"]["b"]
    for viewer in ("a", "c", PUBLIC):
        assert canonical_json(ENGINE.view(kept, viewer)) == canonical_json(ENGINE.view(state, viewer)), viewer
