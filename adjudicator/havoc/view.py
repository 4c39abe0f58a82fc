"""What each viewer may see (docs/orders-havoc.md, "The view").

Hidden: every hand (a seat sees its own; others see sizes), the deck (sizes only), the
discard pile (seed 002: it may be looked at only while Looting; sizes only), standing orders
(the seat's own). The GM sees everything. Past battles are shown by card descriptions
("blue 7"), never by card names, so a card later drawn into a hand is not named in them.
"""

from __future__ import annotations

from typing import Any

from adjudicator.base import GM, PUBLIC, State
from adjudicator.havoc.battle import battle_card
from adjudicator.havoc.cards import describe
from adjudicator.havoc.releases import READINGS
from adjudicator.havoc.flow import pending


def _battle_row(state: State, battle_id: str) -> dict[str, Any]:
    card = battle_card(state, battle_id)
    return {"id": card["id"], "name": card["name"], "number": card["number"], "points": list(card["points"]),
            "deal": dict(card["deal"]), "final": card["final"]}


def view(state: State, viewer: str) -> dict[str, Any]:
    """The view of ``viewer`` (a seat, :data:`PUBLIC` or :data:`GM`)."""
    p = pending(state)
    gm = viewer == GM
    seat = viewer if viewer in state["seats"] else None
    out: dict[str, Any] = {
        "game": "havoc", "viewer": viewer, "seats": list(state["seats"]), "options": dict(state["options"]),
        "turn": p.turn if p else None,
        "pending": None if p is None else {"seats": list(p.seats), "kind": p.kind, "turn": p.turn,
                                           "forms": list(p.forms), "info": dict(p.info)},
        "hand_sizes": {s: len(state["hands"][s]) for s in state["seats"]},
        "recruits": list(state["recruits"]), "recruit_limit": state["limit"],
        "deck_size": len(state["deck"]), "discard_size": len(state["discard"]), "box_size": len(state["box"]),
        "field": {s: list(c) for s, c in state["field"].items()},
        "battle": _current_battle(state),
        "battles": [_battle_row(state, b) for b in state["battles"]],
        "removed": [dict(r) for r in state["removed"]],
        "won": {s: [battle_card(state, b)["name"] for b in w] for s, w in state["won"].items()},
        "points": dict(state["points"]), "peacekeeper": state["peace"]["holder"], "peace": dict(state["peace"]),
        "john": {k: state["john"][k] for k in ("where", "left_of", "points", "won")},
        "last_battle": state["last_battle"], "castillon": state["castillon"],
        "over": state["over"], "winner": state["winner"], "provisional": list(state["provisional"]),
    }
    if gm:
        out["hands"] = {s: list(h) for s, h in state["hands"].items()}
        out["deck"] = list(state["deck"])
        out["discard"] = list(state["discard"])
        out["standing"] = {s: list(o) for s, o in state["standing"].items()}
    elif seat is not None:
        out["hands"] = {seat: list(state["hands"][seat])}
        out["standing"] = {seat: list(state["standing"][seat])}
        if state["phase"]["name"] == "loot" and state["phase"]["seat"] == seat:
            out["discard"] = list(state["discard"])  # seed 002: looked through only while Looting
    elif viewer != PUBLIC:
        out["viewer"] = PUBLIC
    if any(k in state["options"] for k in READINGS):  # version 3 on: the GM's readings in force
        out["readings"] = {k: state["options"][k] for k in READINGS if k in state["options"]}
    if state["phase"]["name"] == "recruiting":  # version 3: a recruiting under way
        out["recruiting"] = recruiting_view(state["phase"], seat if not gm else state["phase"]["seat"])
    return out


def recruiting_view(phase: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """What a recruiting under way has taken. Its seat sees the cards by name; the others see
    the cards taken from the face-up recruits and looted (shown at the table) by description
    ("green 12", as past battles show them: a card in a hand is never named in another's view)
    and a card drawn from the deck as None."""
    if viewer == phase["seat"]:
        return {"seat": phase["seat"], "took": [dict(t) for t in phase["took"]]}
    took = [{"how": t.get("how"), "from": "recruits" if t.get("from") not in ("deck", "discard") else t.get("from"),
             "card": None if t.get("from") == "deck" or not t.get("card") else describe(t["card"])}
            for t in phase["took"]]
    return {"seat": phase["seat"], "took": took}


def _current_battle(state: State) -> dict[str, Any] | None:
    phase = state["phase"]
    if phase["name"] not in ("battle", "dogs"):
        return None
    out = {"battle": _battle_row(state, phase["battle"]), "initiator": phase["initiator"],
           "round": phase.get("round"), "joined": list(phase["joined"]), "out": list(phase["out"]),
           "passed": list(phase["passed"]), "john_laid": "three 9s" if phase["gaunt"] else None,
           "winner": phase.get("winner")}
    if "declare" in phase:  # version 3: the battle is over, the Dogs out are being declared
        out["dogs_out"] = dict(phase.get("dogs_out", {}))
        out["to_declare"] = list(phase["declare"])
    return out


#: Derived events seen by the whole table as they are (docs/havoc-events.md): cards laid,
#: looted, scavenged or set out face up, and every public step of the game.
PUBLIC_EVENTS = frozenset({
    "BattleOrder", "Setup", "NoCard", "PeaceRotated", "YearOfPeace", "Looting", "LootingLook", "DogsOut",
    "TurnSkipped", "Havoc", "GauntDrawn", "GauntHavoc", "GauntLeaves", "Join", "Add", "StayOut", "Pass",
    "BattleResult", "Scavenging", "Recruits", "Peacekeeper", "NextBattle", "FinalDeal", "Exchange",
    "FinalBattle", "GameOver",
})


def event_view(event: dict[str, Any], viewer: str) -> dict[str, Any] | None:
    """``event`` as ``viewer`` may see it: the GM sees every event; a seat sees the cards that
    went into its own hand; everyone else sees a card drawn from the deck as ``None``, a deal
    as its size, a shuffle without its order and a discard face down. Unknown types: GM only."""
    kind = event.get("type")
    if viewer == GM or kind in PUBLIC_EVENTS:
        return dict(event)
    own = event.get("seat") == viewer
    if kind in ("Draw", "PeaceDiscard"):
        return dict(event) if own else {**event, "card": None}
    if kind == "Deal":
        return dict(event) if own else {**event, "cards": [None] * len(event.get("cards") or [])}
    if kind in ("Recruit", "RecruitAsked"):
        if own:
            return dict(event)
        took = [t if t.get("from") != "deck" else {**t, "card": None} for t in event.get("took") or []]
        return {**event, "took": took, **({"public": took} if "public" in event else {})}
    if kind in ("Shuffle", "Reshuffle"):
        return {k: v for k, v in event.items() if k != "order"}
    return None


#: Orders whose every part the table sees when they are carried out (docs/orders-havoc.md):
#: the recruits taken and the card laid, the cards of a battle, the Dogs used, the count
#: exchanged, the battle chosen. The card discarded in a Year of Peace goes face down, and a
#: looter's list of wanted cards names cards of the face-down discard pile.
PUBLIC_ORDERS = frozenset({"recruit", "sic", "lay", "havoc", "join", "add", "final", "stay", "pass", "keep",
                           "scavenge", "exchange", "next", "dogs", "dogsout"})


def order_view(orders: list[dict[str, Any]], viewer: str) -> list[dict[str, Any]] | None:
    """Adjudicated ``orders`` as ``viewer`` may see them: the GM all; the others each order
    as the table saw it carried out (a discard without its card, a loot without its list);
    an order sent in advance or of an unknown kind hides the whole set (``None``)."""
    if viewer == GM:
        return [dict(o) for o in orders]
    out = []
    for order in orders:
        kind = order.get("kind") if isinstance(order, dict) else None
        if kind == "discard":
            out.append({**order, "card": None})
        elif kind == "loot":
            out.append({k: v for k, v in order.items() if k != "prefs"})
        elif kind in PUBLIC_ORDERS:
            out.append(dict(order))
        else:
            return None
    return out
