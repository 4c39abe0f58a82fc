"""The random-legal bot: varied, plausible, always legal order sets."""

from __future__ import annotations

from typing import Any

from adjudicator.chance import Stream
from adjudicator.wallenstein.court import enabled as court_on
from adjudicator.wallenstein.courtbot import random_court
from adjudicator.wallenstein.data import ACTIONS, BONUS_TILES, MONEY_CARDS, neighbours, setup_value
from adjudicator.wallenstein.orders import SLOTS
from adjudicator.wallenstein.releases import rule
from adjudicator.wallenstein.state import hand, seat_count


def _sample(rng: Stream, items: list[Any], k: int) -> list[Any]:
    return rng.shuffled(items)[:k]


def random_draft(state: dict[str, Any], seat: str, rng: Stream) -> list[dict[str, Any]]:
    """A random wish list (sometimes empty) and group order."""
    wishes = _sample(rng, sorted(state["counties"]), rng.below(12))
    sizes = rng.shuffled(setup_value("army_groups", seat_count(state)))
    orders: list[dict[str, Any]] = [{"kind": "draft", "counties": wishes}, {"kind": "groups", "sizes": sizes}]
    if not rule("draft_choices"):  # the words of rules version 1.2 (earlier versions refuse them)
        return orders
    if wishes and rng.below(2):
        orders[0]["groups"] = {c: rng.choice(sizes) for c in _sample(rng, wishes, rng.randint(1, len(wishes)))}
    if rng.below(3) == 0:
        del orders[1]  # no GROUPS line: the printed order
    if rng.below(2):
        orders.append({"kind": "refresh"})
    if rule("draft_asked") and state["draft"] is not None:  # one pick at a time: the lines must make it
        face = list(state["draft"]["face_up"])
        if face and rng.below(2):
            orders[0]["counties"] = [c for c in wishes if c not in face] + [rng.choice(face)]
            orders[0]["groups"] = {c: n for c, n in (orders[0].get("groups") or {}).items() if c in orders[0]["counties"]}
            if not orders[0]["groups"]:
                del orders[0]["groups"]
        orders[0]["deck"] = True
    return orders


def random_bid(state: dict[str, Any], seat: str, cards: list[str], rng: Stream) -> dict[str, Any]:
    """A legal bid: NONE when every card must go on an action space."""
    if len(cards) + len(MONEY_CARDS) <= SLOTS:
        return {"kind": "bid", "card": "none"}
    if rng.below(4) == 0:
        return {"kind": "bid", "card": "county", "county": rng.choice(cards)}
    if court_on(state) and rng.below(6) == 0:  # rule 9.3 note: a tower card bids 0
        return {"kind": "bid", "card": "tower"}
    top = min(max(MONEY_CARDS), state["players"][seat]["taler"])
    return {"kind": "bid", "card": "taler", "value": rng.randint(0, top)}


def _target(state: dict[str, Any], seat: str, county: str, action: str, rng: Stream) -> dict[str, Any]:
    order: dict[str, Any] = {"kind": "action", "action": action, "county": county}
    near = neighbours(county, seat_count(state))
    if action == "recruit1":
        own = [n for n in near if state["counties"][n]["owner"] == seat]
        if own and rng.below(2):
            order.update(to=rng.choice(own), armies="ALL" if rng.below(2) else rng.randint(1, 3))
        return order
    foreign = [n for n in near if state["counties"][n]["owner"] != seat]
    to = rng.choice(foreign) if foreign and rng.below(3) else rng.choice(near)
    armies = state["counties"][county]["armies"]
    order.update(to=to, armies="ALL" if rng.below(2) else rng.randint(1, max(1, armies - 1)))
    return order


def random_plan(state: dict[str, Any], seat: str, rng: Stream) -> list[dict[str, Any]]:
    """A random legal season plan: every required action space filled, a bid, sometimes BONUS."""
    cards = hand(state, seat)
    bid = random_bid(state, seat, cards, rng)
    pool = [c for c in cards if not (bid["card"] == "county" and bid["county"] == c)]
    money_left = len(MONEY_CARDS) - (1 if bid["card"] in ("taler", "tower") else 0)
    need = min(len(pool), SLOTS - money_left)
    k = rng.randint(need, min(len(pool), SLOTS))
    chosen = _sample(rng, list(ACTIONS), k)
    # armies-rich counties tend to get the manoeuvres
    pool = sorted(rng.shuffled(pool), key=lambda c: -state["counties"][c]["armies"] * rng.randint(1, 3))
    orders = []
    for action, county in zip(sorted(chosen, key=lambda a: a not in ("attacka", "attackb")), pool):
        if action in ("recruit1", "attacka", "attackb"):
            orders.append(_target(state, seat, county, action, rng))
        elif action == "recruit5" and rule("recruit_tile_choice") and rng.below(3) == 0:
            orders.append({"kind": "action", "action": action, "county": county, "tile": bool(rng.below(2))})
        else:
            orders.append({"kind": "action", "action": action, "county": county})
    orders.append(bid)
    if court_on(state):
        placed = {o["county"] for o in orders if o.get("county")}
        free = [c for c in pool if c not in placed]
        orders += random_court(state, seat, rng, free, 1 if bid["card"] == "tower" else 0, set(chosen))
    if rng.below(2):
        orders.append({"kind": "bonus", "order": _sample(rng, list(BONUS_TILES), rng.randint(1, len(BONUS_TILES)))})
    return orders
