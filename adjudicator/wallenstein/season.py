"""One season's resolution (rule 4.1): bids, the current event, turn order, the ten actions.

Winter follows autumn inside the same advance (:mod:`winter`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.wallenstein import actions, court, winter
from adjudicator.wallenstein.data import events, setup_value
from adjudicator.wallenstein.notes import chosen
from adjudicator.wallenstein.setup import start_season, start_year
from adjudicator.wallenstein.state import SEASONS, Ctx


def bid_rank(bid: Mapping[str, Any]) -> tuple[int, str]:
    """Sort key and name of a bid's rank (rule 4.1.5): Taler 4..1, county card, Taler 0, no card."""
    if bid["card"] == "taler" and bid["value"] > 0:
        return -bid["value"] - 1, f"taler {bid['value']}"
    if bid["card"] == "county":
        return -1, "county"
    if bid["card"] in ("taler", "tower"):  # rule 9.3 note: a tower card on the bid space is a 0
        return 0, "taler 0"
    return 1, "none"


def pay_bids(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Rule 4.1.5: everyone reveals and pays his bid; a county card pays nothing."""
    paid = {}
    for seat in ctx.state["seats"]:
        bid = plans[seat]["bid"]
        paid[seat] = bid["value"] if bid["card"] == "taler" else 0
        ctx.state["players"][seat]["taler"] -= paid[seat]
    bids = {s: {k: v for k, v in plans[s]["bid"].items() if k != "kind"} for s in ctx.state["seats"]}
    ctx.emit("Bids", bids=bids, paid=paid, missed=[s for s in ctx.state["seats"] if plans[s]["missed"]])


def draw_event(ctx: Ctx) -> None:
    """Rule 4.1.4: one of the face-up event cards, at random, is this season's event."""
    ev = ctx.state["events"]
    label = ctx.label("event")
    before = list(ev["face_up"])
    chosen = ctx.stream(label).choice(sorted(before))
    ev["face_up"].remove(chosen)
    ev["current"] = chosen
    ctx.event = events()[chosen]
    ctx.emit("EventDrawn", label=label, event=chosen, remaining=list(ev["face_up"]), **{"from": before})


def bidding_order(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> list[str]:
    """Seats in bidding order; tied seats are drawn from the bag (rule 4.1.5)."""
    ranks: dict[tuple[int, str], list[str]] = {}
    for seat in ctx.state["seats"]:
        ranks.setdefault(bid_rank(plans[seat]["bid"]), []).append(seat)
    label = ctx.label("ties")
    stream = ctx.stream(label)
    order: list[str] = []
    for key in sorted(ranks):
        group = ranks[key]
        if len(group) > 1:
            drawn = stream.shuffled(group)
            ctx.emit("TieDraw", label=label, rank=key[1], seats=list(group), order=drawn)
            group = drawn
        order += group
    return order


def choose_tiles(ctx: Ctx, plans: Mapping[str, dict[str, Any]], order: list[str]) -> None:
    """Each seat in bidding order takes its preferred free tile (default: the lowest free place)."""
    free = list(ctx.state["bonus"])
    choices = []
    for seat in order:
        listed = [t for t in plans[seat]["bonus"] if t in free]
        tile = (listed or free)[0]
        place = ctx.state["bonus"].index(tile) + 1
        free.remove(tile)
        ctx.holders[tile] = seat
        choices.append({"seat": seat, "tile": tile, "place": place})
        if not listed:
            _tile_chosen(ctx, seat, plans[seat], tile, place)
    turn = [c["seat"] for c in sorted(choices, key=lambda c: c["place"])]
    ctx.state["turn_order"] = turn
    ctx.emit("TurnOrder", order=turn, choices=choices)


def _tile_chosen(ctx: Ctx, seat: str, plan: Mapping[str, Any], tile: str, place: int) -> None:
    """The note of a tile the seat's plan did not choose (rule 4.1.5: each takes one)."""
    if plan.get("missed"):
        why = "No orders of yours arrived"
    elif not plan["bonus"]:
        why = "You sent no BONUS line"
    else:
        why = f"None of the tiles of your BONUS line ({', '.join(plan['bonus'])}) was left"
    chosen(ctx, seat, "bonus", tile=tile, place=place,
           note=f"{why}: you took the {tile} tile on place {place}, the lowest place still free "
                "(the earliest turn left; the player with the highest bid takes place 1 in the rulebook's example).")


def missed_notes(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """The note of each seat whose plan did not arrive (the missed-orders policy)."""
    for seat in ctx.state["seats"]:
        if plans[seat].get("missed"):
            chosen(ctx, seat, "plan",
                   note=f"No orders of yours arrived for {ctx.season} {ctx.year}: a money card lay on every "
                        "action space (no action was carried out) and no card on the bid space (the missed-orders "
                        "policy).")


def run_actions(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Rule 4.1.6: the actions in card order, every seat in turn order."""
    label = ctx.label("actions")
    for step, action in enumerate(ctx.state["actions"], start=1):
        ctx.emit("ActionRevealed", label=label, step=step, action=action)
        for seat in ctx.state["turn_order"]:
            order = plans[seat]["actions"].get(action)
            if order is not None:
                actions.perform(ctx, seat, order)


def resolve(ctx: Ctx, plans: Mapping[str, dict[str, Any]]) -> None:
    """Resolve the pending season and move on to the next one (or winter, or the end)."""
    pay_bids(ctx, plans)
    missed_notes(ctx, plans)
    draw_event(ctx)
    choose_tiles(ctx, plans, bidding_order(ctx, plans))
    state = ctx.state
    if court.enabled(state):  # rule 9.4: the court actions come before the base actions
        court.resolve(ctx, plans)
    run_actions(ctx, plans)
    if court.enabled(state):
        court.end_season(state)
    state["events"]["used"].append(state["events"]["current"])
    state["events"]["current"] = None
    ctx.event, ctx.holders = None, {}
    year, season = state["year"], state["season"]
    if season != SEASONS[-1]:
        start_season(ctx, year, SEASONS[SEASONS.index(season) + 1])
        return
    last = year == setup_value("years")[-1]
    winter.resolve(ctx, last, {s: plans[s].get("famine", []) for s in state["seats"]})
    if not last:
        start_year(ctx, year + 1)

