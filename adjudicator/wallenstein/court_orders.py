"""Checking the Imperial Court lines of a season plan (rules 9.2-9.4, docs/orders-wallenstein.md).

``COURT3/2/1 <county|TOWER|MONEY>``, ``FAVOUR <numbers> [AT <county>]`` / ``FAVOUR NONE``,
a tower card on the bid space (``BID TOWER``) or on an action space (``TAX TOWER``). Each
problem names its order index; the card counts of the whole plan are :mod:`orders`'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import Problem
from adjudicator.wallenstein.court import enabled, figure
from adjudicator.wallenstein.releases import RELEASES, rule

ONLY = "only with the Imperial Court expansion (option expansion=court)"


def slots() -> tuple[int, ...]:
    """The court spaces, in the order they are revealed: 3, 2, 1."""
    return tuple(figure("court_slots"))


def tower_cards() -> int:
    """Cube-tower cards per seat (rule 8)."""
    return int(figure("tower_cards_per_seat"))


def check_court(state: Mapping[str, Any], seat: str, i: int, o: Mapping[str, Any], seen: dict[int, int]) -> list[Problem]:
    """One ``COURTn`` line: a known space used once, a county card of the seat's, a tower or money card."""
    if not enabled(state):
        return [Problem(i, f"COURT lines are {ONLY}")]
    slot, card = o.get("slot"), o.get("card")
    if slot not in slots() or isinstance(slot, bool):
        return [Problem(i, f"the court spaces are COURT3, COURT2 and COURT1, not {slot!r}", (), "syntax")]
    if slot in seen:
        return [Problem(i, f"COURT{slot} is planned twice (order {seen[slot] + 1} already places a card there)")]
    seen[slot] = i
    if card not in ("county", "tower", "money"):
        return [Problem(i, f"a court space takes a county card, TOWER or MONEY, not {card!r}", (), "syntax")]
    if card != "county":
        return []
    county = o.get("county")
    if not isinstance(county, str) or county not in state["counties"]:
        return [Problem(i, f"{county!r} is not a county on this map", (), "name")]
    if state["counties"][county]["owner"] != seat:
        return [Problem(i, f"{county} is not yours: its card is not in your hand")]
    return []


def check_favour(state: Mapping[str, Any], seat: str, i: int, o: Mapping[str, Any], before: int | None) -> list[Problem]:
    """The ``FAVOUR`` line: once, cards on display, listed once, an optional county of the seat's."""
    if not enabled(state):
        return [Problem(i, f"FAVOUR is {ONLY}")]
    if before is not None:
        return [Problem(i, f"only one FAVOUR line per season (order {before + 1} is one)")]
    prefs = o.get("prefs")
    if not isinstance(prefs, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in prefs):
        return [Problem(i, "FAVOUR lists favour card numbers, best first, or NONE", (), "syntax")]
    shown = [d["number"] for d in state["court"]["display"]]
    problems = []
    off = [n for n in prefs if n not in shown]
    if off:
        on = ", ".join(map(str, shown)) or "none"
        problems.append(Problem(i, f"favour card {', '.join(map(str, off))} is not at court this season (on display: {on})"))
    if len(set(prefs)) != len(prefs):
        problems.append(Problem(i, "a favour card is listed twice"))
    county = o.get("county")
    if "counties" in o:
        return problems + _check_counties(state, seat, i, o)
    if county is not None and not prefs and rule("favour_none_refuses_at"):
        problems.append(Problem(i, "FAVOUR NONE takes no county (AT)"))
    elif county is not None and (not isinstance(county, str) or state["counties"].get(county, {}).get("owner") != seat):
        problems.append(Problem(i, f"FAVOUR ... AT names a county of yours for the card's effect; {county!r} is not yours"))
    return problems


def _check_counties(state: Mapping[str, Any], seat: str, i: int, o: Mapping[str, Any]) -> list[Problem]:
    """``FAVOUR ... AT <county>, <county>, ...`` (rules version 1.2): the counties tried in order."""
    if not rule("favour_counties"):
        return [Problem(i, RELEASES.not_yet("favour_counties", "FAVOUR ... AT with several counties"))]
    names = o["counties"]
    if "county" in o or not isinstance(names, list) or len(names) < 2:
        return [Problem(i, "FAVOUR ... AT lists the counties for the card's effect, best first")]
    if not o.get("prefs"):
        return [Problem(i, "FAVOUR NONE takes no county (AT)")]
    problems = [Problem(i, f"FAVOUR ... AT names counties of yours for the card's effect; {c!r} is not yours")
                for c in names if not isinstance(c, str) or state["counties"].get(c, {}).get("owner") != seat]
    if not problems and len(set(names)) != len(names):
        problems.append(Problem(i, "a county is listed twice after AT"))
    return problems


def check_tower_action(state: Mapping[str, Any], i: int, o: Mapping[str, Any]) -> list[Problem]:
    """``TAX TOWER``: a cube-tower card on a base action space counts as a money card (rule 9.3 note)."""
    if not enabled(state):
        return [Problem(i, f"tower cards are {ONLY}")]
    if "county" in o or "to" in o:
        return [Problem(i, "a tower card on an action space takes no county", (), "syntax")]
    return []


def count_towers(orders: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """At most three cube-tower cards in all: court spaces, action spaces and the bid."""
    used = [i for i, o in enumerate(orders) if o.get("card") == "tower"]
    limit = tower_cards()
    if len(used) <= limit:
        return []
    return [Problem(used[limit], f"you have {limit} cube-tower cards; this is tower card number {limit + 1} "
                                 f"(orders {', '.join(str(i + 1) for i in used)})")]


def read(orders: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The court part of a plan: ``{court: {slot: order}, favour: {prefs, county, counties, given}}``
    (``counties``: every AT county in order, ``county`` the first; ``given``: a FAVOUR line was sent)."""
    court = {o["slot"]: dict(o) for o in orders if o.get("kind") == "court"}
    wish = next((o for o in orders if o.get("kind") == "favour"), None)
    favour: dict[str, Any] = {"prefs": [], "county": None, "counties": [], "given": wish is not None}
    if wish:
        counties = list(wish.get("counties") or ([wish["county"]] if wish.get("county") else []))
        favour.update(prefs=list(wish["prefs"]), county=counties[0] if counties else None, counties=counties)
    return {"court": court, "favour": favour}
