"""Names and colours shared by the God's Playground map, narrative and tables.

Family colours follow the Okabe-Ito colour-blind-safe palette for blue (#0072B2) and red
(vermillion #D55E00); the white family is drawn white with a black edge so it reads on the
parchment background (seed 004, Components: white, blue and red families).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

PROVINCES = ("royal_prussia", "lithuania", "ukraine", "little_poland", "greater_poland")
PROVINCE_NAMES = {"royal_prussia": "Royal Prussia", "lithuania": "Lithuania", "ukraine": "Ukraine",
                  "little_poland": "Little Poland", "greater_poland": "Greater Poland", "royal": "King"}
ENEMIES = ("black", "russians", "tatars", "turks", "habsburgs")
ENEMY_NAMES = {"black": "Swedes", "russians": "Russians", "tatars": "Tatars", "turks": "Turks",
               "habsburgs": "Habsburgs"}
UNIT_NAMES = {"inf": "infantry", "cav": "cavalry", "can": "cannon", "cossack": "Cossacks"}
#: The phases of a round in play order (seed 004, the round's 16 phases grouped as the
#: engine resolves them); ``state["phase"]`` names one of these.
PHASES = ("income", "nobles", "reveal", "cubes", "king", "bid", "royal_army", "buy", "action",
          "recruit", "campaign", "invasions", "counter", "end")
PHASE_NAMES = {"estate": "starting estates", "income": "income", "nobles": "placing nobles",
               "reveal": "nobles revealed", "cubes": "noble cubes", "king": "electing the king",
               "bid": "bidding for the crown", "royal_army": "royal army and events", "buy": "buying estates",
               "action": "special actions", "recruit": "recruiting", "campaign": "campaigns",
               "invasions": "invasions", "counter": "counterattacks", "end": "end of the round",
               "over": "game over"}
#: Short phase labels for the map's phase track.
PHASE_SHORT = {"income": "income", "nobles": "nobles", "reveal": "reveal", "cubes": "cubes",
               "king": "king", "bid": "bids", "royal_army": "army", "buy": "buy", "action": "actions",
               "recruit": "recruit", "campaign": "campaign", "invasions": "invade", "counter": "counter",
               "end": "end"}
FAMILY_COLORS = {"white": "#ffffff", "blue": "#0072B2", "red": "#D55E00"}
#: Used for seats not named after a family (in seat order); Okabe-Ito too.
FALLBACK = ("#ffffff", "#0072B2", "#D55E00", "#009E73", "#CC79A7")


def province(key: Any) -> str:
    """``little_poland`` -> ``Little Poland``."""
    return PROVINCE_NAMES.get(str(key), str(key).replace("_", " ").title())


def enemy(key: Any, view: Mapping[str, Any] | None = None) -> str:
    """An enemy's name (the view's name for this round when given: black is the Swedes...)."""
    if view is not None:
        box = (view.get("enemies") or {}).get(key) or {}
        if box.get("name"):
            return str(box["name"])
    return ENEMY_NAMES.get(str(key), str(key).title())


def family_colors(seats: Sequence[str] | Mapping[str, Any], names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Hex colour per seat: the family colour of the seat's colour (``names``, the game's; else
    the view's ``color`` when ``seats`` is the view's mapping; else the seat's name) when it is
    white, blue or red, the usual shade of another colour, else a fallback."""
    from reports.colors import NAMED

    out = {}
    for i, seat in enumerate(seats):
        given = seats[seat].get("color") if isinstance(seats, Mapping) and isinstance(seats[seat], Mapping) else None
        colour = str((names or {}).get(seat) or given or seat).lower()
        out[seat] = FAMILY_COLORS.get(colour) or NAMED.get(colour) or FALLBACK[i % len(FALLBACK)]
    return out


def counts(d: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """``{"white": 2, "red": 0, "blue": 1}`` -> ``white 2, blue 1`` (zeros left out); ``none``."""
    parts = [f"{(names or {}).get(k, k)} {v}" for k, v in d.items() if v]
    return ", ".join(parts) or "none"


def units(d: Mapping[str, Any]) -> str:
    """``{"inf": 2, "cav": 1, "can": 0}`` -> ``2 infantry, 1 cavalry``; ``no troops``."""
    parts = [f"{d[k]} {'Cossack' if k == 'cossack' and d[k] == 1 else UNIT_NAMES[k]}" for k in UNIT_NAMES if d.get(k)]
    return ", ".join(parts) or "no troops"


def dice(rolls: Sequence[Any]) -> str:
    """``[["inf", 3], ["cav", 6]]`` -> ``infantry 3, cavalry 6``."""
    out = []
    for r in rolls:
        if isinstance(r, (list, tuple)) and len(r) == 2:
            out.append(f"{UNIT_NAMES.get(str(r[0]), r[0])} {r[1]}")
        else:
            out.append(str(r))
    return ", ".join(out) or "no dice"
