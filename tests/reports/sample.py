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
        "bonus": ["attack", "tax", "grain", "recruit", "defend"],
        "tower": {"red": 3, "blue": 2, "green": 4, "peasants": 5}, "tray": {"red": 1, "peasants": 2},
        "provisional": [{"file": "rules.json", "figure": "revolt_markers", "reason": "revolt markers unlimited"}],
        "log": [
            {"type": "Bids", "season": "autumn", "bids": {"red": {"card": "taler", "value": 3},
             "blue": {"card": "county", "county": "Anhalt"}, "green": {"card": "none"}},
             "paid": {"red": 3, "blue": 0, "green": 0}, "missed": []},
            {"type": "EventDrawn", "season": "autumn", "label": "wallenstein/1618/autumn/event",
             "event": "palace_defence_a", "from": ["palace_defence_a", "tax_max_5"], "remaining": ["tax_max_5"]},
            {"type": "TurnOrder", "season": "autumn", "order": ["red", "blue", "green"],
             "choices": [{"seat": "red", "tile": "tax", "place": 2}, {"seat": "blue", "tile": "attack", "place": 1},
                         {"seat": "green", "tile": "defend", "place": 5}]},
            {"type": "ActionRevealed", "season": "autumn", "step": 1, "action": "tax"},
            {"type": "Tax", "season": "autumn", "seat": "red", "county": "Böhmen", "base": 6, "after_event": 6,
             "bonus": 1, "amount": 7, "taler": 17},
            {"type": "ActionRevealed", "season": "autumn", "step": 2, "action": "attacka"},
            {"type": "Battle", "season": "autumn", "label": "wallenstein/1618/autumn/battle/1/tower",
             "cause": "attack", "county": "Hm. Paderborn", "attacker": "green", "defender": None,
             "from": "Gft. Mark", "thrown": {"green": 4, "peasants": 1}, "bonus": {"attack": 0, "defend": 0},
             "tray_in": {"red": 1}, "out": {"green": 3, "peasants": 1, "red": 1}, "attacker_out": 3,
             "defender_out": 1, "result": "attacker", "losses": {"attacker": 1, "defender": 0}, "survivors": 2},
            {"type": "Conquest", "season": "autumn", "seat": "green", "county": "Hm. Paderborn", "from": None,
             "armies": 2},
            {"type": "Winter", "season": "winter", "event": "tax_max_5", "grain_loss": 3,
             "grain": {"red": 2, "blue": 1, "green": 0}},
            {"type": "Famine", "season": "winter", "seat": "red", "counties": 4, "grain": 2, "shortfall": 2,
             "revolts": 1, "extra_peasants": 2, "drawn": ["Lausitz"]},
            {"type": "Revolt", "season": "winter", "seat": "red", "county": "Lausitz", "cause": "famine",
             "markers": 2, "peasants": 4},
            {"type": "Scoring", "season": "winter", "vp": {"red": 12, "blue": 15, "green": 18},
             "detail": {"red": {"counties": 4, "buildings": 2, "total": 9, "majorities": [
                 {"region": "Österreich", "building": "palace", "points": 3, "tied": False}]},
                 "blue": {"counties": 4, "buildings": 1, "total": 5, "majorities": [
                     {"region": "Sachsen", "building": "trade", "points": 0, "tied": True}]},
                 "green": {"counties": 5, "buildings": 0, "total": 5, "majorities": []}}},
            {"type": "SeasonStart", "year": 1619, "season": "spring"},
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
