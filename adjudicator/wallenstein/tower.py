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
from adjudicator.recorded import ChanceProblem
from adjudicator.wallenstein.data import load
from adjudicator.wallenstein.releases import RELEASES

Cubes = dict[str, int]


@RELEASES.cached
def params() -> tuple[tuple[int, int], tuple[int, int]]:
    """``(through, knock_out)`` as (numerator, denominator) pairs."""
    doc = load("tower.json")
    return tuple(doc["through"]), tuple(doc["knock_out"])  # type: ignore[return-value]


def throw(tower: Mapping[str, int], thrown: Mapping[str, int], colours: Sequence[str],
          stream: Stream, model: tuple[tuple[int, int], tuple[int, int]] | None = None) -> tuple[Cubes, Cubes]:
    """Throw ``thrown`` into a tower holding ``tower``; return ``(out, tower_after)``.

    Both dicts are keyed by colour (every colour of ``colours``); counts never go negative
    and every cube is either out or inside afterwards. In a historical game the outcome is
    the recorded line ``out red 3, peasants 1; stayed red 1`` (:func:`words`, :func:`read`).
    """
    if type(stream).outcome is Stream.outcome:  # a seed: drawn as Stream.outcome draws it, no line to write
        return _throw(tower, thrown, colours, stream, model)
    inside = {c: tower.get(c, 0) for c in colours}
    went_in = {c: thrown.get(c, 0) for c in colours}
    # the example a missing line is asked for names this throw's colours: every cube thrown in
    # falls out and the tower keeps what it held (one possible outcome, to be corrected)
    example = "out " + words((went_in, inside))
    return stream.outcome("out", lambda s: _throw(inside, went_in, colours, s, model), words,
                          lambda text: read(text, inside, went_in, colours), example)


def _throw(tower: Mapping[str, int], thrown: Mapping[str, int], colours: Sequence[str],
           stream: Stream, model: tuple[tuple[int, int], tuple[int, int]] | None) -> tuple[Cubes, Cubes]:
    (through, t_den), (knock, k_den) = model or params()
    hits = stream.hits
    stuck = [tower.get(c, 0) for c in colours]
    went_in = [thrown.get(c, 0) for c in colours]
    # one draw per cube, in this fixed order: stuck cubes first (each knocked out with p = knock),
    # then those thrown in (each falls through with p = through), colours in seating order
    knocked = [hits(knock, k_den, n) for n in stuck]
    fell = [hits(through, t_den, n) for n in went_in]
    out = {c: k + f for c, k, f in zip(colours, knocked, fell)}
    after = {c: s + w - o for c, s, w, o in zip(colours, stuck, went_in, out.values())}
    return out, after


def _counts(cubes: Mapping[str, int]) -> str:
    return ", ".join(f"{c} {n}" for c, n in cubes.items() if n) or "none"


def words(outcome: tuple[Cubes, Cubes]) -> str:
    """A throw's outcome as its recorded line says it after ``out``: ``red 3, peasants 1; stayed red 1``."""
    out, after = outcome
    return f"{_counts(out)}; stayed {_counts(after)}"


def _parse_counts(text: str, colours: Sequence[str], what: str) -> Cubes:
    cubes: Cubes = {c: 0 for c in colours}
    if text.strip() in ("", "none", "nothing"):
        return cubes
    for part in text.split(","):
        bits = part.split()
        if len(bits) != 2 or not bits[1].isdigit():
            raise ChanceProblem(f"'{part.strip()}' is not a colour and a count (e.g. 'red 3') in the cubes {what}")
        colour, n = bits[0], int(bits[1])
        if colour not in cubes:
            raise ChanceProblem(f"'{colour}' is not a cube colour of this game ({', '.join(colours)})")
        cubes[colour] += n
    return cubes


def read(text: str, tower: Mapping[str, int], thrown: Mapping[str, int], colours: Sequence[str]) -> tuple[Cubes, Cubes]:
    """The recorded outcome ``red 3, peasants 1; stayed red 1`` of a throw, checked against the
    cubes inside the tower and thrown in (rule 5.1: every cube either falls out or stays)."""
    fell, _, stayed_text = text.partition(";")
    stayed_text = stayed_text.strip()
    if stayed_text and not stayed_text.startswith("stayed"):
        raise ChanceProblem(f"after ';' the line says which cubes stayed in the tower ('stayed red 1'), "
                            f"not '{stayed_text[:30]}'")
    out = _parse_counts(fell, colours, "that fell out")
    after: Cubes = {}
    for c in colours:
        went_in = thrown.get(c, 0)
        total = tower.get(c, 0) + went_in
        if out[c] > total:
            where = (f"{went_in} were thrown in" if not tower.get(c, 0) else
                     f"{total} were in the tower and thrown in ({tower.get(c, 0)} inside, {went_in} thrown)")
            raise ChanceProblem(f"{out[c]} {c} cube{'s' if out[c] != 1 else ''} fell out, but only {where}")
        after[c] = total - out[c]
    if stayed_text:
        stayed = _parse_counts(stayed_text[len("stayed"):], colours, "that stayed")
        wrong = next((c for c in colours if stayed[c] != after[c]), None)
        if wrong is not None:
            raise ChanceProblem(f"{stayed[wrong]} {wrong} cube(s) stayed in the tower, but "
                                f"{tower.get(wrong, 0) + thrown.get(wrong, 0)} were in it and {out[wrong]} fell out, "
                                f"so {after[wrong]} stayed")
    return out, after
