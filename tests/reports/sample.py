"""A hand-built Wallenstein view following docs/CONTRACTS.md ("Wallenstein view").

Used where a test needs a specific situation (a battle, revolt markers, buildings, a
winter) independent of what a random game happens to produce.
"""

from __future__ import annotations

import copy
from typing import Any

from reports.model import ReportInput
from reports.wallenstein.geometry import counties

SEATS = ("red", "blue", "green")


def sample_view(viewer: str = "red") -> dict[str, Any]:
    """A 3-seat view after 1618 autumn (with winter), as ``viewer`` sees it."""
    geo = counties()
    owners = {"Böhmen": "red", "Mähren": "red", "Schlesien": "red", "Lausitz": "red",
              "Kursachsen": "blue", "Anhalt": "blue", "Altmark": "blue", "Mittelmark": "blue",
              "Erzbm. Köln": "green", "Gft. Mark": "green", "Erzbm. Trier": "green", "Lothringen": "green"}
    cs: dict[str, Any] = {}
    for i, (name, g) in enumerate(sorted(geo.items())):
        if not g.used_with_3:
            continue
        owner = owners.get(name)
        cs[name] = {"owner": owner, "armies": (i % 5) + 1 if owner else 0, "region": g.region,
                    "buildings": [], "revolt_markers": 0}
    cs["Böhmen"]["buildings"] = ["palace", "church"]
    cs["Kursachsen"]["buildings"] = ["trade"]
    cs["Lausitz"]["revolt_markers"] = 2
    hands = {"red": ["Vogtland", "Passau"], "blue": ["Wolfenbüttel"], "green": ["Strassburg", "Baden"]}
    seats = {s: {"taler": 10 + i, "grain": 5 - i, "vp": 12 + 3 * i, "supply": 20 - i, "color": s,
                 "hand": hands[s] if viewer in (s, "@gm") else None} for i, s in enumerate(SEATS)}
    return {
        "game": "wallenstein", "turn": {"year": 1619, "season": "spring", "label": "1619-spring"},
        "over": False, "winner": None, "seats": seats, "counties": cs,
        "actions": ["tax", "grain", "recruit5", "attacka", "palace", None, None, None, None, None],
        "events": [{"id": "tax_max5", "text": "Tax collection at most 5"}],
        "bonus": {"1": "attack", "2": "tax", "3": "grain", "4": "recruit", "5": "defend"},
        "tower": {"red": 3, "blue": 2, "green": 4, "peasants": 5}, "tray": {"red": 1, "peasants": 2},
        "provisional": ["revolt markers unlimited"],
        "log": [
            {"type": "ActionCards", "actions": ["tax", "grain", "recruit5", "attacka", "palace", "church",
                                                "trade", "recruit3", "recruit1", "attackb"]},
            {"type": "EventDrawn", "card": "palace_defence", "text": "+1 defender with a palace"},
            {"type": "TurnOrder", "bids": {"red": 3, "blue": 1, "green": 0}, "order": ["red", "blue", "green"]},
            {"type": "Action", "seat": "red", "action": "tax", "county": "Böhmen", "taler": 6},
            {"type": "Battle", "attacker": "green", "defender": None, "from": "Gft. Mark",
             "county": "Hm. Paderborn", "thrown": {"green": 4, "peasants": 1},
             "out": {"green": 3, "peasants": 1, "red": 1}, "result": "green wins", "label": "wallenstein/1618/autumn/battle/1/tower"},
            {"type": "Conquest", "seat": "green", "county": "Hm. Paderborn", "armies": 2},
            {"type": "Winter", "grain_loss": 3},
            {"type": "Revolt", "county": "Lausitz", "seat": "red", "result": "put down"},
            {"type": "Scoring", "scores": {"red": 12, "blue": 15, "green": 18},
             "breakdown": {"red": {"counties": 4, "buildings": 2, "majorities": 6},
                           "blue": {"counties": 4, "buildings": 1, "majorities": 10},
                           "green": {"counties": 5, "buildings": 0, "majorities": 13}}},
        ],
    }


def sample_input(viewer: str = "red", **changes: Any) -> ReportInput:
    """A ReportInput around :func:`sample_view`."""
    inp = ReportInput(
        game_id="sample", game="wallenstein", viewer=viewer, turn="1618-autumn", view=sample_view(viewer),
        history=[{"turn": t, "scores": {"red": 2 + i, "blue": 3 + 2 * i, "green": 1 + 3 * i},
                  "armies": {"red": 27 - i, "blue": 25 + i, "green": 26}}
                 for i, t in enumerate(("1618-spring", "1618-summer", "1618-autumn"))],
        seed_commitment="c" * 64, state_hash="a" * 64, deadline="2026-12-06T18:00:00+01:00",
        order_help="BID n | BID NONE\nBONUS attack tax grain recruit defend\nTAX <county> ...")
    for k, v in changes.items():
        setattr(inp, k, copy.deepcopy(v))
    return inp
