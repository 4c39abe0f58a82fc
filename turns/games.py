"""Where each game's grammar lives: importing a game's modules registers its grammar (see
:func:`turns.base.register_grammar`). Only the game asked for is imported, so checking one
game's order mail does not load the others' grammars and data."""

from __future__ import annotations

import importlib

#: The grammar modules of each game (a game not named here: every module is imported).
MODULES = {"wallenstein": ("turns.wallenstein",), "havoc": ("turns.havoc",),
           "gods-playground": ("turns.gods_playground", "turns.gods_playground_plan")}


def load(game: str | None = None) -> None:
    """Import the grammar modules of ``game`` (of every game when it is None or not known)."""
    names = MODULES.get(game or "") or tuple(m for ms in MODULES.values() for m in ms)
    for name in names:
        importlib.import_module(name)
