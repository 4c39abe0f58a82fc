"""A heuristic bot: taxes where rich, harvests enough for winter, builds what it can afford,
recruits on the front, attacks weak neighbours, bids sensibly. Always returns legal orders
(it falls back to the random-legal bot if its own plan would not validate).
"""

from __future__ import annotations

from typing import Any

from adjudicator.chance import Stream
from adjudicator.wallenstein.court import enabled as court_on
from adjudicator.wallenstein.courtbot import heuristic_court
from adjudicator.wallenstein.data import MONEY_CARDS, counties, neighbours, rules, setup_value
from adjudicator.wallenstein.draft_orders import validate_draft
from adjudicator.wallenstein.orders import SLOTS, validate_plan
from adjudicator.wallenstein.randbot import random_draft, random_plan
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.state import hand, seat_count


def heuristic_orders(state: dict[str, Any], seat: str, rng: Stream) -> list[dict[str, Any]]:
    """A sensible legal order set for ``seat`` (draft or season plan)."""
    if state["phase"] == "draft":
        orders = _draft(state)
        return orders if not validate_draft(state, seat, orders) else random_draft(state, seat, rng)
    orders = _plan(state, seat, rng)
    return orders if not validate_plan(state, seat, orders) else random_plan(state, seat, rng)


def _value(name: str) -> int:
    c = counties()[name]
    return c["tax"] + c["grain"] + c["spaces"]


def _draft(state: dict[str, Any]) -> list[dict[str, Any]]:
    wishes = sorted(state["counties"], key=lambda n: (-_value(n), n))[:12]
    groups = list(setup_value("army_groups", seat_count(state)))
    orders: list[dict[str, Any]] = [{"kind": "draft", "counties": wishes}, {"kind": "groups", "sizes": groups}]
    if rule("draft_choices"):  # rules version 1.2: the biggest group on the best county; no stale pairs
        orders[0]["groups"] = {wishes[0]: max(groups)}
        orders.append({"kind": "refresh"})
    if rule("draft_asked"):  # one pick at a time: the top card when no wish is face up
        orders[0]["deck"] = True
    return orders


def _threat(state: dict[str, Any], seat: str, name: str) -> int:
    """Enemy armies next to a county."""
    return sum(state["counties"][n]["armies"] for n in neighbours(name, seat_count(state))
               if state["counties"][n]["owner"] not in (None, seat))


def _attacks(state: dict[str, Any], seat: str, free: list[str]) -> list[tuple[str, str]]:
    """(origin, target) pairs with a 2:1 edge or better, best first, distinct origins."""
    options = []
    for origin in free:
        mine = state["counties"][origin]["armies"] - 1
        for target in neighbours(origin, seat_count(state)):
            t = state["counties"][target]
            if t["owner"] == seat:
                continue
            defence = t["armies"] if t["owner"] else 1
            if mine >= 2 * defence + 1 and "church" not in t["buildings"]:
                options.append((mine - 2 * defence + _value(target) // 3, origin, target))
    chosen, used = [], set()
    for _, origin, target in sorted(options, reverse=True):
        if origin not in used and target not in {t for _, t in chosen}:
            chosen.append((origin, target))
            used.add(origin)
    return chosen[:2]


def _bid(state: dict[str, Any], seat: str, cards: list[str]) -> dict[str, Any]:
    if len(cards) + len(MONEY_CARDS) <= SLOTS:
        return {"kind": "bid", "card": "none"}
    taler = state["players"][seat]["taler"]
    if taler >= 12:
        return {"kind": "bid", "card": "taler", "value": min(2, max(MONEY_CARDS))}
    weakest = min(cards, key=lambda n: (_value(n), n))
    return {"kind": "bid", "card": "county", "county": weakest}


def _plan(state: dict[str, Any], seat: str, rng: Stream) -> list[dict[str, Any]]:
    cards = hand(state, seat)
    bid = _bid(state, seat, cards)
    free = [c for c in cards if not (bid["card"] == "county" and bid["county"] == c)]
    plan: dict[str, dict[str, Any]] = {}

    def take(action: str, county: str, **extra: Any) -> None:
        plan[action] = {"kind": "action", "action": action, "county": county, **extra}
        free.remove(county)

    for (origin, target), action in zip(_attacks(state, seat, free), ("attacka", "attackb")):
        take(action, origin, to=target, armies="ALL")
    calm = [c for c in free if state["counties"][c]["markers"] == 0 or state["counties"][c]["armies"] >= 4]
    if calm:
        take("tax", max(calm, key=lambda n: (counties()[n]["tax"], n)))
    calm = [c for c in free if state["counties"][c]["markers"] == 0 or state["counties"][c]["armies"] >= 4]
    if calm and (state["season"] == "autumn" or state["players"][seat]["grain"] < len(cards)):
        take("grain", max(calm, key=lambda n: (counties()[n]["grain"], n)))
    budget = state["players"][seat]["taler"] - (bid.get("value", 0) if bid["card"] == "taler" else 0)
    budget = _build_and_recruit(state, seat, free, budget, take)
    money_left = len(MONEY_CARDS) - (1 if bid["card"] == "taler" else 0)
    for action in rules()["actions"]["order"]:  # fill the action spaces the card rule requires
        if len(plan) >= min(len(free) + len(plan), SLOTS - money_left) or not free:
            break
        if action not in plan and action not in ("attacka", "attackb", "recruit1"):
            take(action, free[0])
    prefs = ["attack"] if "attacka" in plan else []
    prefs += ["tax", "recruit", "grain", "defend", "attack"]
    court = heuristic_court(state, seat, free) if court_on(state) else []
    return [*plan.values(), bid, {"kind": "bonus", "order": list(dict.fromkeys(prefs))}, *court]


def _build_and_recruit(state: dict[str, Any], seat: str, free: list[str], budget: int, take: Any) -> int:
    cost = rules()["actions"]["cost"]
    for building in ("palace", "church", "trade"):
        spots = [c for c in free if building not in state["counties"][c]["buildings"]
                 and len(state["counties"][c]["buildings"]) < counties()[c]["spaces"]]
        if spots and budget - cost[building] >= 3:
            take(building, max(spots, key=lambda n: (counties()[n]["spaces"], n)))
            budget -= cost[building]
    for action in ("recruit5", "recruit3"):
        if free and budget >= cost[action]:
            take(action, max(free, key=lambda n: (_threat(state, seat, n), state["counties"][n]["armies"], n)))
            budget -= cost[action]
    if free and budget >= cost["recruit1"]:
        take("recruit1", max(free, key=lambda n: (_threat(state, seat, n), n)))
        budget -= cost["recruit1"]
    return budget
