"""The toy game's order grammar (its turns layer): ``BID <0-3>``."""

from __future__ import annotations

from typing import Any

from tests.toy import format_orders, parse
from tests.toygame.game import NAME
from turns.base import register_grammar

#: The short order reminder its reports and welcome mails carry.
ORDER_HELP = "BID <0-3>   your secret bid of this round\n"


def order_warnings(state: Any, seat: str, orders: list[dict[str, Any]]) -> list[str]:
    """A bid of 0 is legal but cannot win the round alone."""
    return ["BID 0 leaves the round to your die alone"] if any(o.get("value") == 0 for o in orders) else []


register_grammar(NAME, parse, format_orders)
