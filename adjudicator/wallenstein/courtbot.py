"""The bots' Imperial Court lines: random-legal (randbot) and sensible (bot).

``free`` is the seat's county cards not yet placed on an action space or the bid; each
function returns the extra order dicts (court spaces, FAVOUR, sometimes a tower card on
an unused action space) that keep the plan legal (:mod:`court_orders`).
"""

from __future__ import annotations

from typing import Any

from adjudicator.chance import Stream
from adjudicator.wallenstein.court_orders import slots, tower_cards
from adjudicator.wallenstein.data import ACTIONS
from adjudicator.wallenstein.releases import rule


def _display(state: dict[str, Any]) -> list[int]:
    return [d["number"] for d in state["court"]["display"]]


def random_court(state: dict[str, Any], seat: str, rng: Stream, free: list[str], towers: int,
                 planned: set[str]) -> list[dict[str, Any]]:
    """Random court spaces (county, tower, money or left out), a random FAVOUR line, maybe ``TAX TOWER``."""
    orders: list[dict[str, Any]] = []
    pool = rng.shuffled(free)
    for slot in slots():
        pick = rng.below(4)
        if pick == 0 and pool:
            orders.append({"kind": "court", "slot": slot, "card": "county", "county": pool.pop()})
        elif pick == 1 and towers < tower_cards():
            towers += 1
            orders.append({"kind": "court", "slot": slot, "card": "tower"})
        elif pick == 2:
            orders.append({"kind": "court", "slot": slot, "card": "money"})
    spare = [a for a in ACTIONS if a not in planned]
    if spare and towers < tower_cards() and rng.below(4) == 0:
        orders.append({"kind": "action", "action": rng.choice(spare), "card": "tower"})
    if rng.below(5):
        shown = _display(state)
        wish: dict[str, Any] = {"kind": "favour", "prefs": rng.shuffled(shown)[: rng.randint(0, len(shown))]}
        own = sorted(n for n, c in state["counties"].items() if c["owner"] == seat)
        if own and wish["prefs"] and rng.below(3) == 0:
            wish["county"] = rng.choice(own)
            if rule("favour_counties") and len(own) > 1 and rng.below(2):  # rules version 1.2: several
                del wish["county"]
                wish["counties"] = rng.shuffled(own)[: rng.randint(2, len(own))]
        orders.append(wish)
    return orders


def heuristic_court(state: dict[str, Any], seat: str, free: list[str]) -> list[dict[str, Any]]:
    """Turn spare armies into courtiers: a big free county on COURT3, the tray's armies on tower cards."""
    court = state["court"]
    orders: list[dict[str, Any]] = []
    supply = court["supply"][seat]
    tray = state["tray"][seat]
    rich = sorted((c for c in free if state["counties"][c]["armies"] >= 6), key=lambda c: -state["counties"][c]["armies"])
    for slot in slots():
        if supply < slot:
            continue
        if tray >= slot:
            orders.append({"kind": "court", "slot": slot, "card": "tower"})
            tray, supply = tray - slot, supply - slot
        elif rich:
            orders.append({"kind": "court", "slot": slot, "card": "county", "county": rich.pop(0)})
            supply -= slot
    best_first = sorted(_display(state), reverse=True)
    wish: dict[str, Any] = {"kind": "favour", "prefs": best_first}
    own = sorted((n for n, c in state["counties"].items() if c["owner"] == seat),
                 key=lambda n: (-state["counties"][n]["armies"], n))
    if best_first and len(own) > 1 and rule("favour_counties"):  # the strongest counties first
        wish["counties"] = own[:3]
    orders.append(wish)
    return orders
