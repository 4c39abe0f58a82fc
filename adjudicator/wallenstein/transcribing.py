"""A transcriber's skeleton record of a Wallenstein game played at a table (``pbem record
template``): what the setup's chance lines say, and the setup shuffles cut to the cards the
game uses. Found through the game's registry entry (``adjudicator/wallenstein/game.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _dealt(state: Mapping[str, Any]) -> dict[str, int]:
    """How many items of the setup's shuffles the game uses (the rest lie unseen)."""
    owned = sum(1 for c in state.get("counties", {}).values() if c.get("owner"))
    return {"setup deal": owned, "setup events": len(state.get("events", {}).get("face_up", []))}


def trimmed(line: str, state: Mapping[str, Any]) -> str:
    """A setup shuffle cut to the cards the game uses: the deal's dealt county cards, the
    event cards turned up (rules 3.3, 3.4; the unnamed rest follow as listed)."""
    words, _, outcome = line.partition(": ")
    keep = _dealt(state).get(words) if "counties" in state else None
    if not keep or not outcome.startswith("order "):
        return line
    return f"{words}: order " + ", ".join(outcome[len("order "):].split(", ")[:keep])


def setup_notes(state: Mapping[str, Any]) -> list[str]:
    """What the setup lines say, for these seats (rules 3.3, 3.4)."""
    if not state.get("counties"):
        return []
    dealt, seats = _dealt(state), state["seats"]
    out = [f"setup events: the {dealt['setup events']} event cards turned up, in the order they were turned"]
    if dealt["setup deal"]:
        rounds = dealt["setup deal"] // len(seats)
        out.append(f"setup deal: the {dealt['setup deal']} county cards as dealt, one to each seat in seating order "
                   f"({', '.join(seats)}), {rounds} rounds; round 1 places the group of 5 armies, then 4, 4, 3, ... "
                   "(the printed order, rule 3.3)")
    out.append("<season> actions: the 10 action cards in the order they were carried out (places 1-5 face up, "
               "6-10 face down; rule 4.1.1); <season> bonus: the 5 bonus tiles on places 1-5 (rule 4.1.2)")
    return out
