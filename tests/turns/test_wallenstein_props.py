"""Properties of the Wallenstein grammar: round trip, no crash, line numbers, names data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.base import Order
from turns.games import format_orders as format_for, grammar_for
from turns.wallenstein import ACTIONS, BONUS_TILES, SIMPLE_ACTIONS, format_orders, parse
from turns.wallenstein_fields import MARKERS
from turns.wallenstein_names import aliases, canonical_names, resolve_county, spellings

COUNTIES = st.sampled_from(canonical_names())
ARMIES = st.one_of(st.just("ALL"), st.integers(1, 62))


def _action(action: str) -> st.SearchStrategy[Order]:
    base = st.builds(lambda c: {"kind": "action", "action": action, "county": c}, COUNTIES)
    if action in SIMPLE_ACTIONS:
        return base
    moved = st.builds(lambda c, t, a: {"kind": "action", "action": action, "county": c, "to": t, "armies": a},
                      COUNTIES, COUNTIES, ARMIES)
    return st.one_of(base, moved) if action == "recruit1" else moved


ORDERS = st.one_of(
    *[_action(a) for a in ACTIONS],
    st.builds(lambda v: {"kind": "bid", "card": "taler", "value": v}, st.integers(0, 4)),
    st.builds(lambda c: {"kind": "bid", "card": "county", "county": c}, COUNTIES),
    st.just({"kind": "bid", "card": "none"}),
    st.builds(lambda o: {"kind": "bonus", "order": o}, st.permutations(BONUS_TILES).flatmap(
        lambda p: st.integers(1, 5).map(lambda n: list(p[:n])))),
    st.builds(lambda c: {"kind": "draft", "counties": c}, st.lists(COUNTIES, min_size=1, max_size=9)),
    st.builds(lambda s: {"kind": "groups", "sizes": s}, st.lists(st.integers(1, 9), min_size=1, max_size=9)),
    st.builds(lambda n, c: {"kind": "court", "slot": n, "card": "county", "county": c}, st.integers(1, 3), COUNTIES),
    st.builds(lambda n, k: {"kind": "court", "slot": n, "card": k}, st.integers(1, 3), st.sampled_from(["tower", "money"])),
    st.builds(lambda p: {"kind": "favour", "prefs": p}, st.lists(st.integers(1, 21), max_size=5, unique=True)),
    st.builds(lambda p, c: {"kind": "favour", "prefs": p, "county": c},
              st.lists(st.integers(1, 21), min_size=1, max_size=3, unique=True), COUNTIES),
    st.just({"kind": "bid", "card": "tower"}),
    st.builds(lambda a: {"kind": "action", "action": a, "card": "tower"}, st.sampled_from(ACTIONS)),
)


@given(st.lists(ORDERS, max_size=14))
def test_round_trip(orders: list[Order]) -> None:
    text = format_orders(orders)
    result = parse(text, None)
    assert result.problems == []
    assert result.orders == orders
    assert result.lines == list(range(1, len(orders) + 1))


@given(st.lists(ORDERS, min_size=1, max_size=8), st.lists(st.sampled_from(["", "# note", "   ", "\t# x"]), min_size=8, max_size=8))
def test_blank_and_comment_lines_keep_line_numbers(orders: list[Order], fillers: list[str]) -> None:
    lines: list[str] = []
    expected: list[int] = []
    for order, filler in zip(orders, fillers):
        lines.append(filler)
        lines.append(format_orders([order]).strip() + "  # comment")
        expected.append(len(lines))
    result = parse("\n".join(lines), None)
    assert result.orders == orders and result.lines == expected


@settings(max_examples=300)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    result = parse(text, None)
    assert len(result.orders) == len(result.lines)
    assert all(p.line >= 1 for p in result.problems)


_KEYWORD_LINES = st.tuples(st.sampled_from(["TAX", "ATTACKA", "RECRUIT1", "BID", "DRAFT", "BONUS", "COURT2",
                                            "FAVOUR", "GROUPS", "attack b", "recruit 5"]),
                           st.lists(st.one_of(st.sampled_from(["TO", "WITH", "MOVE", "ALL", "0", "3", ",", "->",
                                                               "COUNTY", "NONE", "Böhmen", "Sachsen"]),
                                              st.text(max_size=8)), max_size=8)).map(lambda t: " ".join([t[0], *t[1]]))


@settings(max_examples=300)
@given(st.lists(_KEYWORD_LINES, max_size=6))
def test_keyword_soup_never_raises(lines: list[str]) -> None:
    result = parse("\n".join(lines), None)
    assert {p.stage for p in result.problems} <= {"syntax", "name"}


def test_registered() -> None:
    assert grammar_for("wallenstein") is parse
    assert format_for("wallenstein", [{"kind": "bid", "card": "none"}]) == "BID NONE\n"


def test_format_rejects_unknown_kind() -> None:
    with pytest.raises(ValueError):
        format_orders([{"kind": "retreat"}])


def test_all_problems_are_collected() -> None:
    result = parse("TAXX Burgund\nTAX Burgund\nGRAIN Atlantis\nBID 9\n", None)
    assert [p.line for p in result.problems] == [1, 3, 4]
    assert result.lines == [2]


@pytest.mark.parametrize("canonical", canonical_names())
def test_every_alias_resolves_to_its_county(canonical: str) -> None:
    for alias in [canonical, *aliases(canonical)]:
        for spelling in spellings(alias):
            found = resolve_county(spelling)
            assert found.county == canonical or (found.ambiguous and canonical in found.suggestions), spelling


@pytest.mark.parametrize("canonical", canonical_names())
def test_no_alias_contains_a_marker_word(canonical: str) -> None:
    for alias in [canonical, *aliases(canonical)]:
        assert not {w.upper() for w in alias.split()} & set(MARKERS), alias


def test_canonical_names_are_the_map_names() -> None:
    root = Path(__file__).resolve().parents[2]
    for path in [root / "adjudicator" / "wallenstein" / "data" / "counties.json",
                 root.parent / "shared" / "data" / "wallenstein" / "provinces.json"]:
        if path.exists():
            data = json.loads(path.read_text("utf-8"))
            rows = data.get("provinces", data.get("counties", data)) if isinstance(data, dict) else data
            names = {r["name"] for r in (rows.values() if isinstance(rows, dict) else rows)}
            assert names == set(canonical_names()), path
            return
    pytest.skip("no county data file found")
