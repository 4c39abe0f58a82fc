"""The Havoc deal in the table's words, for games whose chance was recorded.

The deal (seed 002, "Előkészületek") shuffles the ordinary cards and deals them one at a
time round the table (``SETUP["hand"]`` each), then turns up the recruits; the rest goes
into the deck with the other Dogs, shuffled again. A transcriber knows the hands, not the
shuffle, so its recorded line says them::

    deal initial: hands Anita yellow02, grey07, ...; Peter ...; recruits blue09, orange02, green12

(``rest ...`` may follow: the undealt cards in their shuffled order; left out, they follow
as listed, which changes nothing since they are shuffled again into the deck).
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.recorded import ChanceProblem


def deal_words(order: Sequence[str], seats: Sequence[str], hand: int, recruits: int) -> str:
    """A shuffled deal as its line says it after ``hands``."""
    n = len(seats)
    parts = [f"{seat} " + ", ".join(order[i * n + j] for i in range(hand)) for j, seat in enumerate(seats)]
    parts.append("recruits " + ", ".join(order[n * hand:n * hand + recruits]))
    rest = order[n * hand + recruits:]
    if rest:
        parts.append("rest " + ", ".join(rest))
    return "; ".join(parts)


def read_deal(text: str, ordinary: Sequence[str], seats: Sequence[str], hand: int, recruits: int) -> list[str]:
    """The shuffled ordinary cards a recorded deal stands for, checked card by card."""
    given: dict[str, list[str]] = {}
    for part in [p.strip() for p in text.split(";") if p.strip()]:
        who, _, cards = part.partition(" ")
        if who not in (*seats, "recruits", "rest"):
            raise ChanceProblem(f"'{who}' is not a seat ({', '.join(seats)}), 'recruits' or 'rest'")
        if who in given:
            raise ChanceProblem(f"'{who}' is named twice")
        given[who] = [c.strip() for c in cards.split(",") if c.strip()]
    left = list(ordinary)
    for who, cards in given.items():
        want = hand if who in seats else recruits if who == "recruits" else None
        if want is not None and len(cards) != want:
            raise ChanceProblem(f"{who} gets {want} cards in the deal, the line names {len(cards)}")
        for card in cards:
            if card not in left:
                why = "named twice" if card in ordinary else (
                    "a Dog of War: each seat's Dog is dealt apart, name only the ordinary cards"
                    if card.startswith("dog") else "not an ordinary card of this game")
                raise ChanceProblem(f"{card} is {why}")
            left.remove(card)
    missing = [who for who in (*seats, "recruits") if who not in given]
    if missing:
        raise ChanceProblem(f"the line does not say the cards of {', '.join(missing)}")
    n = len(seats)
    dealt = [given[seats[j]][i] for i in range(hand) for j in range(n)]
    return dealt + given["recruits"] + given.get("rest", []) + left
