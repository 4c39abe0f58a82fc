"""The missed-orders policy (default orders) and the random legal bot."""

from __future__ import annotations

from adjudicator.base import Order, State
from adjudicator.chance import Stream
from adjudicator.havoc import battle, final, turn
from adjudicator.havoc.cards import is_dog, sort_key, value
from adjudicator.havoc.flow import pending
from adjudicator.havoc.lay import default_lay
from adjudicator.havoc.releases import rule
from adjudicator.havoc.state import fits_battle, highest_plain


def default_orders(state: State, seat: str) -> list[Order]:
    """Recruit: two from the deck (the first from the recruits when they are full), lay the
    lowest (a recruiting under way: its other draws from the deck, lay the lowest); a forced
    Havoc with the two lowest cards; battle: stay out (join with the two lowest when John of
    Gaunt forces it), then pass; Dogs out at the end of a battle: none (the Dogs fight); Dogs:
    scavenge the highest cards on the table; Year of Peace: discard the lowest; exchange none;
    Castillon: the strongest lay (:mod:`adjudicator.havoc.lay`)."""
    p = pending(state)
    if p is None or seat not in p.seats:
        return []
    hand = sorted(state["hands"][seat], key=sort_key)
    if p.kind == "recruit":
        if not turn.can_recruit(state):
            return [{"kind": "havoc", "cards": hand[:2]}]
        full = len(state["recruits"]) >= state["limit"]
        first = state["recruits"][0] if full else "deck"
        return [{"kind": "recruit", "card": first}, {"kind": "recruit", "card": "deck"},
                {"kind": "lay", "card": "lowest"}]
    if p.kind == "recruiting":  # the rest of a recruiting under way: the deck, then the lowest
        return [{"kind": "recruit", "card": "deck"}] * (2 - p.info["draws"]) + [{"kind": "lay", "card": "lowest"}]
    if p.kind == "dogsout":  # nothing declared: the Dogs fight (beyond 6 cards they are out anyway)
        return [{"kind": "dogsout", "count": 0}]
    if p.kind == "discard":
        return [{"kind": "discard", "card": "lowest"}]
    if p.kind == "battle":
        if p.info["round"] == 1:
            return [{"kind": "join", "cards": hand[:2]}] if p.info["must_join"] else [{"kind": "stay"}]
        return [{"kind": "pass"}]
    if p.kind == "dogs":
        own = sum(1 for c in state["field"].get(seat, []) if is_dog(c))
        targets = sorted(battle.dog_targets(state), key=sort_key, reverse=True)[: min(2, own)]
        return [{"kind": "scavenge", "card": c} for c in targets] or [{"kind": "keep"}]
    if p.kind == "choose":
        first = next(b for b in state["battles"] if not battle.battle_card(state, b)["final"])
        return [{"kind": "next", "battle": first}]
    if p.kind == "exchange":
        return [{"kind": "exchange", "count": 0}]
    if p.kind == "final":
        return [{"kind": "final", "cards": default_lay(hand)}]
    if p.kind == "loot":  # the highest non-Dog, as a LOOT without a card
        return [{"kind": "loot", "prefs": []}]
    return []


def _some_cards(rng: Stream, hand: list[str], laid: list[str], least: int, most: int) -> list[str]:
    """Random cards from ``hand`` (at least ``least`` when possible) that fit the battle."""
    want = rng.randint(least, max(least, most))
    chosen: list[str] = []
    for card in rng.shuffled(sorted(hand)):
        if len(chosen) >= want:
            break
        if fits_battle([*laid, *chosen, card]):
            chosen.append(card)
    return chosen


def random_orders(state: State, seat: str, rng: Stream) -> list[Order]:
    """A random legal order set for the pending decision of ``seat``."""
    p = pending(state)
    if p is None or seat not in p.seats:
        return []
    hand = sorted(state["hands"][seat])
    if p.kind == "recruit":
        orders = _random_turn(state, seat, rng, hand)
        if rule("recruit_asked") and orders[0]["kind"] != "havoc" and rng.below(2):
            return _first_parts(orders, rng)  # version 3: the rest is asked when it arises
        return orders
    if p.kind == "recruiting":
        return _random_rest(state, seat, rng, hand)
    if p.kind == "dogsout":
        low, high = battle.dogs_out_range(state, seat)
        return [{"kind": "dogsout", "count": rng.choice([*range(low, high + 1), "best"])}]
    if p.kind == "discard":
        return [{"kind": "discard", "card": rng.choice(hand)}]
    if p.kind == "battle":
        laid = list(state["field"].get(seat, []))
        if p.info["round"] == 1:
            if p.info["must_join"] or rng.below(2):
                return [{"kind": "join", "cards": _some_cards(rng, hand, laid, 2, 3)}]
            return [{"kind": "stay"}]
        if rng.below(3) == 0:
            return [{"kind": "add", "cards": _some_cards(rng, hand, laid, 1, 2)}]
        return [{"kind": "pass"}]
    if p.kind == "dogs":
        return _random_dogs(state, seat, rng)
    if p.kind == "loot":
        plain = sorted(c for c in state["discard"] if not is_dog(c))
        return [{"kind": "loot", "prefs": [rng.choice(plain)] if plain and rng.below(2) else []}]
    if p.kind == "choose":
        options = [b for b in state["battles"] if not battle.battle_card(state, b)["final"]]
        return [{"kind": "next", "battle": rng.choice(options)}]
    if p.kind == "exchange":
        return [{"kind": "exchange", "count": rng.randint(0, final.exchange_limit(state, seat))}]
    if p.kind == "final":
        if rng.below(2):
            return [{"kind": "final", "cards": default_lay(hand)}]
        return [{"kind": "final", "cards": rng.shuffled(hand)[: rng.randint(1, min(6, len(hand)))]}]
    return default_orders(state, seat)


def _random_turn(state: State, seat: str, rng: Stream, hand: list[str]) -> list[Order]:
    if len(hand) >= 2 and (not turn.can_recruit(state) or rng.below(4) == 0):
        return [{"kind": "havoc", "cards": _some_cards(rng, hand, [], 2, 3)}]
    if not turn.can_recruit(state):
        return default_orders(state, seat)
    recruits = list(state["recruits"])
    orders: list[Order] = []
    for i in range(2):
        must = i == 0 and len(state["recruits"]) >= state["limit"]
        if recruits and (must or rng.below(3) == 0):
            card = rng.choice(recruits)
            recruits.remove(card)
            orders.append({"kind": "recruit", "card": card})
        else:
            orders.append({"kind": "recruit", "card": "deck"})
    dogs = sum(1 for c in hand if is_dog(c))
    if dogs >= 2 and highest_plain(state["discard"]) and rng.below(5) == 0:
        orders.append({"kind": "loot", "prefs": []})
    elif dogs >= 1 and rng.below(4) == 0:
        orders.append({"kind": "sic", "card": "deck"})
    plain = [c for c in hand if not is_dog(c)]
    lay = rng.choice(plain) if plain and rng.below(2) else "lowest"
    orders.append({"kind": "lay", "card": lay})
    return orders


def _first_parts(orders: list[Order], rng: Stream) -> list[Order]:
    """The first one or more taking lines of a whole recruiting block (no LAY)."""
    takes = [o for o in orders if o["kind"] != "lay"]
    return takes[: rng.randint(1, len(takes))]


def _random_rest(state: State, seat: str, rng: Stream, hand: list[str]) -> list[Order]:
    """Random next parts of a recruiting under way (version 3): the missing draws (deck or a
    recruit), now and then a Sic 'em!, the LAY; sometimes only the first of them."""
    took = state["phase"]["took"]
    recruits = list(state["recruits"])
    orders: list[Order] = []
    for _ in range(2 - sum(1 for t in took if t["how"] == "recruit")):
        if recruits and rng.below(3) == 0:
            card = rng.choice(recruits)
            recruits.remove(card)
            orders.append({"kind": "recruit", "card": card})
        else:
            orders.append({"kind": "recruit", "card": "deck"})
    dogs = sum(1 for c in hand if is_dog(c))
    once = state["options"].get("sic") == "once" and turn.dog_actions(took) >= 1
    if dogs >= 2 and turn.dogs_spent(took) < 2 and not once and rng.below(4) == 0:
        orders.append({"kind": "sic", "card": "deck"})
    if orders and rng.below(3) == 0:
        return orders[: rng.randint(1, len(orders))]
    plain = [c for c in hand if not is_dog(c)]
    orders.append({"kind": "lay", "card": rng.choice(plain) if plain and rng.below(2) else "lowest"})
    return orders


def _random_dogs(state: State, seat: str, rng: Stream) -> list[Order]:
    own = sum(1 for c in state["field"].get(seat, []) if is_dog(c))
    roll = rng.below(4)
    if roll == 0:
        return [{"kind": "keep"}]
    if roll == 1 and own >= 2 and highest_plain(state["discard"]):
        return [{"kind": "loot", "prefs": []}]
    targets = sorted(battle.dog_targets(state), key=lambda c: (-value(c), c))
    chosen = rng.shuffled(targets)[: min(own, 2, rng.randint(1, 2))]
    return [{"kind": "scavenge", "card": c} for c in chosen] or [{"kind": "keep"}]
