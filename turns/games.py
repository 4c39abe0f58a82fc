"""Where each game's grammar lives: importing a game's grammar modules (its registry entry's
``grammar``, :class:`adjudicator.gameinfo.GameInfo`) registers its grammar (see
:func:`turns.base.register_grammar`). Only the game asked for is imported, so checking one
game's order mail does not load the others' grammars and data; each game is imported once."""

from __future__ import annotations

import importlib

from adjudicator import games

_LOADED: set[tuple[str, ...]] = set()


def load(game: str | None = None) -> None:
    """Import the grammar modules of ``game`` (of every game when it is None or has none)."""
    modules = games.info(game).grammar if game else ()
    if not modules:
        modules = tuple(m for g in games.names() for m in games.info(g).grammar)
    if modules in _LOADED:
        return
    for name in modules:
        importlib.import_module(name)
    _LOADED.add(modules)
