"""The GM's side of observers (``pbem observe``): an address made to follow a running or open
game, or no longer; the observers themselves are :mod:`pbem.club.observers`."""

from __future__ import annotations

from typing import Any

from pbem.club import lobby, observers
from pbem.errors import DomainError
from pbem.store.auth import parse_address


def gm_observe(service: Any, game_id: str, address: str, stopping: bool = False) -> tuple[str, str]:
    """The GM lets ``address`` (as written in a mail header) follow ``game_id`` (a running game
    or an open one not started), or no longer (``stopping``); ``(the observer's name, the bare
    address)``. An unknown game is a one-line :class:`DomainError`."""
    if service.store.game_row(game_id) is None:
        if not lobby.is_open(service.store, game_id):
            raise DomainError(f"no game {game_id!r} in {service.store.path}")
    bare = parse_address(address)[1].lower()
    with service.store.transaction():
        observer = (observers.stop if stopping else observers.add)(service, game_id, bare, "gm")
    return observer, bare
