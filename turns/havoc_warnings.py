"""Warnings for legal Havoc orders that will do nothing as they stand (see
:mod:`turns.warnings`; found through the game's registry entry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Order = dict[str, Any]


def order_warnings(state: Any, seat: str, orders: Sequence[Order]) -> list[str]:
    """A standing-orders block replaces all standing orders (docs/orders-havoc.md, "Standing and
    conditional orders"): ``STANDING CLEAR`` clears them only alone; beside other STANDING lines
    those lines are the new standing orders."""
    standing = [o for o in orders if o.get("kind") == "standing"]
    if any(o.get("clear") for o in standing) and any(not o.get("clear") for o in standing):
        return ["STANDING CLEAR does nothing beside other STANDING lines: those lines are now your standing "
                "orders; to have none, send a block with STANDING CLEAR alone"]
    return []
