"""Warnings for legal orders that will do nothing as the position stands (accepted, but the
reply says so): e.g. ``ATTACKA Schlesien TO Böhmen WITH ALL`` from a county with one army.

Pure functions of the state the orders were checked against; the shell adds the result to
the reply's warnings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from adjudicator import games

Order = dict[str, Any]


def order_warnings(game: str, state: Any, seat: str, orders: Sequence[Order]) -> list[str]:
    """The warnings of ``orders`` for ``game``: the ``order_warnings`` its registry entry names
    (none for a game without one)."""
    rule = _rule(game)
    return list(rule(state, seat, orders)) if rule is not None else []


def _rule(game: str) -> Callable[[Any, str, Sequence[Order]], list[str]] | None:
    """The game's warning rule."""
    return games.hook(game, "warnings")  # type: ignore[no-any-return]
