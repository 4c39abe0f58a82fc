"""Recording the club's events: appended after the game's last event, the games projection
(its log head, turn, winner) brought up to date in the same transaction, the game reloaded."""

from __future__ import annotations

from typing import Any

from pbem.store.db import NewEvent


def append(service: Any, game: Any, new: list[NewEvent]) -> tuple[list[Any], Any]:
    """Append ``new`` after ``game``'s last event (a stale ``game`` gets a conflict error) inside
    the caller's transaction; ``(the stored events, the game reloaded)``."""
    stored = service.store.append(game.game_id, new, game.last_seq).events
    after = service.load(game.game_id)
    service._project(after)  # the projection's log head moves with the log (else: "truncated")
    return stored, after
