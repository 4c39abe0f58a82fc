"""One readable line per derived Wallenstein event (``view["log"]``).

Event shapes are documented in ``docs/wallenstein-events.md``. Every formatter reads
fields with defaults, and an event type without a formatter is still shown (its fields
spelled out), so a new engine event never disappears from a report silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Event = Mapping[str, Any]

ACTION_NAMES = {
    "palace": "build palace", "church": "build church", "trade": "build trading post",
    "grain": "harvest grain", "tax": "collect taxes", "recruit5": "recruit 5",
    "recruit3": "recruit 3", "recruit1": "recruit 1 + move", "attacka": "manoeuvre A",
    "attackb": "manoeuvre B", "money": "money card",
}
#: Fields never shown in the generic form (bookkeeping, not news).
_QUIET = {"type", "label", "seq", "hash"}


def action_name(action: str | None) -> str:
    """Readable name of an action card (``None`` = not yet revealed)."""
    if action is None:
        return "(face down)"
    return ACTION_NAMES.get(action, action)


def plain(value: Any) -> str:
    """A JSON value as short prose: lists joined by commas, dicts as ``k v`` pairs."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) if value else "none"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def cubes(value: Any) -> str:
    """Cube counts ``{seat: n, "peasants": n}`` as ``red 3, peasants 1`` (zeros dropped)."""
    if isinstance(value, Mapping):
        parts = [f"{k} {v}" for k, v in value.items() if v]
        return ", ".join(parts) if parts else "none"
    return plain(value)


def generic(ev: Event) -> str:
    """Any event: its type and every field that is news."""
    fields = "; ".join(f"{k.replace('_', ' ')}: {plain(v)}" for k, v in ev.items() if k not in _QUIET)
    return f"{ev.get('type', 'Event')}: {fields}" if fields else str(ev.get("type", "Event"))


def _action_cards(ev: Event) -> str:
    cards = ev.get("actions") or ev.get("cards") or []
    return "Action cards this season: " + ", ".join(action_name(a) for a in cards) + "."


def _event_drawn(ev: Event) -> str:
    card = ev.get("text") or ev.get("card") or ev.get("event") or ev.get("id")
    return f"Event of the season: {plain(card)}."


def _turn_order(ev: Event) -> str:
    bids = ev.get("bids")
    order = plain(ev.get("order"))
    if isinstance(bids, Mapping) and bids:
        return f"Bids: {plain(bids)}. Turn order: {order}."
    return f"Turn order: {order}."


def _bonus(ev: Event) -> str:
    taken = ev.get("tiles") or ev.get("taken")
    if isinstance(taken, Mapping):
        return "Bonus tiles taken: " + ", ".join(f"{s} {t}" for s, t in taken.items()) + "."
    return f"{ev.get('seat', '?')} takes the {ev.get('tile', '?')} bonus tile."


def _action(ev: Event) -> str:
    what = action_name(ev.get("action"))
    where = ev.get("county")
    seat = ev.get("seat", "?")
    text = f"{seat}: {what}" + (f" in {where}" if where else "")
    for key, fmt in (("taler", " (+{} Taler)"), ("grain", " (+{} grain)"), ("armies", ", {} armies"),
                     ("to", " to {}"), ("cost", ", cost {} Taler")):
        if ev.get(key) not in (None, "", 0):
            text += fmt.format(plain(ev[key]))
    if ev.get("skipped"):
        text += f" -- not carried out ({plain(ev.get('reason') or ev['skipped'])})"
    return text + "."


def _battle(ev: Event) -> str:
    att, dfn = ev.get("attacker", "?"), ev.get("defender") or "neutral"
    where = ev.get("county") or ev.get("to", "?")
    src = f" from {ev['from']}" if ev.get("from") else ""
    text = f"Battle for {where}: {att}{src} attacks {dfn}."
    if ev.get("thrown") is not None:
        text += f" Thrown in: {cubes(ev['thrown'])}."
    if ev.get("out") is not None:
        text += f" Fell out: {cubes(ev['out'])}."
    if ev.get("result") or ev.get("winner"):
        text += f" Result: {plain(ev.get('result') or ev.get('winner'))}."
    return text


def _conquest(ev: Event) -> str:
    return f"{ev.get('seat', '?')} conquers {ev.get('county', '?')} with {plain(ev.get('armies'))} armies."


def _revolt(ev: Event) -> str:
    text = f"Revolt in {ev.get('county', '?')} ({plain(ev.get('seat') or ev.get('owner'))})"
    if ev.get("result"):
        text += f": {plain(ev['result'])}"
    return text + "."


def _scoring(ev: Event) -> str:
    return "Scoring: " + cubes(ev.get("scores") or ev.get("vp") or {}) + "."


def _game_over(ev: Event) -> str:
    return f"Game over. Winner: {plain(ev.get('winner'))}."


FORMATTERS: dict[str, Callable[[Event], str]] = {
    "ActionCards": _action_cards, "EventDrawn": _event_drawn, "TurnOrder": _turn_order,
    "BonusTaken": _bonus, "Action": _action, "Battle": _battle, "Conquest": _conquest,
    "Revolt": _revolt, "Scoring": _scoring, "GameOver": _game_over,
}


def describe(ev: Event) -> str:
    """One line describing ``ev`` for a report."""
    fmt = FORMATTERS.get(str(ev.get("type")), generic)
    try:
        return fmt(ev)
    except (TypeError, AttributeError, KeyError, ValueError):
        return generic(ev)
