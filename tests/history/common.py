"""What the history tests share: the seats and a game played by forced adjudications."""

from __future__ import annotations

from typing import Any

SEATS = [("red", "r@x.org"), ("blue", "b@x.org"), ("green", "g@x.org")]


def play(service: Any, game_id: str, engine: str, options: dict[str, Any], steps: int, seed: str) -> Any:
    """Create ``game_id`` with :data:`SEATS` and ``seed``, force ``steps`` adjudications, and
    return the loaded game."""
    service.new_game(game_id, engine, SEATS, options, seed)
    for _ in range(steps):
        service.adjudicate(game_id, force=True)
    return service.load(game_id)
