"""A toy fourth game laid out as every game is: one module per layer plus one registry entry.

"Dice race" is the toy dice duel (tests/toy.py) under its own name, found only through its
registry entry (``tests/toygame/game.py``): its engine (``engine``), its grammar
(``grammar``, the turns layer) and its reports (``reports``: a tiny text and HTML renderer
and the game's names). :func:`register` adds it at run time, as a plug-in would; no shared
module of pbem names it.
"""

from __future__ import annotations

from adjudicator import games


def register() -> str:
    """Add the toy game's registry entry; its name."""
    from tests.toygame.game import GAME

    games.add(GAME)
    return GAME.name


def unregister() -> None:
    """Take the toy game's entry away again (other tests never see it)."""
    from adjudicator import registry
    from tests.toygame.game import GAME

    games.remove(GAME.name)
    registry._REGISTRY.pop(GAME.name, None)  # the engine the entry's first use loaded
