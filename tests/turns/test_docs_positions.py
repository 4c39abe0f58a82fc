"""Every order example of the player docs is accepted by the engine in a real game position,
not only parsed: the position is a real new game in which the seat is given the counties the
example plays from (`PALACE Böhmen` with `ATTACKA Böhmen ...` was refused)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from adjudicator.registry import get_engine
from turns.envelope import parse_blocks
from turns.wallenstein import parse

DOCS = Path(__file__).resolve().parents[2] / "docs"
SEATS = ["red", "blue", "yellow", "black"]


def _blocks(name: str) -> list[str]:
    return re.findall(r"```\n(.*?)```", (DOCS / name).read_text("utf-8"), flags=re.S)


def _position(orders: list[dict[str, Any]], options: dict[str, str] | None = None) -> dict[str, Any]:
    """A new 4-seat game where red owns every county its orders play from or move within."""
    engine = get_engine("wallenstein")
    state, _ = engine.create(SEATS, dict(options or {}), "docs-examples")
    mine = {o["county"] for o in orders if o.get("county")}
    mine |= {o["to"] for o in orders if o.get("action") == "recruit1" and o.get("to")}
    mine |= {o["county"] for o in orders if o.get("kind") == "bid" and o.get("county")}
    for name in mine:
        state["counties"][name].update(owner="red", armies=4)
    return state


def _problems(text: str, options: dict[str, str] | None = None) -> list[str]:
    result = parse(text)
    assert result.ok, [str(p) for p in result.problems]
    state = _position(result.orders, options)
    parsed = parse(text, state)
    return [p.message for p in get_engine("wallenstein").validate(state, "red", parsed.orders)]


def _card(line: str) -> str | None:
    """The county card an order line places (None for a bid of money)."""
    orders = parse(line).orders
    return orders[0].get("county") if orders else None


def _plan_blocks() -> list[str]:
    """The season-plan examples of docs/orders-wallenstein.md: the actions block and the mail's block."""
    blocks = _blocks("orders-wallenstein.md")
    actions = next(b for b in blocks if b.startswith("PALACE "))
    mail = parse_blocks(next(b for b in blocks if b.startswith("Hi all"))).blocks[0].body
    return [actions, mail]


@pytest.mark.parametrize("which", ["actions", "mail"])
def test_season_plan_examples_are_legal_plans(which):
    block = dict(zip(["actions", "mail"], _plan_blocks()))[which]
    assert _problems(block) == []


def test_the_check_finds_a_county_card_used_twice():
    actions = _plan_blocks()[0]
    broken = re.sub(r"^PALACE \S+", "PALACE Böhmen", actions, flags=re.M)
    assert any("Böhmen" in p for p in _problems(broken))


def test_court_example_is_legal_added_to_a_season_plan():
    blocks = _blocks("orders-wallenstein.md")
    court = next(b for b in blocks if b.startswith("COURT3 "))
    actions = _plan_blocks()[0]
    base = "\n".join(line for line in actions.splitlines() if not line.startswith("BID "))
    engine = get_engine("wallenstein")
    text = base + "\n" + court
    result = parse(text)
    assert result.ok, [str(p) for p in result.problems]
    state = _position(result.orders, {"expansion": "court"})
    state["court"]["display"] = [{"number": n, "place": p} for n, p in ((10, 4), (8, 3), (2, 2))]  # "10, 8 and 2"
    problems = engine.validate(state, "red", parse(text, state).orders)
    assert [p.message for p in problems] == []


def test_every_single_order_line_of_the_tables_is_legal_in_a_plan():
    """Each table row, put in place of the matching line of the actions example, keeps the plan legal."""
    text = (DOCS / "orders-wallenstein.md").read_text("utf-8")
    base_section = text.split("## The setup draft", 1)[0]
    rows = re.findall(r"^\| `((?:PALACE|CHURCH|TRADE|GRAIN|TAX|RECRUIT\d|ATTACK[AB]|BID) [^`<]*)` \|", base_section, re.M)
    assert len(rows) >= 2
    actions = _plan_blocks()[0]
    rows.remove("BID NONE")  # legal only with no card left for the bid space, as its row says
    for row in rows:
        keyword, card = row.split()[0], _card(row)
        # the row replaces the plan's line of the same keyword, and any line using its county card
        lines = [line for line in actions.splitlines() if line.split()[0] != keyword and (not card or _card(line) != card)]
        assert _problems("\n".join([*lines, row])) == [], row


def test_draft_example_is_legal_in_a_four_seat_draft():
    draft = next(b for b in _blocks("orders-wallenstein.md") if b.startswith("DRAFT "))
    engine = get_engine("wallenstein")
    state, _ = engine.create(SEATS, {"setup": "draft"}, "docs-examples")
    assert [p.message for p in engine.validate(state, "red", parse(draft, state).orders)] == []
