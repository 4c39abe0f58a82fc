"""A mistyped county name suggests the writer's own counties first ("Name suggestions
prefer the seat's own counties"), in the reply a player gets through ``check_orders``."""

from __future__ import annotations

from adjudicator.registry import get_engine
from turns.base import SHOWN_SUGGESTIONS, check_orders, prefer
from turns.wallenstein import parse
from turns.wallenstein_names import resolve_county

SEATS = ["red", "blue", "green", "yellow"]


def _typos(name: str) -> list[str]:
    """Short prefixes and one-letter-dropped spellings of ``name`` (letters only)."""
    letters = "".join(c for c in name if c.isalpha())
    return [letters[:n] for n in (3, 4, 5)] + [letters[:i] + letters[i + 1:] for i in range(1, len(letters))]


def _cases(state: dict, seat: str) -> list[tuple[str, str]]:
    """(typo, own county) where the plain suggestions put a foreign county first."""
    own = {n for n, c in state["counties"].items() if c.get("owner") == seat}
    found = []
    for county in sorted(own):
        for typo in _typos(county):
            hit = resolve_county(typo)
            pool = hit.suggestions
            if hit.county is None and pool and pool[0] not in own and any(s in own for s in pool):
                found.append((typo, county))
    return found


def test_own_counties_come_first_in_the_reply() -> None:
    engine = get_engine("wallenstein")
    state, _ = engine.create(SEATS, {}, "suggestions-own-counties-seed-0123456789abcdef")
    checked = 0
    for seat in SEATS:
        own = set(engine.own_names(state, seat))
        for typo, _county in _cases(state, seat):
            result = check_orders(engine, parse, state, seat, f"TAX {typo}\n")
            named = [p for p in result.problems if p.stage == "name"]
            assert named, typo
            assert named[0].suggestions[0] in own, (seat, typo, named[0].suggestions)
            assert len(named[0].suggestions) <= SHOWN_SUGGESTIONS
            checked += 1
    assert checked >= 3  # the position offers real cases, so the test can fail


def test_prefer_keeps_order_otherwise() -> None:
    assert prefer(("A", "B", "C", "D"), {"C"}) == ("C", "A", "B")
    assert prefer(("A", "B"), set()) == ("A", "B")
