"""The cube tower as a parameterised stochastic model (rules 3.5 and 5.1).

The physical tower keeps some of the cubes thrown in and lets cubes stuck inside fall out
later. The model (``data/tower.json``, chosen and measured in docs/wallenstein-tower.md):
each cube stuck in the tower before a throw is knocked out with probability ``knock_out``;
each cube thrown in falls through with probability ``through``, else it sticks. The only
source of chance is the seeded :class:`adjudicator.chance.Stream` passed in; cubes are
visited in a fixed colour order (seats in seating order, then peasants), stuck cubes first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.chance import Stream
from adjudicator.wallenstein.data import load

Cubes = dict[str, int]


def params() -> tuple[tuple[int, int], tuple[int, int]]:
    """``(through, knock_out)`` as (numerator, denominator) pairs."""
    doc = load("tower.json")
    return tuple(doc["through"]), tuple(doc["knock_out"])  # type: ignore[return-value]


def _hit(stream: Stream, p: tuple[int, int]) -> bool:
    return stream.below(p[1]) < p[0]


def throw(tower: Mapping[str, int], thrown: Mapping[str, int], colours: Sequence[str],
          stream: Stream, model: tuple[tuple[int, int], tuple[int, int]] | None = None) -> tuple[Cubes, Cubes]:
    """Throw ``thrown`` into a tower holding ``tower``; return ``(out, tower_after)``.

    Both dicts are keyed by colour (every colour of ``colours``); counts never go negative
    and every cube is either out or inside afterwards.
    """
    through, knock = model or params()
    out: Cubes = {c: 0 for c in colours}
    after: Cubes = {c: 0 for c in colours}
    for colour in colours:
        for _ in range(tower.get(colour, 0)):
            if _hit(stream, knock):
                out[colour] += 1
            else:
                after[colour] += 1
    for colour in colours:
        for _ in range(thrown.get(colour, 0)):
            if _hit(stream, through):
                out[colour] += 1
            else:
                after[colour] += 1
    return out, after
