"""Card names and the deck (seed 002, "Tartalom" and "Szükséges kártyák").

Every card is a unique string, chosen so that no name is a substring of another (leak
tests search views for hand cards): ordinary cards are ``<colour><value:02>`` (``blue07``,
``orange12``), the Dogs of War ``dog01``..``dog12`` (value 0, any colour) and the John of
Gaunt card ``gaunt``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from adjudicator.havoc.tables import SETUP

SUITS: tuple[str, ...] = tuple(SETUP["suits"]["value"])
GAUNT = "gaunt"
JOHN = "@john"  # the phantom seat of John of Gaunt
_CARD = re.compile(r"^(?P<suit>[a-z]+)(?P<value>\d\d)$")

Card = tuple[int, str | None]  # (value, colour); a Dog is (0, None): any colour


def card_name(suit: str, value: int) -> str:
    """The name of the ordinary card of ``suit`` and ``value``."""
    return f"{suit}{value:02d}"


def dog_name(index: int) -> str:
    """The name of Dog of War number ``index`` (1-based)."""
    return f"dog{index:02d}"


def is_dog(name: str) -> bool:
    """True for a Dog of War."""
    return name.startswith("dog")


@lru_cache(maxsize=4096)
def parse_card(name: str) -> Card:
    """``(value, colour)`` of a card name; a Dog is ``(0, None)`` (remembered per name: a
    game reads the same few dozen names many thousand times)."""
    if is_dog(name):
        return 0, None
    m = _CARD.match(name)
    if not m or m["suit"] not in SUITS:
        raise ValueError(f"not a card: {name!r}")
    return int(m["value"]), m["suit"]


def value(name: str) -> int:
    """The value of a card (0 for a Dog)."""
    return parse_card(name)[0]


def describe(name: str) -> str:
    """A human text of a card, e.g. ``blue 7`` or ``Dog of War``."""
    v, suit = parse_card(name)
    return "Dog of War" if suit is None else f"{suit} {v}"


def all_cards() -> list[str]:
    """Every card in the box: 108 ordinary cards, 12 Dogs and John of Gaunt."""
    top = SETUP["all_values"]["value"]
    ordinary = [card_name(s, v) for s in SUITS for v in range(1, top + 1)]
    dogs = [dog_name(i) for i in range(1, SETUP["all_dogs"]["value"] + 1)]
    return ordinary + dogs + [GAUNT]


def game_cards(nseats: int) -> tuple[list[str], list[str], list[str]]:
    """``(ordinary, dogs, box)`` for ``nseats``: the cards in play and those left in the box.

    Seed 002 table: values 1-8/10/13/15/18 for 2/3/4/5/6 players; two Dogs per player
    (three per player with two).
    """
    spec = SETUP["by_seats"][str(nseats)]
    ordinary = [card_name(s, v) for s in SUITS for v in range(1, spec["max_value"] + 1)]
    dogs = [dog_name(i) for i in range(1, spec["dogs"] + 1)]
    in_play = set(ordinary) | set(dogs)
    box = [c for c in all_cards() if c not in in_play and c != GAUNT]
    return ordinary, dogs, box


def sort_key(name: str) -> tuple[int, str]:
    """Sort by value, then name (lowest first)."""
    return value(name), name
