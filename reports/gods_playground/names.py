"""Names and colours shared by the God's Playground map, narrative and tables.

Family colours follow the Okabe-Ito colour-blind-safe palette for blue (#0072B2) and red
(vermillion #D55E00); the white family is drawn white with a black edge so it reads on the
parchment background (seed 004, Components: white, blue and red families).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reports.i18n import N_, _, ngettext

PROVINCES = ("royal_prussia", "lithuania", "ukraine", "little_poland", "greater_poland")
PROVINCE_NAMES = {"royal_prussia": N_("Royal Prussia"), "lithuania": N_("Lithuania"), "ukraine": N_("Ukraine"),
                  "little_poland": N_("Little Poland"), "greater_poland": N_("Greater Poland"), "royal": N_("King")}
ENEMIES = ("black", "russians", "tatars", "turks", "habsburgs")
ENEMY_NAMES = {"black": N_("Swedes"), "russians": N_("Russians"), "tatars": N_("Tatars"), "turks": N_("Turks"),
               "habsburgs": N_("Habsburgs")}
#: The first enemy's name by round and the other names the board data may give (seed 004: "az első
#: fordulóban a német lovagok, a másodikban és a harmadikban a svédek, a negyedikben a poroszok").
OTHER_ENEMY_NAMES = (N_("Teutonic Knights"), N_("Prussians"), N_("Swedes"))
UNIT_NAMES = {"inf": N_("infantry"), "cav": N_("cavalry"), "can": N_("cannon"), "cossack": N_("Cossacks")}
#: The phases of a round in play order (seed 004, the round's 16 phases grouped as the
#: engine resolves them); ``state["phase"]`` names one of these.
PHASES = ("income", "nobles", "reveal", "cubes", "king", "bid", "royal_army", "buy", "action",
          "recruit", "campaign", "invasions", "counter", "end")
PHASE_NAMES = {"estate": N_("starting estates"), "income": N_("income"), "nobles": N_("placing nobles"),
               "reveal": N_("nobles revealed"), "cubes": N_("noble cubes"), "king": N_("electing the king"),
               "bid": N_("bidding for the crown"), "royal_army": N_("royal army and events"),
               "buy": N_("buying estates"), "action": N_("special actions"), "recruit": N_("recruiting"),
               "campaign": N_("campaigns"), "invasions": N_("invasions"), "counter": N_("counterattacks"),
               "end": N_("end of the round"), "over": N_("game over")}
#: Short phase labels for the map's phase track.
PHASE_SHORT = {"income": N_("income"), "nobles": N_("nobles"), "reveal": N_("reveal"), "cubes": N_("cubes"),
               "king": N_("king"), "bid": N_("bids"), "royal_army": N_("army"), "buy": N_("buy"),
               "action": N_("actions"), "recruit": N_("recruit"), "campaign": N_("campaign"),
               "invasions": N_("invade"), "counter": N_("counter"), "end": N_("end")}


def phase_name(key: Any) -> str:
    """A phase of the round in the reader's words (``buy`` -> ``buying estates``)."""
    return _(PHASE_NAMES[str(key)]) if str(key) in PHASE_NAMES else str(key)


def phase_short(key: Any) -> str:
    """A phase's short label on the map's phase track."""
    return _(PHASE_SHORT[str(key)]) if str(key) in PHASE_SHORT else str(key)
FAMILY_COLORS = {"white": "#ffffff", "blue": "#0072B2", "red": "#D55E00"}
#: Used for seats not named after a family (in seat order); Okabe-Ito too.
FALLBACK = ("#ffffff", "#0072B2", "#D55E00", "#009E73", "#CC79A7")


def province(key: Any) -> str:
    """``little_poland`` -> ``Little Poland``."""
    if str(key) in PROVINCE_NAMES:
        return _(PROVINCE_NAMES[str(key)])
    if str(key) == "habsburgs_box":  # where the Turks invade in round 4 (seed 004)
        return _("Habsburgs Box")
    return str(key).replace("_", " ").title()


def enemy(key: Any, view: Mapping[str, Any] | None = None) -> str:
    """An enemy's name (the view's name for this round when given: black is the Swedes...)."""
    if view is not None:
        box = (view.get("enemies") or {}).get(key) or {}
        if box.get("name"):
            return _(str(box["name"]))
    return _(ENEMY_NAMES[str(key)]) if str(key) in ENEMY_NAMES else str(key).title()


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
    return ", ".join(parts) or _("none")


#: A number of troops of each kind (the catalogue's plural rule chooses the form).
_TROOPS = {"inf": lambda n: ngettext("{n} infantry", "{n} infantry", n),
           "cav": lambda n: ngettext("{n} cavalry", "{n} cavalry", n),
           "can": lambda n: ngettext("{n} cannon", "{n} cannon", n),
           "cossack": lambda n: ngettext("{n} Cossack", "{n} Cossacks", n)}


def units(d: Mapping[str, Any]) -> str:
    """``{"inf": 2, "cav": 1, "can": 0}`` -> ``2 infantry, 1 cavalry``; ``no troops``."""
    parts = [_TROOPS[k](d[k]).format(n=d[k]) for k in UNIT_NAMES if d.get(k)]
    return ", ".join(parts) or _("no troops")


def unit_name(key: Any) -> str:
    """A kind of troops (``inf`` -> ``infantry``)."""
    return _(UNIT_NAMES[str(key)]) if str(key) in UNIT_NAMES else str(key)


def dice(rolls: Sequence[Any]) -> str:
    """``[["inf", 3], ["cav", 6]]`` -> ``infantry 3, cavalry 6``."""
    out = []
    for r in rolls:
        if isinstance(r, (list, tuple)) and len(r) == 2:
            out.append(f"{unit_name(r[0])} {r[1]}")
        else:
            out.append(str(r))
    return ", ".join(out) or _("no dice")
