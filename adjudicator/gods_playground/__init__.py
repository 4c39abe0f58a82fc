"""God's Playground (Martin Wallace, Treefrog Games 2009): the pure rules engine, 3 seats.

Modules: ``board`` (the board data file and ``board_json``), ``state`` (counting),
``setup`` (create), ``flow`` (the 16 phases as a state machine, pending, validate),
``phases`` (phases 1-11 that need no decision), ``aftermath`` (phases 13-16, the end),
``decisions`` (estates, special actions, recruitment), ``war`` (campaigns, counterattacks),
``combat`` (dice), ``plans`` (pre-sent orders), ``bots``, ``view``, ``engine``.
Rules as implemented: docs/gods-playground-rules.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ENGINE", "GodsPlaygroundEngine"]


def __getattr__(attr: str) -> Any:
    """The engine, imported when first asked for: the registry entry (``game``) is read
    without loading the engine's tables."""
    if attr in __all__:
        from adjudicator.gods_playground import engine

        return getattr(engine, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
