"""Wallenstein (Dirk Henn, Queen Games, 2nd edition): the base-game engine.

Rules reference as implemented: docs/wallenstein-rules.md; derived events:
docs/wallenstein-events.md; the cube-tower model: docs/wallenstein-tower.md.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ENGINE"]


def __getattr__(attr: str) -> Any:
    """The engine, imported when first asked for: the registry entry (``game``) is read
    without loading the engine's tables."""
    if attr in __all__:
        from adjudicator.wallenstein import engine

        return getattr(engine, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
