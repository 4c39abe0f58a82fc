"""The registry of game engines: name -> engine.

The built-in engines come from :mod:`adjudicator.games` (one line per game); tests and
plug-ins may add more with :func:`register`. The imports run one way only:
``registry -> games -> <engine packages> -> base``; :mod:`adjudicator.base` imports no
engine, so there is no import circle.
"""

from __future__ import annotations

from adjudicator.base import Engine, GameError
from adjudicator.games import BUILTIN

_REGISTRY: dict[str, Engine] = {engine.name: engine for engine in BUILTIN}


def register(engine: Engine) -> Engine:
    """Add ``engine`` to the registry of games under its ``name`` (and return it)."""
    _REGISTRY[engine.name] = engine
    return engine


def get_engine(name: str) -> Engine:
    """The engine registered as ``name``; raises :class:`GameError` if unknown."""
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise GameError(f"unknown game {name!r} (known: {known})") from None


def engine_names() -> list[str]:
    """Names of all registered games."""
    return sorted(_REGISTRY)
