"""What a viewer may see (docs/CONTRACTS.md, "Wallenstein view").

A seat sees its own hand only, and only its own notes of what the engine chose for it
(:mod:`notes`); nobody but the GM sees the face-down action cards, the event deck or the
draft deck. The tower is transparent (rule 1), so its contents are public.
"""

from __future__ import annotations

from typing import Any

from adjudicator.base import GM
from adjudicator.wallenstein import court
from adjudicator.wallenstein.data import counties, events, provisional, setup_value
from adjudicator.wallenstein.notes import visible
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.state import READINGS, bank_left, hand, nonzero, reading, turn_label

SHOWN = 5  # rule 4.1.1: action places 1-5 face up, 6-10 face down while planning


def view(state: dict[str, Any], viewer: str) -> dict[str, Any]:
    """The view of ``state`` for a seat, ``@public`` or ``@gm``."""
    gm = viewer == GM
    over = state["phase"] == "over"
    out: dict[str, Any] = {
        "game": "wallenstein",
        "turn": {"year": state["year"], "season": state["season"], "label": None if over else turn_label(state),
                 "phase": state["phase"]},
        "over": over, "winner": state["winner"], "ranking": state["ranking"],
        "seats": {s: _seat(state, s, gm or viewer == s) for s in state["seats"]},
        "turn_order": list(state["turn_order"]),
        "counties": {n: {"owner": c["owner"], "armies": c["armies"], "buildings": list(c["buildings"]),
                         "revolt_markers": c["markers"], "region": counties()[n]["region"]}
                     for n, c in sorted(state["counties"].items())},
        "actions": _actions(state, gm),
        "events": [_event(e) for e in state["events"]["face_up"]],
        "events_used": list(state["events"]["used"]),
        "bonus": list(state["bonus"]),
        "tower": nonzero(state["tower"]), "tray": nonzero(state["tray"]),
        "peasants_supply": state["peasants"],
        "provisional": provisional() + court.provisional(state),
        "log": [e for e in state["log"] if visible(e, viewer)],
    }
    if rule("bank_limit"):  # rule 1: the box's coins (rules version 1.2 on); None: unlimited
        out["bank"] = bank_left(state)
    if rule("reading_options"):
        out["readings"] = {name: reading(state, name) for name in READINGS}
    if state["draft"] is not None:  # the order words a draft takes (REFRESH and WITH: rules 1.2)
        out["draft"] = {"face_up": list(state["draft"]["face_up"]), "deck_size": len(state["draft"]["deck"]),
                        "groups": list(setup_value("army_groups", len(state["seats"]))),
                        "words": ["DRAFT", "GROUPS", *(["WITH", "REFRESH"] if rule("draft_choices") else []),
                                  *(["DECK"] if rule("draft_asked") else [])]}
        if "pick" in state["draft"]:  # rules 1.2: one pick at a time (the seats' draft lines stay hidden)
            from adjudicator.wallenstein.draft_asked import on_turn

            out["draft"].update(pick=state["draft"]["pick"], on_turn=on_turn(state),
                                left={s: list(g) for s, g in state["draft"]["left"].items()},
                                picks=[list(p) for p in state["draft"]["picks"]])
            out["pending"] = {"seats": [on_turn(state)], "kind": "draft", "turn": turn_label(state),
                              "info": {"pick": state["draft"]["pick"], "face_up": list(state["draft"]["face_up"])}}
        if gm:
            out["draft"]["deck"] = list(state["draft"]["deck"])
    if gm:
        out["event_deck"] = list(state["events"]["deck"])
    if court.enabled(state):  # the Imperial Court expansion
        out["court"] = court.view(state, gm)
    return out


def _seat(state: dict[str, Any], seat: str, own: bool) -> dict[str, Any]:
    p = state["players"][seat]
    return {"taler": p["taler"], "grain": p["grain"], "vp": p["vp"], "supply": p["supply"], "color": p["color"],
            "counties": len(hand(state, seat)), "hand": hand(state, seat) if own else None}


def _actions(state: dict[str, Any], gm: bool) -> list[str | None]:
    if gm or state["phase"] != "plan":
        return list(state["actions"])
    return [a if i < SHOWN else None for i, a in enumerate(state["actions"])]


def _event(card: str) -> dict[str, Any]:
    e = events()[card]
    return {"id": card, "effect": e["effect"], "text": e["text"], "winter_grain_loss": e["winter_grain_loss"]}
