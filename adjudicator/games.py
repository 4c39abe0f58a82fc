"""The built-in game engines, one line per game (read by :mod:`adjudicator.registry`).

This module names the engine packages and nothing imports it back from them, so the
dependency runs one way: ``registry -> games -> engines -> base``. An engine package is
imported only when its game is asked for (a command on one Wallenstein game never loads
Havoc's or God's Playground's tables); ``BUILTIN`` imports them all.
"""

from __future__ import annotations

import importlib
from typing import Any

#: game name -> the package whose ``ENGINE`` plays it (the name is the engine's ``name``).
MODULES = {
    "wallenstein": "adjudicator.wallenstein",
    "havoc": "adjudicator.havoc",
    "gods-playground": "adjudicator.gods_playground",
}


def load(name: str) -> Any:
    """The engine of built-in game ``name`` (importing its package now)."""
    return importlib.import_module(MODULES[name]).ENGINE


def __getattr__(attr: str) -> Any:
    if attr == "BUILTIN":  # every built-in engine, imported on first use
        return tuple(load(name) for name in MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
