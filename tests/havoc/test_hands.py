"""The 17 ranks as a data table, comparisons within ranks, the Dogs-out rule, the strongest lay."""

import json
import os
import random
from itertools import combinations

import pytest

from adjudicator.havoc.cards import SUITS, parse_card
from adjudicator.havoc.hands import RANKS, battle_strength, best_lay, describe_strength, evaluate, rank_key
from adjudicator.havoc.lay import default_lay, strongest_lay
from adjudicator.havoc.releases import RELEASES

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


LAYS = json.load(open(os.path.join(os.path.dirname(__file__), "cases", "lays.json"), encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", LAYS, ids=[c["id"] for c in LAYS])
def test_strongest_lay(case):
    lay = strongest_lay(case["hand"])
    found = describe_strength(strength(lay))
    assert (found["rank"], found["tiebreak"], found["kickers"], len(lay)) == \
        (case["rank"], case["tiebreak"], case["kickers"], case["cards"]), lay
    assert set(lay) <= set(case["hand"]) and len(set(lay)) == len(lay)


def _plain_search(hand):
    """Every subset of at most 6 cards: the strongest, of equal ones the longest."""
    lays = (list(sub) for k in range(1, min(6, len(hand)) + 1) for sub in combinations(hand, k))
    return max((strength(lay), len(lay)) for lay in lays)


def test_strongest_lay_is_the_plain_search_over_every_subset():
    rng = random.Random(27)
    full = [f"{s}{v:02d}" for s in SUITS for v in range(1, 19)] + [f"dog{i:02d}" for i in range(1, 13)]
    narrow = [f"{s}{v:02d}" for s in SUITS[:3] for v in range(1, 7)] + [f"dog{i:02d}" for i in range(1, 7)]
    for i in range(200):  # cheap; 5,000 hands of up to 11 cards agreed too
        hand = rng.sample(narrow if i % 2 else full, rng.randint(1, 8))
        lay = strongest_lay(hand)
        assert (strength(lay), len(lay)) == _plain_search(hand), hand


def test_the_default_lay_is_the_strongest_from_version_3_only():
    hand = LAYS[0]["hand"]
    with RELEASES.pinned(RELEASES.get("2")):
        assert len(default_lay(hand)) == 5  # version 2's bounded search, kept for its games
    with RELEASES.pinned(RELEASES.get("3")):
        assert len(default_lay(hand)) == 6
