"""Which bot plays a seat: a seat in civil disorder or away (:mod:`pbem.club.absence`), the
demo's and ``pbem bots``' seats (:mod:`pbem.loop.demo`).

A bot is the game's own (its registry entry's ``bot``, a ``heuristic_orders``) where it has one,
played under the game's rules version, else the engine's random legal orders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.base import Order, State
from adjudicator.chance import Stream

Bot = Callable[[State, str, Stream], list[Order]]


def bot_for(game: Any, kind: str) -> Bot:
    """The bot of ``kind`` (``heuristic`` where the game has one, else ``random``)."""
    if kind == "heuristic":
        from adjudicator import games

        heuristic = games.hook(game.engine.name, "bot")  # the game's registry entry names its bot
        if heuristic is not None:
            from adjudicator.versions import under

            return under(game.engine, heuristic)  # under the game's own rules version
    return game.engine.random_orders
