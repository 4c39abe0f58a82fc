"""The Havoc state helpers: seats in turn order, the card zones, drawing with reshuffles.

The state is plain JSON (see docs/havoc-rules.md, "State"). Card zones: ``deck`` (index 0
is the top), ``hands`` {seat: [...]}, ``recruits``, ``field`` {seat: [...]} (cards laid in
the current battle), ``discard``, ``box`` and ``john`` (the John of Gaunt card while it lies
on the table). Every card is in exactly one zone at all times.

Advance works on a deep copy wrapped in :class:`Ctx` (the shared working copy of
:mod:`adjudicator.sequential`), which collects the derived events.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.base import GameError, State
from adjudicator.havoc.cards import GAUNT, JOHN, is_dog, parse_card, sort_key
from adjudicator.sequential import Ctx, deep_copy  # noqa: F401 - the Havoc modules import them from here

#: Seed 002: at most 6 cards in the battle plus at most 2 Dogs outside it.
MAX_IN_BATTLE = 6
MAX_DOGS_OUT = 2


def seats(state: State) -> list[str]:
    """The seats in clockwise order (each seat's left neighbour is the next one)."""
    return list(state["seats"])


def left_of(state: State, seat: str) -> str:
    """The seat that plays after ``seat``; John of Gaunt sits at the left of his drawer."""
    john = state["john"]
    if seat == JOHN:
        return _plain_left(state, john["left_of"])
    if john["where"] == "active" and john["left_of"] == seat:
        return JOHN
    return _plain_left(state, seat)


def _plain_left(state: State, seat: str) -> str:
    order = seats(state)
    return order[(order.index(seat) + 1) % len(order)]


def clockwise_from(state: State, first: str) -> list[str]:
    """All real seats, clockwise, starting with ``first``."""
    order = seats(state)
    i = order.index(first)
    return order[i:] + order[:i]


def hand(state: State, seat: str) -> list[str]:
    """A seat's hand."""
    return state["hands"][seat]


def take_from_hand(state: State, seat: str, card: str) -> None:
    """Remove ``card`` from ``seat``'s hand (it must be there)."""
    if card not in state["hands"][seat]:
        raise GameError(f"{seat} does not hold {card}")
    state["hands"][seat].remove(card)


def to_hand(state: State, seat: str, card: str) -> None:
    """Put ``card`` into ``seat``'s hand (kept sorted, so a hand shows no order of arrival)."""
    state["hands"][seat].append(card)
    state["hands"][seat].sort(key=sort_key)


def reshuffle(ctx: Ctx) -> None:
    """Form a new draw deck from the discard pile (seed 002, the last battles; we use it
    whenever the deck runs out -- docs/havoc-rules.md)."""
    s = ctx.s
    s["counters"]["reshuffle"] += 1
    label = f"havoc/b{s['bno']}/deck/reshuffle/{s['counters']['reshuffle']}"
    # a recorded line says it in words: 'battle 3 deck reshuffle 1' (the label's 'b3 ...' is read too)
    words = [(f"battle {s['bno']} deck reshuffle {s['counters']['reshuffle']}", 0)]
    s["deck"] = ctx.chance.stream(label, words).shuffled(sorted(s["discard"]))
    s["discard"] = []
    ctx.emit("Reshuffle", label=label, order=list(s["deck"]))


def draw(ctx: Ctx, seat: str | None, why: str) -> str | None:
    """The top card of the deck for ``seat`` (None: to the table). Reshuffles the discard
    when the deck is empty; None if no card is left. John of Gaunt, when drawn, is laid at
    the left of ``seat`` (or the Peacekeeper) and is returned without entering a hand."""
    s = ctx.s
    if not s["deck"] and s["discard"]:
        reshuffle(ctx)
    if not s["deck"]:
        return None
    card = s["deck"].pop(0)
    if card == GAUNT:
        place_john(ctx, seat or s["phase"].get("winner") or s["peace"]["holder"], why)
        return GAUNT
    if seat is not None:
        to_hand(s, seat, card)
        ctx.emit("Draw", seat=seat, card=card, why=why)
    return card


def place_john(ctx: Ctx, seat: str, why: str) -> None:
    """John of Gaunt is drawn: he lies face up at the left of ``seat`` (seed 002, John of
    Gaunt). In the last battles there are no more turns, so he goes to the box."""
    s = ctx.s
    if s["phase"]["name"] in ("final_deal", "exchange", "final") or seat == JOHN:
        s["box"].append(GAUNT)
        s["john"]["where"] = "gone"
        ctx.emit("GauntDrawn", seat=seat, why=why, effect="box (no more turns)")
        return
    s["john"].update(where="waiting", left_of=seat)
    s["table"].append(GAUNT)
    ctx.emit("GauntDrawn", seat=seat, why=why, effect="waits at the left of the drawer")


def john_leaves(ctx: Ctx, why: str) -> None:
    """John of Gaunt retires to his estates in England (seed 002)."""
    s = ctx.s
    if s["john"]["where"] in ("waiting", "active"):
        if GAUNT in s["table"]:
            s["table"].remove(GAUNT)
        s["box"].append(GAUNT)
        s["john"]["where"] = "gone"
        ctx.emit("GauntLeaves", why=why)


def fits_battle(laid: Sequence[str]) -> bool:
    """Seed 002: at most 6 cards in the battle and at most 2 Dogs outside it."""
    dogs = sum(1 for c in laid if is_dog(c))
    others = len(laid) - dogs
    return others <= MAX_IN_BATTLE and len(laid) - min(dogs, MAX_DOGS_OUT) <= MAX_IN_BATTLE


def resolve_refs(cards: Sequence[str], refs: Sequence[str]) -> tuple[list[str] | None, str]:
    """Concrete cards for ``refs``: a card name, ``dog`` (any Dog of War) or a number
    (any card of that value). ``(None, reason)`` when ``cards`` cannot supply them."""
    pool = sorted(cards, key=sort_key)
    chosen: list[str] = []
    exact = [r for r in refs if r in pool]
    for ref in refs:
        if ref in pool:
            if ref in chosen:
                return None, f"{ref} is named twice"
            chosen.append(ref)
            continue
        if ref == "dog":
            match = [c for c in pool if is_dog(c) and c not in chosen and c not in exact]
        elif ref.isdecimal():
            match = [c for c in pool if not is_dog(c) and parse_card(c)[0] == int(ref)
                     and c not in chosen and c not in exact]
        else:
            return None, f"{ref} is not in your hand"
        if not match:
            return None, f"no {'Dog of War' if ref == 'dog' else 'card of value ' + ref} left in your hand"
        chosen.append(match[0])
    return chosen, ""


def lowest(cards: Sequence[str]) -> str | None:
    """The lowest non-Dog card (Dogs only when there is nothing else)."""
    plain = [c for c in cards if not is_dog(c)]
    pool = plain or list(cards)
    return min(pool, key=sort_key) if pool else None


def highest_plain(cards: Sequence[str]) -> str | None:
    """The highest non-Dog card, or None."""
    plain = [c for c in cards if not is_dog(c)]
    return max(plain, key=sort_key) if plain else None


def all_zones(state: State) -> list[str]:
    """Every card in every zone (for the one-place invariant)."""
    out = list(state["deck"]) + list(state["recruits"]) + list(state["discard"]) + list(state["box"])
    out += list(state["table"])
    for cards in state["hands"].values():
        out += cards
    for cards in state["field"].values():
        out += cards
    return out
