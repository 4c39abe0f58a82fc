"""The registry of game engines: name -> engine.

The engines of the games of :mod:`adjudicator.games` (the registry of games: each engine
imported when first asked for, the module its entry's ``engine`` names); tests and plug-ins
may add more engines with :func:`register` (and their games' entries with
:func:`adjudicator.games.add`). The imports run one way only: ``registry -> <engine packages>
-> base``, and ``registry -> games -> <entries>``; :mod:`adjudicator.base` imports no engine
and the registry of games imports no engine, so there is no import circle.
"""

from __future__ import annotations

from typing import Any

from adjudicator import games
from adjudicator.base import Engine, GameError

_REGISTRY: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add ``engine`` to the registry of games under its ``name`` (and return it)."""
    _REGISTRY[engine.name] = engine
    return engine


def get_engine(name: str) -> Engine:
    """The engine registered as ``name``; raises :class:`GameError` if unknown."""
    engine = _REGISTRY.get(name)
    if engine is None and games.info_of(name) is not None:  # a game of the registry: its engine is imported now
        engine = _REGISTRY.setdefault(name, _load(name))
    if engine is None:
        known = ", ".join(engine_names()) or "none"
        raise GameError(f"unknown game {name!r} (known: {known})")
    return engine


def engine_names() -> list[str]:
    """Names of all registered games."""
    return sorted(set(_REGISTRY) | set(games.names()))


def _load(name: str) -> Engine:
    """The engine of game ``name``, the ``ENGINE`` of the module its entry names (imported now)."""
    module = games.hook(name, "engine")
    if module is None:
        raise GameError(f"game {name!r} names no engine in its registry entry")
    return module.ENGINE  # type: ignore[no-any-return]


def __getattr__(attr: str) -> Any:
    if attr == "BUILTIN":  # every built-in engine, imported on first use
        return tuple(get_engine(name) for name in games.BUILTIN_PACKAGES)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
