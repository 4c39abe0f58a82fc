"""The 17 ranks as a data table, comparisons within ranks, the Dogs-out rule, best_lay."""

import json
import os

import pytest

from adjudicator.havoc.cards import parse_card
from adjudicator.havoc.hands import RANKS, battle_strength, best_lay, evaluate, rank_key

DATA = json.load(open(os.path.join(os.path.dirname(__file__), "cases", "ranks.json"), encoding="utf-8"))


def strength(cards):
    return evaluate([parse_card(c) for c in cards])


@pytest.mark.parametrize("case", DATA["ordered"], ids=[c["id"] for c in DATA["ordered"]])
def test_rank_of_each_example(case):
    assert rank_key(strength(case["cards"])) == case["rank"]


def test_table_is_in_rulebook_order_and_complete():
    assert [c["rank"] for c in DATA["ordered"]] == [key for key, _, _ in RANKS]
    values = [strength(c["cards"]) for c in DATA["ordered"]]
    assert values == sorted(values, reverse=True) and len(set(v[0] for v in values)) == 17


@pytest.mark.parametrize("case", DATA["beats"], ids=[c["id"] for c in DATA["beats"]])
def test_beats(case):
    assert battle_strength(case["a"])[0] > battle_strength(case["b"])[0]


@pytest.mark.parametrize("case", DATA["dogs_out"], ids=[c["id"] for c in DATA["dogs_out"]])
def test_dogs_out(case):
    found, out = battle_strength(case["laid"], case.get("declared", "best"))
    assert rank_key(found) == case["rank"] and len(out) == case["out"]


def test_best_lay_finds_the_straight_flush_over_the_flush():
    hand = ["blue05", "blue06", "blue07", "blue08", "blue09", "dog01", "grey02", "orange02"]
    lay = best_lay(hand)
    assert rank_key(strength(lay)) == "straight-flush-5" and len(lay) <= 6
