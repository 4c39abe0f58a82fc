"""The last battles: after Formigny, the deal of two, the Dog exchange and Castillon
(11-8-5-3-1-0), then the end of the game and its tie-breaks (seed 002, "Az utolsó csaták",
"A játék vége")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.base import Order, Problem, State
from adjudicator.havoc.battle import battle_card, points_for
from adjudicator.havoc.cards import JOHN, describe, is_dog, parse_card
from adjudicator.havoc.hands import describe_strength, evaluate
from adjudicator.havoc.state import Ctx, clockwise_from, draw, john_leaves, left_of, resolve_refs, take_from_hand
from adjudicator.havoc.tables import SETUP
from adjudicator.havoc.turn import deal_one


def start_final(ctx: Ctx) -> None:
    """No more turns: the recruits are discarded, the Peacekeeper deals two cards to
    everyone (a new deck from the discard pile if needed), then the Dog exchange."""
    s = ctx.s
    john_leaves(ctx, "the last battles have no turns")
    s["discard"].extend(s["recruits"])
    s["recruits"] = []
    s["phase"] = {"name": "final_deal"}
    keeper = s["peace"]["holder"]
    first = left_of(s, keeper)
    first = left_of(s, first) if first == JOHN else first
    ctx.emit("FinalDeal", peacekeeper=keeper)
    for _ in range(SETUP["final_deal"]["value"]):
        for seat in clockwise_from(s, first):
            while draw(ctx, seat, "final deal") == "gaunt":
                pass  # John of Gaunt drawn now goes to the box; deal the next card instead
    start = keeper if keeper != JOHN else first
    s["phase"] = {"name": "exchange", "queue": clockwise_from(s, start)}


def exchange_limit(state: State, seat: str) -> int:
    """How many Dogs ``seat`` may exchange: at most 2, no more than the deck holds (the
    discard pile is closed now -- seed 002)."""
    dogs = sum(1 for c in state["hands"][seat] if is_dog(c))
    deck = len([c for c in state["deck"] if c != "gaunt"])
    return min(2, dogs, deck)


def validate_exchange(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """EXCHANGE <0-2>: discard that many Dogs and draw as many cards."""
    if len(orders) != 1 or orders[0].get("kind") != "exchange":
        return [Problem(None, "send EXCHANGE <number of Dogs, 0 to 2>")]
    count = orders[0].get("count")
    limit = exchange_limit(state, seat)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= limit:
        return [Problem(0, f"you may exchange 0 to {limit} Dogs of War now")]
    return []


def apply_exchange(ctx: Ctx, seat: str, order: Order) -> None:
    """Discard the Dogs, draw from the deck."""
    s = ctx.s
    s["phase"]["queue"].remove(seat)
    dogs = [c for c in s["hands"][seat] if is_dog(c)][: order["count"]]
    for dog in dogs:
        take_from_hand(s, seat, dog)
        s["discard"].append(dog)
    for _ in dogs:
        while s["deck"] and draw(ctx, seat, "exchange") == "gaunt":
            pass
    ctx.emit("Exchange", seat=seat, count=len(dogs))


def validate_final(state: State, seat: str, orders: Sequence[Order]) -> list[Problem]:
    """FINAL <cards>: 1 to 6 cards from the hand; every Dog laid takes part."""
    if len(orders) != 1 or orders[0].get("kind") != "final":
        return [Problem(None, "send FINAL <up to 6 cards>")]
    refs = orders[0].get("cards")
    if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
        return [Problem(0, "name the cards")]
    if len(refs) > SETUP["max_battle_cards"]["value"]:
        return [Problem(0, "at most 6 cards, Dogs included, at Castillon (seed 002)")]
    if not refs and state["hands"][seat]:
        return [Problem(0, "lay at least one card")]
    cards, why = resolve_refs(state["hands"][seat], refs)
    return [] if cards is not None else [Problem(0, why, stage="name")]


def apply_final(ctx: Ctx, orders: Mapping[str, Sequence[Order]]) -> None:
    """Castillon: compare; equal combinations: fewer cards left in hand is stronger; still
    equal: the points of their places are added and shared, rounded down (seed 002)."""
    s = ctx.s
    laid: dict[str, list[str]] = {}
    for seat in s["seats"]:
        refs = orders[seat][0]["cards"] if seat in orders else []
        cards, _ = resolve_refs(s["hands"][seat], refs)
        laid[seat] = cards or []
        for card in laid[seat]:
            take_from_hand(s, seat, card)
    key = {p: (evaluate([parse_card(c) for c in laid[p]]), -len(s["hands"][p])) for p in s["seats"]}
    ordered = sorted(s["seats"], key=lambda p: key[p], reverse=True)
    card = battle_card(s, s["battles"][0])
    points = points_for(s, card)
    results, place = [], 1
    groups = _groups(ordered, key)
    for group in groups:
        share = sum(points[i - 1] if i <= len(points) else 0 for i in range(place, place + len(group))) // len(group)
        for p in group:
            s["points"][p] += share
            results.append({"seat": p, "place": place, "points": share, "laid": [describe(c) for c in laid[p]],
                            "combination": describe_strength(key[p][0]), "hand_left": len(s["hands"][p])})
        place += len(group)
    if len(groups[0]) == 1:
        s["won"][groups[0][0]].append(card["id"])
    s["discard"].extend(c for p in s["seats"] for c in laid[p])
    s["battles"].pop(0)
    s["castillon"] = [[p for p in g] for g in groups]
    s["last_battle"] = {"battle": card["id"], "name": card["name"], "initiator": None,
                        "winner": groups[0][0] if len(groups[0]) == 1 else None, "out": [], "results": results}
    ctx.emit("FinalBattle", battle=card["id"], results=results, laid=laid)
    s["winner"] = decide_winner(s)
    s["over"] = True
    s["phase"] = {"name": "over"}
    ctx.emit("GameOver", points=dict(s["points"]), winner=s["winner"])


def _groups(ordered: list[str], key: dict) -> list[list[str]]:
    groups: list[list[str]] = []
    for p in ordered:
        if groups and key[groups[-1][0]] == key[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def decide_winner(state: State) -> str | None:
    """Most points; then more battle cards; then the better place at Castillon (seed 002).
    None when seats are still equal (a shared Castillon place)."""
    place = {p: i for i, g in enumerate(state["castillon"] or []) for p in g}
    key = {p: (state["points"][p], len(state["won"][p]), -place.get(p, 99)) for p in state["seats"]}
    best = max(key.values())
    top = [p for p in state["seats"] if key[p] == best]
    return top[0] if len(top) == 1 else None
