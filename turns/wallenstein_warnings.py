"""Warnings for legal Wallenstein orders that will do nothing as the position stands (see
:mod:`turns.warnings`; found through the game's registry entry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Order = dict[str, Any]


def order_warnings(state: Any, seat: str, orders: Sequence[Order]) -> list[str]:
    """Rule 4.1.3 items 8-9: a move leaves one army behind; RECRUIT1 moves after recruiting one."""
    counties = state.get("counties") or {} if isinstance(state, dict) else {}
    out = []
    for order in orders:
        action, county, spec = order.get("action"), order.get("county"), order.get("armies")
        if action not in ("attacka", "attackb", "recruit1") or spec is None or county not in counties:
            continue
        here = int(counties[county].get("armies") or 0)
        available = here + (1 if action == "recruit1" else 0)  # RECRUIT1 places its army first
        movable = max(0, available - 1)
        words = f"{action.upper()} {county} TO {order.get('to')} WITH {spec}" if action != "recruit1" else \
            f"RECRUIT1 {county} MOVE {spec} TO {order.get('to')}"
        army = "army" if here == 1 else "armies"
        if spec == "ALL" and movable == 0:
            out.append(f"{words}: {county} has {here} {army} now and one must stay, so this moves nothing "
                       "unless armies arrive there earlier in the season")
        elif isinstance(spec, int) and spec > movable:
            out.append(f"{words}: {county} has {here} {army} now" + (" (+1 recruited)" if action == "recruit1" else "")
                       + f" and one must stay, so at most {movable} can move; as it stands this moves nothing "
                       "unless armies arrive there earlier in the season")
    return out
