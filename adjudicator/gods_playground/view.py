"""What each viewer may see (docs/scripting.md, "God's Playground keys").

Hidden until revealed: each seat's face-down nobles and its bid in a tied election (the
seat itself and the GM see them); each seat's pre-sent plan (itself and the GM). Every
view lists the provisional board figures in use.
"""

from __future__ import annotations

import hashlib
from typing import Any

from adjudicator.base import GM, State, canonical_json
from adjudicator.gods_playground.board import ENEMIES, PROVINCES, board
from adjudicator.gods_playground.flow import pending, plan_failure
from adjudicator.gods_playground.phases import hit_cubes, strength
from adjudicator.gods_playground.state import cube_supply, disc_supply, provisional


def secret_code(state: State, seat: str) -> str | None:
    """A string only ``seat`` (and the GM) may see while its plan is unused: its pre-sent
    plan's fingerprint (the plan holds its hidden nobles and bids)."""
    plan = state["plans"].get(seat)
    if not plan:
        return None
    return f"{seat}:plan:" + hashlib.sha256(canonical_json(plan).encode("utf-8")).hexdigest()[:16]


def _enemy(state: State, e: str) -> dict[str, Any]:
    b = board(state)
    box = state["box"][e]
    names = b["enemies"][e].get("names_by_round")
    return {"name": names[state["round"] - 1] if names else b["enemies"][e]["name"],
            "strength": strength(state, e) if (e != "habsburgs" or state["round"] == 4) else None,
            "hit_cubes": hit_cubes(state, e), "cubes": box["cubes"], "noble_cubes": dict(box["nobles"]),
            "royal_cubes": box["royal"], "treaty": box["treaty"], "vp": b["enemies"][e]["vp"],
            "province": b["enemies"][e]["province"], "raids": list(b["enemies"][e].get("raids") or []),
            "influence": box["influence"],
            "turks": box["turks"], "cossacks": box["cossacks"]}


def view(state: State, viewer: str) -> dict[str, Any]:
    """The view of ``viewer`` (a seat, ``@public`` or ``@gm``)."""
    p = pending(state)
    gm = viewer == GM
    seat = viewer if viewer in state["seats"] else None
    out: dict[str, Any] = {
        "game": "gods-playground", "viewer": viewer if (gm or seat) else "@public",
        "round": state["round"], "phase": state["phase"], "turn": p.turn if p else None,
        "pending": None if p is None else {"seats": list(p.seats), "kind": p.kind, "turn": p.turn,
                                           "forms": list(p.forms), "info": _info(state, p, viewer, gm)},
        "over": state["over"], "winner": state["winner"], "start_player": state["start"],
        "seats": {x: {"money": state["money"][x], "vp": state["vp"][x], "noble_cubes_supply": cube_supply(state, x),
                      "nobles_in_hand": len(state["hand"][x]), "discs_supply": disc_supply(state, x)}
                  for x in state["seats"]},
        "provinces": {p_: _province(state, p_) for p_ in PROVINCES},
        "enemies": {e: _enemy(state, e) for e in ENEMIES},
        "sejm": dict(state["sejm"]), "royal_army": dict(state["royal"]),
        "cossacks": {"box": state["cossack_box"], "ukraine": state["prov"]["ukraine"]["cossacks"],
                     "tatars": state["box"]["tatars"]["cossacks"]},
        "towns_founded": state["towns_founded"],
        "nobles": _nobles(state, viewer, gm),
        "provisional": provisional(state),
    }
    if "readings" in state:  # rules version 3 on: the GM's choices where the rulebook reads two ways
        out["readings"] = dict(state["readings"])
    if gm:
        out["hands"] = {x: sorted(h) for x, h in state["hand"].items()}
        out["plans"] = {x: list(pl) for x, pl in state["plans"].items()}
        out["bids_pending"] = state["q"].get("seats") if state["phase"] == "bid" else None
    elif seat is not None:
        out["hands"] = {seat: sorted(state["hand"][seat])}
        out["plans"] = {seat: list(state["plans"][seat])}
        code = secret_code(state, seat)
        if code:
            out["my_secret"] = code
    return out


def _info(state: State, p: Any, viewer: str, gm: bool) -> dict[str, Any]:
    """The pending decision's info; a failed pre-sent line's reason only for its own seat
    (the GM sees every seat's)."""
    out = dict(p.info)
    out.pop("plan_failed", None)
    seats = list(p.seats) if gm else [viewer] if viewer in p.seats else []
    failed = {x: why for x in seats if (why := plan_failure(state, x, p.kind))}
    if failed:
        out["plan_failed"] = failed
    return out


def _province(state: State, p: str) -> dict[str, Any]:
    prov = state["prov"][p]
    return {"estate_track": prov["track"], "estates": [dict(e) for e in prov["estates"]],
            "noble_cubes": dict(prov["nobles"]), "enemy_cubes": {e: n for e, n in prov["enemy"].items() if n},
            "influence": prov["influence"], "units": {s: dict(u) for s, u in prov["units"].items()},
            "cossacks": prov["cossacks"]}


def _nobles(state: State, viewer: str, gm: bool) -> dict[str, Any]:
    """Placed nobles: everyone's once revealed; before that only one's own (GM: all)."""
    out = {}
    for x in state["seats"]:
        if state["revealed"] or gm or x == viewer:
            out[x] = dict(state["placed"][x])
        else:
            out[x] = "face down" if state["placed"][x] else None
    return out


#: Derived event types, all seen by the whole table (docs/gods-playground-rules.md): a hidden
#: choice (face-down nobles, bids) enters an event only when it is revealed
#: (``NoblesRevealed``, ``KingBids``); pre-sent plans never do.
PUBLIC_EVENTS = frozenset({
    "Setup", "StartingEstate", "HabsburgInfluence", "Income", "NoblesRevealed", "NobleCubesPlaced", "KingBids", "StartPlayer",
    "RoyalArmy", "Events", "Elections", "CossacksJoinTatars", "TreatyBroken", "InvasionDice", "Invasion",
    "Influence", "FewerCubes", "Passed", "EstateBought", "SpecialAction", "Recruited", "Campaign",
    "Counterattack", "Raid", "InfluenceSpreads", "Estates", "VictoryPoints", "RoundEnded", "GameOver",
})


def event_view(event: dict[str, Any], viewer: str) -> dict[str, Any] | None:
    """``event`` as ``viewer`` may see it: every listed type is public; an unknown type is
    shown to the GM only (a new event must be listed here to reach seats' reports)."""
    return dict(event) if viewer == GM or event.get("type") in PUBLIC_EVENTS else None


def order_view(orders: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]] | None:
    """Adjudicated ``orders`` as ``viewer`` may see them: one line answering the decision is
    seen as the table saw it carried out (its nobles and bids are revealed with it); more
    lines are a plan for decisions still to come, seen by the GM only (``None``)."""
    if viewer == GM or len(orders) == 1:
        return [dict(o) for o in orders]
    return None
