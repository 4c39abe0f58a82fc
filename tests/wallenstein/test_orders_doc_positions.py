"""The new order forms' examples in docs/orders-wallenstein.md validate against a real position."""

from __future__ import annotations

import re
from pathlib import Path

from adjudicator.wallenstein import ENGINE
from tests.wallenstein import scenario
from turns.wallenstein import parse

DOC = (Path(__file__).resolve().parents[2] / "docs" / "orders-wallenstein.md").read_text("utf-8")
POSITION = {"counties": {"Anhalt": {"owner": "gabor", "armies": 5}, "Kursachsen": {"owner": "gabor", "armies": 1},
                         "Vogtland": {"owner": "gabor", "armies": 1}, "Altmark": {"owner": "eva", "armies": 1}}}


def _examples() -> list[str]:
    lines = re.findall(r"^\| `((?:ATTACKA Anhalt|FAMINE)[^`]*)` \|", DOC, flags=re.M)
    lines += re.findall(r"^((?:ATTACKA Anhalt|FAMINE) [^\n]*)$", DOC, flags=re.M)
    return lines


def test_the_examples_are_there() -> None:
    found = _examples()
    assert any("ELSE" in x for x in found) and any("LEAVE" in x for x in found)
    assert any(" IF " in x for x in found) and any(x.startswith("FAMINE") for x in found)


def test_each_example_validates_in_a_whole_plan() -> None:
    state = scenario.build(POSITION)
    for line in _examples():
        rest = "TAX Kursachsen\nGRAIN Vogtland\nBID NONE\n"
        if line.startswith("FAMINE"):
            rest += "ATTACKA Anhalt TO Altmark WITH 2\n"
        result = parse(line + "\n" + rest)
        assert result.ok, (line, [str(p) for p in result.problems])
        assert ENGINE.validate(state, "gabor", result.orders) == [], line
