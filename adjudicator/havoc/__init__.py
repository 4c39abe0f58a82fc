"""Havoc: The Hundred Years War (+ John of Gaunt): the pure rules engine.

Modules: ``cards`` (names, deck), ``hands`` (the 17 ranks), ``tables`` (data files),
``setup`` (create), ``turn`` (recruiting, the Peace card), ``battle`` (battles, Dogs, John of
Gaunt), ``final`` (Formigny/Castillon, the winner), ``flow`` (pending and settling),
``bots`` (default and random orders), ``standing`` (standing orders), ``view``, ``engine``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ENGINE", "HavocEngine"]


def __getattr__(attr: str) -> Any:
    """The engine, imported when first asked for: the registry entry (``game``) is read
    without loading the engine's tables."""
    if attr in __all__:
        from adjudicator.havoc import engine

        return getattr(engine, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
