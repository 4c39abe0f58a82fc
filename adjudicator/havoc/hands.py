"""Battle combinations: the 17 ranks of seed 002 ("A kombinációk, erősségi sorrendben").

A Dog of War is value 0 of any colour (seed 002, "Harc ebei"). Interpretation (see
docs/havoc-rules.md): the Hungarian text allows a 0 in a straight (its examples 0-1-2-3-4-5
and the straight flush 4-3-2-1-0), so a Dog may be the 0 at the low end of a straight and,
being of any colour, of a straight flush. It never stands for another value.

Strength is compared as a tuple ``(rank, tiebreak, kickers)``: ``rank`` 17 (6-card straight
flush) down to 1 (high card); ``tiebreak`` the rank's defining values ("much as in poker": a
pair of 9s beats a pair of 5s, 1-6 beats 0-5); ``kickers`` the other cards, highest first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from adjudicator.havoc.cards import Card, is_dog, parse_card

#: The 17 ranks, strongest first: (key, English, Hungarian) -- seed 002 order.
RANKS: tuple[tuple[str, str, str], ...] = (
    ("straight-flush-6", "6-card straight flush", "6-os színsor"),
    ("six-of-a-kind", "six of a kind", "6 ugyanolyan lap"),
    ("straight-flush-5", "5-card straight flush", "5-ös színsor"),
    ("five-of-a-kind", "five of a kind", "5 ugyanolyan lap"),
    ("big-full-house", "big full house", "nagy full"),
    ("four-of-a-kind", "four of a kind", "4 ugyanolyan lap"),
    ("trios", "trios", "tercek"),
    ("flush-6", "6-card flush", "6-os flös"),
    ("full-house", "full house", "full"),
    ("straight-6", "6-card straight", "6-os sor"),
    ("flush-5", "5-card flush", "5-ös flös"),
    ("three-pairs", "three pairs", "3 pár"),
    ("straight-5", "5-card straight", "5-ös sor"),
    ("three-of-a-kind", "three of a kind", "terc"),
    ("two-pairs", "two pairs", "két pár"),
    ("pair", "pair", "pár"),
    ("high-card", "high card", "magas lap"),
)
STRENGTH = {key: len(RANKS) - i for i, (key, _, _) in enumerate(RANKS)}
Strength = tuple[int, tuple[int, ...], tuple[int, ...]]
NOTHING: Strength = (0, (), ())


def _straight(values: Sequence[int]) -> bool:
    ordered = sorted(values)
    return ordered == list(range(ordered[0], ordered[0] + len(ordered)))


def _flush(cards: Sequence[Card]) -> bool:
    return len({suit for _, suit in cards if suit is not None}) <= 1


def _groups(values: Sequence[int]) -> list[tuple[int, int]]:
    """``(count, value)`` pairs, biggest group first, then highest value."""
    return sorted(((n, v) for v, n in Counter(values).items()), reverse=True)


def classify(cards: Sequence[Card]) -> tuple[str, tuple[int, ...]] | None:
    """The rank key and tiebreak if ``cards`` are exactly one named combination, else None."""
    values = [v for v, _ in cards]
    k = len(cards)
    shape = [n for n, _ in _groups(values)]
    tops = tuple(v for _, v in _groups(values))
    desc = tuple(sorted(values, reverse=True))
    if k in (5, 6) and len(set(values)) == k and _straight(values):
        kind = "straight-flush" if _flush(cards) else "straight"
        return f"{kind}-{k}", (max(values),)
    named = {
        (6,): "six-of-a-kind", (5,): "five-of-a-kind", (4, 2): "big-full-house", (4,): "four-of-a-kind",
        (3, 3): "trios", (3, 2): "full-house", (2, 2, 2): "three-pairs", (3,): "three-of-a-kind",
        (2, 2): "two-pairs", (2,): "pair", (1,): "high-card",
    }
    if k in (5, 6) and _flush(cards):
        flush = (f"flush-{k}", desc)
        if tuple(shape) not in named or STRENGTH[named[tuple(shape)]] < STRENGTH[flush[0]]:
            return flush
    key = named.get(tuple(shape))
    return (key, tops) if key else None


def evaluate(cards: Sequence[Card]) -> Strength:
    """The strength of the cards that take part (at most 6); see :func:`_evaluate`."""
    return _evaluate(tuple(cards))


@lru_cache(maxsize=65536)
def _evaluate(cards: tuple[Card, ...]) -> Strength:
    """The strength of the cards that take part (at most 6), remembered per set of cards
    (a pure function of them, and the same sets come up again and again in a game).

    Seed 002 names the combination of *all* the cards that take part ("a Dog and the blue
    5-9 is a 6-card flush; with the Dog declared out it is a 5-card straight flush"): when
    the whole set is a named combination, that is its strength. Otherwise (e.g. three 2s and
    a 13) it is the best combination among its cards, the others counting as kickers.
    """
    whole = classify(cards) if cards else None
    if whole is not None:
        return STRENGTH[whole[0]], whole[1], ()
    best = NOTHING
    indices = range(len(cards))
    for size in range(len(cards) - 1, 0, -1):
        for subset in combinations(indices, size):
            named = classify([cards[i] for i in subset])
            if named is None:
                continue
            rest = tuple(sorted((cards[i][0] for i in indices if i not in subset), reverse=True))
            best = max(best, (STRENGTH[named[0]], named[1], rest))
    return best


def rank_key(strength: Strength) -> str | None:
    """The rank key of a strength (None for no cards)."""
    for key, value in STRENGTH.items():
        if value == strength[0]:
            return key
    return None


def battle_strength(laid: Sequence[str], declared: int | str = "best") -> tuple[Strength, list[str]]:
    """The strength of a seat's laid cards and the Dogs declared out of the battle.

    Seed 002: at most 6 cards take part; 1 or 2 laid Dogs may be declared out ("a játékos
    kijelentheti"), and Dogs laid beyond 6 cards are out automatically. ``declared`` is the
    player's ``DOGS OUT`` (0-2, kept within what the laid cards allow); ``best`` (the
    default) declares the choice that gives the strongest combination.
    """
    dogs = [c for c in laid if is_dog(c)]
    others = [c for c in laid if not is_dog(c)]
    low, high = max(0, len(laid) - 6), min(2, len(dogs))
    if declared != "best":
        out = min(max(int(declared), low), high)
        return evaluate([parse_card(c) for c in others + dogs[out:]]), dogs[:out]
    best: tuple[Strength, list[str]] = (NOTHING, [])
    for out in range(low, high + 1):
        taking_part = others + dogs[out:]
        strength = evaluate([parse_card(c) for c in taking_part])
        if out == max(0, len(laid) - 6) or strength > best[0]:
            best = (strength, dogs[:out])
    return best


def describe_strength(strength: Strength) -> dict[str, Any]:
    """A JSON description of a strength for views and events."""
    key = rank_key(strength)
    english = next((e for k, e, _ in RANKS if k == key), "no cards")
    return {"rank": key, "name": english, "strength": strength[0], "tiebreak": list(strength[1]),
            "kickers": list(strength[2])}


def _candidate_cores(cards: Sequence[str]) -> Iterable[list[str]]:
    by_value: dict[int, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    dogs = [c for c in cards if is_dog(c)]
    for c in sorted(cards, key=lambda n: -parse_card(n)[0]):
        v, suit = parse_card(c)
        by_value.setdefault(v, []).append(c)
        if suit is not None:
            by_suit.setdefault(suit, []).append(c)
    groups = sorted(by_value.items(), key=lambda kv: (-len(kv[1]), -kv[0]))
    for v, group in groups:
        for n in range(2, min(6, len(group)) + 1):
            yield group[:n]
    multi = [g for _, g in groups if len(g) >= 2][:5]
    for a, b in combinations(multi, 2):
        for na in range(2, min(4, len(a)) + 1):
            for nb in range(2, min(4, len(b)) + 1):
                if na + nb <= 6:
                    yield a[:na] + b[:nb]
    for a, b, c in combinations(multi, 3):
        yield a[:2] + b[:2] + c[:2]
    for suit_cards in [*by_suit.values(), []]:
        pool = suit_cards + dogs[:1] if suit_cards else []
        yield (suit_cards + dogs)[:6]
        for length in (5, 6):
            for top in range(18, length - 2, -1):
                run = _run(pool if suit_cards else cards, top, length)
                if run:
                    yield run


def _run(cards: Sequence[str], top: int, length: int) -> list[str] | None:
    """One card per value ``top-length+1 .. top`` from ``cards``, or None."""
    found: dict[int, str] = {}
    for c in cards:
        found.setdefault(parse_card(c)[0], c)
    values = range(top - length + 1, top + 1)
    if values[0] < 0 or any(v not in found for v in values):
        return None
    return [found[v] for v in values]


def best_lay(hand: Sequence[str], max_cards: int = 6) -> list[str]:
    """A strongest lay of at most ``max_cards`` cards from ``hand`` (a bounded search over
    the combinations the hand can form, each filled with its highest other cards)."""
    if not hand:
        return []
    ordered = sorted(hand, key=lambda n: -parse_card(n)[0])
    best: tuple[Strength, list[str]] = (NOTHING, [])
    for core in [ordered[:max_cards], *_candidate_cores(hand)]:
        core = list(core)[:max_cards]
        fill = [c for c in ordered if c not in core][: max_cards - len(core)]
        for extra in range(len(fill), -1, -1):
            lay = core + fill[:extra]
            strength = evaluate([parse_card(c) for c in lay])
            if strength > best[0]:
                best = (strength, lay)
    return best[1]
