"""One readable line per derived Wallenstein event (``view["log"]``).

Event shapes are documented in ``docs/wallenstein-events.md``. Every formatter reads
fields with defaults, and an event type without a formatter is still shown (its fields
spelled out), so a new engine event never disappears from a report silently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reports.eventwords import generic, plain  # noqa: F401 - generic: this module's name for it too
from reports.i18n import N_, _, ngettext
from reports.wallenstein.court import FORMATTERS as COURT_FORMATTERS
from reports.wallenstein.enginetext import building_id, engine_text

Event = Mapping[str, Any]

ACTION_NAMES = {
    "palace": N_("build palace"), "church": N_("build church"), "trade": N_("build trading post"),
    "grain": N_("harvest grain"), "tax": N_("collect taxes"), "recruit5": N_("recruit 5 armies"),
    "recruit3": N_("recruit 3 armies"), "recruit1": N_("recruit 1 army and move"), "attacka": N_("manoeuvre A"),
    "attackb": N_("manoeuvre B"),
}
BUILDING_NAMES = {"palace": N_("palace"), "church": N_("church"), "trade": N_("trading post")}


def action_name(action: str | None) -> str:
    """Readable name of an action card (``None`` = not yet revealed)."""
    if action is None:
        return _("(face down)")
    return _(ACTION_NAMES[action]) if action in ACTION_NAMES else action


def building_name(building: Any) -> str:
    """A building's name (``trade`` -> ``trading post``)."""
    return _(BUILDING_NAMES[building]) if building in BUILDING_NAMES else str(building)


def event_text(card: Any) -> str:
    """The text of an event card given by id (or a view's card dict)."""
    if isinstance(card, Mapping):
        return event_text(card.get("id")) if card.get("id") else str(card.get("text"))
    try:
        from adjudicator.wallenstein.data import events  # static card data, not game state
        text = str(events()[card]["text"])
        if text.startswith("Same as "):  # the second copy of a card refers to the first
            text = str(events()[text[len("Same as "):].rstrip(".")]["text"])
        # the card texts are in the catalogue (babel.cfg: the data files), which spell it as printed; reports say Taler
        return _(text).rstrip(".").replace("Thaler", "Taler")
    except (ImportError, KeyError, TypeError):
        return str(card)


def event_list(cards: Any, ordered: bool = False) -> tuple[str, ...]:
    """Event cards as list items, each text once: the game has two copies of several cards,
    so two face-up copies read "(both copies)"; in an ``ordered`` list (a deck, top first)
    the second copy keeps its place and reads "(the other copy)"."""
    texts = [event_text(c) for c in cards or []]
    if ordered:
        return tuple(_("{card} (the other copy)").format(card=t) if t in texts[:i] else t for i, t in enumerate(texts))
    return tuple(_("{card} (both copies)").format(card=t) if texts.count(t) > 1 else t for t in dict.fromkeys(texts))


def cubes(value: Any) -> str:
    """Cube counts ``{seat: n, "peasants": n}`` as ``red 3, peasants 1`` (zeros dropped)."""
    if isinstance(value, Mapping):
        # a fixed order (seats by name, peasants last), not the state's dict order: a report
        # re-rendered from a replayed state must give the same bytes as the one mailed
        parts = [f"{who(k)} {v}" for k, v in sorted(value.items(), key=lambda kv: (kv[0] == "peasants", kv[0])) if v]
        return ", ".join(parts) if parts else _("none")
    return plain(value)


def who(seat: Any) -> str:
    """A seat by its name; the peasants (the green cubes) in the reader's words."""
    return _("peasants") if seat == "peasants" else str(seat)


#: Counted nouns: ``n_of(3, "army")`` -> ``3 armies``; the catalogue's plural rule chooses the form.
_COUNTED = {
    "army": lambda n: ngettext("{n} army", "{n} armies", n),
    "county": lambda n: ngettext("{n} county", "{n} counties", n),
    "peasant army": lambda n: ngettext("{n} peasant army", "{n} peasant armies", n),
    "revolt marker": lambda n: ngettext("{n} revolt marker", "{n} revolt markers", n),
}


def n_of(n: Any, noun: str) -> str:
    """``1 army``, ``3 armies``, ``1 revolt marker``, ``2 revolt markers`` (nouns of :data:`_COUNTED`)."""
    return _COUNTED[noun](n).format(n=n)


def _bid(bid: Any) -> str:
    if not isinstance(bid, Mapping):
        return plain(bid)
    if bid.get("card") == "taler":
        return _("{n} Taler").format(n=bid.get("value"))
    if bid.get("card") == "county":
        return _("county card {county}").format(county=bid.get("county"))
    if bid.get("card") == "tower":
        return _("a cube-tower card (0)")
    return _("no bid")


def _bids(ev: Event) -> str:
    bids = ev.get("bids") or {}
    text = _("Bids: {bids}.").format(bids="; ".join(f"{s} {_bid(b)}" for s, b in bids.items()))
    paid = {s: n for s, n in (ev.get("paid") or {}).items() if n}
    if paid:
        text += " " + _("Paid: {paid}.").format(paid=", ".join(_("{seat} {n} Taler").format(seat=s, n=n)
                                                               for s, n in paid.items()))
    if ev.get("missed"):
        text += " " + _("No orders from {seats} (missed-orders policy applied).").format(seats=plain(ev["missed"]))
    return text


def _event_drawn(ev: Event) -> str:
    return _("Event of the season: {event}.").format(event=event_text(ev.get("event")))


def _tie(ev: Event) -> str:
    return _("Tie at {rank} between {seats}, drawn from the bag: {order}.").format(
        rank=_bid_rank(ev.get("rank")), seats=plain(ev.get("seats")), order=plain(ev.get("order")))


def _bid_rank(rank: Any) -> str:
    """A bid's rank as the engine names it (``taler 2``, ``county``, ``none``: rule 4.1.5)."""
    text = str(rank)
    if text.startswith("taler ") and text[6:].isdigit():
        return _("taler {n}").format(n=text[6:])
    return {"county": _("county"), "none": _("none")}.get(text, text)


def _turn_order(ev: Event) -> str:
    text = _("Turn order: {order}.").format(order=plain(ev.get("order")))
    choices = ev.get("choices") or []
    if choices:
        text += " " + _("Bonus tiles taken: {tiles}.").format(tiles=", ".join(
            _("{seat} {tile} (place {place})").format(seat=c.get("seat"), tile=bonus_name(c.get("tile")),
                                                      place=c.get("place")) for c in choices))
    return text


#: The bonus tiles (rule 4.1.2), as the order language names them.
BONUS_NAMES = {"attack": N_("attack"), "tax": N_("tax"), "grain": N_("grain"), "recruit": N_("recruit"),
               "defend": N_("defend")}


def bonus_name(tile: Any) -> str:
    """A bonus tile's name in the reader's words."""
    return _(BONUS_NAMES[tile]) if tile in BONUS_NAMES else str(tile)


def _revealed(ev: Event) -> str:
    return _("Action {step}: {action}").format(step=ev.get("step"), action=action_name(ev.get("action")))


def _build(ev: Event) -> str:
    text = _("{seat} builds a {building} in {county} ({cost} Taler).").format(
        seat=ev.get("seat"), building=building_name(ev.get("building")), county=ev.get("county"), cost=ev.get("cost"))
    if ev.get("markers_removed"):
        text += " " + _("{n} revolt marker(s) removed.").format(n=ev["markers_removed"])
    return text


def _collect(kind: str) -> Callable[[Event], str]:
    def fmt(ev: Event) -> str:
        text = (_("{seat} collects {amount} Taler in {county}") if kind == "tax" else
                _("{seat} harvests {amount} grain in {county}")).format(
            seat=ev.get("seat"), amount=ev.get("amount"), county=ev.get("county"))
        notes = []
        if ev.get("after_event") != ev.get("base"):
            notes.append(_("card {base}, event makes it {after}").format(base=ev.get("base"), after=ev.get("after_event")))
        if ev.get("bonus"):
            notes.append(_("bonus +{n}").format(n=ev["bonus"]))
        if notes:
            text += f" ({'; '.join(notes)})"
        return text + _("; now {n}.").format(n=ev.get("taler" if kind == "tax" else "grain"))
    return fmt


def _recruit(ev: Event) -> str:
    return _("{seat} recruits {armies} in {county} ({cost} Taler).").format(
        seat=ev.get("seat"), armies=n_of(ev.get("armies"), "army"), county=ev.get("county"), cost=ev.get("cost"))


def _move(ev: Event) -> str:
    return _("{seat} moves {armies} from {start} to {end}.").format(
        seat=ev.get("seat"), armies=n_of(ev.get("armies"), "army"), start=ev.get("from"), end=ev.get("to"))


def _skipped(ev: Event) -> str:
    values = {"seat": ev.get("seat"), "action": action_name(ev.get("action")), "county": ev.get("county"),
              "reason": engine_text(ev.get("reason"))}
    if ev.get("county"):
        return _("{seat}: {action} in {county} not carried out: {reason}.").format(**values)
    return _("{seat}: {action} not carried out: {reason}.").format(**values)


def _revolt(ev: Event) -> str:
    peasants = ev.get("peasants")
    rise = (ngettext("{peasants} rises", "{peasants} rise", peasants) if isinstance(peasants, int) else
            _("{peasants} rise")).format(peasants=n_of(peasants, "peasant army"))
    return _("Revolt in {county} ({seat}, cause {cause}): {rise} ({markers} before).").format(
        county=ev.get("county"), seat=ev.get("seat"), cause=cause_name(ev.get("cause")), rise=rise,
        markers=n_of(ev.get("markers"), "revolt marker"))


#: Why a revolt broke out (rule 4.1.3 items 4-5; 4.2.2 famine).
CAUSES = {"tax": N_("tax"), "grain": N_("grain"), "famine": N_("famine")}


def cause_name(cause: Any) -> str:
    """The cause of a revolt in the reader's words."""
    return _(CAUSES[cause]) if cause in CAUSES else str(cause)


def _battle(ev: Event) -> str:
    src = ev.get("from")
    values = {"county": ev.get("county"), "attacker": who(ev.get("attacker")), "start": src,
              "defender": who(ev.get("defender")) if ev.get("defender") else _("the neutral county")}
    text = (_("Battle for {county}: {attacker} from {start} against {defender}.") if src else
            _("Battle for {county}: {attacker} against {defender}.")).format(**values)
    extra = {k: v for k, v in (ev.get("bonus") or {}).items() if v}
    text += " " + _("Thrown in: {cubes}").format(cubes=cubes(ev.get("thrown")))
    if extra:
        text += " " + _("(extra armies: {cubes})").format(cubes=cubes(extra))
    if ev.get("tray_in"):
        text += _(", plus from the tray: {cubes}").format(cubes=cubes(ev["tray_in"]))
    text += ". " + _("Fell out: {cubes}.").format(cubes=cubes(ev.get("out")))
    if "attacker_out" in ev or "defender_out" in ev:
        text += " " + _("Out for the attacker {attacker}, for the defender {defender}.").format(
            attacker=_count(ev.get("attacker_out")), defender=_count(ev.get("defender_out")))
    return text + " " + _battle_result(ev)


def _count(value: Any) -> str:
    if isinstance(value, Mapping):
        return str(sum(int(v) for v in value.values() if isinstance(v, int)))
    return plain(value)


def _battle_result(ev: Event) -> str:
    result = ev.get("result")
    losses = ev.get("losses") or {}
    lost = (" " + _("Losses: attacker {attacker}, defender {defender}.").format(
        attacker=losses.get("attacker", 0), defender=losses.get("defender", 0))) if losses else ""
    if result == "attacker" and ev.get("attacker") == "peasants":
        return _("The peasants win.") + lost
    if result == "attacker":
        return _("The attacker wins and moves in with {armies}.").format(
            armies=n_of(ev.get("survivors", "?"), "army")) + lost
    if result == "defender":
        return (_("The defender holds (peasants only).") if ev.get("peasant_only_tie") else
                _("The defender holds.")) + lost
    if result == "tie":
        return _("A tie: the county is devastated.") + lost
    return _("Result: {result}.").format(result=plain(result)) + lost


def _conquest(ev: Event) -> str:
    return _("{seat} conquers {county} (was {previous}) with {armies}.").format(
        seat=ev.get("seat"), county=ev.get("county"), previous=ev.get("from") or _("neutral"),
        armies=n_of(ev.get("armies"), "army"))


def _devastated(ev: Event) -> str:
    text = _("{county} is devastated and becomes neutral (was {owner})").format(
        county=ev.get("county"), owner=ev.get("owner") or _("neutral"))
    if ev.get("buildings"):
        text += _("; buildings lost: {buildings}").format(
            buildings=", ".join(building_id(str(b)) for b in ev["buildings"]) if isinstance(ev["buildings"], list)
            else plain(ev["buildings"]))
    return text + "."


def _marker(ev: Event) -> str:
    return _("Revolt marker in {county} ({seat}): now {n}.").format(
        county=ev.get("county"), seat=ev.get("seat"), n=ev.get("markers"))


def _winter(ev: Event) -> str:
    return _("Winter: the last event card ({event}) costs every seat {n} grain. Grain left: {grain}.").format(
        event=event_text(ev.get("event")), n=ev.get("grain_loss"), grain=plain(ev.get("grain")))


def _famine(ev: Event) -> str:
    return _("Famine for {seat}: {counties}, {grain} grain, shortfall {shortfall} -> {revolts} revolt(s) with "
             "{extra} extra peasants each, in {drawn}.").format(
        seat=ev.get("seat"), counties=n_of(ev.get("counties"), "county"), grain=ev.get("grain"),
        shortfall=ev.get("shortfall"), revolts=ev.get("revolts"), extra=ev.get("extra_peasants"),
        drawn=plain(ev.get("drawn")))


def _scoring(ev: Event) -> str:
    return _("Scoring. Victory points now: {vp}.").format(vp=plain(ev.get("vp")))


def _year_end(ev: Event) -> str:
    return _("End of the year: grain reset, {n} revolt marker(s) removed.").format(n=ev.get("markers_removed", 0))


def _event_cards(ev: Event) -> str:
    return _("Event cards for the coming year: {cards}.").format(
        cards="; ".join(event_text(c) for c in ev.get("cards") or []))


def _game_over(ev: Event) -> str:
    return _("Game over. Ranking (VP, then Taler): {ranking}. Winner: {winner}.").format(
        ranking=plain(ev.get("ranking")), winner=ev.get("winner") or _("none (a tie)"))


def _draft_pick(ev: Event) -> str:
    return (_("Pick {pick}: {seat} takes {county} (face-up card) and places {armies}; face up now: {face_up}.")
            if ev.get("source") == "face_up" else
            _("Pick {pick}: {seat} takes {county} (blind from the deck) and places {armies}; face up now: {face_up}.")
            ).format(pick=ev.get("pick"), seat=ev.get("seat"), county=ev.get("county"),
                     armies=n_of(ev.get("armies"), "army"), face_up=plain(ev.get("face_up")))


def _draft_refresh(ev: Event) -> str:
    return _("Pick {pick}: {seat} puts {under} under the deck (still the two face up since the last pick of "
             "{seat}) and turns up {face_up}.").format(pick=ev.get("pick"), seat=ev.get("seat"),
                                                      under=plain(ev.get("under")), face_up=plain(ev.get("face_up")))


def _chosen(ev: Event) -> str:
    return engine_text(str(ev["note"]))


def _created_readings(ev: Event) -> str:
    readings = ev.get("readings") or {}
    words = {"palace_event": {"attacks": N_("the palace event's extra army defends against manoeuvres only"),
                              "revolts": N_("the palace event's extra army defends in revolts too")},
             "bank": {"160": N_("the bank holds the box's 160 Taler"), "unlimited": N_("the bank is unlimited")}}
    said = [_(words[k][str(v)]) if str(v) in words.get(k, {}) else f"{k}={v}" for k, v in readings.items()]
    return (" " + _("Readings in force (the GM chooses them): {readings}.").format(readings="; ".join(said))
            if said else "")


def _deal(ev: Event) -> str:
    parts = [f"{seat}: " + ", ".join(f"{p.get('county')} {p.get('armies')}" for p in placed)
             for seat, placed in (ev.get("placements") or {}).items()]
    return _("Counties dealt (armies placed): {placements}.").format(placements="; ".join(parts))


def _tower_fill(ev: Event) -> str:
    return _("The tower is filled: thrown in {thrown}; fell out (back to supply) {out}; stays inside {tower}.").format(
        thrown=cubes(ev.get("thrown")), out=cubes(ev.get("out")), tower=cubes(ev.get("tower")))


def _created(ev: Event) -> str:
    return _("Game created: seats {seats}, {taler} Taler each, setup {setup}; out of play: {excluded}.").format(
        seats=plain(ev.get("seats")), taler=ev.get("taler"), setup=ev.get("setup"),
        excluded=plain(ev.get("excluded"))) + _created_readings(ev)


def _famine_order(ev: Event) -> str:
    return _("{seat} fights the famine revolts in this order: {order}.").format(seat=ev["seat"], order=", ".join(ev["order"]))


FORMATTERS: dict[str, Callable[[Event], str]] = {
    "Bids": _bids, "EventDrawn": _event_drawn, "TieDraw": _tie, "TurnOrder": _turn_order,
    "ActionRevealed": _revealed, "Build": _build, "Tax": _collect("tax"),
    "Grain": _collect("grain"), "Recruit": _recruit, "Move": _move,
    "Skipped": _skipped, "Revolt": _revolt, "Battle": _battle, "Conquest": _conquest,
    "Devastated": _devastated, "RevoltMarker": _marker, "Winter": _winter, "Famine": _famine,
    "Scoring": _scoring, "YearEnd": _year_end, "EventCards": _event_cards, "GameOver": _game_over,
    "DraftPick": _draft_pick, "DraftRefresh": _draft_refresh, "ChosenForSeat": _chosen, "Deal": _deal, "TowerFill": _tower_fill, "GameCreated": _created,
    "OutOfPieces": lambda ev: engine_text(str(ev["note"])),  # the box's pieces ran out (rule 1)
    "FamineOrder": _famine_order,
    **COURT_FORMATTERS,  # the Imperial Court expansion
}


def describe(ev: Event) -> str:
    """One line describing ``ev`` for a report."""
    fmt = FORMATTERS.get(str(ev.get("type")), generic)
    try:
        return fmt(ev)
    except (TypeError, AttributeError, KeyError, ValueError):
        return generic(ev)
