"""Every worked example of the rulebook, as a case file with the rulebook's own numbers."""

from __future__ import annotations

import pytest

from adjudicator.gods_playground.releases import RELEASES
from tests.gods_playground.cases import CASES, get, load, run
from tests.versioned import rules_of

NAMES = sorted(p.name for p in CASES.glob("*.json"))


@pytest.mark.parametrize("name", NAMES)
def test_rulebook_example(name):
    case = load(name)
    assert case["example"] and case["rule"]
    with rules_of(RELEASES, case):  # a case of an earlier version says which ("version")
        state, events, results = run(case)
    for path, value in case.get("expect", {}).items():
        assert get(state, path) == value, f"{case['example']}: {path} is {get(state, path)!r}, expected {value!r}"
    for key, value in case.get("results", {}).items():
        assert results[key] == value, f"{case['example']}: {key} is {results[key]!r}, expected {value!r}"
    for want in case.get("events", []):
        assert any(all(e.get(k) == v for k, v in want.items()) for e in events), f"no event {want} in {events}"


def test_every_listed_example_has_a_case():
    for needed in ("income", "royal_army", "events", "elections", "buying_estates", "diplomacy", "right_of_arms",
                   "jesuits", "recruitment", "campaigns", "invasions_example1", "invasions_example2",
                   "invasions_example3", "counterattack", "raiding_example1", "raiding_example2", "estates",
                   "end_of_round", "victory_points", "end_of_game", "tie_break_1", "king"):
        assert f"{needed}.json" in NAMES


def test_second_reading_cases_quote_the_hungarian_sentence():
    found = 0
    for name in NAMES:
        case = load(name)
        if "second reading" in case["example"]:
            found += 1
            assert "„" in case.get("quote", ""), name
    assert found >= 6
