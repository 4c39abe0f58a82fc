"""The Imperial Court expansion (rules 7-9): courtiers, court actions and the Emperor's favour.

Only with the game option ``expansion=court``; without it nothing here runs and the state
has no ``court`` key, so base games keep their hashes. The court's part of the state::

    court: {cards: [favour card defs], provisional, reason, source, origin (the deck in use),
            deck: [numbers, face down, top first], display: [{number, place}],
            supply / antechamber / hall: {seat: courtiers}, taken: {seat: [numbers]},
            removed: [numbers], protect: {seat: [attacka|attackb]} (this season only)}

Docs: docs/wallenstein-court.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.base import GameError
from adjudicator.wallenstein import favour, notes
from adjudicator.wallenstein.data import load
from adjudicator.wallenstein.state import COURT_OPTION as OPTION, Ctx, court_enabled


def figure(key: str) -> Any:
    """A figure of ``data/court.json``."""
    return load("court.json")[key]["value"]


#: True when the game plays with the Imperial Court (defined beside the state's shape, so that
#: the engine's ``pending`` needs no court module)
enabled = court_enabled


def read_options(options: Mapping[str, str]) -> dict[str, str]:
    """The court's options checked: ``expansion`` (court|none) and ``favour_json`` (with court only)."""
    expansion = options.get("expansion", "none")
    if expansion not in (OPTION, "none", ""):
        raise GameError(f"option expansion must be 'court' (or 'none'), not {expansion!r}")
    if "favour_json" in options and expansion != OPTION:
        raise GameError("option favour_json needs expansion=court")
    return {"expansion": OPTION} if expansion == OPTION else {}


def new_court(seats: Sequence[str], favour_json: str | None) -> dict[str, Any]:
    """Rule 8: 7 courtiers per seat in supply, the favour deck (unshuffled until :func:`setup`)."""
    deck = favour.load_deck(favour_json)
    per_seat = figure("courtiers_per_seat")
    origin = "favour_json" if favour_json is not None else "favour_cards.json"
    return {**deck, "origin": origin, "deck": [c["number"] for c in deck["cards"]], "display": [],
            "supply": {s: per_seat for s in seats}, "antechamber": {s: 0 for s in seats},
            "hall": {s: 0 for s in seats}, "taken": {s: [] for s in seats}, "removed": [], "protect": {}}


def card(court: Mapping[str, Any], number: int) -> dict[str, Any]:
    """The definition of favour card ``number`` in the deck in use."""
    return next(c for c in court["cards"] if c["number"] == number)


def setup(ctx: Ctx, out: Mapping[str, int]) -> None:
    """Rule 8: courtiers for the armies that fell out at the tower fill; shuffle the favour deck."""
    court = ctx.state["court"]
    placed = {}
    for seat in ctx.state["seats"]:
        n = min(out.get(seat, 0), court["supply"][seat])
        court["supply"][seat] -= n
        court["antechamber"][seat] += n
        placed[seat] = n
    label = ctx.label("favour")
    court["deck"] = ctx.stream(label).shuffled(sorted(court["deck"]))
    ctx.emit("CourtSetup", label=label, courtiers=placed, antechamber=dict(court["antechamber"]),
             deck_size=len(court["deck"]), provisional=court["provisional"])


def lay_out(ctx: Ctx) -> None:
    """Rule 9.1: the top three favour cards; the highest on the 4-courtier place, the lowest on the 2."""
    court = ctx.state["court"]
    k = figure("favour_cards_per_season")
    drawn, court["deck"] = court["deck"][:k], court["deck"][k:]
    places = figure("favour_places")
    ranked = sorted(drawn, reverse=True)
    spots = places[: len(ranked) - 1] + places[-1:] if ranked else []
    court["display"] = [{"number": n, "place": p} for n, p in zip(ranked, spots)]
    ctx.emit("FavourCards", display=list(court["display"]), deck_left=len(court["deck"]))


# --- step 1: revealing the court cards (rules 9.3, 9.4 step 1) ---------------------------


def _court_skip(ctx: Ctx, seat: str, order: Mapping[str, Any], reason: str) -> None:
    ctx.emit("CourtSkipped", seat=seat, slot=order["slot"], card=order["card"], county=order.get("county"),
             reason=reason)


def _exchange(ctx: Ctx, seat: str, order: Mapping[str, Any]) -> None:
    """One court space: a county card or a tower card turns n armies into n courtiers, all or nothing."""
    state, n = ctx.state, order["slot"]
    court = state["court"]
    if court["supply"][seat] < n:
        return _court_skip(ctx, seat, order, f"you have only {court['supply'][seat]} courtiers in supply, {n} needed")
    if order["card"] == "county":
        c = state["counties"].get(order["county"])
        if c is None or c["owner"] != seat:
            return _court_skip(ctx, seat, order, f"{order['county']} is no longer yours")
        if c["armies"] < n + 1:  # rule 9.3: at least 1 army must remain in that province
            return _court_skip(ctx, seat, order, f"{order['county']} has {c['armies']} armies: it cannot give {n} "
                                                 "and keep one")
        c["armies"] -= n
    else:
        if state["tray"][seat] < n:
            return _court_skip(ctx, seat, order, f"only {state['tray'][seat]} of your armies lie in the tray, {n} needed")
        state["tray"][seat] -= n
    state["players"][seat]["supply"] += n
    court["supply"][seat] -= n
    court["antechamber"][seat] += n
    ctx.emit("Courtiers", seat=seat, slot=n, card=order["card"], county=order.get("county"), armies=n,
             courtiers=n, antechamber=court["antechamber"][seat])


def reveal(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Step 1: each seat in turn order reveals its court spaces 3, 2, 1; money cards do nothing."""
    for seat in ctx.state["turn_order"]:
        for slot in figure("court_slots"):
            order = plans[seat]["court"].get(slot)
            if order is not None and order["card"] != "money":
                _exchange(ctx, seat, order)


# --- step 2: the Emperor's favour (rule 9.4 step 2) ------------------------------------


def audience_order(state: Mapping[str, Any]) -> list[str]:
    """Seats with courtiers waiting, most first; ties in turn order."""
    court = state["court"]
    waiting = [s for s in state["turn_order"] if court["antechamber"][s] > 0]
    return sorted(waiting, key=lambda s: -court["antechamber"][s])


def _choice(court: Mapping[str, Any], seat: str, prefs: Sequence[int]) -> dict[str, Any] | None:
    """The first preferred card on display that the seat's courtiers in the hall can pay for."""
    shown = {d["number"]: d for d in court["display"]}
    return next((shown[n] for n in prefs if n in shown and shown[n]["place"] <= court["hall"][seat]), None)


def audience(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Step 2: audiences until the last card is taken; then courtiers back, cards left removed."""
    court = ctx.state["court"]
    for seat in audience_order(ctx.state):
        if not court["display"]:
            break  # the step ends when the last card is taken; the others get no audience
        court["hall"][seat], court["antechamber"][seat] = court["antechamber"][seat], 0
        wish = plans[seat]["favour"]
        chosen = _choice(court, seat, wish["prefs"])
        if chosen is None:
            ctx.emit("Audience", seat=seat, courtiers=court["hall"][seat], card=None, cost=0,
                     display=[d["number"] for d in court["display"]])
            if not wish.get("given"):
                _none_chosen(ctx, seat)
            continue
        court["display"].remove(chosen)
        court["hall"][seat] -= chosen["place"]
        court["supply"][seat] += chosen["place"]
        court["taken"][seat].append(chosen["number"])
        ctx.emit("Audience", seat=seat, courtiers=court["hall"][seat] + chosen["place"], card=chosen["number"],
                 cost=chosen["place"], display=[d["number"] for d in court["display"]])
        the_card = card(court, chosen["number"])
        done = favour.apply(ctx, seat, the_card, wish.get("counties") or [])
        ctx.emit("Favour", seat=seat, card=chosen["number"], name=the_card["name"], effects=done)
    _close(ctx)


def _none_chosen(ctx: Ctx, seat: str) -> None:
    """The note of a seat without a FAVOUR line whose courtiers could have paid for a card."""
    court = ctx.state["court"]
    could = [d["number"] for d in court["display"] if d["place"] <= court["hall"][seat]]
    if could:
        notes.chosen(ctx, seat, "favour", card=None,
                     note=f"You sent no FAVOUR line: your {court['hall'][seat]} courtiers took no favour card, though "
                          f"they could have paid for {' or '.join(map(str, could))} (taking one is never compulsory, "
                          "rule 9.4: \"de ez nem kötelező\").")


def _close(ctx: Ctx) -> None:
    court = ctx.state["court"]
    returned = {s: n for s, n in court["hall"].items() if n}
    for seat, n in returned.items():
        court["antechamber"][seat] += n
        court["hall"][seat] = 0
    removed = [d["number"] for d in court["display"]]
    court["removed"] += removed
    court["display"] = []
    ctx.emit("CourtEnd", returned=returned, removed=removed, antechamber=dict(court["antechamber"]))


def resolve(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Rule 9.4: the Imperial Court actions, after turn order and before the base actions."""
    reveal(ctx, plans)
    audience(ctx, plans)


def end_season(state: dict[str, Any]) -> None:
    """A favour's protection lasts for the season it was taken in."""
    state["court"]["protect"] = {}


def view(state: Mapping[str, Any], gm: bool) -> dict[str, Any]:
    """The court as every viewer sees it (rule 7: all on the table); the deck order for the GM only."""
    court = state["court"]

    def shown(number: int, **extra: Any) -> dict[str, Any]:
        c = card(court, number)
        return {"number": number, "name": c["name"], "text": favour.card_text(c), "effects": c["effects"], **extra}

    out = {
        "display": [shown(d["number"], place=d["place"], cost=d["place"]) for d in court["display"]],
        "courtiers": {s: {"supply": court["supply"][s], "antechamber": court["antechamber"][s],
                          "hall": court["hall"][s]} for s in state["seats"]},
        "taken": {s: [shown(n) for n in court["taken"][s]] for s in state["seats"]},
        "removed": list(court["removed"]), "deck_size": len(court["deck"]),
        "protect": {s: list(a) for s, a in court["protect"].items()},
        "tower_cards": figure("tower_cards_per_seat"),
        "deck": {"provisional": court["provisional"], "source": court["source"],
                 "cards": [shown(c["number"]) for c in court["cards"]]},
    }
    if gm:
        out["deck_order"] = list(court["deck"])
    return out


def provisional(state: Mapping[str, Any]) -> list[dict[str, str]]:
    """The court's provisional figures in use: the favour deck (unless the GM loaded a printed one)."""
    court = state.get("court")
    if court is None:
        return []
    out = [{"file": "court.json", "figure": k, "reason": v["reason"]}
           for k, v in load("court.json").items() if isinstance(v, dict) and v.get("provisional")]
    if court["provisional"]:
        out.append({"file": court["origin"], "figure": "favour deck", "reason": court["reason"] or "the GM's deck says it is provisional"})
    return out
