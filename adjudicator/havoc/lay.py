"""The strongest Castillon lay a hand allows: the missed-orders default and the bots' lay.

Seed 002, "Az utolsó csaták": „Végül mindenki lerakja a legerősebb kombinációt, amit csak
tud - természetesen legfeljebb 6 lapból.” and „Egyenlőségnél az az erősebb, akinek kevesebb
kártya maradt a kezében.” So the lay sought is the strongest of at most 6 cards and, among
equally strong ones, the one with most cards (fewest left in hand).

The search is exact without trying every subset of a hand of twenty cards:

1. A lay's strength is ``(rank, tiebreak, kickers)`` of its whole when the whole is a named
   combination, else of its best named part with the rest as kickers
   (:func:`adjudicator.havoc.hands.evaluate`). So the strongest lay's ``(rank, tiebreak)`` is
   the strongest ``(rank, tiebreak)`` of any named set of at most 6 cards of the hand: the
   *cores* of :func:`_cores` hold every such set (one per choice of colours that can matter).
2. Every core is then filled, for each number of kickers, with the highest other cards whose
   addition does not make the whole a weaker named combination (a 6-card flush around a
   5-card straight flush, say): the first such choice, in order of value, is the best.

tests/havoc/cases/lays.json holds its cases; a test compares it with the plain search over
every subset.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from adjudicator.havoc.cards import is_dog, parse_card
from adjudicator.havoc.hands import NOTHING, Strength, best_lay, classify, evaluate
from adjudicator.havoc.releases import rule

#: the named shapes of equal values (hands.classify), as counts per value
_GROUP_SHAPES = ((6,), (5,), (4, 2), (4,), (3, 3), (3, 2), (2, 2, 2), (3,), (2, 2), (2,), (1,))


def default_lay(hand: Sequence[str]) -> list[str]:
    """The lay the engine makes for a seat that sends no FINAL (and the bots' strongest lay):
    from rules version 3 the strongest (:func:`strongest_lay`), before it the bounded search
    those versions played (:func:`adjudicator.havoc.hands.best_lay`)."""
    return strongest_lay(hand) if rule("final_lay_strongest") else best_lay(hand)


def strongest_lay(hand: Sequence[str], max_cards: int = 6) -> list[str]:
    """A strongest lay of at most ``max_cards`` cards from ``hand``; of equally strong lays the
    one with most cards. The cards come in the order of the hand."""
    if not hand:
        return []
    order = {card: i for i, card in enumerate(hand)}
    cores = _cores(list(hand), max_cards)
    top = max(evaluate([parse_card(c) for c in core])[:2] for core in cores)
    best: tuple[Strength, int, list[str]] = (NOTHING, 0, [])
    for core in cores:
        if evaluate([parse_card(c) for c in core])[:2] != top:
            continue
        for lay in _filled(core, hand, max_cards):
            strength = evaluate([parse_card(c) for c in lay])
            if (strength, len(lay)) > best[:2]:
                best = (strength, len(lay), lay)
    return sorted(best[2], key=order.__getitem__)


def _filled(core: list[str], hand: Sequence[str], max_cards: int) -> Iterator[list[str]]:
    """``core`` alone, and for each number of kickers the highest other cards that do not
    make the whole lay a named combination (its strength is then the core's with them as
    kickers, the most it can be)."""
    yield core
    rest = sorted((c for c in hand if c not in core), key=lambda c: -parse_card(c)[0])
    for count in range(1, min(max_cards - len(core), len(rest)) + 1):
        for kickers in combinations(rest, count):  # highest values first
            lay = core + list(kickers)
            if classify([parse_card(c) for c in lay]) is None:
                yield lay
                break


def _cores(hand: list[str], max_cards: int) -> list[list[str]]:
    """Named sets of at most ``max_cards`` cards that include every strongest one: for each
    shape of equal values the highest values it can take (which cards of a value does not
    matter: two cards of one value are never of one colour, so no flush or straight can hold
    them), each colour's highest cards (flushes), and every run of 5 or 6 values, within a
    colour and across colours (straights; a Dog is the 0 of any colour)."""
    by_value: dict[int, list[str]] = {}
    for card in sorted(hand):
        by_value.setdefault(parse_card(card)[0], []).append(card)
    cores = [core for shape in _GROUP_SHAPES if sum(shape) <= max_cards
             if (core := _group(by_value, shape))]
    dogs = by_value.get(0, [])
    colours = sorted({suit for c in hand if (suit := parse_card(c)[1]) is not None})
    for colour in colours:
        own = sorted((c for c in hand if parse_card(c)[1] == colour), key=lambda c: -parse_card(c)[0]) + dogs
        cores += [own[:size] for size in (5, 6) if size <= min(max_cards, len(own))]
    for size in (5, 6):
        if size > max_cards:
            continue
        for low in range(0, max(by_value, default=0) - size + 2):
            values = range(low, low + size)
            if any(v not in by_value for v in values):
                continue
            cores += [run for colour in colours if (run := _run(by_value, values, colour))]
            cores.append(_mixed_run(by_value, values))
    return cores


def _group(by_value: dict[int, list[str]], shape: tuple[int, ...]) -> list[str] | None:
    """The cards of ``shape`` (counts of equal values) with the highest values, or None."""
    chosen: list[str] = []
    used: set[int] = set()
    for count in shape:
        value = max((v for v, cards in by_value.items() if v not in used and len(cards) >= count), default=None)
        if value is None:
            return None
        used.add(value)
        chosen += by_value[value][:count]
    return chosen


def _run(by_value: dict[int, list[str]], values: range, colour: str) -> list[str] | None:
    """One card of ``colour`` per value (a Dog for 0), or None."""
    run = []
    for v in values:
        found = [c for c in by_value[v] if is_dog(c) or parse_card(c)[1] == colour]
        if not found:
            return None
        run.append(found[0])
    return run


def _mixed_run(by_value: dict[int, list[str]], values: range) -> list[str]:
    """One card per value, of more than one colour when the hand allows it."""
    run = [by_value[v][0] for v in values]
    colours = {parse_card(c)[1] for c in run} - {None}
    if len(colours) == 1:
        for i, v in enumerate(values):
            other = [c for c in by_value[v] if parse_card(c)[1] not in colours and not is_dog(c)]
            if other:
                run[i] = other[0]
                break
    return run
