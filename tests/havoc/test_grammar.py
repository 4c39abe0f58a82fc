"""The Havoc order grammar: examples, round trip (hypothesis), arbitrary text never crashes."""

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.havoc import ENGINE
from adjudicator.havoc.cards import SUITS, card_name, dog_name
from turns.base import check_orders
from turns.games import format_orders as registered_format, grammar_for
from turns.havoc import format_orders, parse

CASES = json.load(open(os.path.join(os.path.dirname(__file__), "cases", "grammar.json"), encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["parse"], ids=[c["id"] for c in CASES["parse"]])
def test_parse_examples(case):
    result = parse(case["text"])
    assert [p.line for p in result.problems] == case.get("problem_lines", [])
    assert result.orders == case["orders"]
    if not result.problems:
        assert parse(format_orders(result.orders)).orders == result.orders


def test_registered():
    assert grammar_for("havoc") is parse
    assert registered_format("havoc", [{"kind": "pass"}]) == "PASS\n"


cards = st.one_of(
    st.builds(card_name, st.sampled_from(SUITS), st.integers(1, 18)),
    st.builds(dog_name, st.integers(1, 12)), st.just("dog"), st.integers(1, 18).map(str))
named = st.builds(card_name, st.sampled_from(SUITS), st.integers(1, 18))
simple = st.one_of(
    st.builds(lambda c: {"kind": "recruit", "card": c}, st.one_of(st.just("deck"), named)),
    st.builds(lambda c: {"kind": "sic", "card": c}, st.one_of(st.just("deck"), named)),
    st.builds(lambda p: {"kind": "loot", "prefs": p}, st.lists(named, max_size=3)),
    st.builds(lambda c: {"kind": "lay", "card": c}, st.one_of(st.just("lowest"), named)),
    st.builds(lambda c: {"kind": "discard", "card": c}, st.one_of(st.just("lowest"), named)),
    *[st.builds(lambda c, k=k: {"kind": k, "cards": c}, st.lists(cards, min_size=1, max_size=6))
      for k in ("havoc", "join", "add", "final")],
    st.sampled_from([{"kind": "stay"}, {"kind": "pass"}, {"kind": "keep"}]),
    st.builds(lambda c: {"kind": "scavenge", "card": c}, named),
    st.builds(lambda n: {"kind": "exchange", "count": n}, st.integers(0, 2)),
    st.builds(lambda b: {"kind": "next", "battle": b}, st.sampled_from(["sluys", "crecy", "agincourt", "formigny"])),
)


@st.composite
def standing(draw):
    order = {"kind": "standing", "when": draw(st.sampled_from(["recruit", "join", "round", "dogs", "final"])),
             "then": draw(st.lists(simple, min_size=1, max_size=3))}
    if draw(st.booleans()):
        order["if"] = draw(st.sampled_from([{"laid_max": 2}, {"hand_min": 5}]))
        if draw(st.booleans()):
            order["else"] = draw(st.lists(simple, min_size=1, max_size=2))
    return order


@given(st.lists(st.one_of(simple, standing(), st.just({"kind": "standing", "clear": True})), max_size=8))
@settings(max_examples=200, deadline=None)
def test_round_trip(orders):
    result = parse(format_orders(orders))
    assert result.ok, result.problems
    assert result.orders == orders


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_arbitrary_text_never_crashes(text):
    result = parse(text)
    assert all(p.line >= 1 for p in result.problems)


def test_check_orders_maps_rule_problems_to_lines():
    state, _ = ENGINE.create(["a", "b", "c"], {}, "grammar")
    seat = ENGINE.pending(state).seats[0]
    text = "# my turn\nRECRUIT DECK\nRECRUIT DECK\nLAY orange18\n"
    result = check_orders(ENGINE, parse, state, seat, text)
    assert [p.line for p in result.problems] == [4]
    ok = check_orders(ENGINE, parse, state, seat, "RECRUIT DECK\nRECRUIT DECK\nLAY LOWEST\n")
    assert ok.ok and len(ok.orders) == 3
