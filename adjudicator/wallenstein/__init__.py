"""Wallenstein (Dirk Henn, Queen Games, 2nd edition): the base-game engine.

Rules reference as implemented: docs/wallenstein-rules.md; derived events:
docs/wallenstein-events.md; the cube-tower model: docs/wallenstein-tower.md.
"""

from adjudicator.wallenstein.engine import ENGINE

__all__ = ["ENGINE"]
