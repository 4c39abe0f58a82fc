"""The God's Playground order language: every documented example parses, names in three
languages, fallbacks, canonical text round trips, problems with lines and suggestions."""

from __future__ import annotations

import re
from pathlib import Path

from turns.gods_playground import format_orders, parse

DOC = Path(__file__).resolve().parents[2] / "docs" / "orders-gods-playground.md"


def _examples() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:orders)?\n(.*?)```", text, flags=re.S)
    lines = []
    for block in blocks:
        lines += [ln for ln in block.splitlines() if ln.strip() and not ln.startswith(("GAME", "END"))]
    return lines


def test_every_example_in_the_doc_parses_and_round_trips():
    lines = _examples()
    assert len(lines) > 25
    for line in lines:
        result = parse(line)
        assert result.ok and len(result.orders) == 1, (line, result.problems)
        again = parse(format_orders(result.orders))
        assert again.orders == result.orders, line


def test_names_in_english_polish_hungarian_with_or_without_accents():
    for written in ("Little Poland", "Małopolska", "Malopolska", "Kis-Lengyelország", "kis lengyelorszag"):
        assert parse(f"BUY {written}").orders == [{"kind": "buy", "alts": [{"province": "little_poland"}]}]
    for written in ("Swedes", "Szwedzi", "svédek", "Teutonic Knights", "black"):
        assert parse(f"CAMPAIGN {written}").orders[0]["alts"][0]["enemy"] == "black"


def test_steward_and_town_name_the_estate_by_its_printed_value():
    for line in ("ACTION STEWARD Ukraine ON 2", "ACTION STEWARD Ukrajna 2", "ACTION steward ukraine worth 2"):
        assert parse(line).orders[0]["alts"] == [{"action": "steward", "province": "ukraine", "value": 2}], line
    assert parse("ACTION TOWN Litwa").orders[0]["alts"] == [{"action": "town", "province": "lithuania"}]


def test_fallbacks_in_order():
    order = parse("BUY Ukraine OR Lithuania ELSE PASS").orders[0]
    assert order["alts"] == [{"province": "ukraine"}, {"province": "lithuania"}, {"pass": True}]


def test_problems_name_the_line_and_suggest():
    result = parse("BUY Ukraine\nBUY Ukrane\nSHOUT loudly\nNOBLES Lithuania two")
    lines = {p.line: p for p in result.problems}
    assert set(lines) == {2, 3, 4}
    assert "Ukraine" in lines[2].suggestions and lines[2].stage == "name"
    assert "unknown order" in lines[3].message
