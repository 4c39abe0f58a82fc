"""One readable line per derived Wallenstein event (``view["log"]``).

Event shapes are documented in ``docs/wallenstein-events.md``. Every formatter reads
fields with defaults, and an event type without a formatter is still shown (its fields
spelled out), so a new engine event never disappears from a report silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reports.wallenstein.court import FORMATTERS as COURT_FORMATTERS

Event = Mapping[str, Any]

ACTION_NAMES = {
    "palace": "build palace", "church": "build church", "trade": "build trading post",
    "grain": "harvest grain", "tax": "collect taxes", "recruit5": "recruit 5 armies",
    "recruit3": "recruit 3 armies", "recruit1": "recruit 1 army and move", "attacka": "manoeuvre A",
    "attackb": "manoeuvre B",
}
BUILDING_NAMES = {"palace": "palace", "church": "church", "trade": "trading post"}
#: Fields never shown in the generic form (bookkeeping, not news).
_QUIET = {"type", "label", "year", "season"}


def action_name(action: str | None) -> str:
    """Readable name of an action card (``None`` = not yet revealed)."""
    if action is None:
        return "(face down)"
    return ACTION_NAMES.get(action, action)


def event_text(card: Any) -> str:
    """The text of an event card given by id (or a view's card dict)."""
    if isinstance(card, Mapping):
        return event_text(card.get("id")) if card.get("id") else str(card.get("text"))
    try:
        from adjudicator.wallenstein.data import events  # static card data, not game state
        text = str(events()[card]["text"])
        if text.startswith("Same as "):  # the second copy of a card refers to the first
            text = str(events()[text[len("Same as "):].rstrip(".")]["text"])
        return text.rstrip(".").replace("Thaler", "Taler")  # the cards' data spell it as printed; reports say Taler
    except (ImportError, KeyError, TypeError):
        return str(card)


def event_list(cards: Any, ordered: bool = False) -> tuple[str, ...]:
    """Event cards as list items, each text once: the game has two copies of several cards,
    so two face-up copies read "(both copies)"; in an ``ordered`` list (a deck, top first)
    the second copy keeps its place and reads "(the other copy)"."""
    texts = [event_text(c) for c in cards or []]
    if ordered:
        return tuple(t + " (the other copy)" if t in texts[:i] else t for i, t in enumerate(texts))
    return tuple(t + " (both copies)" if texts.count(t) > 1 else t for t in dict.fromkeys(texts))


def plain(value: Any) -> str:
    """A JSON value as short prose: lists joined by commas, dicts as ``k v`` pairs."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items()) or "none"
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
        # a fixed order (seats by name, peasants last), not the state's dict order: a report
        # re-rendered from a replayed state must give the same bytes as the one mailed
        parts = [f"{k} {v}" for k, v in sorted(value.items(), key=lambda kv: (kv[0] == "peasants", kv[0])) if v]
        return ", ".join(parts) if parts else "none"
    return plain(value)


def n_of(n: Any, noun: str) -> str:
    """``1 army``, ``3 armies``, ``1 revolt marker``, ``2 revolt markers``."""
    if n == 1:
        return f"1 {noun}"
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{n} {plural}"


def generic(ev: Event) -> str:
    """Any event: its type and every field that is news."""
    fields = "; ".join(f"{k.replace('_', ' ')}: {plain(v)}" for k, v in ev.items() if k not in _QUIET)
    return f"{ev.get('type', 'Event')}: {fields}" if fields else str(ev.get("type", "Event"))


def _bid(bid: Any) -> str:
    if not isinstance(bid, Mapping):
        return plain(bid)
    if bid.get("card") == "taler":
        return f"{bid.get('value')} Taler"
    if bid.get("card") == "county":
        return f"county card {bid.get('county')}"
    if bid.get("card") == "tower":
        return "a cube-tower card (0)"
    return "no bid"


def _bids(ev: Event) -> str:
    bids = ev.get("bids") or {}
    text = "Bids: " + "; ".join(f"{s} {_bid(b)}" for s, b in bids.items()) + "."
    paid = {s: n for s, n in (ev.get("paid") or {}).items() if n}
    if paid:
        text += " Paid: " + ", ".join(f"{s} {n} Taler" for s, n in paid.items()) + "."
    if ev.get("missed"):
        text += f" No orders from {plain(ev['missed'])} (missed-orders policy applied)."
    return text


def _event_drawn(ev: Event) -> str:
    return f"Event of the season: {event_text(ev.get('event'))}."


def _tie(ev: Event) -> str:
    return f"Tie at {ev.get('rank')} between {plain(ev.get('seats'))}, drawn from the bag: {plain(ev.get('order'))}."


def _turn_order(ev: Event) -> str:
    text = f"Turn order: {plain(ev.get('order'))}."
    choices = ev.get("choices") or []
    if choices:
        text += " Bonus tiles taken: " + ", ".join(
            f"{c.get('seat')} {c.get('tile')} (place {c.get('place')})" for c in choices) + "."
    return text


def _revealed(ev: Event) -> str:
    return f"Action {ev.get('step')}: {action_name(ev.get('action'))}"


def _build(ev: Event) -> str:
    text = (f"{ev.get('seat')} builds a {BUILDING_NAMES.get(ev.get('building'), ev.get('building'))} "
            f"in {ev.get('county')} ({ev.get('cost')} Taler).")
    if ev.get("markers_removed"):
        text += f" {ev['markers_removed']} revolt marker(s) removed."
    return text


def _collect(what: str, unit: str, total_key: str) -> Callable[[Event], str]:
    def fmt(ev: Event) -> str:
        text = f"{ev.get('seat')} {what} {ev.get('amount')} {unit} in {ev.get('county')}"
        notes = []
        if ev.get("after_event") != ev.get("base"):
            notes.append(f"card {ev.get('base')}, event makes it {ev.get('after_event')}")
        if ev.get("bonus"):
            notes.append(f"bonus +{ev['bonus']}")
        if notes:
            text += f" ({'; '.join(notes)})"
        return text + f"; now {ev.get(total_key)}."
    return fmt


def _recruit(ev: Event) -> str:
    return f"{ev.get('seat')} recruits {n_of(ev.get('armies'), 'army')} in {ev.get('county')} ({ev.get('cost')} Taler)."


def _move(ev: Event) -> str:
    return f"{ev.get('seat')} moves {n_of(ev.get('armies'), 'army')} from {ev.get('from')} to {ev.get('to')}."


def _skipped(ev: Event) -> str:
    where = f" in {ev['county']}" if ev.get("county") else ""
    return f"{ev.get('seat')}: {action_name(ev.get('action'))}{where} not carried out: {ev.get('reason')}."


def _revolt(ev: Event) -> str:
    return (f"Revolt in {ev.get('county')} ({ev.get('seat')}, cause {ev.get('cause')}): "
            f"{n_of(ev.get('peasants'), 'peasant army')} {'rises' if ev.get('peasants') == 1 else 'rise'} "
            f"({n_of(ev.get('markers'), 'revolt marker')} before).")


def _battle(ev: Event) -> str:
    dfn = ev.get("defender") or "the neutral county"
    src = f" from {ev['from']}" if ev.get("from") else ""
    text = f"Battle for {ev.get('county')}: {ev.get('attacker')}{src} against {dfn}."
    extra = {k: v for k, v in (ev.get("bonus") or {}).items() if v}
    text += f" Thrown in: {cubes(ev.get('thrown'))}"
    if extra:
        text += f" (extra armies: {cubes(extra)})"
    if ev.get("tray_in"):
        text += f", plus from the tray: {cubes(ev['tray_in'])}"
    text += f". Fell out: {cubes(ev.get('out'))}."
    if "attacker_out" in ev or "defender_out" in ev:
        text += (f" Out for the attacker {_count(ev.get('attacker_out'))},"
                 f" for the defender {_count(ev.get('defender_out'))}.")
    return text + " " + _battle_result(ev)


def _count(value: Any) -> str:
    if isinstance(value, Mapping):
        return str(sum(int(v) for v in value.values() if isinstance(v, int)))
    return plain(value)


def _battle_result(ev: Event) -> str:
    result = ev.get("result")
    losses = ev.get("losses") or {}
    lost = f" Losses: attacker {losses.get('attacker', 0)}, defender {losses.get('defender', 0)}." if losses else ""
    if result == "attacker" and ev.get("attacker") == "peasants":
        return f"The peasants win.{lost}"
    if result == "attacker":
        return f"The attacker wins and moves in with {n_of(ev.get('survivors', '?'), 'army')}.{lost}"
    if result == "defender":
        note = " (peasants only)" if ev.get("peasant_only_tie") else ""
        return f"The defender holds{note}.{lost}"
    if result == "tie":
        return f"A tie: the county is devastated.{lost}"
    return f"Result: {plain(result)}.{lost}"


def _conquest(ev: Event) -> str:
    prev = ev.get("from") or "neutral"
    return f"{ev.get('seat')} conquers {ev.get('county')} (was {prev}) with {n_of(ev.get('armies'), 'army')}."


def _devastated(ev: Event) -> str:
    text = f"{ev.get('county')} is devastated and becomes neutral (was {ev.get('owner') or 'neutral'})"
    if ev.get("buildings"):
        text += f"; buildings lost: {plain(ev['buildings'])}"
    return text + "."


def _marker(ev: Event) -> str:
    return f"Revolt marker in {ev.get('county')} ({ev.get('seat')}): now {ev.get('markers')}."


def _winter(ev: Event) -> str:
    return (f"Winter: the last event card ({event_text(ev.get('event'))}) costs every seat "
            f"{ev.get('grain_loss')} grain. Grain left: {plain(ev.get('grain'))}.")


def _famine(ev: Event) -> str:
    return (f"Famine for {ev.get('seat')}: {n_of(ev.get('counties'), 'county')}, {ev.get('grain')} grain, "
            f"shortfall {ev.get('shortfall')} -> {ev.get('revolts')} revolt(s) with "
            f"{ev.get('extra_peasants')} extra peasants each, in {plain(ev.get('drawn'))}.")


def _scoring(ev: Event) -> str:
    return f"Scoring. Victory points now: {plain(ev.get('vp'))}."


def _year_end(ev: Event) -> str:
    return f"End of the year: grain reset, {ev.get('markers_removed', 0)} revolt marker(s) removed."


def _event_cards(ev: Event) -> str:
    return "Event cards for the coming year: " + "; ".join(event_text(c) for c in ev.get("cards") or []) + "."


def _game_over(ev: Event) -> str:
    return (f"Game over. Ranking (VP, then Taler): {plain(ev.get('ranking'))}. "
            f"Winner: {ev.get('winner') or 'none (a tie)'}.")


def _draft_pick(ev: Event) -> str:
    how = "face-up card" if ev.get("source") == "face_up" else "blind from the deck"
    return (f"Pick {ev.get('pick')}: {ev.get('seat')} takes {ev.get('county')} ({how}) and places "
            f"{n_of(ev.get('armies'), 'army')}; face up now: {plain(ev.get('face_up'))}.")


def _draft_refresh(ev: Event) -> str:
    return (f"Pick {ev.get('pick')}: {ev.get('seat')} puts {plain(ev.get('under'))} under the deck (still the two "
            f"face up since the last pick of {ev.get('seat')}) and turns up {plain(ev.get('face_up'))}.")


def _chosen(ev: Event) -> str:
    return str(ev["note"])


def _created_readings(ev: Event) -> str:
    readings = ev.get("readings") or {}
    words = {"palace_event": {"attacks": "the palace event's extra army defends against manoeuvres only",
                              "revolts": "the palace event's extra army defends in revolts too"},
             "bank": {"160": "the bank holds the box's 160 Taler", "unlimited": "the bank is unlimited"}}
    said = [words.get(k, {}).get(str(v), f"{k}={v}") for k, v in readings.items()]
    return f" Readings in force (the GM chooses them): {'; '.join(said)}." if said else ""


def _deal(ev: Event) -> str:
    parts = [f"{seat}: " + ", ".join(f"{p.get('county')} {p.get('armies')}" for p in placed)
             for seat, placed in (ev.get("placements") or {}).items()]
    return "Counties dealt (armies placed): " + "; ".join(parts) + "."


def _tower_fill(ev: Event) -> str:
    return (f"The tower is filled: thrown in {cubes(ev.get('thrown'))}; fell out (back to supply) "
            f"{cubes(ev.get('out'))}; stays inside {cubes(ev.get('tower'))}.")


def _created(ev: Event) -> str:
    return (f"Game created: seats {plain(ev.get('seats'))}, {ev.get('taler')} Taler each, "
            f"setup {ev.get('setup')}; out of play: {plain(ev.get('excluded'))}.{_created_readings(ev)}")


FORMATTERS: dict[str, Callable[[Event], str]] = {
    "Bids": _bids, "EventDrawn": _event_drawn, "TieDraw": _tie, "TurnOrder": _turn_order,
    "ActionRevealed": _revealed, "Build": _build, "Tax": _collect("collects", "Taler", "taler"),
    "Grain": _collect("harvests", "grain", "grain"), "Recruit": _recruit, "Move": _move,
    "Skipped": _skipped, "Revolt": _revolt, "Battle": _battle, "Conquest": _conquest,
    "Devastated": _devastated, "RevoltMarker": _marker, "Winter": _winter, "Famine": _famine,
    "Scoring": _scoring, "YearEnd": _year_end, "EventCards": _event_cards, "GameOver": _game_over,
    "DraftPick": _draft_pick, "DraftRefresh": _draft_refresh, "ChosenForSeat": _chosen, "Deal": _deal, "TowerFill": _tower_fill, "GameCreated": _created,
    "OutOfPieces": lambda ev: str(ev["note"]),  # the box's pieces ran out (rule 1)
    "FamineOrder": lambda ev: f"{ev['seat']} fights the famine revolts in this order: {', '.join(ev['order'])}.",
    **COURT_FORMATTERS,  # the Imperial Court expansion
}


def describe(ev: Event) -> str:
    """One line describing ``ev`` for a report."""
    fmt = FORMATTERS.get(str(ev.get("type")), generic)
    try:
        return fmt(ev)
    except (TypeError, AttributeError, KeyError, ValueError):
        return generic(ev)
