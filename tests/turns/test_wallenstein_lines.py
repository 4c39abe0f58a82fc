"""The Wallenstein order-line table (tests/turns/data/wallenstein_lines.txt), one case a line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from turns.wallenstein import format_orders, parse

TABLE = Path(__file__).parent / "data" / "wallenstein_lines.txt"
_PROBLEM = re.compile(r"!\s*(\w+):\s*(.*?)\s*(?:\[(.*)\])?\s*$")


def load_cases() -> list[tuple[int, str, str]]:
    """(line number in the table, order line, expected) for every case of the table."""
    cases = []
    for number, row in enumerate(TABLE.read_text("utf-8").splitlines(), start=1):
        if row.strip() and not row.startswith("#"):
            text, expected = row.rsplit("  =>  ", 1)
            cases.append((number, text, expected.strip()))
    return cases


CASES = load_cases()


@pytest.mark.parametrize(("row", "text", "expected"), CASES, ids=[f"{n}:{t}" for n, t, _ in CASES])
def test_line(row: int, text: str, expected: str) -> None:
    result = parse(text + "\n", None)
    got = [str(p) for p in result.problems]
    where = f"{TABLE.name}:{row}: {text!r} gave orders {result.orders} problems {got}"
    if not expected.startswith("!"):
        assert result.problems == [], where
        assert result.orders == [json.loads(expected)], where
        assert result.lines == [1], where
        assert parse(format_orders(result.orders)).orders == result.orders, where
        return
    wanted = [_PROBLEM.fullmatch(part.strip()) for part in expected.split("&&")]
    assert all(wanted), f"{TABLE.name}:{row}: bad expectation {expected!r}"
    assert result.orders == [], where
    assert len(result.problems) == len(wanted), where
    for problem, match in zip(result.problems, wanted):
        assert match is not None
        stage, message, suggestions = match.groups()
        assert problem.line == 1 and problem.text == text, where
        assert problem.stage == stage, where
        assert message in problem.message, where
        if suggestions is not None:
            listed = [s.strip() for s in suggestions.split(",")]
            assert list(problem.suggestions[:len(listed)]) == listed, where


def test_table_is_not_empty() -> None:
    assert len(CASES) > 100
