"""Warnings for legal orders that will do nothing as the position stands (accepted, but the
reply says so): e.g. ``ATTACKA Schlesien TO Böhmen WITH ALL`` from a county with one army.

Pure functions of the state the orders were checked against; the shell adds the result to
the reply's warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Order = dict[str, Any]


def order_warnings(game: str, state: Any, seat: str, orders: Sequence[Order]) -> list[str]:
    """The warnings of ``orders`` for ``game`` (none for a game without a rule here)."""
    rule = _RULES.get(game)
    return rule(state, seat, orders) if rule is not None else []


def _wallenstein(state: Any, seat: str, orders: Sequence[Order]) -> list[str]:
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


def _havoc(state: Any, seat: str, orders: Sequence[Order]) -> list[str]:
    """A standing-orders block replaces all standing orders (docs/orders-havoc.md, "Standing and
    conditional orders"): ``STANDING CLEAR`` clears them only alone; beside other STANDING lines
    those lines are the new standing orders."""
    standing = [o for o in orders if o.get("kind") == "standing"]
    if any(o.get("clear") for o in standing) and any(not o.get("clear") for o in standing):
        return ["STANDING CLEAR does nothing beside other STANDING lines: those lines are now your standing "
                "orders; to have none, send a block with STANDING CLEAR alone"]
    return []


_RULES: dict[str, Callable[[Any, str, Sequence[Order]], list[str]]] = {"wallenstein": _wallenstein, "havoc": _havoc}
