"""What a replay that does not reproduce the log raises.

Kept apart from :mod:`pbem.store.events` (which re-exports both) so that the modules the fold
calls (:mod:`pbem.store.rollback`, :mod:`pbem.store.verifyturn`, :mod:`pbem.store.clubstate`)
can raise them without importing the fold back.
"""

from __future__ import annotations


class ReplayMismatch(Exception):
    """Replaying the engine did not reproduce a recorded hash or derived event."""


class EngineVersionMismatch(ReplayMismatch):
    """The game was played with a rules version this pbem does not know."""
